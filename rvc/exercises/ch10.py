"""Checkers for the Chapter 10 exercises (dynamics of elastic parallel manipulators).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that never reveals the expected value.
The exercise statements are in ``notebooks/10_elastic_parallel.ipynb``; the
constants below are the ones the statements give.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import close, describe_shape, exercise

# --- the data of the exercise statements ------------------------------------

EX101 = dict(x=(0.05, 0.35))
EX102 = dict(x=(0.08, 0.30))
EX103 = dict(x0=(0.0, 0.40), x1=(0.10, 0.35), duration=0.25, samples=251)
EX104 = dict(frequency=40.0)
EX105 = dict(x=(0.10, 0.30))
EX106 = dict(y=(0.10, 0.55))
EX107 = dict(x=(0.05, 0.38), qe=(0.01, -0.005), qd=(0.5, -2.0, 0.3, 1.0), tau=(0.8, -0.4))


def _robot(**kw):
    from ..parallel import FiveBar

    return FiveBar(**kw)


@lru_cache(maxsize=None)
def _default():
    return _robot()


def _undeflected(robot, x):
    return robot.assemble(robot.ikine_rigid(x), np.zeros(len(robot.ie)))


def _scalar(answer, what):
    """(value, hint): a finite float, or a hint about what came instead."""
    a = np.asarray(answer, dtype=float) if not isinstance(answer, (str, bytes)) else None
    if a is None or a.size != 1:
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    v = float(a.reshape(()))
    if not np.isfinite(v):
        return None, f"your {what} is NaN or inf"
    return v, None


def _array(answer, shape, what):
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, f"expected {what}, got {describe_shape(answer)}"
    if a.shape != shape:
        return None, f"expected {what} of shape {shape}, got {describe_shape(answer)}"
    if not np.all(np.isfinite(a)):
        return None, f"your {what} contains NaN or inf"
    return a, None


# --- 10.1 W by hand -----------------------------------------------------------

@exercise("10.1")
def _(answer):
    robot = _default()
    q = _undeflected(robot, EX101["x"])
    W = robot.W(q)
    a, hint = _array(answer, W.shape, "W, tree rows by compact columns,")
    if hint:
        if np.shape(answer) == W.T.shape:
            return "your matrix is transposed: W maps compact rates (4) to tree rates (6)"
        return hint
    if np.allclose(a, W, atol=1e-9):
        return None
    flipped = W.copy()
    flipped[robot.ip] *= -1
    if np.allclose(a, flipped, atol=1e-9):
        return "the passive rows have the wrong sign: A_c qd_c + A_p qd_p = 0"
    stacked = np.concatenate([W[robot.ic], W[robot.ip]])
    if np.allclose(a, stacked, atol=1e-9):
        return "the rows must be in tree order (a1, e1, p1, a2, e2, p2), not identity block on top"
    return "the passive rows are -A_p^-1 A_c, the others the identity, with A = robot.A(q) at this pose"


# --- 10.2 the cut force ----------------------------------------------------------

@exercise("10.2")
def _(answer):
    robot = _default()
    q = _undeflected(robot, EX102["x"])
    z = np.zeros(robot.n_compact)
    _, lam = robot.inverse_dynamics(q, z, z, "lagrange", multipliers=True)
    a, hint = _array(answer, (2,), "a force (fx, fy) in N")
    if hint:
        return hint
    if np.allclose(a, lam, atol=1e-8):
        return None
    if np.allclose(a, -lam, atol=1e-8):
        return "that is the force on chain 2's tip; the multipliers act on chain 1's tip (A = [J1, -J2])"
    return ("at rest only gravity acts: solve the passive rows of the tree's equations, "
            "A_p^T lambda = eta_p, for lambda")


# --- 10.3 virtual spring torques of a rigid plan --------------------------------

@lru_cache(maxsize=None)
def _ex103():
    from ..parallel import rigid_plan

    robot = _default()
    t = np.linspace(0, EX103["duration"], EX103["samples"])
    plan = rigid_plan(robot, EX103["x0"], EX103["x1"], EX103["duration"], t)
    return (float(np.abs(plan.tau[:, robot.ce]).max()), float(np.abs(plan.tau[:, robot.ca]).max()),
            float(np.abs(plan.tau[:, robot.ce]).max(axis=0).min()))


@exercise("10.3")
def _(answer):
    v, hint = _scalar(answer, "a torque in N m")
    if hint:
        return hint
    spring, motor, one = _ex103()
    if abs(v - spring) <= 1e-6 * spring:
        return None
    if abs(v - motor) <= 1e-6 * motor:
        return "that is the largest motor torque; the question asks about the elastic entries"
    if abs(v - one) <= 1e-6 * one:
        return "take the largest magnitude over both springs, not one of them"
    if v < 0:
        return "the question asks for a magnitude"
    return "use rigid_plan with the given move and 251 samples and look at tau[:, robot.ce]"


# --- 10.4 stiffness for a 40 Hz first mode ------------------------------------

@exercise("10.4")
def _(answer):
    v, hint = _scalar(answer, "a stiffness in N m/rad")
    if hint:
        return hint
    if v <= 0:
        return "a stiffness must be positive"
    f = _robot(K=v).modes().frequency[0]
    if abs(f - EX104["frequency"]) <= 1e-6 * EX104["frequency"]:
        return None
    f2 = _robot(K=v).modes().frequency[-1]
    if abs(f2 - EX104["frequency"]) <= 1e-6 * EX104["frequency"]:
        return "that tunes the second mode; the question asks for the lowest one"
    side = "high" if f > EX104["frequency"] else "low"
    return (f"with your K the lowest mode is too {side}; the frequencies grow like the square "
            "root of K (the masses do not change)")


# --- 10.5 static sag at another pose ---------------------------------------------

@exercise("10.5")
def _(answer):
    s = _default().static_deflection(EX105["x"])
    a, hint = _array(answer, (2,), "a displacement (dx, dy) in m")
    if hint:
        return hint
    if np.allclose(a, s.displacement, atol=1e-9):
        return None
    if np.allclose(a, s.displacement * 1e3, atol=1e-6):
        return "your displacement looks like millimetres; answer in metres"
    if np.allclose(a, s.deflection, atol=1e-9):
        return "those are the spring deflections (rad); the question asks for the end-effector's displacement"
    if np.allclose(a, -s.displacement, atol=1e-9):
        return "the sign: the displacement is where the end-effector goes, minus where it was asked to be"
    return close(answer, s.displacement, atol=1e-9, what="displacement")


# --- 10.6 best-conditioned height -----------------------------------------------

@lru_cache(maxsize=None)
def _ex106():
    from scipy.optimize import minimize_scalar

    robot = _default()

    def minus_type2(y):
        return -float(robot.singularity(_undeflected(robot, (0.0, y)))[1])

    res = minimize_scalar(minus_type2, bounds=EX106["y"], method="bounded",
                          options={"xatol": 1e-9})
    return float(res.x)


@exercise("10.6")
def _(answer):
    v, hint = _scalar(answer, "a height in m")
    if hint:
        return hint
    if not EX106["y"][0] <= v <= EX106["y"][1]:
        return "the height must lie in the range the question gives"
    if abs(v - _ex106()) <= 2e-3:
        return None
    return ("not where the type-II measure |det S| is largest; sample y finely along x = 0 "
            "and take the argmax of the second value robot.singularity returns")


# --- 10.7 per-chain forward dynamics by hand ----------------------------------------

@lru_cache(maxsize=None)
def _ex107():
    robot = _default()
    q = robot.assemble(robot.ikine_rigid(EX107["x"]), EX107["qe"])
    qdd = robot.forward_dynamics(q, EX107["qd"], EX107["tau"])
    # the chains alone, without the cut force
    qd_t = robot.velocities(q, EX107["qd"])
    free = []
    for k, (c, s) in enumerate(zip(robot.chains, robot.slices)):
        tau = np.zeros(c.n)
        tau[0] = EX107["tau"][k]
        free.append(c.accel(q[s], qd_t[s], tau))
    return qdd, np.concatenate(free)


@exercise("10.7")
def _(answer):
    qdd, free = _ex107()
    a, hint = _array(answer, (6,), "the tree accelerations")
    if hint:
        if np.shape(answer) == (4,):
            return "give all six tree accelerations (a1, e1, p1, a2, e2, p2), not the compact ones"
        return hint
    if np.allclose(a, qdd, rtol=1e-8, atol=1e-8):
        return None
    if np.allclose(a, free, rtol=1e-8, atol=1e-8):
        return "those are the chains' free accelerations; add the response to the cut force lambda"
    return ("per chain: free acceleration M_i^-1 (tau_i - b_i) and response M_i^-1 A_i^T; then solve "
            "(sum A_i Y_i) lambda = -Adot qd - sum A_i qdd_i0 (is b_i from rne with zero acceleration?)")
