"""Tests for rvc.plot.frames (artists are created and updated; no images compared)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.animation import FuncAnimation  # noqa: E402

import rvc  # noqa: E402

from rvc import (Twist3, plot_point, tranimate, tranimate2, transl, transl2, trot2,  # noqa: E402
                 trotx, trplot, trplot2)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_trplot2_notes():
    T1 = transl2(1, 2) @ trot2(30, unit="deg")
    h = trplot2(T1, frame="1", color="b")
    x, y = h.lines[0].get_data()
    np.testing.assert_allclose([x[0], y[0]], [1, 2])
    np.testing.assert_allclose([x[1], y[1]], [1 + np.cos(np.pi / 6), 2 + np.sin(np.pi / 6)])
    assert h.lines[0].get_color() == "b"
    assert [t.get_text() for t in h.texts] == ["$X_{1}$", "$Y_{1}$", "{1}"]
    h2 = trplot2(transl2(2, 1), frame="2", color="r", ax=h.ax)
    assert h2.ax is h.ax
    plot_point([3, 2], label="P", ax=h.ax)


def test_trplot_update_in_place():
    h = trplot(np.eye(4), frame="A", length=0.5)
    line = h.lines[2]
    h.set(transl(1, 2, 3) @ trotx(np.pi / 2))
    assert h.lines[2] is line
    xs, ys, zs = line.get_data_3d()
    np.testing.assert_allclose([xs[1], ys[1], zs[1]], [1, 1.5, 3], atol=1e-12)
    np.testing.assert_allclose(h.origin(), [1, 2, 3])
    assert [line.get_color() for line in h.lines] == ["r", "g", "b"]
    assert len(h.artists) == 7
    trplot(np.eye(3))                    # a rotation is accepted


def test_tranimate():
    anim = tranimate(transl(1, 0, 0) @ trotx(1.0), nframes=4)
    assert isinstance(anim, FuncAnimation)
    html = anim.to_jshtml()
    assert "<script" in html
    tw = Twist3.R([0, 0, 1], [2, 3, 2], 0.5)
    X = transl(3, 4, -4)
    anim = tranimate(lambda s: tw.exp(15 * s) @ X, nframes=3, length=0.5)
    anim.to_jshtml()
    np.testing.assert_allclose(anim.handle.origin(), (tw.exp(15) @ X)[:3, 3], atol=1e-12)
    seq = trotx(np.linspace(0, 1, 3))
    tranimate(seq).to_jshtml()
    tranimate2(transl2(1, 2) @ trot2(1), nframes=3).to_jshtml()


@pytest.mark.parametrize("call, exc, words", [
    (lambda: trplot2(np.eye(4)), ValueError, "T"),
    (lambda: trplot(np.ones((4, 4))), ValueError, "bottom row"),
    (lambda: trplot2(np.eye(3), color=["r"]), ValueError, "color"),
    (lambda: trplot(np.eye(4), labels="XY"), ValueError, "labels"),
    (lambda: plot_point([1, 2, 3, 4]), ValueError, "p"),
    (lambda: trplot(np.eye(4)).set(np.eye(3)), ValueError, "T"),
    (lambda: tranimate(np.ones((4, 4))), ValueError, "bottom row"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_frames_extend_the_view():
    import matplotlib.pyplot as plt

    h = rvc.trplot2(rvc.transl2(5, 6), length=1.0)
    assert h.ax.get_xlim()[1] >= 6 and h.ax.get_ylim()[1] >= 6
    h3 = rvc.trplot(rvc.transl(4, -3, 2), length=0.5)
    assert h3.ax.get_xlim()[1] >= 4 and h3.ax.get_ylim()[0] <= -3 and h3.ax.get_zlim()[1] >= 2
    plt.close("all")


def test_tranimate_accepts_rotations_and_dpi():
    R = rvc.rotx(np.linspace(0, 1, 4))
    anim = rvc.tranimate(R, dpi=50)
    assert anim._fig.dpi == 50
    anim1 = rvc.tranimate(rvc.roty(0.5), nframes=3)
    np.testing.assert_allclose(anim1.handle.origin(), 0)
    with pytest.raises(ValueError, match="T"):
        rvc.tranimate(np.diag([1.0, 1.0, -1.0]))


def test_cut_tree_draws_each_force_from_its_tip():
    from rvc.parallel import FiveBar
    from rvc.plot import plot_cut_tree

    robot = FiveBar()
    q = robot.q_home
    roles = [c.roles for c in robot.chains]
    lam = np.array([-5.0, 2.0])
    branch = np.array([[-1.0, -3.0], [1.0, -3.0]])
    ax = plot_cut_tree(robot.points(q), roles, [lam, -lam], branch, gap=0.03, scale=0.01)
    arrows = ax.patches
    assert len(arrows) == 4
    tip = robot.fkine(q)
    for k, (_i, f) in enumerate([(0, lam), (0, branch[0]), (1, -lam), (1, branch[1])]):
        start, end = (np.array(v) for v in arrows[k]._posA_posB)
        assert np.linalg.norm(start - tip) == pytest.approx(0.03)      # the tips drawn apart at the cut
        np.testing.assert_allclose(end - start, 0.01 * f)
    plt.close("all")
