"""Tests of rvc.motion.trajectory: boundary conditions, derivatives, limits, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rvc.motion.trajectory import Trajectory, ctraj, jtraj, lspb, mstraj, mtraj, tpoly, trinterp

FAST = settings(max_examples=40, deadline=None)
val = st.floats(-10, 10, allow_nan=False)
dur = st.floats(0.01, 100, allow_nan=False)


def fd_check(t, q, qd, qdd=None, rtol=2e-3):
    """Velocity (and acceleration) agree with central differences of position."""
    scale = max(np.abs(qd).max(), 1e-9)
    assert np.allclose(np.gradient(q, t, axis=0)[1:-1], qd[1:-1], atol=rtol * scale)
    if qdd is not None:
        scale = max(np.abs(qdd).max(), 1e-9)
        assert np.allclose(np.gradient(qd, t, axis=0)[1:-1], qdd[1:-1], atol=rtol * scale)


# ----------------------------------------------------------------- tpoly ---

@FAST
@given(q0=val, qf=val, qd0=val, qdf=val, T=dur)
def test_tpoly_boundary_conditions(q0, qf, qd0, qdf, T):
    t = np.linspace(0, T, 11)
    q, qd, qdd = tpoly(q0, qf, t, qd0, qdf)
    assert (q[0], q[-1]) == (q0, qf)  # exact
    assert np.isclose(qd[0], qd0) and np.isclose(qd[-1], qdf)
    acc = abs(qf - q0) / T**2 + (abs(qd0) + abs(qdf)) / T
    assert abs(qdd[0]) <= 1e-12 * acc + 1e-300 and abs(qdd[-1]) <= 1e-9 * max(acc, 1)


def test_tpoly_derivatives_match_finite_differences():
    t = np.linspace(1, 3, 2001)  # offset start: duration is t[-1] - t[0]
    tg = tpoly(-1, 2, t, 0.5, -1)
    fd_check(t, tg.q, tg.qd, tg.qdd)
    assert tg.q[0] == -1 and tg.q[-1] == 2


def test_tpoly_integer_steps_and_long_duration():
    tg = tpoly(1, 2, 10)
    assert np.array_equal(tg.t, np.arange(10.0))
    assert isinstance(tg, Trajectory) and "tpoly" in repr(tg)
    # badly scaled in raw time, fine in normalised time
    q, qd, qdd = tpoly(1, 2, np.linspace(0, 1e4, 5))
    assert q[0] == 1 and q[-1] == 2 and np.isclose(qd[2], 15 / 8 / 1e4)


# ------------------------------------------------------------------ lspb ---

@FAST
@given(q0=val, qf=val, T=dur, frac=st.floats(1.0001, 2.0))
def test_lspb_boundary_conditions_and_plateau(q0, qf, T, frac):
    if abs(qf - q0) < 1e-6:
        return
    V = frac * abs(qf - q0) / T
    t = np.linspace(0, T, 101)
    tg = lspb(q0, qf, t, V)
    assert (tg.q[0], tg.q[-1]) == (q0, qf)
    assert tg.qd[0] == 0 and abs(tg.qd[-1]) < 1e-9 * V
    assert np.max(np.abs(tg.qd)) <= V * (1 + 1e-12)
    tb = tg.info["tblend"]
    a = V / tb
    assert np.isclose(abs(tg.qdd[0]), a) and np.isclose(tg.qdd[-1], -tg.qdd[0])
    assert np.isclose(tb, T - abs(qf - q0) / V)
    assert np.all(np.diff(tg.q) * np.sign(qf - q0) >= -1e-12)  # monotonic, no overshoot


def test_lspb_derivatives_match_finite_differences():
    t = np.linspace(0, 2, 4001)
    tg = lspb(0.5, -1.5, t)
    fd_check(t, tg.q, tg.qd)
    # acceleration is piecewise constant: check away from the two switch points
    tb = tg.info["tblend"]
    away = (np.abs(t - tb) > 0.01) & (np.abs(t - (2 - tb)) > 0.01)
    assert np.allclose(np.gradient(tg.qd, t)[away][1:-1], tg.qdd[away][1:-1], atol=1e-6)
    assert np.isclose(tg.info["V"], 1.5 * (-2) / 2)  # default V, signed


def test_lspb_V_limits():
    t = np.linspace(0, 2, 201)  # |qf-q0|/tf = 0.5
    lspb(0, 1, t, V=0.5000001)
    tri = lspb(0, 1, t, V=1.0)  # triangular: blends meet in the middle
    assert np.isclose(tri.info["tblend"], 1.0) and np.isclose(tri.qd.max(), 1.0)
    assert np.allclose(lspb(0, 1, t, V=-0.8).q, lspb(0, 1, t, V=0.8).q)  # sign ignored
    with pytest.raises(ValueError, match=r"V: .*too slow to reach qf"):
        lspb(0, 1, t, V=0.5)
    with pytest.raises(ValueError, match=r"V: .*too slow"):
        lspb(0, 1, t, V=0)
    with pytest.raises(ValueError, match=r"V: .*too fast"):
        lspb(0, 1, t, V=1.01)
    with pytest.raises(ValueError, match="V: expected finite"):
        lspb(0, 1, t, V=np.nan)


def test_lspb_constant_when_no_motion():
    tg = lspb(2, 2, 5, V=3)
    assert np.all(tg.q == 2) and np.all(tg.qd == 0) and np.all(tg.qdd == 0)


# ------------------------------------------------------- mtraj and jtraj ---

def test_mtraj_applies_scalar_function_per_axis():
    tg = mtraj(lspb, [0, 2], [1, -1], 50)
    assert tg.q.shape == tg.qd.shape == tg.qdd.shape == (50, 2)
    assert np.allclose(tg.q[:, 1], lspb(2, -1, 50).q)
    tp = mtraj(tpoly, [0, 1, 2], [3, 2, 1], np.linspace(0, 2, 30))
    assert np.allclose(tp.q[-1], [3, 2, 1]) and np.allclose(tp.qd[[0, -1]], 0)
    with pytest.raises(ValueError, match="qf: expected 2 elements"):
        mtraj(tpoly, [0, 1], [1, 2, 3], 10)
    with pytest.raises(TypeError, match="tfunc"):
        mtraj("tpoly", [0], [1], 10)


@FAST
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(*[st.lists(val, min_size=n, max_size=n)] * 4)),
       dur)
def test_jtraj_boundary_conditions(vecs, T):
    q0, qf, qd0, qd1 = map(np.array, vecs)
    t = np.linspace(0, T, 7)
    q, qd, qdd = jtraj(q0, qf, t, qd0, qd1)
    assert q.shape == (7, len(q0))
    assert np.array_equal(q[0], q0) and np.array_equal(q[-1], qf)
    assert np.allclose(qd[0], qd0) and np.allclose(qd[-1], qd1)
    scale = (np.abs(qf - q0).max() / T + np.abs(qd0).max() + np.abs(qd1).max()) / T
    assert np.abs(qdd[[0, -1]]).max() <= 1e-9 * max(scale, 1)


def test_jtraj_matches_tpoly_and_finite_differences():
    t = np.linspace(0, 1.5, 1501)
    tg = jtraj([0, 1], [2, -1], t, qd0=[0.3, 0], qd1=[0, -0.2])
    assert np.allclose(tg.q[:, 0], tpoly(0, 2, t, 0.3, 0).q)
    fd_check(t, tg.q, tg.qd, tg.qdd)
    # an integer means normalised time, as in the toolbox
    assert np.allclose(jtraj([0], [1], 5).t, [0, 0.25, 0.5, 0.75, 1])


# ---------------------------------------------------------------- mstraj ---

VIA = np.array([[4, 1], [4, 4], [5, 2], [2, 5]], float)


@pytest.mark.parametrize("tacc", [0.0, 0.5, 1.0])
def test_mstraj_via_points_speed_and_ends(tacc):
    qdmax = np.array([2.0, 1.0])
    tg = mstraj(VIA[1:], qdmax, None, VIA[0], 0.05, tacc)
    assert np.array_equal(tg.q[0], VIA[0]) and np.allclose(tg.q[-1], VIA[-1], atol=1e-12)
    assert np.allclose(tg.qd[-1], 0)
    if tacc > 0:
        assert np.allclose(tg.qd[0], 0) and np.allclose(tg.qdd[[0, -1]], 0)
    assert np.all(np.abs(tg.qd) <= qdmax + 1e-12)  # respects qdmax, blends included
    assert np.all(np.diff(tg.t) > 0) and np.isclose(tg.t[1], 0.05)
    # passes each via point within its blend tolerance 3/32 tacc |dv|
    v = np.diff(tg.info["via"], axis=0) / tg.info["tseg"][:, None]
    vin, vout = np.vstack([0 * v[0], v]), np.vstack([v, 0 * v[0]])
    for k, ta in enumerate(tg.info["arrive"], start=1):
        i = int(np.argmin(np.abs(tg.t - ta)))
        assert np.isclose(tg.t[i], ta)
        tol = 3 / 32 * tg.info["tacc"][k] * np.abs(vout[k] - vin[k])
        assert np.all(np.abs(tg.q[i] - VIA[k]) <= tol + 1e-9)
        if tacc == 0:
            assert np.allclose(tg.q[i], VIA[k])
    if tacc == 0:  # corners: velocity is right-continuous, forward differences are exact
        assert np.allclose(np.diff(tg.q, axis=0) / 0.05, tg.qd[:-1])
    else:
        fine = mstraj(VIA[1:], qdmax, None, VIA[0], 0.005, tacc)
        fd_check(fine.t, fine.q, fine.qd, fine.qdd, rtol=2e-2)  # jerk jumps: O(dt)


@settings(max_examples=25, deadline=None)
@given(via=st.lists(st.lists(st.floats(-5, 5), min_size=3, max_size=3), min_size=2, max_size=5),
       tacc=st.floats(0, 1), qdmax=st.floats(0.5, 3))
def test_mstraj_random_via_points(via, tacc, qdmax):
    via = np.array(via)
    tg = mstraj(via, qdmax, None, None, 0.1, tacc)  # q0=None: first row is the start
    assert np.array_equal(tg.q[0], via[0]) and np.allclose(tg.q[-1], via[-1])
    assert np.all(np.abs(tg.qd) <= qdmax * (1 + 1e-9))
    assert np.all(np.isfinite(tg.q))
    for k, ta in enumerate(tg.info["arrive"], start=1):
        i = int(np.argmin(np.abs(tg.t - ta)))
        assert np.all(np.abs(tg.q[i] - via[k]) <= 3 / 32 * tg.info["tacc"][k] * 2 * qdmax + 1e-9)


@pytest.mark.parametrize("tacc", [0.2, 0.4, 0.6])
def test_mstraj_segments_shorter_than_the_blend(tacc):
    """Via points closer together than a blend needs: each such segment is stretched to the
    half-blends at its two ends, the speed limit holds everywhere, and the times add up."""
    dt = 0.01
    qdmax = np.array([1.0, 0.5])
    via = np.array([[0.01, 0.0], [0.02, 0.01], [0.5, 0.4], [0.5, 0.41], [0.0, 0.0]])
    q0 = np.zeros(2)
    tg = mstraj(via, qdmax, None, q0, dt, tacc)
    W = np.vstack([q0, via])
    # segment times: the slowest axis at full speed, but never shorter than the blends need
    move = np.ceil(np.max(np.abs(np.diff(W, axis=0)) / qdmax, axis=1) / dt - 1e-9) * dt
    ta = np.ceil(tacc / (2 * dt) - 1e-9) * 2 * dt
    expected = np.maximum(move, ta)
    np.testing.assert_allclose(tg.info["tseg"], expected, atol=1e-12)
    assert np.sum(move < ta) == 3                              # three short segments here
    np.testing.assert_allclose(np.diff(np.r_[ta / 2, tg.info["arrive"]]), expected, atol=1e-12)
    np.testing.assert_allclose(tg.t[-1], expected.sum() + ta, atol=1e-9)
    # the speed limit, as reported and as measured between samples
    assert np.all(np.abs(tg.qd) <= qdmax + 1e-12)
    assert np.all(np.abs(np.diff(tg.q, axis=0)) / dt <= qdmax + 1e-9)
    # in the blends of short segments the path still starts and ends where it should
    assert np.array_equal(tg.q[0], q0) and np.allclose(tg.q[-1], via[-1], atol=1e-12)
    assert np.allclose(tg.qd[[0, -1]], 0)


def test_mstraj_tseg_and_errors():
    tg = mstraj(VIA[1:], None, [2, 2, 3], VIA[0], 0.1, 0.4)
    assert np.allclose(tg.info["arrive"], 0.2 + np.array([2, 4, 7]))
    assert np.isclose(tg.t[-1], 7.4)
    with pytest.raises(ValueError, match="exactly one"):
        mstraj(VIA, 1, [1, 1, 1], None, 0.1, 0.2)
    with pytest.raises(ValueError, match="exactly one"):
        mstraj(VIA, None, None, None, 0.1, 0.2)
    with pytest.raises(ValueError, match="tseg: expected 3 segment times"):
        mstraj(VIA, None, [1, 1], None, 0.1, 0.2)
    with pytest.raises(ValueError, match="tseg: segment 1 lasts"):
        mstraj(VIA, None, [2, 0.2, 2], None, 0.1, 1)
    with pytest.raises(ValueError, match="tseg: expected positive"):
        mstraj(VIA, None, [2, -1, 2], None, 0.1, 0.1)
    with pytest.raises(ValueError, match="dt: expected a positive"):
        mstraj(VIA, 1, None, None, -0.1, 0.2)
    with pytest.raises(ValueError, match="tacc: expected acceleration times >= 0"):
        mstraj(VIA, 1, None, None, 0.1, -1)
    with pytest.raises(ValueError, match="qdmax: expected positive"):
        mstraj(VIA, [1, 0], None, None, 0.1, 0.2)
    with pytest.raises(ValueError, match="q0: expected a vector of 2"):
        mstraj(VIA, 1, None, [1, 2, 3], 0.1, 0.2)
    with pytest.raises(ValueError, match="viapoints: expected finite"):
        mstraj(np.array([[0, 0], [1, np.nan]]), 1, None, None, 0.1, 0.2)


# ----------------------------------------------------------- bad input ---

def test_time_argument_errors():
    with pytest.raises(ValueError, match=r"t: expected a strictly increasing time vector, got t\[2\]"):
        tpoly(0, 1, [0, 1, 0.5, 2])
    with pytest.raises(ValueError, match="t: expected a strictly increasing"):
        lspb(0, 1, [2, 1, 0])  # negative duration
    with pytest.raises(ValueError, match="t: expected at least 2 samples, got 1"):
        jtraj([0], [1], 1)
    with pytest.raises(ValueError, match="t: expected an integer number of samples or a time vector"):
        tpoly(0, 1, 2.0)
    with pytest.raises(ValueError, match="t: expected finite"):
        tpoly(0, 1, [0, np.nan, 1])
    with pytest.raises(ValueError, match="q0: expected finite"):
        tpoly(np.nan, 1, 10)
    with pytest.raises(ValueError, match="qf: expected a vector of 2"):
        jtraj([0, 0], [1, 1, 1], 10)
    with pytest.raises(ValueError, match="qd1: expected a vector of 2"):
        jtraj([0, 0], [1, 1], 10, qd1=[1])
    with pytest.raises(TypeError, match="t: "):
        tpoly(0, 1, True)


# ------------------------------------------------------ trinterp, ctraj ---

def _rot(axis, a):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(a) * K + (1 - np.cos(a)) * K @ K


def _pose(axis, a, p):
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = _rot(axis, a), p
    return T


def _orthonormal(R):
    I = np.swapaxes(R, -1, -2) @ R
    return np.allclose(I, np.eye(3), atol=1e-12) and np.allclose(np.linalg.det(R), 1)


@settings(max_examples=30, deadline=None)
@given(ax0=st.lists(st.floats(-1, 1), min_size=3, max_size=3),
       ax1=st.lists(st.floats(-1, 1), min_size=3, max_size=3),
       a0=st.floats(-3, 3), a1=st.floats(-3, 3))
def test_trinterp_ends_exact_and_orthonormal(ax0, ax1, a0, a1):
    if np.linalg.norm(ax0) < 0.1 or np.linalg.norm(ax1) < 0.1:
        return
    T0, T1 = _pose(ax0, a0, [0.4, 0.2, 0]), _pose(ax1, a1, [-0.4, -0.2, 0.3])
    Ts = trinterp(T0, T1, np.linspace(0, 1, 11))
    assert Ts.shape == (11, 4, 4)
    assert np.array_equal(Ts[0], T0) and np.array_equal(Ts[-1], T1)
    assert _orthonormal(Ts[:, :3, :3])
    assert np.allclose(Ts[:, 3], [0, 0, 0, 1])
    assert np.allclose(Ts[5, :3, 3], (T0[:3, 3] + T1[:3, 3]) / 2)


def test_trinterp_constant_rate_and_shortest():
    R1 = _rot([0, 0, 1], 1.2)
    Rs = trinterp(None, R1, 5)  # rotations in, rotations out
    assert Rs.shape == (5, 3, 3)
    assert np.allclose(Rs[2], _rot([0, 0, 1], 0.6))
    # Rz(-2) to Rz(2): the long way is through 0, the short way through pi
    Ra, Rb = _rot([0, 0, 1], -2), _rot([0, 0, 1], 2)
    mid_short = trinterp(Ra, Rb, 0.5)
    mid_long = trinterp(Ra, Rb, 0.5, shortest=False)
    assert np.allclose(mid_short, _rot([0, 0, 1], np.pi))
    assert np.allclose(mid_long, np.eye(3))
    assert trinterp(np.eye(4), _pose([1, 0, 0], 1, [1, 2, 3]), 0.25).shape == (4, 4)


def test_trinterp_errors():
    T = _pose([1, 0, 0], 1, [1, 2, 3])
    with pytest.raises(ValueError, match=r"s: expected path fractions in \[0, 1\], got 1.5"):
        trinterp(None, T, [0, 1.5])
    with pytest.raises(ValueError, match=r"T0: expected shape \(4, 4\) like T1"):
        trinterp(np.eye(3), T, 0.5)
    with pytest.raises(ValueError, match="T1"):
        trinterp(None, np.ones((4, 4)), 0.5)
    with pytest.raises(ValueError, match="s: expected finite"):
        trinterp(None, T, [0, np.nan])


def test_ctraj_follows_the_lspb_path_fraction():
    """Independently of speeds: the origin is at t0 + s(t) (t1 - t0) with s the lspb profile,
    and the orientation is SLERP at the same s (trinterp)."""
    T0 = _pose([0, 0, 1], 3, [0.4, 0.2, 0])
    T1 = _pose([1, -1, 0.5], 1.5, [-0.4, -0.2, 0.3])
    t = np.linspace(0, 2, 41)
    s = lspb(0, 1, t).q
    Ts = ctraj(T0, T1, t)
    np.testing.assert_allclose(Ts[:, :3, 3], T0[:3, 3] + s[:, None] * (T1[:3, 3] - T0[:3, 3]), atol=1e-12)
    np.testing.assert_allclose(Ts, trinterp(T0, T1, s), atol=1e-12)
    assert not np.allclose(s, np.linspace(0, 1, 41))          # not a uniform fraction


def test_mstraj_arrivals_are_samples_and_blends_even():
    """tacc is rounded up to a multiple of 2 dt, so every blend starts and ends on a sample
    and each nominal arrival time is a sample time."""
    dt = 0.05
    tg = mstraj(VIA[1:], [2.0, 1.0], None, VIA[0], dt, 0.12)
    np.testing.assert_allclose(tg.info["tacc"], 0.2, atol=1e-12)          # 0.12 -> 2 x 0.1
    for ta in tg.info["arrive"]:
        k = np.flatnonzero(np.isclose(tg.t, ta, atol=1e-9))
        assert k.size == 1
        for edge in (ta - 0.1, ta + 0.1):                              # the blend's ends are samples
            assert np.any(np.isclose(tg.t, edge, atol=1e-9))


def test_ctraj_ends_smooth_and_on_path():
    T0 = _pose([0, 0, 1], 3, [0.4, 0.2, 0])
    T1 = _pose([1, -1, 0.5], 1.5, [-0.4, -0.2, 0.3])
    Ts = ctraj(T0, T1, 50)
    assert Ts.shape == (50, 4, 4)
    assert np.array_equal(Ts[0], T0) and np.array_equal(Ts[-1], T1)
    assert _orthonormal(Ts[:, :3, :3])
    # lspb time law: speed zero at both ends, largest in the middle
    t = np.linspace(0, 2, 201)
    Ts = ctraj(T0, T1, t)
    p = Ts[:, :3, 3]
    speed = np.linalg.norm(np.gradient(p, t, axis=0), axis=1)
    assert speed[0] < 0.05 * speed.max() and speed[-1] < 0.05 * speed.max()
    # positions lie on the straight line from t0 to t1
    d = (p - T0[:3, 3]) @ (T1[:3, 3] - T0[:3, 3]) / np.sum((T1[:3, 3] - T0[:3, 3]) ** 2)
    assert np.allclose(p, T0[:3, 3] + d[:, None] * (T1[:3, 3] - T0[:3, 3]))
    with pytest.raises(ValueError, match="t: expected a strictly increasing"):
        ctraj(T0, T1, [0, 1, 1])


def test_lspb_default_velocity_for_a_decreasing_move():
    """Default V = 1.5 (qf - q0)/T, signed: blends of T/3, cruise at -1.5, ends at rest at qf."""
    t = np.linspace(0, 3, 301)
    tg = lspb(2.0, -1.0, t)
    assert np.isclose(tg.info["tblend"], 1.0) and np.isclose(tg.info["V"], -1.5)
    assert tg.q[0] == 2.0 and np.isclose(tg.q[-1], -1.0) and abs(tg.qd[-1]) < 1e-12
    np.testing.assert_allclose(tg.qd[(t > 1.01) & (t < 1.99)], -1.5)
    assert np.all(np.diff(tg.q) <= 1e-12)
