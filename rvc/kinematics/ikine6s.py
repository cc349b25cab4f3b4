"""Closed-form inverse kinematics of a 6-axis arm with a spherical wrist (notes 7.2.2.1).

:func:`ikine6s` is the solution of Paul and Zhang for 6-axis arms of Puma
form, with the eight solutions selected by the configuration letters
``l/r``, ``u/d``, ``n/f``.  Each solution is checked by forward kinematics
with the pose error of :func:`~rvc.kinematics.ikine.ik_pose_error`: the
same ``tol`` (metres and radians) as :func:`~rvc.kinematics.ikine.ikine`.

>>> p560 = rvc.models.puma560()
>>> sol = ikine6s(p560, p560.fkine(p560.qn), "ru")
>>> sol.success, np.round(sol.q, 4)
(True, array([0.    , 0.7854, 3.1416, 0.    , 0.7854, 0.    ]))
"""

from __future__ import annotations

import numpy as np

from ..checks import getunit, putangle, warn_singular
from ..shapes import SE3
from ..spatial.transforms3d import rotx, rotz
from .chain import goal_pose
from .dh import DHChain
from .ikine import IKSolution, ik_pose_error

__all__ = ["ikine6s"]


def _wrap(q):
    """Wrap angles to (-pi, pi] (a hair above -pi, from round-off, becomes pi)."""
    q = np.pi - (np.pi - np.asarray(q)) % (2 * np.pi)
    return np.where(q < -np.pi + 1e-12, q + 2 * np.pi, q)


_IK6S_SINGULAR = 1e-9


def _check_puma_form(robot, tol=1e-9):
    """Raise ValueError unless the robot is a 6R arm of Puma form."""
    if not hasattr(robot, "links"):
        raise ValueError(f"robot: ikine6s needs a robot described by a DH table, got "
                         f"{type(robot).__name__}; use ikine for other chains")
    if robot.n != 6:
        raise ValueError(f"robot: ikine6s needs a 6-axis robot, got n = {robot.n}")
    if robot.mdh:
        raise ValueError("robot: ikine6s needs standard DH parameters, got modified DH")
    if not np.all(robot.revolute):
        raise ValueError("robot: ikine6s needs 6 revolute joints (RRRRRR)")
    L = robot.links
    a = np.array([lk.a for lk in L], dtype=float)
    d = np.array([lk.d for lk in L], dtype=float)
    alpha = np.array([lk.alpha for lk in L], dtype=float)
    problems = []
    if not np.allclose(alpha[:3], [np.pi / 2, 0, -np.pi / 2], atol=tol):
        problems.append(f"alpha1..3 = {np.round(alpha[:3], 4).tolist()} (need [pi/2, 0, -pi/2])")
    if abs(a[0]) > tol or abs(d[1]) > tol:
        problems.append("a1 and d2 must be zero")
    if abs(a[3]) > tol or abs(a[4]) > tol or abs(d[4]) > tol:
        problems.append("a4, a5 and d5 must be zero (spherical wrist)")
    if not (np.isclose(abs(alpha[3]), np.pi / 2, atol=tol) and np.isclose(alpha[4], -alpha[3], atol=tol)):
        problems.append("alpha4 = -alpha5 = +-pi/2 needed (spherical wrist)")
    if problems:
        raise ValueError("robot: ikine6s needs a Puma-form arm with a spherical wrist: " + "; ".join(problems))


def _getconfig(config: str):
    if not isinstance(config, str):
        raise TypeError(f"config: expected a string of letters from 'lr', 'ud', 'nf', got {type(config).__name__}")
    bad = [c for c in config if c not in "lrudnf"]
    if bad:
        raise ValueError(f"config: expected letters from 'l', 'r', 'u', 'd', 'n', 'f', got {config!r} "
                         f"(unknown {''.join(bad)!r})")
    for pair in ("lr", "ud", "nf"):
        if pair[0] in config and pair[1] in config:
            raise ValueError(f"config: {pair[0]!r} and {pair[1]!r} are exclusive, got {config!r}")
    right = "r" in config
    down = "d" in config
    flip = "f" in config
    return right, down, flip


def ikine6s(robot: DHChain, T: SE3, config: str = "lun", *, tol: float = 1e-5, strict: bool = False,
            unit: str = "rad") -> IKSolution:
    r"""Closed-form inverse kinematics of a 6-axis arm with a spherical wrist.

    The solution of Paul and Zhang (1986) for an arm of Puma form
    (standard DH, :math:`\alpha_{1..3} = (\pi/2, 0, -\pi/2)`, :math:`a_1 =
    d_2 = 0`, spherical wrist :math:`a_4 = a_5 = d_5 = 0`).  The base and
    tool transforms and joint offsets of the robot are taken into account.

    The wrist centre :math:`p_w = p - R\,R_x(-\alpha_6)(a_6, 0, d_6)^T`
    fixes the first three joints:

    .. math::

        q_1 = \operatorname{atan2}(p_y, p_x) + \sin^{-1}(d_3/r) \;\; (\text{right}),\quad
        \operatorname{atan2}(p_y, p_x) + \pi - \sin^{-1}(d_3/r) \;\; (\text{left}),

    with :math:`r = \sqrt{p_x^2 + p_y^2}`, then :math:`q_2 =
    \operatorname{atan2}(p_z, V) \pm \psi`,
    :math:`\cos\psi = (a_2^2 - d_4^2 - a_3^2 + V^2 + p_z^2) / (2 a_2 \sqrt{V^2 + p_z^2})`,
    :math:`V = p_x\cos q_1 + p_y \sin q_1`, and :math:`q_3` from the elbow
    geometry.  The wrist rotation :math:`R_3^T R` is a ZYZ Euler rotation
    :math:`(q_4, \mp q_5, q_6)`.

    Parameters
    ----------
    robot : DHRobot
        A 6R robot of Puma form (e.g. ``rvc.models.puma560()``).
    T : array_like (4, 4) or (N, 4, 4)
        Desired end-effector pose(s) in the world frame.
    config : str
        Letters choosing one of the 8 solutions: ``l``/``r`` left or right
        arm, ``u``/``d`` elbow up or down, ``n``/``f`` wrist not flipped
        (the DH angle :math:`\theta_5 \in [0, \pi]`, so :math:`q_5 \ge 0` for
        the Puma) or flipped (:math:`q_4 \to q_4 + \pi, q_5 \to -q_5, q_6 \to
        q_6 + \pi`).  Missing letters default to ``l``, ``u``, ``n``.  With
        these letters ``ikine6s(p560, p560.fkine(qn), "ru")`` returns ``qn``
        as in the notes.  (roboticstoolbox-python's ``ikine_a`` uses the
        opposite wrist letters for the Puma: its ``"run"`` is ``"ruf"`` here.)
    tol : float
        A solution is checked by forward kinematics; success needs its
        position error within ``tol`` metres and its rotation error within
        ``tol`` radians, as in :func:`ikine` (default 1e-5; before, ``tol``
        bounded the squared error ``e^T e`` with default 1e-10).
    strict : bool
        If true, an unreachable pose raises ``ValueError`` instead of
        returning ``success=False``.
    unit : {"rad", "deg"}
        Unit of the returned joint coordinates.

    Returns
    -------
    IKSolution
        ``q`` (6,) or (N, 6), wrapped to (-pi, pi].  For an unreachable pose
        ``success`` is false, ``reason`` says why, ``q`` is zeros (not NaN)
        and ``residual`` is ``inf``.

    Notes
    -----
    At the wrist singularity (:math:`\sin q_5 \approx 0`, below 1e-9) axes
    4 and 6 line up and only :math:`q_4 + q_6` (or :math:`q_4 - q_6` when
    :math:`q_5 = \pi`) is determined: the solver returns :math:`q_4 = 0`,
    puts the whole rotation into :math:`q_6`, and issues a
    :class:`~rvc.checks.SingularityWarning`.  ``n`` and ``f`` then give the
    same solution.

    Examples
    --------
    >>> import numpy as np
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> T = p560.fkine(p560.qn)
    >>> np.round(ikine6s(p560, T).q, 4)      # the default 'lun' solution
    array([2.6486, 2.3562, 0.094 , 2.5326, 0.9743, 0.3734])
    >>> sol = ikine6s(p560, np.array([[1., 0, 0, 3], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]))
    >>> sol.success, sol.reason
    (False, 'T: pose is unreachable: the wrist centre is beyond the reach of the arm')
    """
    _check_puma_form(robot)
    right, down, flip = _getconfig(config)
    unit = getunit(unit)
    T = goal_pose(robot, T, "T")
    if T.ndim not in (2, 3):
        raise ValueError(f"T: expected a pose (4, 4) or a trajectory (N, 4, 4), got shape {T.shape}")
    single = T.ndim == 2
    Ts = T.reshape(-1, 4, 4)
    Tarm = np.linalg.inv(robot.base) @ Ts @ np.linalg.inv(robot.tool)

    L = robot.links
    a2, a3 = float(L[1].a), float(L[2].a)
    d1, d3, d4 = float(L[0].d), float(L[2].d), float(L[3].d)
    a6, d6, alpha6 = float(L[5].a), float(L[5].d), float(L[5].alpha)
    alpha = np.array([lk.alpha for lk in L], dtype=float)
    offset = np.array([lk.offset for lk in L], dtype=float)

    R = Tarm[:, :3, :3]
    pw = Tarm[:, :3, 3] - R @ (rotx(-alpha6) @ np.array([a6, 0.0, d6]))
    Px, Py, Pz = pw[:, 0], pw[:, 1], pw[:, 2] - d1
    N = Ts.shape[0]

    # q1: the shoulder offset d3 makes the arm left- or right-handed
    r = np.hypot(Px, Py)
    reach1 = r > abs(d3) + 1e-12
    rs = np.where(reach1, r, 1.0)
    s = np.clip(d3 / rs, -1.0, 1.0)
    th1 = np.arctan2(Py, Px) + (np.arcsin(s) if right else np.pi - np.arcsin(s))

    # q2: elbow up or down; the sense flips with the arm
    n2 = (1.0 if not down else -1.0) * (1.0 if right else -1.0)
    V = Px * np.cos(th1) + Py * np.sin(th1)
    rr = np.hypot(V, Pz)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = (a2 ** 2 - d4 ** 2 - a3 ** 2 + V ** 2 + Pz ** 2) / (2.0 * a2 * rr)
    reach2 = np.isfinite(c) & (np.abs(c) <= 1.0 + 1e-12)
    psi = np.arccos(np.clip(np.where(reach2, c, 1.0), -1.0, 1.0))
    th2 = np.arctan2(Pz, V) + n2 * psi

    # q3 from the elbow geometry
    num = np.cos(th2) * V + np.sin(th2) * Pz - a2
    den = np.cos(th2) * Pz - np.sin(th2) * V
    th3 = np.arctan2(a3, d4) - np.arctan2(num, den)

    # wrist: R = R03 Rz(q4) [Rx(a4) Rz(q5) Rx(-a4)] Rz(q6) Rx(a6)
    R03 = rotz(th1) @ rotx(alpha[0]) @ rotz(th2) @ rotx(alpha[1]) @ rotz(th3) @ rotx(alpha[2])
    Rw = np.swapaxes(R03, -1, -2) @ R @ rotx(-alpha6)
    r13, r23, r33 = Rw[:, 0, 2], Rw[:, 1, 2], Rw[:, 2, 2]
    sin5 = np.hypot(r13, r23)
    singular = sin5 < _IK6S_SINGULAR
    # 'n' is the solution with the DH angle theta5 in [0, pi] (q5 >= 0 for the
    # Puma, as in the notes); theta5 = -(Euler theta) when alpha4 > 0
    eul_flip = flip != (alpha[3] > 0)
    phi = np.where(singular, 0.0, np.arctan2(-r23, -r13) if eul_flip else np.arctan2(r23, r13))
    cphi, sphi = np.cos(phi), np.sin(phi)
    theta = np.arctan2(cphi * r13 + sphi * r23, r33)
    psi6 = np.arctan2(-sphi * Rw[:, 0, 0] + cphi * Rw[:, 1, 0], -sphi * Rw[:, 0, 1] + cphi * Rw[:, 1, 1])
    # Rx(a4) Rz(q5) Rx(-a4) is Ry(-q5) for a4 = +pi/2, Ry(q5) for a4 = -pi/2
    th5 = -theta if alpha[3] > 0 else theta

    q = np.stack([th1, th2, th3, phi, th5, psi6], axis=-1) - offset
    q = _wrap(q)

    ok = reach1 & reach2
    q[~ok] = 0.0
    reasons = [""] * N
    for k in np.flatnonzero(~reach1):
        reasons[k] = ("T: pose is unreachable: the wrist centre is closer to the waist axis "
                      f"than the shoulder offset |d3| = {abs(d3):g}")
    for k in np.flatnonzero(reach1 & ~reach2):
        reasons[k] = "T: pose is unreachable: the wrist centre is beyond the reach of the arm"
    if strict and not np.all(ok):
        k = int(np.flatnonzero(~ok)[0])
        where = "" if single else f" (pose {k})"
        raise ValueError(reasons[k] + where)

    # check every solution by forward kinematics
    residual, et, er = np.full(N, np.inf), np.full(N, np.inf), np.full(N, np.inf)
    if np.any(ok):
        e, et[ok], er[ok] = ik_pose_error(np.asarray(robot.fkine(q[ok])).reshape(-1, 4, 4), Ts[ok])
        residual[ok] = np.sum(e * e, axis=-1)
    success = ok & (et <= tol) & (er <= tol)
    for k in np.flatnonzero(ok & ~success):
        reasons[k] = (f"solution does not reach the pose: pose error {et[k]:.3g} m, {er[k]:.3g} rad "
                      f"> tol {tol:g}")

    sing = singular & ok
    if np.any(sing):
        which = "" if single else f" at {int(np.count_nonzero(sing))} of {N} poses"
        warn_singular(f"ikine6s: wrist singularity (q5 = 0 or pi){which}: only q4 +- q6 is "
                      "determined, returning q4 = 0")

    q = putangle(q, unit)
    if single:
        return IKSolution(q[0], bool(success[0]), reasons[0], 0, float(residual[0]), 0,
                          float(et[0]), float(er[0]))
    return IKSolution(q, success, reasons, np.zeros(N, dtype=int), residual, np.zeros(N, dtype=int),
                      et, er)
