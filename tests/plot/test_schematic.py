"""Schematic drawings (rvc.plot.schematic): what is drawn is the model's own numbers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from rvc import (ETS2, PrismaticDH, RevoluteDH, plot_dh_link, plot_dh_schematic,  # noqa: E402
                 plot_joint_axes, plot_planar_schematic)
from rvc.models import leg, planar2, puma560, puma560_mdh  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_dh_link_draws_the_link_transform_and_its_parameters():
    L = RevoluteDH(d=0.3, a=0.8, alpha=0.6, offset=0.1)
    h = plot_dh_link(L, 0.5, length=0.4)
    np.testing.assert_allclose(h.T, L.A(0.5))
    assert h.values == pytest.approx({"theta": 0.6, "d": 0.3, "a": 0.8, "alpha": 0.6})
    # the x-axis of frame {j} starts at the link's origin and points along its x
    xs, ys, zs = h.frame1[0].get_data_3d()
    np.testing.assert_allclose([xs[0], ys[0], zs[0]], L.A(0.5)[:3, 3])
    np.testing.assert_allclose(np.subtract([xs[1], ys[1], zs[1]], [xs[0], ys[0], zs[0]]),
                               0.4 * L.A(0.5)[:3, 0])
    # a runs from the foot of d on z_{j-1} to o_j, along x_j, with length a
    P = np.array(h.params["a"].get_data_3d()).T
    np.testing.assert_allclose(P, [[0, 0, 0.3], L.A(0.5)[:3, 3]], atol=1e-12)
    labels = {k: t.get_text() for k, t in h.labels.items()}
    assert labels["d"].endswith("0.30") and labels["alpha"].endswith("0.60")
    # theta's arc ends on x_j; alpha's arc ends on z_j
    arc = np.array(h.params["theta"].get_data_3d()).T - [0, 0, 0.3]     # drawn at the height d
    np.testing.assert_allclose(arc[0] / np.linalg.norm(arc[0]), [1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(arc[-1] / np.linalg.norm(arc[-1]), L.A(0.5)[:3, 0], atol=1e-12)
    al = np.array(h.params["alpha"].get_data_3d()).T
    d = al[-1] - L.A(0.5)[:3, 3]
    np.testing.assert_allclose(d / np.linalg.norm(d), L.A(0.5)[:3, 2], atol=1e-12)
    # update moves the same artists
    n = len(h.ax.lines)
    assert h.update(-1.0) is h and len(h.ax.lines) == n
    np.testing.assert_allclose(h.T, L.A(-1.0))
    # a prismatic link: d is q + offset
    hp = plot_dh_link(PrismaticDH(theta=0.4, a=0.2), 0.7)
    assert hp.values["d"] == pytest.approx(0.7) and hp.values["theta"] == pytest.approx(0.4)


def test_dh_schematic_labels_the_pumas_link_lengths():
    p = puma560()
    ax = plot_dh_schematic(p, p.qz)
    texts = " ".join(t.get_text() for t in ax.texts)
    for label in ("a2 = 0.4318", "d3 = 0.15005", "a3 = 0.0203", "d4 = 0.4318"):
        assert label in texts
    assert "d1" not in texts and "a1" not in texts            # zero parameters are not drawn
    # the side view sees d3 (along y) end-on: it is left out, the others stay
    side = plot_dh_schematic(p, p.qz, view="xz", ax=plt.figure().add_subplot())
    texts = " ".join(t.get_text() for t in side.texts)
    assert "a2 = 0.4318" in texts and "d4 = 0.4318" in texts and "d3" not in texts
    top = plot_dh_schematic(p, p.qz, view="xy", ax=plt.figure().add_subplot())
    assert "d3 = 0.15005" in " ".join(t.get_text() for t in top.texts)
    with pytest.raises(ValueError, match="robot"):
        plot_dh_schematic(puma560_mdh())
    with pytest.raises(ValueError, match="view"):
        plot_dh_schematic(p, view="xw")


@pytest.mark.parametrize("robot", [ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Rz("q2") * ETS2.Tx(0.6), planar2()],
                         ids=["ETS2", "DH"])
def test_planar_schematic_draws_the_arm_and_its_angles(robot):
    q = np.array([0.5, -0.9])
    h = plot_planar_schematic(robot, q)
    F, T = robot.joint_frames(q)
    np.testing.assert_allclose(h.points, np.vstack([F[:, :2, 3], T[:2, -1]]), atol=1e-12)
    assert h.labels["q2"].get_text() == "$q_2$ = -0.90"
    assert h.labels["a2"].get_text() == f"a2 = {np.linalg.norm(h.points[2] - h.points[1]):.3g}"
    # the arc of q2 starts on the line of link 1 and ends on link 2
    arc = np.array(h.arcs[1].get_data()).T
    u1 = (h.points[1] - h.points[0]) / np.linalg.norm(h.points[1] - h.points[0])
    u2 = (h.points[2] - h.points[1]) / np.linalg.norm(h.points[2] - h.points[1])
    for end, u in ((arc[0], u1), (arc[-1], u2)):
        v = end - h.points[1]
        np.testing.assert_allclose(v / np.linalg.norm(v), u, atol=1e-12)
    n = len(h.ax.lines)
    h.update([0.1, 0.2])
    assert len(h.ax.lines) == n and h.labels["q1"].get_text() == "$q_1$ = 0.10"


def test_joint_axes_of_the_leg():
    lg = leg()
    ax = plot_joint_axes(lg, names=["L1", "L2"])
    texts = [t.get_text() for t in ax.texts]
    assert "L1 = 0.1" in texts and "L2 = 0.1" in texts
    assert {"$q_1$", "$q_2$", "$q_3$"} <= set(texts)
