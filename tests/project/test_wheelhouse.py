"""Issue 22, section 3: a lab without internet (``make wheelhouse``, tools/wheelhouse.py).

The tool's own logic on small synthetic wheels (markers decided for another platform, the
closure over each wheel's requirements), and, given a built wheelhouse (``RVC_WHEELHOUSE`` or
``wheelhouse/`` at the root, as ``make wheelhouse`` writes it), the README's offline route on
this machine: a fresh venv installs from it inside a network namespace, then imports rvc and
computes with it. Where that cannot be proved it skips, saying why; with
``RVC_REQUIRE_WHEELHOUSE=1`` (.ci/run's offline ``make test``) it fails instead.
"""

import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import wheelhouse  # noqa: E402

import rvc  # noqa: E402

WHEELHOUSE = Path(os.environ.get("RVC_WHEELHOUSE") or ROOT / "wheelhouse")
PYTHON = wheelhouse.NATIVE_PYTHON


def fake_wheel(folder: Path, name: str, version: str, tag: str = "py3-none-any", requires=(),
               requires_python: str = "") -> Path:
    path = folder / f"{name}-{version}-{tag}.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    if requires_python:
        meta += f"Requires-Python: {requires_python}\n"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}-{version}.dist-info/METADATA", meta)
    return path


def test_the_offline_requirements_replace_the_editable_checkout_by_the_course_wheel(tmp_path):
    assert wheelhouse.tree_version() == rvc.__version__
    text = wheelhouse.wheelhouse_requirements(ROOT / "requirements.txt", wheelhouse.tree_version())
    lines = [x for x in text.splitlines() if x and not x.startswith("#")]
    assert lines[0] == "-c constraints.txt"
    assert f"rvc-course=={rvc.__version__}" in lines
    assert not any(x.startswith("-e") for x in lines) and "rvc" not in [x.split("=")[0] for x in lines]
    course = [x.split("#")[0].strip() for x in (ROOT / "requirements.txt").read_text().splitlines()]
    assert [x for x in course if x and x != "-e ."] == [x.split("#")[0].strip() for x in lines[1:-1]]
    (tmp_path / "r.txt").write_text("numpy\n--index-url https://example.invalid\n")
    with pytest.raises(ValueError, match="--index-url"):
        wheelhouse.wheelhouse_requirements(tmp_path / "r.txt", "1.0")


def test_markers_are_decided_for_the_target_not_for_this_machine(tmp_path):
    (tmp_path / "c.txt").write_text('numpy==2.4.6 ; python_version >= "3.11"\n'
                                    'colorama==0.4.6 ; sys_platform == "win32"\n# a comment\n')
    text, kept = wheelhouse.evaluated(tmp_path / "c.txt", wheelhouse.marker_environment("win-amd64", "3.10"))
    assert text == "colorama==0.4.6\n" and [r.name for r in kept] == ["colorama"]
    text, _ = wheelhouse.evaluated(tmp_path / "c.txt", wheelhouse.marker_environment("macos-arm64", "3.12"))
    assert text == "numpy==2.4.6\n"
    env = wheelhouse.marker_environment("macos-arm64", "3.12")
    assert (env["sys_platform"], env["platform_machine"], env["python_version"]) == ("darwin", "arm64", "3.12")


def test_the_platform_names_stand_for_their_wheel_tags():
    assert "manylinux2014_x86_64" in wheelhouse.platform_tags("linux-x86_64")
    assert "manylinux_2_29_x86_64" not in wheelhouse.platform_tags("linux-x86_64")    # glibc 2.28 at most
    assert wheelhouse.platform_tags("win-amd64") == ["win_amd64"]
    mac = wheelhouse.platform_tags("macos-arm64")
    assert "macosx_11_0_arm64" in mac and "macosx_12_0_universal2" in mac and "macosx_13_0_arm64" not in mac
    with pytest.raises(ValueError, match="platforms: expected names among .*got 'win32'"):
        wheelhouse.platform_tags("win32")
    assert wheelhouse.main(["unused", "--pythons", "3"]) == 1


def test_the_closure_finds_what_pip_leaves_out_for_another_platform(tmp_path):
    """pip download --platform win_amd64 on Linux skips ``colorama; sys_platform == "win32"``."""
    fake_wheel(tmp_path, "click", "8.1.0", requires=['colorama; platform_system == "Windows"'])
    fake_wheel(tmp_path, "tool", "1.0", requires=["click>=8", "extra-thing; extra == 'fancy'"])
    fake_wheel(tmp_path, "numpy", "2.4.6", tag="cp311-cp311-win_amd64", requires_python=">=3.11")
    fake_wheel(tmp_path, "numpy", "2.2.6", tag="cp310-cp310-win_amd64", requires_python=">=3.10")
    top = [Requirement("tool"), Requirement("numpy")]
    pins = [Requirement("numpy==2.4.6")]
    assert [str(r) for r in wheelhouse.missing(tmp_path, top, pins, "linux-x86_64", "3.11")] == ["numpy==2.4.6"]
    assert [str(r) for r in wheelhouse.missing(tmp_path, top, pins, "win-amd64", "3.11")] == ["colorama"]
    assert [str(r) for r in wheelhouse.missing(tmp_path, top, [], "win-amd64", "3.10")] == ["colorama"]
    fake_wheel(tmp_path, "colorama", "0.4.6")
    assert wheelhouse.missing(tmp_path, top, pins, "win-amd64", "3.11") == []
    assert [str(r) for r in wheelhouse.missing(tmp_path, top, pins, "win-amd64", "3.10")] == ["numpy==2.4.6"]
    assert [str(r) for r in wheelhouse.missing(tmp_path, [Requirement("tool[fancy]")], [], "win-amd64",
                                               "3.12")] == ["extra-thing"]


PIP_ERROR = """ERROR: Cannot install jupyter-server because these package versions have conflicting dependencies.

The conflict is caused by:
    argon2-cffi 25.1.0 depends on argon2-cffi-bindings
    The user requested (constraint) argon2-cffi-bindings==26.2.0

Additionally, some packages in these conflicts have no matching distributions available for your environment:
    argon2-cffi-bindings
    Some_Other.pkg

To fix this you could try to:
"""


def test_a_pin_with_no_wheel_for_a_platform_is_lifted_there_only(tmp_path):
    """argon2-cffi-bindings 26.2.0 has no Intel macOS wheel: the folder's constraints say so."""
    assert wheelhouse.unavailable(PIP_ERROR) == {"argon2-cffi-bindings", "some-other-pkg"}
    assert wheelhouse.unavailable("ERROR: No matching distribution found for Foo_Bar==1.0\n") == {"foo-bar"}
    (tmp_path / "c.txt").write_text('# pins\nargon2-cffi-bindings==26.2.0 ; python_version >= "3.11"\n'
                                    "numpy==2.4.6\n")
    text = wheelhouse.relaxed_constraints(tmp_path / "c.txt", {"argon2-cffi-bindings": {"macos-x86_64"}})
    pins = {name: wheelhouse.evaluated_text(text, wheelhouse.marker_environment(name, "3.12"))
            for name in ("macos-x86_64", "macos-arm64", "linux-x86_64")}
    assert pins["macos-x86_64"] == "numpy==2.4.6\n"
    assert pins["macos-arm64"] == pins["linux-x86_64"] == "argon2-cffi-bindings==26.2.0\nnumpy==2.4.6\n"
    assert "has no wheel for macos-x86_64" in text
    (tmp_path / "constraints.txt").write_text(text)                # a later run for Linux alone keeps it
    assert wheelhouse.lifted_before(tmp_path / "constraints.txt", skip=["linux-x86_64"]) == {
        "argon2-cffi-bindings": {"macos-x86_64"}}
    assert wheelhouse.lifted_before(tmp_path / "constraints.txt", skip=["macos-x86_64"]) == {}
    assert wheelhouse.relaxed_constraints(tmp_path / "c.txt", {}) == (tmp_path / "c.txt").read_text()


def _clean_env(**extra):
    """No pip configuration of this machine (its extra indexes, find-links, constraints), no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV"))}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def _namespace_allowed() -> str:
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "no unshare or no ip command on this machine"
    done = subprocess.run(["unshare", "-n", "sh", "-c", "ip link set lo up"], capture_output=True, text=True)
    return "" if done.returncode == 0 else f"unshare -n is not allowed here: {done.stderr.strip()}"


def _skip(reason: str):
    if os.environ.get("RVC_REQUIRE_WHEELHOUSE"):
        pytest.fail(f"RVC_REQUIRE_WHEELHOUSE is set, but {reason}")
    pytest.skip(reason)


@pytest.mark.slow
def test_a_fresh_venv_installs_the_course_from_the_wheelhouse_with_no_network(tmp_path):
    if not (WHEELHOUSE / "requirements.txt").exists():
        _skip(f"no wheelhouse at {WHEELHOUSE}: build one with `make wheelhouse WHEEL_PLATFORMS=native "
                    f"WHEEL_PYTHONS=native` (or point RVC_WHEELHOUSE at one)")
    platform = wheelhouse.native_platform()
    wheels = {p.name for p in WHEELHOUSE.glob("*.whl")}
    if not any(n.startswith("numpy-") and f"-cp{PYTHON.replace('.', '')}-" in n for n in wheels):
        _skip(f"the wheelhouse {WHEELHOUSE} has no wheels for Python {PYTHON}: "
                    f"make wheelhouse WHEEL_PLATFORMS=native WHEEL_PYTHONS=native")
    assert f"rvc_course-{rvc.__version__}-py3-none-any.whl" in wheels, "rebuild it: make wheelhouse"
    env = wheelhouse.marker_environment(platform, PYTHON)
    _, top = wheelhouse.evaluated(WHEELHOUSE / "requirements.txt", env)
    _, pins = wheelhouse.evaluated(WHEELHOUSE / "constraints.txt", env)
    assert wheelhouse.missing(WHEELHOUSE, top, pins, platform, PYTHON) == []
    reason = _namespace_allowed()
    if reason:
        _skip(f"offline install not proved: {reason}")

    venv = tmp_path / "venv"                 # pip comes from this venv (--python): ensurepip alone takes ~20 s
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, env=_clean_env())
    python = venv / "bin" / "python"
    pip = f"{sys.executable} -m pip --python {python}"
    (tmp_path / "probe.py").write_text(textwrap.dedent("""
        import numpy as np, rvc
        from rvc.models import puma560
        print(rvc.__file__)
        T = puma560().fkine(np.zeros(6))
        R = rvc.rotx(0.3) @ rvc.roty(-0.2)
        print("fkine", np.round(T[:3, 3], 4).tolist(), "orthonormal", np.allclose(R @ R.T, np.eye(3)))
    """))
    script = (f"ip link set lo up && "
              f"{pip} install --quiet --no-compile --no-index --find-links {WHEELHOUSE} "
              f"-r {WHEELHOUSE / 'requirements.txt'} && {pip} check && "
              f"{python} probe.py")
    done = subprocess.run(["unshare", "-n", "sh", "-c", script], capture_output=True, text=True,
                          env=_clean_env(), cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    where, result = done.stdout.strip().splitlines()[-2:]
    assert Path(where).resolve().is_relative_to(venv.resolve()), where      # the wheel's rvc, not this tree's
    expected = np.round(rvc.models.puma560().fkine(np.zeros(6))[:3, 3], 4).tolist()
    assert result == f"fkine {expected} orthonormal True"

