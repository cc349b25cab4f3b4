"""The outputs stored in the chapter notebooks (what nbval compares and the book shows) are clean."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
TOC = (ROOT / "_toc.yml").read_text()
NOTEBOOKS = [ROOT / f"{name}.ipynb" for name in re.findall(r"file:\s*(notebooks/\S+)", TOC)]


def stderr_texts(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                yield i, out.get("text", "")
            if out.get("output_type") == "error" and "raises-exception" not in cell.metadata.get(
                    "tags", []):
                yield i, out.get("ename", "") + ": " + out.get("evalue", "")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_stored_warning_or_error(path):
    """No cell shows a numpy RuntimeWarning or a traceback on stderr, and only the cells tagged
    raises-exception (which show a ValueError on purpose) end in an error."""
    nb = nbformat.read(path, as_version=4)
    found = [(i, text.strip().splitlines()[0]) for i, text in stderr_texts(nb)
             if re.search(r"Warning|Error|Traceback", text)]
    assert not found, f"{path.name}: cells with warnings or errors in their stored outputs: {found}"


def test_the_check_finds_a_warning():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("1/0")
    cell.outputs = [nbformat.v4.new_output("stream", name="stderr",
                                           text="x.py:4: RuntimeWarning: invalid value\n")]
    nb.cells.append(cell)
    error = nbformat.v4.new_code_cell("1/0")
    error.outputs = [nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="x",
                                            traceback=[])]
    nb.cells.append(error)
    assert [i for i, _ in stderr_texts(nb)] == [0, 1]
    error.metadata["tags"] = ["raises-exception"]
    assert list(stderr_texts(nb)) == [(0, "x.py:4: RuntimeWarning: invalid value\n")]


def test_a_retry_runs_failed_notebooks_whole(tmp_path):
    """tools/failed_notebooks.py turns pytest's failed cells into the notebooks to run again."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("failed_notebooks",
                                                  ROOT / "tools" / "failed_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cache = tmp_path / "v" / "cache"
    cache.mkdir(parents=True)
    assert module.failed_notebooks(tmp_path) == []
    (cache / "lastfailed").write_text(
        '{"notebooks/b.ipynb::Cell 17": true, "notebooks/b.ipynb::Cell 3": true, '
        '"notebooks/a.ipynb::Cell 0": true, "tests/test_x.py::test_y": true}')
    assert module.failed_notebooks(tmp_path) == ["notebooks/a.ipynb", "notebooks/b.ipynb"]
