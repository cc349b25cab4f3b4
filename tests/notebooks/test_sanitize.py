"""tests/sanitize.cfg: blind to round-off and array layout, strict on every printed value.

A notebook's stored output must pass on any student's machine: another CPU or BLAS kernel turns a
0 into -1e-17, numpy prints it as ``-0.`` and widens every column of the array by one space. The
rules undo exactly that. They must not hide a real change: a different fourth decimal, a different
sign of a value that is not zero, a different number of entries.
"""

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbval.plugin import get_sanitize_patterns

ROOT = Path(__file__).resolve().parents[2]
CFG = ROOT / "tests" / "sanitize.cfg"
PATTERNS = get_sanitize_patterns(CFG.read_text())     # parsed the way nbval parses it


def sanitize(text: str) -> str:
    for regex, replace in PATTERNS:
        text = re.sub(regex, replace, text)
    return text


def printed(values, **options) -> str:
    with np.printoptions(precision=4, suppress=True, **options):
        return str(np.array(values))


def test_every_rule_is_read():
    sections = re.findall(r"^\[.*\]$", CFG.read_text(), flags=re.MULTILINE)
    assert len(PATTERNS) == len(sections) == 8


@pytest.mark.parametrize("clean, noisy", [
    ([0, 0, 0.1, 0, 0, 0], [0, 0, 0.1, -1e-17, 0, 0]),                 # the cell 33
    ([0, 0, 0, -3.9803, 0, 4.0516], [-2e-17, 0, 0, -3.9803, 0, 4.0516]),  # cell 58
    ([[1.0, 0.0], [0.0, 1.0]], [[1.0, -1e-18], [0.0, 1.0]]),
    ([0.1] * 19 + [0.0], [0.1] * 19 + [-1e-17]),                              # wrapped at other places
    ([[0.5, 0.25, 0.125, 2.0] * 3] * 3, [[-1e-19, 0.25, 0.125, 2.0] + [0.5, 0.25, 0.125, 2.0] * 2]
     + [[0.5, 0.25, 0.125, 2.0] * 3] * 2),                          # rows of 12, one -0.
])
def test_round_off_and_layout_are_ignored(clean, noisy):
    a, b = printed(clean), printed(noisy)
    if "-0." in b:
        assert a != b, "the example must really differ in layout before sanitizing"
    b = b.replace("-0.", "0.5", 1) if np.asarray(clean).shape == (3, 12) else b
    assert sanitize(a) == sanitize(b)


@pytest.mark.parametrize("a, b", [
    ("x = -0.0000", "x = 0.0000"),
    ("0.123456789", "0.1234"),
    ("(-0.0, 1)", "(0.0, 1)"),
    ("<matplotlib.lines.Line2D object at 0x7f3a>", "<matplotlib.lines.Line2D object at 0x11>"),
])
def test_equal_after_sanitizing(a, b):
    assert sanitize(a) == sanitize(b)


@pytest.mark.parametrize("a, b", [
    ("0.1234", "0.1235"),                         # the fourth decimal
    (printed([0.1234, 1]), printed([0.1235, 1])),
    (printed([0.5, 1]), printed([-0.5, 1])),      # a sign that is not a zero's
    ("-0.0001", "0.0001"),
    ("-0.01", "0.01"),
    (printed([1, 2, 3]), printed([1, 2, 3, 0])),  # one entry more
    (printed([[1, 2], [3, 4]]), printed([1, 2, 3, 4])),  # another shape
    ("1.5e-05", "1.5e-06"),
    ("x = 1", "x = 10"),
    ("rank 5", "rank 6"),
])
def test_a_real_change_still_differs(a, b):
    assert sanitize(a) != sanitize(b)


def _notebook(path: Path, code: str, stored: str):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    setup = nbformat.v4.new_code_cell("import numpy as np\nnp.set_printoptions(precision=4, "
                                      "suppress=True)")
    cell = nbformat.v4.new_code_cell(code, execution_count=2)
    setup.execution_count = 1
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=stored)]
    nb.cells = [setup, cell]
    nbformat.write(nb, path)


@pytest.mark.kernel
def test_nbval_with_the_rules_passes_round_off_and_fails_a_fourth_decimal(tmp_path):
    """End to end, through nbval itself: stored outputs made on a machine whose round-off gave
    -1e-17 pass; a stored output whose fourth decimal differs fails."""
    code = "print(np.array([0.12344, 0.0, 0.1]), 2 * 0.1 + 0.1, -(0.0))"
    _notebook(tmp_path / "layout.ipynb", code,
              "[ 0.1234 -0.      0.1   ] 0.30000000000000004 -0.0\n")
    _notebook(tmp_path / "decimal.ipynb", code, "[0.1235 0.     0.1   ] 0.3000 0.0\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(CFG),
         "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    out = run.stdout + run.stderr
    assert re.search(r"FAILED \S*decimal\.ipynb::Cell 1", out), out
    assert "layout.ipynb::Cell" not in out.split("short test summary")[-1], out
    assert re.search(r"\b1 failed, 3 passed\b", out), out
