"""Fixtures of the browser tests (see browser_support.py).

The tests skip, saying why, when Chromium or playwright is missing: ``make test``
checks first and prints the same; ``.ci/run`` installs both.
"""

import shutil
import tempfile
import time

import pytest

from browser_support import CHROMIUM_ARGS, COUNTS, chromium_path, missing

_START = time.monotonic()


@pytest.fixture(scope="session")
def browser_context():
    """Headless Chromium with a fresh profile (its own --user-data-dir)."""
    reason = missing()
    if reason:
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="rvc-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, service_workers="block")
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def pytest_terminal_summary(terminalreporter):
    if COUNTS:
        what = ", ".join(f"{n} {name}" for name, n in COUNTS.items())
        terminalreporter.write_line(f"browser tests checked: {what} "
                                    f"in {time.monotonic() - _START:.0f} s")
