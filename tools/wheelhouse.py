"""Download every wheel the course needs into one folder, for a lab without internet
(``make wheelhouse``).

    python tools/wheelhouse.py wheelhouse                          # every platform, Python 3.10-3.13
    python tools/wheelhouse.py wheelhouse --platforms native --pythons native   # this machine only

The folder gets the wheels of ``requirements.txt`` (within ``constraints.txt``) for each
platform and Python asked for, rvc-course's own wheel built from this tree, and the two files
the offline install reads: ``requirements.txt`` (the course's, with ``rvc-course==<version>``
in place of ``-e .``, and ``-c constraints.txt``) and a copy of ``constraints.txt``. A teacher
copies the folder to a USB stick; a student installs with no network::

    python -m pip install --no-index --find-links wheelhouse -r wheelhouse/requirements.txt

Platforms (names of this tool; each stands for the wheel tags pip may take for it):
``linux-x86_64`` and ``linux-aarch64`` (manylinux, glibc 2.28 or older: Debian 10, Ubuntu 20.04,
RHEL 8 and later), ``win-amd64``, ``macos-x86_64`` and ``macos-arm64`` (macOS 12 or later), and
``native`` (this machine's Linux); Pythons ``3.10`` ... or ``native`` (the one running this tool).

pip evaluates environment markers (``colorama; sys_platform == "win32"``, the constraints'
``python_version >= "3.11"``) for the machine it runs on, not for ``--platform`` and
``--python-version``. So each target is downloaded by an interpreter of the target's Python
where one is installed (``python3.X`` on PATH or pyenv's), from requirement and constraint
files whose markers this tool has evaluated for the target; then every requirement of every
wheel (its ``Requires-Dist``, markers evaluated for the target) is followed through the folder,
and what is missing (a Windows-only or macOS-only dependency) is fetched, until nothing is.
A pin of constraints.txt that has no wheel for a platform (argon2-cffi-bindings 26.2.0 has none
for Intel macOS) is lifted there: pip takes the newest version that has one, and the folder's
constraints.txt says so, with the pin's marker excluding that platform.
A package that exists only as a source distribution has its wheel built once with
``pip wheel``; it must come out pure Python (``py3-none-any``), or the tool stops and says so.
"""

from __future__ import annotations

import argparse
import os
import platform as _platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging import tags
from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
ALL_PLATFORMS = ("linux-x86_64", "linux-aarch64", "win-amd64", "macos-x86_64", "macos-arm64")
ALL_PYTHONS = ("3.10", "3.11", "3.12", "3.13")
GLIBC = 28                                 # manylinux_2_28 and older
MACOS = {"x86_64": (12, 0), "arm64": (12, 0)}
NATIVE_PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"


def _manylinux(arch: str) -> list[str]:
    found = [f"manylinux_2_{minor}_{arch}" for minor in range(GLIBC, 16, -1)] + [f"manylinux2014_{arch}"]
    if arch == "x86_64":
        found += ["manylinux_2_12_x86_64", "manylinux2010_x86_64", "manylinux_2_5_x86_64", "manylinux1_x86_64"]
    return found


def native_platform() -> str:
    machine = _platform.machine().lower()
    name = {"linux": {"x86_64": "linux-x86_64", "amd64": "linux-x86_64", "aarch64": "linux-aarch64",
                      "arm64": "linux-aarch64"},
            "win32": {"amd64": "win-amd64", "x86_64": "win-amd64"},
            "darwin": {"x86_64": "macos-x86_64", "arm64": "macos-arm64"}}.get(sys.platform, {}).get(machine)
    if name is None:
        raise ValueError(f"platforms: 'native' is not known for {sys.platform} on {machine}; "
                         f"name one of {', '.join(ALL_PLATFORMS)}")
    return name


def platform_tags(name: str) -> list[str]:
    """The wheel platform tags a target accepts, most specific first."""
    if name == "linux-x86_64":
        return _manylinux("x86_64")
    if name == "linux-aarch64":
        return _manylinux("aarch64")
    if name == "win-amd64":
        return ["win_amd64"]
    if name in ("macos-x86_64", "macos-arm64"):
        arch = name.split("-")[1]
        return list(tags.mac_platforms(MACOS[arch], arch))
    raise ValueError(f"platforms: expected names among {', '.join(ALL_PLATFORMS + ('native',))}, got {name!r}")


def marker_environment(name: str, python: str) -> dict:
    """The values of PEP 508 markers on a target (CPython ``python`` on platform ``name``)."""
    system, machine = {"linux-x86_64": ("Linux", "x86_64"), "linux-aarch64": ("Linux", "aarch64"),
                       "win-amd64": ("Windows", "AMD64"), "macos-x86_64": ("Darwin", "x86_64"),
                       "macos-arm64": ("Darwin", "arm64")}[name]
    env = dict(default_environment())
    env.update(python_version=python, python_full_version=full_version(python),
               implementation_version=full_version(python),
               implementation_name="cpython", platform_python_implementation="CPython",
               platform_system=system, platform_machine=machine, platform_release="", platform_version="",
               sys_platform={"Linux": "linux", "Windows": "win32", "Darwin": "darwin"}[system],
               os_name="nt" if system == "Windows" else "posix")
    return env


def full_version(python: str) -> str:
    """The Python release a target stands for: this interpreter's own for its version, else the
    newest patch release (some pins need one: soupsieve 4.1.3 requires Python >= 3.11.5)."""
    if python == NATIVE_PYTHON:
        return _platform.python_version()
    return f"{python}.99"


def supported_tags(name: str, python: str) -> set:
    version = tuple(int(x) for x in python.split("."))
    platforms = platform_tags(name)
    found = set(tags.cpython_tags(version, platforms=platforms))
    found |= set(tags.compatible_tags(version, f"cp{version[0]}{version[1]}", platforms=platforms))
    return found


def _requirement_lines(path: Path):
    """(line, Requirement or None) for each non-empty line of a requirements file, comments cut."""
    for raw in path.read_text().splitlines():
        line = re.split(r"\s+#|^#", raw, maxsplit=1)[0].strip()
        if not line:
            continue
        try:
            yield line, (None if line.startswith("-") else Requirement(line))
        except InvalidRequirement as exc:
            raise ValueError(f"{path}: cannot read the line {raw!r}: {exc}") from None


def wheelhouse_requirements(requirements: Path, version: str) -> str:
    """The course's requirements for the offline route: ``-e .`` becomes ``rvc-course==<version>``."""
    out = ["# Written by tools/wheelhouse.py (make wheelhouse): the course's requirements.txt with",
           "# rvc-course's own wheel in place of the editable checkout. Install with no network:",
           "#   python -m pip install --no-index --find-links wheelhouse -r wheelhouse/requirements.txt",
           "-c constraints.txt"]
    for line, req in _requirement_lines(requirements):
        if req is None:
            if line.replace(" ", "") not in ("-e.", "-e./", "--editable."):
                raise ValueError(f"{requirements}: expected requirements and '-e .', got the option {line!r}")
            out.append(f"rvc-course=={version}")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def evaluated(path: Path, env: dict) -> tuple[str, list[Requirement]]:
    """A requirements or constraints file with its markers decided for ``env`` (no options)."""
    kept = []
    for _line, req in _requirement_lines(path):
        if req is not None and (req.marker is None or req.marker.evaluate(env)):
            req.marker = None
            kept.append(req)
    return "".join(f"{r}\n" for r in kept), kept


def evaluated_text(text: str, env: dict) -> str:
    """``evaluated`` of a file's text."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "requirements.txt"
        path.write_text(text)
        return evaluated(path, env)[0]


def find_python(version: str) -> str | None:
    """An interpreter of ``version`` (e.g. 3.10) on this machine: python3.10 or pyenv's; else None."""
    if version == NATIVE_PYTHON:
        return sys.executable
    candidates = [shutil.which(f"python{version}")]
    try:
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
        candidates += sorted(str(p) for p in Path(root, "versions").glob(f"{version}.*/bin/python3"))
    except (OSError, subprocess.CalledProcessError):
        pass
    for candidate in filter(None, candidates):
        try:
            out = subprocess.run([candidate, "-c", "import sys, pip; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and out.stdout.strip() == version:
            return candidate
    return None


def _wheels(folder: Path) -> dict:
    """{canonical name: [(version, tags, path)]} of the wheels in a folder."""
    found: dict = {}
    for path in folder.glob("*.whl"):
        name, version, _build, wheel_tags = parse_wheel_filename(path.name)
        found.setdefault(name, []).append((version, wheel_tags, path))
    return found


def _metadata(path: Path) -> tuple[list[Requirement], SpecifierSet]:
    with zipfile.ZipFile(path) as wheel:
        name = next(n for n in wheel.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        meta = Parser().parsestr(wheel.read(name).decode("utf-8"))
    return ([Requirement(r) for r in meta.get_all("Requires-Dist") or []],
            SpecifierSet(meta.get("Requires-Python") or ""))


def missing(folder: Path, top: list[Requirement], constraints: list[Requirement], name: str,
            python: str) -> list[Requirement]:
    """Requirements of a target that no wheel in ``folder`` satisfies, following each chosen wheel's
    own requirements (markers evaluated for the target, extras included); [] when complete."""
    env, supported = marker_environment(name, python), supported_tags(name, python)
    pins = {canonicalize_name(c.name): c.specifier for c in constraints}
    wheels, metadata = _wheels(folder), {}
    todo, seen, absent = [(r, "") for r in top], set(), []
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({**env, "extra": extra}):
            continue
        key = canonicalize_name(req.name)
        spec = req.specifier & pins.get(key, SpecifierSet())
        best = None
        for version, wheel_tags, path in sorted(wheels.get(key, []), key=lambda w: w[0], reverse=True):
            if not wheel_tags & supported or not spec.contains(version, prereleases=True):
                continue
            if path not in metadata:
                metadata[path] = _metadata(path)
            if metadata[path][1].contains(Version(full_version(python)), prereleases=True):
                best = path
                break
        if best is None:
            absent.append(Requirement(f"{req.name}{spec}"))
            continue
        for wanted in {""} | set(req.extras):
            if (best, wanted) in seen:
                continue
            seen.add((best, wanted))
            todo += [(r, wanted) for r in metadata[best][0]]
    return sorted({str(r): r for r in absent}.values(), key=str)


class PipFailed(RuntimeError):
    def __init__(self, command: list[str], output: str):
        self.output = output
        super().__init__(f"{' '.join(command)} failed:\n{output[-3000:]}")


def unavailable(output: str) -> set:
    """The packages pip's error says have no distribution for the target (canonical names)."""
    found = set(re.findall(r"No matching distribution found for ([A-Za-z0-9._-]+)", output))
    block = re.search(r"no matching distributions available for your environment:\n((?:[ \t]+\S+\n?)+)", output)
    if block:
        found |= set(block.group(1).split())
    return {canonicalize_name(n) for n in found}


#: A marker true everywhere but on a platform (PEP 508 markers have no ``not``).
ELSEWHERE = {"linux-x86_64": '(sys_platform != "linux" or platform_machine != "x86_64")',
             "linux-aarch64": '(sys_platform != "linux" or platform_machine != "aarch64")',
             "win-amd64": 'sys_platform != "win32"',
             "macos-x86_64": '(sys_platform != "darwin" or platform_machine != "x86_64")',
             "macos-arm64": '(sys_platform != "darwin" or platform_machine != "arm64")'}


def relaxed_constraints(constraints: Path, relaxed: dict) -> str:
    """constraints.txt with each pin in ``relaxed`` ({name: {platform}}) lifted on those platforms."""
    out = []
    for raw in constraints.read_text().splitlines():
        line = re.split(r"\s+#|^#", raw, maxsplit=1)[0].strip()
        req = Requirement(line) if line and not line.startswith("-") else None
        where = sorted(relaxed.get(canonicalize_name(req.name), ())) if req else []
        if not where:
            out.append(raw)
            continue
        out.append(f"# make wheelhouse: {req.name}{req.specifier} has no wheel for {', '.join(where)}; "
                   f"there pip takes the wheel in this folder")
        lifted = " and ".join(ELSEWHERE[p] for p in where)
        marker = f"({req.marker}) and {lifted}" if req.marker else lifted
        out.append(f"{req.name}{req.specifier} ; {marker}")
    return "\n".join(out) + "\n"


def lifted_before(constraints: Path, skip=()) -> dict:
    """The pins an earlier run lifted ({name: {platform}}), read from a folder's constraints.txt,
    for the platforms not in ``skip`` (those a new run finds again)."""
    found: dict = {}
    text = constraints.read_text() if constraints.exists() else ""
    for name, where in re.findall(r"^# make wheelhouse: ([A-Za-z0-9._-]+?)[=<>!~]\S* has no wheel for ([^;]+);",
                                  text, re.M):
        for platform in where.split(","):
            if platform.strip() not in skip:
                found.setdefault(canonicalize_name(name), set()).add(platform.strip())
    return found


class Downloader:
    def __init__(self, dest: Path, work: Path, log):
        self.dest, self.work, self.log = dest, work, log
        self.relaxed: dict = {}                 # pins with no wheel for a platform: {name: {platform}}

    def pip(self, python: str, *args: str) -> None:
        command = [python, "-m", "pip", *args]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise PipFailed(command, "\n".join(line for line in (done.stdout + done.stderr).splitlines()
                                               if "is ignored: it is neither" not in line))

    def target_args(self, name: str, python: str) -> list[str]:
        args = ["--only-binary=:all:", "--implementation", "cp", "--python-version", full_version(python)]
        for tag in platform_tags(name):
            args += ["--platform", tag]
        return args

    def build_pure_wheels(self, sources: list[Path]) -> None:
        """Wheels of packages that exist only as a source distribution; they must be pure Python."""
        for source in sources:
            out = self.work / "built"
            shutil.rmtree(out, ignore_errors=True)
            self.pip(sys.executable, "wheel", "--quiet", "--no-deps", "-w", str(out), str(source))
            for wheel in out.glob("*.whl"):
                if not parse_wheel_filename(wheel.name)[3] & {tags.Tag("py3", "none", "any")}:
                    raise RuntimeError(f"{source.name} exists only as a source distribution and builds a "
                                       f"platform wheel ({wheel.name}): it cannot be built here for other "
                                       f"platforms; pin a version of it that has wheels in constraints.txt")
                shutil.move(str(wheel), self.dest / wheel.name)
                self.log(f"  built {wheel.name} from its source distribution")

    def source_only(self, requirements: Path, constraints: Path) -> None:
        """A native download (sources allowed) of the whole set; wheels for the sdists found."""
        folder = self.work / "native"
        self.pip(sys.executable, "download", "--quiet", "-d", str(folder), "--find-links", str(self.dest),
                 "-r", str(requirements), "-c", str(constraints))
        self.build_pure_wheels(sorted(p for p in folder.iterdir() if not p.name.endswith(".whl")))

    def target(self, name: str, python: str, requirements: Path, constraints: Path) -> None:
        env = marker_environment(name, python)
        interpreter = find_python(python)
        if interpreter is None:
            self.log(f"  no Python {python} here: pip runs on {sys.version.split()[0]}, and the wheels' "
                     f"own markers are followed below")
            interpreter = sys.executable
        text, top = evaluated(requirements, env)
        (self.work / "requirements.txt").write_text(text)
        common = ["-d", str(self.dest), "--find-links", str(self.dest), *self.target_args(name, python)]
        while True:                           # not --quiet: that hides which package has no wheel
            _, pins = evaluated(constraints, env)
            pins = [p for p in pins if name not in self.relaxed.get(canonicalize_name(p.name), ())]
            (self.work / "constraints.txt").write_text("".join(f"{p}\n" for p in pins))
            try:
                self.pip(interpreter, "download", *common, "-r", str(self.work / "requirements.txt"),
                         "-c", str(self.work / "constraints.txt"))
                break
            except PipFailed as exc:          # a pin with no wheel for this platform: lift it here
                lift = unavailable(exc.output) & {canonicalize_name(p.name) for p in pins}
                if not lift:
                    raise
                for n in sorted(lift):
                    self.relaxed.setdefault(n, set()).add(name)
                    self.log(f"  {name} / {python}: the pin of {n} has no wheel here; it is lifted on {name}")
        for _round in range(10):
            absent = missing(self.dest, top, pins, name, python)
            if not absent:
                return
            self.log(f"  {name} / {python}: fetching what pip left out here: {', '.join(map(str, absent))}")
            for req in absent:
                try:
                    self.pip(interpreter, "download", "--quiet", "--no-deps", *common, str(req),
                             "-c", str(self.work / "constraints.txt"))
                except PipFailed:
                    source = self.work / "sdist"
                    shutil.rmtree(source, ignore_errors=True)
                    self.pip(sys.executable, "download", "--quiet", "--no-deps", "--no-binary=:all:",
                             "-d", str(source), str(req))
                    self.build_pure_wheels(sorted(source.iterdir()))
        raise RuntimeError(f"{name} / {python}: still incomplete: {', '.join(map(str, absent))}")


def tree_version() -> str:
    """rvc's version in this tree (rvc/__init__.py), the version of the wheel built from it."""
    found = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", (ROOT / "rvc" / "__init__.py").read_text(), re.M)
    if not found:
        raise ValueError(f"{ROOT / 'rvc' / '__init__.py'}: expected a line __version__ = '...', found none")
    return found.group(1)


def build(dest: Path, platforms: list[str], pythons: list[str], *, requirements: Path = ROOT / "requirements.txt",
          constraints: Path = ROOT / "constraints.txt", log=print) -> None:
    version = tree_version()
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "requirements.txt").write_text(wheelhouse_requirements(requirements, version))
    earlier = lifted_before(dest / "constraints.txt", skip=platforms)   # a folder built for more platforms
    shutil.copyfile(constraints, dest / "constraints.txt")     # until the end: the pins lifted, if any
    for old in dest.glob("rvc_course-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as work:
        run = Downloader(dest, Path(work), log)
        run.relaxed = earlier
        start = time.monotonic()
        source = Path(work) / "rvc-course"        # a copy: building in the tree would leave build/ in it
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copyfile(ROOT / name, source / name)
        shutil.copytree(ROOT / "rvc", source / "rvc", ignore=shutil.ignore_patterns("__pycache__"))
        run.pip(sys.executable, "wheel", "--quiet", "--no-deps", "-w", str(dest), str(source))
        log(f"rvc-course {version}: built its wheel from {ROOT}")
        run.source_only(dest / "requirements.txt", dest / "constraints.txt")
        for name in platforms:
            for python in pythons:
                t = time.monotonic()
                run.target(name, python, dest / "requirements.txt", constraints)
                log(f"{name} / Python {python}: complete ({time.monotonic() - t:.0f} s)")
        (dest / "constraints.txt").write_text(relaxed_constraints(constraints, run.relaxed))
        for path in dest.iterdir():               # pip download may leave sources next to the wheels
            if path.is_file() and path.suffix not in (".whl", ".txt"):
                path.unlink()
    size = sum(p.stat().st_size for p in dest.glob("*.whl"))
    log(f"{dest}: {len(list(dest.glob('*.whl')))} wheels, {size / 2**20:.0f} MiB, "
        f"in {time.monotonic() - start:.0f} s")


def _names(values: list[str], every: tuple, native: str) -> list[str]:
    out = []
    for value in values:
        for item in value.replace(",", " ").split():
            out += list(every) if item == "all" else [native if item == "native" else item]
    return list(dict.fromkeys(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, nargs="?", default=Path("wheelhouse"))
    parser.add_argument("--platforms", nargs="+", default=["all"],
                        help=f"names among {', '.join(ALL_PLATFORMS)}, 'native' or 'all' (the default)")
    parser.add_argument("--pythons", nargs="+", default=["all"],
                        help=f"versions among {', '.join(ALL_PYTHONS)}, 'native' or 'all' (the default)")
    args = parser.parse_args(argv)
    try:
        platforms = _names(args.platforms, ALL_PLATFORMS, "native")
        platforms = [native_platform() if p == "native" else p for p in platforms]
        for name in platforms:
            platform_tags(name)
        pythons = _names(args.pythons, ALL_PYTHONS, NATIVE_PYTHON)
        for python in pythons:
            if not re.fullmatch(r"3\.\d+", python):
                raise ValueError(f"pythons: expected versions such as 3.11, 'native' or 'all', got {python!r}")
        build(args.dest, platforms, pythons)
    except (ValueError, RuntimeError) as exc:
        print(f"wheelhouse: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    sys.exit(main())
