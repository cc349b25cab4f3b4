"""The outputs stored in the chapter notebooks (what nbval compares and the book shows) are clean,
in the English notebooks and in the Chinese ones (notebooks/zh)."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOC = (ROOT / "_toc.yml").read_text()
ENGLISH = [ROOT / f"{name}.ipynb" for name in re.findall(r"file:\s*(notebooks/\S+)", TOC)]
NOTEBOOKS = ENGLISH + [p.parent / "zh" / p.name for p in ENGLISH]


def stderr_texts(nb):
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stderr":
                yield i, out.get("text", "")
            if out.get("output_type") == "error" and "raises-exception" not in cell.metadata.get(
                    "tags", []):
                yield i, out.get("ename", "") + ": " + out.get("evalue", "")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_no_stored_warning_or_error(path):
    """No cell shows a numpy RuntimeWarning or a traceback on stderr, and only the cells tagged
    raises-exception (which show a ValueError on purpose) end in an error."""
    nb = nbformat.read(path, as_version=4)
    found = [(i, text.strip().splitlines()[0]) for i, text in stderr_texts(nb)
             if re.search(r"Warning|Error|Traceback", text)]
    assert not found, f"{path.name}: cells with warnings or errors in their stored outputs: {found}"


#: What only round-off decides, printed: a number far below any printed precision in scientific
#: notation (a residual of 2.5e-12 is 3e-12 on another CPU), or a full float repr that sits on a
#: fourth-decimal boundary (0.30000000000000004 here, 0.29999999999999998 there: the sanitize rules
#: keep four decimals, so 0.3000 against 0.2999).
ROUND_OFF = re.compile(r"\b\d\.\d+e-(?:1[0-9]|[2-9][0-9]|\d{3})\b|\b\d+\.\d{4}(?:0{6,}|9{6,})\d{0,3}\b")


def round_off_texts(nb):
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or "NBVAL_IGNORE_OUTPUT" in cell.source:
            continue
        for out in cell.get("outputs", []):
            texts = [out.get("text", "")] + [out.get("data", {}).get(k, "") for k in
                                             ("text/plain", "text/html", "text/latex")]
            for text in texts:
                for found in ROUND_OFF.findall("".join(text)):
                    yield i, found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT / "notebooks").as_posix())
def test_no_stored_output_prints_round_off(path):
    """What nbval compares must not depend on the last bits of a float: print a bound
    (``drift < 1e-10: True``) or round, never the round-off itself."""
    found = list(round_off_texts(nbformat.read(path, as_version=4)))
    assert not found, f"{path.name}: cells that print round-off (cell, text): {found}"


def test_the_round_off_check_finds_round_off():
    nb = nbformat.v4.new_notebook()
    for text in ["drift 2.5e-12\n", "0.30000000000000004\n", "1.2999999999999998\n",
                 "tol 1e-12, 3.3e-07 J, 0.15005, 1.5707963267949\n"]:
        cell = nbformat.v4.new_code_cell("print(x)")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        nb.cells.append(cell)
    assert [i for i, _ in round_off_texts(nb)] == [0, 1, 2]


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


def _tool(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stored_notebooks_keep_only_the_text_outputs_nbval_compares():
    """No images, animations or widget state in the repository: the book executes the notebooks
    itself, and a re-execution (make execute) must not commit megabytes of pictures."""
    execute = _tool("execute")
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        before = nbformat.writes(nb)
        execute.keep_text_outputs(nb)
        assert nbformat.writes(nb) == before, f"{path.name}: run tools/execute.py --strip-only on it"


def test_keep_text_outputs_drops_what_nbval_does_not_compare():
    execute = _tool("execute")
    nb = nbformat.v4.new_notebook()
    plot = nbformat.v4.new_code_cell("plt.show()\nprint(1)")
    plot.outputs = [
        nbformat.v4.new_output("display_data", data={"image/png": "iVBOR",
                                                     "text/plain": "<Figure size 640x480>"}),
        nbformat.v4.new_output("display_data", data={"image/png": "iVBOR"}),
        nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    panel = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\ndemo")
    panel.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "<script>"})]
    nb.cells = [plot, panel, nbformat.v4.new_markdown_cell("text")]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    execute.keep_text_outputs(nb)
    assert [o.get("data", o.get("text")) for o in plot.outputs] == [
        {"text/plain": "<Figure size 640x480>"}, "1\n"]
    assert panel.outputs == [] and "widgets" not in nb.metadata
