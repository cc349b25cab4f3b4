"""Tests of rvc.motion.velocity: pose derivatives, velocity transforms, incremental motion, rate Jacobians."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rvc.spatial.expmap import trexp
from rvc.spatial.transforms3d import eul2r, rpy2r, rt2tr, transl, trinv
from rvc.motion.velocity import (delta2r, delta2tr, dotR, dotT, eul2jac, incremental_rotation,
                          rpy2jac, tr2delta, tr2jac)

FAST = settings(max_examples=30, deadline=None)
ang3 = st.lists(st.floats(-3, 3), min_size=3, max_size=3).map(np.array)
vec3 = st.lists(st.floats(-2, 2), min_size=3, max_size=3).map(np.array)


def _vex(S):
    return 0.5 * np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]])


def _omega_world(Rfun, x, xdot, h=1e-6):
    """World-frame angular velocity of R(x + t xdot) at t=0 from [w]x = Rdot R^T."""
    Rd = (Rfun(x + h * xdot) - Rfun(x - h * xdot)) / (2 * h)
    return _vex(Rd @ Rfun(x).T)


# ------------------------------------------------------- pose derivatives ---

@FAST
@given(rpy=ang3, w=vec3)
def test_dotR_matches_finite_difference_of_constant_rotation(rpy, w):
    R = rpy2r(rpy)
    h = 1e-6
    Rd = (trexp(w * h) @ R - trexp(-w * h) @ R) / (2 * h)  # world-frame rotation
    assert np.allclose(dotR(R, w), Rd, atol=1e-8)
    Rb = (R @ trexp(w * h) - R @ trexp(-w * h)) / (2 * h)  # body-frame rotation
    assert np.allclose(dotR(R, w, frame="body"), Rb, atol=1e-8)
    assert np.allclose(dotR(R, R @ w), dotR(R, w, frame="body"))  # ^A w = R ^B w


def test_dotT_and_batch():
    R, t = rpy2r([0.1, 0.2, 0.3]), np.array([1.0, 2, 3])
    T = rt2tr(R, t)
    v = np.array([0.5, -0.1, 0.2, 0.3, 0.0, -0.4])
    h = 1e-6
    Tp = rt2tr(trexp(v[3:] * h) @ R, t + v[:3] * h)
    Tm = rt2tr(trexp(-v[3:] * h) @ R, t - v[:3] * h)
    assert np.allclose(dotT(T, v), (Tp - Tm) / (2 * h), atol=1e-8)
    Ts = np.stack([T, np.eye(4)])
    assert dotT(Ts, v).shape == (2, 4, 4)
    assert np.allclose(dotR(Ts[:, :3, :3], [0, 0, 1]).shape, (2, 3, 3))
    with pytest.raises(ValueError, match="v: expected shape"):
        dotT(T, v[:5])
    with pytest.raises(ValueError, match="omega: expected finite"):
        dotR(R, [0, np.nan, 0])
    with pytest.raises(ValueError, match="frame: expected one of"):
        dotR(R, [0, 0, 1], frame="tool")
    with pytest.raises(ValueError, match="R: expected an orthonormal"):
        dotR(2 * R, [0, 0, 1])


# ------------------------------------------------------ velocity transforms ---

@FAST
@given(rpy=ang3, t=vec3, vB=st.lists(st.floats(-2, 2), min_size=6, max_size=6).map(np.array))
def test_tr2jac_rotates_and_samebody_is_rigid_motion(rpy, t, vB):
    T = rt2tr(rpy2r(rpy), t)  # ^A T_B
    R = T[:3, :3]
    J = tr2jac(T)
    assert np.allclose(J @ vB, np.r_[R @ vB[:3], R @ vB[3:]])
    # samebody: frames A and B fixed to one moving body, T = ^A T_B constant.  The body
    # moves as W_B(s) = exp(s [^B v]) in B's own frame; then W_A = W_B T^-1 and the
    # velocity of A (its origin's velocity and w, in A's axes) is W_A^-1 dW_A/ds
    h = 1e-6
    WAp, WAm = trexp(vB * h) @ trinv(T), trexp(-vB * h) @ trinv(T)
    d = T @ (WAp - WAm) / (2 * h)  # W_A(0)^-1 = T
    vA = np.r_[d[:3, 3], _vex(d[:3, :3])]
    assert np.allclose(tr2jac(T, samebody=True) @ vB, vA, atol=1e-6)
    assert np.allclose(tr2jac(T, samebody=True) @ vB,
                       np.r_[R @ vB[:3] + np.cross(t, R @ vB[3:]), R @ vB[3:]])


def test_tr2jac_batch_and_errors():
    Ts = np.stack([transl([1, 0, 0]), rt2tr(rpy2r([0.1, 0.2, 0.3]), [0, 0, 0])])
    assert tr2jac(Ts).shape == (2, 6, 6)
    assert tr2jac(Ts, samebody=True).shape == (2, 6, 6)
    with pytest.raises(ValueError, match="T: expected shape"):
        tr2jac(np.eye(3))


# ------------------------------------------------------ incremental motion ---

def test_incremental_rotation_error_is_second_order():
    u = np.array([1.0, -2.0, 0.5]) / np.linalg.norm([1.0, -2.0, 0.5])
    ds = np.logspace(-1, -5, 9)
    r = incremental_rotation(ds[:, None] * u)
    assert r.approx.shape == r.exact.shape == (9, 3, 3)
    slope = np.polyfit(np.log(ds), np.log(r.error), 1)[0]
    assert abs(slope - 2) < 0.02  # error O(d^2)
    assert np.allclose(r.error / ds**2, 1 / np.sqrt(2), rtol=1e-2)
    assert np.allclose(r.ortho_error, np.sqrt(2) * ds**2, rtol=1e-6)
    assert np.allclose(delta2r(ds[0] * u), r.approx[0])
    deg = incremental_rotation([0, 0, 1.0], unit="deg")
    assert np.allclose(deg.exact[:2, :2], [[np.cos(np.pi / 180), -np.sin(np.pi / 180)],
                                           [np.sin(np.pi / 180), np.cos(np.pi / 180)]])


@FAST
@given(rpy=ang3, t=vec3, dir6=st.lists(st.floats(-1, 1), min_size=6, max_size=6).map(np.array))
def test_tr2delta_delta2tr_converge_to_exact(rpy, t, dir6):
    if np.linalg.norm(dir6) < 0.1:
        return
    T0 = rt2tr(rpy2r(rpy), t)
    errs, errs_back = [], []
    steps = [1e-2, 1e-3]
    for eps in steps:
        d = eps * dir6
        T1 = T0 @ rt2tr(trexp(d[3:]), d[:3])  # exact small motion in T0's frame
        errs.append(np.abs(tr2delta(T0, T1) - d).max())
        errs_back.append(np.abs(delta2tr(d) - trinv(T0) @ T1).max())
    # O(eps^2): shrinking the step 10x shrinks the error at least ~50x (or it is round-off)
    for e in (errs, errs_back):
        assert e[1] <= max(e[0] / 50, 1e-12)
        assert e[0] <= (steps[0] * np.abs(dir6).max()) ** 2


def test_tr2delta_forms_and_batch():
    T = rt2tr(rpy2r([0.001, -0.002, 0.003]), [0.01, 0.02, 0.03])
    assert np.allclose(tr2delta(T), tr2delta(np.eye(4), T))
    assert np.allclose(tr2delta(T), [0.01, 0.02, 0.03, 0.001, -0.002, 0.003], atol=1e-5)
    T0s = np.stack([np.eye(4), transl([1, 2, 3])])
    T1s = T0s @ T
    out = tr2delta(T0s, T1s)
    assert out.shape == (2, 6) and np.allclose(out[0], out[1])
    assert tr2delta(T0s, T).shape == (2, 6)  # broadcasting
    assert delta2tr(np.zeros((3, 6))).shape == (3, 4, 4)
    with pytest.raises(ValueError, match="d: expected shape"):
        delta2tr([1, 2, 3])
    with pytest.raises(ValueError, match="T1"):
        tr2delta(np.eye(4), np.ones((4, 4)))
    with pytest.raises(ValueError, match="T0, T1: expected batch shapes that broadcast"):
        tr2delta(np.stack([np.eye(4)] * 2), np.stack([np.eye(4)] * 3))


# ---------------------------------------------------- angle-rate Jacobians ---

@FAST
@given(rpy=st.lists(st.floats(-1.4, 1.4), min_size=3, max_size=3).map(np.array), rates=vec3,
       order=st.sampled_from(["zyx", "xyz", "yxz"]))
def test_rpy2jac_maps_rates_to_world_angular_velocity(rpy, rates, order):
    w = _omega_world(lambda a: rpy2r(a, order=order), rpy, rates)
    assert np.allclose(rpy2jac(rpy, order=order) @ rates, w, atol=1e-6)


@FAST
@given(eul=ang3, rates=vec3)
def test_eul2jac_maps_rates_to_world_angular_velocity(eul, rates):
    w = _omega_world(eul2r, eul, rates)
    assert np.allclose(eul2jac(eul) @ rates, w, atol=1e-6)


def test_rate_jacobians_batch_units_singularity_errors():
    A = np.random.default_rng(2).uniform(-1, 1, (5, 3))
    assert rpy2jac(A).shape == (5, 3, 3) and np.allclose(rpy2jac(A)[2], rpy2jac(A[2]))
    assert np.allclose(eul2jac(A)[4], eul2jac(A[4]))
    assert np.allclose(rpy2jac(np.rad2deg(A), unit="deg"), rpy2jac(A))
    assert np.allclose(eul2jac(np.rad2deg(A[0]), unit="deg"), eul2jac(A[0]))
    assert np.isclose(np.linalg.det(rpy2jac([0.3, np.pi / 2, 0.7])), 0, atol=1e-12)
    assert np.isclose(np.linalg.det(eul2jac([0.3, 0.0, 0.7])), 0, atol=1e-12)
    with pytest.raises(ValueError, match="order: expected one of"):
        rpy2jac([0, 0, 0], order="zxz")
    with pytest.raises(ValueError, match="unit: expected 'rad' or 'deg'"):
        rpy2jac([0, 0, 0], unit="degrees")
    with pytest.raises(ValueError, match="rpy: expected shape"):
        rpy2jac([0, 0])
    with pytest.raises(ValueError, match="eul: expected finite"):
        eul2jac([0, np.nan, 0])


def test_rates_back_from_angular_velocity():
    """rpydot/euldot invert rpy2jac/eul2jac, batched; singular cases warn and stay finite."""
    from rvc import SingularityWarning, eul2jac, euldot, rpydot

    rng = np.random.default_rng(11)
    G = rng.uniform(-1.2, 1.2, (20, 3))
    rates = rng.normal(size=(20, 3))
    for order in ("zyx", "xyz", "yxz"):
        w = np.einsum("nij,nj->ni", rpy2jac(G, order), rates)
        np.testing.assert_allclose(rpydot(G, w, order), rates, atol=1e-10)
    Ge = G + np.array([0, 1.5, 0])      # keep theta away from 0
    w = np.einsum("nij,nj->ni", eul2jac(Ge), rates)
    np.testing.assert_allclose(euldot(Ge, w), rates, atol=1e-10)
    # degrees in, degrees per second out
    np.testing.assert_allclose(rpydot(np.degrees(G[0]), rpy2jac(G[0]) @ rates[0], unit="deg"),
                               np.degrees(rates[0]), atol=1e-8)
    # gimbal lock: a warning, finite minimum-norm rates that reproduce what J can express
    with pytest.warns(SingularityWarning, match="gimbal lock"):
        r = rpydot([0.3, np.pi / 2, 0.1], [0.2, 0.1, 0.4])
    assert np.all(np.isfinite(r))
    J = rpy2jac([0.3, np.pi / 2, 0.1])
    w_proj = J @ np.linalg.pinv(J) @ [0.2, 0.1, 0.4]
    np.testing.assert_allclose(J @ r, w_proj, atol=1e-12)
    with pytest.warns(SingularityWarning):
        euldot([0.0, 0.0, 0.0], [0, 0, 1])
    with pytest.raises(ValueError, match="w"):
        rpydot([0, 0, 0], [1, 2])
    with pytest.raises(ValueError, match="order"):
        rpydot([0, 0, 0], [1, 2, 3], order="zxz")


# ----------------------------------- fixed examples of the singular angle-rate branches

def _null(J):
    """Unit vector spanning the null space of a rank-2 3x3 matrix."""
    return np.linalg.svd(J)[2][-1]


@pytest.mark.parametrize("pitch_sign", [1.0, -1.0])
def test_rpydot_zyx_gimbal_lock_by_hand(pitch_sign):
    """zyx at pitch = +-pi/2: w = (ydot -+ rdot) z + pdot (-sin y, cos y, 0), derived by hand.

    The minimum-norm rates split the z component equally between roll and yaw and put the
    component along (-sin y, cos y, 0) into pitch; the rest of w (along (cos y, sin y, 0))
    cannot be produced and is dropped.
    """
    from rvc import SingularityWarning, rpydot

    r, y = 0.3, 0.7
    w = np.array([0.2, -0.1, 0.4])
    with pytest.warns(SingularityWarning):
        rates = rpydot([r, pitch_sign * np.pi / 2, y], w)
    pdot = -np.sin(y) * w[0] + np.cos(y) * w[1]
    expected = [-pitch_sign * w[2] / 2, pdot, w[2] / 2]
    np.testing.assert_allclose(rates, expected, atol=1e-9)


@pytest.mark.parametrize("theta, s", [(0.0, 1.0), (np.pi, -1.0)])
def test_euldot_gimbal_lock_by_hand(theta, s):
    """ZYZ at theta = 0 (pi): w = (phidot +- psidot) z + thetadot (-sin phi, cos phi, 0)."""
    from rvc import SingularityWarning, euldot

    phi, psi = 0.3, 0.1
    w = np.array([0.2, 0.1, 0.4])
    with pytest.warns(SingularityWarning):
        rates = euldot([phi, theta, psi], w)
    thdot = -np.sin(phi) * w[0] + np.cos(phi) * w[1]
    np.testing.assert_allclose(rates, [w[2] / 2, thdot, s * w[2] / 2], atol=1e-9)


@pytest.mark.parametrize("order", ["zyx", "xyz", "yxz"])
@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2])
def test_rpydot_every_singular_branch_is_minimum_norm(order, pitch):
    """At each lock: J r = the expressible part of w, and r has no part in J's null space."""
    from rvc import SingularityWarning, rpydot

    G = [0.4, pitch, -1.1]
    J = rpy2jac(G, order)
    w = np.array([0.3, -0.5, 0.8])
    with pytest.warns(SingularityWarning):
        r = rpydot(G, w, order)
    n = _null(J)
    u = np.linalg.svd(J)[0][:, -1]                  # the direction of w that J cannot produce
    P = np.eye(3) - np.outer(u, u)                  # projector onto range(J)
    np.testing.assert_allclose(J @ r, P @ w, atol=1e-12)
    assert abs(r @ n) < 1e-12
    # just off the lock the exact rates are returned, with no warning
    G_off = [0.4, pitch * (1 - 1e-4), -1.1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r_off = rpydot(G_off, w, order)
    np.testing.assert_allclose(rpy2jac(G_off, order) @ r_off, w, atol=1e-9)


def test_dotR_body_frame_turns_each_column_about_the_body_axis():
    """With body-frame omega, each column r_k of R moves as (R omega) x r_k (omega seen in the world)."""
    R = rpy2r(0.4, -0.3, 1.2)
    wb = np.array([0.3, -0.5, 0.8])
    expected = np.column_stack([np.cross(R @ wb, R[:, k]) for k in range(3)])
    np.testing.assert_allclose(dotR(R, wb, frame="body"), expected, atol=1e-14)
