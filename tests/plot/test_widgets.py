"""SliderDemo: the callback drives the figure, and its errors are never lost.

A slider's observer runs outside any cell: an exception it raises would go to
the kernel's log, unseen, and the panel would silently stop redrawing.  The
kernel test below moves a slider inside a real kernel (through nbclient,
which plays the front end's part for output widgets) and reads what the
panel's output area received.
"""

import base64
import copy
import textwrap
from unittest import mock

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402
import pytest  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

from rvc import SliderDemo, teach  # noqa: E402


def build_demo(fail_above=0.5):
    fig, ax = plt.subplots()
    (line,) = ax.plot([0, 1], [0, 0])

    def show(v=0.0):
        if v > fail_above:
            raise ZeroDivisionError(f"v = {v} is too large")
        line.set_ydata([0, v])

    return SliderDemo(fig, show, v=widgets.FloatSlider(min=0, max=1, step=0.1, value=0.2)), line


def test_slider_moves_redraw_the_artists():
    demo, line = build_demo()
    demo.controls["v"].value = 0.4
    assert line.get_ydata()[1] == pytest.approx(0.4)
    assert demo.error is None


def test_outside_ipython_a_failing_callback_raises():
    demo, _ = build_demo()
    with pytest.raises(ZeroDivisionError):
        demo.controls["v"].value = 0.9


def test_a_callback_failing_while_the_demo_is_built_raises():
    with pytest.raises(ZeroDivisionError):
        build_demo(fail_above=0.1)


def test_snapshot_rejects_unknown_names_and_raises_callback_errors():
    demo, _ = build_demo()
    with pytest.raises(ValueError, match="values: expected keywords among"):
        demo.snapshot(w=1)
    with pytest.raises(ZeroDivisionError):
        demo.snapshot(v=0.9)


KERNEL_CELLS = [
    """
    %matplotlib inline
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    import rvc

    def build_demo():
        fig, ax = plt.subplots(figsize=(2, 2), dpi=40)
        (line,) = ax.plot([0, 1], [0, 0])

        def show(v=0.0):
            if v > 0.5:
                raise ZeroDivisionError(f"v = {v} is too large")
            line.set_ydata([0, v])

        return rvc.SliderDemo(fig, show, v=widgets.FloatSlider(min=0, max=1, value=0.2))

    demo = build_demo()
    demo
    """,
    # what a slider move does: the observer runs, the cell itself must not fail
    "demo.controls['v'].value = 0.9\nprint(demo.output.model_id, type(demo.error).__name__)",
    "demo.controls['v'].value = 0.3\nprint(demo.output.model_id, type(demo.error).__name__)",
]


def _run_in_kernel(cells):
    """Execute ``cells`` in a fresh kernel; return the notebook and, after each cell,
    a copy of the widgets' state as the front end (nbclient) holds it."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(textwrap.dedent(c).strip()) for c in cells]
    client = NotebookClient(nb, timeout=120, kernel_name="python3")
    states = []
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
            states.append((copy.deepcopy(client.widget_state), copy.deepcopy(client.widget_buffers)))
    return nb, states


@pytest.mark.kernel
def test_in_a_kernel_the_traceback_shows_in_the_panel_and_the_panel_recovers():
    nb, states = _run_in_kernel(KERNEL_CELLS)
    for cell in nb.cells:  # no cell failed: the failing move was caught
        assert not any(o["output_type"] == "error" for o in cell.outputs), cell.outputs
    output_id, error = nb.cells[1].outputs[0]["text"].split()
    assert error == "ZeroDivisionError"
    # after the failing move the panel's output area holds the traceback, not the old figure
    outputs = states[1][0][output_id]["outputs"]
    assert [o["output_type"] for o in outputs] == ["error"], outputs
    assert outputs[0]["ename"] == "ZeroDivisionError"
    assert any("too large" in line for line in outputs[0]["traceback"])
    # the next good move replaces it with the figure again
    assert nb.cells[2].outputs[0]["text"].split() == [output_id, "NoneType"]
    # (the figure is an Image widget, whose value each redraw replaces in place)
    state, buffers = states[2]
    outputs = state[output_id]["outputs"]
    assert [o["output_type"] for o in outputs] == ["display_data"], outputs
    image_id = outputs[0]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert state[image_id]["_model_name"] == "ImageModel" and state[image_id]["format"] == "png"
    png = base64.b64decode(buffers[image_id][("value",)]["data"])
    assert png.startswith(b"\x89PNG")


def test_set_moves_several_sliders_and_redraws_once():
    fig, ax = plt.subplots()
    calls = []

    def show(a=0.0, b=0.0):
        calls.append((a, b))

    demo = SliderDemo(fig, show, a=widgets.FloatSlider(min=0, max=1, value=0.1),
                      b=widgets.FloatSlider(min=0, max=1, value=0.2))
    calls.clear()
    assert demo.set(a=0.5, b=0.7) is fig
    assert calls == [(0.5, 0.7)]
    assert demo.values == {"a": 0.5, "b": 0.7}
    with pytest.raises(ValueError, match="values: expected keywords among"):
        demo.set(c=1)


def test_teach_panels_use_the_slider_pattern():
    """A teach panel is a SliderDemo: its redraw errors are shown, and update() redraws once."""
    from rvc.models import puma560

    t = teach(puma560())
    assert isinstance(t.demo, SliderDemo) and t.output is t.demo.output
    count = []
    original = t.plot.update
    t.plot.update = lambda q: (count.append(1), original(q))[1]
    t.update([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    assert len(count) == 1
    assert list(t.q.round(6)) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]



def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_live_panel_paints_once_per_move_in_a_box_found_once():
    """The inline backend draws twice per figure (tight box, then paint); the panel finds its
    box at the first redraw and then paints once per move, at the figure's dpi, in the same box
    (the whole figure at least), so the image does not jump when a label grows."""
    fig, ax = plt.subplots(figsize=(3, 2), dpi=100)
    (line,) = ax.plot([0, 1], [0, 0])
    title = ax.set_title("a")

    def show(v=0.5):
        line.set_ydata([0, v])
    demo = SliderDemo(fig, show, v=widgets.FloatSlider(min=0, max=1, value=0.5))
    first = _png_size(demo.png())
    assert first[0] >= 300 and first[1] >= 200
    draws = []
    original = type(fig).draw
    with mock.patch.object(type(fig), "draw", lambda self, r: (draws.append(1), original(self, r))[1]):
        title.set_text("a much longer title than before " * 2)
        demo.set(v=0.9)
        again = _png_size(demo.png())
    assert len(draws) == 1
    assert again == first
