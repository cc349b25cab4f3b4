"""Forward kinematics of Denavit-Hartenberg chains (Chapter 7.1.2).

Functions of (robot, q) that read the robot's link table: each link has
``theta d a alpha`` (radians, metres), ``sigma`` (0 revolute, 1 prismatic),
``offset`` and ``mdh``; the robot has ``links``, ``n``, ``revolute``,
``base`` and ``tool``.  They never import the robot classes
(:class:`rvc.models.DHRobot` calls them).

The standard DH link transform (frame {j} at the far end of link j) is

    A_j = Rz(theta_j) Tz(d_j) Tx(a_j) Rx(alpha_j)

and the modified DH one (frame {j} at the near end of link j) is

    A_j = Rx(alpha_{j-1}) Tx(a_{j-1}) Rz(theta_j) Tz(d_j),

where for a revolute joint ``theta_j = q_j + offset_j`` and for a prismatic
joint ``d_j = q_j + offset_j``.

How the chain is computed.  Multiplying 4x4 matrices wastes most of its
work on the known zeros and ones of a pose, so the chain walks the link
table and updates the twelve numbers that matter -- the columns x, y, z of
the rotation and the origin p -- with the multiply-adds each elementary
factor causes (e.g. ``Rz(theta)`` turns x and y: ``x' = c x + s y``,
``y' = c y - s x``).  The same code serves one configuration (each number a
Python float, which for a 6-axis arm takes a few microseconds) and a batch
of N (each number a row of N values, so every step is one vectorised
operation over the batch).  Long batches are done in blocks of
``BLOCK`` configurations so that the rows stay in the processor's cache;
batches of up to ``SMALL`` configurations, for which numpy's fixed cost per
call would dominate, one configuration at a time.

>>> robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
>>> fkine_dh(robot, [0, np.pi / 2])[:3, 3].round(6)
array([1., 1., 0.])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..checks import getarray, getq, getvector
from ..shapes import SE3, ArrayLike, JointVector
from .chain import Chain

__all__ = ["dh_transform", "link_transform", "fkine_dh_reference", "fkine_dh", "fkine_all", "fkine_links",
           "joint_frames_dh"]

class DHLinkParams(Protocol):
    """What the DH functions read of a link (as :class:`~rvc.models.link.Link` holds it): the four
    parameters, the joint offset, ``sigma`` (0 revolute, 1 prismatic) and ``mdh`` (modified DH)."""

    theta: float
    d: float
    a: float
    alpha: float
    offset: float
    sigma: int
    mdh: bool


class DHChain(Chain, Protocol):
    """A chain described by a DH table (as :class:`~rvc.models.dhrobot.DHRobot` is): the chain
    interface plus its ``links`` and whether they are modified DH."""

    links: Sequence[DHLinkParams]
    mdh: bool


#: Configurations computed together in a batched chain (see the module notes).
BLOCK = 8192
#: Batches up to this size are computed one configuration at a time, in floats.
SMALL = 16


def dh_transform(theta: ArrayLike, d: ArrayLike, a: ArrayLike, alpha: ArrayLike, mdh: bool = False) -> SE3:
    """Link transform from DH parameters, batched over broadcastable arguments.

    Standard DH (``mdh=False``), :math:`A = R_z(\\theta) T_z(d) T_x(a) R_x(\\alpha)`:

    .. math::
        A = \\begin{pmatrix}
        c_\\theta & -s_\\theta c_\\alpha & s_\\theta s_\\alpha & a c_\\theta\\\\
        s_\\theta & c_\\theta c_\\alpha & -c_\\theta s_\\alpha & a s_\\theta\\\\
        0 & s_\\alpha & c_\\alpha & d\\\\ 0&0&0&1\\end{pmatrix}

    Modified DH (``mdh=True``), :math:`A = R_x(\\alpha) T_x(a) R_z(\\theta) T_z(d)`.

    >>> dh_transform(np.pi / 2, 0.5, 1, 0).round(3)
    array([[ 0. , -1. ,  0. ,  0. ],
           [ 1. ,  0. , -0. ,  1. ],
           [ 0. ,  0. ,  1. ,  0.5],
           [ 0. ,  0. ,  0. ,  1. ]])
    >>> dh_transform(np.linspace(0, 1, 4), 0, 1, 0).shape
    (4, 4, 4)
    """
    th, d, a, al = np.broadcast_arrays(*(getarray(x, name) for x, name in
                                         ((theta, "theta"), (d, "d"), (a, "a"),
                                          (alpha, "alpha"))))
    ct, st, ca, sa = np.cos(th), np.sin(th), np.cos(al), np.sin(al)
    T = np.zeros(th.shape + (4, 4))
    if not mdh:
        T[..., 0, :] = np.stack([ct, -st * ca, st * sa, a * ct], axis=-1)
        T[..., 1, :] = np.stack([st, ct * ca, -ct * sa, a * st], axis=-1)
        T[..., 2, 1] = sa
        T[..., 2, 2] = ca
        T[..., 2, 3] = d
    else:
        T[..., 0, :] = np.stack([ct, -st, np.zeros_like(ct), a], axis=-1)
        T[..., 1, :] = np.stack([st * ca, ct * ca, -sa, -d * sa], axis=-1)
        T[..., 2, :] = np.stack([st * sa, ct * sa, ca, d * ca], axis=-1)
    T[..., 3, 3] = 1.0
    return T

def link_transform(link: DHLinkParams, q: ArrayLike) -> SE3:
    """Transform of one DH link for joint coordinate ``q`` (any shape, batched).

    Revolute: ``dh_transform(q + offset, d, a, alpha)``; prismatic:
    ``dh_transform(theta, q + offset, a, alpha)``; modified DH if ``link.mdh``.

    >>> link_transform(PrismaticDH(), [0.1, 0.2])[:, 2, 3]
    array([0.1, 0.2])
    """
    q = getarray(q, "q")
    if link.sigma == 0:
        return dh_transform(q + link.offset, link.d, link.a, link.alpha, link.mdh)
    return dh_transform(link.theta, q + link.offset, link.a, link.alpha, link.mdh)


# ---------------------------------------------------------------------------
# the chain as multiply-adds on the twelve numbers of a pose
#
# A frame is the tuple (x0, x1, x2, y0, y1, y2, z0, z1, z2, p0, p1, p2): the
# columns x, y, z of its rotation and its origin p.  Each entry is a float
# (one configuration) or an array of N values (a batch); the steps below
# only multiply and add, so they work on either.

def _frame(T) -> tuple:
    """The twelve numbers of a constant 4x4 pose, as floats."""
    (r00, r01, r02, p0), (r10, r11, r12, p1), (r20, r21, r22, p2), _ = T.tolist()
    return (r00, r10, r20, r01, r11, r21, r02, r12, r22, p0, p1, p2)


_IDENTITY = _frame(np.eye(4))


def _standard_step(F, ct, st, d, a, ca, sa):
    """``F Rz(theta) Tz(d) Tx(a) Rx(alpha)`` for one standard DH link."""
    x0, x1, x2, y0, y1, y2, z0, z1, z2, p0, p1, p2 = F
    # Rz(theta) turns x and y about z
    X0, X1, X2 = ct * x0 + st * y0, ct * x1 + st * y1, ct * x2 + st * y2
    u0, u1, u2 = ct * y0 - st * x0, ct * y1 - st * x1, ct * y2 - st * x2
    # Tz(d) Tx(a) move the origin along z and along the new x; Rx(alpha) turns y and z
    return (X0, X1, X2,
            ca * u0 + sa * z0, ca * u1 + sa * z1, ca * u2 + sa * z2,
            ca * z0 - sa * u0, ca * z1 - sa * u1, ca * z2 - sa * u2,
            p0 + d * z0 + a * X0, p1 + d * z1 + a * X1, p2 + d * z2 + a * X2)


def _modified_step(F, ct, st, d, a, ca, sa):
    """``F Rx(alpha) Tx(a) Rz(theta) Tz(d)`` for one modified DH link."""
    x0, x1, x2, y0, y1, y2, z0, z1, z2, p0, p1, p2 = F
    # Rx(alpha) turns y and z about x
    u0, u1, u2 = ca * y0 + sa * z0, ca * y1 + sa * z1, ca * y2 + sa * z2
    w0, w1, w2 = ca * z0 - sa * y0, ca * z1 - sa * y1, ca * z2 - sa * y2
    # Rz(theta) turns x and y about the new z; Tx(a) Tz(d) move the origin
    return (ct * x0 + st * u0, ct * x1 + st * u1, ct * x2 + st * u2,
            ct * u0 - st * x0, ct * u1 - st * x1, ct * u2 - st * x2,
            w0, w1, w2,
            p0 + a * x0 + d * w0, p1 + a * x1 + d * w1, p2 + a * x2 + d * w2)


def _compose(F, G):
    """``F G`` for a constant frame G (the tool)."""
    x0, x1, x2, y0, y1, y2, z0, z1, z2, p0, p1, p2 = F
    out = []
    for g0, g1, g2 in (G[0:3], G[3:6], G[6:9]):
        out += [x0 * g0 + y0 * g1 + z0 * g2, x1 * g0 + y1 * g1 + z1 * g2,
                x2 * g0 + y2 * g1 + z2 * g2]
    g0, g1, g2 = G[9:12]
    return tuple(out) + (p0 + x0 * g0 + y0 * g1 + z0 * g2, p1 + x1 * g0 + y1 * g1 + z1 * g2,
                         p2 + x2 * g0 + y2 * g1 + z2 * g2)


def _walk(robot, q, cos, sin, keep: bool):
    """Walk the chain from ``base``: the frames ``base A_1 ... A_j``.

    ``q`` is a sequence of n joint values (floats, or rows of a batch) and
    ``cos``/``sin`` the matching functions (``math`` or ``numpy``).  Returns
    the list of the n + 1 frames ``base, base A_1, ..., base A_1...A_n`` if
    ``keep``, else the last one alone (in a list).
    """
    step = _modified_step if robot.mdh else _standard_step
    F = _frame(robot.base)
    frames = [F]
    for L, qj in zip(robot.links, q):
        if L.sigma == 0:
            theta, d = qj + L.offset, L.d
        else:
            theta, d = L.theta, qj + L.offset
        F = step(F, cos(theta), sin(theta), d, L.a, math.cos(L.alpha), math.sin(L.alpha))
        if keep:
            frames.append(F)
    return frames if keep else [F]


#: (row, column) in the 4x4 pose of each of the twelve numbers of a frame
_ENTRIES = [(r, c) for c in range(4) for r in range(3)]


def _poses(robot, q, unit, pick):
    """Poses (..., k, 4, 4) of chosen frames of the chain.

    ``pick(n)`` lists indices into the n + 2 frames ``base``, ``base A_1``,
    ..., ``base A_1 ... A_n`` and, last, the end pose with the tool.  The
    configurations are flattened to (N, n); up to :data:`SMALL` of them are
    computed one at a time with Python floats, more as rows of the batch in
    blocks of :data:`BLOCK`.
    """
    n = robot.n
    # the unit only matters for degrees: skip building `revolute` otherwise
    qa = getq(q, n, robot.revolute if unit == "deg" else None, unit)
    index = pick(n)
    keep = index != [n + 1]                      # all frames, or the end pose only
    tool = _frame(robot.tool)

    def chosen(frames):
        last = frames[-1]
        end = last if tool == _IDENTITY else _compose(last, tool)
        frames = frames + [end] if keep else [None] * (n + 1) + [end]
        return [frames[i] for i in index]

    Q = qa.reshape(-1, n)
    if len(Q) <= SMALL:
        # one configuration at a time, in floats: for a few that costs less than
        # the fixed cost of the numpy calls of a batch
        flat = []
        for q1 in Q.tolist():
            for x0, x1, x2, y0, y1, y2, z0, z1, z2, p0, p1, p2 in chosen(
                    _walk(robot, q1, math.cos, math.sin, keep)):
                flat += (x0, y0, z0, p0, x1, y1, z1, p1, x2, y2, z2, p2, 0.0, 0.0, 0.0, 1.0)
        return np.array(flat).reshape(qa.shape[:-1] + (len(index), 4, 4))

    # the poses are written as rows, out[k, r, c, :] for the whole batch, and
    # returned as the (N, k, 4, 4) view of that buffer: writing rows is several
    # times faster than scattering each number into N separate 4x4 matrices
    out = np.empty((len(index), 4, 4, Q.shape[0]))
    out[:, 3, :3] = 0.0
    out[:, 3, 3] = 1.0
    for start in range(0, Q.shape[0], BLOCK):
        rows = np.ascontiguousarray(Q[start:start + BLOCK].T)      # (n, B): a row per joint
        stop = start + rows.shape[1]
        for k, F in enumerate(chosen(_walk(robot, rows, np.cos, np.sin, keep))):
            for value, (r, c) in zip(F, _ENTRIES):
                out[k, r, c, start:stop] = value
    return np.moveaxis(out, -1, 0).reshape(qa.shape[:-1] + out.shape[:-1])


def fkine_dh_reference(robot: DHChain, q: JointVector) -> SE3:
    r"""Forward kinematics by the definition: the plain product of the link matrices.

    .. math:: T = T_{base}\, A_1(q_1)\, A_2(q_2) \cdots A_n(q_n)\, T_{tool},

    with :math:`A_j` of :func:`dh_transform` (standard or modified DH),
    :math:`\theta_j = q_j + \text{offset}_j` for a revolute joint and
    :math:`d_j = q_j + \text{offset}_j` for a prismatic one.  One
    configuration, n matrix products: the idea, for reading.
    :func:`fkine_dh` computes the same poses (a test holds them equal) by
    walking the chain on twelve numbers per frame, as floats for a few
    configurations and as rows of a batch for many.

    >>> p560 = rvc.models.puma560()
    >>> bool(np.allclose(fkine_dh_reference(p560, p560.qn), fkine_dh(p560, p560.qn), atol=1e-12))
    True
    """
    q = getvector(q, "q", robot.n)
    T = np.array(robot.base, dtype=float)
    for link, qj in zip(robot.links, q):
        theta, d = (link.theta, qj + link.offset) if link.sigma else (qj + link.offset, link.d)
        T = T @ dh_transform(theta, d, link.a, link.alpha, mdh=robot.mdh)
    return T @ robot.tool


def fkine_dh(robot: DHChain, q: JointVector, *, unit: str = "rad") -> SE3:
    """Forward kinematics ``T = base A_1(q_1) ... A_n(q_n) tool``.

    ``q`` of shape (n,) gives a (4, 4) pose, (N, n) gives (N, 4, 4); the
    computation is vectorised over N (a loop over the n links only).
    Revolute joints are radians unless ``unit="deg"``.  Joint limits are
    not checked.

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> fkine_dh(r, np.array([[0, 0], [np.pi / 2, 0]]))[:, :3, 3].round(6) + 0
    array([[2., 0., 0.],
           [0., 2., 0.]])
    """
    return _poses(robot, q, unit, lambda n: [n + 1])[..., 0, :, :]


def fkine_all(robot: DHChain, q: JointVector, *, unit: str = "rad") -> SE3:
    """Poses of the base and every link frame: shape (..., n + 1, 4, 4).

    Element 0 is ``base``, element j is ``base A_1 ... A_j`` (frame {j});
    the tool transform is not applied (as in roboticstoolbox-python), so
    ``fkine(q) = fkine_all(q)[..., -1, :, :] @ tool``.

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> fkine_all(r, [0, np.pi / 2])[:, :3, 3].round(6) + 0
    array([[0., 0., 0.],
           [1., 0., 0.],
           [1., 1., 0.]])
    """
    return _poses(robot, q, unit, lambda n: list(range(n + 1)))


def joint_frames_dh(robot: DHChain, q: JointVector, *, unit: str = "rad") -> tuple[SE3, SE3]:
    """The frame of each joint axis and the tool pose: ``(F, T)``.

    ``F`` (..., n, 4, 4): joint j turns about (slides along) the z axis of
    ``F[..., j, :, :]``, which is frame {j-1} for standard DH and frame {j}
    for modified DH, in the world frame (base included).  ``T`` (..., 4, 4)
    is ``fkine(q)``, tool included.  This is the chain interface the
    Jacobians use (``robot.joint_frames(q)``).

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> F, T = joint_frames_dh(r, [0, 0])
    >>> F[:, :3, 3], T[:3, 3]
    (array([[0., 0., 0.],
           [1., 0., 0.]]), array([2., 0., 0.]))
    """
    first = 1 if robot.mdh else 0
    P = _poses(robot, q, unit, lambda n: list(range(first, first + n)) + [n + 1])
    return P[..., :-1, :, :], P[..., -1, :, :]


def fkine_links(robot: DHChain, j: int | Sequence[int], q: JointVector, *, unit: str = "rad") -> SE3:
    """Link transforms without base or tool (the toolbox's ``robot.A(j, q)``).

    ``j`` a link index (0-based) gives link j alone, ``A_{j+1}(q_j)``, the
    transform from frame {j} to {j+1}; ``j = [j0, j1]`` gives the product of
    links j0 to j1 inclusive.  ``q`` is the full joint vector (n,) or its
    first j1 + 1 elements; batched over leading dimensions.

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=2)])
    >>> fkine_links(r, [0, 1], [0, 0])[:3, 3]
    array([3., 0., 0.])
    >>> fkine_links(r, 1, [0, 0])[:3, 3]
    array([2., 0., 0.])
    """
    if np.ndim(j) == 0:
        j0 = j1 = int(j)
    else:
        jj = getvector(j, "j", 2)
        j0, j1 = int(jj[0]), int(jj[1])
    if not (0 <= j0 <= j1 < robot.n):
        raise ValueError(f"j: expected link indices 0 <= j0 <= j1 < {robot.n}, got {j!r}")
    qa = getarray(q, "q")
    m = qa.shape[-1] if qa.ndim else 1
    if m not in (robot.n, j1 + 1) or (qa.ndim == 0 and robot.n != 1 and j1 != 0):
        raise ValueError(f"q: expected {robot.n} (or {j1 + 1}) joint coordinates, "
                         f"got shape {qa.shape}")
    qa = getq(qa, m, robot.revolute[:m], unit)
    links = robot.links
    T = link_transform(links[j0], qa[..., j0])
    for k in range(j0 + 1, j1 + 1):
        T = T @ link_transform(links[k], qa[..., k])
    return T
