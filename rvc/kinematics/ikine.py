"""Inverse kinematics: closed form and numerical (notes 7.2, 8.6).

Three families of solvers, all functions of ``(robot, T, ...)``:

* :func:`ikine6s` -- the closed-form solution of Paul and Zhang for
  6-axis arms of Puma form (spherical wrist), with the eight solutions
  selected by the configuration letters ``l/r``, ``u/d``, ``n/f``;
* :func:`ikine` -- a general numerical solver (Levenberg-Marquardt with
  adaptive damping) that handles any serial robot: masks for
  under-actuated arms, minimum-norm steps for redundant arms, random
  restarts, joint limits, trajectories of poses;
* :func:`ikine_2link_sympy`, :func:`ikine_2link` and
  :func:`ikine_2link_numeric` -- the two-link planar arm of 7.2.1, solved
  symbolically, numerically in closed form, and by ``fminsearch``-style
  optimisation.

Every solver returns an :class:`IKSolution`.  ``success`` is true only
when the returned joint coordinates reach the pose, checked by forward
kinematics: for :func:`ikine` the position and rotation errors are within
``tol`` metres and radians, for :func:`ikine6s` the squared pose error
``E = e^T e`` is below its ``tol``.

>>> import numpy as np
>>> from rvc.models import puma560
>>> p560 = puma560()
>>> T = p560.fkine(p560.qn)
>>> sol = ikine6s(p560, T, "ru")
>>> sol.success, np.round(sol.q, 4)
(True, array([0.    , 0.7854, 3.1416, 0.    , 0.7854, 0.    ]))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import sympy as sp
from scipy.linalg import get_lapack_funcs
from scipy.optimize import minimize

from ..checks import (getarray, getoption, getscalar, getunit, getvector, putangle,
                      warn_singular)
from ..results import Result
from ..spatial.expmap import trlog
from ..spatial.transforms3d import rotx, rotz
from .chain import goal_pose
from .jacobian import jacob0_pose

__all__ = [
    "IKSolution",
    "ikine6s",
    "ikine",
    "ikine_2link_sympy",
    "ikine_2link",
    "ikine_2link_numeric",
]


# ---------------------------------------------------------------------------
# the result object


@dataclass(frozen=True, repr=False, eq=False)
class IKSolution(Result):
    """The result of an inverse kinematics solver.

    Attributes
    ----------
    q : ndarray
        Joint coordinates, shape (n,) for one pose or (N, n) for N poses.
        Where a pose was not solved ``q`` holds the documented fallback of
        the solver (zeros for :func:`ikine6s`, the last iterate for
        :func:`ikine`) and ``success`` is false -- never NaN.
    success : bool or ndarray of bool
        True only when ``q`` reaches the pose, within the solver's ``tol``.
    reason : str or list of str
        Empty on success, otherwise why the pose was not solved.
    iterations : int or ndarray of int
        Iterations used (0 for closed-form solutions).
    residual : float or ndarray
        The squared weighted pose error ``E = e^T W e`` at ``q``
        (``inf`` when no candidate solution exists, e.g. out of reach).
    searches : int or ndarray of int
        Number of random restarts used by :func:`ikine`.
    position_error, rotation_error : float or ndarray
        How far ``fkine(q)`` is from the pose: :math:`\\|t^* - t\\|` in metres
        and the angle of :math:`R^* R^T` in radians (only the components a
        mask weights count; ``inf`` when there is no candidate).

    Unpacks as ``q, success`` (MATLAB's ``[q, err] = ikine(...)`` pattern).
    """

    unpack = ("q", "success")

    q: np.ndarray
    success: Any
    reason: Any = ""
    iterations: Any = 0
    residual: Any = 0.0
    searches: Any = field(default=0)
    position_error: Any = 0.0
    rotation_error: Any = 0.0

    def __repr__(self) -> str:
        with np.printoptions(precision=4, suppress=True):
            if np.ndim(self.success) == 0:
                s = (f"IKSolution(q={self.q}, success={bool(self.success)}, "
                     f"iterations={int(self.iterations)}, error {float(self.position_error):.3g} m "
                     f"{float(self.rotation_error):.3g} rad")
                return s + (f", reason={self.reason!r})" if self.reason else ")")
            ok = int(np.count_nonzero(self.success))
            return (f"IKSolution({len(self.success)} poses, {ok} solved, max error "
                    f"{float(np.max(self.position_error, initial=0)):.3g} m "
                    f"{float(np.max(self.rotation_error, initial=0)):.3g} rad)")


# ---------------------------------------------------------------------------
# helpers shared by the solvers


#: Below this sine of the rotation error angle, an angle above pi/2 is taken
#: from ``trlog`` (whose formula there is accurate up to pi).
_NEAR_PI = 1e-3


def _pose_error(T: np.ndarray, Tstar: np.ndarray) -> np.ndarray:
    r"""The 6-vector e from pose ``T`` to pose ``Tstar``, world frame.

    ``e = (t* - t, theta k)`` where ``theta k`` is the angle-axis vector of
    ``dR = R* R^T``, the rotation log :func:`~rvc.spatial.expmap.trlog`
    gives; (linear, angular) order as every rvc spatial vector.  Batched
    over leading dimensions.  A solver calls this at every iteration, so it
    is done inline, from

    .. math:: v = (r_{32} - r_{23}, r_{13} - r_{31}, r_{21} - r_{12}) = 2 \sin	heta\, k,
              \qquad 	heta k = rac{	heta}{2 \sin	heta} v,
              \quad 	heta = \operatorname{atan2}(|v|/2, (\operatorname{tr} dR - 1)/2),

    which is trlog's own formula for :math:`	heta \le \pi/2` and equals it
    to round-off up to :math:`\pi`; within about 1e-3 rad of :math:`\pi`,
    where ``v`` vanishes, ``trlog`` itself is called.
    """
    dR = Tstar[..., :3, :3] @ np.swapaxes(T[..., :3, :3], -1, -2)
    dt = Tstar[..., :3, 3] - T[..., :3, 3]
    if dR.ndim == 2:                                   # one pose: floats
        (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = dR.tolist()
        v0, v1, v2 = r21 - r12, r02 - r20, r10 - r01
        s = 0.5 * math.sqrt(v0 * v0 + v1 * v1 + v2 * v2)
        c = 0.5 * (r00 + r11 + r22 - 1.0)
        if c < 0.0 and s < _NEAR_PI:
            return np.concatenate([dt, trlog(dR, twist=True, check=False)])
        f = 0.5 * (math.atan2(s, c) / s if s > 1e-300 else 1.0)
        (t0, t1, t2) = dt.tolist()
        return np.array((t0, t1, t2, f * v0, f * v1, f * v2))
    v = np.stack([dR[..., 2, 1] - dR[..., 1, 2], dR[..., 0, 2] - dR[..., 2, 0],
                  dR[..., 1, 0] - dR[..., 0, 1]], axis=-1)
    s = 0.5 * np.sqrt(np.sum(v * v, axis=-1))
    c = 0.5 * (dR[..., 0, 0] + dR[..., 1, 1] + dR[..., 2, 2] - 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = 0.5 * np.where(s > 1e-300, np.arctan2(s, c) / s, 1.0)
    w = v * f[..., None]
    near_pi = (c < 0.0) & (s < _NEAR_PI)
    if near_pi.any():
        w[near_pi] = trlog(dR[near_pi], twist=True, check=False)
    return np.concatenate([dt, w], axis=-1)


def _residual(e: np.ndarray, W: np.ndarray) -> np.ndarray:
    """E = e^T W e for diagonal W given as its (6,) diagonal."""
    return (W * e * e).sum(axis=-1)


def _getposes(robot, T, name="T"):
    T = goal_pose(robot, T, name)
    if T.ndim not in (2, 3):
        raise ValueError(f"{name}: expected a pose (4, 4) or a trajectory (N, 4, 4), got shape {T.shape}")
    return T


def _wrap(q):
    """Wrap angles to (-pi, pi] (a hair above -pi, from round-off, becomes pi)."""
    q = np.pi - (np.pi - np.asarray(q)) % (2 * np.pi)
    return np.where(q < -np.pi + 1e-12, q + 2 * np.pi, q)


# ---------------------------------------------------------------------------
# closed form, 6-axis spherical wrist

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


def ikine6s(robot, T, config: str = "lun", *, tol: float = 1e-10, strict: bool = False,
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
        A solution is checked by forward kinematics; success needs the
        squared pose error ``E = e^T e`` (see :func:`ikine`) below ``tol``.
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
    T = _getposes(robot, T)
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
        e = _pose_error(np.asarray(robot.fkine(q[ok])).reshape(-1, 4, 4), Ts[ok])
        residual[ok] = _residual(e, np.ones(6))
        et[ok], er[ok] = _errors(e, np.ones(6))
    success = ok & (residual < tol)
    for k in np.flatnonzero(ok & ~success):
        reasons[k] = f"solution does not reach the pose: residual {residual[k]:.3g} >= tol {tol:g}"

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


# ---------------------------------------------------------------------------
# numerical: Levenberg-Marquardt

#: An attempt has stalled when the damping grows beyond this: the steps it
#: allows are too small to lower the error any further.
_LAM_MAX = 1e6
#: The damping is divided by _LAM_DOWN after a step that lowers the error and
#: multiplied by _LAM_UP after one that does not (fewest iterations on the
#: Puma 560, Cobra 600 and Baxter among the pairs tried: 2/2, 3/2, 3/3, 5/3, 10/10).
_LAM_DOWN, _LAM_UP = 5.0, 3.0


class _Problem(NamedTuple):
    """What every attempt of one ikine call shares."""

    W: np.ndarray            # (6,) error weights (the mask)
    counted: np.ndarray      # (6,) 1.0 where the weight is non-zero, else 0.0
    tol: float               # pose error in metres and radians
    ilimit: int              # iterations per attempt
    lam: float               # initial damping
    joint_limits: bool
    qlim: np.ndarray         # (2, n)
    prismatic: np.ndarray    # (n,) bool
    starts: "_Restarts"      # random configurations, in the order they are tried


#: LAPACK's solver of a symmetric positive definite system (Cholesky): the
#: damped normal equations are one, and for a single 6x6 system it is
#: several times faster than ``np.linalg.solve``.
_posv = get_lapack_funcs("posv", dtype=float)


def _lm_step(J: np.ndarray, e: np.ndarray, W: np.ndarray, lam) -> np.ndarray:
    r"""The damped least-squares step :math:`(J^T W J + \lambda I)^{-1} J^T W e`.

    For a redundant arm (J wide, W = I) this equals
    :math:`J^T (J J^T + \lambda I)^{-1} e`, the damped minimum-norm step,
    which tends to :math:`J^+ e` as :math:`\lambda \to 0`.  Batched: ``J``
    (..., 6, n), ``e`` (..., 6) and ``lam`` a float or (...,).  Raises
    ``numpy.linalg.LinAlgError`` if the system is singular (only possible
    with ``lam = 0``).
    """
    JtW = np.swapaxes(J, -1, -2) * W
    H = JtW @ J
    n = H.shape[-1]
    if H.ndim == 2:
        H.flat[::n + 1] += lam
        _, dq, info = _posv(H, JtW @ e, overwrite_a=True)
        if info:
            raise np.linalg.LinAlgError("singular damped normal equations")
        return dq
    diagonal = np.arange(n)
    H[..., diagonal, diagonal] += np.asarray(lam)[..., None]
    g = (JtW @ e[..., None])[..., 0]
    if H.ndim == 3 and len(H) >= _LONG and np.min(lam) > 0:
        return _cholesky_solve(H, g)
    return np.linalg.solve(H, g[..., None])[..., 0]


#: From this many systems on, :func:`_cholesky_solve` beats ``np.linalg.solve``.
_LONG = 256


def _cholesky_solve(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Solve ``H x = g`` for a batch of symmetric positive definite H (B, n, n), g (B, n).

    Cholesky, :math:`H = L L^T`, then :math:`L y = g` and :math:`L^T x = y`,
    each entry of L a row of B values: a loop over the n(n+1)/2 entries
    instead of over the B systems, which for a long batch of small systems
    is about twice as fast as ``np.linalg.solve`` (one LAPACK call per system).
    """
    n = H.shape[-1]
    A = np.moveaxis(H, 0, -1)                       # A[i, j] is a row of the batch
    L = [[None] * n for _ in range(n)]
    for j in range(n):
        d = A[j, j].copy()
        for k in range(j):
            d -= L[j][k] * L[j][k]
        L[j][j] = np.sqrt(d)
        for i in range(j + 1, n):
            s = A[i, j].copy()
            for k in range(j):
                s -= L[i][k] * L[j][k]
            L[i][j] = s / L[j][j]
    y = []
    for i in range(n):                              # L y = g
        s = g[:, i].copy()
        for k in range(i):
            s -= L[i][k] * y[k]
        y.append(s / L[i][i])
    x = [None] * n
    for i in reversed(range(n)):                    # L^T x = y
        s = y[i].copy()
        for k in range(i + 1, n):
            s -= L[k][i] * x[k]
        x[i] = s / L[i][i]
    return np.stack(x, axis=-1)


def _errors(e: np.ndarray, counted: np.ndarray):
    """Position error (m) and rotation error (rad): norms of the counted parts of e."""
    e2 = counted * e * e
    return np.sqrt(e2[..., :3].sum(axis=-1)), np.sqrt(e2[..., 3:].sum(axis=-1))


def _reached(e: np.ndarray, p: _Problem):
    """True where the pose is reached: both errors within ``tol``."""
    if e.ndim == 1:                                    # one pose: floats
        e0, e1, e2, e3, e4, e5 = (p.counted * e).tolist()
        tol2 = p.tol * p.tol
        return e0 * e0 + e1 * e1 + e2 * e2 <= tol2 and e3 * e3 + e4 * e4 + e5 * e5 <= tol2
    et, er = _errors(e, p.counted)
    return (et <= p.tol) & (er <= p.tol)


def _random_q(rng, qlim, prismatic, n, size=None):
    """Joint coordinates drawn uniformly within the limits.

    Unlimited revolute joints draw from [-pi, pi), unlimited prismatic ones
    from [0, 1].  ``size`` gives the number of configurations, (size, n).
    """
    lo = np.full(n, -np.pi)
    hi = np.full(n, np.pi)
    finite = np.isfinite(qlim[0]) & np.isfinite(qlim[1])
    lo = np.where(finite, qlim[0], lo)
    hi = np.where(finite, qlim[1], hi)
    if np.any(prismatic & ((lo == -np.pi) & (hi == np.pi))):
        lo = np.where(prismatic & (lo == -np.pi), 0.0, lo)
        hi = np.where(prismatic & (hi == np.pi), 1.0, hi)
    return rng.uniform(lo, hi, None if size is None else (size, n))


class _Restarts:
    """The random restart configurations of one call: ``count`` of them, drawn
    from ``seed`` within the limits (see :func:`_random_q`) when first needed."""

    def __init__(self, seed, qlim, prismatic, count):
        self.seed, self.qlim, self.prismatic, self.count = seed, qlim, prismatic, count
        self.table = None

    def __len__(self):
        return self.count

    def __getitem__(self, k):
        if self.table is None:
            rng = self.seed if isinstance(self.seed, np.random.Generator) else np.random.default_rng(self.seed)
            self.table = _random_q(rng, self.qlim, self.prismatic, len(self.prismatic), self.count)
        return self.table[k]


def _fit_limits(q, qlim, prismatic):
    """Shift revolute joints by multiples of 2 pi into their limits where possible.

    Batched over leading dimensions of q.  Returns (q, inside), ``inside``
    true where every joint is within its limits afterwards.
    """
    lo, hi = qlim
    k = np.ceil((lo - q) / (2 * np.pi))
    shifted = q + 2 * np.pi * k                     # the smallest shift at or above lo
    move = ~prismatic & ((q < lo) | (q > hi)) & (shifted <= hi)
    q = np.where(move, shifted, q)
    tol = 1e-12
    inside = np.all((q >= lo - tol) & (q <= hi + tol), axis=-1)
    return q, inside


# Why an attempt ended without reaching the pose.
_STALLED, _ILIMIT, _OUTSIDE = 1, 2, 3


def _why(code: int, et: float, er: float, ilimit: int, searches: int) -> str:
    if code == 0:
        return ""
    if code == _OUTSIDE:
        text = "solution outside the joint limits qlim"
    else:
        cause = "stalled in a local minimum" if code == _STALLED else f"iteration limit {ilimit} reached"
        text = f"{cause} (pose error {et:.3g} m, {er:.3g} rad)"
    return text + (f" after {searches} random restarts" if searches else "")


def _attempt(robot, Tstar, q, p: _Problem):
    """One LM run for one pose from q: (q, e, iterations, code).

    A lean loop for a single configuration: each iteration evaluates the
    chain once (the Jacobian and the pose of the trial point together);
    a rejected trial keeps the Jacobian of the current point.
    """
    J, T = jacob0_pose(robot, q)
    e = _pose_error(T, Tstar)
    E = e @ (p.W * e)
    lam = p.lam
    for it in range(p.ilimit):
        if _reached(e, p):
            return q, e, it, 0
        try:
            trial = q + _lm_step(J, e, p.W, lam)
        except np.linalg.LinAlgError:                   # singular with lam = 0
            lam = max(2.0 * lam, 1e-12)
            continue
        Jt, Tt = jacob0_pose(robot, trial)
        et = _pose_error(Tt, Tstar)
        Et = et @ (p.W * et)
        if Et < E:
            q, J, e, E = trial, Jt, et, Et
            lam /= _LAM_DOWN
        else:
            lam *= _LAM_UP
            if lam > _LAM_MAX:
                return q, e, it + 1, _STALLED
    return q, e, p.ilimit, 0 if _reached(e, p) else _ILIMIT


def _solve_one(robot, Tstar, q0, p: _Problem):
    """One pose: LM from q0, then from the random restarts until one reaches it.

    Returns (q, e, iterations, searches, code) of the solution, or of the
    attempt that came closest.
    """
    best = None
    total = 0
    for searches in range(len(p.starts) + 1):
        start = q0 if searches == 0 else p.starts[searches - 1]
        q, e, it, code = _attempt(robot, Tstar, start, p)
        total += it
        if code == 0 and p.joint_limits:
            q, inside = _fit_limits(q, p.qlim, p.prismatic)
            code = 0 if inside else _OUTSIDE
        E = e @ (p.W * e)
        if best is None or code == 0 or (best[3] != 0 and E < best[2]):
            best = (q, e, E, code)
        if code == 0:
            break
    q, e, _, code = best
    return q, e, total, searches, code


#: Below this many configurations the chain is evaluated one configuration at
#: a time: numpy's fixed cost per call outweighs what it saves on tiny batches.
_FEW = 8


def _evaluate(robot, Q, Ts):
    """Jacobians (B, 6, n) and pose errors (B, 6) at joint coordinates Q (B, n)."""
    if len(Q) <= _FEW:
        Js, es = [], []
        for q, Tstar in zip(Q, Ts):
            J, T = jacob0_pose(robot, q)
            Js.append(J)
            es.append(_pose_error(T, Tstar))
        return np.array(Js).reshape(len(Q), 6, -1), np.array(es).reshape(len(Q), 6)
    J, T = jacob0_pose(robot, Q)
    return J, _pose_error(T, Ts)


def _solve_batch(robot, Ts, Q0, p: _Problem):
    """Independent poses solved together: the LM of :func:`_attempt`, vectorised.

    Each row (pose) has its own damping, iteration count and restarts, and
    follows exactly the steps :func:`_solve_one` would take for it alone;
    one iteration evaluates the chain once for all rows still working
    (their trial points, and the restart configurations of rows that
    stalled).  Returns (q, e, iterations, searches, code), a row per pose.
    """
    N = Q0.shape[0]
    if N == 1:                                   # a batch of one is one pose
        q, e, it, searches, code = _solve_one(robot, Ts[0], Q0[0], p)
        return q[None], e[None], np.array([it]), np.array([searches]), np.array([code])
    q = Q0.copy()
    J, e = _evaluate(robot, q, Ts)
    E = _residual(e, p.W)
    lam = np.full(N, p.lam)
    it = np.zeros(N, dtype=int)                 # iterations of the current attempt
    total = np.zeros(N, dtype=int)
    searches = np.zeros(N, dtype=int)
    code = np.full(N, -1)                        # -1 while working, then 0 or why not
    best_q, best_e, best_E = q.copy(), e.copy(), np.full(N, np.inf)
    best_code = np.full(N, _STALLED)
    while True:
        act = np.flatnonzero(code < 0)
        if act.size == 0:
            break
        # has each working row ended its attempt, and how?
        reached = _reached(e[act], p)
        ends = np.where(reached, 0, np.where(lam[act] > _LAM_MAX, _STALLED,
                                             np.where(it[act] >= p.ilimit, _ILIMIT, -1)))
        if p.joint_limits and reached.any():
            rows = act[reached]
            q[rows], inside = _fit_limits(q[rows], p.qlim, p.prismatic)
            ends[np.flatnonzero(reached)[~inside]] = _OUTSIDE
        finished = ends >= 0
        restart = act[:0]
        if finished.any():
            # keep the best end of an attempt; stop the rows that succeeded or ran out of restarts
            rows, why = act[finished], ends[finished]
            keep = (why == 0) | ((best_code[rows] != 0) & (E[rows] < best_E[rows]))
            k = rows[keep]
            best_q[k], best_e[k], best_E[k], best_code[k] = q[k], e[k], E[k], why[keep]
            out = (why == 0) | (searches[rows] >= len(p.starts))
            code[rows[out]] = best_code[rows[out]]
            restart = rows[~out]
        # a damped step for the rows that go on, and the restart configurations
        step = act[~finished]
        try:
            trial = q[step] + _lm_step(J[step], e[step], p.W, lam[step])
        except np.linalg.LinAlgError:                   # singular with lam = 0
            lam[step] = np.maximum(2.0 * lam[step], 1e-12)
            continue
        starts = p.starts[searches[restart]] if restart.size else q[:0]
        searches[restart] += 1
        rows = np.concatenate([step, restart])
        if rows.size == 0:
            continue
        # one evaluation of the chain for both; take the steps that lower E
        Qn = np.concatenate([trial, starts])
        Jn, en = _evaluate(robot, Qn, Ts[rows])
        En = _residual(en, p.W)
        better = En[:step.size] < E[step]
        take = np.concatenate([better, np.ones(restart.size, dtype=bool)])
        r = rows[take]
        q[r], J[r], e[r], E[r] = Qn[take], Jn[take], en[take], En[take]
        lam[step] = np.where(better, lam[step] / _LAM_DOWN, lam[step] * _LAM_UP)
        lam[restart] = p.lam
        it[step] += 1
        total[step] += 1
        it[restart] = 0
    return best_q, best_e, total, searches, code


def ikine(robot, T, q0=None, *, mask=None, ilimit: int = 50, tol: float = 1e-9,
          search: bool = True, slimit: int = 10, joint_limits: bool = False,
          lam: float = 0.1, seed=0, unit: str = "rad") -> IKSolution:
    r"""Numerical inverse kinematics by Levenberg-Marquardt (notes 7.2.2.2, 8.6).

    Minimises the squared weighted pose error

    .. math::

        E(q) = e^T W e, \qquad e = \bigl(t^* - t(q),\; \theta k\bigr),
        \qquad R^* R(q)^T = \operatorname{rot}(\theta, k),

    (world frame, linear then angular, ``W = diag(mask)``) by the damped
    step

    .. math::

        \delta q = (J^T W J + \lambda I)^{-1} J^T W e,

    where :math:`J` is the world-frame Jacobian.  The damping adapts: a
    step that lowers ``E`` is taken and :math:`\lambda` divided by 5,
    otherwise the step is rejected and :math:`\lambda` tripled.  For a redundant arm
    (n > 6) the step equals :math:`J^T (J J^T + \lambda I)^{-1} e`, the
    damped minimum-norm step.

    A pose counts as reached only when the pose error itself is small: the
    position error :math:`\|t^* - t\|` is at most ``tol`` metres and the
    rotation error :math:`\theta` at most ``tol`` radians (1e-9 by default;
    near the solution the steps converge quadratically, so this costs only
    an iteration or two more than a loose tolerance).  With a mask only the
    components it weights count.  When an attempt stalls (the damping
    grows past 1e6, i.e. a local minimum) or uses ``ilimit`` iterations,
    the solver restarts from a random configuration within the joint
    limits, up to ``slimit`` times: the restarts are drawn from ``seed``,
    so a call is reproducible, and every pose of a call tries the same
    restarts in the same order.

    Three ways to call it:

    * one pose, ``T`` (4, 4), from ``q0`` (n,) (default zeros);
    * a trajectory, ``T`` (N, 4, 4) with ``q0`` (n,) or None: the poses are
      solved in order, each starting from the previous solution (warm
      start);
    * independent poses, ``T`` (N, 4, 4) with ``q0`` (N, n), one start per
      pose (``T`` (4, 4) with ``q0`` (N, n) solves one pose from N starts):
      the poses are solved together, each iteration vectorised across the
      batch.  A pose's answer does not depend on the others in the batch.

    Parameters
    ----------
    robot : chain model
        Any model with the chain interface (DH, modified DH, ETS3 or ETS2):
        ``n``, ``revolute``, ``qlim``, a batched ``fkine(q)`` and
        ``joint_frames(q)`` (for the Jacobian).
    T : array_like (4, 4) or (N, 4, 4)
        Desired pose(s); for a planar chain (``robot.dim == 2``) also
        planar poses (3, 3) or (N, 3, 3), taken in the plane z = 0.
    q0 : array_like (n,) or (N, n), optional
        Initial joint coordinates (default zeros).
    mask : array_like (6,), optional
        Weights of the error components ``(x, y, z, rx, ry, rz)``, e.g.
        ``[1, 1, 1, 0, 0, 1]`` for a SCARA arm (position and yaw), or
        ``[1, 1, 1, 0, 0, 0]`` for position only.  Default all ones.
    ilimit : int
        Maximum iterations per attempt.
    tol : float
        Largest pose error that counts as reached, in metres (position)
        and radians (rotation).
    search : bool
        Restart from random configurations when an attempt fails (default
        true); ``False`` makes one attempt from ``q0``.
    slimit : int
        Maximum number of random restarts per pose.
    joint_limits : bool
        Reject solutions outside ``robot.qlim`` (after trying to shift
        revolute joints by multiples of 2 pi into range); a rejected
        solution counts as a failed attempt.
    lam : float
        Initial damping :math:`\lambda`.
    seed : int or numpy Generator
        Random generator for the restarts (default 0).
    unit : {"rad", "deg"}
        Unit of ``q0`` and of the returned ``q`` (revolute joints).

    Returns
    -------
    IKSolution
        ``success`` true only when the pose is reached (within ``tol``);
        ``position_error`` (m) and ``rotation_error`` (rad) say how far the
        returned ``q`` is from it; ``residual`` is ``E``.  A pose that was
        not reached keeps the attempt that came closest, and ``reason``
        says why.  For N poses the fields are arrays ((N, n), (N,)) and
        ``reason`` a list.

    Examples
    --------
    >>> import numpy as np
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> T = p560.fkine(p560.qn)
    >>> sol = ikine(p560, T)
    >>> sol.success, sol.position_error <= 1e-9, sol.rotation_error <= 1e-9
    (True, True, True)
    >>> bool(np.allclose(p560.fkine(sol.q), T, atol=1e-9))
    True
    >>> Q = np.random.default_rng(1).uniform(-1, 1, (100, 6))     # 100 poses at once
    >>> ikine(p560, p560.fkine(Q), np.zeros((100, 6))).success.all()
    np.True_
    """
    n = int(robot.n)
    unit = getunit(unit)
    T = _getposes(robot, T)
    prismatic = ~np.asarray(robot.revolute, dtype=bool)
    q0 = np.zeros(n) if q0 is None else getarray(q0, "q0")
    batch = q0.ndim == 2 and q0.shape[1] == n and not (T.ndim == 2 and len(q0) == 1)
    if not batch:
        q0 = getvector(q0, "q0", n)
    elif T.ndim == 3 and len(T) != len(q0):
        raise ValueError(f"q0: expected ({n},) or one start per pose ({len(T)}, {n}), got shape {q0.shape}")
    if unit == "deg":
        q0 = np.where(prismatic, q0, np.deg2rad(q0))
    if mask is None:
        W = np.ones(6)
    else:
        W = getvector(mask, "mask", 6)
        if np.any(W < 0) or not np.any(W > 0):
            raise ValueError(f"mask: expected 6 non-negative weights, not all zero, got {W.tolist()}")
    ilimit = int(getscalar(ilimit, "ilimit"))
    slimit = int(getscalar(slimit, "slimit"))
    tol = getscalar(tol, "tol")
    lam = getscalar(lam, "lam")
    if ilimit < 1 or slimit < 0 or tol <= 0 or lam < 0:
        raise ValueError(f"ilimit, slimit, tol, lam: expected ilimit >= 1, slimit >= 0, tol > 0, lam >= 0, "
                         f"got {ilimit}, {slimit}, {tol}, {lam}")
    qlim = np.asarray(robot.qlim, dtype=float)
    starts = _Restarts(seed, qlim, prismatic, slimit if search else 0)
    p = _Problem(W, (W > 0).astype(float), tol, ilimit, lam, joint_limits, qlim, prismatic, starts)

    if batch:                                          # independent poses, solved together
        Ts = np.broadcast_to(T, q0.shape[:1] + (4, 4))
        Q, e, iters, searches, code = _solve_batch(robot, Ts, q0, p)
        single = False
    else:                                              # one pose, or a trajectory in order
        single = T.ndim == 2
        Ts = T.reshape(-1, 4, 4)
        N = Ts.shape[0]
        Q, e = np.zeros((N, n)), np.zeros((N, 6))
        iters, searches, code = (np.zeros(N, dtype=int) for _ in range(3))
        start = q0
        for k in range(N):
            Q[k], e[k], iters[k], searches[k], code[k] = _solve_one(robot, Ts[k], start, p)
            if code[k] == 0:
                start = Q[k]
    et, er = _errors(e, p.counted)
    success = code == 0
    reasons = [_why(c, a, b, ilimit, s) for c, a, b, s in zip(code.tolist(), et.tolist(), er.tolist(),
                                                                searches.tolist())]
    resid = _residual(e, W)
    if unit == "deg":
        Q = np.where(prismatic, Q, np.rad2deg(Q))
    if single:
        return IKSolution(Q[0], bool(success[0]), reasons[0], int(iters[0]), float(resid[0]),
                          int(searches[0]), float(et[0]), float(er[0]))
    return IKSolution(Q, success, reasons, iters, resid, searches, et, er)


# ---------------------------------------------------------------------------
# the two-link planar arm (7.2.1)


def ikine_2link_sympy():
    r"""Closed-form IK of the 2-link planar arm, derived with sympy.

    From the forward kinematics :math:`x = a_1 c_1 + a_2 c_{12}`,
    :math:`y = a_1 s_1 + a_2 s_{12}`, sympy simplifies
    :math:`x^2 + y^2 = a_1^2 + a_2^2 + 2 a_1 a_2 \cos q_2`, which gives
    :math:`q_2 = \pm\cos^{-1}(\cdot)`, then
    :math:`q_1 = \operatorname{atan2}(y, x) - \operatorname{atan2}(a_2 \sin q_2, a_1 + a_2\cos q_2)`.

    Returns
    -------
    dict
        ``{"up": (q1, q2), "down": (q1, q2)}`` of sympy expressions in the
        real symbols ``a1 a2 x y``.  Elbow up has :math:`q_2 \le 0` (for a
        target on the positive x-axis the elbow is above the line from the
        base to the target), elbow down :math:`q_2 \ge 0`.  Each solution
        is checked: substituted into the forward kinematics it simplifies
        back to ``(x, y)``.

    >>> sol = ikine_2link_sympy()
    >>> sol["down"][1]
    acos((-a1**2 - a2**2 + x**2 + y**2)/(2*a1*a2))
    """
    a1, a2, x, y, q1, q2, c2 = sp.symbols("a1 a2 x y q1 q2 c2", real=True)
    fx = a1 * sp.cos(q1) + a2 * sp.cos(q1 + q2)
    fy = a1 * sp.sin(q1) + a2 * sp.sin(q1 + q2)
    r2 = sp.trigsimp(sp.expand(sp.expand_trig(fx ** 2 + fy ** 2)))  # a1^2 + a2^2 + 2 a1 a2 cos q2
    cos_q2 = sp.solve(sp.Eq(r2.subs(sp.cos(q2), c2), x ** 2 + y ** 2), c2)[0]
    out = {}
    for name, sgn in (("down", 1), ("up", -1)):
        q2s = sgn * sp.acos(cos_q2)
        q1s = sp.atan2(y, x) - sp.atan2(a2 * sp.sin(q2s), a1 + a2 * sp.cos(q2s))
        out[name] = (q1s, q2s)
    return out


def _check_2link(a1, a2, x, y):
    a1 = getscalar(a1, "a1")
    a2 = getscalar(a2, "a2")
    if a1 <= 0 or a2 <= 0:
        raise ValueError(f"a1, a2: expected positive link lengths, got {a1}, {a2}")
    x = getarray(x, "x")
    y = getarray(y, "y")
    x, y = np.broadcast_arrays(x, y)
    r = np.hypot(x, y)
    lo, hi = abs(a1 - a2), a1 + a2
    bad = (r > hi + 1e-12) | (r < lo - 1e-12)
    if np.any(bad):
        i = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
        raise ValueError(f"x, y: point ({float(x[i]):g}, {float(y[i]):g}) at distance {float(r[i]):g} "
                         f"is outside the reach {lo:g} <= r <= {hi:g} of the arm")
    return a1, a2, x, y


def ikine_2link(a1, a2, x, y, elbow: str = "up", unit: str = "rad"):
    r"""Closed-form IK of the 2-link planar arm (numeric, batched).

    .. math::

        \cos q_2 = \frac{x^2 + y^2 - a_1^2 - a_2^2}{2 a_1 a_2},\quad
        q_1 = \operatorname{atan2}(y, x) - \operatorname{atan2}(a_2 \sin q_2, a_1 + a_2 \cos q_2)

    with :math:`q_2 \le 0` for ``elbow="up"`` and :math:`q_2 \ge 0` for
    ``"down"`` (as :func:`ikine_2link_sympy`).

    Returns
    -------
    ndarray (..., 2)
        ``(q1, q2)`` for each point.  A point out of reach raises
        ``ValueError`` naming it and the reach.

    >>> np.round(ikine_2link(1, 1, 0.6, 0.7, "down"), 4)
    array([-0.2295,  2.1834])
    >>> np.round(ikine_2link(1, 1, 0.6, 0.7, "up"), 4)
    array([ 1.9539, -2.1834])
    """
    elbow = getoption(elbow, "elbow", ("up", "down"))
    a1, a2, x, y = _check_2link(a1, a2, x, y)
    c2 = np.clip((x ** 2 + y ** 2 - a1 ** 2 - a2 ** 2) / (2 * a1 * a2), -1.0, 1.0)
    q2 = np.arccos(c2) * (-1.0 if elbow == "up" else 1.0)
    q1 = np.arctan2(y, x) - np.arctan2(a2 * np.sin(q2), a1 + a2 * np.cos(q2))
    return putangle(np.stack([q1, q2], axis=-1), unit)


def ikine_2link_numeric(a1, a2, x, y, q0=(0.0, 0.0), *, tol: float = 1e-10, unit: str = "rad"):
    r"""Numerical IK of the 2-link planar arm, ``fminsearch``-style (7.2.1.2).

    Minimises :math:`E(q) = \| [\mathcal{K}(q)]_t - (x^*, y^*)^T \|` with
    the Nelder-Mead simplex method (``scipy.optimize.minimize``), as the
    notes do with MATLAB's ``fminsearch``.  Only one of the two solutions is
    found; the initial ``q0`` decides which.

    Returns
    -------
    ndarray (2,)
        ``(q1, q2)``.  A point out of reach raises ``ValueError``.

    >>> np.round(ikine_2link_numeric(1, 1, 0.6, 0.7), 3)
    array([-0.23 ,  2.183])
    """
    a1, a2, x, y = _check_2link(a1, a2, x, y)
    if x.ndim != 0:
        raise ValueError(f"x, y: expected one point, got shape {x.shape}; use ikine_2link for batches")
    q0 = getvector(q0, "q0", 2)
    if unit == "deg":
        q0 = np.deg2rad(q0)
    p = np.array([float(x), float(y)])

    def err(q):
        fk = np.array([a1 * np.cos(q[0]) + a2 * np.cos(q[0] + q[1]),
                       a1 * np.sin(q[0]) + a2 * np.sin(q[0] + q[1])])
        return np.linalg.norm(fk - p)

    res = minimize(err, q0, method="Nelder-Mead", options={"xatol": tol, "fatol": tol, "maxiter": 4000})
    return putangle(res.x, getunit(unit))
