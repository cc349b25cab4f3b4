"""Print the single-page build of the book to a PDF with Debian's Chromium: `make pdf`.

    python tools/print_pdf.py _build/singlehtml _build/pdf/rvc.pdf

The page is served from loopback and every request to another host is refused and counted, so
the PDF proves the book needs no network.  Before printing, in print layout, the tool

- waits for MathJax to typeset every formula and for every image to load;
- inserts a table of contents of the chapters (with their page numbers when poppler's
  ``pdftotext`` is here to find them in a first printing, where an invisible marker starts
  each page of _toc.yml; links only without it);
- checks that every Chinese character is drawn with a real glyph (not an empty box) and that
  no code block is clipped (long lines wrap);

then prints A4 pages numbered "page / pages" in the footer, with the headings as the PDF's
bookmarks.  Animations print as their first frame and sliders as the figure the book shows in
their place.  It writes ``<pdf>.json`` beside the PDF, what it found, which tests/pdf reads.
Chromium is the one the browser tests drive (tests/browser/browser_support.py).
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_support import CHROMIUM_ARGS, GLYPHLESS, QuietHandler, chromium_path, missing, serve  # noqa: E402

PRINT_CSS = Path(__file__).with_name("print.css")

#: The pages of _toc.yml after the front page, in order: Sphinx marks where each one starts.
CHAPTERS = """() => [...document.querySelectorAll('main span[id^="document-"]')].map(span => {
    const section = span.nextElementSibling;
    const heading = section.querySelector('h1, h2, h3, h4');
    return {id: section.id, doc: span.id.slice('document-'.length),
            title: heading.textContent.replace(/[\\u00b6#]\\s*$/, '').trim()};
})"""

#: The contents (the theme's own print contents: captions, chapters and their sections) placed
#: after the front page, each entry with its page number once they are known.
CONTENTS = """([chapters, pages]) => {
    let box = document.getElementById('pdf-contents');
    if (!box) {
        box = document.createElement('div');
        box.id = 'pdf-contents';
        box.innerHTML = document.documentElement.lang.startsWith('zh') ? '<h1>目录</h1>' : '<h1>Contents</h1>';
        box.append(document.querySelector('#jb-print-toc nav').cloneNode(true));
        document.querySelector('main span[id^="document-"]').before(box);
    }
    chapters.forEach((c, i) => {
        const link = box.querySelector(`a[href="#document-${c.doc}"]`);
        if (!link) throw new Error('no contents entry for ' + c.doc);
        let number = link.querySelector('.page');
        if (!number) { number = document.createElement('span'); number.className = 'page'; link.append(number); }
        number.textContent = pages ? pages[i] : '';
    });
}"""

#: Put a marker (tiny, white, out of the flow) where each page of _toc.yml starts, or remove them.
MARKS = """(marks) => {
    document.querySelectorAll('.pdf-mark').forEach(m => m.remove());
    [...document.querySelectorAll('main span[id^="document-"]')].forEach((span, i) => {
        if (i >= marks.length) return;
        const mark = document.createElement('span');
        mark.className = 'pdf-mark';
        mark.style.cssText = 'position: absolute; font-size: 2px; color: #fff;';
        mark.textContent = marks[i];
        span.nextElementSibling.prepend(mark);
    });
}"""

#: Code blocks wider than their box (clipped in print), and the figures and formulas.
LAYOUT = """() => ({
    clipped: [...document.querySelectorAll('main pre')]
        .filter(p => p.scrollWidth > p.clientWidth + 1 && p.offsetParent !== null)
        .map(p => p.textContent.split('\\n').find(l => l.length > 60) || p.textContent.slice(0, 60)),
    maths: document.querySelectorAll('main mjx-container').length,
    raw_maths: [...document.querySelectorAll('main p, main li, main .math')]
        .filter(e => /\\\\(frac|begin|mathbf)|\\$\\$/.test(e.textContent) && !e.querySelector('mjx-container'))
        .map(e => e.textContent.slice(0, 60)),
    figures: [...document.querySelectorAll('main .cell_output img, main img.animation-frame, main figure img')]
        .filter(i => i.naturalWidth > 0 && i.offsetParent !== null).length,
    broken_images: [...document.images].filter(i => !i.complete || i.naturalWidth === 0)
        .map(i => i.getAttribute('src')).filter(s => s && !s.startsWith('data:,')),
})"""

READY = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
    await Promise.all([...document.images].map(i => i.complete ? null :
        new Promise(r => { i.addEventListener('load', r); i.addEventListener('error', r); })));
    await document.fonts.ready;
}"""

#: Display maths wider than the text is typeset smaller until it fits (never clipped); images
#: whose pixels would print below ``ppi`` (an animation's frames) print smaller instead.
FIT = """(ppi) => {
    const width = document.querySelector('main').clientWidth;
    for (const box of document.querySelectorAll('main mjx-container[display="true"]')) {
        const maths = box.querySelector('mjx-math');
        for (let size = 95; maths.getBoundingClientRect().width > box.clientWidth && size >= 50; size -= 5)
            box.style.fontSize = size + '%';
    }
    for (const img of document.querySelectorAll('main img')) {
        const most = img.naturalWidth * 96 / ppi;
        if (img.naturalWidth && img.getBoundingClientRect().width > most + 0.5) img.style.width = most + 'px';
    }
    const W = document.documentElement.clientWidth, over = e => e.getBoundingClientRect().right > W + 1;
    return [...document.querySelectorAll('main *')]
        .filter(e => over(e) && !over(e.parentElement) && e.offsetParent !== null)
        .map(e => `${e.tagName.toLowerCase()}: ${(e.textContent || '').trim().slice(0, 50)}`);
}"""

#: The printable width of an A4 page with the margins below, in CSS pixels (96 per inch).
TEXT_WIDTH = round((210 - 2 * 15) / 25.4 * 96)
MIN_PPI = 155      # tests/book/test_pdf.py asks for 150; pdfimages rounds

FOOTER = ('<div style="font-size: 8px; width: 100%; text-align: center; color: #555;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')


class _SinglePageHandler(QuietHandler):
    """Serves the build folder; the single page lives in a subfolder (book/intro.html) but links
    its assets as if at the top (_static/, _images/), so a missing path is tried one level up."""

    def translate_path(self, path):
        found = super().translate_path(path)
        if not Path(found).exists():
            parts = path.lstrip("/").split("/", 1)
            if len(parts) == 2:
                found = super().translate_path("/" + parts[1])
        return found


def marker(i):
    """The invisible text that marks where page ``i`` of _toc.yml starts in the first printing."""
    return f"pdfmark{i:03d}x"


def chapter_pages(pdf, count):
    """The page (from 1) on which each of the ``count`` markers is printed.

    Uses poppler's ``pdftotext`` (pages split by form feeds); None where it is not installed
    or a marker is missing.
    """
    if shutil.which("pdftotext") is None:
        return None
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")
    found = [next((n + 1 for n, page in enumerate(pages) if marker(i) in page), None) for i in range(count)]
    return None if None in found else found


def _print(page, path):
    page.pdf(path=str(path), format="A4", print_background=True, display_header_footer=True,
             header_template="<span></span>", footer_template=FOOTER, outline=True, tagged=True,
             margin={"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"})


def print_pdf(site, out):
    """Print the single page of ``site`` (the root page of _toc.yml) to ``out``.

    Returns the report, also written to ``out``.json.
    """
    from playwright.sync_api import sync_playwright

    site, out = Path(site), Path(out)
    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    root = re.search(r"^root:\s*(\S+)", toc, re.M).group(1) + ".html"     # index.html redirects to it
    if not (site / root).exists():
        raise SystemExit(f"no {site / root}: build the single page first (make pdf does)")
    out.parent.mkdir(parents=True, exist_ok=True)
    server = serve(site, _SinglePageHandler)
    base = f"http://127.0.0.1:{server.server_port}/"
    foreign = []

    def route(request):
        if request.request.url.startswith(base) or request.request.url.startswith("data:"):
            request.continue_()
        else:
            foreign.append(request.request.url)
            request.abort()

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": TEXT_WIDTH, "height": 1000})
            page.route("**/*", route)
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(base + root, wait_until="load", timeout=300_000)
            page.emulate_media(media="print")
            page.add_style_tag(content=PRINT_CSS.read_text(encoding="utf-8"))
            page.evaluate(READY)
            chapters = page.evaluate(CHAPTERS)
            page.evaluate(CONTENTS, [chapters, None])
            page.evaluate(MARKS, [marker(i) for i in range(len(chapters))])
            too_wide = page.evaluate(FIT, MIN_PPI)
            layout = page.evaluate(LAYOUT)
            glyphs = page.evaluate(GLYPHLESS, "main h1, main h2, main h3, main dt, main dd, main p, main li")
            with tempfile.TemporaryDirectory() as tmp:
                first = Path(tmp) / "first.pdf"
                _print(page, first)
                pages = chapter_pages(first, len(chapters))
            page.evaluate(MARKS, [])
            if pages is not None:
                page.evaluate(CONTENTS, [chapters, pages])
            _print(page, out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    report = {
        "chapters": [dict(c, page=pages[i] if pages else None) for i, c in enumerate(chapters)],
        "contents_numbered": pages is not None,
        "maths": layout["maths"], "raw_maths": layout["raw_maths"], "figures": layout["figures"],
        "broken_images": layout["broken_images"], "clipped_code": layout["clipped"],
        "cjk_characters": len(glyphs["chars"]), "missing_glyphs": glyphs["missing"],
        "foreign_requests": foreign, "page_errors": errors, "too_wide": too_wide,
    }
    Path(f"{out}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return report


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: python tools/print_pdf.py SINGLEHTML_FOLDER OUT.pdf")
    why = missing()
    if why:
        raise SystemExit(f"make pdf needs Chromium and playwright: {why}")
    report = print_pdf(*argv)
    problems = {k: report[k] for k in ("raw_maths", "broken_images", "clipped_code", "missing_glyphs",
                                       "foreign_requests", "page_errors", "too_wide") if report[k]}
    print(f"PDF: {Path(argv[1]).resolve()} ({len(report['chapters'])} chapters, {report['figures']} figures, "
          f"{report['maths']} formulas" + ("" if report["contents_numbered"] else
                                          "; contents without page numbers: no pdftotext here") + ")")
    if problems:
        raise SystemExit("the PDF has problems: " + json.dumps(problems, ensure_ascii=False)[:2000])


if __name__ == "__main__":
    main(sys.argv[1:])
