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

>>> robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
>>> fkine_dh(robot, [0, np.pi / 2])[:3, 3].round(6)
array([1., 1., 0.])
"""

from __future__ import annotations

import numpy as np

from ..checks import getarray, getq, getvector

__all__ = ["dh_transform", "link_transform", "fkine_dh", "fkine_all", "fkine_links", "joint_frames_dh"]


def dh_transform(theta, d, a, alpha, mdh: bool = False) -> np.ndarray:
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

def link_transform(link, q) -> np.ndarray:
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


def _link_poses(robot, q, unit: str):
    """Generator of the link transforms A_j(q_j), batched."""
    qa = getq(q, robot.n, robot.revolute, unit)
    for j, L in enumerate(robot.links):
        yield link_transform(L, qa[..., j])


def fkine_dh(robot, q, *, unit: str = "rad") -> np.ndarray:
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
    T = robot.base
    for A in _link_poses(robot, q, unit):
        T = T @ A
    return T @ robot.tool


def fkine_all(robot, q, *, unit: str = "rad") -> np.ndarray:
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
    frames = []
    T = robot.base
    for A in _link_poses(robot, q, unit):
        T = T @ A
        frames.append(T)
    batch = frames[0].shape[:-2]
    frames.insert(0, np.broadcast_to(robot.base, batch + (4, 4)))
    return np.stack(frames, axis=-3)


def joint_frames_dh(robot, q, *, unit: str = "rad"):
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
    F = fkine_all(robot, q, unit=unit)
    axes = F[..., 1:, :, :] if robot.mdh else F[..., :-1, :, :]
    return axes, F[..., -1, :, :] @ robot.tool


def fkine_links(robot, j, q, *, unit: str = "rad") -> np.ndarray:
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
