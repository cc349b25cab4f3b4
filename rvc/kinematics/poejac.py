"""The manipulator Jacobian from joint twists (Chapter 8.7.1).

With the unit joint twists :math:`S_j` of the product of exponentials
(:func:`~rvc.kinematics.poe.joint_twists`, world frame at q = 0), joint j
moves the arm about the twist :math:`S_j` carried along by the joints
before it:

.. math:: {}^0J^v(q) = \\bigl(S_1,\\ \\mathrm{Ad}(e^{[S_1]q_1}) S_2,\\ \\dots,\\
          \\mathrm{Ad}(e^{[S_1]q_1} \\cdots e^{[S_{n-1}]q_{n-1}}) S_n\\bigr).

Column j of this *velocity-twist* (space) Jacobian is the twist of the
tool for a unit speed of joint j: the angular velocity :math:`\\omega` and
the velocity of the point of the moving body that is at the world origin.
The tool point :math:`t_e` moves with :math:`v_e = v + \\omega \\times t_e`,
which gives the geometric Jacobian of :func:`~rvc.kinematics.jacobian.jacob0`,

.. math:: {}^0J(q) = \\begin{pmatrix} I_3 & -[t_e]_\\times \\\\ 0 & I_3 \\end{pmatrix} {}^0J^v(q),
          \\qquad {}^EJ^v = \\mathrm{Ad}({}^E\\xi_0)\\, {}^0J^v .

>>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
>>> S, M = r.twists()
>>> bool(np.allclose(jacob0_poe(S, M, [0.3, 0.4]), jacob0(r, [0.3, 0.4])))
True
"""

from __future__ import annotations

import numpy as np

from ..checks import getarray, getpose, getq
from ..spatial.expmap import skew, trexp
from ..spatial.twist import Ad
from ..shapes import SE3, Jacobian, JointVector, Twist6
from .poe import fkine_poe

__all__ = ["jacobs_poe", "jacob0_poe"]


def _gettwists(twists) -> np.ndarray:
    S = getarray(twists, "twists", shape=(6,))
    S = S[None] if S.ndim == 1 else S
    if S.ndim != 2:
        raise ValueError(f"twists: expected shape (n, 6), got shape {S.shape}")
    return S


def jacobs_poe(twists: Twist6, q: JointVector, *, unit: str = "rad") -> Jacobian:
    """Velocity-twist (space) Jacobian :math:`{}^0J^v(q)` from unit joint twists: shape (..., 6, n).

    .. math:: J^v_j = \\mathrm{Ad}\\bigl(e^{[S_1]q_1} \\cdots e^{[S_{j-1}]q_{j-1}}\\bigr)\\, S_j

    ``twists`` (n, 6) are the joint twists (linear, angular) in the world
    frame at q = 0, as :func:`~rvc.kinematics.poe.joint_twists` returns;
    a twist with zero angular part is prismatic (not converted by
    ``unit="deg"``).  ``q`` (..., n), batched; the loop is over the joints.

    >>> S = np.array([[0, 0, 0, 0, 0, 1.0], [0, -1, 0, 0, 0, 1]])   # planar arm, a1 = 1
    >>> jacobs_poe(S, [0, 0]) + 0
    array([[ 0.,  0.],
           [ 0., -1.],
           [ 0.,  0.],
           [ 0.,  0.],
           [ 0.,  0.],
           [ 1.,  1.]])
    """
    S = _gettwists(twists)
    n = S.shape[0]
    rev = np.linalg.norm(S[:, 3:], axis=1) > 0
    qa = getq(q, n, rev, unit)
    G = np.broadcast_to(np.eye(4), qa.shape[:-1] + (4, 4))      # e^[S1]q1 ... e^[S_{j-1}]q_{j-1}
    cols = []
    for j in range(n):
        cols.append(Ad(G, check=False) @ S[j])
        G = G @ trexp(S[j], qa[..., j], check=False)
    return np.stack(cols, axis=-1)


def jacob0_poe(twists: Twist6, M: SE3, q: JointVector, *, unit: str = "rad") -> Jacobian:
    """Geometric world-frame Jacobian from joint twists (8.7.1): shape (..., 6, n).

    .. math:: {}^0J(q) = \\begin{pmatrix} I_3 & -[t_e]_\\times \\\\ 0 & I_3 \\end{pmatrix} {}^0J^v(q)

    with :math:`{}^0J^v` from :func:`jacobs_poe` and :math:`t_e` the tool
    position of :math:`T(q) = e^{[S_1]q_1} \\cdots e^{[S_n]q_n} M`.  Equals
    :func:`~rvc.kinematics.jacobian.jacob0` for the robot whose twists and
    home pose ``M`` these are (``S, M = robot.twists()``).

    >>> p560 = rvc.models.puma560()
    >>> S, M = p560.twists()
    >>> bool(np.allclose(jacob0_poe(S, M, p560.qn), jacob0(p560, p560.qn)))
    True
    """
    S = _gettwists(twists)
    M = getpose(M, "M")
    if M.shape != (4, 4):
        raise ValueError(f"M: expected one 4x4 pose, got shape {M.shape}")
    Jv = jacobs_poe(S, q, unit=unit)
    te = fkine_poe(S, M, q, unit=unit)[..., :3, 3]
    top = Jv[..., :3, :] - skew(te) @ Jv[..., 3:, :]
    return np.concatenate([top, Jv[..., 3:, :]], axis=-2)
