"""The Chapter 7 exercises (robot arm kinematics), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which never reveal the expected value.  The
exercises are spread over the chapter's three notebooks (the table
``rvc.exercises.NOTEBOOKS``):

* ``07-1_forward_kinematics.ipynb``: 7.1-7.3;
* ``07-2_inverse_kinematics.ipynb``: 7.4-7.7;
* ``07-3_trajectories_applications.ipynb``: 7.8-7.11.

The constants below are the data of the exercise statements; ``PIVOT_Q``
is the measured data of Exercise 7.3, which the notebook imports.

Tolerances that differ from the policy (``rvc.exercises``), kept from the
checkers they replace: 7.1 is absolute (``rtol=0``); 7.2 takes 1e-9, the
twists being exact; 7.3 takes 1e-4 m, the configurations being given to a
microradian; 7.5 is exact (a count); 7.8 takes one sample step, the answer
being read off the 61 samples.
"""

from __future__ import annotations

import warnings
from functools import lru_cache, cache

import numpy as np

from .. import (DHRobot, ETS3, RevoluteDH, ctraj, hershey_strokes, ikine6s, ikine_2link,
                ink_fraction, letter_path, manipulability, transl, trotx, troty, trotz)
from ..models import cobra600, puma560
from . import ArrayAnswer, Custom, Mistake, Numeric, When, describe_shape, read_array, read_number

__all__ = ["PIVOT_Q"]

# --- the data of the exercise statements ------------------------------------

EX71 = dict(a1=0.8, a2=0.5, q=(0.3, 0.9))
EX72 = dict(a=(1.0, 1.0, 0.5))
EX74 = dict(a1=1.0, a2=1.0, x=0.9, y=1.1)
EX75_POSE = dict(t=(0.5, 0.2, 0.1), ry=np.pi / 2)
EX76_POSE = dict(t=(0.4, -0.2, 0.2), yaw_deg=30.0)
EX77_POSE = dict(t=(0.5, -0.3, 0.2), ry=np.pi / 2)
EX78 = dict(p1=(0.5, 0.4, 0.44), p2=(0.5, -0.2, 0.44), duration=3.0, samples=61)
EX79 = dict(s="Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", L1=0.3, L2=0.4, L3=0.25)
EX710 = dict(d1=0.4, a2=0.5, a3=0.4)
EX711 = dict(scale=0.08, z_up=0.05, dt=0.02, centre=(0.5, 0.0, 0.0))

#: Exercise 7.3: the Puma touched one point with the tip of a pen clamped to its flange, at
#: these four configurations (rad, one per row; measured to a microradian).
PIVOT_Q = np.array([
    [0.371771, 1.102970, 2.768257, 3.141593, 0.729635, 0.371771],
    [0.422794, 1.164063, 2.601442, 2.572672, 0.301125, 0.941098],
    [0.297175, 1.098660, 2.727563, -2.495830, 0.667109, 0.786482],
    [0.331194, 0.967512, 2.969624, -3.032571, 1.082599, -0.933898],
])
_PIVOT_TOOL = np.array([0.01, -0.02, 0.15])      # where the pen tip is in the flange frame
_PIVOT_TIP = np.array([0.5, 0.05, -0.1])         # the point touched, in the world

_CONFIGS = [a + b + c for a in "lr" for b in "ud" for c in "nf"]


def _within_limits(robot, q) -> np.ndarray:
    """Per joint: inside robot.qlim, revolute angles allowed a shift of +-2 pi."""
    lo, hi = robot.qlim
    shifts = 2 * np.pi * np.array([-1.0, 0.0, 1.0])[:, None]
    shifts = np.where(robot.revolute, shifts, 0.0)
    qs = np.asarray(q, dtype=float) + shifts
    return np.any((qs >= lo - 1e-9) & (qs <= hi + 1e-9), axis=0)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@cache
def _ex71():
    robot = DHRobot([RevoluteDH(a=EX71["a1"]), RevoluteDH(a=EX71["a2"])])
    return robot.fkine(EX71["q"])


@cache
def _ex72():
    return DHRobot([RevoluteDH(a=a) for a in EX72["a"]]).twists()[0]


@cache
def _ex73():
    return puma560().fkine(PIVOT_Q)


def _spread_7_3(a):
    """The fallback of 7.3: how far apart the four tips are with the student's tool."""
    T = _ex73()
    tips = (T[:, :3, :3] @ a) + T[:, :3, 3]
    return (f"with your tool the four tips are up to {np.ptp(tips, axis=0).max() * 1000:.0f} mm apart; "
            "they must coincide: every configuration puts the tip on the same point")


# --- 7.4 closed-form IK of the 2-link arm, elbow up (07-2) ----------------------

@cache
def _ex74():
    return ikine_2link(EX74["a1"], EX74["a2"], EX74["x"], EX74["y"], elbow="up")


def _tip(q):
    a1, a2 = EX74["a1"], EX74["a2"]
    return np.array([a1 * np.cos(q[0]) + a2 * np.cos(q[0] + q[1]),
                     a1 * np.sin(q[0]) + a2 * np.sin(q[0] + q[1])])


def _check_7_4(answer):
    """Right up to multiples of 2 pi; the other elbow is named."""
    a, hint = read_array(answer, (2,), "the two joint angles (q1, q2)")
    if hint:
        return hint
    wrapped = np.angle(np.exp(1j * (a - _ex74())))        # equal up to multiples of 2 pi
    if np.all(np.abs(wrapped) < 1e-6):
        return None
    if np.allclose(_tip(a), [EX74["x"], EX74["y"]], atol=1e-6):
        return "your angles reach the target, but with the elbow on the other side (elbow up has q2 <= 0)"
    return ("the forward kinematics of your angles do not reach the target; q1 is the direction of the "
            "target minus the angle the second link adds")


# --- 7.5 how many of the 8 ikine6s configurations are usable (07-2) -------------

def _ex75_pose():
    return transl(*EX75_POSE["t"]) @ troty(EX75_POSE["ry"])


@cache
def _ex75():
    p560 = puma560()
    T = _ex75_pose()
    count = 0
    reach_only = 0
    for c in _CONFIGS:
        sol = _quiet(ikine6s, p560, T, c)
        if sol.success:
            reach_only += 1
            count += bool(np.all(_within_limits(p560, sol.q)))
    return count, reach_only


# --- 7.6 masked IK of the Cobra 600 within joint limits (07-2) ------------------

def _ex76_pose():
    return transl(*EX76_POSE["t"]) @ trotz(EX76_POSE["yaw_deg"], unit="deg") @ trotx(np.pi)


def _check_7_6(answer):
    """Any solution that reaches the pose inside the joint limits."""
    a, hint = read_array(answer, (4,), "the Cobra's 4 joint coordinates")
    if hint:
        return hint
    c600 = cobra600()
    T = _ex76_pose()
    Ta = c600.fkine(a)
    if not np.allclose(Ta[:3, 3], T[:3, 3], atol=1e-6):
        return "the tool does not reach the target position"
    if not np.allclose(Ta[:3, :3], T[:3, :3], atol=1e-6):
        return "the position is right but the tool's rotation about z is not (is the angle in radians?)"
    inside = _within_limits(c600, a)
    if not np.all(inside):
        bad = ", ".join(f"q{j + 1}" for j in np.flatnonzero(~inside))
        return (f"the pose is reached but {bad} is outside the joint limits: the solver returned the "
                "solution its start led to; the arm has another one")
    return None


# --- 7.7 the configuration that moves least from qr (07-2) ----------------------

def _ex77_pose():
    return transl(*EX77_POSE["t"]) @ troty(EX77_POSE["ry"])


@cache
def _ex77():
    """(best largest joint motion from qr, its configuration letters) over the usable solutions."""
    p560 = puma560()
    lo, hi = p560.qlim
    ref = p560.qr
    best = (np.inf, None)
    for c in _CONFIGS:
        sol = _quiet(ikine6s, p560, _ex77_pose(), c)
        if not sol.success:
            continue
        cand = sol.q + 2 * np.pi * np.array([-1, 0, 1])[:, None]
        ok = (cand >= lo - 1e-9) & (cand <= hi + 1e-9)
        if not np.all(np.any(ok, axis=0)):
            continue
        dist = np.where(ok, np.abs(cand - ref), np.inf).min(axis=0)
        best = min(best, (float(dist.max()), c), key=lambda b: b[0])
    return best


def _check_7_7(answer):
    """A usable solution whose largest joint motion from qr is the least."""
    a, hint = read_array(answer, (6,), "the Puma's 6 joint angles")
    if hint:
        return hint
    p560 = puma560()
    if not np.allclose(p560.fkine(a), _ex77_pose(), atol=1e-6):
        return "your joint angles do not put the tool at the target pose"
    inside = _within_limits(p560, a)
    lo, hi = p560.qlim
    if not np.all(inside):
        bad = ", ".join(f"q{j + 1}" for j in np.flatnonzero(~inside))
        return f"{bad} is outside the joint limits, even shifted by 2 pi"
    if not np.all((a >= lo - 1e-9) & (a <= hi + 1e-9)):
        return "an angle is outside its limits as given: shift it by 2 pi into the range"
    best, _ = _ex77()
    motion = float(np.abs(a - p560.qr).max())
    if motion <= best + 1e-6:
        return None
    alts = a + 2 * np.pi * np.array([-1, 0, 1])[:, None]
    closer = np.where((alts >= lo - 1e-9) & (alts <= hi + 1e-9), np.abs(alts - p560.qr), np.inf).min(axis=0)
    if closer.max() <= best + 1e-6:
        return "the right configuration, but an angle shifted by 2 pi (still within its limits) is nearer to qr"
    return ("that solution is usable but another configuration needs less motion: compare the largest "
            "joint change from qr of every usable solution")


# --- 7.8 when does the Cartesian path pass closest to the wrist singularity (07-3)

@cache
def _ex78():
    t = np.linspace(0, EX78["duration"], EX78["samples"])
    Ts = ctraj(transl(*EX78["p1"]) @ troty(np.pi / 2), transl(*EX78["p2"]) @ troty(np.pi / 2), t)
    q = _quiet(ikine6s, puma560(), Ts).q
    return float(t[np.argmin(np.abs(q[:, 4]))]), t[1] - t[0]


# --- 7.9 DH factorisation of a string (07-3) ------------------------------------

def _check_7_9(answer):
    """Any standard-DH robot whose fkine is the string's."""
    if not isinstance(answer, DHRobot):
        return f"expected a DHRobot (the factorised robot), got {type(answer).__name__}"
    params = np.array([[L.d, L.a, L.alpha, L.offset] for L in answer.links], dtype=float)
    if not np.all(np.isfinite(params)) or not np.all(np.isfinite(answer.base)) \
            or not np.all(np.isfinite(answer.tool)):
        return "your robot's parameters contain NaN or inf"
    consts = {k: v for k, v in EX79.items() if k != "s"}
    E = ETS3.from_string(EX79["s"], **consts)
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
                "(were the constants L1, L2, L3 given, and are the base and tool kept?)")
    return None


# --- 7.10 the singular elbow angles of an arm built from its DH table (07-3) ----

def _arm710():
    return DHRobot([RevoluteDH(d=EX710["d1"], alpha=np.pi / 2), RevoluteDH(a=EX710["a2"]),
                    RevoluteDH(a=EX710["a3"])])


def _check_7_10(answer):
    """Every singular elbow angle, each once, checked against the arm itself."""
    try:
        a = np.sort(np.atleast_1d(np.asarray(answer, dtype=float)).ravel())
    except (TypeError, ValueError):
        return f"expected the singular elbow angles, an array, got {describe_shape(answer)}"
    if a.size == 0:
        return "the arm does have singular elbow angles"
    if not np.all(np.isfinite(a)):
        return "your angles contain NaN or inf"
    if np.any(np.abs(a) > np.pi + 1e-6):
        return "give each angle once, in (-pi, pi]"
    # check each given angle against the arm itself: singular at several shoulder angles
    arm = _arm710()
    q23 = np.random.default_rng(710).uniform(-np.pi, np.pi, (5, 2))
    m = lambda q3: manipulability(arm, np.column_stack([np.zeros(5), q23[:, 0], np.full(5, q3)]),  # noqa: E731
                                  axes="trans")
    singular = [bool(np.all(m(x) < 1e-6)) for x in a]
    if not all(singular):
        return "at some of your angles the arm can still move its tool in every direction"
    wrapped = np.angle(np.exp(1j * a))
    wrapped = np.unique(np.round(np.where(wrapped <= -np.pi + 1e-6, wrapped + 2 * np.pi, wrapped), 6))
    if wrapped.size < a.size:
        return "give each angle once (angles that differ by 2 pi, or only by rounding, are the same)"
    if wrapped.size < 2:
        return "there is one more: the arm is singular when the forearm is in line with the upper arm, either way"
    return None


# --- 7.11 write your initials (07-3) --------------------------------------------

def _word_path(text):
    strokes = hershey_strokes(text, scale=EX711["scale"])
    width = float(np.vstack(strokes)[:, 0].max())
    height = float(np.vstack(strokes)[:, 1].max())
    cx, cy, cz = EX711["centre"]
    origin = (cx - width / 2, cy - height / 2, cz)
    return letter_path(strokes, z_up=EX711["z_up"], dt=EX711["dt"], origin=origin), origin


@lru_cache(maxsize=8)
def _ex711(text):
    lp, origin = _word_path(text)
    sol = _quiet(ikine6s, puma560(), lp.T)
    pen = puma560().fkine(sol.q)[:, :3, 3] - origin
    return bool(np.all(sol.success)), float(lp.t[-1]), float(ink_fraction(lp, pen=pen).min())


def _check_7_11(answer):
    """The word, its duration and its smallest ink fraction."""
    keys = ("text", "duration", "ink")
    if not isinstance(answer, dict) or set(keys) - set(answer):
        return ("answer should be a dict with keys 'text', 'duration', 'ink', got "
                + (f"a dict with keys {sorted(answer)}" if isinstance(answer, dict) else describe_shape(answer)))
    text = answer["text"]
    if not isinstance(text, str) or not 2 <= len(text) <= 3 or not text.isalpha() or not text.isupper():
        return "text: two or three capital letters, your initials"
    solved, duration, ink = _ex711(text)
    if not solved:
        return "the Puma cannot reach every pose of that word where the exercise puts it"
    d, hint = read_number(answer["duration"], "duration")
    if hint:
        return hint
    if abs(d - duration) > EX711["dt"] + 1e-9:
        if abs(d - duration / EX711["dt"]) < 2:
            return "duration: that looks like a number of samples; the duration is in seconds"
        return ("duration: not the time the pen takes; is the path made with the exercise's scale, pen "
                "height and sample interval, and centred as asked?")
    f, hint = read_number(answer["ink"], "ink fraction")
    if hint:
        return hint
    if abs(f - ink) > 1e-3:
        if f > 1:
            return "ink: a fraction of each stroke, at most 1"
        return ("ink: not the smallest ink fraction over the strokes, measured on the pen the robot "
                "moves (its forward kinematics) along the default path, whose pen settles on the table")
    return None


# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    ArrayAnswer(
        "7.1", expected=_ex71, what="pose", rtol=0,
        mistakes=[
            When(lambda a: True, "a DHRobot's fkine returns a 4x4 pose (SE(3)), not a 3x3 SE(2) matrix",
                 shape=(3, 3), example=np.eye(3)),
            When(lambda a: np.allclose(a[:3, :3], _ex71()[:3, :3], atol=1e-6), shape=(4, 4),
                 example=lambda: _ex71() + 0.1 * np.outer(np.eye(4)[0], np.eye(4)[3]),
                 hint="the orientation is right but the position is not: check the link lengths a1, a2"),
        ],
        fallback="{close} (are the joint angles in radians, and the links in the right order?)"),
    ArrayAnswer(
        "7.2", expected=_ex72, what="the three joint twists", atol=1e-9, shape=(3, 6),
        shape_hint="expected the three joint twists, one per row (v, w), shape (3, 6), got {got}",
        mistakes=[
            Mistake(lambda: _ex72()[:, [3, 4, 5, 0, 1, 2]],
                    "the order in rvc is (v, w): linear part first, angular part second"),
            When(lambda a: np.allclose(a[:, 3:], _ex72()[:, 3:], atol=1e-9)
                 and np.allclose(a[:, :3], -_ex72()[:, :3], atol=1e-9),
                 example=lambda: _ex72() * [-1, -1, -1, 1, 1, 1],
                 hint="the moment part has the wrong sign: a point on the joint axis stays still, "
                      "so v + w x q = 0 there"),
            When(lambda a: np.allclose(a[:, 3:], _ex72()[:, 3:], atol=1e-9),
                 example=lambda: _ex72() + [0, 0, 1, 0, 0, 0],
                 hint="the rotation axes are right but not the moment parts: each axis goes through the "
                      "joint's position at the zero configuration"),
        ],
        fallback="each joint turns about the z-axis: w = (0, 0, 1) for every row"),
    ArrayAnswer(
        "7.3", expected=_PIVOT_TOOL, what="the pen tip's position in the flange frame", atol=1e-4,
        shape=(3,),
        mistakes=[
            Mistake(_PIVOT_TIP, "that is the point the pen touched (world frame); the exercise asks where "
                                "the tip is on the flange"),
            Mistake(-_PIVOT_TOOL, "the sign is wrong: the tip is where the tool transform takes the "
                                  "flange's origin"),
            When(lambda a: any(np.allclose(a, Ti[:3, :3] @ _PIVOT_TOOL, atol=1e-4) for Ti in _ex73()),
                 example=lambda: _ex73()[0][:3, :3] @ _PIVOT_TOOL,
                 hint="that offset is in world axes; a tool transform is written in the flange's own frame"),
        ],
        fallback=_spread_7_3),
    Custom("7.4", _check_7_4),
    Numeric(
        "7.5", expected=lambda: _ex75()[0], what="a count of configurations", rtol=0, atol=0,
        mistakes=[
            When(lambda v: v != round(v) or not 0 <= v <= 8, "expected a whole number between 0 and 8",
                 example=2.5),
            Mistake(lambda: _ex75()[1], "that counts the solutions that reach the pose; now also discard "
                                        "those outside the joint limits"),
        ],
        fallback="solve for each of the eight configurations, keep those that reach the pose with every "
                 "joint inside its limits (an angle may be shifted by 2 pi)"),
    Custom("7.6", _check_7_6),
    Custom("7.7", _check_7_7),
    Numeric(
        "7.8", expected=lambda: _ex78()[0], what="a time in seconds", rtol=0,
        atol=EX78["duration"] / (EX78["samples"] - 1) + 1e-9,
        mistakes=[
            When(lambda v: not 0 <= v <= EX78["duration"], "the time must lie within the trajectory's "
                                                          "duration", example=-1.0),
        ],
        fallback="not the instant the wrist is closest to its singularity: that is where |q5| is "
                 "smallest along the path (and is your time in seconds, not a sample number?)"),
    Custom("7.9", _check_7_9),
    Custom("7.10", _check_7_10),
    Custom("7.11", _check_7_11),
]


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "with your tool the four tips are up to {mm} mm apart; they must coincide: every configuration puts "
    "the tip on the same point",
    "{hint} (are the joint angles in radians, and the links in the right order?)",
    "the two joint angles (q1, q2)",
    "the forward kinematics of your angles do not reach the target; q1 is the direction of the target "
    "minus the angle the second link adds",
    "your angles reach the target, but with the elbow on the other side (elbow up has q2 <= 0)",
    "the Cobra's 4 joint coordinates",
    "the tool does not reach the target position",
    "the position is right but the tool's rotation about z is not (is the angle in radians?)",
    "the pose is reached but {joint} is outside the joint limits: the solver returned the solution its "
    "start led to; the arm has another one",
    "the Puma's 6 joint angles",
    "your joint angles do not put the tool at the target pose",
    "{joint} is outside the joint limits, even shifted by 2 pi",
    "an angle is outside its limits as given: shift it by 2 pi into the range",
    "the right configuration, but an angle shifted by 2 pi (still within its limits) is nearer to qr",
    "that solution is usable but another configuration needs less motion: compare the largest joint "
    "change from qr of every usable solution",
    "expected a DHRobot (the factorised robot), got {got}",
    "your robot's parameters contain NaN or inf",
    "your robot has {n} joints; the string has a different number",
    "expected standard DH links, got modified DH",
    "the joint types (revolute/prismatic) do not match the string",
    "your robot's fkine differs from the string's at {bad} of 50 random configurations (were the "
    "constants L1, L2, L3 given, and are the base and tool kept?)",
    "expected the singular elbow angles, an array, got {got}",
    "the arm does have singular elbow angles",
    "your angles contain NaN or inf",
    "give each angle once, in (-pi, pi]",
    "at some of your angles the arm can still move its tool in every direction",
    "give each angle once (angles that differ by 2 pi, or only by rounding, are the same)",
    "there is one more: the arm is singular when the forearm is in line with the upper arm, either way",
    "answer should be a dict with keys 'text', 'duration', 'ink', got {got}",
    "text: two or three capital letters, your initials",
    "the Puma cannot reach every pose of that word where the exercise puts it",
    "duration: that looks like a number of samples; the duration is in seconds",
    "duration: not the time the pen takes; is the path made with the exercise's scale, pen height and "
    "sample interval, and centred as asked?",
    "ink: a fraction of each stroke, at most 1",
    "ink: not the smallest ink fraction over the strokes, measured on the pen the robot moves (its "
    "forward kinematics) along the default path, whose pen settles on the table",
)
