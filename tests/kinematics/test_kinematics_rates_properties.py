"""rvc.kinematics.rates: each documented formula asserted directly, with a second independent identity.

resolve_rates' three methods (and the switch between inverse and pseudo-inverse),
nullproj, the velocity and force ellipsoids (radii exactly 0 / inf where rank is lost,
at any scale), wrench2tau by virtual work with a base and a tool, and pose_error's
tool frame.
"""

import copy
import warnings

import numpy as np
import pytest
from support import fd_jacobian, with_base_tool

from rvc import (SingularityWarning, fellipse, nullproj, pose_error, resolve_rates, rpy2tr, transl, trexp, vellipse,
                 wrench2tau)
from rvc.kinematics.rates import RANK_TOL
from rvc.models import puma560

RNG = np.random.default_rng(83)


def _random_J(m=6, n=6):
    return RNG.normal(size=(m, n))


def _with_singular_values(s, seed=0):
    rng = np.random.default_rng(seed)
    U, _ = np.linalg.qr(rng.normal(size=(len(s), len(s))))
    V, _ = np.linalg.qr(rng.normal(size=(len(s), len(s))))
    return U @ np.diag(s) @ V.T, U, V


# ------------------------------------------------------------------ resolve_rates

@pytest.mark.parametrize("lam", [1e-4, 0.01, 1.0])
def test_dls_is_the_documented_equation(lam):
    J, v = _random_J(6, 7), RNG.normal(size=6)
    ref = J.T @ np.linalg.solve(J @ J.T + lam * np.eye(6), v)
    np.testing.assert_allclose(resolve_rates(J, v, "dls", lam), ref, rtol=1e-10, atol=1e-12)


def test_dls_scales_each_singular_direction_by_sigma_over_sigma2_plus_lambda():
    """The second, independent form: qd = sum_i sigma_i / (sigma_i^2 + lambda) (u_i . v) v_i."""
    s = np.array([3.0, 1.0, 0.3, 0.1, 0.03, 0.001])
    J, U, V = _with_singular_values(s, 1)
    v, lam = RNG.normal(size=6), 0.01
    ref = V @ (s / (s ** 2 + lam) * (U.T @ v))
    np.testing.assert_allclose(resolve_rates(J, v, "dls", lam), ref, rtol=1e-10, atol=1e-12)


def test_pinv_of_a_rank_deficient_jacobian_is_the_least_norm_least_squares_rates():
    s = np.array([2.0, 1.0, 0.5, 0.2, 0.1, 0.0])
    J, _, _ = _with_singular_values(s, 2)
    v = RNG.normal(size=6)
    ref, *_ = np.linalg.lstsq(J, v, rcond=1e-10)
    with pytest.warns(SingularityWarning, match="least squares"):
        qd = resolve_rates(J, v, "pinv")
    np.testing.assert_allclose(qd, ref, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("factor", [0.5, 0.99, 1.01, 2.0])
def test_inv_is_accurate_on_both_sides_of_the_rank_switch(factor):
    """Just below and just above RANK_TOL the 'inv' answer is the least-norm one of J, to the
    accuracy a condition number of 1e9 allows (eps * cond ~ 2e-7)."""
    s = np.array([1.0, 0.7, 0.5, 0.3, 0.2, factor * RANK_TOL])
    J, U, V = _with_singular_values(s, 3)
    v = U[:, :5] @ RNG.normal(size=5)                  # reachable without the tiny direction
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qd = resolve_rates(J, v, "inv")
    ref = V[:, :5] @ ((U[:, :5].T @ v) / s[:5])
    np.testing.assert_allclose(qd, ref, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(J @ qd, v, atol=1e-7)


def test_batched_rates_equal_single_for_every_method():
    J, v = RNG.normal(size=(8, 6, 6)), RNG.normal(size=(8, 6))
    J[3, :, -1] = J[3, :, 0]                            # one singular Jacobian in the batch
    for method, lam in (("inv", 0.0), ("pinv", 0.0), ("dls", 0.05)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            many = resolve_rates(J, v, method, lam)
            for k in range(8):
                np.testing.assert_allclose(many[k], resolve_rates(J[k], v[k], method, lam), rtol=1e-10,
                                           atol=1e-12)


def test_bad_method_and_damping_are_named():
    J, v = _random_J(), np.ones(6)
    with pytest.raises(ValueError, match="^method: "):
        resolve_rates(J, v, "lu")
    with pytest.raises(ValueError, match="^damping: "):
        resolve_rates(J, v, "dls", 0.0)
    with pytest.raises(ValueError, match="^damping: "):
        resolve_rates(J, v, "pinv", 0.1)


# ------------------------------------------------------------------ null space

def test_nullproj_is_the_orthogonal_projector_onto_the_null_space():
    J = _random_J(3, 6)
    P = nullproj(J)
    np.testing.assert_allclose(J @ P, 0.0, atol=1e-12)
    np.testing.assert_allclose(P @ P, P, atol=1e-12)
    np.testing.assert_allclose(P, P.T, atol=1e-12)
    # second, independent construction: an orthonormal null basis from the SVD
    N = np.linalg.svd(J)[2][3:].T
    np.testing.assert_allclose(P, N @ N.T, atol=1e-12)


# ------------------------------------------------------------------ ellipsoids

def _scaled(robot, k):
    r = copy.deepcopy(robot)
    for L in r.links:
        L.a, L.d = L.a * k, L.d * k
    return r


def test_velocity_ellipsoid_radii_are_the_singular_values_with_base_and_tool():
    robot = with_base_tool(puma560())
    q = robot.qn + 0.2
    J = fd_jacobian(robot, q)
    for axes, rows in (("trans", slice(0, 3)), ("rot", slice(3, 6))):
        s = np.linalg.svd(J[rows], compute_uv=False)
        np.testing.assert_allclose(vellipse(robot, q, axes).radii, s, rtol=1e-6)
        np.testing.assert_allclose(fellipse(robot, q, axes).radii, np.sort(1 / s)[::-1], rtol=1e-6)
    np.testing.assert_allclose(vellipse(robot, q).centre, robot.fkine(q)[:3, 3], atol=1e-12)


@pytest.mark.parametrize("k", [1e-13, 1e-8, 1e-3, 1.0, 1e3])
def test_ellipsoid_radii_scale_exactly_with_the_arm(k):
    p = puma560()
    q = p.qn
    big = _scaled(p, k)
    np.testing.assert_allclose(vellipse(big, q).radii, k * vellipse(p, q).radii, rtol=1e-9)
    np.testing.assert_allclose(fellipse(big, q).radii, fellipse(p, q).radii / k, rtol=1e-9)
    assert np.all(np.isfinite(fellipse(big, q).radii))


@pytest.mark.parametrize("k", [1e-3, 1.0, 1e3])
def test_a_lost_rank_gives_radius_exactly_zero_and_force_radius_inf_at_any_scale(k):
    p = _scaled(puma560(), k)
    q = p.qz                                            # the arm stretched up: wrist and elbow singular
    rv = vellipse(p, q, "rot").radii
    with pytest.warns(SingularityWarning, match="unbounded"):
        rf = fellipse(p, q, "rot").radii
    assert rv[-1] == 0.0 and np.isinf(rf[0])
    assert np.all(rv[:-1] > 0) and np.all(np.isfinite(rf[1:]))


# ------------------------------------------------------------------ wrenches and pose error

@pytest.mark.parametrize("frame", ["world", "tool"])
def test_wrench2tau_obeys_virtual_work_with_base_and_tool(frame):
    robot = with_base_tool(puma560())
    q, qd, w = robot.qn + 0.1, RNG.normal(size=6), RNG.normal(size=6)
    J = fd_jacobian(robot, q)
    if frame == "tool":
        R = robot.fkine(q)[:3, :3]
        J = np.vstack([R.T @ J[:3], R.T @ J[3:]])
    assert wrench2tau(robot, q, w, frame) @ qd == pytest.approx(w @ (J @ qd), rel=1e-6)


def test_pose_error_in_the_tool_frame_is_the_world_error_in_tool_axes():
    T = transl(0.3, -0.2, 0.5) @ rpy2tr(0.4, -0.3, 1.2)
    Ts = transl(0.1, 0.2, 0.6) @ rpy2tr(-0.2, 0.5, 0.3)
    R = T[:3, :3]
    e0, ee = pose_error(T, Ts), pose_error(T, Ts, "tool")
    np.testing.assert_allclose(ee[:3], R.T @ e0[:3], atol=1e-12)
    np.testing.assert_allclose(ee[3:], R.T @ e0[3:], atol=1e-12)


def test_pose_error_is_the_exact_displacement():
    """Second, independent identity: moving T by the error gives T*: t + dt, exp(theta k) R."""
    T = transl(0.3, -0.2, 0.5) @ rpy2tr(0.4, -0.3, 1.2)
    Ts = transl(0.1, 0.2, 0.6) @ rpy2tr(-0.2, 2.5, 0.3)
    e = pose_error(T, Ts)
    np.testing.assert_allclose(T[:3, 3] + e[:3], Ts[:3, 3], atol=1e-12)
    np.testing.assert_allclose(trexp(e[3:]) @ T[:3, :3], Ts[:3, :3], atol=1e-10)
    et = pose_error(T, Ts, "tool")
    np.testing.assert_allclose(T[:3, :3] @ trexp(et[3:]), Ts[:3, :3], atol=1e-10)
    np.testing.assert_allclose(T[:3, 3] + T[:3, :3] @ et[:3], Ts[:3, 3], atol=1e-12)
