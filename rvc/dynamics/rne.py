r"""Inverse dynamics by the recursive Newton-Euler algorithm (Chapter 9.2).

Given joint coordinates, speeds and accelerations, :func:`rne` returns the
joint forces/torques of the rigid-body equation of motion

.. math:: Q = M(q)\ddot q + C(q, \dot q)\dot q + F(\dot q) + G(q) + J(q)^T W,

the notes' :math:`\mathcal{D}^{-1}(q, \dot q, \ddot q)`.  The recursion runs
out from the base, adding each joint's motion to find every link's velocity
and acceleration, then in from the tool, adding up the forces each link
needs; a joint's torque is the part of that wrench along its axis.  The
torque includes the motor inertia :math:`G_j^2 J_{m,j}\ddot q_j` and the
friction of :mod:`rvc.dynamics.friction`, as in the toolboxes.

:func:`rne` runs the recursion as the toolboxes do (Luh, Walker and Paul
1980), with 3-vectors in frames that move with the links, for standard and
modified DH links, revolute and prismatic joints, any base, tool and
gravity: :func:`rvc.dynamics.recursion.newton_euler` has the equations, on
Python floats for one configuration and on rows of N values for a batch.

The same algorithm reads more compactly with 6-D *spatial vectors* in the
world frame, all about the world origin (R. Featherstone, *Rigid Body
Dynamics Algorithms*, 2008, ch. 5), ordered (linear, angular) like every
twist and wrench in rvc; this module provides its pieces.  Joint j's motion
is the unit twist :math:`S_j = (p_j \times z_j,\ z_j)` for a revolute joint
about the axis :math:`z_j` through :math:`p_j`, and :math:`S_j = (z_j, 0)`
for a prismatic one (:func:`link_spatial`).  Then, with :math:`v_0 = 0` and
:math:`a_0 = (-g, 0)` (gravity as a fictitious upward acceleration of the
base),

.. math::

    v_j &= v_{j-1} + S_j \dot q_j, \qquad
    a_j = a_{j-1} + S_j \ddot q_j + v_j \times S_j \dot q_j, \\
    f_j &= I_j a_j + v_j \times^{*} I_j v_j + f_{j+1}, \qquad
    Q_j = S_j^T f_j + G_j^2 J_{m,j} \ddot q_j - \tau_{f,j}(\dot q_j),

where :math:`I_j` is link j's 6x6 spatial inertia about the world origin
(:func:`spatial_inertia`), :math:`f_{n+1}` the wrench the end effector
exerts on its surroundings and :math:`\tau_f` the friction torque.  The
cross products are :math:`(v, \omega)\times(m, \mu) = (\omega\times m + v\times\mu,\
\omega\times\mu)` (:func:`crm`) and :math:`(v, \omega)\times^{*}(f, n) =
(\omega\times f,\ \omega\times n + v\times f)` (:func:`crf`).  A test checks
that this form gives :func:`rne`'s torques; ``tests/crosscheck`` compares
:func:`rne` with roboticstoolbox-python and Pinocchio.

>>> p560 = rvc.models.puma560()
>>> rne(p560, p560.qn).round(4).tolist()          # the gravity load at qn
[0.0, 31.6399, 6.0351, 0.0, 0.0283, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import getarray, getq, getvector, warn_nonfinite
from ..results import Result
from .friction import friction
from ..shapes import ArrayLike, Inertia, JointVector, Twist6, Vector3
from .params import DynamicChain, DynParams, dynparams, getgravity
from .recursion import batch_rows, boundary_conditions, link_table, newton_euler

__all__ = ["SpatialChain", "link_spatial", "spatial_inertia", "crm", "crf", "rne_reference", "inertia_reference",
           "rne"]


@dataclass(frozen=True, repr=False, eq=False)
class SpatialChain(Result):
    """A robot's joint axes and link inertias at ``q``, as spatial vectors in the world frame.

    ``S`` (..., n, 6) the unit joint twists (linear, angular) about the world
    origin; ``I`` (..., n, 6, 6) the links' spatial inertias about the world
    origin; ``com`` (..., n, 3) the links' centres of mass; ``frames``
    (..., n + 1, 4, 4) the base and link frames; ``params`` the
    :class:`~rvc.dynamics.params.DynParams`.  Unpacks as ``S, I``.
    """

    unpack = ("S", "I")

    S: np.ndarray
    I: np.ndarray
    com: np.ndarray
    frames: np.ndarray
    params: DynParams


def _skew(v):
    """[v]x for (..., 3) vectors: (..., 3, 3)."""
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    o = np.zeros_like(x)
    return np.stack([np.stack([o, -z, y], -1), np.stack([z, o, -x], -1),
                     np.stack([-y, x, o], -1)], -2)


def spatial_inertia(m: float | ArrayLike, c: Vector3, Ic: Inertia) -> np.ndarray:
    r"""The 6x6 spatial inertia about the origin of a body of mass ``m``, centre ``c``, inertia ``Ic``.

    .. math:: I = \begin{pmatrix} m E & -m[c]_\times \\ m[c]_\times & I_c - m[c]_\times[c]_\times \end{pmatrix}

    for (linear, angular) ordering: :math:`I (v, \omega)` is the body's
    (momentum, angular momentum about the origin).  Batched: ``m`` (...),
    ``c`` (..., 3), ``Ic`` (..., 3, 3) give (..., 6, 6).

    >>> spatial_inertia(2.0, [1, 0, 0], np.zeros((3, 3))) @ [0, 0, 0, 0, 0, 1]
    array([0., 2., 0., 0., 0., 2.])
    """
    return _spatial_inertia(getarray(m, "m"), getarray(c, "c", shape=(3,)),
                            getarray(Ic, "Ic", shape=(3, 3)))


def _spatial_inertia(m, c, Ic):
    C = _skew(c)
    mm = m[..., None, None]
    top = np.concatenate(np.broadcast_arrays(mm * np.eye(3), -mm * C), axis=-1)
    bottom = np.concatenate(np.broadcast_arrays(mm * C, Ic - mm * C @ C), axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def crm(v: Twist6, m: Twist6) -> Twist6:
    r"""Spatial cross product of motion vectors.

    :math:`(v, \omega)\times(m, \mu) = (\omega\times m + v\times\mu,\ \omega\times\mu)`.

    Batched over leading dimensions.  It is the rate of change of a motion
    vector ``m`` fixed in a body moving with twist ``v``.

    >>> crm([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])
    array([0., 1., 0., 0., 0., 0.])
    """
    return _crm(getarray(v, "v", shape=(6,)), getarray(m, "m", shape=(6,)))


def _cross(a, b):
    """a x b for (..., 3) arrays (np.cross without its overhead)."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def _crm(v, m):
    lin = _cross(v[..., 3:], m[..., :3]) + _cross(v[..., :3], m[..., 3:])
    return np.concatenate([lin, _cross(v[..., 3:], m[..., 3:])], axis=-1)


def _crf(v, f):
    ang = _cross(v[..., 3:], f[..., 3:]) + _cross(v[..., :3], f[..., :3])
    return np.concatenate([_cross(v[..., 3:], f[..., :3]), ang], axis=-1)


def crf(v: Twist6, f: Twist6) -> Twist6:
    r"""Spatial cross product with a force.

    :math:`(v, \omega)\times^{*}(f, n) = (\omega\times f,\ \omega\times n + v\times f)`.

    The dual of :func:`crm` (:math:`v\times^{*} = -(v\times)^T`): the rate of
    change of a wrench ``f`` fixed in a body moving with twist ``v``.

    >>> crf([1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0])
    array([0., 0., 0., 0., 0., 1.])
    """
    return _crf(getarray(v, "v", shape=(6,)), getarray(f, "f", shape=(6,)))


def link_spatial(robot: DynamicChain, q: JointVector) -> SpatialChain:
    """Joint twists and link spatial inertias at ``q``, world frame (see :class:`SpatialChain`).

    Joint j moves about (along) the z axis of ``robot.joint_frames(q)[0][..., j]``
    (frame {j-1} of a standard-DH chain, {j} of a modified-DH one); link j's frame is
    ``robot.fkine_all(q)[..., j + 1]``, in which its centre of mass ``r`` and inertia ``I``
    are given.

    >>> S, I = link_spatial(rvc.models.twolink(), [0, 0])
    >>> S.round(4) + 0
    array([[ 0.,  0.,  0.,  0., -1.,  0.],
           [ 0.,  0., -1.,  0., -1.,  0.]])
    """
    P = dynparams(robot)
    q = getq(q, robot.n, robot.revolute)
    frames = robot.fkine_all(q)                                 # (..., n + 1, 4, 4)
    # joint j's axis frame (robot.joint_frames): frame {j-1} for standard DH links,
    # frame {j} for modified DH, read here from the frames already computed
    axes = frames[..., 1:, :, :] if robot.links[0].mdh else frames[..., :-1, :, :]
    z, p = axes[..., :3, 2], axes[..., :3, 3]
    rev = np.asarray(robot.revolute, dtype=bool)[:, None]
    S = np.concatenate([np.where(rev, np.cross(p, z), z), np.where(rev, z, 0.0)], axis=-1)
    R, o = frames[..., 1:, :3, :3], frames[..., 1:, :3, 3]
    com = o + (R @ P.r[..., None])[..., 0]
    Ic = R @ P.I @ np.swapaxes(R, -1, -2)
    I = _spatial_inertia(np.broadcast_to(P.m, com.shape[:-1]), com, Ic)
    return SpatialChain(S, I, com, frames, P)


def rne_reference(robot: DynamicChain, q: JointVector, qd: JointVector, qdd: JointVector,
                  gravity: Vector3 | None = None, fext: Twist6 | None = None) -> JointVector:
    r"""Inverse dynamics by the textbook recursion: spatial vectors in the world frame, one configuration.

    With :math:`v_0 = 0`, :math:`a_0 = (-g, 0)` and the pieces of this module
    (:func:`link_spatial`, :func:`crm`, :func:`crf`):

    .. math::

        v_j = v_{j-1} + S_j \dot q_j, \quad
        a_j = a_{j-1} + S_j \ddot q_j + v_j \times S_j \dot q_j, \quad
        f_j = I_j a_j + v_j \times^{*} I_j v_j + f_{j+1}, \quad
        Q_j = S_j^T f_j + G_j^2 J_{m,j} \ddot q_j - \tau_{f,j}(\dot q_j),

    :math:`f_{n+1}` the end-effector wrench ``fext`` (tool frame) moved to
    the world origin.  A loop over the links in numpy: the idea, for
    reading.  :func:`rne` computes the same torques (a test holds them
    equal) with the link-frame recursion of
    :func:`~rvc.dynamics.recursion.newton_euler`, on floats or on rows of
    a batch.

    >>> p560 = rvc.models.puma560()
    >>> q, qd, qdd = p560.qn, np.full(6, 0.3), np.full(6, -0.2)
    >>> bool(np.allclose(rne_reference(p560, q, qd, qdd), rne(p560, q, qd, qdd), atol=1e-10))
    True
    """
    n = robot.n
    q, qd, qdd = (getvector(x, k, n) for x, k in ((q, "q"), (qd, "qd"), (qdd, "qdd")))
    g = getgravity(gravity, robot)
    chain = link_spatial(robot, q)
    S, I = chain.S, chain.I
    v, a = np.zeros(6), np.concatenate([-g, np.zeros(3)])
    f = np.zeros((n, 6))
    for j in range(n):                                     # out from the base: motion
        v = v + S[j] * qd[j]
        a = a + S[j] * qdd[j] + crm(v, S[j]) * qd[j]
        f[j] = I[j] @ a + crf(v, I[j] @ v)
    if fext is not None:                                   # the end-effector wrench, about the world origin
        w = getvector(fext, "fext", 6)
        Te = robot.fkine(q)
        R, t = Te[:3, :3], Te[:3, 3]
        fw = R @ w[:3]
        f[-1] += np.concatenate([fw, R @ w[3:] + np.cross(t, fw)])
    f = np.cumsum(f[::-1], axis=0)[::-1]                   # in from the tool: f_j sums the links beyond j
    P = chain.params
    return np.einsum("ji,ji->j", S, f) + P.G ** 2 * P.Jm * qdd - friction(robot, qd)


def inertia_reference(robot: DynamicChain, q: JointVector) -> np.ndarray:
    r"""The joint-space inertia matrix by its definition: column j is the torque of a unit acceleration.

    .. math:: M(q)_{:, j} = \mathcal{D}^{-1}(q, 0, e_j)\big|_{g = 0},

    :func:`rne_reference` n times, at rest and without gravity (the
    columns of :math:`M` in :math:`Q = M\ddot q + C\dot q + G`).
    ``rvc.inertia`` computes the same matrix (a test holds them equal) by
    the composite-rigid-body algorithm, one pass.

    >>> p560 = rvc.models.puma560()
    >>> bool(np.allclose(inertia_reference(p560, p560.qn), inertia(p560, p560.qn), atol=1e-10))
    True
    """
    n = robot.n
    return np.stack([rne_reference(robot, q, np.zeros(n), e, gravity=[0, 0, 0]) for e in np.eye(n)], axis=1)


def rne(robot: DynamicChain, q: JointVector, qd: JointVector | None = None, qdd: JointVector | None = None,
        gravity: Vector3 | None = None, fext: Twist6 | None = None, base_wrench: bool = False
        ) -> JointVector | tuple[JointVector, Twist6]:
    """Joint forces/torques for motion ``(q, qd, qdd)``: the recursive Newton-Euler algorithm.

    Parameters
    ----------
    robot
        A serial robot with DH links carrying dynamic parameters.
    q, qd, qdd : array_like (..., n)
        Joint coordinates, speeds, accelerations; they broadcast against
        each other (``qd``, ``qdd`` default to zero), so (N, n) rows give
        (N, n) torques with no loop over N.
    gravity : array_like (3,), optional
        Acceleration of free fall in the world frame (default
        ``robot.gravity``, ``(0, 0, -9.81)``); ``[0, 0, 0]`` switches it off.
    fext : array_like (..., 6), optional
        Wrench (force, moment) that the end effector exerts on its
        surroundings, in the end-effector frame (tool included), moment about
        the tool point.  It adds ``J(q)^T W`` (:func:`rvc.jacobe`).
    base_wrench : bool
        Also return the wrench (force, moment) that the base exerts on the
        arm, in the base frame, moment about the base frame's origin -- the
        notes' ``[Q, Wb] = p560.rne(qn, qz, qz)``; it balances the arm's
        weight and the reactions of its motion.

    Returns
    -------
    tau : ndarray (..., n)
        Including the motor inertia ``G^2 Jm qdd`` and the friction torque
        of :func:`~rvc.dynamics.friction.friction` (see the module
        docstring); ``(tau, wbase)`` with ``base_wrench=True``.  One
        configuration is computed with Python floats, a batch as rows of
        the batch (:func:`~rvc.dynamics.recursion.batch_rows`).

    >>> p560 = rvc.models.puma560()
    >>> tau, wb = rne(p560, p560.qn, np.zeros(6), np.zeros(6), base_wrench=True)
    >>> wb.round(4) + 0
    array([  0.    ,   0.    , 230.0445, -48.4024, -31.6399,   0.    ])
    >>> rne(p560, np.zeros((10, 6))).shape
    (10, 6)
    >>> rne(p560, p560.qn, gravity=[0, 9.81])
    Traceback (most recent call last):
    ...
    ValueError: gravity: expected a vector of 3 elements, got shape (2,)
    """
    n = robot.n
    g = getgravity(gravity, robot)
    q = getq(q, n)
    qd = None if qd is None else getq(qd, n, name="qd")
    qdd = None if qdd is None else getq(qdd, n, name="qdd")
    try:
        if q.ndim > 1 or (qd is not None and qd.ndim > 1) or (qdd is not None and qdd.ndim > 1):
            np.broadcast_shapes(*(x.shape[:-1] for x in (q, qd, qdd) if x is not None))
    except ValueError:
        shapes = ", ".join(str(x.shape if x is not None else (n,)) for x in (q, qd, qdd))
        raise ValueError(f"q, qd, qdd: expected shapes that broadcast, got {shapes}") from None
    table = link_table(robot)
    a0, wrench = boundary_conditions(robot, table, g, fext)
    zero = [0.0] * n

    def run(q, qd, qdd, wrench):
        tau, wb = newton_euler(table, q, zero if qd is None else qd, zero if qdd is None else qdd,
                               a0, wrench)
        return [*tau, *wb] if base_wrench else tau

    out = batch_rows([q, qd, qdd, wrench], run, (n + 6,) if base_wrench else (n,))
    if not np.isfinite(out).all():
        big = max(float(np.abs(x).max()) for x in (q, qd, qdd) if x is not None)
        warn_nonfinite(out, "rne", f"the joint coordinates, rates or accelerations are too large "
                                   f"(largest magnitude {big:.3g})")
    if not base_wrench:
        return out
    return out[..., :n], out[..., n:]
