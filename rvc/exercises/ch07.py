"""Checkers for the Chapter 7 exercises (robot arm kinematics).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that never reveals the expected value.
The exercise statements are in ``notebooks/07-3_trajectories_applications.ipynb``;
the constants below are the ones the statements give.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np

from .. import (DHRobot, ETS3, RevoluteDH, ctraj, hershey_strokes, ikine6s, ikine_2link,
                letter_path, transl, trotx, troty, trotz)
from ..models import cobra600, puma560
from . import close, describe_shape, exercise

# --- the data of the exercise statements ------------------------------------

EX71 = dict(a1=0.8, a2=0.5, q=(0.3, 0.9))
EX72 = dict(a1=1.0, a2=1.0, x=0.9, y=1.1)
EX73_POSE = dict(t=(0.5, 0.2, 0.1), ry=np.pi / 2)
EX74_POSE = dict(t=(0.4, -0.2, 0.2), yaw_deg=-60.0)
EX75 = dict(p1=(0.5, 0.4, 0.44), p2=(0.5, -0.2, 0.44), duration=3.0, samples=61)
EX76 = dict(s="Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", L1=0.3, L2=0.4, L3=0.25)
EX77 = dict(text="HI", scale=0.15, dt=0.02)

_CONFIGS = [a + b + c for a in "lr" for b in "ud" for c in "nf"]


def _scalar(answer, what):
    """(value, hint): a finite float, or a hint about what came instead."""
    a = np.asarray(answer, dtype=float) if not isinstance(answer, (str, bytes)) else None
    if a is None or a.size != 1:
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    v = float(a.reshape(()))
    if not np.isfinite(v):
        return None, f"your {what} is NaN or inf"
    return v, None


def _within_limits(robot, q) -> np.ndarray:
    """Per joint: inside robot.qlim, revolute angles allowed a shift of +-2 pi."""
    lo, hi = robot.qlim
    shifts = 2 * np.pi * np.array([-1.0, 0.0, 1.0])[:, None]
    shifts = np.where(robot.revolute, shifts, 0.0)
    qs = np.asarray(q, dtype=float) + shifts
    return np.any((qs >= lo - 1e-9) & (qs <= hi + 1e-9), axis=0)


# --- 7.1 DH forward kinematics of a 2-link arm --------------------------------

@lru_cache(maxsize=None)
def _ex71():

    robot = DHRobot([RevoluteDH(a=EX71["a1"]), RevoluteDH(a=EX71["a2"])])
    return robot.fkine(EX71["q"])


@exercise("7.1")
def _(answer):
    expected = _ex71()
    a = np.asarray(answer, dtype=float)
    if a.shape == (3, 3):
        return "a DHRobot's fkine returns a 4x4 pose (SE(3)), not a 3x3 SE(2) matrix"
    hint = close(answer, expected, atol=1e-6, what="pose")
    if hint is None:
        return None
    if a.shape == (4, 4) and np.allclose(a[:3, :3], expected[:3, :3], atol=1e-6):
        return "the orientation is right but the position is not: check the link lengths a1, a2"
    return hint + " (are the joint angles in radians, and the links in the right order?)"


# --- 7.2 closed-form IK of the 2-link arm, elbow up ---------------------------

@lru_cache(maxsize=None)
def _ex72():

    return ikine_2link(EX72["a1"], EX72["a2"], EX72["x"], EX72["y"], elbow="up")


def _tip(q):
    a1, a2 = EX72["a1"], EX72["a2"]
    return np.array([a1 * np.cos(q[0]) + a2 * np.cos(q[0] + q[1]),
                     a1 * np.sin(q[0]) + a2 * np.sin(q[0] + q[1])])


@exercise("7.2")
def _(answer):
    a = np.asarray(answer, dtype=float)
    if a.shape != (2,):
        return f"expected the two joint angles (q1, q2) as an array of shape (2,), got {describe_shape(answer)}"
    if not np.all(np.isfinite(a)):
        return "your angles contain NaN or inf"
    wrapped = np.angle(np.exp(1j * (a - _ex72())))        # equal up to multiples of 2 pi
    if np.all(np.abs(wrapped) < 1e-6):
        return None
    if np.allclose(_tip(a), [EX72["x"], EX72["y"]], atol=1e-6):
        return "your angles reach the target, but with the elbow on the other side (elbow up has q2 <= 0)"
    return "the forward kinematics of your angles do not reach the target; check the sign in the atan2 for q1"


# --- 7.3 how many of the 8 ikine6s configurations are usable ------------------

def _ex73_pose():

    return transl(*EX73_POSE["t"]) @ troty(EX73_POSE["ry"])


@lru_cache(maxsize=None)
def _ex73():

    p560 = puma560()
    T = _ex73_pose()
    count = 0
    reach_only = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c in _CONFIGS:
            sol = ikine6s(p560, T, c)
            if sol.success:
                reach_only += 1
                count += bool(np.all(_within_limits(p560, sol.q)))
    return count, reach_only


@exercise("7.3")
def _(answer):
    v, hint = _scalar(answer, "a count of configurations")
    if hint:
        return hint
    if v != round(v) or not 0 <= v <= 8:
        return "expected a whole number between 0 and 8"
    count, reach_only = _ex73()
    if v == count:
        return None
    if v == reach_only:
        return "that counts the solutions that reach the pose; now also discard those outside p560.qlim"
    return ("solve for each of the eight configuration strings ('lun' ... 'rdf'), keep those with success "
            "and with every joint inside p560.qlim (an angle may be shifted by 2 pi)")


# --- 7.4 masked IK of the Cobra 600 within joint limits -----------------------

def _ex74_pose():

    return transl(*EX74_POSE["t"]) @ trotz(EX74_POSE["yaw_deg"], unit="deg") @ trotx(np.pi)


@exercise("7.4")
def _(answer):

    c600 = cobra600()
    a = np.asarray(answer, dtype=float)
    if a.shape != (4,):
        return f"expected the Cobra's 4 joint coordinates, shape (4,), got {describe_shape(answer)}"
    if not np.all(np.isfinite(a)):
        return "your joint coordinates contain NaN or inf"
    T = _ex74_pose()
    Ta = c600.fkine(a)
    if not np.allclose(Ta[:3, 3], T[:3, 3], atol=1e-6):
        return "the tool does not reach the target position"
    if not np.allclose(Ta[:3, :3], T[:3, :3], atol=1e-6):
        return "the position is right but the tool's rotation about z is not"
    inside = _within_limits(c600, a)
    if not np.all(inside):
        bad = ", ".join(f"q{j + 1}" for j in np.flatnonzero(~inside))
        return f"the pose is reached but {bad} is outside c600.qlim (try joint_limits=True)"
    return None


# --- 7.5 when does the Cartesian path pass closest to the wrist singularity ---

@lru_cache(maxsize=None)
def _ex75():

    t = np.linspace(0, EX75["duration"], EX75["samples"])
    Ts = ctraj(transl(*EX75["p1"]) @ troty(np.pi / 2), transl(*EX75["p2"]) @ troty(np.pi / 2), t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = ikine6s(puma560(), Ts).q
    return float(t[np.argmin(np.abs(q[:, 4]))]), t[1] - t[0]


@exercise("7.5")
def _(answer):
    v, hint = _scalar(answer, "a time in seconds")
    if hint:
        return hint
    expected, dt = _ex75()
    if not 0 <= v <= EX75["duration"]:
        return "the time must lie within the trajectory's duration"
    if abs(v - expected) <= dt + 1e-9:
        return None
    return "not the sample where |q5| is smallest; use t[np.argmin(np.abs(q[:, 4]))] (is t in seconds?)"


# --- 7.6 DH factorisation of a string -----------------------------------------

@exercise("7.6")
def _(answer):

    if not isinstance(answer, DHRobot):
        return f"expected a DHRobot (e.g. from DHFactor(...).robot()), got {type(answer).__name__}"
    consts = {k: v for k, v in EX76.items() if k != "s"}
    E = ETS3.from_string(EX76["s"], **consts)
    if answer.n != E.n:
        return f"your robot has {answer.n} joints; the string has a different number"
    if answer.mdh:
        return "expected standard DH links, got modified DH"
    if answer.structure != E.structure:
        return "the joint types (revolute/prismatic) do not match the string"
    Q = np.random.default_rng(76).uniform(-np.pi, np.pi, (50, E.n))
    bad = int(np.count_nonzero(~np.all(np.isclose(answer.fkine(Q), E.fkine(Q), atol=1e-9), axis=(1, 2))))
    if bad:
        return (f"your robot's fkine differs from the string's at {bad} of 50 random configurations "
                "(did you pass the constants L1, L2, L3, and keep the base and tool?)")
    return None


# --- 7.7 time to write a word --------------------------------------------------

@lru_cache(maxsize=None)
def _ex77():

    lp = letter_path(hershey_strokes(EX77["text"], scale=EX77["scale"]), dt=EX77["dt"])
    return len(lp.t) * EX77["dt"]


@exercise("7.7")
def _(answer):
    v, hint = _scalar(answer, "a time in seconds")
    if hint:
        return hint
    expected = _ex77()
    if abs(v - expected) <= EX77["dt"] + 1e-9:
        return None
    if abs(v - expected / EX77["dt"]) < 1.5:
        return "that looks like a number of samples; multiply by the sample interval"
    return "build the path with letter_path(hershey_strokes(...)) and multiply its number of samples by dt"
