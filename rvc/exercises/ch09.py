"""The Chapter 9 exercises (dynamics and control), as data.

Each exercise recomputes its expected value with rvc; its typical mistakes
stand next to their hints, which never reveal the expected value.  Each part
of the chapter ends with its exercises: 9.1-9.3 in
``notebooks/09-1_joint_control.ipynb``, 9.4-9.8 in
``notebooks/09-2_rigid_body_dynamics.ipynb``, 9.9-9.11 in
``notebooks/09-3_model_based_control.ipynb``; the constants below are the
ones the statements give.

Tolerances: the chapter's numbers come from models with a handful of
significant digits, and a student may read them off a plot or a simulation,
so its numeric exercises take a relative band (``_BAND``: 1e-4, and 1e-3 or
2e-3 where the answer comes out of an integration or a search), not the
policy's 1e-6.
9.4 takes 2e-3 rad (an angle found by a scan); 9.10's answer is a whole number,
compared by the policy.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from .. import (computed_torque_law, dynparams, energy, fdyn, gravload, inertia, inertia_x, jtraj,
                nofriction, payload, rne, sea, simulate)
from ..models import puma560, puma560_motor2, twolink
from . import Custom, Mistake, Numeric, When, read_number

__all__: list[str] = []

EX91 = dict(samples=361, spread=1.1)
EX92 = dict(demand=50.0, Kv=1.0)
EX95 = dict(samples=201, share=0.1)
EX96 = dict(p=(0.0, 0.0, 0.1), limit=60.0)
EX97 = dict(q=(0.0, 0.5, 2.5, 0.0, 0.8, 0.0), mass=2.5, p=(0.0, 0.0, 0.1))
EX98 = dict(T=0.5)
EX99 = dict(samples=201)
EX910 = dict(mass=2.5, p=(0.0, 0.0, 0.1), T=1.0, dt=0.01, limit=0.01, wn0=10.0)
EX911 = dict(speed=0.5, dt=1e-4, T=0.35, window=0.02, limit=20.0)


_ROTOR = ("the joint inertia from the model holds the rotor at the Puma's own ratio: only the "
                "link's part stays fixed when the ratio changes")
_FRICTION = ("friction takes the motor's torque as well: the full model includes it")

#: the band of the chapter's numeric answers: relative, with an absolute floor near zero
_BAND = dict(rtol=1e-4, atol=1e-9)
_LOOSE = dict(rtol=1e-3, atol=1e-9)


@cache
def _ex91():
    """The smallest gear ratio for which the velocity loop's bandwidth, (B + K Kv) / J', varies by at
    most the spread as the elbow turns: J' = Jm + J_link / G^2, with J_link the link's part of M22
    over the elbow grid (the rest at qz), the same for any G."""
    p, m = puma560(), puma560_motor2()
    P = dynparams(p)
    Q = np.zeros((EX91["samples"], 6))
    Q[:, 2] = np.linspace(-np.pi, np.pi, EX91["samples"])
    M22 = inertia(p, Q)[:, 1, 1]
    link = M22 - P.G[1] ** 2 * P.Jm[1]
    s = EX91["spread"]

    def ratio(J):                               # Jm + J.max()/G^2 = s (Jm + J.min()/G^2), for G
        return float(np.sqrt((J.max() - s * J.min()) / ((s - 1) * m.Jm)))

    return dict(right=ratio(link), rotor_twice=ratio(M22), puma=m.G,
                of_rotor=float(np.sqrt((link.max() - link.min()) / ((s - 1) * m.Jm))))


@cache
def _ex92():
    p, m = puma560(), puma560_motor2()
    g = float(gravload(p, p.qs)[1])
    tau_d = g / m.G
    K, w, Kv = m.Km * m.Ka, EX92["demand"], EX92["Kv"]
    right = (m.B * w + tau_d) / (m.B + K * Kv)
    return right, tau_d / (K * Kv), m.B * w / (m.B + K * Kv), (m.B * w + g) / (m.B + K * Kv)


def _best_ratio(J_load, g, Jm, tau_max):
    r"""The G maximising (G tau_max - g) / (G^2 Jm + J_load): the positive root of
    -tau_max Jm G^2 + 2 g Jm G + tau_max J_load = 0."""
    return (g * Jm + np.sqrt((g * Jm) ** 2 + tau_max**2 * Jm * J_load)) / (tau_max * Jm)


@cache
def _ex93():
    p, m = puma560(), puma560_motor2()
    P = dynparams(p)
    M22 = float(inertia(p, p.qn)[1, 1])
    link = M22 - P.G[1] ** 2 * P.Jm[1]              # the link's part, the same for any G
    g = float(gravload(p, p.qn)[1])
    Jm, t = m.Jm, m.tau_max
    return dict(best=_best_ratio(link, g, Jm, t), match=np.sqrt(link / Jm),
                rotor_twice=(_best_ratio(M22, g, Jm, t), np.sqrt(M22 / Jm)), hold=g / t)


def _ex95_shares(T=1.0):
    """Along jtraj(qz, qr) in T s: the peak velocity torque at joint 2 over its peak gravity torque,
    and the same with the inertial torque included (no friction in either)."""
    p = puma560()
    nf = nofriction(p, viscous=True)
    tr = jtraj(p.qz, p.qr, np.linspace(0.0, T, EX95["samples"]))
    zero = [0.0, 0.0, 0.0]
    g = np.abs(gravload(p, tr.q)[:, 1]).max()
    velocity = np.abs(rne(nf, tr.q, tr.qd, np.zeros_like(tr.qdd), gravity=zero)[:, 1]).max()
    dynamic = np.abs(rne(nf, tr.q, tr.qd, tr.qdd, gravity=zero)[:, 1]).max()
    return float(velocity / g), float(dynamic / g)


@cache
def _ex95():
    """The duration at which the share reaches the limit: the velocity torque grows as 1/T^2 (the
    speeds as 1/T along the same path), the gravity torque not at all."""
    velocity, dynamic = _ex95_shares()
    s = EX95["share"]
    return dict(right=np.sqrt(velocity / s), inertial=np.sqrt(dynamic / s), linear=velocity / s)


@cache
def _ex96():
    p = puma560()
    g0 = float(gravload(p, p.qs)[1])
    payload(p, 1.0, EX96["p"])
    g1 = float(gravload(p, p.qs)[1])
    return (EX96["limit"] - g0) / (g1 - g0), g0, g1


@cache
def _ex98():
    tl = nofriction(twolink(), viscous=True)
    sim = fdyn(tl, EX98["T"], tl.qz, rtol=1e-10, atol=1e-10, npoints=2)
    e = energy(tl, sim.q, sim.qd)
    return float(e.kinetic[-1]), float(e.potential[0] - e.potential[-1])


def _shoulder_peak(robot, T, gravity=None):
    """The largest |torque| joint 2 needs along jtraj(qz, qr) done in T seconds."""
    tr = jtraj(robot.qz, robot.qr, np.linspace(0.0, T, EX99["samples"]))
    return float(np.abs(rne(robot, tr.q, tr.qd, tr.qdd, gravity=gravity)[:, 1]).max())


@cache
def _ex99():
    p, m = puma560(), puma560_motor2()
    limit = m.G * m.tau_max

    def shortest(robot, gravity=None):
        return brentq(lambda T: _shoulder_peak(robot, T, gravity) - limit, 0.2, 5.0, xtol=1e-9)

    return dict(right=shortest(p), limit=limit,
                no_friction=(shortest(nofriction(p)), shortest(nofriction(p, viscous=True))),
                no_gravity=shortest(p, gravity=[0, 0, 0]))


@cache
def _ex97():
    """The eigenvalues of the translational Cartesian inertia at q, without and with the payload."""
    q = np.array(EX97["q"])
    empty = puma560()
    loaded = puma560()
    payload(loaded, EX97["mass"], EX97["p"])
    e0, e1 = (np.linalg.eigvalsh(inertia_x(r, q, "trans")) for r in (empty, loaded))
    return dict(right=float(e1[0] - e0[0]), hardest=float(e1[-1] - e0[-1]), ratio=float(e1[0] / e0[0]))


def _payload_side_9_6(v):
    """The fallback of 9.6: on which side of the limit the student's mass puts the shoulder."""
    p = puma560()
    payload(p, v, EX96["p"])
    g = float(gravload(p, p.qs)[1])
    return ("with your mass the shoulder's gravity load is "
            + ("above" if g > EX96["limit"] else "below")
            + " the limit; the load grows linearly with the payload mass")


def _ex94_load(q2, joint=1):
    """Gravity load on a joint of the Puma at qz with the shoulder at q2."""
    p = puma560()
    q = p.qz
    q[1] = q2
    return float(gravload(p, q)[joint])


@cache
def _ex94():
    """The shoulder angle in [-pi/2, pi/2] of the largest shoulder load (the rest at qz), of the
    largest elbow load, and where the shoulder load vanishes."""
    lo, hi = -np.pi / 2, np.pi / 2

    def peak(joint):
        return float(minimize_scalar(lambda x: -abs(_ex94_load(x, joint)), bounds=(lo, hi),
                                     method="bounded", options=dict(xatol=1e-10)).x)

    right = peak(1)
    return dict(right=right, elbow=peak(2), balanced=brentq(_ex94_load, right, hi, xtol=1e-12))


@cache
def _ex910_error(wn, exact=False):
    """The largest joint error of computed torque (critically damped at wn) along jtraj(qz, qr), when
    the real arm carries the payload the model lacks (with exact: the real arm is the model)."""
    p = puma560()
    model = nofriction(p)
    real = nofriction(p)
    if not exact:
        payload(real, EX910["mass"], EX910["p"])
    dt, T = EX910["dt"], EX910["T"]
    traj = jtraj(p.qz, p.qr, np.arange(0.0, T + dt / 2, dt))
    sim = simulate(real, computed_torque_law(model, traj, wn ** 2, 2 * wn), p.qz, T=T, dt=dt)
    return float(np.abs(sim.error).max())


def _smallest_wn(start, exact=False):
    """The smallest whole wn whose error is within the limit, stepping from ``start``."""
    def ok(wn):
        return _ex910_error(wn, exact) <= EX910["limit"]

    wn = int(start)
    while not ok(wn):
        wn += 1
    while wn > 1 and ok(wn - 1):
        wn -= 1
    return float(wn)


@cache
def _ex910():
    """The answer, the 1/wn^2 prediction from the error at wn0, and the answer for an exact model."""
    wn0 = EX910["wn0"]
    predicted = float(np.ceil(wn0 * np.sqrt(_ex910_error(wn0) / EX910["limit"])))
    return dict(right=_smallest_wn(predicted), predicted=predicted, exact=_smallest_wn(wn0, exact=True))


def _sensed_force(k):
    """The largest spring force from the first contact until ``window`` later (None: no contact)."""
    t = np.arange(0.0, EX911["T"], EX911["dt"])
    r = sea(t, EX911["speed"], k=k)
    touching = r.contact_force > 0
    if not touching.any():
        return None
    hit = t[np.argmax(touching)]
    window = (t >= hit) & (t <= hit + EX911["window"] + 1e-9)
    return float(r.spring_force[window].max())


def _check_9_11(answer):
    """The stiffest spring whose force stays within the limit until the controller reacts."""
    v, hint = read_number(answer, "spring stiffness in N/m")
    if hint:
        return hint
    if v <= 0:
        return "a spring's stiffness is positive"
    limit = EX911["limit"]
    f = _sensed_force(v)
    if f is not None and f > limit * (1 + 5e-3):
        return ("with that spring the force passes the limit before the controller can react: "
                "the spring must be softer")
    stiffer = _sensed_force(1.02 * v)
    if stiffer is None or stiffer <= limit:
        return ("a stiffer spring would still keep the force within the limit: the question asks "
                "for the stiffest one")
    return None


# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    Numeric(
        "9.1", expected=lambda: _ex91()["right"], what="gear ratio", **_LOOSE,
        mistakes=[
            When(lambda v: v <= 0, "a gear ratio is positive", example=-1.0),
            Mistake(lambda: _ex91()["rotor_twice"], _ROTOR),
            Mistake(lambda: _ex91()["of_rotor"], "the limit is on the ratio of the fastest to the slowest "
                                                 "bandwidth: the slowest has the rotor and the lightest link "
                                                 "on the shaft, not the rotor alone"),
            When(lambda v: v < _ex91()["right"], "with that ratio the fastest bandwidth is still more than "
                                                 "1.1 times the slowest", example=lambda: _ex91()["puma"]),
        ],
        fallback="that ratio meets the requirement, but a smaller one does too: the question asks for "
                 "the smallest"),
    Numeric(
        "9.2", expected=lambda: _ex92()[0], what="speed error in rad/s", **_BAND,
        mistakes=[
            Mistake(lambda: -_ex92()[0], "check the sign: the error is the demand minus the speed, and the "
                                         "disturbance holds the motor back"),
            Mistake(lambda: _ex92()[1], "the motor's viscous friction also takes torque at that speed",
                    rtol=1e-3),
            Mistake(lambda: _ex92()[2], "the arm's weight is missing: it loads the motor through the gearbox",
                    rtol=1e-3),
            Mistake(lambda: _ex92()[3], "the disturbance at the motor is the joint's torque divided by the "
                                        "gear ratio", rtol=1e-3),
        ],
        fallback="at steady state the torque that the error produces through the gain balances the "
                 "friction at the running speed plus the disturbance"),
    Numeric(
        "9.3", expected=lambda: _ex93()["best"], what="gear ratio", rtol=2e-3, atol=1e-9,
        mistakes=[
            When(lambda v: v <= _ex93()["hold"], "with that ratio the motor cannot even hold the arm up at "
                                                 "the nominal pose", example=1.0),
            Mistake(lambda: _ex93()["match"], "that is the inertia match, best when only inertia loads the "
                                              "motor; here the arm's weight takes part of the torque too"),
            Mistake(lambda: _ex93()["rotor_twice"][0], _ROTOR),
            Mistake(lambda: _ex93()["rotor_twice"][1], _ROTOR),
            When(lambda v: v < _ex93()["best"], "a larger ratio still gives joint 2 a larger acceleration",
                 example=lambda: 0.9 * _ex93()["best"]),
        ],
        fallback="past the best ratio the motor spends its torque accelerating its own rotor: try a "
                 "smaller one"),
    Numeric(
        "9.4", expected=lambda: _ex94()["right"], what="the shoulder angle q2 in radians", rtol=0, atol=2e-3,
        mistakes=[
            Mistake(lambda: np.degrees(_ex94()["right"]), "the answer is expected in radians", atol=0.2),
            When(lambda v: not -np.pi / 2 <= v <= np.pi / 2, "the same load occurs with the arm turned "
                 "over; give the angle between -pi/2 and pi/2", example=lambda: _ex94()["right"] + np.pi),
            Mistake(0.0, "at q2 = 0 the upper arm is level, but the forearm and the wrist hang elsewhere: "
                         "the load is largest where the whole arm's centre of mass is level with the "
                         "shoulder"),
            Mistake(lambda: _ex94()["elbow"], "that is where the elbow's load is largest; the exercise asks "
                                              "about the shoulder (joint 2)"),
            Mistake(lambda: _ex94()["balanced"], "there the arm balances over the shoulder and the load "
                                                 "vanishes: the question asks for the largest load"),
        ],
        fallback="not the shoulder angle of the largest load: evaluate it over many shoulder angles"),
    Numeric(
        "9.5", expected=lambda: _ex95()["right"], what="duration in s", **_LOOSE,
        mistakes=[
            When(lambda v: v <= 0, "a duration is positive", example=-1.0),
            Mistake(lambda: _ex95()["inertial"], "only the velocity torques (Coriolis and centripetal) count: "
                                                 "leave out the torque the accelerations need"),
            Mistake(lambda: _ex95()["linear"], "the velocity torques grow as the square of the speeds, and the "
                                               "speeds as one over the duration"),
            When(lambda v: v < _ex95()["right"], "in that time the velocity torques are already more than a "
                                                 "tenth of the gravity torque",
                 example=lambda: 0.5 * _ex95()["right"]),
        ],
        fallback="in that time the velocity torques stay below a tenth of the gravity torque: the "
                 "duration asked for is shorter"),
    Numeric(
        "9.6", expected=lambda: _ex96()[0], what="payload mass in kg", **_LOOSE,
        mistakes=[
            When(lambda v: v < 0, "a mass cannot be negative", example=-1.0),
            Mistake(lambda: EX96["limit"] / _ex96()[2], "the arm's own weight already loads the shoulder: "
                                                        "only what is left is for the payload"),
        ],
        fallback=_payload_side_9_6),
    Numeric(
        "9.7", expected=lambda: _ex97()["right"], what="mass in kg", **_LOOSE,
        mistakes=[
            When(lambda v: v < 0, "a payload cannot make the arm easier to accelerate", example=-1.0),
            Mistake(lambda: EX97["mass"], "the payload's mass is not simply added: it sits beyond the tool "
                                          "point, it loads every joint, and the translational Cartesian "
                                          "inertia comes out of the whole arm's inertia"),
            Mistake(lambda: _ex97()["hardest"], "that is the hardest direction; the exercise asks about the "
                                                "easiest one"),
            Mistake(lambda: _ex97()["ratio"], "the exercise asks for the increase in kg, not the ratio"),
        ],
        fallback="not the increase of the smallest eigenvalue of the translational Cartesian inertia "
                 "(with the payload, minus without)"),
    Numeric(
        "9.8", expected=lambda: _ex98()[0], what="kinetic energy in J", **_LOOSE,
        mistakes=[
            # (the final potential energy, once a mistake of its own, is minus the kinetic energy
            # here: the arm starts at zero potential and loses none to friction; this hint covers it)
            Mistake(lambda: -_ex98()[0], "kinetic energy is never negative (is that the potential energy?)"),
        ],
        fallback="simulate the frictionless arm (Coulomb and viscous friction removed) with zero torque, "
                 "then evaluate its energy at the final state; with no friction the kinetic energy "
                 "equals the potential energy lost"),
    Numeric(
        "9.9", expected=lambda: _ex99()["right"], what="duration in s", **_LOOSE,
        mistakes=[
            When(lambda v: v <= 0, "a duration is positive", example=-1.0),
            Mistake(lambda: _ex99()["no_friction"][0], _FRICTION),
            Mistake(lambda: _ex99()["no_friction"][1], _FRICTION),
            Mistake(lambda: _ex99()["no_gravity"], "the shoulder also holds the arm up against gravity while "
                                                   "it moves"),
            When(lambda v: v < _ex99()["right"], example=lambda: 0.5 * _ex99()["right"],
                 hint="that move is too fast: somewhere along it the shoulder needs more torque than its "
                      "motor gives at the joint"),
        ],
        fallback="the shoulder still has torque to spare along that move: it can be done faster"),
    Numeric(
        "9.10", expected=lambda: _ex910()["right"], what="natural frequency in rad/s",
        mistakes=[
            When(lambda v: v <= 0, "a natural frequency is positive", example=-1.0),
            Mistake(lambda: _ex910()["predicted"], "that is the prediction of the one-over-wn-squared law; the "
                                                   "payload's error changes along the move: confirm it by "
                                                   "simulation"),
            Mistake(lambda: _ex910()["exact"], "the real arm carries the payload, the controller's model does "
                                               "not"),
            When(lambda v: abs(v - round(v)) > 1e-6, "the exercise asks for a whole number of rad/s",
                 example=lambda: _ex910()["right"] - 0.5),
            When(lambda v: v < _ex910()["right"], "with that natural frequency the error still passes the "
                                                  "limit somewhere along the move",
                 example=lambda: _ex910()["right"] - 2),
        ],
        fallback="that natural frequency keeps the error within the limit, but a smaller whole number "
                 "does too"),
    Custom("9.11", _check_9_11),
]


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "with your mass the shoulder's gravity load is above the limit; the load grows linearly with the "
    "payload mass",
    "with your mass the shoulder's gravity load is below the limit; the load grows linearly with the "
    "payload mass",
    "spring stiffness in N/m",
    "a spring's stiffness is positive",
    "with that spring the force passes the limit before the controller can react: the spring must be "
    "softer",
    "a stiffer spring would still keep the force within the limit: the question asks for the stiffest one",
)
