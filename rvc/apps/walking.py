"""A walking robot (notes 7.5.2): four legs, each a 3-joint arm.

:func:`walking_gait` is the foot's cyclic path (``mstraj`` through a
rectangle), :func:`gait` picks a leg's joint angles at a step with a phase
offset, and :func:`walking_legs` solves the leg's inverse kinematics
(position only) and assembles the four legs.

>>> walking_gait().shape
(400, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..checks import getarray, getvector
from ..kinematics.chain import Chain
from ..kinematics.ikine import ikine
from ..motion.trajectory import mstraj
from ..results import Result
from ..shapes import ArrayLike, JointPath, JointVector, Vector3
from ..spatial.transforms3d import transl, trotz

__all__ = ["walking_gait", "gait", "WalkingLegs", "walking_legs"]


def walking_gait(xf: float = 0.05, xb: float = -0.05, y: float = 0.05, zu: float = 0.02,
                 zd: float = 0.05, *, tseg: ArrayLike = (3.0, 0.25, 0.5, 0.25), dt: float = 0.01,
                 tacc: float = 0.1) -> Vector3:
    """One cycle of a foot's path in the leg's frame (z down), (N, 3).

    The foot goes round the rectangle of the notes (7.5.2): from ``(xf, y,
    zd)`` backwards on the ground to ``(xb, y, zd)`` in ``tseg[0]`` (the
    walking stroke), up to ``(xb, y, zu)``, forward to ``(xf, y, zu)`` and
    down again.  The path is made by ``mstraj`` through three laps with
    blends of ``tacc``; the middle lap, which starts and ends in steady
    motion, is returned, so repeating it is smooth.  Sample 0 is the nominal
    arrival at ``(xf, y, zd)``; with the defaults N = 400 (4 s at 0.01 s).

    During the walking stroke, away from the blends (the first
    ``tseg[0] - tacc/2`` s apart from the first ``tacc/2`` s), the foot is
    exactly on the ground, ``z = zd``, moving backwards at the constant speed
    ``(xf - xb) / tseg[0]``.

    >>> x = walking_gait()
    >>> x.shape
    (400, 3)
    >>> bool(np.all(x[5:295, 2] == 0.05))      # on the ground
    True
    """
    tseg = getvector(tseg, "tseg", 4)
    P = np.array([[xf, y, zd], [xb, y, zd], [xb, y, zu], [xf, y, zu]], dtype=float)
    via = np.vstack([P[1:], P, P, P[:1]])  # from P1: P2 P3 P4 | P1 P2 P3 P4 | P1 P2 P3 P4 | P1
    tg = mstraj(via, None, np.tile(tseg, 3), P[0], dt, tacc)
    n = int(round(float(np.sum(tseg)) / dt))
    k0 = int(round(float(tg.info["arrive"][3]) / dt))  # nominal arrival at P1 after the first lap
    return np.asarray(tg.q)[k0:k0 + n]


def gait(qcycle: JointPath, k: int | ArrayLike, offset: int = 0, flip: bool = False) -> JointVector:
    """Joint angles of a leg at step ``k`` with phase ``offset`` (the notes' ``gait``).

    ``qcycle[(k + offset) mod N]``, with the first joint negated when ``flip``
    (legs on the other side of the body, whose hips are turned by pi).
    ``k`` may be an array of steps.

    >>> qc = np.arange(12.0).reshape(4, 3)
    >>> gait(qc, 1, 2, flip=True)
    array([-9., 10., 11.])
    """
    qcycle = getarray(qcycle, "qcycle")
    if qcycle.ndim != 2:
        raise ValueError(f"qcycle: expected shape (N, n), got shape {qcycle.shape}")
    k = np.asarray(k)
    q = qcycle[(k + int(offset)) % len(qcycle)].copy()
    if flip:
        q[..., 0] = -q[..., 0]
    return q


@dataclass(frozen=True, repr=False, eq=False)
class WalkingLegs(Result):
    """Joint trajectories of the four legs of the walker.

    Attributes
    ----------
    q : ndarray (N, 4, n)
        Joint angles of each leg at each step.
    bases : ndarray (4, 4, 4)
        Hip poses in the body frame.
    qcycle : ndarray (N, n)
        One leg's joint angles around the gait cycle.
    xcycle : ndarray (N, 3)
        The foot path the IK solved.
    success : ndarray (N,) of bool
        IK success for each sample of the cycle.
    """

    q: np.ndarray
    bases: np.ndarray
    qcycle: np.ndarray
    xcycle: np.ndarray
    success: np.ndarray

    def feet(self, leg: Chain) -> Vector3:
        """Foot positions in the body frame, (N, 4, 3), from the leg's ``fkine``."""
        N = self.q.shape[0]
        T = np.asarray(leg.fkine(self.q.reshape(-1, self.q.shape[-1]))).reshape(N, 4, 4, 4)
        return (self.bases[None] @ T)[..., :3, 3]


def walking_legs(leg: Chain, xcycle: Vector3 | None = None, *, W: float = 0.1, L: float = 0.2,
                 offsets: Sequence[int] = (0, 100, 200, 300), flips: Sequence[bool] = (False, False, True, True),
                 tol: float = 1e-9) -> WalkingLegs:
    """Inverse kinematics of the walking cycle and the four legs (7.5.2).

    ``qcycle = ikine(leg, transl(xcycle), mask=[1, 1, 1, 0, 0, 0])`` (position
    only: a 3-joint leg cannot also choose the foot's orientation), solved
    along the cycle with warm starts; leg i at step k has
    ``gait(qcycle, k, offsets[i], flips[i])``.  The hips are at the corners
    of the W x L body: ``transl(0, 0, 0)``, ``transl(-L, 0, 0)``,
    ``transl(-L, -W, 0) @ trotz(pi)``, ``transl(0, -W, 0) @ trotz(pi)``.

    Parameters
    ----------
    leg : robot
        A 3-joint leg, e.g. ``rvc.models.leg()``.
    xcycle : array_like (N, 3), optional
        Foot path (default :func:`walking_gait`).
    tol : float
        IK tolerance on the position error (default 1e-9: the feet are
        placed to 1e-9 m).

    With the default gait (``dt = 0.01``, ``tacc = 0.1``) three feet are on
    the ground 91% of the time: the blends make a foot leave the ground
    ``tacc/2`` before the end of its stroke and land ``tacc/2`` late, so for
    ``tacc`` of every second two feet are up, the second by at most about
    1.1 mm.

    >>> from rvc.models import leg
    >>> wl = walking_legs(leg(), walking_gait(dt=0.04), offsets=(0, 25, 50, 75))
    >>> wl.q.shape, bool(wl.success.all())
    ((100, 4, 3), True)
    """
    xcycle = walking_gait() if xcycle is None else getarray(xcycle, "xcycle", shape=(3,))
    if xcycle.ndim != 2:
        raise ValueError(f"xcycle: expected shape (N, 3), got shape {xcycle.shape}")
    if len(offsets) != 4 or len(flips) != 4:
        raise ValueError(f"offsets, flips: expected 4 of each, got {len(offsets)} and {len(flips)}")
    sol = ikine(leg, transl(xcycle), mask=[1, 1, 1, 0, 0, 0], tol=tol)
    qcycle = sol.q
    k = np.arange(len(xcycle))
    q = np.stack([gait(qcycle, k, o, f) for o, f in zip(offsets, flips)], axis=1)
    bases = np.stack([transl(0, 0, 0), transl(-L, 0, 0), transl(-L, -W, 0) @ trotz(np.pi),
                      transl(0, -W, 0) @ trotz(np.pi)])
    return WalkingLegs(q, bases, qcycle, xcycle, np.asarray(sol.success))
