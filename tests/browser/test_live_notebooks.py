"""The live notebooks as a student meets them: JupyterLab, Run All, then the sliders.

JupyterLab runs from this environment on 127.0.0.1 with a throwaway root (a
copy of the notebooks of ``_toc.yml``, outputs cleared) and throwaway
settings, workspaces and runtime folders.  For each notebook: open it, Run
All, wait until every code cell has run and the kernel is idle, then move
every slider with the keyboard on its handle (and toggle every checkbox):
each move must redraw that panel's figure, and no output anywhere may hold a
traceback, except a cell tagged ``raises-exception``.

nbval and the book build call each slider's callback right after the panel
is built; only this test moves the sliders after the whole notebook has run,
which is when a callback that reads notebook globals breaks.
``test_the_live_checks_can_fail`` runs the same check on a notebook with one
planted fault of each kind and requires each to be reported.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from browser_support import NOTEBOOKS, ROOT, record

RUN_TIMEOUT = float(os.environ.get("RVC_RUN_TIMEOUT", 240))  # s for Run All of one notebook
ARTIFACTS = os.environ.get("RVC_BROWSER_ARTIFACTS")  # a folder for screenshots of failures
REDRAW_TIMEOUT = 20  # s for one slider move to come back as a new figure

#: An error output as ipykernel sends it (a traceback), or a syntax error.
TRACEBACK = r"/Traceback \(most recent call last\)|^\s*Cell In\[\d+\], line \d+/m"

SETTINGS = {
    # every cell in the DOM (cell k of the page is cell k of the file); the notebook's
    # kernel starts without asking, as after a student ticks "always start the preferred kernel"
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none",
                                                                    "autoStartDefaultKernel": True},
    # no news fetched from the network
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _copy_notebooks(root: Path):
    """The notebooks of _toc.yml under ``root``, outputs and execution counts cleared."""
    for name in NOTEBOOKS:
        nb = nbformat.read(ROOT / f"{name}.ipynb", as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nb.metadata.pop("widgets", None)
        target = root / f"{name}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)


@pytest.fixture(scope="module")
def lab(browser_context):
    """A JupyterLab server on 127.0.0.1 over a throwaway copy of the notebooks: (base URL,
    token, root folder)."""
    tmp = Path(tempfile.mkdtemp(prefix="rvc-lab-"))
    root = tmp / "root"
    _copy_notebooks(root)
    for name, value in SETTINGS.items():
        path = tmp / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # the kernel draws inline
    env.update(JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_DATA_DIR=str(tmp / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"), IPYTHONDIR=str(tmp / "ipython"))
    port, token = _free_port(), os.urandom(12).hex()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    log = open(tmp / "jupyterlab.log", "wb")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=hasattr(os, "killpg"))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start:\n" + (tmp / "jupyterlab.log").read_text()[-3000:])
                time.sleep(0.3)
        yield base, token, root
    finally:
        _stop(server)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


def _stop(server):
    """End the server and the kernels it started (its own process group, started above)."""
    if not hasattr(os, "killpg"):  # pragma: no cover (Windows)
        server.terminate()
        server.wait()
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def _shutdown_kernels(base, token):
    request = urllib.request.Request(f"{base}/api/kernels?token={token}")
    for kernel in json.loads(urllib.request.urlopen(request, timeout=10).read()):
        urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/kernels/{kernel['id']}?token={token}", method="DELETE"), timeout=30)


# JavaScript run in the page --------------------------------------------------

PROMPTS = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(c =>
    c.classList.contains('jp-CodeCell') ? c.querySelector('.jp-InputPrompt').textContent.trim() : null)"""

#: The status bar names the kernel and says it is idle ("No Kernel | Idle" comes first, before
#: the kernel has started, and Run All then does nothing).
KERNEL_IDLE = r"""() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
    .some(e => /^(?!No Kernel).+ \| Idle$/.test(e.textContent.trim()))"""

#: Per cell of the page: the text of every error-like output (tracebacks).
TRACEBACKS = """(pattern) => {
    const [, source, flags] = pattern.match(/^\\/(.*)\\/(\\w*)$/);
    const re = new RegExp(source, flags);
    return [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell =>
        [...cell.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
            .map(o => o.textContent).filter(t => re.test(t)).map(t => t.slice(0, 400)));
}"""

#: Every slider handle and checkbox, in page order, with what the test needs to know.
CONTROLS = """() => {
    const controls = [...document.querySelectorAll(
        '.jp-Notebook .widget-slider .noUi-handle, .jp-Notebook .widget-checkbox input[type=checkbox]')];
    const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
    return controls.map(c => {
        const widget = c.closest('.widget-slider, .widget-checkbox');
        const label = widget.querySelector('.widget-label');
        let panel = widget.parentElement;
        while (panel && !panel.querySelector('.widget-output')) panel = panel.parentElement;
        return {
            kind: c.matches('input') ? 'checkbox' : 'slider',
            label: (label && label.textContent.trim()) || '?',
            cell: cells.findIndex(cell => cell.contains(c)),
            hasOutput: !!panel,
            atMax: c.getAttribute('aria-valuenow') !== null &&
                   Number(c.getAttribute('aria-valuenow')) >= Number(c.getAttribute('aria-valuemax')),
        };
    });
}"""

#: The figure a control's panel shows now: its image data, or null.
#: The panel's figure as a fingerprint of its pixels (its size and a hash), and the panel's text.
#: The pixels, not the image's address: a live panel (rvc.plot.widgets.LiveCanvas) updates one
#: image in place, whose blob: address changes on every update even when nothing was redrawn.
PANEL_FIGURE = """(control) => {
    let panel = control.closest('.widget-slider, .widget-checkbox').parentElement;
    while (panel && !panel.querySelector('.widget-output')) panel = panel.parentElement;
    const output = panel.querySelector('.widget-output');
    const img = output.querySelector('img');
    let figure = null;
    if (img && img.complete && img.naturalWidth) {
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const g = canvas.getContext('2d', {willReadFrequently: true});
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
        let h = 0;
        for (let i = 0; i < d.length; i += 4) h = (Math.imul(h, 31) + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) >>> 0;
        figure = `${canvas.width}x${canvas.height}:${h}`;
    }
    return {figure: figure, text: output.textContent.slice(0, 2000)};
}"""


def _run_all(page):
    """Run All; wait until every code cell has run (or the run stopped) and the kernel is idle.
    Returns the prompts of the cells (None for a markdown cell)."""
    page.wait_for_function(KERNEL_IDLE, timeout=90_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator('li[data-command="runmenu:run-all"]').click()
    deadline = time.monotonic() + RUN_TIMEOUT
    idle_since = None
    while time.monotonic() < deadline:
        every = page.evaluate(PROMPTS)
        prompts = [p for p in every if p is not None]
        done = all(p[1:-2].isdigit() for p in prompts)
        busy = any("*" in p for p in prompts)
        idle = page.evaluate(KERNEL_IDLE)
        if done and idle:
            return every
        # stopped early (an unexpected error stops Run All): idle, nothing queued, for 3 s
        if idle and not busy and any(p[1:-2].isdigit() for p in prompts):
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > 3:
                return every
        else:
            idle_since = None
        time.sleep(0.25)
    return page.evaluate(PROMPTS)


def _move(page, handle, control):
    handle.scroll_into_view_if_needed()
    handle.focus()
    if control["kind"] == "checkbox":
        page.keyboard.press("Space")
    else:
        page.keyboard.press("ArrowLeft" if control["atMax"] else "ArrowRight")


def _check_live(page, base, token, name, nb, count=True):
    """Open notebook ``name`` (a path under the lab's root, without .ipynb), Run All, move
    every control; return the problems found (an empty list when all is well)."""
    expected_error = [c.cell_type == "code" and "raises-exception" in c.metadata.get("tags", [])
                      for c in nb.cells]
    tally = record if count else (lambda *args: None)
    problems = []
    page.goto(f"{base}/lab/tree/{name}.ipynb?reset&token={token}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    prompts = _run_all(page)
    assert len(prompts) == len(nb.cells), "the page does not show every cell"
    not_run = [k for k, p in enumerate(prompts)
               if p is not None and nb.cells[k].source.strip() and not p[1:-2].isdigit()]
    if not_run:
        problems.append(f"Run All stopped: cells {not_run[:5]} (and {max(len(not_run) - 5, 0)} more) "
                        "did not run")

    controls = page.evaluate(CONTROLS)
    handles = page.locator('.jp-Notebook .widget-slider .noUi-handle, '
                           '.jp-Notebook .widget-checkbox input[type=checkbox]')
    assert handles.count() == len(controls)
    for k, control in enumerate(controls):
        where = f"cell {control['cell']}, {control['kind']} '{control['label']}'"
        if not control["hasOutput"]:
            problems.append(f"{where}: no output area to redraw")
            continue
        handle = handles.nth(k)
        before = handle.evaluate(PANEL_FIGURE)
        _move(page, handle, control)
        deadline = time.monotonic() + REDRAW_TIMEOUT
        after = before
        while time.monotonic() < deadline:
            after = handle.evaluate(PANEL_FIGURE)
            if after["figure"] and after["figure"] != before["figure"]:
                break
            if "Traceback" in after["text"]:
                break
            time.sleep(0.1)
        if "Traceback" in after["text"]:
            problems.append(f"{where}: the panel shows an error:\n{after['text'][-800:]}")
        elif not after["figure"] or after["figure"] == before["figure"]:
            problems.append(f"{where}: moving it did not redraw the figure")
        tally("sliders moved" if control["kind"] == "slider" else "checkboxes toggled")

    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    for k, found in enumerate(page.evaluate(TRACEBACKS, TRACEBACK)):
        if found and not expected_error[k]:
            problems.append(f"cell {k} holds a traceback:\n{found[0]}")
        elif expected_error[k] and not found:  # the tag is stale, or this check went blind
            problems.append(f"cell {k} is tagged raises-exception but shows no traceback")
        tally("expected tracebacks seen", bool(found and expected_error[k]))
    tally("notebooks run")
    return problems


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_run_all_then_every_slider_redraws(browser_context, lab, name):
    base, token, _ = lab
    nb = nbformat.read(ROOT / f"{name}.ipynb", as_version=4)
    page = browser_context.new_page()
    problems, finished = [], False
    try:
        problems = _check_live(page, base, token, name, nb)
        finished = True
    finally:
        if ARTIFACTS and (problems or not finished):
            Path(ARTIFACTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(ARTIFACTS) / (Path(name).name + ".png")))
        page.close()
        _shutdown_kernels(base, token)
    assert not problems, f"{name}:\n" + "\n".join(problems)


#: A notebook with one planted fault of each kind the check above must report.
PLANTED = [
    "%matplotlib inline\nimport numpy as np\nimport matplotlib.pyplot as plt\n"
    "import ipywidgets as widgets\nimport rvc",
    # 1: a panel whose callback reads a notebook global, which cell 3 breaks
    "X = np.array([1.0, 2.0])\nfig, ax = plt.subplots(figsize=(2, 2))\n(line,) = ax.plot([0, 1], X)\n"
    "def show(a=1.0):\n    line.set_ydata(np.array([[a, 0], [0, a]]) @ X)\n"
    "rvc.SliderDemo(fig, show, a=widgets.FloatSlider(min=0, max=2, step=0.1, value=1.0, description='a'))",
    # 2: a panel whose callback changes nothing: the figure never changes
    "fig2, ax2 = plt.subplots(figsize=(2, 2))\nax2.plot([0, 1], [0, 1])\n"
    "def still(b=1.0):\n    pass\n"
    "rvc.SliderDemo(fig2, still, b=widgets.FloatSlider(min=0, max=2, step=0.1, value=1.0, description='b'))",
    "X = np.eye(4)",
    "x = 1  # tagged raises-exception, raises nothing",
    "1 / 0",
]


def test_the_live_checks_can_fail(browser_context, lab):
    """Each planted fault is reported: a panel broken by a later cell (its traceback, in the
    panel and so among cell 1's outputs), a panel that does not redraw, a stale
    raises-exception tag, a traceback in an untagged cell; and nothing else."""
    base, token, root = lab
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in PLANTED])
    nb.cells[4].metadata["tags"] = ["raises-exception"]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "planted_faults.ipynb")
    page = browser_context.new_page()
    try:
        problems = _check_live(page, base, token, "planted_faults", nb, count=False)
    finally:
        page.close()
        _shutdown_kernels(base, token)
    text = "\n".join(problems)
    assert "cell 1, slider 'a': the panel shows an error" in text, text
    assert "cell 2, slider 'b': moving it did not redraw the figure" in text, text
    assert "cell 4 is tagged raises-exception but shows no traceback" in text, text
    assert "cell 5 holds a traceback" in text, text
    assert "cell 1 holds a traceback" in text, text      # the broken panel's traceback, seen again
    assert len(problems) == 5, text
