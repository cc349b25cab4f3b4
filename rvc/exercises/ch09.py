"""Checkers for the Chapter 9 exercises (dynamics and control).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that never reveals the expected value.
The statements are in ``notebooks/09-3_model_based_control.ipynb``; the
constants below are the ones they give.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import asada, energy, fdyn, gravload, inertia, nofriction, payload, rne
from ..models import puma560, twolink
from . import close, describe_shape, exercise

EX93 = dict(joint3_speed=2.0)
EX94 = dict(p=(0.0, 0.0, 0.1), limit=60.0)
EX95 = dict(T=0.5)
EX96 = dict(wn=10.0, e0=0.1, t=0.3)
EX97 = dict(q=(0.0, 0.5, 2.5, 0.0, 0.8, 0.0))


def _scalar(answer, what):
    """(value, hint): a finite float, or a hint about what came instead."""
    if isinstance(answer, (str, bytes)):
        return None, f"expected one number ({what}), got a string"
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    if a.size != 1:
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    v = float(a.reshape(()))
    if not np.isfinite(v):
        return None, f"your {what} is NaN or inf"
    return v, None


def _near(a, b, rel=1e-4, abs_=1e-9):
    return abs(a - b) <= max(rel * abs(b), abs_)


# --- 9.1 gravity load at qs ------------------------------------------------------

@exercise("9.1")
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


# --- 9.2 inertia on the motor shaft of joint 1 -------------------------------------

@lru_cache(maxsize=None)
def _ex92():
    p = puma560()
    M11 = float(inertia(p, p.qn)[0, 0])
    G, Jm = p.links[0].G, p.links[0].Jm
    return M11, G, Jm


@exercise("9.2")
def _(answer):
    v, hint = _scalar(answer, "inertia in kg m^2")
    if hint:
        return hint
    M11, G, Jm = _ex92()
    expected = M11 / G**2
    if _near(v, expected):
        return None
    if _near(v, M11):
        return "that is the inertia at the joint; the motor sees it through the gearbox"
    if _near(v, M11 / abs(G)):
        return "a gearbox scales torque by G and speed by 1/G: inertia scales by G squared"
    if _near(v, Jm + M11 / G**2):
        return "inertia() already includes the rotor's own inertia: it is counted twice"
    return "divide the inertia that joint 1 feels at qn by the right power of its gear ratio"


# --- 9.3 a Coriolis torque ----------------------------------------------------------

@lru_cache(maxsize=None)
def _ex93():
    p = puma560()
    qd = np.zeros(6)
    qd[2] = EX93["joint3_speed"]
    nf = nofriction(p, viscous=True)
    h = rne(nf, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_friction = rne(p, p.qn, qd, np.zeros(6), gravity=[0, 0, 0])
    with_gravity = rne(nf, p.qn, qd, np.zeros(6))
    return float(h[1]), float(with_friction[1]), float(with_gravity[1])


@exercise("9.3")
def _(answer):
    v, hint = _scalar(answer, "torque on joint 2 in N m")
    if hint:
        return hint
    expected, with_friction, with_gravity = _ex93()
    if _near(v, expected):
        return None
    if _near(v, expected / 4) or _near(v, expected / 2):
        return "the velocity torques are quadratic in the speed: check the speed you used"
    if _near(v, with_gravity):
        return "only the velocity coupling is asked for: leave gravity out"
    if _near(v, -expected):
        return "check the sign: it is the torque joint 2 needs, as rne returns"
    return ("the torque that joint 3's speed makes at joint 2 with no acceleration, no gravity, "
            "no friction: C(q, qd) qd, or rne under those conditions")


# --- 9.4 payload limit --------------------------------------------------------------

@lru_cache(maxsize=None)
def _ex94():
    p = puma560()
    g0 = float(gravload(p, p.qs)[1])
    payload(p, 1.0, EX94["p"])
    g1 = float(gravload(p, p.qs)[1])
    return (EX94["limit"] - g0) / (g1 - g0), g0, g1


@exercise("9.4")
def _(answer):
    v, hint = _scalar(answer, "payload mass in kg")
    if hint:
        return hint
    expected, g0, g1 = _ex94()
    if _near(v, expected, rel=1e-3):
        return None
    if v < 0:
        return "a mass cannot be negative"
    if _near(v, EX94["limit"] / g1, rel=1e-3):
        return "the arm's own weight already loads the shoulder: only what is left is for the payload"
    p = puma560()
    payload(p, v, EX94["p"])
    g = float(gravload(p, p.qs)[1])
    return ("with your mass the shoulder's gravity load is "
            + ("above" if g > EX94["limit"] else "below")
            + " the limit; the load grows linearly with the payload mass")


# --- 9.5 energy of a falling arm ----------------------------------------------------

@lru_cache(maxsize=None)
def _ex95():
    tl = nofriction(twolink(), viscous=True)
    sim = fdyn(tl, EX95["T"], tl.qz, rtol=1e-10, atol=1e-10, npoints=2)
    e = energy(tl, sim.q, sim.qd)
    return float(e.kinetic[-1]), float(e.potential[0] - e.potential[-1]), float(e.potential[-1])


@exercise("9.5")
def _(answer):
    v, hint = _scalar(answer, "kinetic energy in J")
    if hint:
        return hint
    kinetic, lost, potential = _ex95()
    if _near(v, kinetic, rel=1e-3):
        return None
    if _near(v, -kinetic, rel=1e-3):
        return "kinetic energy is never negative (is that the potential energy?)"
    if _near(v, potential, rel=1e-3):
        return "that is the potential energy; the question asks for the kinetic"
    return ("simulate the frictionless arm (Coulomb and viscous friction removed) with zero "
            "torque, then evaluate its energy at the final state; with no friction the kinetic "
            "energy equals the potential energy lost")


# --- 9.6 computed-torque gains --------------------------------------------------------

@exercise("9.6")
def _(answer):
    a = np.asarray(answer, dtype=float) if not isinstance(answer, str) else None
    if a is None or a.shape != (3,):
        return f"expected three numbers (Kp, Kv, error), got {describe_shape(answer)}"
    wn, e0, t = EX96["wn"], EX96["e0"], EX96["t"]
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


# --- 9.7 dynamic manipulability ---------------------------------------------------------

@exercise("9.7")
def _(answer):
    v, hint = _scalar(answer, "Asada's measure")
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
