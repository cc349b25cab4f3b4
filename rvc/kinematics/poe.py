"""Forward kinematics by the product of exponentials (Chapter 7.1.2.2).

Every joint of a serial chain is a screw: a unit twist :math:`S_j` in the
world frame at q = 0.  Then

.. math:: T(q) = e^{[S_1] q_1} e^{[S_2] q_2} \\cdots e^{[S_n] q_n} M,
          \\qquad M = T(0).

:func:`joint_twists` reads the twists off any chain model (through its
``joint_frames``), :func:`fkine_poe` multiplies the exponentials.

>>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
>>> S = joint_twists(r)
>>> np.allclose(fkine_poe(S, r.fkine([0, 0]), [0.3, 0.4]), r.fkine([0.3, 0.4]))
True
"""

from __future__ import annotations

import numpy as np

from ..checks import getarray, getpose, getq
from ..spatial.expmap import trexp
from ..shapes import SE3, JointVector, Twist6
from .chain import Chain

__all__ = ["joint_twists", "fkine_poe"]


def joint_twists(robot: Chain) -> Twist6:
    """Unit joint twists ``S_j = (v_j, w_j)`` in the world frame at q = 0: shape (n, 6).

    For a revolute joint with unit axis ``w`` through point ``p``,
    ``S = (-w x p, w)``; for a prismatic joint along ``w``, ``S = (w, 0)``.
    The axis of joint j and a point on it are the z axis and origin of
    ``robot.joint_frames(0)[0][j]`` (for standard DH frame {j-1}, for
    modified DH frame {j}, base included): any chain model works.

    >>> joint_twists(DHRobot([PrismaticDH(alpha=np.pi / 2)]))
    array([[0., 0., 1., 0., 0., 0.]])
    >>> joint_twists(ETS3.Tx(1) * ETS3.Ry()) + 0
    array([[0., 0., 1., 0., 1., 0.]])
    """
    F, _ = robot.joint_frames(np.zeros(robot.n))
    w, p = F[:, :3, 2], F[:, :3, 3]
    rev = np.asarray(robot.revolute, dtype=bool)[:, None]
    v = np.where(rev, np.cross(p, w), w)                  # -w x p = p x w
    return np.concatenate([v, np.where(rev, w, 0.0)], axis=-1)


def fkine_poe(twists: Twist6, M: SE3, q: JointVector, *, unit: str = "rad") -> SE3:
    """Forward kinematics by the product of exponentials (7.1.2.2).

    .. math:: T(q) = e^{[S_1] q_1} e^{[S_2] q_2} \\cdots e^{[S_n] q_n} M

    ``twists`` (n, 6) unit twists (linear, angular) in the world frame,
    ``M`` the (4, 4) pose at q = 0, ``q`` (n,) or (N, n).  A twist with a
    zero angular part is prismatic (degrees are converted only for the
    others).

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> S, M = r.twists()
    >>> q = np.array([0.3, -0.5])
    >>> np.allclose(fkine_poe(S, M, q), r.fkine(q))
    True
    """
    S = getarray(twists, "twists", shape=(6,))
    if S.ndim == 1:
        S = S[None]
    if S.ndim != 2:
        raise ValueError(f"twists: expected shape (n, 6), got shape {S.shape}")
    M = getpose(M, "M")
    if M.shape != (4, 4):
        raise ValueError(f"M: expected one 4x4 pose, got shape {M.shape}")
    rev = np.linalg.norm(S[:, 3:], axis=1) > 0
    qa = getq(q, S.shape[0], rev, unit)
    T = np.broadcast_to(np.eye(4), qa.shape[:-1] + (4, 4))
    for j in range(S.shape[0]):
        T = T @ trexp(S[j], qa[..., j], check=False)
    return T @ M
