"""Checkers for the Chapter 8 exercises (manipulator velocity).

Each checker recomputes the expected value with rvc and returns ``None``
when the answer is right, or a hint that names the idea or the mistake and
never the expected value.  The statements are at the end of
``notebooks/08_manipulator_velocity.ipynb``; the constants below are the ones
they give.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np

from scipy.optimize import brentq

from .. import DHRobot, RevoluteDH, jacob0, nullproj, resolve_rates, rrmc2, transl, trotx, wrench2tau
from ..models import baxter, planar2, puma560
from . import close, exercise, read_array, read_number

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


# --- 8.1 the Jacobian of a planar arm ----------------------------------------

@lru_cache(maxsize=None)
def _ex81():
    robot = DHRobot([RevoluteDH(a=EX81["a1"]), RevoluteDH(a=EX81["a2"])])
    return jacob0(robot, EX81["q"])


@exercise("8.1")
def _(answer):
    J = _ex81()
    a = np.asarray(answer, dtype=float) if not isinstance(answer, str) else np.zeros(0)
    if a.shape == (6, 2):
        return "that is the full 6x2 Jacobian; the exercise asks for the rows of the tip's x and y velocity"
    if a.shape == (2, 2) and np.allclose(a, J[:2].T, atol=1e-6) and not np.allclose(a, J[:2], atol=1e-6):
        return "transposed: a row is a velocity component (x, y), a column a joint"
    hint = close(answer, J[:2], atol=1e-6, what="Jacobian")
    if hint is None:
        return None
    if a.shape == (2, 2) and np.allclose(a, J[:2][:, ::-1], atol=1e-6):
        return "the columns are swapped: column j belongs to joint j"
    return hint + " (are the link lengths a1 = 0.8, a2 = 0.5 and the angles in radians?)"


# --- 8.2 rates of the ZYZ Euler angles ---------------------------------------

@lru_cache(maxsize=None)
def _ex82():
    p560 = puma560()
    q = p560.qn
    qd = np.array(EX82["qd"])
    with warnings.catch_warnings():      # at qn the roll-pitch-yaw angles are at gimbal lock
        warnings.simplefilter("ignore")
        rpy = [(jacob0(p560, q, a) @ qd)[3:] for a in ("rpy/xyz", "rpy/zyx")]
    return (jacob0(p560, q, "eul") @ qd)[3:], (jacob0(p560, q) @ qd)[3:], rpy[0], rpy[1]


@exercise("8.2")
def _(answer):
    a, hint = read_array(answer, (3,), "the three Euler angle rates")
    if hint:
        return hint
    eul, omega, rpyx, rpyz = _ex82()
    if np.allclose(a, eul, atol=1e-6):
        return None
    if np.allclose(a, omega, atol=1e-6):
        return ("that is the angular velocity from the geometric Jacobian; the angle rates need the "
                "analytical one")
    if np.allclose(a, rpyx, atol=1e-6) or np.allclose(a, rpyz, atol=1e-6):
        return "those are roll-pitch-yaw rates; the exercise asks for ZYZ Euler angles"
    return "not the Euler angle rates at qn for those joint rates (the angular rows of the analytical Jacobian)"


# --- 8.3 joint rates near the wrist singularity ------------------------------

def _ex83_q():
    q = puma560().qn
    q[4] = np.radians(EX83["q5_deg"])
    return q


@lru_cache(maxsize=None)
def _ex83():
    J = jacob0(puma560(), _ex83_q())
    v = np.r_[0.0, 0.0, 0.0, EX83["w"]]
    return resolve_rates(J, v, "inv"), J, v


@exercise("8.3")
def _(answer):
    a, hint = read_array(answer, (6,), "the six joint rates")
    if hint:
        return hint
    qd, J, v = _ex83()
    if np.allclose(a, qd, rtol=1e-6, atol=1e-6):
        return None
    if np.allclose(J @ a, np.r_[EX83["w"], 0.0, 0.0, 0.0], atol=1e-6):
        return "the order of a spatial velocity is (linear, angular): the angular velocity goes last"
    if not np.allclose(J @ a, v, atol=1e-6):
        return "your rates do not give the asked tool velocity (was q5 converted to radians?)"
    return "your rates give the asked velocity but are not those of the inverse Jacobian"


# --- 8.4 joint torques from a wrench in the tool frame -----------------------

@lru_cache(maxsize=None)
def _ex84():
    p560 = puma560()
    w = np.array([0, 0, EX84["f_tool_z"], 0, 0, EX84["m_tool_z"]])
    return wrench2tau(p560, p560.qn, w, "tool"), wrench2tau(p560, p560.qn, w, "world")


@exercise("8.4")
def _(answer):
    a, hint = read_array(answer, (6,), "the six joint torques")
    if hint:
        return hint
    tool, world = _ex84()
    if np.allclose(a, tool, atol=1e-6):
        return None
    if np.allclose(a, world, atol=1e-6):
        return "the wrench is given in the tool's axes, not the world's: use the matching Jacobian"
    if np.allclose(a, -tool, atol=1e-6):
        return "the sign: the exercise asks for the torques the wrench exerts on the joints"
    return "not J^T w at qn for that wrench (order: force first, then moment)"


# --- 8.5 redundancy: a tool velocity plus null-space motion of joint 1 ------

@lru_cache(maxsize=None)
def _ex85():
    left = baxter("left")
    J = jacob0(left, EX85["q"])
    v = np.array(EX85["v"], dtype=float)
    q1 = np.zeros(7)
    q1[0] = EX85["qd1"]
    return resolve_rates(J, v) + nullproj(J) @ q1, J, v


@exercise("8.5")
def _(answer):
    a, hint = read_array(answer, (7,), "Baxter's seven joint rates")
    if hint:
        return hint
    qd, J, v = _ex85()
    if np.allclose(a, qd, atol=1e-6):
        return None
    if not np.allclose(J @ a, v, atol=1e-6):
        return ("your rates change the tool velocity: the joint-1 motion must be projected into the "
                "null space of J before it is added")
    if np.allclose(a, np.linalg.pinv(J) @ v, atol=1e-6):
        return "that is the minimum-norm solution alone; add the null-space part for joint 1"
    return "the tool velocity is right, but the null-space part is not the projection of (0.2, 0, ..., 0)"


# --- 8.6 small project: where does the planar arm push hardest along y ------------

@lru_cache(maxsize=None)
def _ex86_curve():
    p2 = planar2(EX86["a1"], EX86["a2"])
    q2 = np.linspace(0.05, np.pi - 0.05, 2000)
    Q = np.column_stack([np.full_like(q2, EX86["q1"]), q2])
    J = jacob0(p2, Q)[:, :2]
    force = 1 / np.linalg.norm(J[:, 1, :], axis=-1)          # |w| with |J^T w| = 1, w along y
    return q2, force


@exercise("8.6")
def _(answer):
    v, hint = read_number(answer, "the elbow angle q2 in radians")
    if hint:
        return hint
    if not 0 < v < np.pi:
        return "q2 must lie strictly between 0 and pi (elbow bent to one side)"
    q2, force = _ex86_curve()
    best = q2[np.argmax(force)]
    if abs(v - best) < 2e-3:
        return None
    if abs(v - np.pi / 2) < 2e-3:
        return ("q2 = pi/2 maximises the manipulability (the velocity ellipse's area); "
                "force is the dual question")
    if abs(v - np.degrees(best)) < 0.2:
        return "the answer is expected in radians"
    return ("not the maximum: for each q2 find the largest force along y that unit joint torques "
            "allow, then take the q2 where that is largest")


# --- 8.7 closed-loop RRMC settling time -----------------------------

@lru_cache(maxsize=None)
def _ex87():
    p560 = puma560()
    goal = transl(*EX87["dp"]) @ p560.fkine(p560.qn) @ trotx(EX87["rx"])
    r = rrmc2(p560, p560.qn, goal, gain=EX87["gain"], dt=EX87["dt"], steps=EX87["steps"], method="inv")
    pos = np.linalg.norm(r.e[:, :3], axis=-1)
    full = np.linalg.norm(r.e, axis=-1)
    t_pos = float(r.t[np.argmax(pos < EX87["tol"])])
    t_full = float(r.t[np.argmax(full < EX87["tol"])]) if np.any(full < EX87["tol"]) else np.inf
    return t_pos, t_full


@exercise("8.7")
def _(answer):
    v, hint = read_number(answer, "a time in seconds")
    if hint:
        return hint
    t_pos, t_full = _ex87()
    dt = EX87["dt"]
    if abs(v - t_pos) < dt / 2:
        return None
    if abs(v - t_full) < dt / 2 and abs(t_full - t_pos) >= dt / 2:
        return "that uses the whole pose error; the exercise asks about the position error only"
    if abs(v - t_pos / dt) < 0.5:
        return "that looks like a sample index; the answer is a time in seconds"
    if abs(v - (t_pos + dt)) < dt / 2 or abs(v - (t_pos - dt)) < dt / 2:
        return "one sample off: take the first sample whose position error is below 1 mm"
    return ("not when the position error first drops below 1 mm; check the gain, the sample time "
            "and that the goal is the translated tool pose")


# --- 8.8 small project: the singularities of an arm given by its DH table ---

def _ex88_arm(a2=EX88["a2"], a3=EX88["a3"]):
    return DHRobot([RevoluteDH(d=EX88["d1"], alpha=np.pi / 2), RevoluteDH(a=a2), RevoluteDH(a=a3)])


def _ex88_root(q3, a2=EX88["a2"], a3=EX88["a3"]):
    """The shoulder angle in (0, pi) where det of the translational Jacobian changes sign."""
    arm = _ex88_arm(a2, a3)

    def det(q2):
        return float(np.linalg.det(jacob0(arm, [0.0, q2, q3])[:3]))

    return brentq(det, 1e-3, np.pi - 1e-3, xtol=1e-12)


@lru_cache(maxsize=None)
def _ex88():
    q3 = EX88["q3"]
    return _ex88_root(q3), _ex88_root(-q3), _ex88_root(q3, EX88["a3"], EX88["a2"])


@exercise("8.8")
def _(answer):
    v, hint = read_number(answer, "the shoulder angle q2 in radians")
    if hint:
        return hint
    best, other_elbow, swapped = _ex88()
    tol = EX88["tol"]
    if abs(v - best) < tol:
        return None
    if abs(v - np.degrees(best)) < 0.2:
        return "the answer is expected in radians"
    if abs(v - (best - np.pi)) < tol:
        return ("that is the same singularity with the arm reaching backwards; the exercise asks "
                "for q2 between 0 and pi")
    if not 0 < v < np.pi:
        return "q2 must lie strictly between 0 and pi"
    if abs(v - other_elbow) < tol:
        return "that is the singular shoulder angle with the elbow bent the other way (q3 = -pi/3)"
    if abs(v - swapped) < tol:
        return "check the DH table: the upper arm (joint 2) is the longer link"
    return ("not a configuration where the three joints lose a direction of the tool point: look at "
            "the translational rows of the Jacobian only, and ask where the tool point can no longer "
            "be moved by the waist")


# --- 8.9 small project: damping through the wrist singularity ---------------

def _ex89_start():
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(EX89["q5_deg"])
    T = p560.fkine(q)
    goal = trotx(EX89["rx"]) @ T
    goal[:3, 3] = T[:3, 3]
    return p560, q, goal


@lru_cache(maxsize=None)
def _ex89():
    """Per damping of the grid: the peak |qd_j| and the peak |qd| (2-norm over the joints)."""
    p560, q, goal = _ex89_start()
    peak, peak_norm = [], []
    for lam in EX89["damping"]:
        r = rrmc2(p560, q, goal, gain=EX89["gain"], dt=EX89["dt"], steps=EX89["steps"], damping=lam)
        peak.append(np.abs(r.qd).max())
        peak_norm.append(np.linalg.norm(r.qd, axis=-1).max())
    return np.array(peak), np.array(peak_norm)


@exercise("8.9")
def _(answer):
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
