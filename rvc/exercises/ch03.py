"""Checkers for the Chapter 3 exercises (time and motion).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that never reveals the expected value.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import close, describe_shape, exercise
from .. import (jtraj, lspb, qangle, r2q, roty, rotz, rpy2jac, rpy2tr, skew, tpoly, tr2angvec, transl,
                trexp, trnorm, wrench_transform)


def _number(answer):
    """The answer as a float, or None if it is not a single number."""
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None
    if a.size != 1:
        return None
    return float(a.reshape(()))


# ------------------------------------------------------------------ 3.1 ---
@exercise("3.1")
def _(answer):
    x = _number(answer)
    if x is None:
        return f"expected a single number (a velocity in rad/s), got {describe_shape(answer)}"
    t = np.linspace(0, 2, 101)
    expected = tpoly(0.2, 1.4, t, qd0=0.5, qdf=0).qd[50]
    if abs(x - expected) <= 1e-6:
        return None
    if abs(x - tpoly(0.2, 1.4, t).qd[50]) <= 1e-6:
        return "that is the mid-way velocity of a quintic that starts at rest; pass the initial velocity too"
    if abs(x - tpoly(0.2, 1.4, 101, qd0=0.5).qd[50]) <= 1e-6:
        return "with an integer number of samples the time unit is one step; pass the time vector t"
    return "not the velocity at t = 1 s; read qd at the sample where t equals 1"


# ------------------------------------------------------------------ 3.2 ---
@exercise("3.2")
def _(answer):
    x = _number(answer)
    if x is None:
        return f"expected a single number (a time in seconds), got {describe_shape(answer)}"
    T, V = 2.0, 0.7
    expected = lspb(0, 1, np.linspace(0, T, 201), V=V).info["tblend"]
    if abs(x - expected) <= 1e-6:
        return None
    if abs(x - 1 / V) <= 1e-6:
        return "that is how long the distance takes at the cruise velocity; the blend time is what is left of T"
    if not 0 < x < T / 2:
        return "each blend is shorter than half the motion and longer than zero"
    return "not the blend time; the lspb result carries it, or use t_b = T - (qf - q0)/V"


# ------------------------------------------------------------------ 3.3 ---
@exercise("3.3")
def _(answer):
    q0, qf, t = [0, 0.5, -1], [1, -0.5, 2], np.linspace(0, 3, 301)
    expected = np.abs(jtraj(q0, qf, t).qd).max(axis=0)
    hint = close(answer, expected, what="array of peak speeds")
    if hint is None:
        return None
    a = np.asarray(answer, dtype=float) if np.ndim(answer) else None
    if a is not None and a.shape == (3,):
        if np.allclose(a, np.abs(np.subtract(qf, q0)) / 3, atol=1e-6):
            return "those are the average speeds; the quintic's peak is higher, in the middle of the motion"
        if np.allclose(np.abs(a), expected, atol=1e-6):
            return "give speeds, i.e. magnitudes (absolute values)"
        if np.allclose(a, np.abs(jtraj(q0, qf, 301).qd).max(axis=0), atol=1e-6):
            return "with an integer number of samples jtraj uses normalised time; pass the time vector t"
    return hint


# ------------------------------------------------------------------ 3.4 ---
@exercise("3.4")
def _(answer):
    rpy = np.array([0.1, 0.2, 0.3])
    rates = np.array([0.5, -0.2, 0.1])
    expected = rpy2jac(rpy) @ rates
    hint = close(answer, expected, what="angular velocity")
    if hint is None:
        return None
    a = np.asarray(answer, dtype=float) if np.ndim(answer) else None
    if a is not None and a.shape == (3,):
        if np.allclose(a, rates, atol=1e-6):
            return ("the angle rates are not an angular velocity: each rate turns about a different, "
                    "moving axis; map them with the Jacobian")
        if np.allclose(a, rpy2jac(rpy).T @ rates, atol=1e-6) or \
                np.allclose(a, np.linalg.solve(rpy2jac(rpy), rates), atol=1e-6):
            return "the Jacobian multiplies the rates (not its transpose or inverse)"
    return hint


# ------------------------------------------------------------------ 3.5 ---
@exercise("3.5")
def _(answer):
    T_0B = transl(0.5, 0.1, 0.3) @ rpy2tr(0, np.pi / 2, 0)
    p, f = np.array([0.6, 0.1, 0.2]), np.array([0.0, 0.0, 10.0])
    w_0 = np.concatenate([f, np.cross(p, f)])
    expected = wrench_transform(T_0B, w_0)
    hint = close(answer, expected, what="wrench")
    if hint is None:
        return None
    a = np.asarray(answer, dtype=float) if np.ndim(answer) else None
    if a is not None and a.shape == (6,):
        if np.allclose(a[:3], expected[:3], atol=1e-6):
            if np.allclose(a[3:], 0, atol=1e-9):
                return ("the force is right, but a force acting away from the wrist also produces "
                        "a moment about it")
            return "the force is right but the moment is not; take the moment about the world origin first"
        if np.allclose(a[3:], expected[3:], atol=1e-6):
            return "the moment is right but the force is not; express it in the wrist's axes"
        if np.allclose(a, w_0, atol=1e-6):
            return "that is the wrench in the world frame; transform it to the wrist frame"
    return hint


# ------------------------------------------------------------------ 3.6 ---
_CORNERS = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
_SPEED, _ACCEL, _TOL, _TMAX = 0.5, 2.0, 0.05, 10.0


@exercise("3.6")
def _(answer):
    try:
        t = np.asarray(answer.t, dtype=float)
        q = np.asarray(answer.q, dtype=float)
        qd = np.asarray(answer.qd, dtype=float)
        qdd = np.asarray(answer.qdd, dtype=float)
    except AttributeError:
        return f"expected the Trajectory that mstraj returns (with t, q, qd, qdd), got {describe_shape(answer)}"
    n = len(t)
    if t.ndim != 1 or n < 2 or any(x.shape != (n, 2) for x in (q, qd, qdd)):
        return "expected a 2-axis trajectory: q, qd, qdd of shape (N, 2) with N times t"
    if not np.all(np.isfinite(q)) or not np.all(np.isfinite(qd)) or not np.all(np.isfinite(qdd)):
        return "the trajectory contains NaN or inf"
    if np.max(np.diff(t)) > 0.02 + 1e-9:
        return "sample the trajectory every 0.02 s (dt)"
    if not np.allclose(q[0], 0, atol=1e-9):
        return "the pen must start at (0, 0)"
    if not np.allclose(q[-1], 0, atol=1e-9):
        return "the pen must return exactly to (0, 0): make it the last via point"
    miss = np.linalg.norm(q[None, :, :] - _CORNERS[:, None, :], axis=2).min(axis=1)
    far = np.flatnonzero(miss > _TOL)
    if far.size:
        names = ", ".join(f"({x:g}, {y:g})" for x, y in _CORNERS[far])
        return (f"the pen passes too far from {names}: are all corners via points, in order? "
                "If so, the blends are too long")
    if np.abs(qd).max() > _SPEED + 1e-9:
        return "an axis moves faster than the speed limit"
    # measured, not only reported: a velocity jump (tacc = 0) has no qdd sample
    qdd_fd = np.diff(qd, axis=0) / np.diff(t)[:, None]
    if max(np.abs(qdd).max(), np.abs(qdd_fd).max()) > _ACCEL + 1e-9:
        return "an axis accelerates harder than the motors allow: the blends are too short"
    if t[-1] - t[0] > _TMAX + 1e-9:
        return "the drawing takes too long: move at the maximum speed"
    return None


# ------------------------------------------------------------------ 3.7 ---
def _R_3_7():
    return rotz(-1) @ roty(-1), rotz(1) @ roty(1)


_T_3_7 = 2.0


@exercise("3.7")
def _(answer):
    x = _number(answer)
    if x is None:
        return f"expected a single number (an angular speed in rad/s), got {describe_shape(answer)}"
    R0, R1 = _R_3_7()
    angle = float(qangle(r2q(R0), r2q(R1)))            # SLERP turns by this angle about one axis
    peak = angle * 15 / 8 / _T_3_7                     # times the peak of ds/dt of a quintic
    if abs(x - peak) <= 1e-3 * peak:
        return None
    if abs(x - angle / _T_3_7) <= 1e-3 * peak:
        return "that is the average turning rate; the quintic time law is fastest in the middle"
    if abs(x - angle * 15 / 8) <= 1e-3 * peak:
        return "ds/dt has units of 1/s: the time law runs over the whole duration, not over one second"
    if abs(x - (2 * np.pi - angle) * 15 / 8 / _T_3_7) <= 1e-3 * peak:
        return "SLERP along the shorter arc: the two orientations are less than half a turn apart"
    if abs(x - np.degrees(peak)) <= 1e-3 * np.degrees(peak):
        return "give the speed in rad/s, not degrees per second"
    return ("not the peak rate; along the SLERP path the frame turns about one fixed axis, so its "
            "angular speed is the total angle times the rate of the path fraction s")


# ------------------------------------------------------------------ 3.8 ---
_W_3_8, _DT_3_8, _N_3_8 = np.array([0.3, -0.2, 0.9]), 0.01, 1000


@lru_cache(maxsize=None)
def _gyro_3_8():
    """Angle to the exact orientation after N first-order steps, trnorm once and every step."""
    A = np.eye(3) + _DT_3_8 * skew(_W_3_8)
    exact = trexp(skew(_W_3_8), _N_3_8 * _DT_3_8)
    once = trnorm(np.linalg.matrix_power(A, _N_3_8))
    every = np.eye(3)
    for _ in range(_N_3_8):                             # the sequential update is the point here
        every = trnorm(every @ A)
    return np.array([tr2angvec(once.T @ exact)[0], tr2angvec(every.T @ exact)[0]])


@exercise("3.8")
def _(answer):
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return f"expected two angles (rad), got {describe_shape(answer)}"
    if a.shape != (2,):
        return f"expected two angles, [normalised once, normalised every step], got {describe_shape(answer)}"
    expected = _gyro_3_8().copy()
    if np.allclose(a, expected, rtol=1e-3, atol=0):
        return None
    if np.allclose(a, expected[::-1], rtol=1e-3, atol=0):
        return "the two angles are swapped: first normalising once at the end, then at every step"
    if np.any(a < 0):
        return "an angle between two orientations is never negative"
    if np.all(a < 1e-6):
        return ("your orientation is exact: the exercise is about the first-order update "
                "R (I + dt [w]x), whose small error builds up over the steps")
    bad = [k for k in range(2) if not np.isclose(a[k], expected[k], rtol=1e-3, atol=0)]
    which = " and ".join(["normalising once at the end", "normalising every step"][k] for k in bad)
    return (f"not the angle for {which}: compare with the exact orientation after 10 s, "
            "e^{10 [w]x}, through the rotation that takes one to the other")
