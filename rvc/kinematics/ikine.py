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
when the returned joint coordinates reach the pose: the squared weighted
pose error ``E = e^T W e`` (see :func:`ikine`) is below ``tol``.

>>> import numpy as np
>>> from rvc.models import puma560
>>> p560 = puma560()
>>> T = p560.fkine(p560.qn)
>>> sol = ikine6s(p560, T, "ru")
>>> sol.success, np.round(sol.q, 4)
(True, array([0.    , 0.7854, 3.1416, 0.    , 0.7854, 0.    ]))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize

from ..checks import (getarray, getoption, getpose, getscalar, getunit, getvector, putangle,
                      warn_singular)
from ..results import Result
from ..spatial.expmap import trlog
from ..spatial.transforms3d import rotx, rotz
from .jacobian import jacob0

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
        True only when ``q`` reaches the pose: ``residual < tol``.
    reason : str or list of str
        Empty on success, otherwise why the pose was not solved.
    iterations : int or ndarray of int
        Iterations used (0 for closed-form solutions).
    residual : float or ndarray
        The squared weighted pose error ``E = e^T W e`` at ``q``
        (``inf`` when no candidate solution exists, e.g. out of reach).
    searches : int or ndarray of int
        Number of random restarts used by ``ikine(..., search=True)``.

    Unpacks as ``q, success`` (MATLAB's ``[q, err] = ikine(...)`` pattern).
    """

    unpack = ("q", "success")

    q: np.ndarray
    success: Any
    reason: Any = ""
    iterations: Any = 0
    residual: Any = 0.0
    searches: Any = field(default=0)

    def __repr__(self) -> str:
        with np.printoptions(precision=4, suppress=True):
            if np.ndim(self.success) == 0:
                s = (f"IKSolution(q={self.q}, success={bool(self.success)}, "
                     f"iterations={int(self.iterations)}, residual={float(self.residual):.3g}")
                return s + (f", reason={self.reason!r})" if self.reason else ")")
            ok = int(np.count_nonzero(self.success))
            return (f"IKSolution({len(self.success)} poses, {ok} solved, "
                    f"max residual {float(np.max(self.residual)):.3g})")


# ---------------------------------------------------------------------------
# helpers shared by the solvers


def _pose_error(T: np.ndarray, Tstar: np.ndarray) -> np.ndarray:
    """The 6-vector e from pose ``T`` to pose ``Tstar``, world frame.

    ``e = (t* - t, theta k)`` where ``theta k`` is the angle-axis vector of
    ``R* R^T``; (linear, angular) order as every rvc spatial vector.
    """
    dt = Tstar[..., :3, 3] - T[..., :3, 3]
    dR = Tstar[..., :3, :3] @ np.swapaxes(T[..., :3, :3], -1, -2)
    return np.concatenate([dt, trlog(dR, twist=True, check=False)], axis=-1)


def _residual(e: np.ndarray, W: np.ndarray) -> np.ndarray:
    """E = e^T W e for diagonal W given as its (6,) diagonal."""
    return np.sum(W * e * e, axis=-1)


def _getposes(T, name="T"):
    T = getpose(T, name)
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
        squared pose error ``E = e^T e`` (as in :func:`ikine`) below ``tol``.
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
    T = _getposes(T)
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
    residual = np.full(N, np.inf)
    if np.any(ok):
        e = _pose_error(np.asarray(robot.fkine(q[ok])).reshape(-1, 4, 4), Ts[ok])
        residual[ok] = _residual(e, np.ones(6))
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
        return IKSolution(q[0], bool(success[0]), reasons[0], 0, float(residual[0]))
    return IKSolution(q, success, reasons, np.zeros(N, dtype=int), residual)


# ---------------------------------------------------------------------------
# numerical: Levenberg-Marquardt


def _lm_step(J: np.ndarray, e: np.ndarray, W: np.ndarray, lam: float) -> np.ndarray:
    r"""The damped least-squares step :math:`(J^T W J + \lambda I)^{-1} J^T W e`.

    For a redundant arm (J wide, W = I) this equals
    :math:`J^T (J J^T + \lambda I)^{-1} e`, the damped minimum-norm step,
    which tends to :math:`J^+ e` as :math:`\lambda \to 0`.
    """
    JtW = J.T * W
    H = JtW @ J + lam * np.eye(J.shape[1])
    return np.linalg.solve(H, JtW @ e)


def _random_q(rng, qlim, prismatic, n):
    lo = np.full(n, -np.pi)
    hi = np.full(n, np.pi)
    finite = np.isfinite(qlim[0]) & np.isfinite(qlim[1])
    lo = np.where(finite, qlim[0], lo)
    hi = np.where(finite, qlim[1], hi)
    if np.any(prismatic & ((lo == -np.pi) & (hi == np.pi))):
        lo = np.where(prismatic & (lo == -np.pi), 0.0, lo)
        hi = np.where(prismatic & (hi == np.pi), 1.0, hi)
    return rng.uniform(lo, hi)


def _fit_limits(q, qlim, prismatic):
    """Shift revolute joints by multiples of 2 pi into their limits if possible.

    Returns (q, inside).
    """
    q = q.copy()
    rev = ~prismatic
    for j in np.flatnonzero(rev):
        lo, hi = qlim[0, j], qlim[1, j]
        if q[j] < lo or q[j] > hi:
            k = np.ceil((lo - q[j]) / (2 * np.pi))
            cand = q[j] + 2 * np.pi * k
            if lo <= cand <= hi:
                q[j] = cand
    tol = 1e-12
    inside = bool(np.all((q >= qlim[0] - tol) & (q <= qlim[1] + tol)))
    return q, inside


def _lm_solve(robot, Tstar, q0, W, ilimit, tol, lam0, lam_max):
    """One LM run from q0.  Returns q, E, iterations, reason."""
    q = q0.copy()
    e = _pose_error(np.asarray(robot.fkine(q)), Tstar)
    E = float(_residual(e, W))
    lam = lam0
    it = 0
    while it < ilimit:
        if E < tol:
            return q, E, it, ""
        it += 1
        J = jacob0(robot, q)
        try:
            dq = _lm_step(J, e, W, lam)
        except np.linalg.LinAlgError:
            lam *= 2.0
            continue
        qn = q + dq
        en = _pose_error(np.asarray(robot.fkine(qn)), Tstar)
        En = float(_residual(en, W))
        if En < E:
            q, e, E = qn, en, En
            lam /= 2.0
        else:
            lam *= 2.0
            if lam > lam_max:
                return q, E, it, f"stalled in a local minimum (residual {E:.3g}, damping above {lam_max:g})"
    if E < tol:
        return q, E, it, ""
    return q, E, it, f"iteration limit {ilimit} reached (residual {E:.3g})"


def ikine(robot, T, q0=None, *, mask=None, ilimit: int = 500, tol: float = 1e-10,
          search: bool = False, slimit: int = 100, joint_limits: bool = False,
          lam: float = 0.1, seed=None, unit: str = "rad") -> IKSolution:
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
    step that lowers ``E`` is taken and :math:`\lambda` halved, otherwise
    the step is rejected and :math:`\lambda` doubled.  For a redundant arm
    (n > 6) the step equals :math:`J^T (J J^T + \lambda I)^{-1} e`, the
    damped minimum-norm step.

    Parameters
    ----------
    robot : chain model
        Any model with the chain interface (DH, modified DH or an ETS3):
        ``n``, ``revolute``, ``qlim``, a batched ``fkine(q)`` and
        ``joint_frames(q)`` (for the Jacobian).
    T : array_like (4, 4) or (N, 4, 4)
        Desired pose, or a trajectory of poses solved in order, each
        starting from the previous solution (warm start).
    q0 : array_like (n,), optional
        Initial joint coordinates (default zeros).
    mask : array_like (6,), optional
        Weights of the error components ``(x, y, z, rx, ry, rz)``, e.g.
        ``[1, 1, 1, 0, 0, 1]`` for a SCARA arm (position and yaw), or
        ``[1, 1, 1, 0, 0, 0]`` for position only.  Default all ones.
    ilimit : int
        Maximum iterations per attempt.
    tol : float
        Success threshold on ``E`` (a squared norm: 1e-10 means an error of
        about 1e-5 m or rad).
    search : bool
        If an attempt fails, restart from random joint coordinates drawn
        uniformly within ``qlim`` (``[-pi, pi)`` for unlimited revolute
        joints), up to ``slimit`` restarts.
    joint_limits : bool
        Reject solutions outside ``robot.qlim`` (after trying to shift
        revolute joints by multiples of 2 pi into range).
    lam : float
        Initial damping :math:`\lambda`.
    seed : int or numpy Generator, optional
        Random generator for ``search``, for reproducible restarts.
    unit : {"rad", "deg"}
        Unit of ``q0`` and of the returned ``q`` (revolute joints).

    Returns
    -------
    IKSolution
        ``success`` is true only when ``E < tol`` at the returned ``q``;
        otherwise ``q`` is the best iterate found and ``reason`` says why.
        For N poses the fields are arrays ((N, n), (N,)) and ``reason`` a
        list.

    Examples
    --------
    >>> import numpy as np
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> T = p560.fkine(p560.qn)
    >>> sol = ikine(p560, T)
    >>> sol.success, sol.residual < 1e-10
    (True, True)
    >>> bool(np.allclose(p560.fkine(sol.q), T, atol=1e-5))
    True
    """
    n = int(robot.n)
    unit = getunit(unit)
    T = _getposes(T)
    single = T.ndim == 2
    Ts = T.reshape(-1, 4, 4)
    prismatic = ~np.asarray(robot.revolute, dtype=bool)
    if q0 is None:
        q0 = np.zeros(n)
    else:
        q0 = getvector(q0, "q0", n)
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
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    N = Ts.shape[0]
    Q = np.zeros((N, n))
    succ = np.zeros(N, dtype=bool)
    iters = np.zeros(N, dtype=int)
    resid = np.zeros(N)
    searches = np.zeros(N, dtype=int)
    reasons = [""] * N
    qstart = q0
    for k in range(N):
        best = None
        total = 0
        attempt = 0
        start = qstart
        while True:
            q, E, it, why = _lm_solve(robot, Ts[k], start, W, ilimit, tol, lam, 1e10)
            total += it
            if not why and joint_limits:
                q, inside = _fit_limits(q, qlim, prismatic)
                if not inside:
                    why = "solution outside the joint limits qlim"
            if best is None or (not why) or (best[3] and E < best[1]):
                best = (q, E, total, why)
            if not why or not search or attempt >= slimit:
                break
            attempt += 1
            start = _random_q(rng, qlim, prismatic, n)
        q, E, _, why = best
        Q[k], resid[k], iters[k], searches[k] = q, E, total, attempt
        succ[k] = (not why) and E < tol
        reasons[k] = why
        if succ[k]:
            qstart = q
    if unit == "deg":
        Q = np.where(prismatic, Q, np.rad2deg(Q))
    if single:
        return IKSolution(Q[0], bool(succ[0]), reasons[0], int(iters[0]), float(resid[0]), int(searches[0]))
    return IKSolution(Q, succ, reasons, iters, resid, searches)


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
    import sympy as sp

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
