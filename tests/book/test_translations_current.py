"""Every message of the English book, extracted afresh, has a current translation in locale/zh_CN.

Run with the book's own toolchain (make booktest, in the course's venv): the messages are what
Sphinx's gettext builder cuts the pages into (tools/i18n.py), so an edited English paragraph shows
here as a new or fuzzy message until its translation is mended.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402

FIX = "run `python tools/i18n.py update`, translate what `python tools/i18n.py check` reports"


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """The English book's messages as they are now, one template per page."""
    return i18n.extract(tmp_path_factory.mktemp("gettext") / "pot")


def _pages(folder, suffix):
    return {p.relative_to(folder).with_suffix("").as_posix() for p in folder.rglob(f"*{suffix}")}


def test_there_is_one_catalog_per_page(templates):
    assert _pages(templates, ".pot") == _pages(i18n.CATALOGS, ".po") - {"toc"}, FIX


def test_every_message_of_the_english_book_has_a_current_translation(templates):
    stale = []
    for pot in sorted(templates.rglob("*.pot")):
        page = pot.relative_to(templates).with_suffix("").as_posix()
        po = i18n.CATALOGS / f"{page}.po"
        catalog = {m.id: m for m in i18n.read_catalog(po) if m.id} if po.exists() else {}
        for message in i18n.read_catalog(pot):
            if not message.id:
                continue
            entry = catalog.get(message.id)
            if entry is None or not entry.string or entry.fuzzy:
                state = "new" if entry is None else "fuzzy" if entry.fuzzy else "empty"
                stale.append(f"{page}: {state}: {message.id[:70]!r}")
    assert not stale, f"{len(stale)} messages without a current translation ({FIX}):\n" + "\n".join(stale[:40])


