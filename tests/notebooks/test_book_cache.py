"""The book reuses the notebooks as nbval has just executed them, and never a stale one."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import book_cache  # noqa: E402


def _notebook(path, *sources):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A page")]
    nb.cells += [nbformat.v4.new_code_cell(src) for src in sources]
    nbformat.write(nb, path)
    return path


def _executed(source, folder, stamp):
    nb = nbformat.read(source, as_version=4)
    for count, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), 1):
        cell.execution_count = count
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"{count}\n")]
    nb.metadata[book_cache.STAMP_KEY] = stamp
    nbformat.write(nb, folder / source.name)


def test_only_copies_whose_stamp_matches_the_notebook_and_rvc_are_reused(tmp_path):
    recorded = tmp_path / "executed"
    recorded.mkdir()
    fresh = _notebook(tmp_path / "a.ipynb", "print(1)")
    edited = _notebook(tmp_path / "b.ipynb", "print(2)")
    never = _notebook(tmp_path / "c.ipynb", "print(3)")
    _executed(fresh, recorded, book_cache.source_stamp(fresh))
    _executed(edited, recorded, book_cache.source_stamp(edited))
    _notebook(edited, "print(20)")                              # edited after its test ran
    reused, execute = book_cache.fill_cache(recorded, tmp_path / "cache", [fresh, edited, never])
    assert reused == ["a.ipynb"] and execute == ["b.ipynb", "c.ipynb"]
    from jupyter_cache import get_cache
    cache = get_cache(str(tmp_path / "cache"))
    assert cache.match_cache_notebook(nbformat.read(fresh, as_version=4)) is not None
    with pytest.raises(KeyError):
        cache.match_cache_notebook(nbformat.read(edited, as_version=4))


def test_the_stamp_changes_with_the_notebook_and_with_rvc(tmp_path, monkeypatch):
    nb = _notebook(tmp_path / "a.ipynb", "print(1)")
    before = book_cache.source_stamp(nb)
    assert book_cache.source_stamp(nb) == before
    package = tmp_path / "root" / "rvc"
    package.mkdir(parents=True)
    (package / "m.py").write_text("x = 1\n")
    monkeypatch.setattr(book_cache, "ROOT", tmp_path / "root")
    one = book_cache.source_stamp(nb)
    (package / "m.py").write_text("x = 2\n")
    assert book_cache.source_stamp(nb) != one != before
    two = book_cache.source_stamp(nb)
    (tmp_path / "root" / "tools").mkdir()
    (tmp_path / "root" / "tools" / "ipython_kernel_config.py").write_text("c = get_config()\n")
    assert book_cache.source_stamp(nb) != two                   # how the kernels store figures
    _notebook(nb, "print(2)")
    assert book_cache.source_stamp(nb) != two


def test_the_cached_config_reads_the_cache_and_finds_the_extensions(tmp_path):
    out = tmp_path / "config.yml"
    book_cache.cached_config(ROOT / "_config.yml", out, tmp_path / "cache")
    import yaml
    config = yaml.safe_load(out.read_text())
    assert config["execute"]["execute_notebooks"] == "cache"
    assert config["execute"]["cache"] == str((tmp_path / "cache").resolve())
    assert Path(config["sphinx"]["local_extensions"]["offline"]) == ROOT / "book" / "_ext"
    original = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert config["title"] == original["title"] and config["parse"] == original["parse"]


@pytest.mark.kernel
def test_nbval_records_the_notebooks_that_passed_whole_with_their_figures(tmp_path):
    good = _notebook(tmp_path / "good.ipynb", "print('hi')",
                     "import matplotlib.pyplot as plt\n%matplotlib inline\nplt.plot([0, 1]);")
    bad = _notebook(tmp_path / "bad.ipynb", "print('hi')", "1 / 0")
    recorded = tmp_path / "executed"
    recorded.mkdir()
    (recorded / "bad.ipynb").write_text("{}")                  # a copy from an earlier run
    env = {**__import__("os").environ, "RVC_RECORD_OUTPUTS": str(recorded), "MPLBACKEND": "",
           "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-p", "tools.book_cache", "--nbval-lax", "--nbval-current-env", "--rootdir", str(tmp_path),
         str(good), str(bad)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, env=env)
    out = run.stdout + run.stderr
    assert "1 failed" in out, out
    assert not (recorded / "bad.ipynb").exists()
    nb = nbformat.read(recorded / "good.ipynb", as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c["execution_count"] for c in code] == [1, 2]
    assert code[0]["outputs"][0]["text"] == "hi\n"
    assert any("image/png" in o.get("data", {}) for o in code[1]["outputs"])
    assert nb["metadata"][book_cache.STAMP_KEY] == book_cache.source_stamp(good)


def test_the_cached_config_can_be_written_before_anything_was_built(tmp_path):
    """`make book` on a fresh clone: no _build folder exists yet (once a FileNotFoundError)."""
    out = tmp_path / "_build" / "book-config.yml"
    book_cache.cached_config(ROOT / "_config.yml", out, tmp_path / "_build" / ".jupyter_cache")
    assert out.exists()
