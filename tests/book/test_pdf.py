"""The course's PDF, as `make pdf` printed it (tools/print_pdf.py), read back with poppler.

Run by `make pdftest` (part of `make test` where Chromium is installed) with ``RVC_PDF`` set to
the PDF it printed: every page of _toc.yml is in it under its own title, at the page its table of
contents gives; the maths is typeset; every figure prints at 150 dpi or more; code wraps;
the Chinese text has real glyphs in an embedded CJK font; and printing asked for nothing from
another host.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from babel.messages.pofile import read_po
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import print_pdf  # noqa: E402

PDF = Path(os.environ.get("RVC_PDF", ROOT / "_build" / "pdf" / "rvc-course.pdf"))
#: "zh" for the Chinese edition's PDF (make pdftest checks both): its titles are the Chinese ones.
LANGUAGE = os.environ.get("RVC_PDF_LANGUAGE", "en")
POPPLER = ("pdfinfo", "pdftotext", "pdffonts", "pdfimages")

# Skipped where poppler is missing, except under .ci/run (which installs it and sets this variable).
pytestmark = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in POPPLER) and not os.environ.get("RVC_REQUIRE_CJK_FONT"),
    reason="poppler's tools are not installed (Debian/Ubuntu: apt-get install poppler-utils; .ci/run does)")


def _run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def _normal(text):
    """Lower case, without markup or white space (pdftotext spaces out a change of font)."""
    return re.sub(r"\s+", "", re.sub(r"[*_`]", "", text)).lower()


def _title_key(title):
    """A title's start in pdftotext's output, before the Chinese in brackets (which pdftotext may
    put on a line of its own: the CJK font's line height differs)."""
    return re.split(r"[(（]", _normal(title))[0][:32]


def _titles():
    """The first heading of every page of _toc.yml after the front page, from the sources."""
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    titles = []
    for name in re.findall(r"file:\s*(\S+)", toc):
        path = ROOT / f"{name}.ipynb"
        if LANGUAGE == "zh" and path.exists():
            path = path.parent / "zh" / path.name
        if path.exists():
            text = "\n".join("".join(c.source) for c in nbformat.read(path, as_version=4).cells
                             if c.cell_type == "markdown")
        else:
            text = (ROOT / f"{name}.md").read_text(encoding="utf-8")
        title = re.search(r"^# (.+)$", text, re.M).group(1)
        if LANGUAGE == "zh" and not path.exists():     # a book page: its catalog translates it
            catalog = ROOT / "locale" / "zh_CN" / "LC_MESSAGES" / f"{name}.po"
            title = next((m.string for m in read_po(catalog.open("rb")) if m.id == title), title)
        titles.append(title)
    return titles


@pytest.fixture(scope="module")
def pdf():
    if not PDF.exists():
        pytest.fail(f"no PDF at {PDF}: make pdf writes it")
    text = _run("pdftotext", "-layout", str(PDF), "-")
    report = json.loads(Path(f"{PDF}.json").read_text(encoding="utf-8"))
    return {"text": text, "pages": text.split("\f"), "report": report,
            "info": _run("pdfinfo", str(PDF))}


def test_every_page_of_the_book_is_a_chapter_of_the_pdf_at_the_page_its_contents_gives(pdf):
    titles = _titles()
    chapters = pdf["report"]["chapters"]
    assert [_normal(c["title"]) for c in chapters] == [_normal(t) for t in titles]
    assert pdf["report"]["contents_numbered"]
    heading = "目录" if LANGUAGE == "zh" else "Contents"          # tools/print_pdf.py's contents page
    first = next(i for i, page in enumerate(pdf["pages"]) if re.search(rf"^\s*{heading}\s*$", page, re.M))
    contents = _normal(pdf["pages"][first] + pdf["pages"][first + 1])
    assert first < chapters[0]["page"] - 1
    for chapter in chapters:
        page = pdf["pages"][chapter["page"] - 1]
        assert any(_normal(line).startswith(_title_key(chapter["title"])) for line in page.splitlines()), \
            f"{chapter['title']!r} is not on page {chapter['page']}"
        assert _title_key(chapter["title"]) in contents


def test_pages_are_numbered_in_the_footer(pdf):
    pages = int(re.search(r"^Pages:\s+(\d+)", pdf["info"], re.M).group(1))
    assert pages == len(pdf["pages"]) - 1 > 3 * len(pdf["report"]["chapters"])
    for number in (1, pages // 2, pages):
        assert re.search(rf"^\s*{number} / {pages}\s*$", pdf["pages"][number - 1], re.M), number


def test_the_maths_is_typeset_and_no_tex_source_is_left(pdf):
    assert pdf["report"]["maths"] > 200
    assert pdf["report"]["raw_maths"] == []
    # (the PDF's text cannot tell: TeX is also in code, as matplotlib labels; the report is read
    # off the page that was printed: every formula typeset, none left as TeX in prose)


def test_every_figure_prints_at_150_dpi_or_more(pdf):
    rows = [line.split() for line in _run("pdfimages", "-list", str(PDF)).splitlines()[2:]]
    figures = [r for r in rows if r[2] == "image" and int(r[3]) >= 200]     # not icons
    assert len(figures) >= pdf["report"]["figures"] > 100
    low = [(r[0], r[3], r[4], r[12]) for r in figures if min(int(r[12]), int(r[13])) < 150]
    assert not low, f"{len(low)} figures below 150 dpi (page, width, height, x-ppi): {low[:10]}"


def test_code_wraps_and_nothing_is_wider_than_the_page(pdf):
    """A wider element would make Chromium shrink every page to fit it, or clip it."""
    assert pdf["report"]["clipped_code"] == []
    assert pdf["report"]["too_wide"] == []
    assert "p560 = models.puma560()" in pdf["text"].replace("\n", " ") or "puma560()" in pdf["text"]


def test_chinese_text_has_glyphs_and_every_font_is_embedded(pdf):
    """The glyph check runs in the page that is printed (the web-book test's check, which draws
    each character and compares it with the empty box); the PDF then carries every font."""
    assert pdf["report"]["cjk_characters"] > 100
    assert pdf["report"]["missing_glyphs"] == []
    fonts = [line.split() for line in _run("pdffonts", str(PDF)).splitlines()[2:]]
    unembedded = [f for f in fonts if f[-5] != "yes"]                # the "emb" column
    assert fonts and not unembedded, unembedded
    assert "位姿" in pdf["text"] and "运动学" in pdf["text"]


def test_printing_needed_no_other_host_and_raised_no_error(pdf):
    assert pdf["report"]["foreign_requests"] == []
    assert pdf["report"]["page_errors"] == []
    assert pdf["report"]["broken_images"] == []


def test_chapter_pages_reads_the_page_of_each_marker(tmp_path, monkeypatch):
    text = f"Front\fContents\f{print_pdf.marker(0)} Poses\fbody\f{print_pdf.marker(1)}Time\n"
    monkeypatch.setattr(print_pdf.subprocess, "run",
                        lambda *a, **k: subprocess.CompletedProcess(a, 0, stdout=text))
    assert print_pdf.chapter_pages(tmp_path / "x.pdf", 2) == [3, 5]
    assert print_pdf.chapter_pages(tmp_path / "x.pdf", 3) is None


def test_no_marker_is_left_in_the_pdf(pdf):
    assert "pdfmark" not in pdf["text"]
