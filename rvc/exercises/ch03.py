"""The Chapter 3 exercises (time and motion, ``notebooks/03_time_motion.ipynb``), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which never reveal the expected value.

Tolerances that differ from the policy (``rvc.exercises``), kept from the
checkers they replace: 3.3-3.5 compare absolutely (``rtol=0``, within 1e-6),
as the comparison they were written with did; 3.7 and 3.8 take 1e-3 relative
(``atol=0``): 3.7's peak may be measured by sampling the path, and 3.8's
angles are small differences of long products.  (3.7's mistakes were once
recognised within 1e-3 of the *expected* peak; now, like every mistake,
within the band around their own value.)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from . import ArrayAnswer, Custom, Mistake, Numeric, When, describe_shape, same
from .. import (jtraj, lspb, qangle, r2q, roty, rotz, rpy2jac, rpy2tr, skew, tpoly, tr2angvec, transl,
                trexp, trnorm, wrench_transform)

__all__: list[str] = []

# --- the data of the exercise statements ---------------------------------------

_T_3_1 = np.linspace(0, 2, 101)
_T_3_2, _V_3_2 = 2.0, 0.7
_Q0_3_3, _QF_3_3, _T_3_3 = [0, 0.5, -1], [1, -0.5, 2], np.linspace(0, 3, 301)
_RPY_3_4, _RATES_3_4 = np.array([0.1, 0.2, 0.3]), np.array([0.5, -0.2, 0.1])


def _expected_3_3():
    return np.abs(jtraj(_Q0_3_3, _QF_3_3, _T_3_3).qd).max(axis=0)


def _wrench_3_5():
    """(T_0B, the wrench in the world frame, the wrench in the wrist frame)."""
    T_0B = transl(0.5, 0.1, 0.3) @ rpy2tr(0, np.pi / 2, 0)
    p, f = np.array([0.6, 0.1, 0.2]), np.array([0.0, 0.0, 10.0])
    w_0 = np.concatenate([f, np.cross(p, f)])
    return T_0B, w_0, wrench_transform(T_0B, w_0)


# ------------------------------------------------------------------ 3.6 ---
_CORNERS = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
_SPEED, _ACCEL, _TOL, _TMAX = 0.5, 2.0, 0.05, 10.0


def _check_3_6(answer):
    """The pen's square against the task's limits (the corners, speed, acceleration, time)."""
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


def _R_3_7():
    return rotz(-1) @ roty(-1), rotz(1) @ roty(1)


_T_3_7 = 2.0


def _angle_3_7():
    """SLERP turns by this angle about one axis."""
    R0, R1 = _R_3_7()
    return float(qangle(r2q(R0), r2q(R1)))


def _peak_3_7():
    return _angle_3_7() * 15 / 8 / _T_3_7           # times the peak of ds/dt of a quintic


_W_3_8, _DT_3_8, _N_3_8 = np.array([0.3, -0.2, 0.9]), 0.01, 1000


@cache
def _gyro_3_8():
    """Angle to the exact orientation after N first-order steps, trnorm once and every step."""
    A = np.eye(3) + _DT_3_8 * skew(_W_3_8)
    exact = trexp(skew(_W_3_8), _N_3_8 * _DT_3_8)
    once = trnorm(np.linalg.matrix_power(A, _N_3_8))
    every = np.eye(3)
    for _ in range(_N_3_8):                             # the sequential update is the point here
        every = trnorm(every @ A)
    return np.array([tr2angvec(once.T @ exact)[0], tr2angvec(every.T @ exact)[0]])


def _which_3_8(a):
    """The fallback of 3.8: which of the two angles is off."""
    expected = _gyro_3_8()
    bad = [k for k in range(2) if not np.isclose(a[k], expected[k], rtol=1e-3, atol=0)]
    which = " and ".join(["normalising once at the end", "normalising every step"][k] for k in bad)
    return (f"not the angle for {which}: compare with the exact orientation after 10 s, "
            "e^{10 [w]x}, through the rotation that takes one to the other")


# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    Numeric(
        "3.1", expected=lambda: tpoly(0.2, 1.4, _T_3_1, qd0=0.5, qdf=0).qd[50],
        what="a velocity in rad/s",
        mistakes=[
            Mistake(lambda: tpoly(0.2, 1.4, _T_3_1).qd[50],
                    "that is the mid-way velocity of a quintic that starts at rest; pass the initial "
                    "velocity too"),
            Mistake(lambda: tpoly(0.2, 1.4, 101, qd0=0.5).qd[50],
                    "with an integer number of samples the time unit is one step; pass the time vector t"),
        ],
        fallback="not the velocity at t = 1 s; read qd at the sample where t equals 1"),
    Numeric(
        "3.2", expected=lambda: lspb(0, 1, np.linspace(0, _T_3_2, 201), V=_V_3_2).info["tblend"],
        what="a time in seconds",
        mistakes=[
            Mistake(1 / _V_3_2, "that is how long the distance takes at the cruise velocity; the blend "
                                "time is what is left of T"),
            When(lambda x: not 0 < x < _T_3_2 / 2, "each blend is shorter than half the motion and longer "
                                                   "than zero", example=1.5),
        ],
        fallback="not the blend time; the lspb result carries it, or use t_b = T - (qf - q0)/V"),
    ArrayAnswer(
        "3.3", expected=_expected_3_3, what="array of peak speeds", rtol=0,
        mistakes=[
            Mistake(lambda: np.abs(np.subtract(_QF_3_3, _Q0_3_3)) / 3,
                    "those are the average speeds; the quintic's peak is higher, in the middle of the "
                    "motion"),
            When(lambda a: same(np.abs(a), _expected_3_3()), "give speeds, i.e. magnitudes (absolute values)",
                 shape=(3,), example=lambda: -_expected_3_3()),
            Mistake(lambda: np.abs(jtraj(_Q0_3_3, _QF_3_3, 301).qd).max(axis=0),
                    "with an integer number of samples jtraj uses normalised time; pass the time vector t"),
        ]),
    ArrayAnswer(
        "3.4", expected=lambda: rpy2jac(_RPY_3_4) @ _RATES_3_4, what="angular velocity", rtol=0,
        mistakes=[
            Mistake(_RATES_3_4, "the angle rates are not an angular velocity: each rate turns about a "
                                "different, moving axis; map them with the Jacobian"),
            Mistake(lambda: rpy2jac(_RPY_3_4).T @ _RATES_3_4,
                    "the Jacobian multiplies the rates (not its transpose or inverse)"),
            Mistake(lambda: np.linalg.solve(rpy2jac(_RPY_3_4), _RATES_3_4),
                    "the Jacobian multiplies the rates (not its transpose or inverse)"),
        ]),
    ArrayAnswer(
        "3.5", expected=lambda: _wrench_3_5()[2], what="wrench", rtol=0,
        mistakes=[
            When(lambda a: same(a[:3], _wrench_3_5()[2][:3]) and np.allclose(a[3:], 0, atol=1e-9),
                 shape=(6,), example=lambda: np.r_[_wrench_3_5()[2][:3], np.zeros(3)],
                 hint="the force is right, but a force acting away from the wrist also produces a moment "
                      "about it"),
            When(lambda a: same(a[:3], _wrench_3_5()[2][:3]), shape=(6,),
                 example=lambda: np.r_[_wrench_3_5()[2][:3], np.ones(3)],
                 hint="the force is right but the moment is not; take the moment about the world origin "
                      "first"),
            When(lambda a: same(a[3:], _wrench_3_5()[2][3:]), shape=(6,),
                 example=lambda: np.r_[np.ones(3), _wrench_3_5()[2][3:]],
                 hint="the moment is right but the force is not; express it in the wrist's axes"),
            Mistake(lambda: _wrench_3_5()[1], "that is the wrench in the world frame; transform it to the "
                                              "wrist frame"),
        ]),
    Custom("3.6", _check_3_6),
    Numeric(
        "3.7", expected=_peak_3_7, what="an angular speed in rad/s", rtol=1e-3, atol=0,
        mistakes=[
            Mistake(lambda: _angle_3_7() / _T_3_7,
                    "that is the average turning rate; the quintic time law is fastest in the middle"),
            Mistake(lambda: _angle_3_7() * 15 / 8,
                    "ds/dt has units of 1/s: the time law runs over the whole duration, not over one second"),
            Mistake(lambda: (2 * np.pi - _angle_3_7()) * 15 / 8 / _T_3_7,
                    "SLERP along the shorter arc: the two orientations are less than half a turn apart"),
            Mistake(lambda: np.degrees(_peak_3_7()), "give the speed in rad/s, not degrees per second"),
        ],
        fallback="not the peak rate; along the SLERP path the frame turns about one fixed axis, so its "
                 "angular speed is the total angle times the rate of the path fraction s"),
    ArrayAnswer(
        "3.8", expected=_gyro_3_8, what="two angles", rtol=1e-3, atol=0, shape=(2,),
        shape_hint="expected two angles, [normalised once, normalised every step], got {got}",
        mistakes=[
            Mistake(lambda: _gyro_3_8()[::-1],
                    "the two angles are swapped: first normalising once at the end, then at every step"),
            When(lambda a: np.any(a < 0), "an angle between two orientations is never negative",
                 example=[-0.01, 0.01]),
            When(lambda a: np.all(a < 1e-6), example=[0.0, 0.0],
                 hint="your orientation is exact: the exercise is about the first-order update "
                      "R (I + dt [w]x), whose small error builds up over the steps"),
        ],
        fallback=_which_3_8),
]


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "expected the Trajectory that mstraj returns (with t, q, qd, qdd), got {got}",
    "expected a 2-axis trajectory: q, qd, qdd of shape (N, 2) with N times t",
    "the trajectory contains NaN or inf",
    "sample the trajectory every 0.02 s (dt)",
    "the pen must start at (0, 0)",
    "the pen must return exactly to (0, 0): make it the last via point",
    "the pen passes too far from {corners}: are all corners via points, in order? If so, the blends are "
    "too long",
    "an axis moves faster than the speed limit",
    "an axis accelerates harder than the motors allow: the blends are too short",
    "the drawing takes too long: move at the maximum speed",
    "not the angle for {which}: compare with the exact orientation after 10 s, e^{10 [w]x}, through the "
    "rotation that takes one to the other",
    "normalising once at the end",
    "normalising every step",
    "normalising once at the end and normalising every step",
)
