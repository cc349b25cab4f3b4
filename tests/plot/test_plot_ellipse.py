"""Drawing ellipses and ellipsoids (rvc.plot.ellipse): the points lie on the ellipsoid, updates move artists."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rvc  # noqa: E402
from rvc import ellipsoid, plot_ellipse, plot_fellipse, plot_vellipse, vellipse  # noqa: E402
from rvc.models import planar2, puma560  # noqa: E402


def on_ellipsoid(P, S, c):
    """y^T S^-1 y = 1 for every drawn point."""
    Y = P.reshape(-1, P.shape[-1]) - c
    return np.einsum("ij,jk,ik->i", Y, np.linalg.inv(S), Y)


def test_2d_points_lie_on_the_ellipse():
    S = np.array([[2.0, 0.6], [0.6, 0.5]])
    h = plot_ellipse(S, centre=[1, -1])
    np.testing.assert_allclose(on_ellipsoid(h.points, S, [1, -1]), 1, atol=1e-12)
    assert h.ax.name == "rectilinear"
    plt.close("all")


def test_3d_points_lie_on_the_ellipsoid_and_update_in_place():
    J = np.random.default_rng(0).normal(size=(3, 5))
    S = J @ J.T
    h = plot_ellipse(ellipsoid(S, [0.1, 0.2, 0.3]))
    np.testing.assert_allclose(on_ellipsoid(h.points, S, [0.1, 0.2, 0.3]), 1, atol=1e-10)
    artist, n = h.artist, len(h.ax.collections)
    h.update(2 * S)
    assert h.artist is artist and len(h.ax.collections) == n
    np.testing.assert_allclose(on_ellipsoid(h.points, 2 * S, 0), 1, atol=1e-10)
    with pytest.raises(ValueError, match="expected 3 dimensions"):
        h.update(np.eye(2))
    plt.close("all")


def test_arm_ellipses_follow_the_arm():
    p2 = planar2()
    fig, ax = plt.subplots()
    h = plot_vellipse(p2, [0.2, 0.9], axes=[1, 1, 0, 0, 0, 0], ax=ax, scale=0.5)
    lines = len(ax.lines)
    for q in ([0.4, 1.5], [1.0, 0.3]):
        h.update(q)
        E = vellipse(p2, q, axes=[1, 1, 0, 0, 0, 0])
        S = (E.axes * (0.5 * E.radii)) @ (E.axes * (0.5 * E.radii)).T
        np.testing.assert_allclose(on_ellipsoid(h.points, S, p2.fkine(q)[:2, 3]), 1, atol=1e-10)
    assert len(ax.lines) == lines
    p560 = puma560()
    hf = p560.plot_fellipse(p560.qn, "trans")
    np.testing.assert_allclose(hf.E.radii, 1 / p560.vellipse(p560.qn).radii[::-1], atol=1e-12)
    hv = p560.plot_vellipse(p560.qn, "rot")
    hv.update(p560.qr)                                  # a flat ellipsoid draws without NaN
    assert np.all(np.isfinite(hv.points))
    plt.close("all")


def test_infinite_radius_is_drawn_finite():
    p2 = planar2()
    with pytest.warns(rvc.SingularityWarning):
        h = plot_fellipse(p2, [0.3, 0.0], axes=[1, 1, 0, 0, 0, 0])
    assert np.all(np.isfinite(h.points)) and np.abs(h.points).max() > 1e3
    plt.close("all")


def test_bad_input():
    p560 = puma560()
    with pytest.raises(ValueError, match="E: expected one ellipse"):
        plot_ellipse(np.eye(4))
    with pytest.raises(ValueError, match="choose 2 or 3 rows"):
        plot_vellipse(p560, p560.qn, "all")
    with pytest.raises(ValueError, match="S: expected a symmetric matrix"):
        plot_ellipse([[1.0, 2.0], [0.0, 1.0]])
    plt.close("all")
