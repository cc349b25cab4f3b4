"""Every figure of the chapters is described for readers who cannot see it (no kernel).

The web book shows a code cell's figures as <img> tags; their alt text comes from the
cell's metadata, ``"mystnb": {"image": {"alt": "..."}}`` (MyST-NB gives every image
output of the cell that text), and an animation's frames get theirs from
``jshtml(anim, alt=...)``.  A cell draws a figure when its code shows one
(``plt.figure``, ``plt.subplots``, ``plt.show()``, a slider panel's ``snapshot`` or
``update``, a ``plot_...`` or ``.plot(`` call, a ``jshtml`` player, a ``..._demo(...)`` or
``.teach`` panel: on the executed notebooks this picks exactly the cells with image outputs);
the book test (tests/book) checks the built pages' <img> tags themselves.
"""

import ast
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: Calls that draw, in the code of a cell without its imports and comments.
DRAWS = re.compile(r"plt\.show\(\)|\.snapshot\(|\.update\(|\.teach\(|\bplot_\w+\(|\.plot\("
                   r"|tight_layout\(|\bjshtml\(|_demo\(|\banimate_\w+\(|plt\.(?:figure|subplots)\(")
JSHTML = re.compile(r"\bjshtml\(")


def code_of(source: str) -> str:
    """The cell's code without IPython magics, imports and comments (ast round trip)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:                       # not Python: it draws nothing we can tell
        return ""
    tree.body = [node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))]
    return ast.unparse(tree)


def draws_figure(source: str) -> bool:
    """Whether a code cell's source draws a figure (or an animation) in the book.

    >>> draws_figure("import matplotlib.pyplot as plt\\nfrom rvc import plot_drive")
    False
    >>> draws_figure("fig, ax = plt.subplots()\\nax.plot(t, y)\\nplt.show()")
    True
    >>> draws_figure("demo.snapshot(q1=30)  # plt.show() in a comment does not count")
    True
    >>> draws_figure("x = 1  # plt.show()")
    False
    """
    return bool(DRAWS.search(code_of(source)))


def jshtml_alt_missing(source: str) -> bool:
    """Whether a call of ``jshtml`` in the cell has no ``alt=`` argument."""
    tree = ast.parse(code_of(source) or "pass")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name == "jshtml" and not any(k.arg == "alt" for k in node.keywords):
                return True
    return False


def missing_alt(nb) -> list:
    """The ids and first lines of the figure cells of ``nb`` that have no description."""
    missing = []
    for cell in nb.cells:
        if cell.cell_type != "code" or not draws_figure(cell.source):
            continue
        alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
        if JSHTML.search(code_of(cell.source)):
            described = not jshtml_alt_missing(cell.source)
        else:
            described = isinstance(alt, str) and len(alt.split()) >= 5
        if not described:
            missing.append(f"{cell.get('id')}: {cell.source.strip().splitlines()[0][:70]}")
    return missing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_cell_has_a_description(path):
    nb = nbformat.read(path, as_version=4)
    missing = missing_alt(nb)
    assert not missing, (f"{path.name}: figure cells with no alt text (add \"mystnb\": {{\"image\": "
                         "{\"alt\": \"what the figure shows\"}} to the cell's metadata, or jshtml(anim, "
                         "alt=...)):\n" + "\n".join(missing))


def test_the_description_check_can_fail():
    plot = nbformat.v4.new_code_cell("fig, ax = plt.subplots()\nax.plot([0, 1])\nplt.show()")
    player = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nrvc.jshtml(anim)")
    text = nbformat.v4.new_code_cell("print(1)")
    nb = nbformat.v4.new_notebook(cells=[plot, player, text])
    assert len(missing_alt(nb)) == 2
    plot.metadata["mystnb"] = {"image": {"alt": "a plot"}}             # too short to say anything
    assert len(missing_alt(nb)) == 2
    plot.metadata["mystnb"] = {"image": {"alt": "a straight line rising from 0 to 1"}}
    player.source = "rvc.jshtml(anim, alt='the frame turning about x')"
    assert missing_alt(nb) == []


def test_descriptions_are_not_file_names():
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt")
            if alt is not None:
                assert not re.search(r"\.(png|jpe?g|svg|gif)\b", alt), (path.name, cell.get("id"), alt)
