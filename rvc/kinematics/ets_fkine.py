"""Forward kinematics of elementary transform sequences (Chapter 7.1.1).

A chain is a sequence of *elementary transforms*: rotations about, or
translations along, the x, y or z axis, each by a constant or by a joint
variable,

.. math:: T(q) = E_1(\\eta_1)\\, E_2(\\eta_2) \\cdots E_m(\\eta_m).

These functions read the sequence's data: ``ets.terms`` (each with
``axis`` in ``Rx Ry Rz Tx Ty Tz``, a constant ``value`` or a joint index
``joint``), ``ets.n``, ``ets.revolute`` and ``ets.dim`` (2 for a planar
chain of 3x3 matrices, 3 otherwise).  :class:`rvc.models.ETS2` and
:class:`rvc.models.ETS3` call them.

>>> E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1)
>>> fkine_ets(E, [0, np.pi / 2])[:2, 2].round(6)
array([1., 1.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..checks import getarray, getoption, getq
from ..spatial.transforms3d import transl, trotx, troty, trotz
from ..shapes import SE2, SE3, ArrayLike, JointVector
from .chain import Chain, lift_planar, planar_pose

__all__ = ["Z_ONTO", "elementary", "fkine_ets", "fkine_all_ets", "joint_frames_ets"]

_ROT = {"x": trotx, "y": troty, "z": trotz}
#: Constant rotations P taking the local z axis onto the x, y or z axis,
#: ``P e_z = e_axis``, so that a joint about that axis is ``P Rz(q) P^-1``.
Z_ONTO = {"x": np.array([[0.0, 0, 1, 0], [0, 1, 0, 0], [-1, 0, 0, 0], [0, 0, 0, 1]]),  # Ry(pi/2)
          "y": np.array([[1.0, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]]),  # Rx(-pi/2)
          "z": np.eye(4)}


class ETSTerm(Protocol):
    """What the ETS functions read of a term (as :class:`~rvc.models.ets.ET` holds it): its ``axis``
    (``"Rx"`` ... ``"Tz"``), and ``joint`` (the joint index, or ``None``) or its constant ``value``."""

    axis: str
    joint: int | None
    value: float


class ETSChain(Chain, Protocol):
    """A chain described as a sequence of elementary transforms (as ``ETS3`` and ``ETS2`` are):
    the chain interface plus its ``terms``."""

    terms: Sequence[ETSTerm]


def elementary(axis: str, v: ArrayLike, dim: int = 3) -> SE3 | SE2:
    """Matrix of one elementary transform ``axis`` by ``v`` (any shape, batched).

    ``Rx Ry Rz`` rotate by ``v`` radians, ``Tx Ty Tz`` translate by ``v``;
    ``dim=3`` gives (..., 4, 4) poses, ``dim=2`` the planar (..., 3, 3)
    ones (``Rz Tx Ty`` only).

    >>> elementary("Tx", 2.0)[:3, 3]
    array([2., 0., 0.])
    >>> elementary("Rz", np.pi / 2, dim=2).round(6) + 0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    getoption(axis, "axis", ("Rx", "Ry", "Rz", "Tx", "Ty", "Tz") if dim == 3 else ("Rz", "Tx", "Ty"))
    v = getarray(v, "v")
    if axis[0] == "R":
        T = _ROT[axis[1]](v)
    else:
        t = np.zeros(v.shape + (3,))
        t[..., "xyz".index(axis[1])] = v
        T = transl(t)
    return T if dim == 3 else planar_pose(T)


def _walk(ets, q, unit):
    """Yield (term, cumulative pose before the term) and return the end pose."""
    qa = getq(q, ets.n, ets.revolute, unit)
    d = ets.dim + 1
    T = np.broadcast_to(np.eye(d), qa.shape[:-1] + (d, d))
    before = []
    for t in ets.terms:
        before.append(T)
        v = qa[..., t.joint] if t.joint is not None else t.value
        T = T @ elementary(t.axis, v, ets.dim)
    return before, T


def fkine_ets(ets: ETSChain, q: JointVector | None = None, *, unit: str = "rad") -> SE3 | SE2:
    """Forward kinematics ``T(q) = E_1 E_2 ... E_m``.

    ``q`` (n,) gives one (4, 4) pose ((3, 3) for a planar chain), (N, n)
    gives (N, 4, 4); the product is vectorised over N.  Revolute joints are
    radians unless ``unit="deg"``.  A chain without joints takes no ``q``.

    >>> E = ETS3.Rz() * ETS3.Tx(1)
    >>> fkine_ets(E, np.zeros((5, 1))).shape
    (5, 4, 4)
    """
    if q is None and ets.n == 0:
        q = np.zeros(0)
    return _walk(ets, q, unit)[1]


def fkine_all_ets(ets: ETSChain, q: JointVector | None = None, *, unit: str = "rad") -> SE3 | SE2:
    """The frame of each joint: ``T_0 = I``, ``T_j = E_1 ... E_(k-1)``, and the end.

    Returns (..., n + 2, d, d): the origin, for each of the n joints the
    frame just before its term ``E_k`` acts (where the joint sits: a
    revolute joint turns about it, a prismatic joint slides from it), and
    the end-effector pose ``fkine(q)``.  A drawing puts the joints at the
    origins of these frames.

    >>> E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1)
    >>> fkine_all_ets(E, [0, np.pi / 2])[:, :2, 2].round(4) + 0
    array([[0., 0.],
           [0., 0.],
           [1., 0.],
           [1., 1.]])
    """
    if q is None and ets.n == 0:
        q = np.zeros(0)
    before, T = _walk(ets, q, unit)
    d = ets.dim + 1
    frames = [np.broadcast_to(np.eye(d), T.shape)]
    frames += [np.broadcast_to(F, T.shape) for t, F in zip(ets.terms, before) if t.joint is not None]
    frames.append(T)
    return np.stack(frames, axis=-3)


def joint_frames_ets(ets: ETSChain, q: JointVector, *, unit: str = "rad") -> tuple[SE3, SE3]:
    """The frame of each joint axis and the end pose, in 3-D: ``(F, T)``.

    ``F`` (..., n, 4, 4): joint j turns about (slides along) the z axis of
    ``F[..., j, :, :]`` -- the frame just before its term, turned so that
    its z axis is the term's axis.  ``T`` (..., 4, 4) is the end pose.  A
    planar chain is embedded in the plane z = 0.  This is the chain
    interface the Jacobians use (``E.joint_frames(q)``).

    >>> F, T = joint_frames_ets(ETS3.Tz(1) * ETS3.Tx(), [0.5])
    >>> F[0, :3, 2], T[:3, 3]
    (array([1., 0., 0.]), array([0.5, 0. , 1. ]))
    """
    before, T = _walk(ets, q, unit)
    if ets.dim == 2:
        before, T = [lift_planar(B) for B in before], lift_planar(T)
    F = [B @ Z_ONTO[t.axis[1]] for t, B in zip(ets.terms, before) if t.joint is not None]
    if not F:
        return np.zeros(T.shape[:-2] + (0, 4, 4)), T
    return np.stack(np.broadcast_arrays(*F), axis=-3), T
