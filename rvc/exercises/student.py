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

A student's edits are never overwritten: the tool records a SHA-256 of each
copy it writes in ``<dest>/.rvc-student.json``.  A copy that exists and no
longer matches its record (or that the tool never wrote) is skipped with a
message; an unchanged copy is refreshed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import nbformat

__all__ = ["strip_solutions", "strip_notebook", "write_student_copies", "main"]

BEGIN = "# BEGIN SOLUTION"
END = "# END SOLUTION"
MANIFEST = ".rvc-student.json"
_CHECK = re.compile(r"""check\(\s*["']([^"']+)["']""")
_BEGIN_LINE = re.compile(r"^\s*#\s*BEGIN\s+SOLUTION\s*$", re.IGNORECASE)
_END_LINE = re.compile(r"^\s*#\s*END\s+SOLUTION\s*$", re.IGNORECASE)
_ANY_MARKER = re.compile(r"(BEGIN|END)\s+SOLUTION", re.IGNORECASE)


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


def strip_notebook(nb) -> tuple[object, int]:
    """Strip solutions from every code cell of ``nb`` in place.

    Returns the notebook and the number of exercise cells stripped.
    """
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code" or not _ANY_MARKER.search(cell.source):
            continue
        cell.source = strip_solutions(cell.source)
        cell.outputs = []
        cell.execution_count = None
        count += 1
    return nb, count


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_student_copies(src: Path, dest: Path, *, out=sys.stdout) -> dict[str, str]:
    """Write a stripped copy of each notebook in ``src`` into ``dest``.

    Returns ``{name: status}`` with status ``"written"``, ``"updated"``,
    ``"unchanged"`` or ``"skipped"`` (the student has edited it).
    """
    src, dest = Path(src), Path(dest)
    if not src.is_dir():
        raise ValueError(f"src: expected a folder of notebooks, got {str(src)!r}")
    dest.mkdir(parents=True, exist_ok=True)
    manifest_path = dest / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    status = {}
    for path in sorted(src.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        nb, count = strip_notebook(nb)
        text = nbformat.writes(nb) + "\n"
        target = dest / path.name
        if target.exists():
            current = _digest(target.read_text(encoding="utf-8"))
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
        target.write_text(text, encoding="utf-8")
        manifest[path.name] = _digest(text)
        print(f"{status[path.name]} {target} ({count} exercises)", file=out)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    counts = {k: list(status.values()).count(k) for k in ("written", "updated", "unchanged", "skipped")}
    print(f"student copies in {dest}: " + ", ".join(f"{v} {k}" for k, v in counts.items()), file=out)
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="folder of course notebooks")
    parser.add_argument("dest", type=Path, help="folder for the student copies")
    args = parser.parse_args(argv)
    write_student_copies(args.src, args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
