"""The Chapter 8 exercises (manipulator velocity), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which name the idea or the mistake and never the
expected value.  The statements are at the end of
``notebooks/08_manipulator_velocity.ipynb``; the constants below are the ones
they give.

Tolerances that differ from the policy (``rvc.exercises``), kept from the
checkers they replace: 8.1 is absolute (``rtol=0``); 8.2, 8.6 and 8.8 take
2e-3 rad, the angle being found by a scan or a root; 8.3 takes 1e-5 rad (a
root of the peak joint rate, which grows as the wrist angle shrinks); 8.4 takes
1e-4 relative (a force of about a hundred newtons).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from scipy.optimize import brentq

from .. import DHRobot, RevoluteDH, jacob0, jacobe, nullproj, resolve_rates, rrmc2, trotx
from ..models import baxter, planar2, puma560
from . import ArrayAnswer, Custom, Mistake, Numeric, When, read_number, same

__all__: list[str] = []

# --- the data of the exercise statements ------------------------------------

EX81 = dict(a1=0.8, a2=0.5, q=(0.3, 0.9))
EX83 = dict(w=(0.1, 0.0, 0.0), max_rate=2.0)
EX84 = dict(direction=(0.0, 0.0, -1.0), tau_max=(50.0, 80.0, 40.0, 10.0, 10.0, 10.0))
EX85 = dict(q=(0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1), v=(0, 0, 0.05, 0, 0, 0), qd1=0.2)
EX86 = dict(a1=1.0, a2=1.0, q1=0.0)
EX87 = dict(q=EX85["q"], v=EX85["v"])
EX88 = dict(d1=0.5, a2=0.4, a3=0.3, q3=np.pi / 3, tol=2e-3)
EX89 = dict(q5_deg=1.0, rx=0.3, gain=2.0, dt=0.05, steps=60, damping=np.logspace(-5, -1, 17),
            max_rate=4.0)


@cache
def _ex81():
    robot = DHRobot([RevoluteDH(a=EX81["a1"]), RevoluteDH(a=EX81["a2"])])
    return jacob0(robot, EX81["q"])


def _ex82_approach_x(q5):
    """The world x component of the Puma's approach vector at qn with q5 changed (q1 = q4 = 0 keep
    the approach in the world x-z plane, so where it vanishes the approach is vertical)."""
    p560 = puma560()
    q = p560.qn
    q[4] = q5
    return float(p560.fkine(q)[0, 2])


@cache
def _ex82():
    """The wrist angles where the ZYZ analytical Jacobian at qn is singular: inside the joint
    limits, and the one beyond them."""
    lo, hi = puma560().qlim[:, 4]
    inside = brentq(_ex82_approach_x, lo, hi, xtol=1e-12)
    beyond = brentq(_ex82_approach_x, hi, inside + 2 * np.pi - 1e-3, xtol=1e-12)
    return inside, beyond


def _ex83_peak(q5, v=None, norm=False):
    """The peak joint rate (largest |qd_j|, or the 2-norm) at qn with q5 for the tool velocity v."""
    p560 = puma560()
    q = p560.qn
    q[4] = q5
    v = np.r_[0.0, 0.0, 0.0, EX83["w"]] if v is None else np.asarray(v, dtype=float)
    qd = resolve_rates(jacob0(p560, q), v, "inv")
    return float(np.linalg.norm(qd) if norm else np.abs(qd).max())


@cache
def _ex83():
    """The smallest q5 > 0 with the peak rate at the limit: by max |qd_j|, and by the 2-norm."""
    limit = EX83["max_rate"]
    return tuple(brentq(lambda s: _ex83_peak(s, norm=norm) - limit, 1e-4, 0.5, xtol=1e-12)
                 for norm in (False, True))


@cache
def _ex84():
    """The largest force along the direction within the joint torque box, and the mistakes' values."""
    p560 = puma560()
    w = np.r_[EX84["direction"], 0.0, 0.0, 0.0]
    lim = np.array(EX84["tau_max"])

    def per_joint(J):                       # the force each joint allows alone (inf: it feels none)
        tau = np.abs(J.T @ w)
        return np.where(tau > 1e-12, lim / np.where(tau > 1e-12, tau, 1.0), np.inf)

    each = per_joint(jacob0(p560, p560.qn))
    ball = 1 / np.linalg.norm((jacob0(p560, p560.qn).T @ w) / lim)
    return dict(right=each.min(), strongest=each[np.isfinite(each)].max(), ball=ball,
                tool=per_joint(jacobe(p560, p560.qn)).min())


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
    """Baxter's rates for the tool velocity with joint 1 still, and the mistakes' values."""
    J = jacob0(baxter("left"), EX87["q"])
    v = np.array(EX87["v"], dtype=float)
    n = np.linalg.svd(J)[2][-1]                 # the one null-space direction of a 6x7 Jacobian
    mn = resolve_rates(J, v)                    # the minimum-norm rates
    locked = mn - n * mn[0] / n[0]              # slide along the null space until qd_1 = 0
    projected = mn - nullproj(J) @ np.r_[mn[0], np.zeros(6)]
    return locked, J, v, mn, projected


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
    Numeric(
        "8.2", expected=lambda: _ex82()[0], what="the wrist angle q5 in radians", rtol=0, atol=2e-3,
        mistakes=[
            Mistake(lambda: np.degrees(_ex82()[0]), "the answer is expected in radians", atol=0.2),
            Mistake(0.0, "q5 = 0 is the robot's own wrist singularity, where the geometric Jacobian "
                         "loses rank; the analytical Jacobian has another, which belongs to the angles "
                         "alone"),
            Mistake(lambda: float(puma560().qn[4]),
                    "that is qn itself: there the roll-pitch-yaw angles are at gimbal lock, but the "
                    "exercise asks about ZYZ Euler angles"),
            When(lambda v: not puma560().qlim[0, 4] <= v <= puma560().qlim[1, 4],
                 "that wrist angle is beyond the Puma's joint limits for q5", example=lambda: _ex82()[1]),
        ],
        fallback="not a wrist angle where the ZYZ angle rates are undefined: ask when the ZYZ angles "
                 "themselves stop being unique, and which tool axis decides that"),
    Numeric(
        "8.3", expected=lambda: _ex83()[0], what="the wrist angle q5 in radians", rtol=0, atol=1e-5,
        mistakes=[
            When(lambda v: v <= 0, "the exercise asks for a positive q5", example=lambda: -_ex83()[0]),
            Mistake(lambda: np.degrees(_ex83()[0]), "the answer is expected in radians", atol=0.05),
            Mistake(lambda: _ex83()[1], "the peak joint rate is the largest rate of a single joint, not "
                                        "the length of the whole joint-rate vector"),
            When(lambda v: v < _ex83()[0], "with that wrist angle some joint still turns faster than the "
                                           "limit", example=lambda: 0.9 * _ex83()[0]),
        ],
        fallback="that wrist angle keeps every rate within the limit, but a smaller one does too "
                 "(the rates grow smoothly as the wrist straightens)"),
    Numeric(
        # a force of about a hundred newtons: 1e-4 relative
        "8.4", expected=lambda: _ex84()["right"], what="force in N", rtol=1e-4, atol=1e-6,
        mistakes=[
            When(lambda v: v <= 0, "the largest force is a magnitude: a positive number", example=-1.0),
            Mistake(lambda: _ex84()["ball"], "that is the bound of a force ellipsoid, where the scaled "
                                             "torques together have unit length; each joint has a limit of "
                                             "its own, and only the joint that reaches it first matters"),
            Mistake(lambda: _ex84()["strongest"], "at that force some joint is already beyond its limit: the "
                                                  "weakest joint decides"),
            Mistake(lambda: _ex84()["tool"], "the direction is given in world axes, and the force is applied "
                                             "in them: use the Jacobian whose rows are world axes"),
        ],
        fallback="not the largest force: each joint's torque grows in proportion to the force, and "
                 "every joint must stay within its own limit"),
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
    ArrayAnswer(
        "8.7", expected=lambda: _ex87()[0], what="Baxter's seven joint rates", shape=(7,),
        wrong_shapes={(6,): "seven rates, one per joint: the still joint 1 is one of them"},
        mistakes=[
            When(lambda a: not same(_ex87()[1] @ a, _ex87()[2]), example=np.ones(7),
                 hint="your rates do not give the asked tool velocity"),
            Mistake(lambda: _ex87()[3], "that is the minimum-norm solution: joint 1 still turns"),
            Mistake(lambda: _ex87()[4], "projecting joint 1's rate into the null space only shrinks it; "
                                        "the null space of this arm is a single direction: how far along it "
                                        "must you go for joint 1 to stop?"),
            When(lambda a: abs(a[0]) > 1e-6, "joint 1 must stand still", shape=(7,),
                 example=lambda: _ex87()[3] + 0.01 * np.linalg.svd(_ex87()[1])[2][-1]),
        ],
        fallback="{close}"),
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


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "{hint} (are the link lengths a1 = 0.8, a2 = 0.5 and the angles in radians?)",
    "a damping lambda",
    "that looks like the logarithm of lambda; give lambda itself",
    "the damping lambda is a positive number",
    "pick lambda from the grid the exercise gives (quarter decades from 1e-5 to 1e-1)",
    "the peak joint rate is the largest rate of a single joint at any sample, not the length of the whole"
    " joint-rate vector",
    "with that damping some joint still turns faster than 4 rad/s at some sample",
    "that damping keeps the rates low, but a smaller one on the grid does too; damping costs accuracy, so"
    " use no more than needed",
)
