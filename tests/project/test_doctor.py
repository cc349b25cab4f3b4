"""``python -m rvc.doctor``: every check runs, and each fault it looks for is reported with a fix."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from rvc import doctor


def test_it_runs_as_a_module_and_prints_every_check():
    run = subprocess.run([sys.executable, "-m", "rvc.doctor"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode in (0, 1), run.stderr
    names = [line.split()[1] for line in run.stdout.splitlines()[1:-1]
             if line[:4].strip() in ("ok", "FIX", "info")]
    for name in ("python", "rvc", "numpy", "scipy", "sympy", "matplotlib", "ipywidgets",
                 "jupyter-book", "nbval", "kernel", "widgets", "jupyter"):
        assert name in names, run.stdout
    lines = run.stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("FIX "):
            assert "fix: " in lines[i + 1], run.stdout       # every fault comes with its fix
    assert (run.returncode == 0) == ("everything looks right" in run.stdout)


def test_this_environment_is_healthy():
    """The environment make builds passes every check but the PATH (tests run .venv/bin/python
    directly, so the jupyter on the PATH may be another one)."""
    bad = [f for f in doctor.diagnose() if f.status == "FIX" and f.name != "jupyter"]
    assert bad == [], [f.lines() for f in bad]


def test_a_kernel_of_another_python_is_reported(monkeypatch):
    import jupyter_client.kernelspec as ks
    spec = SimpleNamespace(argv=["/usr/bin/python3.9", "-m", "ipykernel_launcher"],
                           resource_dir="/home/student/.local/share/jupyter/kernels/python3")
    monkeypatch.setattr(ks.KernelSpecManager, "get_kernel_spec", lambda self, name: spec)
    f = doctor._kernel()
    assert f.status == "FIX" and "/usr/bin/python3.9" in f.found
    assert "ipykernel install" in f.fix


def test_a_kernel_of_this_python_is_fine(monkeypatch):
    import jupyter_client.kernelspec as ks
    spec = SimpleNamespace(argv=[sys.executable, "-m", "ipykernel_launcher"], resource_dir="x")
    monkeypatch.setattr(ks.KernelSpecManager, "get_kernel_spec", lambda self, name: spec)
    assert doctor._kernel().status == "ok"


def test_a_missing_package_is_reported(monkeypatch):
    monkeypatch.setattr(doctor, "PACKAGES", ("numpy", "surely-not-installed-package"))
    found = {f.name: f for f in doctor._packages()}
    assert found["numpy"].status == "ok"
    assert found["surely-not-installed-package"].status == "FIX"
    assert "requirements.txt" in found["surely-not-installed-package"].fix


def test_the_wrong_rvc_is_reported(monkeypatch):
    real = doctor.metadata.distribution

    def distribution(name):
        if name == "rvc":
            return SimpleNamespace(version="0.3.5", metadata={"Summary": "Voice Conversion"},
                                   locate_file=lambda name: f"/site-packages/{name}")
        return real(name)

    monkeypatch.setattr(doctor.metadata, "distribution", distribution)
    wrong = [f for f in doctor._rvc() if f.name == "rvc-name"]
    assert len(wrong) == 1 and wrong[0].status == "FIX" and "another project" in wrong[0].found
    assert "pip uninstall rvc" in wrong[0].fix


@pytest.mark.parametrize("version, status", [((3, 9, 1), "FIX"), ((3, 10, 0), "ok")])
def test_an_old_python_is_reported(version, status):
    assert doctor._python(version).status == status
