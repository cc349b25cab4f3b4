"""Robot drawings: handles update their artists in place, no new figures."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from rvc.apps import walking_legs  # noqa: E402
from rvc.models import leg, planar2, puma560  # noqa: E402
from rvc.plot.robot import animate_robot, animate_walking, plot_planar, plot_robot, teach  # noqa: E402


@pytest.fixture(scope="module")
def p560():
    return puma560()


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_plot_robot_update_in_place(p560):
    h = plot_robot(p560, p560.qz)
    figs = plt.get_fignums()
    artists = list(h.ax.lines)
    assert h.update(p560.qn) is h
    assert plt.get_fignums() == figs and list(h.ax.lines) == artists
    # the drawing shows the model's frames: base, 6 link frames, tool
    P = np.asarray(p560.fkine_all(p560.qn))[:, :3, 3]
    np.testing.assert_allclose(h.points[:-1], P)
    np.testing.assert_allclose(h.points[-1], np.asarray(p560.fkine(p560.qn))[:3, 3])
    x, y, z = h.links.get_data_3d()
    np.testing.assert_allclose(np.c_[x, y, z], h.points)
    with pytest.raises(ValueError, match="q"):
        h.update([0, 0, 0])


def test_plot_robot_into_given_axes_with_trail(p560):
    fig = plt.figure()
    ax = fig.add_subplot(projection="3d")
    h = plot_robot(p560, p560.qz, ax=ax, trail=True)
    for q in np.linspace(p560.qz, p560.qr, 4):
        h.update(q)
    assert plt.get_fignums() == [fig.number]
    assert len(h.trail.get_data_3d()[0]) == 5


def test_animate_robot(p560):
    Q = np.linspace(p560.qz, p560.qn, 6)
    anim = animate_robot(p560, Q, trail=True, interval=40)
    html = anim.to_jshtml()
    assert "<img" in html or "data:image" in html
    h = anim.robotplot
    np.testing.assert_allclose(h.q, Q[-1])
    assert len(h.trail.get_data_3d()[0]) == 6


def test_teach_panel(p560):
    import ipywidgets as widgets

    t = teach(p560)
    assert isinstance(t.panel, widgets.VBox) and len(t.sliders) == 6
    qlim = np.asarray(p560.qlim)
    assert [s.min for s in t.sliders] == pytest.approx(qlim[0])
    assert [s.max for s in t.sliders] == pytest.approx(qlim[1])
    figs = plt.get_fignums()
    fig = t.update(p560.qn)
    assert fig is t.fig and plt.get_fignums() == figs
    # pi for joint 3 lies outside its slider [-225, 45] deg: shown as -pi, the same angle
    np.testing.assert_allclose(t.plot.T, p560.fkine(p560.qn), atol=1e-12)
    assert "x = +0.596" in t.pose.value
    t.sliders[0].value = 0.5          # moving a slider redraws
    assert t.plot.q[0] == 0.5


def test_plot_planar():
    r = planar2()
    h = plot_planar(r, [0.3, 0.4], trail=True)
    h.update([0.5, -0.2])
    np.testing.assert_allclose(h.points[-1, :2], [np.cos(0.5) + np.cos(0.3), np.sin(0.5) + np.sin(0.3)])
    assert len(plt.get_fignums()) == 1


def test_animate_walking():
    lg = leg()
    from rvc.apps import walking_gait

    wl = walking_legs(lg, walking_gait()[::20], offsets=(0, 5, 10, 15), tol=1e-12)
    figs = plt.get_fignums()
    anim = animate_walking(lg, wl.q, wl.bases, step=5)
    assert plt.get_fignums() == figs                     # closed from pyplot
    assert anim.to_jshtml()


def test_ets_plot_as_in_the_notes():
    """E.plot(q, unit="deg") draws an ETS2 like the equivalent DH model, and ETS3 in 3-D."""
    from rvc import ETS2, ETS3
    from rvc.models import planar2

    E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Rz("q2") * ETS2.Tx(1)
    h = E.plot([30, 40], unit="deg")
    ref = plot_planar(planar2(), np.radians([30, 40]))
    # ETS: origin, each joint, end, tool point (= end); DH: base, each link frame, tool
    np.testing.assert_allclose(h.points[1:-1, :2], ref.points[:3, :2], atol=1e-12)
    lines = len(h.ax.lines)
    h.update([0.0, 0.0])
    assert len(h.ax.lines) == lines
    np.testing.assert_allclose(h.points[-1, :2], [2, 0], atol=1e-12)
    rp = (ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Tx("q2")).plot([0.0, 0.5])
    np.testing.assert_allclose(rp.points[-1, :2], [1.5, 0], atol=1e-12)
    E3 = ETS3.Rz("q1") * ETS3.Tz(0.5) * ETS3.Ry("q2") * ETS3.Tx(1)
    h3 = E3.plot([0.2, 0.3])
    np.testing.assert_allclose(h3.T, E3.fkine([0.2, 0.3]), atol=1e-12)
    with pytest.raises(ValueError, match="q"):
        E.plot([1.0])
    plt.close("all")


def test_ets2_teach_panel():
    from rvc import ETS2

    E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Rz("q2") * ETS2.Tx(1)
    panel = E.teach()
    assert len(panel.sliders) == 2
    fig = panel.update([np.pi / 2, 0.0])
    assert fig is panel.fig
    np.testing.assert_allclose(panel.plot.points[-1, :2], [0, 2], atol=1e-12)
    assert "theta = +90.0" in panel.pose.value
    plt.close("all")


def _arm_box(fig):
    """Width and height (fractions of the frame) of the box around the arm's blue link pixels."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=fig.dpi)
    buf.seek(0)
    img = plt.imread(buf)[..., :3] * 255
    blue = np.all(np.abs(img - [31, 119, 180]) < 40, axis=-1)     # tab:blue, the links
    ys, xs = np.nonzero(blue)
    return np.ptp(xs) / img.shape[1], np.ptp(ys) / img.shape[0]


def test_an_animation_frame_is_filled_by_the_arm(p560):
    """Issue 19: at the notebooks' size (4 x 3.4 in at 70 dpi) the Puma at qn was a speck, its box
    under a tenth of the frame's width; the view now fits the motion."""
    Q = np.tile(p560.qn, (2, 1))
    anim = animate_robot(p560, Q, dpi=70, figsize=(4, 3.4))
    w, h = _arm_box(anim._fig)
    assert w > 0.25 and h > 0.25, (w, h)
    fixed = animate_robot(p560, Q, dpi=70, figsize=(4, 3.4), limits=[(-1, 1)] * 3)   # the old view
    assert _arm_box(fixed._fig)[0] < 0.6 * w
    P = np.vstack([anim.robotplot.points])
    for k, lim in enumerate((anim.robotplot.ax.get_xlim(), anim.robotplot.ax.get_ylim(),
                             anim.robotplot.ax.get_zlim())):
        assert lim[0] <= P[:, k].min() and P[:, k].max() <= lim[1]      # nothing of the arm cut off


def test_the_view_holds_every_frame_and_the_ghost(p560):
    Q = np.linspace(p560.qz, p560.qr, 5)
    anim = animate_robot(p560, Q, ghost=Q[::-1] * 0.5)
    lims = [anim.robotplot.ax.get_xlim(), anim.robotplot.ax.get_ylim(), anim.robotplot.ax.get_zlim()]
    for q in np.vstack([Q, Q * 0.5]):
        P = plot_robot(p560, q).points
        for k in range(3):
            assert lims[k][0] <= P[:, k].min() and P[:, k].max() <= lims[k][1]


def test_the_player_shows_small_frames_at_a_readable_width(p560):
    from rvc import jshtml

    small = animate_robot(p560, np.tile(p560.qn, (2, 1)), dpi=70, figsize=(4, 3.4))   # 280 px
    assert 'style="width: min(100%, 520px); height: auto;" id="_anim_img' in jshtml(small).data
    large = animate_robot(p560, np.tile(p560.qn, (2, 1)), dpi=100, figsize=(7, 5))     # 700 px
    assert "width: min(100%, 700px)" in jshtml(large).data                            # never shrunk
    with pytest.raises(ValueError, match="width"):
        jshtml(small, width=0)


def test_the_player_frames_are_described(p560):
    from rvc import jshtml

    anim = animate_robot(p560, np.tile(p560.qn, (2, 1)), dpi=70, figsize=(4, 3.4))
    html = jshtml(anim, alt='the arm "nods" & turns').data
    assert html.count("<img") == 1
    assert 'alt="the arm &quot;nods&quot; &amp; turns"' in html
    untitled = jshtml(anim).data                          # by default: the figure's titles, or the axes count
    alt = re.search(r'<img alt="([^"]*)"', untitled).group(1)
    assert alt.startswith("Animation") and ".png" not in alt
    anim._fig.axes[0].set_title("Puma 560")
    assert '<img alt="Animation: Puma 560"' in jshtml(anim).data
    for bad in ("", "   "):
        with pytest.raises(ValueError, match="alt"):
            jshtml(anim, alt=bad)
    with pytest.raises(TypeError, match="alt"):
        jshtml(anim, alt=3)
