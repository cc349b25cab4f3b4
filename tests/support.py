"""What many test files share: the robot zoo, and derivatives by central differences.

A plain module (tests import it as ``from support import ...``, as they import
``exercise_leaks``): a second ``conftest.py`` in ``tests/`` would collide with
the root one, which gives the doctests their names.

The zoo: builders of the test chains that are not in the model library (each
call returns a fresh model, so a test may change its base or tool):

* ``prismatic_dh()``, ``prismatic_mdh()`` -- RPRP arms in both conventions;
* ``puma_ets()`` -- the Puma 560 as the notes' elementary transform sequence;
* ``with_base_tool(robot)`` -- a copy with a non-identity base and tool.

``frozen_cache`` keeps a test's expensive reference answer (a scan, a simulation)
for the rest of the worker's run and hands out a deep copy each time.

The derivatives: ``derivative(f, x, dx)`` (a directional derivative) and
``fd_jacobian(robot, q)`` (the world-frame geometric Jacobian (v, w) from
``fkine`` alone, for any chain, planar ones lifted to z = 0).
"""

import copy
import functools

import numpy as np

from rvc import DHRobot, ETS3, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH, rpy2tr, transl, trotx, vex

#: Step of the central differences (an error of order H^2 and a round-off of order 1e-16 / H).
H = 1e-6

BASE = transl(0.1, -0.2, 0.7) @ rpy2tr(0.3, -0.4, 1.1)
TOOL = transl(0.02, 0.05, 0.2) @ trotx(0.6)

PUMA_ETS = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"


def derivative(f, x, dx, h=H):
    """d/ds f(x + s dx) at s = 0, by central differences: (f(x + h dx) - f(x - h dx)) / 2h."""
    x, dx = np.asarray(x, dtype=float), np.asarray(dx, dtype=float)
    return (np.asarray(f(x + h * dx)) - np.asarray(f(x - h * dx))) / (2 * h)


def pose3(robot, q):
    """The end pose as a (..., 4, 4) array; a planar pose (3, 3) is embedded in z = 0."""
    T = np.asarray(robot.fkine(q))
    if T.shape[-2:] == (4, 4):
        return T
    out = np.zeros(T.shape[:-2] + (4, 4))
    idx = np.array([0, 1, 3])
    out[..., idx[:, None], idx] = T
    out[..., 2, 2] = 1
    return out


def fd_jacobian(robot, q, h=H):
    """The geometric Jacobian in the world frame, column j = (dt/dq_j, vex(dR/dq_j R^T)).

    Only ``fkine`` is used: an oracle that shares no code with ``jacob0``.
    """
    q = np.asarray(q, dtype=float)
    R = pose3(robot, q)[:3, :3]
    J = np.zeros((6, q.size))
    for j, e in enumerate(np.eye(q.size)):
        dT = derivative(lambda x: pose3(robot, x), q, e, h)
        S = dT[:3, :3] @ R.T
        J[:3, j], J[3:, j] = dT[:3, 3], vex((S - S.T) / 2)
    return J


# ------------------------------------------------------------------ the zoo

def prismatic_dh():
    return DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2),
                    PrismaticDH(theta=np.pi / 2, a=0.1, alpha=-np.pi / 2),
                    RevoluteDH(a=0.4, alpha=0.3, d=0.05),
                    PrismaticDH(alpha=np.pi / 3)], name="RPRP")


def prismatic_mdh():
    return DHRobot([RevoluteMDH(d=0.3),
                    PrismaticMDH(a=0.2, alpha=np.pi / 2, theta=0.4),
                    RevoluteMDH(a=0.1, alpha=-np.pi / 2, d=0.1),
                    PrismaticMDH(alpha=0.7, a=0.05)], name="RPRP mdh")


def puma_ets(L1=0.0):
    """The Puma 560 as the notes' elementary transform sequence (7.1.2)."""
    return ETS3.from_string(PUMA_ETS, L1=L1, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)


def with_base_tool(robot, base=BASE, tool=TOOL):
    r = DHRobot(robot)
    r.base, r.tool = base, tool
    return r


def frozen_cache(fn):
    """``functools.cache`` for an expensive reference answer, returning a deep copy on every call
    (a test that changes what it was given cannot change what the next test gets)."""
    cached = functools.cache(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return copy.deepcopy(cached(*args, **kwargs))
    return wrapper


def scaled_masses(robot, k):
    """A copy of ``robot`` with every mass, link inertia and motor inertia times ``k``."""
    r = copy.deepcopy(robot)
    for link in r.links:
        link.m = link.m * k
        link.I = np.asarray(link.I) * k
        link.Jm = link.Jm * k
    return r
