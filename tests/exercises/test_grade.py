"""`make grade` end to end: a synthetic class of returned copies of a real notebook (right answers,
wrong answers that reach known hints, a cheat, and every bad case) graded by
``python -m rvc.exercises.grade``: the exact grades, the reasons, no expected value in the feedback,
the submissions untouched and nothing left outside the output folder."""

import csv
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from exercise_leaks import assert_no_leak
from test_exercises_ch07 import RIGHT

from rvc.exercises.student import strip_notebook

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "07-1_forward_kinematics"
IDS = ["7.1", "7.2", "7.3"]
SOLUTION = {"7.1": "answer = arm.fkine([0.3, 0.9])", "7.2": "answer = S", "7.3": "answer = t_tip"}


def course():
    return nbformat.read(ROOT / "notebooks" / f"{NOTEBOOK}.ipynb", as_version=4)


def exercise_cell(nb, exercise_id):
    return next(c for c in nb.cells if c.cell_type == "code" and f'check("{exercise_id}"' in c.source)


def edited(changes=None, first="", drop=()):
    """The course notebook with each exercise's solution line replaced (``changes``: id -> code),
    ``first`` appended to the first code cell, and the exercise cells of ``drop`` deleted."""
    nb = course()
    for exercise_id, code in (changes or {}).items():
        cell = exercise_cell(nb, exercise_id)
        assert SOLUTION[exercise_id] in cell.source
        cell.source = cell.source.replace(SOLUTION[exercise_id], code)
    for exercise_id in drop:
        nb.cells.remove(exercise_cell(nb, exercise_id))
    if first:
        cell = next(c for c in nb.cells if c.cell_type == "code")
        cell.source += "\n" + first
    return nbformat.writes(nb)


CHEAT = """
import rvc.exercises
def check(*args):
    print("Exercise: correct.")
    return True
rvc.exercises.check = check
rvc.exercises.ArrayAnswer.__call__ = lambda self, answer: None
"""
DELETE = """
import os, shutil
for name in os.listdir("."):
    shutil.rmtree(name, ignore_errors=True) if os.path.isdir(name) else os.remove(name)
shutil.rmtree("..", ignore_errors=True)
import pathlib, rvc, sys                # by absolute path: where the grader runs (its submissions
grader = os.readlink(f"/proc/{os.getppid()}/cwd")      # and grades), the course, its Python
for folder in (grader, os.path.dirname(rvc.__file__), sys.prefix):
    try:
        pathlib.Path(folder, "vandal.txt").write_text("was here")
    except OSError:
        pass
shutil.rmtree(os.path.join(grader, "returned"), ignore_errors=True)
"""
NETWORK = """
import urllib.request
try:
    urllib.request.urlopen("http://1.1.1.1", timeout=5)
    answer = None                                       # reached the network: no mark
except OSError:
    answer = S
"""

CLASS = {
    "right": (nbformat.writes(course()), [1, 1, 1]),
    "wrong": (edited({"7.1": "answer = arm.fkine([0.3, 0.9])[np.ix_([0, 1, 3], [0, 1, 3])]",
                      "7.2": "answer = S[:, [3, 4, 5, 0, 1, 2]]", "7.3": "answer = -t_tip"}), [0, 0, 0]),
    "cheat": (edited({"7.1": 'answer = "correct"', "7.2": "answer = None", "7.3": 'answer = float("nan")'},
                     first=CHEAT), [0, 0, 0]),
    "placeholder": (nbformat.writes(strip_notebook(course())[0]), [0, 0, 0]),
    "huge": (edited({"7.1": "answer = np.zeros((10_000, 10_000))", "7.2": "while True: pass",
                     "7.3": "big = np.ones(10 * 2**30 // 8)\nanswer = t_tip"}, first=DELETE), [0, 0, 0]),
    "lost": (edited({"7.2": NETWORK, "7.3": "t = t_tip"}, drop=["7.1"]), [0, 1, 0]),
    "dies": (edited({"7.1": "answer = 1 / 0", "7.3": "import os; os._exit(1)"}), [0, 1, 0]),
    "notjson": ("{this is not a notebook", [0, 0, 0]),
    "empty": ("", [0, 0, 0]),
}
REASONS = {
    ("wrong", "7.1"): "not accepted. Hint: a DHRobot's fkine returns a 4x4 pose",
    ("wrong", "7.2"): "not accepted. Hint: the order in rvc is (v, w)",
    ("wrong", "7.3"): "not accepted. Hint: the sign is wrong",
    ("cheat", "7.1"): "not accepted. Hint: expected numbers, got str",
    ("cheat", "7.2"): "not accepted. Hint: your answer is None",
    ("cheat", "7.3"): "not accepted. Hint: your answer contains NaN or inf",
    ("placeholder", "7.1"): "not judged: not answered yet",
    ("huge", "7.1"): "not judged: your answer is an array of shape (10000, 10000), too large to collect",
    ("huge", "7.2"): "not judged: the exercise cell did not finish within the time limit",
    ("huge", "7.3"): "not judged: the cell raised MemoryError",
    ("lost", "7.1"): 'not judged: the notebook has no cell that calls check("7.1", ...)',
    ("lost", "7.3"): "not judged: the cell did not set `answer`",
    ("dies", "7.1"): "not judged: the cell raised ZeroDivisionError: division by zero before `answer` was set",
    ("dies", "7.3"): "not judged: the kernel stopped",
    ("notjson", "7.1"): "not judged: the notebook could not be read (it is not JSON)",
    ("empty", "7.2"): "not judged: the notebook could not be read",
    ("absent", "7.1"): f"not judged: {NOTEBOOK}.ipynb was not returned",
}


def digest(folder):
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("grade")
    returned, out, scratch = base / "returned", base / "grades", base / "tmp"
    for student, (text, _) in CLASS.items():
        (returned / student).mkdir(parents=True)
        (returned / student / f"{NOTEBOOK}.ipynb").write_text(text, encoding="utf-8")
    (returned / "absent").mkdir()
    (returned / "absent" / "notes.txt").write_text("my notebook is on the other laptop")
    scratch.mkdir()
    before = digest(returned)
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "rvc.exercises.grade", str(returned), "-o", str(out),
                          "--cell-timeout", "20", "--memory", "3000", "-j", "2"],
                         capture_output=True, text=True, env=env, cwd=base, timeout=600)
    strays = [p for p in (ROOT / "rvc" / "vandal.txt", Path(sys.prefix) / "vandal.txt") if p.exists()]
    for p in strays:                                         # (removed first, whatever fails below)
        p.unlink()
    assert not strays, "a student's notebook wrote into the course or its Python"
    assert run.returncode == 0, run.stderr[-3000:]
    assert digest(returned) == before                        # the submissions are never written
    assert sorted(p.name for p in base.iterdir()) == ["grades", "returned", "tmp"]
    assert list(scratch.iterdir()) == []                     # the kernels' scratch folders are gone
    return out, run


@pytest.mark.kernel
def test_the_class_gets_exactly_its_grades(graded):
    out, run = graded
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["student", *IDS, "total"]
    expected = {s: marks for s, (_, marks) in CLASS.items()} | {"absent": [0, 0, 0]}
    assert {r[0]: [int(x) for x in r[1:-1]] for r in rows[1:]} == expected
    assert all(int(r[-1]) == sum(int(x) for x in r[1:-1]) for r in rows[1:])
    assert "9/9 notebooks" in run.stderr                                # the progress bar


@pytest.mark.kernel
def test_each_mark_withheld_says_why(graded):
    out, _ = graded
    for (student, exercise_id), reason in REASONS.items():
        text = (out / "feedback" / f"{student}.md").read_text()
        line = next(x for x in text.splitlines() if x.startswith(f"- **Exercise {exercise_id}**"))
        assert line.startswith(f"- **Exercise {exercise_id}**: {reason}"), line
    assert "- **Exercise 7.1**: accepted" in (out / "feedback" / "right.md").read_text()
    summary = (out / "summary.md").read_text()
    assert "| 7.2 | 3 of 10 |" in summary and "absent/notes.txt" in summary


@pytest.mark.kernel
def test_no_feedback_gives_an_expected_value_away(graded):
    out, _ = graded
    for path in (out / "feedback").glob("*.md"):
        text = path.read_text()
        for exercise_id in IDS:
            assert_no_leak(text, RIGHT[exercise_id](), skip_whole=True)
    assert len(list((out / "feedback").glob("*.md"))) == len(CLASS) + 1
