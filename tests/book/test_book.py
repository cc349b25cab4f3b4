"""The built web book (``make book`` first; ``make test`` does it).

Every page of ``_toc.yml`` is there, nothing is loaded from the network,
MathJax is served locally, internal links and their #anchors resolve, figures
are embedded and exercise solutions are collapsed; the same for the Chinese book
(``_build/html/zh/``), whose pages each link to the same page of the English one and back.
(tests/browser opens the pages in a real browser.)
"""

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
TOC = (ROOT / "_toc.yml").read_text()
PAGES = ["book/intro"] + re.findall(r"file:\s*(\S+)", TOC)
NOTEBOOKS = [p for p in PAGES if p.startswith("notebooks/")]
#: Both books: English at the root, Chinese in zh/.
EDITIONS = ["", "zh/"]
BOTH_PAGES = [e + p for e in EDITIONS for p in PAGES]
BOTH_NOTEBOOKS = [e + p for e in EDITIONS for p in NOTEBOOKS]


@pytest.fixture(scope="module")
def built():
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (make test does)")
    return HTML


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def all_pages(html: Path):
    return sorted(p for p in html.rglob("*.html") if "_static" not in p.parts)


@pytest.mark.parametrize("page", BOTH_PAGES)
def test_every_toc_page_is_built(built, page):
    assert (built / f"{page}.html").exists()


def test_no_network_resources(built):
    """No script, stylesheet, image, font or frame comes from http(s)://."""
    offenders = []
    for page in all_pages(built):
        doc = soup(page)
        for tag, attr in [("script", "src"), ("link", "href"), ("img", "src"),
                          ("iframe", "src"), ("source", "src")]:
            for element in doc.find_all(tag):
                url = element.get(attr) or ""
                if tag == "link" and not set(element.get("rel", [])) & {
                        "stylesheet", "preload", "icon", "modulepreload"}:
                    continue
                if urlparse(url).scheme in ("http", "https") or url.startswith("//"):
                    offenders.append(f"{page.relative_to(built)}: <{tag} {attr}={url}>")
        for element in doc.find_all("script", src=False):
            if re.search(r"https?://", element.get_text()):
                offenders.append(f"{page.relative_to(built)}: inline script names a URL")
    assert not offenders, "\n".join(offenders[:20])


def test_no_cdn_in_static_files(built):
    """CSS files must not @import fonts or styles from the network."""
    offenders = [str(p.relative_to(built)) for p in (built / "_static").rglob("*.css")
                 if re.search(r"@import\s+url\(\s*['\"]?https?://", p.read_text(errors="ignore"))]
    assert not offenders


def test_mathjax_is_served_locally(built):
    page = soup(built / f"{NOTEBOOKS[0]}.html")
    sources = [s.get("src", "") for s in page.find_all("script")]
    local = [s for s in sources if "mathjax" in s.lower()]
    assert local, "no MathJax script on a chapter page"
    for src in local:
        target = (built / NOTEBOOKS[0]).parent / unquote(src.split("?")[0])
        assert target.resolve().exists(), f"MathJax script {src} missing from the build"


def broken_links(html: Path) -> list:
    """Every internal link whose file is missing, or whose #anchor names no element
    (an ``id``, or an ``<a name>``) of the page it points to; same-page ``#anchor``
    links included."""
    pages = {page.resolve(): soup(page) for page in all_pages(html)}
    anchors = {}

    def anchors_of(target: Path) -> set:
        if target not in anchors:
            doc = pages.get(target) or soup(target)
            anchors[target] = ({e["id"] for e in doc.find_all(id=True)}
                               | {e["name"] for e in doc.find_all("a", attrs={"name": True})})
        return anchors[target]

    broken = []
    for page, doc in pages.items():
        for a in doc.find_all("a", href=True):
            href = a["href"]
            url = urlparse(href)
            if url.scheme or href.startswith(("mailto:", "javascript:")) or href in ("", "#"):
                continue
            target = (page.parent / unquote(url.path)).resolve() if url.path else page
            where = f"{page.relative_to(html.resolve())} -> {href}"
            if not target.exists():
                broken.append(f"{where} (no such file)")
            elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in anchors_of(target):
                broken.append(f"{where} (no such anchor)")
    return broken


def test_internal_links_and_anchors_resolve(built):
    broken = broken_links(built)
    assert not broken, "\n".join(broken[:20])


def test_the_link_check_finds_missing_files_and_anchors(tmp_path):
    (tmp_path / "a.html").write_text(
        '<a href="b.html#there">ok</a> <a href="#here">ok</a> <a href="#gone">bad anchor</a>'
        '<a href="b.html#nowhere">bad anchor</a> <a href="c.html">bad file</a>'
        '<a href="b.html">ok</a> <a href="https://example.org/#x">external</a> <p id="here"></p>')
    (tmp_path / "b.html").write_text('<h1 id="there">B</h1>')
    broken = broken_links(tmp_path)
    assert sorted(broken) == ["a.html -> #gone (no such anchor)", "a.html -> b.html#nowhere (no such anchor)",
                              "a.html -> c.html (no such file)"], broken


@pytest.mark.parametrize("page", BOTH_NOTEBOOKS)
def test_chapter_pages_have_figures_and_maths(built, page):
    doc = soup(built / f"{page}.html")
    images = doc.find_all("img")
    assert any(img.get("src", "").startswith(("data:", "../_images", "_images"))
               for img in images), f"{page}: no figure"
    assert "\\(" in doc.text or "\\[" in doc.text or doc.find(class_="math"), f"{page}: no maths"


#: An alt text that is only a file's name or path: what MyST-NB writes when a cell's
#: metadata gives none (``../_images/<sha256>.png``).
FILE_NAME = re.compile(r"(^|/)[\w.-]+\.(png|jpe?g|gif|svg|webp)$|[0-9a-f]{32}", re.IGNORECASE)


def undescribed_images(html: Path) -> list:
    """Every <img> of the built pages with no description: its ``alt`` missing, empty
    or a file name (a figure's text comes from its cell's metadata, an animation
    player's from ``jshtml(anim, alt=...)``)."""
    found = []
    for page in all_pages(html):
        for img in soup(page).find_all("img"):
            alt = (img.get("alt") or "").strip()
            if not alt or FILE_NAME.search(alt):
                src = img.get("src", "")
                found.append(f"{page.relative_to(html)}: <img alt={alt!r} src={src[:60]!r}>")
    return found


def test_every_image_is_described(built):
    found = undescribed_images(built)
    assert not found, f"{len(found)} images with no alt text:\n" + "\n".join(found[:20])


def test_the_alt_check_finds_missing_empty_and_file_names(tmp_path):
    (tmp_path / "a.html").write_text(
        '<img src="x.png" alt="The arm at four configurations, each in its own colour">'
        '<img src="y.png"> <img src="y.png" alt=""> <img src="y.png" alt="  ">'
        '<img src="../_images/3ddb303cedec64a7236a966d2007aa.png" alt="../_images/3ddb303cedec64a7236a966d2007aa.png">'
        '<img src="z.png" alt="plot.png"> <img id="_anim_img1" alt="Animation: the frame turning about x">')
    found = undescribed_images(tmp_path)
    assert len(found) == 5, found
    assert not any("four configurations" in f or "turning about x" in f for f in found)


@pytest.mark.parametrize("page", BOTH_NOTEBOOKS)
def test_solutions_are_collapsed(built, page):
    doc = soup(built / f"{page}.html")
    for cell in doc.find_all(class_="cell"):
        if "BEGIN SOLUTION" not in cell.get_text():
            continue
        assert "tag_hide-input" in cell.get("class", []), f"{page}: a solution is not collapsed"
        source = cell.find(class_="cell_input")
        assert source is not None and source.find_parent("details") is not None, (
            f"{page}: a solution's code is not inside a collapsed <details>"
        )


@pytest.mark.parametrize("page", BOTH_NOTEBOOKS)
def test_no_widget_views_or_errors(built, page):
    """Slider outputs are hidden in the book; no cell shows a traceback."""
    text = (built / f"{page}.html").read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" not in text
    assert "Traceback (most recent call last)" not in text or "raises-exception" in text


def test_the_book_has_one_title():
    """The sidebar, the front page and the README name the course alike."""
    import yaml

    title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]
    front = (ROOT / "book" / "intro.md").read_text(encoding="utf-8").splitlines()[0]
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0]
    assert front == readme == f"# {title}"
    page = (HTML / "notebooks" / "02_pose.html").read_text(encoding="utf-8")
    assert f'<p class="title logo__title">{title}</p>' in page


def test_the_chinese_book_has_one_title():
    """The Chinese sidebar's title is the Chinese front page's heading."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import zh_book

    page = soup(HTML / "zh" / "book" / "intro.html")
    assert page.find("h1").get_text().rstrip("#¶ ").strip() == zh_book.TITLE
    assert f'<p class="title logo__title">{zh_book.TITLE}</p>' in str(soup(HTML / "zh" / "notebooks" / "02_pose.html"))


@pytest.mark.parametrize("edition, other", [("", "zh/"), ("zh/", "")])
def test_every_page_links_to_the_same_page_in_the_other_language(built, edition, other):
    wrong = []
    for page in PAGES:
        doc = soup(built / f"{edition}{page}.html")
        link = doc.find("a", class_="rvc-language-switch")
        target = (built / f"{edition}{page}.html").parent / link["href"] if link else None
        if target is None or target.resolve() != (built / f"{other}{page}.html").resolve():
            wrong.append(f"{edition}{page}: {link and link['href']}")
        elif doc.find("html")["lang"] != ("zh-CN" if edition else "en"):
            wrong.append(f"{edition}{page}: lang={doc.find('html')['lang']}")
    assert not wrong, wrong


@pytest.mark.parametrize("page", NOTEBOOKS)
def test_a_chinese_chapter_page_is_chinese(built, page):
    """Its prose is Chinese (the catalogs translate it in full: tests/project/test_translations.py),
    and its check() feedback too (the Chinese notebooks set the language)."""
    doc = soup(built / "zh" / f"{page}.html")
    prose = " ".join(p.get_text() for p in doc.select("main p"))
    chinese = len(re.findall(r"[\u4e00-\u9fff]", prose))
    assert chinese > 0.4 * len(re.findall(r"[A-Za-z]+", prose)), f"zh/{page}: too little Chinese"
