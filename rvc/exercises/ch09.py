"""Checkers for the Chapter 9 exercises (dynamics and control).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that never reveals the expected value.
Each part of the chapter ends with its exercises: 9.1-9.3 in
``notebooks/09-1_joint_control.ipynb``, 9.4-9.8 in
``notebooks/09-2_rigid_body_dynamics.ipynb``, 9.9-9.11 in
``notebooks/09-3_model_based_control.ipynb``; the constants below are the
ones the statements give.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.optimize import brentq

from .. import (asada, dynparams, energy, fdyn, gravload, inertia, jtraj, nofriction, payload, rne,
                sea)
from ..models import puma560, puma560_motor2, twolink
from . import close, describe_shape, exercise, read_number

EX92 = dict(demand=50.0, Kv=1.0)
EX95 = dict(joint3_speed=2.0)
EX96 = dict(p=(0.0, 0.0, 0.1), limit=60.0)
EX97 = dict(q=(0.0, 0.5, 2.5, 0.0, 0.8, 0.0))
EX98 = dict(T=0.5)
EX99 = dict(samples=201)
EX910 = dict(wn=10.0, e0=0.1, t=0.3)
EX911 = dict(speed=0.5, dt=1e-4, T=0.35, window=0.02, limit=20.0)


def _near(a, b, rel=1e-4, abs_=1e-9):
    return abs(a - b) <= max(rel * abs(b), abs_)


# ================================ 09-1 joint control ================================

# --- 9.1 inertia on the motor shaft of joint 1 -------------------------------------

@lru_cache(maxsize=None)
def _ex91():
    p = puma560()
    M11 = float(inertia(p, p.qn)[0, 0])
    G, Jm = p.links[0].G, p.links[0].Jm
    return M11, G, Jm


@exercise("9.1")
def _(answer):
    v, hint = read_number(answer, "inertia in kg m^2")
    if hint:
        return hint
    M11, G, Jm = _ex91()
    expected = M11 / G**2
    if _near(v, expected):
        return None
    if _near(v, M11):
        return "that is the inertia at the joint; the motor sees it through the gearbox"
    if _near(v, M11 / abs(G)):
        return "a gearbox scales torque by G and speed by 1/G: inertia scales by G squared"
    if _near(v, Jm + M11 / G**2):
        return ("the joint's inertia from the model already includes the rotor (seen through the "
                "gearbox): adding the rotor again counts it twice")
    return "divide the inertia that joint 1 feels at qn by the right power of its gear ratio"


# --- 9.2 the speed error a disturbance leaves under P control ----------------------

@lru_cache(maxsize=None)
def _ex92():
    p, m = puma560(), puma560_motor2()
    g = float(gravload(p, p.qs)[1])
    tau_d = g / m.G
    K, w, Kv = m.Km * m.Ka, EX92["demand"], EX92["Kv"]
    right = (m.B * w + tau_d) / (m.B + K * Kv)
    return right, tau_d / (K * Kv), m.B * w / (m.B + K * Kv), (m.B * w + g) / (m.B + K * Kv)


@exercise("9.2")
def _(answer):
    v, hint = read_number(answer, "speed error in rad/s")
    if hint:
        return hint
    right, no_friction, no_disturbance, no_gearbox = _ex92()
    if _near(v, right):
        return None
    if _near(v, -right):
        return ("check the sign: the error is the demand minus the speed, and the disturbance "
                "holds the motor back")
    if _near(v, no_friction, rel=1e-3):
        return "the motor's viscous friction also takes torque at that speed"
    if _near(v, no_disturbance, rel=1e-3):
        return "the arm's weight is missing: it loads the motor through the gearbox"
    if _near(v, no_gearbox, rel=1e-3):
        return "the disturbance at the motor is the joint's torque divided by the gear ratio"
    return ("at steady state the torque that the error produces through the gain balances the "
            "friction at the running speed plus the disturbance")


# --- 9.3 the gear ratio that accelerates joint 2 best --------------------------------

def _best_ratio(J_load, g, Jm, tau_max):
    r"""The G maximising (G tau_max - g) / (G^2 Jm + J_load): the positive root of
    -tau_max Jm G^2 + 2 g Jm G + tau_max J_load = 0."""
    return (g * Jm + np.sqrt((g * Jm) ** 2 + tau_max**2 * Jm * J_load)) / (tau_max * Jm)


@lru_cache(maxsize=None)
def _ex93():
    p, m = puma560(), puma560_motor2()
    P = dynparams(p)
    M22 = float(inertia(p, p.qn)[1, 1])
    link = M22 - P.G[1] ** 2 * P.Jm[1]              # the link's part, the same for any G
    g = float(gravload(p, p.qn)[1])
    Jm, t = m.Jm, m.tau_max
    return dict(best=_best_ratio(link, g, Jm, t), match=np.sqrt(link / Jm),
                rotor_twice=(_best_ratio(M22, g, Jm, t), np.sqrt(M22 / Jm)), hold=g / t)


@exercise("9.3")
def _(answer):
    v, hint = read_number(answer, "gear ratio")
    if hint:
        return hint
    e = _ex93()
    if _near(v, e["best"], rel=2e-3):
        return None
    if v <= e["hold"]:
        return "with that ratio the motor cannot even hold the arm up at the nominal pose"
    if _near(v, e["match"], rel=2e-3):
        return ("that is the inertia match, best when only inertia loads the motor; here the "
                "arm's weight takes part of the torque too")
    if any(_near(v, x, rel=2e-3) for x in e["rotor_twice"]):
        return ("the joint inertia from the model holds the rotor at the Puma's own ratio: only "
                "the link's part stays fixed when the ratio changes")
    if v < e["best"]:
        return "a larger ratio still gives joint 2 a larger acceleration"
    return ("past the best ratio the motor spends its torque accelerating its own rotor: "
            "try a smaller one")


# ============================ 09-2 rigid-body dynamics ==============================

# --- 9.4 gravity load at qs ----------------------------------------------------------

@exercise("9.4")
def _(answer):
    p = puma560()
    expected = gravload(p, p.qs)
    a = np.asarray(answer, dtype=float) if not isinstance(answer, str) else None
    if a is not None and a.shape == expected.shape:
        if np.allclose(a, -expected, atol=1e-6):
            return ("the sign is reversed: the gravity load is the torque the motors must apply "
                    "to hold the arm still")
        if np.allclose(a, gravload(p, p.qn), atol=1e-6):
            return "that is the load at the nominal pose; which configuration is stretched out?"
    hint = close(answer, expected, atol=1e-4, what="gravity load")
    return hint and hint + " (joint speeds and accelerations are zero; gravity is the robot's own)"


# --- 9.5 a Coriolis torque ------------------------------------------------------------

@lru_cache(maxsize=None)
def _ex95():
    p = puma560()
    qd = np.zeros(6)
    qd[2] = EX95["joint3_speed"]
    nf = nofriction(p, viscous=True)
    h = rne(nf, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_friction = rne(p, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_gravity = rne(nf, p.qn, qd, np.zeros(6))
    return float(h[1]), float(with_friction[1]), float(with_gravity[1])


@exercise("9.5")
def _(answer):
    v, hint = read_number(answer, "torque on joint 2 in N m")
    if hint:
        return hint
    expected, with_friction, with_gravity = _ex95()
    if _near(v, expected):
        return None
    if _near(v, expected / 4) or _near(v, expected / 2):
        return "the velocity torques are quadratic in the speed: check the speed you used"
    if _near(v, with_gravity):
        return "only the velocity coupling is asked for: leave gravity out"
    if _near(v, -expected):
        return "check the sign: it is the torque joint 2 needs, as the inverse dynamics gives it"
    return ("the torque that joint 3's speed makes at joint 2 with no acceleration, no gravity, "
            "no friction: the Coriolis matrix times the joint speeds, or the inverse dynamics "
            "under those conditions")


# --- 9.6 payload limit ------------------------------------------------------------------

@lru_cache(maxsize=None)
def _ex96():
    p = puma560()
    g0 = float(gravload(p, p.qs)[1])
    payload(p, 1.0, EX96["p"])
    g1 = float(gravload(p, p.qs)[1])
    return (EX96["limit"] - g0) / (g1 - g0), g0, g1


@exercise("9.6")
def _(answer):
    v, hint = read_number(answer, "payload mass in kg")
    if hint:
        return hint
    expected, g0, g1 = _ex96()
    if _near(v, expected, rel=1e-3):
        return None
    if v < 0:
        return "a mass cannot be negative"
    if _near(v, EX96["limit"] / g1, rel=1e-3):
        return "the arm's own weight already loads the shoulder: only what is left is for the payload"
    p = puma560()
    payload(p, v, EX96["p"])
    g = float(gravload(p, p.qs)[1])
    return ("with your mass the shoulder's gravity load is "
            + ("above" if g > EX96["limit"] else "below")
            + " the limit; the load grows linearly with the payload mass")


# --- 9.7 dynamic manipulability -----------------------------------------------------------

@exercise("9.7")
def _(answer):
    v, hint = read_number(answer, "Asada's measure")
    if hint:
        return hint
    p = puma560()
    q = np.array(EX97["q"])
    expected = asada(p, q, "trans")
    if _near(v, expected, rel=1e-3):
        return None
    if not 0 <= v <= 1:
        return "a ratio of the smallest to the largest eigenvalue lies between 0 and 1"
    if _near(v, asada(p, q, "all"), rel=1e-3):
        return "only the translational directions were asked for"
    if _near(v, asada(p, p.qn, "trans"), rel=1e-3):
        return "that is the nominal pose; the question gives another configuration"
    return ("use the Cartesian inertia (J M^-1 J^T)^-1 restricted to the translational rows, "
            "and the ratio of its eigenvalues")


# --- 9.8 energy of a falling arm ------------------------------------------------------------

@lru_cache(maxsize=None)
def _ex98():
    tl = nofriction(twolink(), viscous=True)
    sim = fdyn(tl, EX98["T"], tl.qz, rtol=1e-10, atol=1e-10, npoints=2)
    e = energy(tl, sim.q, sim.qd)
    return float(e.kinetic[-1]), float(e.potential[0] - e.potential[-1]), float(e.potential[-1])


@exercise("9.8")
def _(answer):
    v, hint = read_number(answer, "kinetic energy in J")
    if hint:
        return hint
    kinetic, lost, potential = _ex98()
    if _near(v, kinetic, rel=1e-3):
        return None
    if _near(v, -kinetic, rel=1e-3):
        return "kinetic energy is never negative (is that the potential energy?)"
    if _near(v, potential, rel=1e-3):
        return "that is the potential energy; the question asks for the kinetic"
    return ("simulate the frictionless arm (Coulomb and viscous friction removed) with zero "
            "torque, then evaluate its energy at the final state; with no friction the kinetic "
            "energy equals the potential energy lost")


# ============================ 09-3 model-based control ==============================

# --- 9.9 the shortest move the shoulder motor allows ---------------------------------

def _shoulder_peak(robot, T, gravity=None):
    """The largest |torque| joint 2 needs along jtraj(qz, qr) done in T seconds."""
    tr = jtraj(robot.qz, robot.qr, np.linspace(0.0, T, EX99["samples"]))
    return float(np.abs(rne(robot, tr.q, tr.qd, tr.qdd, gravity=gravity)[:, 1]).max())


@lru_cache(maxsize=None)
def _ex99():
    p, m = puma560(), puma560_motor2()
    limit = m.G * m.tau_max

    def shortest(robot, gravity=None):
        return brentq(lambda T: _shoulder_peak(robot, T, gravity) - limit, 0.2, 5.0, xtol=1e-9)

    return dict(right=shortest(p), limit=limit,
                no_friction=(shortest(nofriction(p)), shortest(nofriction(p, viscous=True))),
                no_gravity=shortest(p, gravity=[0, 0, 0]))


@exercise("9.9")
def _(answer):
    v, hint = read_number(answer, "duration in s")
    if hint:
        return hint
    e = _ex99()
    if _near(v, e["right"], rel=1e-3):
        return None
    if v <= 0:
        return "a duration is positive"
    if any(_near(v, x, rel=1e-3) for x in e["no_friction"]):
        return "friction takes the motor's torque as well: the full model includes it"
    if _near(v, e["no_gravity"], rel=1e-3):
        return "the shoulder also holds the arm up against gravity while it moves"
    if v < e["right"]:
        return ("that move is too fast: somewhere along it the shoulder needs more torque than "
                "its motor gives at the joint")
    return "the shoulder still has torque to spare along that move: it can be done faster"


# --- 9.10 computed-torque gains ----------------------------------------------------------

@exercise("9.10")
def _(answer):
    a = np.asarray(answer, dtype=float) if not isinstance(answer, str) else None
    if a is None or a.shape != (3,):
        return f"expected three numbers (Kp, Kv, error), got {describe_shape(answer)}"
    wn, e0, t = EX910["wn"], EX910["e0"], EX910["t"]
    Kp, Kv = wn**2, 2 * wn
    e = e0 * (1 + wn * t) * np.exp(-wn * t)
    if not _near(a[0], Kp):
        return "Kp: the error obeys e'' + Kv e' + Kp e = 0, whose natural frequency is sqrt(Kp)"
    if not _near(a[1], Kv):
        if _near(a[1], wn):
            return "Kv: critical damping needs a damping ratio of 1, and Kv = 2 zeta wn"
        return "Kv: critical damping, zeta = Kv / (2 sqrt(Kp)) = 1"
    if not _near(a[2], e, rel=1e-3):
        if _near(a[2], e0 * np.exp(-wn * t), rel=1e-3):
            return "the error: a critically damped system has the solution (1 + wn t) e^(-wn t) e0"
        return "the error: solve e'' + Kv e' + Kp e = 0 from e(0) = e0, e'(0) = 0"
    return None


# --- 9.11 the stiffest spring a slow controller allows -------------------------------------

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


@exercise("9.11")
def _(answer):
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
