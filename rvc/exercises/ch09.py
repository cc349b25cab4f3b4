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
9.4 compares torques of tens of N m absolutely within 1e-4 N m (its two
listed mistakes within the array policy's band).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.optimize import brentq

from .. import (asada, dynparams, energy, fdyn, gravload, inertia, jtraj, nofriction, payload, rne,
                sea)
from ..models import puma560, puma560_motor2, twolink
from . import ArrayAnswer, Custom, Mistake, Numeric, When, describe_shape, read_number

__all__: list[str] = []

EX92 = dict(demand=50.0, Kv=1.0)
EX95 = dict(joint3_speed=2.0)
EX96 = dict(p=(0.0, 0.0, 0.1), limit=60.0)
EX97 = dict(q=(0.0, 0.5, 2.5, 0.0, 0.8, 0.0))
EX98 = dict(T=0.5)
EX99 = dict(samples=201)
EX910 = dict(wn=10.0, e0=0.1, t=0.3)
EX911 = dict(speed=0.5, dt=1e-4, T=0.35, window=0.02, limit=20.0)


_ROTOR = ("the joint inertia from the model holds the rotor at the Puma's own ratio: only the "
                "link's part stays fixed when the ratio changes")
_QUADRATIC = ("the velocity torques are quadratic in the speed: check the speed you used")
_FRICTION = ("friction takes the motor's torque as well: the full model includes it")

#: the band of the chapter's numeric answers: relative, with an absolute floor near zero
_BAND = dict(rtol=1e-4, atol=1e-9)
_LOOSE = dict(rtol=1e-3, atol=1e-9)


@cache
def _ex91():
    p = puma560()
    M11 = float(inertia(p, p.qn)[0, 0])
    G, Jm = p.links[0].G, p.links[0].Jm
    return M11, G, Jm


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


@cache
def _ex95():
    p = puma560()
    qd = np.zeros(6)
    qd[2] = EX95["joint3_speed"]
    nf = nofriction(p, viscous=True)
    h = rne(nf, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_friction = rne(p, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_gravity = rne(nf, p.qn, qd, np.zeros(6))
    return float(h[1]), float(with_friction[1]), float(with_gravity[1])


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
    p = puma560()
    q = np.array(EX97["q"])
    return asada(p, q, "trans"), asada(p, q, "all"), asada(p, p.qn, "trans")


def _payload_side_9_6(v):
    """The fallback of 9.6: on which side of the limit the student's mass puts the shoulder."""
    p = puma560()
    payload(p, v, EX96["p"])
    g = float(gravload(p, p.qs)[1])
    return ("with your mass the shoulder's gravity load is "
            + ("above" if g > EX96["limit"] else "below")
            + " the limit; the load grows linearly with the payload mass")


def _check_9_10(answer):
    """Kp, Kv of a critically damped error at wn, and the error after t: three parts."""
    a = np.asarray(answer, dtype=float) if not isinstance(answer, str) else None
    if a is None or a.shape != (3,):
        return f"expected three numbers (Kp, Kv, error), got {describe_shape(answer)}"
    wn, e0, t = EX910["wn"], EX910["e0"], EX910["t"]
    Kp, Kv = wn**2, 2 * wn
    e = e0 * (1 + wn * t) * np.exp(-wn * t)
    if not Numeric.near(a[0], Kp, **_BAND):
        return "Kp: the error obeys e'' + Kv e' + Kp e = 0, whose natural frequency is sqrt(Kp)"
    if not Numeric.near(a[1], Kv, **_BAND):
        if Numeric.near(a[1], wn, **_BAND):
            return "Kv: critical damping needs a damping ratio of 1, and Kv = 2 zeta wn"
        return "Kv: critical damping, zeta = Kv / (2 sqrt(Kp)) = 1"
    if not Numeric.near(a[2], e, **_LOOSE):
        if Numeric.near(a[2], e0 * np.exp(-wn * t), **_LOOSE):
            return "the error: a critically damped system has the solution (1 + wn t) e^(-wn t) e0"
        return "the error: solve e'' + Kv e' + Kp e = 0 from e(0) = e0, e'(0) = 0"
    return None


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
        "9.1", expected=lambda: _ex91()[0] / _ex91()[1] ** 2, what="inertia in kg m^2", **_BAND,
        mistakes=[
            Mistake(lambda: _ex91()[0], "that is the inertia at the joint; the motor sees it through the "
                                        "gearbox"),
            Mistake(lambda: _ex91()[0] / abs(_ex91()[1]),
                    "a gearbox scales torque by G and speed by 1/G: inertia scales by G squared"),
            Mistake(lambda: _ex91()[2] + _ex91()[0] / _ex91()[1] ** 2,
                    "the joint's inertia from the model already includes the rotor (seen through the "
                    "gearbox): adding the rotor again counts it twice"),
        ],
        fallback="divide the inertia that joint 1 feels at qn by the right power of its gear ratio"),
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
    ArrayAnswer(
        # the answer is a torque of tens of N m: an absolute band of 1e-4 N m
        "9.4", expected=lambda: gravload(puma560(), puma560().qs), what="gravity load", rtol=0, atol=1e-4,
        mistakes=[
            Mistake(lambda: -gravload(puma560(), puma560().qs), rtol=1e-5, atol=1e-6,
                    hint="the sign is reversed: the gravity load is the torque the motors must apply to "
                         "hold the arm still"),
            Mistake(lambda: gravload(puma560(), puma560().qn), rtol=1e-5, atol=1e-6,
                    hint="that is the load at the nominal pose; which configuration is stretched out?"),
        ],
        fallback="{close} (joint speeds and accelerations are zero; gravity is the robot's own)"),
    Numeric(
        "9.5", expected=lambda: _ex95()[0], what="torque on joint 2 in N m", **_BAND,
        mistakes=[
            Mistake(lambda: _ex95()[0] / 4, _QUADRATIC),
            Mistake(lambda: _ex95()[0] / 2, _QUADRATIC),
            Mistake(lambda: _ex95()[2], "only the velocity coupling is asked for: leave gravity out"),
            Mistake(lambda: -_ex95()[0], "check the sign: it is the torque joint 2 needs, as the inverse "
                                         "dynamics gives it"),
        ],
        fallback="the torque that joint 3's speed makes at joint 2 with no acceleration, no gravity, no "
                 "friction: the Coriolis matrix times the joint speeds, or the inverse dynamics under "
                 "those conditions"),
    Numeric(
        "9.6", expected=lambda: _ex96()[0], what="payload mass in kg", **_LOOSE,
        mistakes=[
            When(lambda v: v < 0, "a mass cannot be negative", example=-1.0),
            Mistake(lambda: EX96["limit"] / _ex96()[2], "the arm's own weight already loads the shoulder: "
                                                        "only what is left is for the payload"),
        ],
        fallback=_payload_side_9_6),
    Numeric(
        "9.7", expected=lambda: _ex97()[0], what="Asada's measure", **_LOOSE,
        mistakes=[
            When(lambda v: not 0 <= v <= 1, "a ratio of the smallest to the largest eigenvalue lies between "
                                            "0 and 1", example=2.0),
            Mistake(lambda: _ex97()[1], "only the translational directions were asked for"),
            Mistake(lambda: _ex97()[2], "that is the nominal pose; the question gives another configuration"),
        ],
        fallback="use the Cartesian inertia (J M^-1 J^T)^-1 restricted to the translational rows, and the "
                 "ratio of its eigenvalues"),
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
    Custom("9.10", _check_9_10),
    Custom("9.11", _check_9_11),
]
