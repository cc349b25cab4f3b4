"""Write student copies of the course notebooks, with solutions stripped.

Usage (what ``make student`` runs)::

    python -m rvc.exercises.student notebooks student

In every code cell, the lines from ``# BEGIN SOLUTION`` to ``# END SOLUTION``
(inclusive) become one line::

    raise NotImplementedError("Exercise 2.3: your code here")

indented like the ``BEGIN`` line.  A marker line is recognised however it is
padded (blanks or tabs around it, or between ``#`` and the words, which no
one sees in Jupyter), and a copy that would still contain the words
``BEGIN SOLUTION`` or ``END SOLUTION`` anywhere is refused with an error
rather than written.  The exercise number is read from the
cell's ``check("2.3", ...)`` call.  Outputs of exercise cells are cleared so
no answer survives in them.

Solution markers belong in code cells only: a markdown or raw cell that
contains the words ``BEGIN SOLUTION`` or ``END SOLUTION`` is refused with an
error (its text would go out verbatim), and nothing of that notebook is
written.

A student's edits are never overwritten: the tool records a SHA-256 of each
copy it writes in ``<dest>/.rvc-student.json``.  A copy that exists and no
longer matches its record (or that the tool never wrote) is skipped with a
message; an unchanged copy is refreshed.  The record is rewritten (atomically)
after every copy, so a failure part-way (a malformed notebook, a marker typo,
a read-only folder) loses nothing: once the cause is mended, a rerun updates
every untouched copy.  Every error names the notebook, the cell and what to do.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import TextIO

import nbformat

__all__ = ["StudentCopyError", "strip_solutions", "strip_notebook", "read_notebook",
           "write_student_copies", "main"]

BEGIN = "# BEGIN SOLUTION"
END = "# END SOLUTION"
MANIFEST = ".rvc-student.json"
_CHECK = re.compile(r"""check\(\s*["']([^"']+)["']""")
_BEGIN_LINE = re.compile(r"^\s*#\s*BEGIN\s+SOLUTION\s*$", re.IGNORECASE)
_END_LINE = re.compile(r"^\s*#\s*END\s+SOLUTION\s*$", re.IGNORECASE)
_ANY_MARKER = re.compile(r"(BEGIN|END)\s+SOLUTION", re.IGNORECASE)


class StudentCopyError(ValueError):
    """A course notebook or the record file cannot be used; the message names the file, the cell
    and what to do."""


def strip_solutions(source: str, exercise_id: str | None = None) -> str:
    """Replace each ``BEGIN``/``END SOLUTION`` block in ``source`` by a raise.

    >>> src = "x = 1\\n# BEGIN SOLUTION\\nanswer = x + 1\\n# END SOLUTION\\ncheck('9.9', answer)"
    >>> print(strip_solutions(src))
    x = 1
    raise NotImplementedError("Exercise 9.9: your code here")
    check('9.9', answer)
    """
    if exercise_id is None:
        found = _CHECK.search(source)
        exercise_id = found.group(1) if found else "this exercise"
    out, inside = [], False
    for number, line in enumerate(source.splitlines(), start=1):
        if _BEGIN_LINE.match(line):
            if inside:
                raise ValueError(f"source: nested {BEGIN!r} at line {number}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f'{indent}raise NotImplementedError("Exercise {exercise_id}: your code here")')
        elif _END_LINE.match(line):
            if not inside:
                raise ValueError(f"source: {END!r} without {BEGIN!r} at line {number}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise ValueError(f"source: {BEGIN!r} without {END!r}")
    stripped = "\n".join(out)
    stray = _ANY_MARKER.search(stripped)
    if stray:
        line = stripped[: stray.start()].count("\n") + 1
        raise ValueError(f"source: a solution marker that is not a line of its own, "
                         f"{stray.group(0)!r} at line {line} of the stripped cell; "
                         f"write {BEGIN!r} and {END!r} alone on their lines")
    return stripped


def strip_notebook(nb: nbformat.NotebookNode, name: str = "notebook") -> tuple[object, int]:
    """Strip solutions from every code cell of ``nb`` in place.

    Returns the notebook and the number of exercise cells stripped.  A
    marker error, or a marker in a markdown or raw cell, raises
    :class:`StudentCopyError` naming ``name`` and the cell (numbered from 1,
    as Jupyter's cell list shows them).

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# BEGIN SOLUTION")])
    >>> strip_notebook(nb, "09.ipynb")
    Traceback (most recent call last):
    ...
    rvc.exercises.student.StudentCopyError: 09.ipynb, cell 1 (markdown): a solution marker outside a code cell
    would be copied verbatim into the student copy; move the solution into a code cell, or remove the words 'BEGIN
    SOLUTION'
    """
    count = 0
    for number, cell in enumerate(nb.cells, start=1):
        source = cell.get("source", "")
        marker = _ANY_MARKER.search(source)
        if not marker:
            continue
        where = f"{name}, cell {number} ({cell.cell_type})"
        if cell.cell_type != "code":
            raise StudentCopyError(
                f"{where}: a solution marker outside a code cell would be copied verbatim into "
                f"the student copy; move the solution into a code cell, or remove the words "
                f"{marker.group(0).upper()!r}")
        try:
            cell.source = strip_solutions(source)
        except ValueError as exc:
            detail = str(exc).removeprefix("source: ")
            raise StudentCopyError(
                f"{where}: {detail}; mend the markers in that cell (one {BEGIN!r} line, then the "
                f"solution, then one {END!r} line, not nested) and run again") from None
        cell.outputs = []
        cell.execution_count = None
        count += 1
    return nb, count


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read the course notebook at ``path``; a file that is not one raises :class:`StudentCopyError`
    naming it and what is wrong."""
    path = Path(path)
    fix = f"mend it (open it in Jupyter, or undo the last edit), or move it out of {str(path.parent)!r}"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StudentCopyError(f"{path}: cannot be read ({exc}); {fix}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StudentCopyError(f"{path}: not a notebook: malformed JSON at line {exc.lineno}, "
                               f"column {exc.colno} ({exc.msg}); {fix}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list) \
            or "nbformat" not in data:
        got = (f"keys {sorted(data)}" if isinstance(data, dict) else type(data).__name__)
        raise StudentCopyError(f"{path}: not a notebook: expected a JSON object with 'cells' "
                               f"and 'nbformat', got {got}; {fix}")
    try:
        return nbformat.reads(text, as_version=4)
    except Exception as exc:                  # nbformat's own validation, whatever it raises
        raise StudentCopyError(f"{path}: not a valid notebook ({type(exc).__name__}: "
                               f"{str(exc).splitlines()[0] if str(exc) else ''}); {fix}") from None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``: the file is either
    the old one or the new one, never half written."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StudentCopyError(f"{path}: cannot be written ({exc.strerror or exc}); make "
                               f"{str(path.parent)!r} writable and run again") from None


def _read_manifest(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    fix = (f"restore it from a backup, or delete it (every copy already in {str(path.parent)!r} "
           f"is then kept as if edited; delete the copies you want fresh)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise StudentCopyError(f"{path}: the record of the copies written is corrupted "
                               f"({exc}); {fix}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in data.items()):
        raise StudentCopyError(f"{path}: the record of the copies written is corrupted "
                               f"(expected a JSON object of notebook name: digest, got "
                               f"{type(data).__name__}); {fix}")
    return data


def write_student_copies(src: Path, dest: Path, *, out: TextIO = sys.stdout) -> dict[str, str]:
    """Write a stripped copy of each notebook in ``src`` into ``dest``.

    Returns ``{name: status}`` with status ``"written"``, ``"updated"``,
    ``"unchanged"`` or ``"skipped"`` (the student has edited it).  The record
    ``<dest>/.rvc-student.json`` is rewritten atomically after each copy, so
    an error on one notebook (raised as :class:`StudentCopyError`) keeps the
    record of every copy written before it.
    """
    src, dest = Path(src), Path(dest)
    if not src.is_dir():
        raise ValueError(f"src: expected a folder of notebooks, got {str(src)!r}")
    dest.mkdir(parents=True, exist_ok=True)
    manifest_path = dest / MANIFEST
    manifest = _read_manifest(manifest_path)
    status = {}
    for path in sorted(src.glob("*.ipynb")):
        nb, count = strip_notebook(read_notebook(path), path.name)
        text = nbformat.writes(nb) + "\n"
        target = dest / path.name
        if target.exists():
            current = _digest(target.read_text(encoding="utf-8", errors="replace"))
            if manifest.get(path.name) != current:
                status[path.name] = "skipped"
                print(f"skipped {target}: it was changed since it was written; your edits are kept "
                      f"(delete or rename it to get a fresh copy)", file=out)
                continue
            if current == _digest(text):
                status[path.name] = "unchanged"
                continue
            status[path.name] = "updated"
        else:
            status[path.name] = "written"
        _write_atomic(target, text)
        manifest[path.name] = _digest(text)
        _write_atomic(manifest_path, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        print(f"{status[path.name]} {target} ({count} exercises)", file=out)
    counts = {k: list(status.values()).count(k) for k in ("written", "updated", "unchanged", "skipped")}
    print(f"student copies in {dest}: " + ", ".join(f"{v} {k}" for k, v in counts.items()), file=out)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="folder of course notebooks")
    parser.add_argument("dest", type=Path, help="folder for the student copies")
    args = parser.parse_args(argv)
    try:
        write_student_copies(args.src, args.dest)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
