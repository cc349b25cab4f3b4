"""The student-copy tool: solutions stripped, edits kept, copies stop at the first exercise."""

import ast
import io
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from rvc.exercises import NOTEBOOKS as EXERCISE_NOTEBOOKS
from rvc.exercises.student import BEGIN, END, strip_solutions, write_student_copies

ROOT = Path(__file__).resolve().parents[2]
TOC = (ROOT / "_toc.yml").read_text()
NOTEBOOKS = [ROOT / f"{name}.ipynb" for name in re.findall(r"file:\s*(notebooks/\S+)", TOC)]
WITH_EXERCISES = [p for p in NOTEBOOKS if p.exists() and BEGIN in p.read_text()]


def make_notebook(path: Path, solution: str = "answer = 6 * 7") -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A chapter"),
        nbformat.v4.new_code_cell("x = 6"),
        nbformat.v4.new_markdown_cell("### Exercise 9.1"),
        nbformat.v4.new_code_cell(
            f"# BEGIN SOLUTION\n{solution}\n# END SOLUTION\nprint('checked', answer)"
            "\n# check(\"9.1\", answer)",
            outputs=[nbformat.v4.new_output("stream", text="checked 42\n")],
        ),
        nbformat.v4.new_code_cell("    # BEGIN SOLUTION\n    secret = 1\n    # END SOLUTION"),
    ]
    nbformat.write(nb, path)


def test_strip_keeps_indent_and_reads_the_exercise_id():
    src = "def f():\n    # BEGIN SOLUTION\n    return 42\n    # END SOLUTION\ncheck('2.7', f())"
    out = strip_solutions(src)
    assert '    raise NotImplementedError("Exercise 2.7: your code here")' in out
    assert "42" not in out.replace("2.7", "")


PADDED = [
    ("   # BEGIN SOLUTION   \n", "\t# END SOLUTION \t\n"),      # blanks and tabs around the words
    ("#  BEGIN  SOLUTION\n", "#END SOLUTION\n"),                 # spacing inside the marker
    ("# BEGIN SOLUTION\r\n", "# END SOLUTION\r\n"),               # Windows line ends
    ("  # begin solution\n", "  # End Solution\n"),               # another case
]


@pytest.mark.parametrize("begin, end", PADDED)
def test_padded_markers_remove_the_whole_solution(begin, end):
    body = "secret_value = 6 * 7\nanswer = secret_value + 0\n"
    src = f"x = 6\n{begin}{body}{end}check('9.2', answer)\n"
    out = strip_solutions(src)
    assert "secret_value" not in out and "6 * 7" not in out
    assert "SOLUTION" not in out.upper()
    assert 'raise NotImplementedError("Exercise 9.2: your code here")' in out
    assert out.splitlines()[0] == "x = 6" and out.rstrip().endswith("check('9.2', answer)")


def test_padded_markers_in_a_notebook_leave_no_solution_in_the_copy(tmp_path):
    src, dest = tmp_path / "nb", tmp_path / "student"
    src.mkdir()
    make_notebook(src / "09_pad.ipynb", solution="answer = 6 * 7")
    nb = nbformat.read(src / "09_pad.ipynb", as_version=4)
    nb.cells[3].source = nb.cells[3].source.replace(BEGIN, "  " + BEGIN + "  \t").replace(END, END + " ")
    nbformat.write(nb, src / "09_pad.ipynb")
    write_student_copies(src, dest, out=io.StringIO())
    text = (dest / "09_pad.ipynb").read_text()
    assert "6 * 7" not in text and "checked 42" not in text and "SOLUTION" not in text


@pytest.mark.parametrize("src", ["x = 1  # BEGIN SOLUTION\nanswer = 2\n# END SOLUTION",
                                 "# BEGIN SOLUTION\nanswer = 2\n# END SOLUTION.",
                                 "answer = 2  # END SOLUTION"])
def test_a_marker_that_is_not_a_line_of_its_own_is_refused(src):
    # the words without a proper marker line would leave the solution in the copy: refuse
    with pytest.raises(ValueError, match="source"):
        strip_solutions(src)


@pytest.mark.parametrize("src", ["# BEGIN SOLUTION\nx = 1", "x = 1\n# END SOLUTION",
                                 "# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION"])
def test_unbalanced_markers_are_an_error(src):
    with pytest.raises(ValueError, match="source"):
        strip_solutions(src)


def test_copies_have_no_solution_and_edits_are_kept(tmp_path):
    src, dest = tmp_path / "nb", tmp_path / "student"
    src.mkdir()
    make_notebook(src / "09_demo.ipynb")
    log = io.StringIO()
    assert write_student_copies(src, dest, out=log) == {"09_demo.ipynb": "written"}
    text = (dest / "09_demo.ipynb").read_text()
    assert "6 * 7" not in text and "secret" not in text and "checked 42" not in text
    assert BEGIN not in text and END not in text
    assert 'NotImplementedError(\\"Exercise 9.1: your code here\\")' in text

    # Unchanged copies are left alone (or refreshed); edited copies are never overwritten.
    assert write_student_copies(src, dest, out=log) == {"09_demo.ipynb": "unchanged"}
    student = nbformat.read(dest / "09_demo.ipynb", as_version=4)
    student.cells[3].source = "answer = 42  # my own work"
    nbformat.write(student, dest / "09_demo.ipynb")
    make_notebook(src / "09_demo.ipynb", solution="answer = 42 * 1")  # teacher updates
    log = io.StringIO()
    assert write_student_copies(src, dest, out=log) == {"09_demo.ipynb": "skipped"}
    assert "my own work" in (dest / "09_demo.ipynb").read_text()
    assert "skipped" in log.getvalue() and "edits are kept" in log.getvalue()


def test_an_untouched_copy_is_refreshed_when_the_course_changes(tmp_path):
    src, dest = tmp_path / "nb", tmp_path / "student"
    src.mkdir()
    make_notebook(src / "09_demo.ipynb")
    write_student_copies(src, dest, out=io.StringIO())
    nb = nbformat.read(src / "09_demo.ipynb", as_version=4)
    nb.cells[0].source = "# A better chapter"
    nbformat.write(nb, src / "09_demo.ipynb")
    assert write_student_copies(src, dest, out=io.StringIO()) == {"09_demo.ipynb": "updated"}
    assert "A better chapter" in (dest / "09_demo.ipynb").read_text()


def test_a_file_the_tool_never_wrote_is_not_overwritten(tmp_path):
    src, dest = tmp_path / "nb", tmp_path / "student"
    src.mkdir()
    dest.mkdir()
    make_notebook(src / "09_demo.ipynb")
    (dest / "09_demo.ipynb").write_text("{}")
    assert write_student_copies(src, dest, out=io.StringIO()) == {"09_demo.ipynb": "skipped"}
    assert (dest / "09_demo.ipynb").read_text() == "{}"


def _exercise_headings(path: Path):
    nb = nbformat.read(path, as_version=4)
    return re.findall(r"^### Exercise (\d+)\.(\d+)\b(.*)$",
                      "\n".join(c.source for c in nb.cells if c.cell_type == "markdown"), flags=re.M)


def test_every_chapter_has_exercises():
    """Issue 13: every notebook >= 3 exercises, every chapter >= 6, a third of them projects."""
    assert WITH_EXERCISES, "no notebook in _toc.yml has exercises"
    chapters = {}
    for path in NOTEBOOKS:
        found = _exercise_headings(path)
        assert len(found) >= 3, f"{path.name} has {len(found)} exercises"
        for chapter, number, title in found:
            chapters.setdefault(chapter, []).append((int(number), "small project" in title))
    for chapter, items in chapters.items():
        numbers = sorted(n for n, _ in items)
        assert numbers == list(range(1, len(numbers) + 1)), f"chapter {chapter}: numbered {numbers}"
        assert len(items) >= 6, f"chapter {chapter} has {len(items)} exercises"
        projects = sum(p for _, p in items)
        assert 3 * projects >= len(items), f"chapter {chapter}: {projects} of {len(items)} are projects"


def student_copy(path: Path, tmp_path: Path) -> Path:
    """Write the student copy of one course notebook; return its path."""
    src = tmp_path / "src"
    src.mkdir()
    (src / path.name).write_text(path.read_text())
    write_student_copies(src, tmp_path / "student", out=io.StringIO())
    return tmp_path / "student" / path.name


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_no_solution_leaks_into_the_student_copy(path, tmp_path):
    student = nbformat.read(student_copy(path, tmp_path), as_version=4)
    course = nbformat.read(path, as_version=4)
    student_text = "\n".join(c.source for c in student.cells) + nbformat.writes(student)
    # the solution lines, read here independently of the tool: between marker lines, however
    # padded; every one that does not also occur outside a solution must be gone
    solution_lines, other_lines = [], []
    for cell in course.cells:
        inside = False
        for line in cell.source.splitlines():
            word = re.sub(r"\s+", " ", line.strip().upper())
            if word in ("# BEGIN SOLUTION", "#BEGIN SOLUTION"):
                inside = True
            elif word in ("# END SOLUTION", "#END SOLUTION"):
                inside = False
            elif inside:
                solution_lines.append(line.strip())
            else:
                other_lines.append(line)
    assert solution_lines
    other_text = "\n".join(other_lines)              # text the student copy keeps anyway
    for line in solution_lines:
        if len(line) > 12 and line not in other_text and not line.startswith("#"):
            assert line not in student_text, line
    code = "\n".join(c.source for c in student.cells if c.cell_type == "code")
    assert not re.search(r"(BEGIN|END)\s+SOLUTION", code, flags=re.I)
    exercise_cells = [c.source for c in course.cells if c.cell_type == "code" and BEGIN in c.source]
    ids = [k for k, notebook in EXERCISE_NOTEBOOKS.items() if notebook == path.stem]   # the registry's table
    assert len(ids) == len(exercise_cells) >= 3
    for exercise_id in ids:
        assert f"Exercise {exercise_id}: your code here" in student_text


def _code(nb):
    return [c.source for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.name)
def test_student_copy_runs_until_its_first_exercise(path, tmp_path):
    """Proved without running the notebook a third time (nbval and the browser tests run it).

    Every code cell of the copy before its first exercise is the course's own, and the first
    exercise cell is the course's text up to its solution followed by an unconditional raise
    naming the exercise. nbval runs those course cells without error, so the copy runs them too,
    then stops with that message. (A synthetic copy is run for real in a kernel below.)
    """
    student = nbformat.read(student_copy(path, tmp_path), as_version=4)
    course = nbformat.read(path, as_version=4)
    mine, theirs = _code(student), _code(course)
    first = next(i for i, src in enumerate(mine) if "your code here" in src)
    assert mine[:first] == theirs[:first]
    assert not any(re.search(r"(?im)^\s*#\s*BEGIN\s+SOLUTION", src) for src in theirs[:first])
    exercise_id = re.search(r"Exercise (\S+): your code here", mine[first]).group(1)
    assert EXERCISE_NOTEBOOKS.get(exercise_id) == path.stem
    statements = ast.parse(mine[first]).body
    stop = next(i for i, node in enumerate(statements) if isinstance(node, ast.Raise))
    raised = statements[stop].exc
    assert isinstance(raised, ast.Call) and raised.func.id == "NotImplementedError"
    assert raised.args[0].value == f"Exercise {exercise_id}: your code here"
    before_raise = mine[first].splitlines()[: statements[stop].lineno - 1]
    course_lines = theirs[first].splitlines()
    marker = next(i for i, line in enumerate(course_lines) if re.match(r"\s*#\s*BEGIN\s+SOLUTION", line, re.I))
    assert before_raise == course_lines[:marker]


@pytest.mark.kernel
def test_a_student_copy_stops_at_its_first_exercise_in_a_kernel(tmp_path):
    """The tool end to end in a real kernel, on a small course of its own."""
    (tmp_path / "nb").mkdir()
    make_notebook(tmp_path / "nb" / "09_a.ipynb")
    write_student_copies(tmp_path / "nb", tmp_path / "student", out=io.StringIO())
    nb = nbformat.read(tmp_path / "student" / "09_a.ipynb", as_version=4)
    for c in nb.cells:
        if c.cell_type == "code":
            c.execution_count = None
    client = NotebookClient(nb, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    with pytest.raises(CellExecutionError) as info:
        client.execute()
    assert "Exercise 9.1: your code here" in str(info.value)
    ran = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.get("execution_count")]
    assert ran == [1, 3]


def test_comments_inside_a_solution_are_removed_with_it():
    """Everything from BEGIN to END goes, comment lines too (they may say how to solve it)."""
    src = ("x = 1\n# BEGIN SOLUTION\n# the trick: transpose it\n    # indented note\nanswer = x\n"
           "# END SOLUTION\n# keep this comment\ncheck('9.2', answer)")
    assert strip_solutions(src).splitlines() == [
        "x = 1", 'raise NotImplementedError("Exercise 9.2: your code here")',
        "# keep this comment", "check('9.2', answer)"]


# ---- issue 20: failures part-way lose nothing, errors name the notebook and the cell -----------

from rvc.exercises.student import MANIFEST, StudentCopyError, main  # noqa: E402


def _course(tmp_path, names=("09_a", "09_b", "09_c")):
    src, dest = tmp_path / "nb", tmp_path / "student"
    src.mkdir()
    for name in names:
        make_notebook(src / f"{name}.ipynb")
    return src, dest


def _retitle(path, title):
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source = title
    nbformat.write(nb, path)


def test_a_failure_part_way_keeps_the_record_and_a_rerun_updates_every_untouched_copy(tmp_path):
    src, dest = _course(tmp_path)
    write_student_copies(src, dest, out=io.StringIO())
    for name in ("09_a", "09_b", "09_c"):                       # the teacher improves every chapter
        _retitle(src / f"{name}.ipynb", f"# Better {name}")
    good_b = (src / "09_b.ipynb").read_text()
    (src / "09_b.ipynb").write_text(good_b[:-40])               # ... and breaks one of them
    with pytest.raises(StudentCopyError, match="09_b.ipynb"):
        write_student_copies(src, dest, out=io.StringIO())
    assert "Better 09_a" in (dest / "09_a.ipynb").read_text()  # written before the failure
    (src / "09_b.ipynb").write_text(good_b)                     # the teacher mends it
    log = io.StringIO()
    status = write_student_copies(src, dest, out=log)
    assert status == {"09_a.ipynb": "unchanged", "09_b.ipynb": "updated", "09_c.ipynb": "updated"}
    assert "skipped " not in log.getvalue() and "edits are kept" not in log.getvalue()
    for name in ("09_a", "09_b", "09_c"):
        assert f"Better {name}" in (dest / f"{name}.ipynb").read_text()


def test_a_marker_typo_part_way_keeps_the_record(tmp_path):
    src, dest = _course(tmp_path, ("09_a", "09_b"))
    write_student_copies(src, dest, out=io.StringIO())
    _retitle(src / "09_a.ipynb", "# Better a")
    nb = nbformat.read(src / "09_b.ipynb", as_version=4)
    nb.cells[3].source = nb.cells[3].source.replace(END, "# END SOLUTON")
    nbformat.write(nb, src / "09_b.ipynb")
    with pytest.raises(StudentCopyError, match=r"09_b.ipynb, cell 4 \(code\)"):
        write_student_copies(src, dest, out=io.StringIO())
    make_notebook(src / "09_b.ipynb")
    assert write_student_copies(src, dest, out=io.StringIO()) == {
        "09_a.ipynb": "unchanged", "09_b.ipynb": "updated"}


def test_the_record_is_written_atomically_after_each_copy(tmp_path):
    src, dest = _course(tmp_path, ("09_a", "09_b"))
    (src / "09_b.ipynb").write_text("{not json")
    with pytest.raises(StudentCopyError):
        write_student_copies(src, dest, out=io.StringIO())
    import json
    record = json.loads((dest / MANIFEST).read_text())
    assert list(record) == ["09_a.ipynb"]
    assert not [p for p in dest.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("kind", ["markdown", "raw"])
def test_a_solution_in_a_markdown_or_raw_cell_is_refused_and_not_copied(tmp_path, kind):
    src, dest = _course(tmp_path, ("09_a",))
    nb = nbformat.read(src / "09_a.ipynb", as_version=4)
    make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_raw_cell
    nb.cells.append(make("Worked answer:\n# BEGIN SOLUTION\nthe_worked_answer = 42\n# END SOLUTION"))
    nbformat.write(nb, src / "09_a.ipynb")
    with pytest.raises(StudentCopyError, match=rf"09_a.ipynb, cell 6 \({kind}\).*code cell"):
        write_student_copies(src, dest, out=io.StringIO())
    assert not (dest / "09_a.ipynb").exists()


CELL_ERRORS = [
    ("# BEGIN SOLUTION\nanswer = 1\ncheck('9.1', answer)", "without"),                  # missing END
    ("# BEGIN SOLUTION\n# BEGIN SOLUTION\nanswer = 1\n# END SOLUTION", "nested"),
    ("answer = 1\n# END SOLUTION", "without"),
    ("answer = 1  # END SOLUTION", "not a line of its own"),
]


@pytest.mark.parametrize("source, what", CELL_ERRORS)
def test_marker_errors_name_the_notebook_the_cell_and_what_to_do(tmp_path, source, what):
    src, dest = _course(tmp_path, ("09_a",))
    nb = nbformat.read(src / "09_a.ipynb", as_version=4)
    nb.cells[1].source = source
    nbformat.write(nb, src / "09_a.ipynb")
    with pytest.raises(StudentCopyError) as info:
        write_student_copies(src, dest, out=io.StringIO())
    message = str(info.value)
    assert "09_a.ipynb, cell 2 (code)" in message and what in message
    assert "mend the markers" in message


@pytest.mark.parametrize("text, what", [("{not json", "malformed JSON at line 1"),
                                        ("", "malformed JSON"),
                                        ("[1, 2]", "got list"),
                                        ('{"cells": 3}', "expected a JSON object with 'cells'"),
                                        ('{"cells": [], "nbformat": 4, "nbformat_minor": 5, '
                                         '"metadata": 7}', "not a valid notebook")])
def test_a_file_that_is_not_a_notebook_is_named(tmp_path, text, what):
    src, dest = _course(tmp_path, ("09_a",))
    (src / "09_z.ipynb").write_text(text)
    with pytest.raises(StudentCopyError) as info:
        write_student_copies(src, dest, out=io.StringIO())
    message = str(info.value)
    assert "09_z.ipynb" in message and what in message and "move it out of" in message


@pytest.mark.parametrize("record", ["{broken", '["09_a.ipynb"]', '{"09_a.ipynb": 3}'])
def test_a_corrupted_record_file_is_named_and_nothing_is_overwritten(tmp_path, record):
    src, dest = _course(tmp_path, ("09_a",))
    write_student_copies(src, dest, out=io.StringIO())
    before = (dest / "09_a.ipynb").read_text()
    (dest / MANIFEST).write_text(record)
    _retitle(src / "09_a.ipynb", "# Better")
    with pytest.raises(StudentCopyError, match=r"rvc-student.json: the record .* corrupted.*delete it"):
        write_student_copies(src, dest, out=io.StringIO())
    assert (dest / "09_a.ipynb").read_text() == before


def test_a_write_that_fails_is_named_and_the_record_survives(tmp_path, monkeypatch):
    import os
    import rvc.exercises.student as student
    src, dest = _course(tmp_path, ("09_a", "09_b"))
    write_student_copies(src, dest, out=io.StringIO())
    _retitle(src / "09_a.ipynb", "# Better a")
    _retitle(src / "09_b.ipynb", "# Better b")
    real = os.replace

    def replace(a, b):                      # the disk refuses the copy of 09_b (read-only, full)
        if Path(b).name == "09_b.ipynb":
            raise PermissionError(13, "Permission denied")
        return real(a, b)

    monkeypatch.setattr(student.os, "replace", replace)
    with pytest.raises(StudentCopyError, match="09_b.ipynb: cannot be written.*writable"):
        write_student_copies(src, dest, out=io.StringIO())
    assert not [p for p in dest.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.setattr(student.os, "replace", real)
    assert write_student_copies(src, dest, out=io.StringIO()) == {
        "09_a.ipynb": "unchanged", "09_b.ipynb": "updated"}


def test_main_reports_the_error_and_exits_nonzero(tmp_path, capsys):
    src, dest = _course(tmp_path, ("09_a",))
    (src / "09_b.ipynb").write_text("{not json")
    assert main([str(src), str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "09_b.ipynb" in err
