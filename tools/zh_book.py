"""Prepare the Chinese web book's source: the English pages with the Chinese notebooks in place.

    python tools/zh_book.py SOURCE RECORDED CACHE

writes the folder SOURCE (e.g. ``_build/zh/src``): ``_toc.yml`` (its captions translated by
``locale/zh_CN/LC_MESSAGES/toc.po``), ``book/`` and ``benchmarks/`` as in the English book,
``notebooks/`` holding ``notebooks/zh/*.ipynb`` (tools/zh_notebooks.py wrote them from the same
catalogs), and ``_config.yml``: the English configuration with ``language: zh_CN``, the catalogs
of ``locale/`` (which translate the ``book/*.md`` pages; the notebooks are Chinese already), a
Chinese title, and the Jupyter cache CACHE filled with the Chinese notebooks as the notebook tests
just ran them (RECORDED, tools/book_cache.py): a notebook with no matching record is executed by
the build. Every page keeps its English name, so the language switch
(book/_ext/language_switch.py) leads to the same page.

``make book`` then builds SOURCE into ``_build/html/zh/``.
"""

import re
import shutil
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_cache  # noqa: E402
import i18n  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TITLE = "rvc：用 Python 学机械臂建模"


def prepare(source, recorded, cache):
    source = Path(source).resolve()
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    (source / "_toc.yml").write_text(chinese_toc(), encoding="utf-8")
    for folder in ("book", "benchmarks"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (source / "notebooks").mkdir()
    notebooks = []
    for english in sorted((ROOT / "notebooks").glob("*.ipynb")):
        chinese = ROOT / "notebooks" / "zh" / english.name
        if not chinese.exists():
            raise SystemExit(f"{chinese.relative_to(ROOT)} is missing: run python tools/zh_notebooks.py")
        shutil.copy(chinese, source / "notebooks" / english.name)
        notebooks.append(source / "notebooks" / english.name)
    reused, execute = book_cache.fill_cache(recorded, cache, notebooks)
    i18n.book_config(source / "_config.yml", title=TITLE,
                     execute={"execute_notebooks": "cache", "cache": str(Path(cache).resolve())},
                     language="zh_CN", locale_dirs=[str(i18n.LOCALE)], gettext_compact=False)
    print(f"Chinese book: {len(reused)} notebooks as the notebook tests just ran them; "
          f"{len(execute)} executed by the book build" + (f" ({', '.join(execute)})" if execute else ""))


TOC_CATALOG = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / "toc.po"


def toc_captions(text):
    """The captions of a table of contents' parts (``- caption: ...`` lines)."""
    return re.findall(r"^\s*- caption:\s*(.+?)\s*$", text, re.M)


def chinese_toc():
    """_toc.yml with its parts' captions from ``locale/zh_CN/LC_MESSAGES/toc.po`` (Sphinx's
    gettext has no message for them)."""
    from babel.messages.pofile import read_po

    text = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    with TOC_CATALOG.open("rb") as f:
        chinese = {m.id: m.string for m in read_po(f) if m.id and m.string}
    missing = [c for c in toc_captions(text) if c not in chinese]
    if missing:
        raise SystemExit(f"{TOC_CATALOG.relative_to(ROOT)} has no translation of {missing}")
    return re.sub(r"^(\s*- caption:\s*)(.+?)\s*$", lambda m: m.group(1) + chinese[m.group(2)], text, flags=re.M)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    prepare(*sys.argv[1:])
