"""Write each notebook's first code cell: it installs the course where the kernel has no rvc.

    python tools/install_cell.py                    # every notebook of _toc.yml
    python tools/install_cell.py notebooks/02_pose.ipynb [...]
    python tools/install_cell.py --check            # exit 1 if a notebook's cell is missing or stale

A kernel on Colab or on a JupyterHub that opens the student branch (the book's launch buttons)
has no rvc. The cell imports it, and only when that fails installs the course's distribution,
``rvc-course``, from the release tag ``v<rvc.__version__>`` of the repository that _config.yml
names (``repository.url``); the package called rvc on PyPI is an unrelated project, so the
cell never installs by that name. Where rvc is installed (the course's venv, Binder, the
grader, nbval) the cell does nothing and prints nothing, so nbval stores no output for it.

In the web book the cell is removed (cell tag ``remove-cell``): the book is read without a
kernel, where the cell would install nothing, and a "show code" toggle at the top of every
chapter would open onto installation plumbing. The notebook itself, as the download and launch
buttons hand it out, keeps the cell where it acts.

The tool is idempotent: the cell is found by its first line (``MARKER``) and rewritten from the
template, or inserted before the notebook's first code cell; nothing else changes, and a
notebook already up to date is not written. A release must push the tag the cell names
(``git tag v0.1.0 && git push origin v0.1.0``, the version of rvc/__init__.py); after the
version or the repository changes, run this tool again (make student then carries the cell).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
MARKER = "# Colab or a hub without the course? This cell installs it (tools/install_cell.py writes it)."
TAGS = ["remove-cell"]
CELL_ID = "install-rvc"

TEMPLATE = MARKER + """
# Where rvc is installed already, as in the course's own environment, it does nothing.
try:
    import rvc.exercises
except ModuleNotFoundError as missing:
    if missing.name not in ("rvc", "rvc.exercises"):
        raise
    import importlib, site, subprocess, sys
    # The course's distribution is rvc-course (the PyPI package named rvc is another project).
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                    "rvc-course @ git+{url}@{tag}"], check=True)
    site.addsitedir(site.getusersitepackages())   # where pip puts it when site-packages is read-only
    importlib.invalidate_caches()
    import rvc.exercises"""


def release_tag(root: Path = ROOT) -> str:
    """The git tag a release pushes: ``v`` and the version in rvc/__init__.py."""
    text = (root / "rvc" / "__init__.py").read_text()
    found = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.M)
    if not found:
        raise ValueError(f"{root / 'rvc' / '__init__.py'}: expected a line __version__ = '...', found none")
    return "v" + found.group(1)


def repository_url(root: Path = ROOT) -> str:
    """The repository of _config.yml (``repository.url``), as a plain https URL."""
    config = yaml.safe_load((root / "_config.yml").read_text())
    url = (config.get("repository") or {}).get("url", "")
    if not re.fullmatch(r"https://[\w.-]+/[\w.-]+/[\w.-]+", url or ""):
        raise ValueError(f"_config.yml: expected repository.url like https://github.com/owner/repo, got {url!r}")
    return url.removesuffix(".git")


def cell_source(root: Path = ROOT) -> str:
    """The install cell's text for this tree (the template with its URL and tag)."""
    return TEMPLATE.format(url=repository_url(root), tag=release_tag(root))


def is_install_cell(cell) -> bool:
    return cell.get("cell_type") == "code" and cell.get("source", "").startswith(MARKER)


def notebooks(root: Path = ROOT) -> list[Path]:
    """The chapter notebooks, in _toc.yml's order."""
    return [root / f"{p}.ipynb" for p in re.findall(r"file:\s*(notebooks/\S+)", (root / "_toc.yml").read_text())]


def update(nb, source: str) -> bool:
    """Put the install cell with ``source`` first among ``nb``'s code cells; True when ``nb`` changed."""
    found = [i for i, c in enumerate(nb.cells) if is_install_cell(c)]
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    if found == [first_code]:
        cell = nb.cells[first_code]
        tags = cell.metadata.get("tags", [])
        if cell.source == source and not cell.outputs and all(t in tags for t in TAGS):
            return False
        cell.source, cell.outputs, cell.execution_count = source, [], None
        cell.metadata["tags"] = tags + [t for t in TAGS if t not in tags]
        return True
    for i in reversed(found):                        # stray copies (moved, duplicated): one, first
        del nb.cells[i]
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": list(TAGS)})
    if nb.nbformat == 4 and nb.nbformat_minor < 5:
        del cell["id"]
    elif CELL_ID not in {c.get("id") for c in nb.cells}:
        cell["id"] = CELL_ID                         # the same in every notebook and every run
    nb.cells.insert(first_code, cell)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks (default: every one of _toc.yml)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook would change")
    args = parser.parse_args(argv)
    try:
        source = cell_source()
    except (OSError, ValueError) as exc:
        print(f"install_cell: {exc}", file=sys.stderr)
        return 1
    stale = []
    for path in args.paths or notebooks():
        nb = nbformat.read(path, as_version=4)
        if update(nb, source):
            stale.append(path)
            if not args.check:
                nbformat.write(nb, path)
                print(f"{path}: install cell written")
    if args.check and stale:
        print("install cell missing or stale in: " + ", ".join(map(str, stale))
              + "\n  run: python tools/install_cell.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
