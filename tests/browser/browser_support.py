"""What the browser tests share: the pages and notebooks of ``_toc.yml``, the Chromium
to drive and its flags, and counts for the summary line.

The browser is Debian's ``chromium`` driven by the ``playwright`` package through
``executable_path`` (never a browser that playwright downloads).  Set
``RVC_CHROMIUM`` to use another Chromium binary.
"""

import collections
import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOC = (ROOT / "_toc.yml").read_text(encoding="utf-8")
#: Every page of the book in _toc.yml order (the root first), and the notebooks among them.
PAGES = [re.search(r"^root:\s*(\S+)", TOC, re.M).group(1)] + re.findall(r"file:\s*(\S+)", TOC)
NOTEBOOKS = [p for p in PAGES if p.startswith("notebooks/")]

#: The flags these machines need: no network but loopback, no first-run work, root.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

#: The Chinese characters of the elements ``selector`` picks that are drawn without a glyph.
#: A canvas draws each character in its element's own font list; a character no font of the
#: list (nor the system's fallback) has comes out as the .notdef drawing that a code point no
#: font has (a private-use and an unassigned one) also gets, pixel for pixel, while every
#: real glyph draws differently.  (Supplementary private-use characters are checked too: no
#: font has them, which the self-test uses.)
GLYPHLESS = r"""(selector) => {
    const cjk = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e\u{F0000}-\u{FFFFD}]/gu;
    const canvas = document.createElement('canvas');
    canvas.width = 48; canvas.height = 48;
    const g = canvas.getContext('2d', {willReadFrequently: true});
    const draw = (ch, family) => {
        g.clearRect(0, 0, 48, 48);
        g.font = `32px ${family}`; g.textBaseline = 'top'; g.fillStyle = '#000';
        g.fillText(ch, 4, 4);
        const d = g.getImageData(0, 0, 48, 48).data;
        let h = 0;
        for (let i = 3; i < d.length; i += 4) h = (Math.imul(h, 31) + d[i]) >>> 0;
        return h;
    };
    const seen = new Set(), chars = new Set(), missing = new Set(), tofu = new Map();
    for (const el of document.querySelectorAll(selector)) {
        const family = getComputedStyle(el).fontFamily;
        if (!tofu.has(family))
            tofu.set(family, new Set(['\u{F0000}', '\u{10FFFD}', '\u0378'].map(c => draw(c, family))));
        for (const ch of el.textContent.match(cjk) || []) {
            if (seen.has(ch + family)) continue;
            seen.add(ch + family);
            chars.add(ch);
            if (tofu.get(family).has(draw(ch, family))) missing.add(ch);
        }
    }
    return {chars: [...chars], missing: [...missing]};
}"""

#: What the tests checked, for the summary line ("pages", "sliders moved"...).
COUNTS = collections.Counter()


def record(what: str, n: int = 1):
    COUNTS[what] += n


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder without logging each request."""

    def log_message(self, *args):
        pass


def serve(folder, handler=QuietHandler):
    """A threaded HTTP server for ``folder`` on a free loopback port, already serving; call
    ``shutdown()`` and ``server_close()`` when done."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_path():
    """The Chromium binary to drive, or None."""
    for candidate in (os.environ.get("RVC_CHROMIUM"), shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def missing():
    """Why the browser tests cannot run here, or None.

    >>> missing() is None or missing().startswith("no ")
    True
    """
    if chromium_path() is None:
        return "no Chromium (Debian: apt-get install chromium; or set RVC_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright package (pip install -r tests/browser/requirements.txt -c constraints.txt)"
    return None


if __name__ == "__main__":
    # `python tests/browser/browser_support.py`: exit 0 when Chromium is here (make test then
    # installs playwright and runs the browser tests), else say why not and exit 1.
    path = chromium_path()
    print(f"browser tests: Chromium at {path}" if path else
          "*** browser tests SKIPPED: no Chromium here (Debian/Ubuntu: apt-get install chromium, "
          "or set RVC_CHROMIUM to a Chromium binary; .ci/run installs it) ***")
    raise SystemExit(0 if path else 1)
