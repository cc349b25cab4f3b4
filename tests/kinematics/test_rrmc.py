"""Resolved-rate motion control (8.3): open-loop drift, closed-loop convergence, damping near a singularity."""

import warnings

import numpy as np
import pytest

import rvc
from rvc import RRMC, ctraj, rrmc, rrmc2, transl, trexp
from rvc.models import baxter, planar2, puma560


def near_wrist_singularity():
    """The Puma with q5 = 2 deg, and a goal turned 0.5 rad about the direction the wrist has lost."""
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(2)
    U = np.linalg.svd(p560.jacob0(q))[0]
    w = U[3:, -1] / np.linalg.norm(U[3:, -1])
    T0 = p560.fkine(q)
    goal = T0.copy()
    goal[:3, :3] = trexp(0.5 * w) @ T0[:3, :3]
    return p560, q, goal


def test_open_loop_follows_the_command_and_drifts():
    """sl_rrmc: 0.05 m/s along world y.  Every step's rates give exactly the commanded velocity,
    yet the tool leaves the line, and by O(dt): halving dt halves the drift."""
    p560 = puma560()
    v = [0, 0.05, 0, 0, 0, 0]
    r = rrmc(p560, p560.qn, v, dt=0.05, steps=100)
    assert isinstance(r, RRMC) and r.q.shape == (100, 6) and r.T.shape == (100, 4, 4) and r.e is None
    np.testing.assert_allclose(r.t, np.arange(100) * 0.05)
    np.testing.assert_allclose(r.v, np.tile(v, (100, 1)), atol=1e-12)
    np.testing.assert_allclose(r.T, p560.fkine(r.q), atol=1e-15)
    np.testing.assert_allclose(r.q[1:], r.q[:-1] + 0.05 * r.qd[:-1], atol=1e-15)
    moved = r.T[-1, :3, 3] - r.T[0, :3, 3]
    assert moved[1] == pytest.approx(0.05 * 4.95, rel=1e-2)
    drift = np.linalg.norm(moved[[0, 2]])
    assert 1e-5 < drift < 5e-3
    r2 = rrmc(p560, p560.qn, v, dt=0.025, steps=199)
    drift2 = np.linalg.norm((r2.T[-1, :3, 3] - r2.T[0, :3, 3])[[0, 2]])
    assert drift2 == pytest.approx(drift / 2, rel=0.1)
    t, q, qd = r                                          # unpacks as t, q, qd
    assert q is r.q and qd is r.qd


def test_closed_loop_converges_geometrically():
    """sl_rrmc2: the error shrinks by 1 - K dt per step near the goal, to round-off."""
    p560 = puma560()
    goal = transl(0.05, -0.1, 0.1) @ p560.fkine(p560.qn)
    r = rrmc2(p560, p560.qn, goal, gain=5, dt=0.05, steps=80)
    err = np.linalg.norm(r.e, axis=-1)
    assert err[-1] < 1e-9
    assert np.all(np.diff(err) < 0)
    ratio = err[41:61] / err[40:60]
    np.testing.assert_allclose(ratio, 1 - 5 * 0.05, atol=1e-3)
    np.testing.assert_allclose(p560.fkine(r.q[-1]), goal, atol=1e-9)


def test_closed_loop_tracks_a_trajectory_and_corrects_the_drift():
    p560 = puma560()
    T0 = p560.fkine(p560.qn)
    path = ctraj(T0, transl(0, 0.25, 0) @ T0, 100)
    r = rrmc2(p560, p560.qn, path, gain=10, dt=0.05)
    assert r.q.shape == (100, 6)
    off = np.linalg.norm(r.T[:, :3, 3] - path[:, :3, 3], axis=-1)
    assert off.max() < 0.01 and off[-1] < 1e-3
    # the tool stays on the line: no drift off it (unlike the open loop)
    assert np.abs(r.T[:, [0, 2], 3] - T0[[0, 2], 3]).max() < 1e-4


def test_damping_tames_the_rates_near_a_singularity():
    """Close to q5 = 0, a rotation about the lost axis needs huge rates from the inverse;
    damped least squares bounds them (|qd| <= K |e| / (2 sqrt(lambda))) and still converges."""
    p560, q, goal = near_wrist_singularity()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rvc.SingularityWarning)
        inv = rrmc2(p560, q, goal, gain=2, dt=0.05, steps=60, method="inv")
        dls = rrmc2(p560, q, goal, gain=2, dt=0.05, steps=60, damping=0.01)
    assert inv.cond[0] > 100
    big, small = np.abs(inv.qd).max(), np.abs(dls.qd).max()
    assert big > 10 and small < 2 and big > 10 * small
    bound = 2 * np.linalg.norm(dls.e, axis=-1) / (2 * np.sqrt(0.01))
    assert np.all(np.linalg.norm(dls.qd, axis=-1) <= bound + 1e-12)
    assert np.linalg.norm(dls.e[-1]) < 0.01 and np.linalg.norm(inv.e[-1]) < 0.002
    assert np.linalg.norm(dls.e[-1]) > np.linalg.norm(inv.e[-1])     # the price: slower


def test_batched_runs_equal_single_runs():
    p560 = puma560()
    Q0 = p560.qn + np.random.default_rng(0).uniform(-0.2, 0.2, (3, 6))
    goal = p560.fkine(p560.qn)
    r = rrmc2(p560, Q0, goal, gain=3, steps=20)
    assert r.q.shape == (3, 20, 6) and r.T.shape == (3, 20, 4, 4) and r.cond.shape == (3, 20)
    one = rrmc2(p560, Q0[1], goal, gain=3, steps=20)
    np.testing.assert_allclose(r.q[1], one.q, atol=1e-12)
    np.testing.assert_allclose(r.e[1], one.e, atol=1e-12)
    ro = rrmc(p560, Q0, [0, 0, 0.02, 0, 0, 0], steps=5, frame="tool")
    np.testing.assert_allclose(ro.q[2], rrmc(p560, Q0[2], [0, 0, 0.02, 0, 0, 0], steps=5, frame="tool").q,
                               atol=1e-14)


def test_tool_frame_command():
    """frame='tool': the velocity is in the tool's axes (jacobe), here along its approach z."""
    p560 = puma560()
    r = rrmc(p560, p560.qn, [0, 0, 0.05, 0, 0, 0], frame="tool", steps=2, dt=0.01)
    T = p560.fkine(p560.qn)
    step = r.T[1, :3, 3] - r.T[0, :3, 3]
    np.testing.assert_allclose(step / np.linalg.norm(step), T[:3, 2], atol=1e-3)


def test_under_actuated_arm_controls_the_rows_it_can():
    """8.4.1: the planar arm controls (vx, vy) with axes=[1, 1, 0, 0, 0, 0] and reaches a point."""
    p2 = planar2()
    goal = transl(0.6, 1.2, 0)
    r = rrmc2(p2, [0.3, 1.2], goal, gain=10, steps=40, axes=[1, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(p2.fkine(r.q[-1])[:2, 3], [0.6, 1.2], atol=1e-9)
    assert np.abs(r.e[-1, 5]) > 0.01                  # the orientation is not controlled


def test_degrees():
    p560 = puma560()
    a = rrmc(p560, p560.qn, [0, 0.05, 0, 0, 0, 0], steps=5)
    b = rrmc(p560, np.degrees(p560.qn), [0, 0.05, 0, 0, 0, 0], steps=5, unit="deg")
    np.testing.assert_allclose(b.q, np.degrees(a.q), atol=1e-10)
    np.testing.assert_allclose(b.qd, np.degrees(a.qd), atol=1e-10)


def test_bad_input():
    p560 = puma560()
    T = p560.fkine(p560.qn)
    with pytest.raises(ValueError, match="q0: expected 6 joint coordinates"):
        rrmc(p560, [0, 0], np.zeros(6))
    with pytest.raises(ValueError, match="q0: expected finite"):
        rrmc2(p560, [0, 0, np.nan, 0, 0, 0], T)
    with pytest.raises(ValueError, match="v: expected shape"):
        rrmc(p560, p560.qn, np.zeros(3))
    with pytest.raises(ValueError, match=r"v: expected shape \(6,\) or \(5, 6\)"):
        rrmc(p560, p560.qn, np.zeros((4, 6)), steps=5)
    with pytest.raises(ValueError, match="dt: expected a positive sample time"):
        rrmc(p560, p560.qn, np.zeros(6), dt=0)
    with pytest.raises(ValueError, match="steps: expected at least 1"):
        rrmc(p560, p560.qn, np.zeros(6), steps=0)
    with pytest.raises(ValueError, match="gain: expected a positive gain"):
        rrmc2(p560, p560.qn, T, gain=-1)
    with pytest.raises(ValueError, match="Tstar"):
        rrmc2(p560, p560.qn, np.ones((4, 4)))
    with pytest.raises(ValueError, match="steps: expected 3"):
        rrmc2(p560, p560.qn, np.stack([T] * 3), steps=4)
    with pytest.raises(ValueError, match="method: expected one of 'inv', 'pinv', 'dls'"):
        rrmc2(p560, p560.qn, T, method="transpose")
    with pytest.raises(ValueError, match="axes: expected"):
        rrmc(p560, p560.qn, np.zeros(6), axes="xy")
    with pytest.raises(ValueError, match="frame: expected one of 'world', 'tool'"):
        rrmc(p560, p560.qn, np.zeros(6), frame="base")
    with pytest.raises(ValueError, match="qd_null: expected 7 joint coordinates"):
        rrmc2(baxter(), baxter().qn, T, qd_null=np.zeros(6))
