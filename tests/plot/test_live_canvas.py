"""LiveCanvas: a slider panel's frame, redrawn only where artists moved, equals a full redraw.

Every test moves artists the way the chapters' callbacks do (set_data, set_text, set_height,
set_array, set_ylim), paints after each move, and compares the last frame with a whole-figure
draw from scratch: pixel for pixel (no tolerance), while counting that blits did happen.
"""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402
from PIL import Image  # noqa: E402

from rvc import LiveCanvas, plot_planar, plot_robot  # noqa: E402
from rvc.models import planar2, puma560  # noqa: E402


def fresh(fig, bbox=None):
    """The whole figure drawn from scratch."""
    return LiveCanvas(fig, bbox).paint().copy()


def assert_same(frame, fig, bbox=None):
    reference = fresh(fig, bbox)
    assert frame.shape == reference.shape
    differ = np.any(frame != reference, axis=-1)
    assert not differ.any(), f"{differ.sum()} pixels differ from a full redraw"


def test_lines_titles_and_a_legend_blit_to_the_full_redraw():
    fig, ax = plt.subplots(figsize=(3, 2.5), dpi=60)
    x = np.linspace(0, 1, 50)
    (a,) = ax.plot(x, x, label="a")
    (b,) = ax.plot(x, 0 * x, label="b")
    ax.grid(True)
    ax.legend(loc="upper left")
    note = ax.text(0.5, 0.2, "")
    live = LiveCanvas(fig)
    live.paint()
    for k, s in enumerate(np.linspace(0.1, 0.9, 6)):
        a.set_ydata(s * x)
        b.set_ydata(np.sin(6 * s * x) / 2)
        ax.set_title(f"s = {s:.2f}")
        note.set_text("x" * k)
        frame = live.paint().copy()
        if k >= 2:
            assert live.why == ""                  # once each artist has moved once, blits
    assert live.blits >= 4
    assert_same(frame, fig)
    plt.close(fig)


def test_an_added_artist_new_limits_and_a_hidden_artist_keep_the_frame_exact():
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(4, 2), dpi=60)
    (a,) = ax.plot([0, 1], [0, 1])
    (b,) = bx.plot([0, 1], [0, 1])
    fig.tight_layout()
    live = LiveCanvas(fig)
    live.paint()
    a.set_ydata([1, 0])
    live.paint()
    a.set_ydata([0.5, 0])
    live.paint()
    assert live.why == ""
    (c,) = ax.plot([0, 1], [1, 1])                 # an artist added: that axes is drawn whole
    frame = live.paint().copy()
    assert "artists changed" in live.why
    assert_same(frame, fig)
    _ = bx.set_ylim(-1, 2)                         # new limits: the other axes too
    frame = live.paint().copy()
    assert "limits" in live.why
    assert_same(frame, fig)
    for top in (3, 4):                             # from then on both are blitted, whole
        _ = bx.set_ylim(-1, top)
        a.set_visible(top == 4)                    # a moving artist hidden and shown
        frame = live.paint().copy()
        assert live.why == ""
        assert_same(frame, fig)
    c.remove()
    frame = live.paint().copy()
    assert_same(frame, fig)
    fig.suptitle("a figure-level text")            # the figure itself changed: a full draw
    frame = live.paint().copy()
    assert "figure" in live.why
    assert_same(frame, fig)
    for k in range(3):                             # a suptitle that moves: blitted after once
        fig.suptitle(f"move {k}")
        frame = live.paint().copy()
        assert_same(frame, fig)
    assert live.why == ""
    plt.close(fig)


def test_bars_under_the_axis_and_a_mesh_blit_to_the_full_redraw():
    """Chapter 10's workspace panel: a colour map that stays, a drawing over it, bars beside it."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(5, 2.5), dpi=60)
    xs, ys = np.linspace(0, 1, 30), np.linspace(0, 1, 20)
    mesh = ax.pcolormesh(xs, ys, np.add.outer(ys, xs), shading="auto")
    fig.colorbar(mesh, ax=ax)
    (arm,) = ax.plot([0, 0.5], [0, 0.5], "k-o")
    bars = bx.bar(["I", "II"], [0, 0])
    bx.set_ylim(0, 1)
    fig.tight_layout()       # as the chapters lay out: no axes' labels over another's (the one
    live = LiveCanvas(fig)   # case where a blit may differ from a full redraw, see LiveCanvas)
    live.paint()
    for s in np.linspace(0.1, 0.9, 5):
        arm.set_data([0, s], [0, 1 - s])
        bars[0].set_height(s)
        bars[1].set_height(1 - s)
        bx.set_title(f"{s:.1f}")
        frame = live.paint().copy()
    assert live.blits >= 3
    assert_same(frame, fig)
    for flip in (-1, 1, -1):                       # the colours change (nothing marks that stale)
        mesh.set_array(np.add.outer(ys, xs[::flip]))
        frame = live.paint().copy()
        assert_same(frame, fig)
    assert live.why == ""                          # the mesh is blitted as well
    plt.close(fig)


def test_a_3d_robot_blits_to_the_full_redraw():
    robot = puma560()
    drawing = plot_robot(robot, robot.qn)
    live = LiveCanvas(drawing.fig)
    live.paint()
    for s in np.linspace(0, 1, 5):
        drawing.update(robot.qn + s * np.array([0.5, -0.3, 0.2, 0.4, 0.6, -0.7]))
        frame = live.paint().copy()
    assert live.blits >= 3
    assert_same(frame, drawing.fig)
    drawing.ax.view_init(elev=10, azim=20)         # a new view: the whole figure
    frame = live.paint().copy()
    assert "view" in live.why
    assert_same(frame, drawing.fig)
    plt.close(drawing.fig)


def test_a_box_wider_than_the_figure_paints_what_savefig_saves():
    """A planar drawing's labels reach outside the figure: the panel paints the wider box,
    as savefig(bbox_inches=box) does, and blits within it."""
    drawing = plot_planar(planar2(), [0.3, 0.4])
    fig = drawing.fig
    box = Bbox.from_extents(-0.3, -0.2, fig.get_size_inches()[0] + 0.3, fig.get_size_inches()[1] + 0.1)
    live = LiveCanvas(fig, box)
    live.paint()
    for q in np.linspace(0.3, 1.5, 5):
        drawing.update([q, -q / 2])
        frame = live.paint().copy()
    assert live.blits >= 3
    assert_same(frame, fig, box)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches=box)
    saved = np.asarray(Image.open(buf).convert("RGBA"))
    assert saved.shape == frame.shape and np.array_equal(saved, frame)
    plt.close(fig)


def test_bad_arguments_name_themselves():
    with pytest.raises(TypeError, match="fig: expected a matplotlib Figure"):
        LiveCanvas("figure")
    fig = plt.figure()
    with pytest.raises(TypeError, match="bbox: expected a matplotlib Bbox"):
        LiveCanvas(fig, (0, 0, 1, 1))
    plt.close(fig)


def test_a_panel_sends_the_painted_frame_as_a_lossless_png():
    """SliderDemo.png() is the live canvas's frame, encoded without loss."""
    from rvc import SliderDemo
    from rvc.plot.widgets import _png
    import ipywidgets as widgets

    fig, ax = plt.subplots(figsize=(2, 1.5), dpi=50)
    (line,) = ax.plot([0, 1], [0, 1])
    demo = SliderDemo(fig, lambda v=0.5: line.set_ydata([0, v]),
                      v=widgets.FloatSlider(min=0, max=1, value=0.5))
    for v in (0.2, 0.7):
        demo.callback(v=v)
        png = demo.png()
        decoded = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
        assert np.array_equal(decoded, fresh(fig, demo._live.bbox))
    rgba = np.random.default_rng(0).integers(0, 256, (7, 5, 4), dtype=np.uint8)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(_png(rgba)))), rgba)
    plt.close(fig)


def test_a_3d_ellipsoid_surface_is_depth_sorted_as_a_full_draw_does():
    """Chapter 8's wrist panel: a robot and its velocity ellipsoid (a surface of polygons that
    Axes3D sorts by depth at every draw) move together."""
    from rvc import plot_vellipse

    robot = puma560()
    fig = plt.figure(figsize=(3, 3), dpi=50)
    ax = fig.add_subplot(projection="3d")
    arm = plot_robot(robot, robot.qn, ax=ax, name=False, shadow=False)
    ellipsoid = plot_vellipse(robot, robot.qn, "trans", ax=ax, scale=0.3)
    live = LiveCanvas(fig)
    live.paint()
    for s in np.linspace(0, 1, 5):
        q = robot.qn + s * np.array([0.3, 0.5, -0.4, 0.2, 0.6, 0.1])
        arm.update(q)
        ellipsoid.update(q)
        frame = live.paint().copy()
    assert live.blits >= 3
    assert_same(frame, fig)
    plt.close(fig)
