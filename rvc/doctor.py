"""``python -m rvc.doctor``: what to run first when the course misbehaves on a machine.

It prints one line per check, ``ok`` or ``FIX``, and after each ``FIX`` the one command or step
that mends it:

* the interpreter (Python 3.10 or newer);
* where ``rvc`` is imported from and its version, and that the installed distribution is the
  course's own (``rvc-course``; the PyPI project called ``rvc`` is an unrelated one);
* the versions of the packages the course needs;
* whether the notebooks' kernel (``python3``) runs this same environment: the most common
  fault is a notebook running in another Python, which has no rvc or other versions;
* whether the JupyterLab widget extension is installed, without which sliders show as text;
* whether the ``jupyter`` found first on the PATH belongs to this environment.

It never changes anything.  ``main()`` returns 0 when every check passed and 1 otherwise, so a
script or a test can use it; ``diagnose()`` returns the findings as data.

>>> findings = diagnose()
>>> findings[0].name
'python'
>>> all(f.status in ("ok", "FIX", "info") for f in findings)
True
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata as metadata
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from .results import Result

__all__ = ["Finding", "diagnose", "DISTRIBUTION", "PACKAGES"]

#: The name the course's package is installed under (the import name stays ``rvc``).
DISTRIBUTION = "rvc-course"

#: The packages of the design card, and the test and book tools, as pip names them.
PACKAGES = ("numpy", "scipy", "sympy", "matplotlib", "ipywidgets", "ipykernel", "jupyterlab",
            "jupyter-book", "nbval", "pytest")

INSTALL = "python -m pip install -r requirements.txt -c constraints.txt"


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class Finding(Result):
    """One check: its name, ``"ok"``, ``"FIX"`` or ``"info"``, what was found, and the fix."""

    name: str
    status: str
    found: str
    fix: str = ""

    def lines(self) -> list[str]:
        out = [f"{self.status:<4} {self.name:<14} {self.found}"]
        if self.fix:
            out.append(f"{'':<5}{'':<14} fix: {self.fix}")
        return out


def _same_environment(executable: str) -> bool:
    """True if ``executable`` is a Python of this environment (its prefix is ``sys.prefix``)."""
    path = Path(executable)
    if not path.is_absolute():
        found = shutil.which(executable)
        if found is None:
            return False
        path = Path(found)
    prefix = Path(sys.prefix).resolve()
    try:
        return path.resolve() == Path(sys.executable).resolve() or \
            path.absolute().parent.parent.resolve() == prefix
    except OSError:
        return False


def _python(version_info=sys.version_info) -> Finding:
    version = ".".join(map(str, version_info[:3]))
    found = f"Python {version} at {sys.executable}"
    if tuple(version_info[:2]) < (3, 10):
        return Finding("python", "FIX", found, "the course needs Python 3.10 or newer: create "
                       "the environment again with a newer python3 (python3 -m venv .venv)")
    return Finding("python", "ok", found)


def _rvc() -> list[Finding]:
    out = []
    try:
        rvc = importlib.import_module("rvc")
    except Exception as exc:                      # the doctor reports, it does not crash
        return [Finding("rvc", "FIX", f"import rvc fails: {type(exc).__name__}: {exc}",
                        f"in the course's folder: {INSTALL}")]
    where = Path(rvc.__file__).resolve().parent
    try:
        installed = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        out.append(Finding("rvc", "FIX", f"{rvc.__version__} imported from {where}, but the "
                           f"distribution {DISTRIBUTION} is not installed here",
                           f"in the course's folder: {INSTALL}"))
    else:
        status = "ok" if installed == rvc.__version__ else "FIX"
        fix = "" if status == "ok" else f"reinstall the course: {INSTALL}"
        out.append(Finding("rvc", status, f"{rvc.__version__} ({DISTRIBUTION} {installed}) "
                           f"imported from {where}", fix))
    try:
        wrong = metadata.distribution("rvc")
    except metadata.PackageNotFoundError:
        pass
    else:
        summary = wrong.metadata.get("Summary") or ""
        stale = Path(str(wrong.locate_file("rvc.egg-info")))
        if stale.is_dir() and stale.parent.resolve() == where.parent:
            out.append(Finding("rvc-name", "FIX", f"{stale} is left over from an install under "
                               "the old name rvc (Python takes it for an installed package "
                               "when run from the course's folder)", f"delete the folder {stale}"))
            return out
        if summary.startswith("Robot arm modelling"):
            found = (f"this course is also installed under its old name 'rvc' {wrong.version}")
        else:
            found = (f"a distribution named 'rvc' {wrong.version} is installed: another project "
                     f"({summary[:50] or 'no summary'})")
        out.append(Finding("rvc-name", "FIX", found,
                           "python -m pip uninstall rvc (never `pip install rvc`: that name "
                           "belongs to another project), then " + INSTALL))
    return out


def _packages() -> list[Finding]:
    out = []
    for name in PACKAGES:
        try:
            out.append(Finding(name, "ok", metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append(Finding(name, "FIX", "not installed in this Python",
                               f"in the course's folder: {INSTALL}"))
    return out


def _kernel() -> Finding:
    try:
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError:
        return Finding("kernel", "FIX", "jupyter_client is not installed here",
                       f"in the course's folder: {INSTALL}")
    try:
        spec = KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        return Finding("kernel", "FIX", "no kernel named python3 is installed",
                       f"{sys.executable} -m ipykernel install --sys-prefix --name python3")
    python = spec.argv[0] if spec.argv else ""
    where = spec.resource_dir
    if python in ("python", "python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
        # Jupyter replaces a bare "python" by the Python that runs JupyterLab itself.
        return Finding("kernel", "ok", f"python3 ({where}) runs the Python that starts "
                       "JupyterLab (see the jupyter line)")
    if _same_environment(python):
        return Finding("kernel", "ok", f"python3 runs this environment ({where})")
    return Finding("kernel", "FIX", f"the python3 kernel ({where}) runs {python}, not this "
                   f"environment's {sys.executable}: notebooks would run without this rvc",
                   f"{sys.executable} -m ipykernel install --sys-prefix --name python3 (or remove "
                   "that kernel folder), and start JupyterLab from this environment")


def _widgets() -> Finding:
    try:
        version = metadata.version("jupyterlab_widgets")
    except metadata.PackageNotFoundError:
        return Finding("widgets", "FIX", "jupyterlab_widgets is not installed: sliders show "
                       "as text", f"in the course's folder: {INSTALL}")
    extension = (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter-widgets"
                 / "jupyterlab-manager")
    if not (extension / "package.json").is_file():
        return Finding("widgets", "FIX", f"jupyterlab_widgets {version} is installed but its "
                       f"JupyterLab extension is missing from {extension.parent}",
                       "python -m pip install --force-reinstall --no-deps jupyterlab_widgets")
    return Finding("widgets", "ok", f"JupyterLab widget extension {version}")


def _jupyter() -> Finding:
    found = shutil.which("jupyter")
    mine = Path(sys.executable).parent / ("jupyter.exe" if os.name == "nt" else "jupyter")
    if found is None:
        return Finding("jupyter", "info", "no jupyter on the PATH", f"start JupyterLab as {mine} "
                       "lab notebooks/")
    if _same_environment(found) or Path(found).resolve() == mine.resolve():
        return Finding("jupyter", "ok", f"{found}")
    return Finding("jupyter", "FIX", f"the jupyter found first on the PATH is {found}, another "
                   "environment's", f"start JupyterLab as {mine} lab notebooks/")


def diagnose() -> list[Finding]:
    """Every check, in the order :func:`main` prints them."""
    return [_python(), *_rvc(), *_packages(), _kernel(), _widgets(), _jupyter()]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the checks; 0 when none needs a fix."""
    findings = diagnose()
    print("rvc doctor: the course's environment, checked")
    for f in findings:
        for line in f.lines():
            print(line)
    bad = [f.name for f in findings if f.status == "FIX"]
    print(f"{len(bad)} to fix: " + ", ".join(bad) if bad else "everything looks right")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
