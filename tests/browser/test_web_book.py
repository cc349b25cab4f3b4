"""The built web book in a real browser (``make book`` first; ``make test`` does it).

``_build/html`` is served on 127.0.0.1; every request to any other host is
blocked and recorded.  Each page fails on a script error, a console error, a
request to another host, a broken image or a failed local request, a MathJax
error or TeX left raw in the prose.  Every chapter page (a notebook in
``_toc.yml``) must show maths, figures and an animation, and every animation's
frame must change when its play button is pressed.  No Chinese character of a heading,
the glossary or the navigation may be drawn without a glyph (an empty box): skipped, saying
so, where the machine has no CJK font at all (``RVC_REQUIRE_CJK_FONT=1``, as in ``.ci/run``,
makes that a failure).

The Chinese book (``_build/html/zh/``, 中文版) passes the same checks page by page, every
character of its text has a glyph, and every page of each book links to the same page of the
other.
"""

import os
import time
from pathlib import Path

import pytest

from browser_support import GLYPHLESS, NOTEBOOKS, PAGES, ROOT, record, serve

HTML = ROOT / "_build" / "html"
ARTIFACTS = os.environ.get("RVC_BROWSER_ARTIFACTS")  # a folder for screenshots of failures


#: The books: English at the root of _build/html, Chinese in zh/.
EDITIONS = ["", "zh/"]


def _pages():
    """The pages of _toc.yml, then any other page Sphinx writes at the top (search, index), in
    each edition."""
    names = [f"{p}.html" for p in PAGES]
    if HTML.exists():
        names += sorted(p.name for p in HTML.glob("*.html") if p.name not in names)
    return [edition + name for edition in EDITIONS for name in names]


@pytest.fixture(scope="module")
def site():
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (make test does)")
    server = serve(HTML)
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def book(browser_context, site):
    """The browser context, with every request to another host blocked and recorded."""
    foreign = []

    def route(r):
        url = r.request.url
        if url.startswith(site):
            r.continue_()
        else:
            foreign.append(url)
            r.abort()

    browser_context.route("**/*", route)
    yield browser_context, site, foreign
    browser_context.unroute("**/*")


# JavaScript run in the page --------------------------------------------------

WAIT_FOR_MATHJAX = """async () => {
    if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return false;
    await MathJax.startup.promise;
    return true;
}"""

#: MathJax's own record of each formula: an merror node (a TeX error such as a
#: missing brace) or a red mtext (an undefined macro, shown as its raw name).
MATH_ERRORS = """() => {
    const bad = [];
    if (!(window.MathJax && MathJax.startup && MathJax.startup.document)) return bad;
    for (const item of MathJax.startup.document.math) {
        let error = null;
        item.root.walkTree(node => {
            if (node.isKind('merror')) error = 'error';
            else if (node.isKind('mtext') && node.attributes.get('mathcolor') === 'red') error = 'undefined macro';
        });
        if (error) bad.push(error + ': ' + item.math.slice(0, 80));
    }
    return bad;
}"""

#: Text of the prose (not code, not cell outputs, not typeset maths) that still
#: looks like TeX: \(...\), \[...\], $...$, or a backslash macro.
RAW_TEX = r"""() => {
    const main = document.querySelector('main') || document.body;
    const skip = 'pre, code, script, style, textarea, mjx-container, .cell_output, .cell_input, .highlight, .MathJax';
    const pattern = /\\[()\[\]]|\\[A-Za-z]{2,}|\$[^$\s][^$]*\$/;
    const found = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (node.parentElement.closest(skip)) continue;
        const m = node.textContent.match(pattern);
        if (m) found.push(node.textContent.trim().slice(0, 100));
    }
    return found;
}"""

#: Images that did not load (broken, or a zero-size result).
BROKEN_IMAGES = """async () => {
    const bad = [];
    for (const img of document.images) {
        if (img.id && img.id.startsWith('_anim_img')) continue;   // animation frames: checked by playing
        img.loading = 'eager';
        try { await img.decode(); } catch (e) {}
        if (!img.complete || img.naturalWidth === 0) bad.push((img.getAttribute('src') || '(no src)').slice(0, 80));
    }
    return bad;
}"""

CONTENT = """() => ({
    maths: document.querySelectorAll('main mjx-container').length,
    figures: [...document.querySelectorAll('main .cell_output img')]
        .filter(i => !(i.id || '').startsWith('_anim_img') && i.naturalWidth > 0).length,
    animations: document.querySelectorAll('main .animation').length,
})"""


#: Where the book has Chinese: headings, the glossary's terms, the navigation and the title.
CHINESE = "h1, h2, h3, h4, h5, h6, dt, dd, nav a, .navbar-brand"


def _frame(img):
    return img.evaluate("i => i.getAttribute('src') || ''")


def _play_animations(page):
    """Press play on each animation; return a problem per animation whose frame did not change."""
    problems = []
    animations = page.locator("main .animation")
    for k in range(animations.count()):
        anim = animations.nth(k)
        img = anim.locator("img[id^=_anim_img]")
        play = anim.locator("button[title=Play]")
        if img.count() != 1 or play.count() != 1:
            problems.append(f"animation {k + 1}: no frame image or no play button")
            continue
        anim.scroll_into_view_if_needed()
        deadline = time.monotonic() + 10
        while not _frame(img) and time.monotonic() < deadline:  # the player shows frame 0 when ready
            time.sleep(0.05)
        first = _frame(img)
        play.click()
        changed = False
        while time.monotonic() < deadline + 5:
            if _frame(img) not in ("", first):
                changed = True
                break
            time.sleep(0.05)
        anim.locator("button[title=Pause]").click()
        if not first:
            problems.append(f"animation {k + 1}: no frame shown")
        elif not changed:
            problems.append(f"animation {k + 1}: the frame did not change after pressing play")
    return problems, animations.count()


@pytest.mark.parametrize("name", _pages())
def test_page_in_the_browser(book, name):
    context, site, foreign = book
    foreign.clear()
    page = context.new_page()
    # each page as a first-time reader meets it: the theme keeps its mode in localStorage
    page.add_init_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
    problems, finished = [], False
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "assert") else None)
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url} ({r.failure})")
            if r.url.startswith(site) else None)
    page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    try:
        page.goto(site + name, wait_until="load")
        edition = "zh/" if name.startswith("zh/") else ""
        if name == edition + "index.html":  # a redirect to the root page
            page.wait_for_url(f"{site}{edition}{PAGES[0]}.html", timeout=10_000)
            page.wait_for_load_state("load")
        has_mathjax = page.evaluate(WAIT_FOR_MATHJAX)
        problems += [f"MathJax {e}" for e in page.evaluate(MATH_ERRORS)]
        problems += [f"raw TeX in the prose: {t!r}" for t in page.evaluate(RAW_TEX)]
        problems += [f"broken image: {src}" for src in page.evaluate(BROKEN_IMAGES)]
        played, animations = _play_animations(page)
        problems += played
        if name[len(edition):-len(".html")] in NOTEBOOKS:
            content = page.evaluate(CONTENT)
            if not has_mathjax or content["maths"] == 0:
                problems.append("a chapter page without typeset maths")
            if content["figures"] == 0:
                problems.append("a chapter page without a figure")
            if content["animations"] == 0:
                problems.append("a chapter page without an animation")
        page.wait_for_load_state("networkidle")
        finished = True
    finally:
        if ARTIFACTS and (problems or not finished):
            Path(ARTIFACTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(ARTIFACTS) / name.replace("/", "_").replace(".html", ".png")),
                            full_page=True)
        page.close()
    problems += [f"request to another host: {url}" for url in foreign]
    record("pages", 1)
    record("animations played", animations)
    assert not problems, f"{name}:\n" + "\n".join(problems[:30])


def test_the_page_checks_can_fail(book):
    """A page with a MathJax error, an undefined macro, raw TeX, a broken image, a script
    error, a console error and a request to another host: each check reports it."""
    context, site, foreign = book
    foreign.clear()
    mathjax = next(p for p in (HTML / "_static").rglob("tex-chtml*.js"))
    body = f"""<!DOCTYPE html><html><head>
      <script>window.MathJax = {{options: {{processHtmlClass: "math", ignoreHtmlClass: "mathjax_ignore"}}}};</script>
      <script defer src="{site}{mathjax.relative_to(HTML).as_posix()}"></script></head>
      <body class="mathjax_ignore"><main>
        <p><span class="math">\\(\\frac{{1}}\\)</span> and <span class="math">\\(\\nosuchmacro x\\)</span></p>
        <p>Left raw: \\(x^2\\) and $y_1$ and \\alpha.</p>
        <img src="{site}_images/no-such-image.png">
        <img src="https://example.org/remote.png">
        <script>console.error("a console error"); undefinedFunction();</script>
      </main></body></html>"""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.route(f"{site}__selftest__.html",
               lambda r: r.fulfill(status=200, content_type="text/html", body=body))
    try:
        page.goto(f"{site}__selftest__.html", wait_until="load")
        assert page.evaluate(WAIT_FOR_MATHJAX)
        math_errors = page.evaluate(MATH_ERRORS)
        raw = page.evaluate(RAW_TEX)
        broken = page.evaluate(BROKEN_IMAGES)
    finally:
        page.close()
    assert any(e.startswith("error") for e in math_errors), math_errors
    assert any(e.startswith("undefined macro") for e in math_errors), math_errors
    assert len(raw) == 1 and "Left raw" in raw[0], raw
    assert len(broken) == 2, broken
    assert any("undefinedFunction" in e for e in errors) and "a console error" in errors, errors
    assert foreign == ["https://example.org/remote.png"], foreign


def _glyphs(page):
    return page.evaluate(GLYPHLESS, CHINESE)


def _glyph_scan(context, site, edition, selector):
    """(every Chinese character of ``selector`` on the pages of _toc.yml in ``edition``, and
    {character drawn without a glyph: the first page it is on})."""
    page = context.new_page()
    chars, missing = set(), {}
    try:
        for name in PAGES:
            page.goto(f"{site}{edition}{name}.html", wait_until="load")
            found = page.evaluate(GLYPHLESS, selector)
            chars.update(found["chars"])
            for ch in found["missing"]:
                missing.setdefault(ch, name)
    finally:
        page.close()
    return chars, missing


def test_chinese_text_has_glyphs(book):
    """Every Chinese character of the headings, the glossary and the navigation, on every page
    of _toc.yml, is drawn with a glyph of a real font (not an empty box)."""
    context, site, _ = book
    chars, missing = _glyph_scan(context, site, "", CHINESE)
    assert chars, "no Chinese character found in the book's headings and glossary"
    if set(missing) == chars:
        reason = ("no CJK font here: Chinese headings show empty boxes (Debian/Ubuntu: apt-get install "
                  "fonts-noto-cjk; .ci/run installs it)")
        if os.environ.get("RVC_REQUIRE_CJK_FONT"):
            pytest.fail(reason)
        pytest.skip(reason)
    record("Chinese characters checked", len(chars))
    assert not missing, "Chinese characters drawn without a glyph: " + ", ".join(
        f"{ch} (U+{ord(ch):04X}, {name})" for ch, name in sorted(missing.items()))


def test_the_chinese_book_has_glyphs_for_all_its_text(book):
    """Every character of the Chinese book's text (prose, tables, captions, navigation), on every
    page of _toc.yml, is drawn with a glyph of a real font."""
    context, site, _ = book
    chars, missing = _glyph_scan(context, site, "zh/", "main p, main li, main td, main th, main dt, "
                                                       "main dd, " + CHINESE + ", figcaption, .caption")
    if os.environ.get("RVC_REQUIRE_CJK_FONT") is None and set(missing) == chars:
        pytest.skip("no CJK font here (Debian/Ubuntu: apt-get install fonts-noto-cjk)")
    record("Chinese characters of the Chinese book checked", len(chars))
    assert len(chars) > 1000, f"only {len(chars)} distinct Chinese characters in the Chinese book"
    assert not missing, "Chinese characters drawn without a glyph: " + ", ".join(
        f"{ch} (U+{ord(ch):04X}, zh/{name})" for ch, name in sorted(missing.items()))


LANGUAGE_LINK = "() => { const a = document.querySelector('a.rvc-language-switch'); return a && a.href; }"


def test_every_page_links_to_itself_in_the_other_language(book):
    """The language button of each page of each book opens the same page of the other book."""
    context, site, _ = book
    page = context.new_page()
    wrong = {}
    try:
        for edition, other in (("", "zh/"), ("zh/", "")):
            for name in PAGES:
                page.goto(f"{site}{edition}{name}.html", wait_until="load")
                href = page.evaluate(LANGUAGE_LINK)
                if href != f"{site}{other}{name}.html":
                    wrong[edition + name] = href
                    continue
                page.click("a.rvc-language-switch")
                page.wait_for_load_state("load")
                if page.url != f"{site}{other}{name}.html" or page.title() == "":
                    wrong[edition + name] = page.url
    finally:
        page.close()
    record("language links followed", 2 * len(PAGES) - len(wrong))
    assert not wrong, wrong


def test_the_glyph_check_can_fail(book):
    """A character no font has (a private-use one) is reported; with a CJK font installed, a
    common Chinese character in the book's own stylesheet is not."""
    context, site, _ = book
    css = "".join(f'<link rel="stylesheet" href="{site}_static/{p.name}">'
                  for p in (HTML / "_static").glob("cjk*.css"))
    body = (f"<!DOCTYPE html><html><head><meta charset='utf-8'>{css}"
            "<style>body { font-family: var(--pst-font-family-base); }</style>"
            "</head><body><main><h1>位姿 (pose)</h1>"
            "<h2>\U000F0001 a glyph no font has</h2><dl><dt>运动旋量</dt><dd>twist</dd></dl></main></body></html>")
    page = context.new_page()
    page.route(f"{site}__glyphs__.html", lambda r: r.fulfill(status=200, content_type="text/html; charset=utf-8",
                                                             body=body))
    try:
        page.goto(f"{site}__glyphs__.html", wait_until="load")
        found = _glyphs(page)
    finally:
        page.close()
    assert sorted(found["chars"]) == sorted("位姿运动旋量\U000F0001"), found
    assert "\U000F0001" in found["missing"], found
    if len(found["missing"]) < len(found["chars"]):        # a CJK font is here: only the private-use one
        assert found["missing"] == ["\U000F0001"], found


#: The search controls a reader can see (the theme has a header field, a sidebar field and a
#: narrow screen's icon; which show depends on the width).
SEARCH_BOXES = """() => [...document.querySelectorAll('form.bd-search, .search-button-field, .search-button__button')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; })
    .map(e => e.className)"""


@pytest.mark.parametrize("width", [1400, 800])
def test_one_search_box_per_page(book, width):
    """A wide screen shows the sidebar's search field, a narrow one the header's icon: one each."""
    context, site, _ = book
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": 900})
    try:
        seen = {}
        for name in PAGES:
            page.goto(f"{site}{name}.html", wait_until="load")
            seen[name] = page.evaluate(SEARCH_BOXES)
    finally:
        page.close()
    assert all(len(boxes) == 1 for boxes in seen.values()), {n: b for n, b in seen.items() if len(b) != 1}

