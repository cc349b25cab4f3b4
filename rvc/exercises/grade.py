"""Grade a class's returned notebooks with the course's own checkers.

Usage (what ``make grade SUBMISSIONS=returned GRADES=grades`` runs)::

    python -m rvc.exercises.grade returned -o grades

``returned`` holds ``<student>/<notebook>.ipynb`` (the names ``make student`` writes).  The grader
writes into ``grades/`` only:

* ``grades.csv``: ``student,<exercise id>...,total``, 1 or 0 per exercise;
* ``feedback/<student>.md``: for each exercise, accepted or not and the checker's hint, or why it
  could not be judged (never the expected answer);
* ``summary.md``: per exercise, how many got it and the most common hint.

How a notebook is run: in its own kernel, started in a scratch folder that is removed afterwards,
with a time limit per cell and per notebook, a memory limit (``RLIMIT_AS``, and a limit on the size
of the files it writes) and no network: the kernel runs in a network namespace of its own
(``unshare -n``, or ``unshare -rn`` where only user namespaces are allowed) and talks to the grader
over Unix sockets; where the machine allows a mount namespace too (``unshare -n -m``, ``-rnm``), it
sees every file system read-only but its scratch folder, so it can change or delete nothing of the
teacher's (the submissions, the grades, the course, its Python).  Where no network namespace can be
made the grader refuses, unless the teacher passes ``--allow-network``.  After each exercise cell
the grader runs a cell of its own that sends the value of ``answer`` out as data
(:mod:`rvc.exercises.answers`), then deletes it; the checkers judge that data in the grader's
worker process, which never runs the student's code.  So a notebook that redefines ``check``,
patches rvc or prints "correct" gains nothing: only the answers count.  The submission itself is
read, never written.

A notebook that cannot be read, an exercise cell that is missing, raises, loops or exhausts the
memory, an answer that is too large or not data: each gives its exercise a 0 and the reason.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import io
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import nbformat

from ..results import Result
from . import NOTEBOOKS, check_with, exercises
from .answers import MIME, Opaque, capture_source, decode

__all__ = ["Outcome", "Limits", "find_submissions", "exercise_ids", "instrument", "sandbox_prefix",
           "protects_files", "run_notebook", "judge", "grade_notebook", "grade_class", "write_reports"]

_CHECK = re.compile(r"""check\(\s*["']([^"']+)["']""")
_PLACEHOLDER = re.compile(r"Exercise \S+: your code here")


@dataclass(frozen=True, repr=False)
class Outcome(Result):
    """One exercise of one student: ``status`` is ``"accepted"``, ``"hint"`` (judged, not
    accepted; ``text`` is the checker's hint) or ``"unjudged"`` (``text`` says why)."""

    status: str
    text: str = ""

    @property
    def mark(self) -> int:
        return int(self.status == "accepted")


@dataclass(frozen=True, repr=False)
class Limits(Result):
    """How long and how big a notebook may run: seconds per cell, per notebook, MB of memory,
    MB per file written, seconds per check; ``network`` True runs kernels with the network."""

    cell: float = 120.0
    notebook: float = 600.0
    memory_mb: int = 4096
    file_mb: int = 200
    check: float = 60.0
    network: bool = False


def exercise_ids(notebook: str) -> list[str]:
    """The ids of the exercises of the course notebook ``notebook`` (its name without
    ``.ipynb``), in order.

    >>> exercise_ids("07-1_forward_kinematics")
    ['7.1', '7.2', '7.3']
    """
    return [k for k, v in NOTEBOOKS.items() if v == notebook]


def find_submissions(folder: Path) -> tuple[list[str], dict[str, dict[str, Path]], list[str]]:
    """``(students, {student: {notebook: path}}, ignored)`` of a folder of returned notebooks
    laid out as ``<student>/<notebook>.ipynb``; ``ignored`` lists what is not a course notebook."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"submissions: expected a folder of <student>/<notebook>.ipynb, got {str(folder)!r}")
    known = set(NOTEBOOKS.values())
    students, found, ignored = [], {}, []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
        students.append(sub.name)
        found[sub.name] = {}
        for path in sorted(sub.iterdir()):
            if path.suffix == ".ipynb" and path.stem in known and path.is_file():
                found[sub.name][path.stem] = path
            elif not path.name.startswith("."):
                ignored.append(str(path.relative_to(folder)))
    for path in sorted(folder.iterdir()):
        if path.is_file() and not path.name.startswith("."):
            ignored.append(path.name)
    return students, found, ignored


def instrument(nb: nbformat.NotebookNode, ids: list[str], token: str) -> tuple[list, dict[str, int]]:
    """The code cells to run: the notebook's own, each exercise cell (the one calling
    ``check("<id>", ...)`` for an id of ``ids``) followed by the capture cell of
    :func:`rvc.exercises.answers.capture_source`.  Returns the cells and ``{id: index}`` of each
    exercise cell among them (the last, if a notebook has two).

    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"),
    ...                                      nbformat.v4.new_code_cell("answer = x\\ncheck('7.1', answer)")])
    >>> cells, where = instrument(nb, ["7.1", "7.2"], "t")
    >>> len(cells), where
    (3, {'7.1': 1})
    """
    cells, where = [], {}
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        cells.append(nbformat.v4.new_code_cell(source))
        found = [k for k in _CHECK.findall(source) if k in ids]
        if found:
            where[found[0]] = len(cells) - 1
            cells.append(nbformat.v4.new_code_cell(capture_source(found[0], token)))
    return cells, where


# ------------------------------------------------------------------ the sandbox

# Run in the kernel's namespaces before the kernel itself: the memory and file-size limits, then,
# where the kernel has a mount namespace of its own (argv[3] its scratch folder, "" where not),
# every file system read-only but that folder (/proc, /sys and /dev stay as they are), so a
# notebook can delete or change nothing of the teacher's: not the submissions, not the grades,
# not the course or its Python.  Each mount keeps its own flags (a user namespace refuses a
# remount that drops nosuid or nodev).
_SANDBOX = """
import os, resource, subprocess, sys
m, f, scratch = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if scratch:
    points = []
    for line in open("/proc/self/mountinfo"):
        field = line.split()
        points.append((field[4].encode().decode("unicode_escape"), field[5].split(",")))
    subprocess.run(["mount", "--bind", scratch, scratch], check=True, capture_output=True)
    for point, flags in points:
        if point != scratch and point.split("/")[1] not in ("proc", "sys", "dev"):
            keep = [x for x in flags if x in ("nosuid", "nodev", "noexec", "noatime", "nodiratime", "relatime")]
            subprocess.run(["mount", "-o", ",".join(["remount", "bind", "ro", *keep]), point],
                           check=True, capture_output=True)
resource.setrlimit(resource.RLIMIT_AS, (m, m))
resource.setrlimit(resource.RLIMIT_FSIZE, (f, f))
os.execv(sys.argv[4], sys.argv[4:])
"""

#: The namespaces a kernel can be given, best first: network and mounts (as root, or in a user
#: namespace), then the network alone (the files are not protected).
_PREFIXES = (["unshare", "-n", "-m"], ["unshare", "-rnm"], ["unshare", "-n"], ["unshare", "-rn"])


def _sandboxed(prefix: list[str], scratch, memory: int, file_size: int, command: list[str]) -> list[str]:
    """``command`` run under ``prefix`` by :data:`_SANDBOX`, with ``memory`` and ``file_size``
    bytes at most, and where the prefix makes a mount namespace, read-only but ``scratch``."""
    folder = os.path.realpath(scratch) if protects_files(prefix) else ""
    return [*prefix, sys.executable, "-c", _SANDBOX, str(memory), str(file_size), folder, *command]


def protects_files(prefix: list[str]) -> bool:
    """True when kernels started with ``prefix`` (from :func:`sandbox_prefix`) see every file
    system read-only but their scratch folder: the prefix makes a mount namespace.

    >>> protects_files(["unshare", "-rnm"]), protects_files(["unshare", "-rn"]), protects_files([])
    (True, False, False)
    """
    return any(a == "-m" or (a.startswith("-") and not a.startswith("--") and "m" in a) for a in prefix[1:])


def sandbox_prefix(allow_network: bool = False) -> list[str]:
    """The command that puts a kernel into namespaces of its own: a network namespace, and where
    the machine allows one, a mount namespace in which every file system but the kernel's
    scratch folder is read-only (``["unshare", "-n", "-m"]`` as root, ``["unshare", "-rnm"]`` in
    an unprivileged user namespace; the network alone, ``-n`` or ``-rn``, where mounts are not
    allowed), or ``[]`` when ``allow_network``.  Each is tried as a kernel would run in it.
    Raises ``RuntimeError`` saying so when the machine allows no network namespace.

    >>> sandbox_prefix(allow_network=True)
    []
    """
    if allow_network:
        return []
    with tempfile.TemporaryDirectory(prefix="rvc-grade-") as scratch, \
            tempfile.TemporaryDirectory(prefix="rvc-grade-") as outside:
        for prefix in _PREFIXES:
            probe = f"touch {scratch}/w && ! touch {outside}/w 2>/dev/null" if protects_files(prefix) else "true"
            try:
                run = subprocess.run(_sandboxed(prefix, scratch, 1 << 30, 1 << 20, ["/bin/sh", "-c", probe]),
                                     capture_output=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if run.returncode == 0:
                return prefix
    raise RuntimeError("this machine cannot make a network namespace (unshare -n and unshare -rn both "
                       "fail), so the grader cannot run the notebooks without network; run it where it "
                       "can (as root, or with user namespaces enabled), or pass --allow-network to run "
                       "them with the network")


def _kernel_manager(prefix: list[str], limits: Limits, scratch: Path):
    from jupyter_client import AsyncKernelManager

    class SandboxedKernel(AsyncKernelManager):
        def format_kernel_cmd(self, extra_arguments=None):
            return _sandboxed(prefix, scratch, limits.memory_mb << 20, limits.file_mb << 20,
                              [sys.executable, "-m", "ipykernel_launcher", "-f", self.connection_file,
                               *(extra_arguments or [])])

    return SandboxedKernel(transport="ipc", ip=str(scratch / "k"),
                           connection_file=str(scratch / "kernel.json"))


def _client(nb, km, limits: Limits, work: Path):
    from nbclient import NotebookClient

    class QuietClient(NotebookClient):
        """Keeps only errors and the captured answers: a cell printing without end costs no memory."""

        def output(self, outs, msg, display_id, cell_index):
            kind = msg["msg_type"]
            if kind in ("display_data", "execute_result") and MIME not in msg["content"].get("data", {}):
                return None
            if kind == "stream":
                return None
            return super().output(outs, msg, display_id, cell_index)

    return QuietClient(nb, km=km, timeout=int(limits.cell), allow_errors=True, interrupt_on_timeout=True,
                       error_on_timeout={"ename": "CellTimeout", "evalue": "", "traceback": []},
                       startup_timeout=120, record_timing=False, shutdown_kernel="immediate",
                       resources={"metadata": {"path": str(work)}})


def _kernel_env(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "JPY_PARENT_PID")}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               IPYTHONDIR=str(scratch / "ipython"), JUPYTER_RUNTIME_DIR=str(scratch),
               TMPDIR=str(scratch / "tmp"), MPLCONFIGDIR=str(scratch / "mpl"),
               PYDEVD_DISABLE_FILE_VALIDATION="1")
    # the kernel imports the rvc the grader runs (its cwd is the scratch folder: no relative paths)
    here = str(Path(__file__).resolve().parents[2])
    paths = [str(Path(p).resolve()) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([here, *paths]))
    return env


def _copy_font_cache(folder: Path) -> None:
    """Matplotlib's list of fonts, into the kernel's own configuration folder: where the rest is
    read-only it would otherwise search the system's fonts again at every notebook."""
    import matplotlib

    for font_list in Path(matplotlib.get_cachedir()).glob("fontlist-*.json"):
        shutil.copy(font_list, folder)


def _error_of(cell) -> str | None:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return f"{out.get('ename', 'Error')}: {str(out.get('evalue', ''))[:300]}".rstrip(": ")
    return None


def run_notebook(path: Path, ids: list[str], limits: Limits, prefix: list[str]) -> dict:
    """Run the notebook at ``path`` in a sandboxed kernel; return what came out for each id of
    ``ids``: ``{"answer": data}``, ``{"missing": True, "error": ...}`` or ``{"reason": ...}``."""
    try:
        nb = nbformat.reads(Path(path).read_text(encoding="utf-8", errors="replace"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("no cells")
    except Exception as exc:
        why = "it is not JSON" if isinstance(exc, nbformat.reader.NotJSONError) else \
            f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        return {k: {"reason": f"the notebook could not be read ({why})"} for k in ids}
    token = secrets.token_hex(8)
    cells, where = instrument(nb, ids, token)
    out = {k: {"reason": f'the notebook has no cell that calls check("{k}", ...) (was the exercise cell '
                         f'deleted?)'} for k in ids if k not in where}
    if not where:
        return out
    scratch = Path(tempfile.mkdtemp(prefix="rvc-grade-"))
    work = scratch / "work"
    for d in (work, scratch / "tmp", scratch / "ipython", scratch / "mpl"):
        d.mkdir()
    _copy_font_cache(scratch / "mpl")
    stopped, current, timed_out = None, 0, set()
    run = nbformat.v4.new_notebook(cells=cells)
    cells = run.cells                 # the notebook holds copies: its cells get the outputs
    try:
        km = _kernel_manager(prefix, limits, scratch)
        client = _client(run, km, limits, work)
        deadline = time.monotonic() + limits.notebook
        with client.setup_kernel(env=_kernel_env(scratch), stderr=subprocess.DEVNULL):
            for current, cell in enumerate(cells):
                left = deadline - time.monotonic()
                if left <= 1:
                    stopped = (current, f"the notebook's time limit ({limits.notebook:g} s) ran out")
                    break
                client.timeout = max(1, int(min(limits.cell, left)))
                began = time.monotonic()
                client.execute_cell(cell, current)
                if time.monotonic() - began >= client.timeout:
                    timed_out.add(current)
    except Exception as exc:          # the kernel died, or could not start
        name = type(exc).__name__
        why = ("the kernel stopped (the code may have exhausted the memory limit of "
               f"{limits.memory_mb} MB, or exited)") if name == "DeadKernelError" else \
            f"the grader's kernel failed ({name}: {str(exc).splitlines()[0][:200] if str(exc) else ''})"
        stopped = (current, why)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for k, index in where.items():
        cell, capture = cells[index], cells[index + 1]
        error = _error_of(cell)
        data = [o["data"][MIME] for o in capture.get("outputs", [])
                if o.get("output_type") == "display_data" and isinstance(o.get("data", {}).get(MIME), dict)]
        data = [d for d in data if d.get("token") == token]
        if index in timed_out:
            out[k] = {"reason": f"the exercise cell did not finish within the time limit "
                                f"({min(limits.cell, limits.notebook):g} s per cell) and was stopped"}
        elif data and "answer" in data[-1]:
            out[k] = {"answer": data[-1]["answer"], "error": error}
        elif data:
            out[k] = {"missing": True, "error": error}
        elif stopped is not None and stopped[0] <= index + 1:
            out[k] = {"reason": stopped[1] if stopped[0] >= index else
                      f"{stopped[1]} before this exercise's cell"}
        else:
            failed = _error_of(capture)
            out[k] = {"reason": "the answer could not be collected (did the notebook change the "
                                "grader's tools or delete its files?"
                                + (f" collecting it raised {failed}" if failed else "") + ")"}
    return out


# ------------------------------------------------------------------ the judge

class _CheckTimeout(BaseException):      # not an Exception: check_with must not catch it
    pass


def _alarm(signum, frame):
    raise _CheckTimeout


def judge(exercise_id: str, collected: dict, seconds: float = 60.0) -> Outcome:
    """The outcome of one collected answer (an item of :func:`run_notebook`'s result), judged by
    the exercise's checker with at most ``seconds`` of time.

    >>> judge("7.1", {"reason": "the notebook could not be read (it is not JSON)"})
    Outcome(status='unjudged', text='the notebook could not be read (it is not JSON)')
    >>> judge("2.1", {"missing": True, "error": "NotImplementedError: Exercise 2.1: your code here"}).text
    'not answered yet (the cell still raises NotImplementedError)'
    >>> judge("2.1", {"answer": "a string"}).status
    'hint'
    """
    if "reason" in collected:
        return Outcome("unjudged", collected["reason"])
    error = collected.get("error")
    if collected.get("missing"):
        if error is None or error == "NameError: name 'answer' is not defined":
            return Outcome("unjudged", "the cell did not set `answer`")
        if _PLACEHOLDER.search(error):
            return Outcome("unjudged", "not answered yet (the cell still raises NotImplementedError)")
        return Outcome("unjudged", f"the cell raised {error} before `answer` was set")
    try:
        answer = decode(collected.get("answer"))
    except Exception as exc:
        return Outcome("unjudged", f"the answer could not be read ({type(exc).__name__})")
    if isinstance(answer, Opaque):
        return Outcome("unjudged", f"your answer is {answer.what}")
    exercise = exercises()[exercise_id]
    buffer = io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm) if seconds else None
    try:
        if seconds:
            signal.setitimer(signal.ITIMER_REAL, seconds)
        with contextlib.redirect_stdout(buffer):
            ok = check_with(exercise, answer)
    except _CheckTimeout:
        return Outcome("unjudged", f"checking the answer took longer than {seconds:g} s (is it far too big?)")
    except Exception as exc:
        return Outcome("unjudged", f"the answer could not be checked ({type(exc).__name__})")
    finally:
        if seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    if ok:
        return Outcome("accepted")
    text = buffer.getvalue().strip().split("Hint: ", 1)
    return Outcome("hint", text[1] if len(text) == 2 else text[0])


def grade_notebook(path: Path | None, notebook: str, limits: Limits, prefix: list[str]) -> dict[str, Outcome]:
    """``{id: Outcome}`` for every exercise of ``notebook`` in the submission at ``path``
    (None: not submitted)."""
    ids = exercise_ids(notebook)
    if path is None:
        return {k: Outcome("unjudged", f"{notebook}.ipynb was not returned") for k in ids}
    collected = run_notebook(path, ids, limits, prefix)
    return {k: judge(k, collected[k], limits.check) for k in ids}


# ------------------------------------------------------------------ the class

def _progress(done: int, total: int, start: float, stream) -> None:
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.monotonic() - start
    eta = f", about {elapsed / done * (total - done):.0f} s left" if 0 < done < total else ""
    line = f"grading [{'#' * filled}{'.' * (width - filled)}] {done}/{total} notebooks, {elapsed:.0f} s{eta}"
    if stream.isatty():
        stream.write("\r" + line + ("\n" if done == total else ""))
    elif done == total or done % max(1, total // 10) == 0:
        stream.write(line + "\n")
    stream.flush()


def grade_class(folder: Path, limits: Limits = Limits(), jobs: int | None = None,
                stream=sys.stderr) -> tuple[list[str], list[str], dict[str, dict[str, Outcome]], list[str]]:
    """Grade every returned notebook under ``folder``, ``jobs`` at a time (default: the cores).

    Returns ``(students, ids, {student: {id: Outcome}}, ignored)``: ``ids`` are the exercises of
    the notebooks any student returned, in the course's order."""
    students, found, ignored = find_submissions(folder)
    prefix = sandbox_prefix(limits.network)
    if limits.network:
        print("*** --allow-network: the notebooks run WITH network access, and can write your files ***",
              file=stream)
    elif not protects_files(prefix):
        print("*** no mount namespace here: the notebooks run without network but could delete or change "
              "your files; grade as a user that owns nothing else ***", file=stream)
    notebooks = [nb for nb in dict.fromkeys(NOTEBOOKS.values())
                 if any(nb in found[s] for s in students)]
    ids = [k for nb in notebooks for k in exercise_ids(nb)]
    rows: dict[str, dict[str, Outcome]] = {s: {} for s in students}
    tasks = [(s, nb) for s in students for nb in notebooks]
    for s, nb in tasks:
        if nb not in found[s]:
            rows[s].update(grade_notebook(None, nb, limits, prefix))
    todo = [(s, nb) for s, nb in tasks if nb in found[s]]
    if not jobs:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    start = time.monotonic()
    _progress(0, len(todo), start, stream)
    with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo) or 1)), mp_context=get_context("fork")) as pool:
        futures = {pool.submit(grade_notebook, found[s][nb], nb, limits, prefix): (s, nb) for s, nb in todo}
        for done, future in enumerate(as_completed(futures), start=1):
            s, nb = futures[future]
            try:
                rows[s].update(future.result())
            except Exception as exc:     # the worker itself failed: the row still comes
                rows[s].update({k: Outcome("unjudged", f"the grader failed on this notebook "
                                                       f"({type(exc).__name__})") for k in exercise_ids(nb)})
            _progress(done, len(todo), start, stream)
    return students, ids, rows, ignored


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def write_reports(out: Path, students: list[str], ids: list[str], rows: dict[str, dict[str, Outcome]],
                  ignored: list[str] = ()) -> None:
    """Write ``grades.csv``, ``feedback/<student>.md`` and ``summary.md`` into ``out``."""
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["student", *ids, "total"])
        for s in students:
            marks = [rows[s][k].mark for k in ids]
            writer.writerow([s, *marks, sum(marks)])
    labels = {"accepted": "accepted", "hint": "not accepted. Hint:", "unjudged": "not judged:"}
    for s in students:
        total = sum(rows[s][k].mark for k in ids)
        lines = [f"# Feedback for {s}", "", f"{total} of {len(ids)} exercises accepted.", ""]
        for nb in dict.fromkeys(NOTEBOOKS[k] for k in ids):
            lines += [f"## {nb}", ""]
            for k in exercise_ids(nb):
                o = rows[s][k]
                lines.append(f"- **Exercise {k}**: {labels[o.status]} {o.text}".rstrip())
            lines.append("")
        (out / "feedback" / f"{s}.md").write_text("\n".join(lines), encoding="utf-8")
    lines = ["# Class summary", "", f"{len(students)} students, {len(ids)} exercises.", "",
             "| exercise | accepted | most common hint | most common reason not judged |",
             "|---|---|---|---|"]
    for k in ids:
        got = sum(rows[s][k].mark for s in students)
        common = {}
        for status in ("hint", "unjudged"):
            texts = collections.Counter(rows[s][k].text for s in students if rows[s][k].status == status)
            common[status] = (f"{_cell(texts.most_common(1)[0][0])} ({texts.most_common(1)[0][1]})"
                              if texts else "")
        lines.append(f"| {k} | {got} of {len(students)} | {common['hint']} | {common['unjudged']} |")
    if ignored:
        lines += ["", "Not graded (not a course notebook): " + ", ".join(ignored)]
    (out / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, help="folder of <student>/<notebook>.ipynb")
    parser.add_argument("-o", "--out", type=Path, default=Path("grades"), help="output folder (grades/)")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="notebooks at once (the cores)")
    parser.add_argument("--cell-timeout", type=float, default=Limits.cell, help="seconds per cell")
    parser.add_argument("--notebook-timeout", type=float, default=Limits.notebook, help="seconds per notebook")
    parser.add_argument("--memory", type=int, default=Limits.memory_mb, help="MB of memory per kernel")
    parser.add_argument("--allow-network", action="store_true",
                        help="run the notebooks with network access where no network namespace can be made")
    args = parser.parse_args(argv)
    limits = Limits(cell=args.cell_timeout, notebook=args.notebook_timeout, memory_mb=args.memory,
                    network=args.allow_network)
    try:
        if args.out.resolve() == args.submissions.resolve() or \
                args.submissions.resolve() in args.out.resolve().parents:
            raise ValueError("--out: expected a folder outside the submissions, which are never written")
        students, ids, rows, ignored = grade_class(args.submissions, limits, args.jobs)
    except (ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    write_reports(args.out, students, ids, rows, ignored)
    print(f"graded {len(students)} students: {args.out / 'grades.csv'}, {args.out / 'summary.md'}, "
          f"{args.out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
