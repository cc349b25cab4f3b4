"""Every slider demo keeps its state in its own scope (CONTRIBUTING.md, "Sliders").

A slider's callback runs whenever the student moves it, long after the cell
that built it: if it read a notebook global, any later cell that reuses the
name (``X``, ``fig``, ``q0``...) would break the panel.  So each
``SliderDemo(...)`` is built inside a function, and that function and the
callbacks in it read no global name except those the notebook's first code
cell imports (the first after the install cell, tools/install_cell.py) and
Python's builtins.  Checked statically, for every notebook in ``_toc.yml``;
the browser tests (tests/browser) check the panels live.
"""

import ast
import builtins
import re
import symtable
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from install_cell import is_install_cell  # noqa: E402

NOTEBOOKS = [f"{p}.ipynb" for p in re.findall(r"file:\s*(notebooks/\S+)", (ROOT / "_toc.yml").read_text())]


def _python(source: str) -> str:
    """A cell's source with IPython magics and shell escapes blanked out."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in source.splitlines())


def _imported(tree: ast.Module) -> set:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    return names


def _global_reads(table: symtable.SymbolTable) -> set:
    """Global names a function and the functions nested in it refer to."""
    names = {s.get_name() for s in table.get_symbols() if s.is_global()}
    for child in table.get_children():
        names |= _global_reads(child)
    return names


def _demos(source: str):
    """(line, builder name or None) for each SliderDemo(...) call in a cell."""
    tree = ast.parse(source)
    found = []

    def visit(node, builder):
        for child in ast.iter_child_nodes(node):
            inner = builder
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and builder is None:
                inner = child.name
            if isinstance(child, ast.Call):
                f = child.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if name == "SliderDemo":
                    found.append((child.lineno, builder))
            visit(child, inner)

    visit(tree, None)
    return found


def _check(path: Path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and not is_install_cell(c)]
    allowed = _imported(ast.parse(_python(code[0].source))) | set(dir(builtins))
    problems, count = [], 0
    for index, cell in enumerate(code):
        source = _python(cell.source)
        demos = _demos(source)
        count += len(demos)
        if not demos:
            continue
        tables = {t.get_name(): t for t in symtable.symtable(source, "cell", "exec").get_children()}
        for line, builder in demos:
            where = f"{path.name}, code cell {index}, line {line}"
            if builder is None:
                problems.append(f"{where}: SliderDemo built at the top level of a cell, "
                                "not inside a function that returns it")
                continue
            stray = sorted(_global_reads(tables[builder]) - allowed)
            if stray:
                problems.append(f"{where}: {builder}() reads notebook globals {stray}; "
                                "pass them as arguments or import them in the first cell")
    return problems, count


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_slider_demos_keep_their_state_in_their_own_scope(notebook):
    problems, _ = _check(ROOT / notebook)
    assert not problems, "\n".join(problems)


def _snapshots(path: Path) -> int:
    """How many cells drive a slider callback from code (``demo.snapshot(...)`` or a teach
    panel's ``.update(...)``), so the tests and the book run it."""
    nb = nbformat.read(path, as_version=4)
    return sum(bool(re.search(r"\.snapshot\(|_panel\.update\(|panel\.update\(", c.source))
               for c in nb.cells if c.cell_type == "code")


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_chapter_notebook_has_two_sliders_driven_from_code(notebook):
    """Issue 13: at least two slider panels per notebook, each also run from code."""
    path = ROOT / notebook
    _, demos = _check(path)
    nb = nbformat.read(path, as_version=4)
    teach = sum(len(re.findall(r"\.teach\(", c.source)) for c in nb.cells if c.cell_type == "code")
    assert demos + teach >= 2, f"{notebook}: {demos} SliderDemo and {teach} teach panels"
    assert _snapshots(path) >= 2, f"{notebook}: fewer than two slider callbacks driven from code"


def test_the_check_finds_globals_and_top_level_demos(tmp_path):
    """The check itself can fail: a demo reading a global, and one built at the top level."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("%matplotlib inline\nimport numpy as np\nimport rvc"),
        nbformat.v4.new_code_cell("X = np.eye(3)\n"
                                  "def build():\n"
                                  "    fig = None\n"
                                  "    def show(a=0):\n"
                                  "        return X @ np.ones(3) * a\n"
                                  "    return rvc.SliderDemo(fig, show, a=None)\n"
                                  "demo = build()"),
        nbformat.v4.new_code_cell("demo2 = rvc.SliderDemo(None, print, a=None)"),
        nbformat.v4.new_code_cell("def build_ok(X):\n"
                                  "    def show(a=0):\n"
                                  "        return X @ np.ones(3) * a + len([a])\n"
                                  "    return rvc.SliderDemo(None, show, a=None)"),
    ]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    problems, count = _check(path)
    assert count == 3
    assert len(problems) == 2
    assert "build() reads notebook globals ['X']" in problems[0]
    assert "top level" in problems[1]
