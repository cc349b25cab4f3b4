"""The Chapter 8 exercises (manipulator velocity), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which name the idea or the mistake and never the
expected value.  The statements are at the end of
``notebooks/08_manipulator_velocity.ipynb``; the constants below are the ones
they give.

Tolerances that differ from the policy (``rvc.exercises``), kept from the
checkers they replace: 8.1 is absolute (``rtol=0``); 8.3 takes 1e-6 relative
and absolute (rates near the wrist singularity are large); 8.6 and 8.8 take
2e-3 rad, the angle being found by a scan or a root; 8.7 takes half a sample
step.
"""

from __future__ import annotations

import warnings
from functools import cache

import numpy as np

from scipy.optimize import brentq

from .. import DHRobot, RevoluteDH, jacob0, nullproj, resolve_rates, rrmc2, transl, trotx, wrench2tau
from ..models import baxter, planar2, puma560
from . import ArrayAnswer, Custom, Mistake, Numeric, When, read_number, same

__all__: list[str] = []

# --- the data of the exercise statements ------------------------------------

EX81 = dict(a1=0.8, a2=0.5, q=(0.3, 0.9))
EX82 = dict(qd=(0.1, -0.2, 0.3, 0.1, 0.2, -0.1))
EX83 = dict(q5_deg=1.0, w=(0.1, 0.0, 0.0))
EX84 = dict(f_tool_z=10.0, m_tool_z=2.0)
EX85 = dict(q=(0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1), v=(0, 0, 0.05, 0, 0, 0), qd1=0.2)
EX86 = dict(a1=1.0, a2=1.0, q1=0.0)
EX87 = dict(dp=(0.1, -0.1, 0.05), rx=0.2, gain=2.0, dt=0.05, steps=80, tol=1e-3)
EX88 = dict(d1=0.5, a2=0.4, a3=0.3, q3=np.pi / 3, tol=2e-3)
EX89 = dict(q5_deg=1.0, rx=0.3, gain=2.0, dt=0.05, steps=60, damping=np.logspace(-5, -1, 17),
            max_rate=4.0)


@cache
def _ex81():
    robot = DHRobot([RevoluteDH(a=EX81["a1"]), RevoluteDH(a=EX81["a2"])])
    return jacob0(robot, EX81["q"])


@cache
def _ex82():
    p560 = puma560()
    q = p560.qn
    qd = np.array(EX82["qd"])
    with warnings.catch_warnings():      # at qn the roll-pitch-yaw angles are at gimbal lock
        warnings.simplefilter("ignore")
        rpy = [(jacob0(p560, q, a) @ qd)[3:] for a in ("rpy/xyz", "rpy/zyx")]
    return (jacob0(p560, q, "eul") @ qd)[3:], (jacob0(p560, q) @ qd)[3:], rpy[0], rpy[1]


def _ex83_q():
    q = puma560().qn
    q[4] = np.radians(EX83["q5_deg"])
    return q


@cache
def _ex83():
    J = jacob0(puma560(), _ex83_q())
    v = np.r_[0.0, 0.0, 0.0, EX83["w"]]
    return resolve_rates(J, v, "inv"), J, v


@cache
def _ex84():
    p560 = puma560()
    w = np.array([0, 0, EX84["f_tool_z"], 0, 0, EX84["m_tool_z"]])
    return wrench2tau(p560, p560.qn, w, "tool"), wrench2tau(p560, p560.qn, w, "world")


@cache
def _ex85():
    left = baxter("left")
    J = jacob0(left, EX85["q"])
    v = np.array(EX85["v"], dtype=float)
    q1 = np.zeros(7)
    q1[0] = EX85["qd1"]
    return resolve_rates(J, v) + nullproj(J) @ q1, J, v


@cache
def _ex86_curve():
    p2 = planar2(EX86["a1"], EX86["a2"])
    q2 = np.linspace(0.05, np.pi - 0.05, 2000)
    Q = np.column_stack([np.full_like(q2, EX86["q1"]), q2])
    J = jacob0(p2, Q)[:, :2]
    force = 1 / np.linalg.norm(J[:, 1, :], axis=-1)          # |w| with |J^T w| = 1, w along y
    return q2, force


@cache
def _ex87():
    p560 = puma560()
    goal = transl(*EX87["dp"]) @ p560.fkine(p560.qn) @ trotx(EX87["rx"])
    r = rrmc2(p560, p560.qn, goal, gain=EX87["gain"], dt=EX87["dt"], steps=EX87["steps"], method="inv")
    pos = np.linalg.norm(r.e[:, :3], axis=-1)
    full = np.linalg.norm(r.e, axis=-1)
    t_pos = float(r.t[np.argmax(pos < EX87["tol"])])
    t_full = float(r.t[np.argmax(full < EX87["tol"])]) if np.any(full < EX87["tol"]) else np.inf
    return t_pos, t_full


def _ex88_arm(a2=EX88["a2"], a3=EX88["a3"]):
    return DHRobot([RevoluteDH(d=EX88["d1"], alpha=np.pi / 2), RevoluteDH(a=a2), RevoluteDH(a=a3)])


def _ex88_root(q3, a2=EX88["a2"], a3=EX88["a3"]):
    """The shoulder angle in (0, pi) where det of the translational Jacobian changes sign."""
    arm = _ex88_arm(a2, a3)

    def det(q2):
        return float(np.linalg.det(jacob0(arm, [0.0, q2, q3])[:3]))

    return brentq(det, 1e-3, np.pi - 1e-3, xtol=1e-12)


@cache
def _ex88():
    q3 = EX88["q3"]
    return _ex88_root(q3), _ex88_root(-q3), _ex88_root(q3, EX88["a3"], EX88["a2"])


def _ex89_start():
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(EX89["q5_deg"])
    T = p560.fkine(q)
    goal = trotx(EX89["rx"]) @ T
    goal[:3, 3] = T[:3, 3]
    return p560, q, goal


@cache
def _ex89():
    """Per damping of the grid: the peak |qd_j| and the peak |qd| (2-norm over the joints)."""
    p560, q, goal = _ex89_start()
    peak, peak_norm = [], []
    for lam in EX89["damping"]:
        r = rrmc2(p560, q, goal, gain=EX89["gain"], dt=EX89["dt"], steps=EX89["steps"], damping=lam)
        peak.append(np.abs(r.qd).max())
        peak_norm.append(np.linalg.norm(r.qd, axis=-1).max())
    return np.array(peak), np.array(peak_norm)


_ONE_OFF = "one sample off: take the first sample whose position error is below 1 mm"


def _best_8_6():
    q2, force = _ex86_curve()
    return q2[np.argmax(force)]


def _check_8_9(answer):
    """The smallest damping of the grid that keeps every joint rate below the limit."""
    v, hint = read_number(answer, "a damping lambda")
    if hint:
        return hint
    grid = EX89["damping"]
    if v <= 0:
        if np.min(np.abs(np.log10(grid) - v)) < 1e-3:
            return "that looks like the logarithm of lambda; give lambda itself"
        return "the damping lambda is a positive number"
    k = int(np.argmin(np.abs(np.log10(grid) - np.log10(v))))
    if abs(np.log10(v) - np.log10(grid[k])) > 2e-3:
        return "pick lambda from the grid the exercise gives (quarter decades from 1e-5 to 1e-1)"
    peak, peak_norm = _ex89()
    ok = peak < EX89["max_rate"]
    best = int(np.argmax(ok))
    if k == best:
        return None
    if k == int(np.argmax(peak_norm < EX89["max_rate"])):
        return ("the peak joint rate is the largest rate of a single joint at any sample, not the "
                "length of the whole joint-rate vector")
    if k < best:
        return "with that damping some joint still turns faster than 4 rad/s at some sample"
    return ("that damping keeps the rates low, but a smaller one on the grid does too; damping costs "
            "accuracy, so use no more than needed")


# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    ArrayAnswer(
        "8.1", expected=lambda: _ex81()[:2], what="Jacobian", rtol=0,
        mistakes=[
            When(lambda a: True, shape=(6, 2), example=np.zeros((6, 2)),
                 hint="that is the full 6x2 Jacobian; the exercise asks for the rows of the tip's x and "
                      "y velocity"),
            Mistake(lambda: _ex81()[:2].T, "transposed: a row is a velocity component (x, y), a column a joint"),
            Mistake(lambda: _ex81()[:2][:, ::-1], "the columns are swapped: column j belongs to joint j"),
        ],
        fallback="{close} (are the link lengths a1 = 0.8, a2 = 0.5 and the angles in radians?)"),
    ArrayAnswer(
        "8.2", expected=lambda: _ex82()[0], what="the three Euler angle rates", shape=(3,),
        mistakes=[
            Mistake(lambda: _ex82()[1], "that is the angular velocity from the geometric Jacobian; the "
                                        "angle rates need the analytical one"),
            Mistake(lambda: _ex82()[2], "those are roll-pitch-yaw rates; the exercise asks for ZYZ Euler "
                                        "angles"),
            Mistake(lambda: _ex82()[3], "those are roll-pitch-yaw rates; the exercise asks for ZYZ Euler "
                                        "angles"),
        ],
        fallback="not the Euler angle rates at qn for those joint rates (the angular rows of the "
                 "analytical Jacobian)"),
    ArrayAnswer(
        "8.3", expected=lambda: _ex83()[0], what="the six joint rates", shape=(6,), rtol=1e-6,
        mistakes=[
            When(lambda a: same(_ex83()[1] @ a, np.r_[EX83["w"], 0.0, 0.0, 0.0]),
                 example=lambda: np.linalg.solve(_ex83()[1], np.r_[EX83["w"], 0.0, 0.0, 0.0]),
                 hint="the order of a spatial velocity is (linear, angular): the angular velocity goes last"),
            When(lambda a: not same(_ex83()[1] @ a, _ex83()[2]), example=np.zeros(6),
                 hint="your rates do not give the asked tool velocity (was q5 converted to radians?)"),
        ],
        fallback="your rates give the asked velocity but are not those of the inverse Jacobian"),
    ArrayAnswer(
        "8.4", expected=lambda: _ex84()[0], what="the six joint torques", shape=(6,),
        mistakes=[
            Mistake(lambda: _ex84()[1], "the wrench is given in the tool's axes, not the world's: use the "
                                        "matching Jacobian"),
            Mistake(lambda: -_ex84()[0], "the sign: the exercise asks for the torques the wrench exerts "
                                         "on the joints"),
        ],
        fallback="not J^T w at qn for that wrench (order: force first, then moment)"),
    ArrayAnswer(
        "8.5", expected=lambda: _ex85()[0], what="Baxter's seven joint rates", shape=(7,),
        mistakes=[
            When(lambda a: not same(_ex85()[1] @ a, _ex85()[2]), example=np.ones(7),
                 hint="your rates change the tool velocity: the joint-1 motion must be projected into the "
                      "null space of J before it is added"),
            Mistake(lambda: np.linalg.pinv(_ex85()[1]) @ _ex85()[2],
                    "that is the minimum-norm solution alone; add the null-space part for joint 1"),
        ],
        fallback="the tool velocity is right, but the null-space part is not the projection of "
                 "(0.2, 0, ..., 0)"),
    Numeric(
        # (a degrees mistake once listed after the range rule could never be reached:
        # any angle in degrees is beyond pi, and the range rule names it)
        "8.6", expected=_best_8_6, what="the elbow angle q2 in radians", rtol=0, atol=2e-3,
        mistakes=[
            When(lambda v: not 0 < v < np.pi, "q2 must lie strictly between 0 and pi (elbow bent to one "
                                              "side)", example=120.0),
            Mistake(np.pi / 2, "q2 = pi/2 maximises the manipulability (the velocity ellipse's area); "
                               "force is the dual question"),
        ],
        fallback="not the maximum: for each q2 find the largest force along y that unit joint torques "
                 "allow, then take the q2 where that is largest"),
    Numeric(
        "8.7", expected=lambda: _ex87()[0], what="a time in seconds", rtol=0, atol=EX87["dt"] / 2,
        mistakes=[
            Mistake(lambda: _ex87()[1], "that uses the whole pose error; the exercise asks about the "
                                        "position error only"),
            Mistake(lambda: _ex87()[0] / EX87["dt"], "that looks like a sample index; the answer is a time "
                                                     "in seconds", atol=0.5),
            Mistake(lambda: _ex87()[0] + EX87["dt"], _ONE_OFF),
            Mistake(lambda: _ex87()[0] - EX87["dt"], _ONE_OFF),
        ],
        fallback="not when the position error first drops below 1 mm; check the gain, the sample time "
                 "and that the goal is the translated tool pose"),
    Numeric(
        "8.8", expected=lambda: _ex88()[0], what="the shoulder angle q2 in radians", rtol=0, atol=EX88["tol"],
        mistakes=[
            Mistake(lambda: np.degrees(_ex88()[0]), "the answer is expected in radians", atol=0.2),
            Mistake(lambda: _ex88()[0] - np.pi, "that is the same singularity with the arm reaching "
                                                "backwards; the exercise asks for q2 between 0 and pi"),
            When(lambda v: not 0 < v < np.pi, "q2 must lie strictly between 0 and pi", example=-0.5),
            Mistake(lambda: _ex88()[1], "that is the singular shoulder angle with the elbow bent the other "
                                        "way (q3 = -pi/3)"),
            Mistake(lambda: _ex88()[2], "check the DH table: the upper arm (joint 2) is the longer link"),
        ],
        fallback="not a configuration where the three joints lose a direction of the tool point: look at "
                 "the translational rows of the Jacobian only, and ask where the tool point can no longer "
                 "be moved by the waist"),
    Custom("8.9", _check_8_9),
]
