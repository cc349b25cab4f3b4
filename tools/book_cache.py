"""Let the web book reuse the notebooks that the notebook tests have just executed.

`make test` runs every notebook under nbval, then builds the book, which would execute every
notebook again. Instead, while nbval runs with ``RVC_RECORD_OUTPUTS=<folder>`` set, the root
``conftest.py`` writes each notebook that passed whole, with the outputs its kernel really
produced (figures included), to that folder, stamped with a hash of the notebook and of the rvc
package it ran against. Before the book is built, this tool puts every copy whose stamp still
matches into a fresh Jupyter cache that the book reads (``execute_notebooks: cache``); a notebook
without a matching copy (edited since, rvc changed since, or never tested) is executed by the
book build as usual. So a stale output can never reach the book.

    python tools/book_cache.py RECORDED_FOLDER CACHE_FOLDER CONFIG_OUT

writes CONFIG_OUT: ``_config.yml`` with ``execute_notebooks: cache`` and the cache's path.
"""

import hashlib
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STAMP_KEY = "rvc_source_stamp"


def source_stamp(notebook):
    """A hash of the notebook file, of every file of the rvc package (their bytes and names) and
    of the kernels' profile (tools/ipython_kernel_config.py: how figures are stored)."""
    digest = hashlib.sha256(Path(notebook).read_bytes())
    profile = ROOT / "tools" / "ipython_kernel_config.py"
    digest.update(profile.read_bytes() if profile.exists() else b"")
    for path in sorted((ROOT / "rvc").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def fill_cache(recorded, cache_path, notebooks):
    """Put into a new cache at ``cache_path`` each recorded copy of ``notebooks`` whose stamp matches.

    Returns the names reused and the names the book build must execute itself.
    """
    import nbformat
    from jupyter_cache import get_cache

    shutil.rmtree(cache_path, ignore_errors=True)
    cache = get_cache(str(cache_path))
    reused, execute = [], []
    for notebook in notebooks:
        copy = Path(recorded) / Path(notebook).name
        if copy.exists():
            nb = nbformat.read(copy, as_version=4)
            if nb.metadata.get(STAMP_KEY) == source_stamp(notebook):
                cache.cache_notebook_file(str(copy), uri=str(Path(notebook).resolve()),
                                          check_validity=False, overwrite=True)
                reused.append(Path(notebook).name)
                continue
        execute.append(Path(notebook).name)
    return reused, execute


def cached_config(config_in, config_out, cache_path):
    """Write the book's configuration with ``execute_notebooks: cache`` reading ``cache_path``."""
    import yaml

    config = yaml.safe_load(Path(config_in).read_text())
    config["execute"]["execute_notebooks"] = "cache"
    config["execute"]["cache"] = str(Path(cache_path).resolve())
    here = Path(config_in).resolve().parent            # its paths are read relative to its folder
    extensions = config.get("sphinx", {}).get("local_extensions") or {}
    for name, path in extensions.items():
        extensions[name] = str((here / path).resolve())
    Path(config_out).parent.mkdir(parents=True, exist_ok=True)
    Path(config_out).write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))


def main(recorded, cache_path, config_out):
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in _walk(part["chapters"])]
    notebooks = [ROOT / f"{f}.ipynb" for f in files if (ROOT / f"{f}.ipynb").exists()]
    reused, execute = fill_cache(recorded, cache_path, notebooks)
    cached_config(ROOT / "_config.yml", config_out, cache_path)
    print(f"book: {len(reused)} notebooks as the notebook tests just ran them; "
          f"{len(execute)} executed by the book build" + (f" ({', '.join(execute)})" if execute else ""))


def _walk(chapters):
    for chapter in chapters:
        yield chapter
        yield from _walk(chapter.get("sections", []))


# ---- the pytest plugin (loaded by the root conftest.py): nbval's cells recorded ----

_recorded = {}          # notebook path -> {"cells": {cell number: outputs}, "failed": bool}


def pytest_runtest_makereport(item, call):
    """Keep each nbval cell's outputs, as its kernel produced them (figures included)."""
    if not os.environ.get("RVC_RECORD_OUTPUTS") or type(item).__name__ != "IPyNbCell" or call.when != "call":
        return
    record = _recorded.setdefault(str(item.parent.fspath), {"cells": {}, "failed": False})
    record["cells"][item.cell_num] = list(item.test_outputs or [])
    record["failed"] |= call.excinfo is not None and not call.excinfo.errisinstance(pytest.skip.Exception)


def pytest_sessionfinish(session):
    """Write each notebook whose every code cell ran and passed, stamped; remove the others' copies."""
    if not os.environ.get("RVC_RECORD_OUTPUTS") or not _recorded:
        return
    import nbformat

    folder = Path(os.environ["RVC_RECORD_OUTPUTS"])
    folder.mkdir(parents=True, exist_ok=True)
    for path, record in _recorded.items():
        target = folder / Path(path).name
        target.unlink(missing_ok=True)
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        if record["failed"] or set(record["cells"]) != set(range(len(code))):
            continue
        for count, cell in enumerate(code, 1):
            cell.execution_count = count
            cell.outputs = [nbformat.from_dict(_output(o, count)) for o in record["cells"][count - 1]]
        nb.metadata[STAMP_KEY] = source_stamp(path)
        nbformat.validate(nb)
        nbformat.write(nb, target)


def _output(output, count):
    """An nbformat output from nbval's record of a kernel message."""
    output = dict(output)
    if output["output_type"] == "execute_result":
        output["execution_count"] = count
    if output["output_type"] in ("display_data", "execute_result"):
        output.setdefault("metadata", {})
    return output


if __name__ == "__main__":
    main(*sys.argv[1:4])
