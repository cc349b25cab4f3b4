"""The chain interface: what every model gives the algorithms, and its poses in 3-D (Chapter 7).

Algorithms are functions of ``(model, q, ...)`` that never name a robot
class.  They read a model through the members of :class:`Chain`, a
``typing.Protocol``: DH and modified-DH robots, elementary transform
sequences in 3-D and in the plane all have them, so ``jacob0``, ``ikine``,
``plot_robot`` and ``teach`` work on each alike.  ``isinstance(model,
Chain)`` says whether a model has every member (not what they return:
``tests/kinematics/test_chain_interface.py`` checks that, member by member, for every
model of the library).

A planar chain (``dim == 2``) computes in the plane: ``fkine(q)`` gives
(3, 3) poses.  The algorithms that work in 3-D see it in the plane z = 0
through the adapters here: :func:`lift_planar` (a planar pose as a 3-D
pose), :func:`planar_pose` (back), :func:`pose3d` (any chain's tool pose in
3-D), :func:`goal_pose` (a goal given to a chain, checked, in 3-D) and
:func:`axes_point` (the tool point in the rows of a spatial velocity that
``axes`` picks).

>>> E = ETS2.Rz() * ETS2.Tx(1)
>>> isinstance(E, Chain), isinstance(rvc.models.puma560(), Chain), isinstance(np.eye(4), Chain)
(True, True, False)
>>> pose3d(E, [np.pi / 2])[:3, 3].round(4) + 0
array([0., 1., 0.])
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..checks import getarray, getaxes, getoption, getpose, getq
from ..shapes import SE2, SE3, ArrayLike, JointVector

__all__ = ["Chain", "lift_planar", "planar_pose", "pose3d", "goal_pose", "axes_point"]

#: Rows and columns x, y and the homogeneous 1 of a 3-D pose: the planar pose inside it.
_PLANE = np.array([0, 1, 3])


@runtime_checkable
class Chain(Protocol):
    """A serial chain as the algorithms see it (every model of :mod:`rvc.models` is one).

    Poses are homogeneous matrices in the world frame; ``d`` is ``dim + 1``:
    (4, 4) for a chain in space, (3, 3) for a planar one.  The methods take
    joint coordinates ``q`` of shape (n,) or a batch (..., n) (radians for
    revolute joints, or degrees with ``unit="deg"``), and batch their
    results over the same leading dimensions.

    >>> E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Tx()
    >>> isinstance(E, Chain), E.n, E.revolute, E.dim, E.fkine([0.5, 0.2]).shape
    (True, 2, array([ True, False]), 2, (3, 3))
    >>> F, T = E.joint_frames([0.5, 0.2])
    >>> F.shape, T.shape
    ((2, 4, 4), (4, 4))
    """

    @property
    def n(self) -> int:
        """Number of joints (an ``int``, 0 for a chain of constants only)."""

    @property
    def revolute(self) -> np.ndarray:
        """(n,) booleans: true for a revolute joint, false for a prismatic one (``structure`` "RRP")."""

    @property
    def qlim(self) -> np.ndarray:
        """(2, n) joint limits: row 0 the lower, row 1 the upper (``-inf``/``inf`` where there are none)."""

    @property
    def base(self) -> SE3:
        """(4, 4) pose of the chain's base in the world frame (the identity for a sequence of terms)."""

    @property
    def tool(self) -> SE3:
        """(4, 4) pose of the tool in the last link's frame, included in ``fkine``."""

    @property
    def dim(self) -> int:
        """3 for a chain in space; 2 for a planar chain, whose poses are (3, 3) and which is drawn in 2-D."""

    def fkine(self, q: JointVector, *, unit: str = "rad") -> SE3 | SE2:
        """End pose (..., d, d): base, the joints' motion and the tool, in the world frame."""

    def fkine_all(self, q: JointVector, *, unit: str = "rad") -> SE3 | SE2:
        """(..., m, d, d) frames whose origins outline the arm, from the base on (for drawing):
        base and link frames for a DH chain (m = n + 1), base, each joint and the end for a
        sequence of terms (m = n + 2)."""

    def joint_frames(self, q: JointVector, *, unit: str = "rad") -> tuple[SE3, SE3]:
        """``(F, T)``, always in 3-D: ``F`` (..., n, 4, 4) the frame of each joint axis (joint j
        turns about, or slides along, the z axis of ``F[..., j, :, :]``, world frame) and ``T``
        (..., 4, 4) the end pose (a planar chain's in the plane z = 0).  The Jacobians read these."""


def lift_planar(F: SE2) -> SE3:
    """A planar pose (..., 3, 3) as the 3-D pose (..., 4, 4) in the plane z = 0.

    ``[[R, t], [0, 1]]`` with R (2, 2) becomes ``[[R3, (t, 0)], [0, 1]]``,
    where R3 turns about z by the planar angle: rows and columns x, y, 1 of
    the planar pose go to rows and columns x, y, 1 of the 3-D one, and z
    stays z.

    >>> from rvc.spatial.transforms2d import transl2, trot2
    >>> lift_planar(transl2(1, 2) @ trot2(np.pi / 2)).round(4) + 0
    array([[ 0., -1.,  0.,  1.],
           [ 1.,  0.,  0.,  2.],
           [ 0.,  0.,  1.,  0.],
           [ 0.,  0.,  0.,  1.]])
    """
    F = np.asarray(F, dtype=float)
    out = np.zeros(F.shape[:-2] + (4, 4))
    out[..., _PLANE[:, None], _PLANE] = F
    out[..., 2, 2] = 1.0
    return out


def planar_pose(T: SE3) -> SE2:
    """The planar part (..., 3, 3) of a 3-D pose (..., 4, 4): its rows and columns x, y, 1.

    For a pose in the plane z = 0 (turning about z) it undoes :func:`lift_planar`:
    ``planar_pose(lift_planar(F)) == F``.

    >>> from rvc.spatial.transforms2d import transl2, trot2
    >>> F = transl2(1, 2) @ trot2(0.3)
    >>> bool(np.allclose(planar_pose(lift_planar(F)), F))
    True
    """
    return np.asarray(T, dtype=float)[..., _PLANE[:, None], _PLANE]


def pose3d(robot: Chain, q: JointVector) -> SE3:
    """The tool pose of any chain as a 3-D pose (..., 4, 4): ``robot.fkine(q)``, a planar
    chain's (..., 3, 3) pose lifted into the plane z = 0 (:func:`lift_planar`).

    >>> E = ETS2.Rz() * ETS2.Tx(1)
    >>> pose3d(E, [np.pi / 2])[:3, 3].round(4) + 0
    array([0., 1., 0.])
    """
    T = np.asarray(robot.fkine(q))
    return lift_planar(T) if getattr(robot, "dim", 3) == 2 else T


def goal_pose(robot: Chain, T: SE3 | SE2, name: str = "T") -> SE3:
    """A desired tool pose for ``robot``, checked, as a 3-D pose (..., 4, 4).

    A planar chain (``robot.dim == 2``) also takes planar poses (..., 3, 3),
    as its ``fkine`` returns them; they are lifted into the plane z = 0.  The
    goal-seeking algorithms (``ikine``, ``ikine_transpose``, ``rrmc2``)
    read their goals through this, and their chain's pose through :func:`pose3d`.

    >>> E = ETS2.Rz() * ETS2.Tx(1)
    >>> goal_pose(E, E.fkine([0.3])).shape
    (4, 4)
    >>> goal_pose(E, np.ones((3, 3)))
    Traceback (most recent call last):
    ...
    ValueError: T: expected a homogeneous transform with bottom row [0, 0, 1], got [1.0, 1.0, 1.0]
    """
    if getattr(robot, "dim", 3) == 2 and np.shape(T)[-2:] == (3, 3):
        return lift_planar(getpose(T, name, dim=2))
    return getpose(T, name)


def axes_point(robot: Chain, q: JointVector, axes: str | ArrayLike = "trans", centre: str | ArrayLike | None = "tool",
               *, unit: str = "rad") -> np.ndarray | None:
    """Where the tool is, in the rows of a spatial velocity ``(vx vy vz wx wy wz)`` that ``axes`` picks.

    ``axes`` as :func:`~rvc.checks.getaxes` (``"trans"``, ``"rot"``,
    ``"all"`` or a mask of 6).  With ``centre="tool"`` a translational row
    holds the tool position's coordinate (x, y or z of :func:`pose3d`, z = 0
    for a planar chain) and a rotational row 0; ``"origin"`` gives zeros; an
    array of one value per picked row is checked and returned; None gives
    None.  Shape (..., k) for ``q`` (..., n) and k picked rows.  The velocity
    and force ellipsoids are centred here.

    >>> p2 = rvc.models.planar2()
    >>> axes_point(p2, [0, np.pi / 2], axes=[1, 1, 0, 0, 0, 1])
    array([1., 1., 0.])
    """
    rows = getaxes(axes)
    if centre is None:
        return None
    if not isinstance(centre, str):
        return getarray(centre, "centre", shape=(rows.size,))
    getoption(centre, "centre", ("tool", "origin"))
    qa = getq(q, robot.n, robot.revolute, unit)
    c = np.zeros(qa.shape[:-1] + (rows.size,))
    if centre == "tool":
        t = pose3d(robot, qa)[..., :3, 3]
        lin = rows < 3
        c[..., lin] = t[..., rows[lin]]
    return c
