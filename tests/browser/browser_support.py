"""What the browser tests share: the pages and notebooks of ``_toc.yml``, the Chromium
to drive and its flags, and counts for the summary line.

The browser is Debian's ``chromium`` driven by the ``playwright`` package through
``executable_path`` (never a browser that playwright downloads).  Set
``RVC_CHROMIUM`` to use another Chromium binary.
"""

import collections
import os
import re
import shutil
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

#: What the tests checked, for the summary line ("pages", "sliders moved"...).
COUNTS = collections.Counter()


def record(what: str, n: int = 1):
    COUNTS[what] += n


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
