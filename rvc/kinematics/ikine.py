"""Numerical inverse kinematics: the search loop and Levenberg-Marquardt (notes 7.2.2.2, 8.6).

* :func:`ik_search` -- the one search loop of the numerical solvers
  (iterations, residual, the ``tol`` test, ``ilimit``, random restarts,
  joint limits, the reasons), with a pluggable step rule:
  :class:`LMStep` here, ``TransposeStep`` in :mod:`.jtranspose`;
* :func:`ikine` -- a general numerical solver (Levenberg-Marquardt with
  adaptive damping) that handles any serial robot: masks for
  under-actuated arms, minimum-norm steps for redundant arms, random
  restarts, joint limits, trajectories of poses;
* :func:`ikine_lm_reference` and :func:`cholesky_solve_reference` -- the
  textbook definitions the engines are tested equal to.

The closed-form solvers are in :mod:`.ikine6s` (6-axis arms with a
spherical wrist) and :mod:`.ikine2link` (the two-link planar arm).  Every
solver returns an :class:`IKSolution`.  ``success`` is true only when the
returned joint coordinates reach the pose, checked by forward kinematics
(:func:`ik_pose_error`).  ``tol`` means the same in every solver: the
position error :math:`\\|t^* - t\\|` is at most ``tol`` metres and the
rotation error :math:`\\theta` at most ``tol`` radians.

>>> p560 = rvc.models.puma560()
>>> sol = ikine(p560, p560.fkine(p560.qn))
>>> sol.success, sol.iterations
(True, 6)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.linalg import get_lapack_funcs

from ..checks import getarray, getint, getscalar, getunit, getvector
from ..results import Result
from ..shapes import SE2, SE3, ArrayLike, Jacobian, JointPath, JointVector, Twist6
from ..spatial.expmap import trlog
from .chain import Chain, goal_pose
from .jacobian import jacob0_pose

__all__ = [
    "IKSolution",
    "ik_pose_error",
    "LMStep",
    "ik_search",
    "ikine_lm_reference",
    "cholesky_solve_reference",
    "ikine",
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

    .. math:: v = (r_{32} - r_{23}, r_{13} - r_{31}, r_{21} - r_{12}) = 2 \sin\theta\, k,
              \qquad \theta k = \frac{\theta}{2 \sin\theta} v,
              \quad \theta = \operatorname{atan2}(|v|/2, (\operatorname{tr} dR - 1)/2),

    which is trlog's own formula for :math:`\theta \le \pi/2` and equals it
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


def ik_pose_error(T: SE3, Tstar: SE3, mask: ArrayLike | None = None) -> tuple[Twist6, np.ndarray, np.ndarray]:
    r"""The pose error the IK solvers measure, and that their ``tol`` bounds.

    ``(e, position_error, rotation_error)``: the world-frame 6-vector
    :math:`e = (t^* - t,\ \theta k)`, :math:`R^* R^T = \operatorname{rot}(\theta, k)`,
    from pose(s) ``T`` to ``Tstar`` (batched over leading dimensions), and
    the norms :math:`\|t^* - t\|` (metres) and :math:`\theta` (radians)
    of its parts, counting only the components ``mask`` weights.  A pose
    counts as reached when both are at most ``tol``.

    >>> e, et, er = ik_pose_error(transl(0.1, 0, 0) @ trotz(0.2), np.eye(4))
    >>> np.round(e, 4), round(float(et), 4), round(float(er), 4)
    (array([-0.1,  0. ,  0. ,  0. ,  0. , -0.2]), 0.1, 0.2)
    """
    T = getarray(T, "T", (4, 4))
    Tstar = getarray(Tstar, "Tstar", (4, 4))
    W = np.ones(6) if mask is None else getvector(mask, "mask", 6)
    e = _pose_error(T, Tstar)
    et, er = _errors(e, (W > 0).astype(float))
    return e, et, er


def _getposes(robot, T, name="T"):
    T = goal_pose(robot, T, name)
    if T.ndim not in (2, 3):
        raise ValueError(f"{name}: expected a pose (4, 4) or a trajectory (N, 4, 4), got shape {T.shape}")
    return T


# ---------------------------------------------------------------------------
# numerical: Levenberg-Marquardt

#: An attempt has stalled when the damping grows beyond this: the steps it
#: allows are too small to lower the error any further.
_LAM_MAX = 1e6
#: The damping is divided by _LAM_DOWN after a step that lowers the error and
#: multiplied by _LAM_UP after one that does not (fewest iterations on the
#: Puma 560, Cobra 600 and Baxter among the pairs tried: 2/2, 3/2, 3/3, 5/3, 10/10).
_LAM_DOWN, _LAM_UP = 5.0, 3.0


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


def cholesky_solve_reference(H: np.ndarray, g: np.ndarray) -> np.ndarray:
    r"""Solve :math:`H x = g` for symmetric positive definite H by Cholesky, as the textbook does.

    .. math:: H = L L^T, \qquad L y = g, \qquad L^T x = y,

    with numpy's batched ``cholesky`` and ``solve`` (H (..., n, n), g
    (..., n)).  The engine the batched LM step uses for long batches
    computes the same x (a test holds them equal) with a loop over the
    n(n+1)/2 entries of L instead of over the systems.

    >>> H = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> cholesky_solve_reference(H, np.array([2.0, 1.0])), np.linalg.solve(H, [2.0, 1.0])
    (array([0.5, 0. ]), array([0.5, 0. ]))
    """
    H, g = np.asarray(H, dtype=float), np.asarray(g, dtype=float)
    L = np.linalg.cholesky(H)
    y = np.linalg.solve(L, g[..., None])
    return np.linalg.solve(np.swapaxes(L, -1, -2), y)[..., 0]


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


def _why(code: int, et: float, er: float, ilimit: int, searches: int, stalled: str) -> str:
    if code == 0:
        return ""
    if code == _OUTSIDE:
        text = "solution outside the joint limits qlim"
    else:
        cause = stalled if code == _STALLED else f"iteration limit {ilimit} reached"
        text = f"{cause} (pose error {et:.3g} m, {er:.3g} rad)"
    return text + (f" after {searches} random restarts" if searches else "")


def _reached(e, counted, tol):
    """True where the pose is reached: both errors of the counted components within ``tol``."""
    if e.ndim == 1:                                    # one pose: floats
        e0, e1, e2, e3, e4, e5 = (counted * e).tolist()
        tol2 = tol * tol
        return e0 * e0 + e1 * e1 + e2 * e2 <= tol2 and e3 * e3 + e4 * e4 + e5 * e5 <= tol2
    et, er = _errors(e, counted)
    return (et <= tol) & (er <= tol)


def _attempt(robot, Tstar, q, rule, W, counted, tol, ilimit, trace):
    """One attempt for one pose from q, the loop of :func:`ik_search` on floats: (q, e, iterations, code).

    Each iteration evaluates the chain once (the Jacobian and the pose of
    the trial point together); a rejected trial keeps the Jacobian of the
    current point.  The same tests in the same order as the batched loop.
    """
    J, T = jacob0_pose(robot, q)
    e = _pose_error(T, Tstar)
    E = e @ (W * e)
    state = rule.begin(E)
    if trace is not None:
        trace.append(np.array([E]))
    for it in range(ilimit):
        if _reached(e, counted, tol):
            return q, e, it, 0
        if rule.stalled(state, E):
            return q, e, it, _STALLED
        try:
            trial = q + rule.step(J, e, W, state)
        except np.linalg.LinAlgError:                   # singular with lam = 0
            state = rule.singular(state)
            continue
        Jt, Tt = jacob0_pose(robot, trial)
        et = _pose_error(Tt, Tstar)
        Et = et @ (W * et)
        better, state = rule.judge(Et, E, state)
        if better:
            q, J, e, E = trial, Jt, et, Et
        if trace is not None:
            trace.append(np.array([E]))
    if _reached(e, counted, tol):
        return q, e, ilimit, 0
    return q, e, ilimit, _STALLED if rule.stalled(state, E) else _ILIMIT


def _search_one(robot, Tstar, q0, rule, W, tol, ilimit, starts, joint_limits, trace):
    """One pose: an attempt from q0, then from the restarts until one reaches it.

    Returns (q, e, iterations, searches, code) of the solution, or of the
    attempt that came closest.
    """
    counted = (W > 0).astype(float)
    qlim = np.asarray(robot.qlim, dtype=float)
    prismatic = ~np.asarray(robot.revolute, dtype=bool)
    best = None
    total = 0
    for searches in range(len(starts) + 1):
        start = q0 if searches == 0 else starts[searches - 1]
        q, e, it, code = _attempt(robot, Tstar, start, rule, W, counted, tol, ilimit, trace)
        total += it
        if code == 0 and joint_limits:
            q, inside = _fit_limits(q, qlim, prismatic)
            code = 0 if inside else _OUTSIDE
        E = e @ (W * e)
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


class LMStep:
    r"""The step rule of :func:`ikine`: Levenberg-Marquardt with adaptive damping.

    .. math:: \delta q = (J^T W J + \lambda I)^{-1} J^T W e

    A trial that lowers :math:`E = e^T W e` is taken and :math:`\lambda`
    divided by 5; otherwise it is rejected and :math:`\lambda` tripled.
    An attempt has stalled (a local minimum) once :math:`\lambda > 10^6`.
    One of the step rules :func:`ik_search` runs: ``begin(E)`` gives the
    state of new attempts (their damping), ``step`` the trial steps,
    ``judge`` which trials are taken and the new state, ``stalled`` which
    attempts are stuck.

    >>> rule = LMStep(0.1)
    >>> lam = rule.begin(np.array([4.0, 1.0]))
    >>> rule.judge(np.array([1.0, 2.0]), np.array([4.0, 1.0]), lam)   # first lowers E, second not
    (array([ True, False]), array([0.02, 0.3 ]))
    """

    cause = "stalled in a local minimum"

    def __init__(self, lam: float = 0.1) -> None:
        self.lam = lam

    def begin(self, E: float | np.ndarray) -> float | np.ndarray:
        return np.full(len(E), self.lam) if np.ndim(E) else self.lam

    def stalled(self, lam: float | np.ndarray, E: float | np.ndarray) -> bool | np.ndarray:
        return lam > _LAM_MAX

    def step(self, J: Jacobian, e: Twist6, W: np.ndarray, lam: float | np.ndarray) -> JointVector:
        return _lm_step(J, e, W, lam)

    def singular(self, lam: float | np.ndarray) -> float | np.ndarray:
        """The damping after a singular system (only possible with lam = 0)."""
        return np.maximum(2.0 * lam, 1e-12)

    def judge(self, E_trial: float | np.ndarray, E: float | np.ndarray, lam: float | np.ndarray
              ) -> tuple[bool | np.ndarray, float | np.ndarray]:
        better = E_trial < E
        if np.ndim(better) == 0:                         # one pose: floats
            return better, lam / _LAM_DOWN if better else lam * _LAM_UP
        return better, np.where(better, lam / _LAM_DOWN, lam * _LAM_UP)


def ik_search(robot: Chain, T: SE3, Q0: JointPath, rule: Any, *, mask: ArrayLike | None = None, tol: float = 1e-9,
              ilimit: int = 50, starts: Sequence[JointVector] = (), joint_limits: bool = False,
              trace: list | None = None) -> IKSolution:
    r"""The search loop of the numerical IK solvers, with a pluggable step rule.

    For each pose ``T[k]`` from ``Q0[k]``: evaluate the pose error
    :math:`e` and :math:`E = e^T W e` (``W = diag(mask)``), then repeat

    .. math:: q_{trial} = q + \delta q(J, e, W),\qquad q \leftarrow q_{trial}
              \text{ where the rule takes the trial}

    until the pose is reached (position error at most ``tol`` metres and
    rotation error at most ``tol`` radians, counting the components
    ``mask`` weights: the one meaning of ``tol`` in every solver), the
    rule says the attempt is stuck (``rule.stalled``), or ``ilimit``
    iterations are used.  A failed attempt restarts from the next of
    ``starts`` (configurations (k, n)); the attempt that came closest is
    kept.  ``joint_limits`` rejects a solution outside ``robot.qlim``
    (after shifting revolute joints by 2 pi where that helps).  The rows
    are solved together, each with its own state, iterations and restarts:
    a row's answer does not depend on the others.  One pose (N = 1) runs
    the same tests in the same order on Python floats, several times faster
    than a batch of one (tests hold the two equal).  ``rule`` is
    :class:`LMStep` for :func:`ikine`, ``TransposeStep`` for
    ``ikine_transpose``.  ``trace``, a list, receives ``E`` (N,) at the
    start and after every iteration.

    ``T`` (N, 4, 4) are 3-D poses and ``Q0`` (N, n) radians; the callers
    check their arguments.  Returns an :class:`IKSolution` of arrays.

    >>> p560 = rvc.models.puma560()
    >>> sol = ik_search(p560, p560.fkine(p560.qn)[None], np.zeros((1, 6)), LMStep(0.1))
    >>> sol.success, sol.iterations
    (array([ True]), array([6]))
    """
    q = np.array(Q0, dtype=float)
    N, n = q.shape
    W = np.ones(6) if mask is None else np.asarray(mask, dtype=float)
    if N == 1:                                  # one pose: the same loop on floats, several times faster
        q1, e1, it1, s1, c1 = _search_one(robot, T[0], q[0], rule, W, tol, ilimit, starts, joint_limits,
                                          trace)
        et, er = _errors(e1, (W > 0).astype(float))
        return IKSolution(q1[None], np.array([c1 == 0]), [_why(c1, et, er, ilimit, s1, rule.cause)],
                          np.array([it1]), np.array([e1 @ (W * e1)]), np.array([s1]),
                          np.array([et]), np.array([er]))
    counted = (W > 0).astype(float)
    qlim = np.asarray(robot.qlim, dtype=float)
    prismatic = ~np.asarray(robot.revolute, dtype=bool)
    J, e = _evaluate(robot, q, T)
    E = _residual(e, W)
    state = rule.begin(E)
    it = np.zeros(N, dtype=int)                 # iterations of the current attempt
    total = np.zeros(N, dtype=int)
    searches = np.zeros(N, dtype=int)
    code = np.full(N, -1)                        # -1 while working, then 0 or why not
    best_q, best_e, best_E = q.copy(), e.copy(), np.full(N, np.inf)
    best_code = np.full(N, _STALLED)
    if trace is not None:
        trace.append(E.copy())
    while True:
        act = np.flatnonzero(code < 0)
        if act.size == 0:
            break
        # has each working row ended its attempt, and how?
        et, er = _errors(e[act], counted)
        reached = (et <= tol) & (er <= tol)
        ends = np.where(reached, 0, np.where(rule.stalled(state[act], E[act]), _STALLED,
                                             np.where(it[act] >= ilimit, _ILIMIT, -1)))
        if joint_limits and reached.any():
            rows = act[reached]
            q[rows], inside = _fit_limits(q[rows], qlim, prismatic)
            ends[np.flatnonzero(reached)[~inside]] = _OUTSIDE
        finished = ends >= 0
        restart = act[:0]
        if finished.any():
            # keep the best end of an attempt; stop the rows that succeeded or ran out of restarts
            rows, why = act[finished], ends[finished]
            keep = (why == 0) | ((best_code[rows] != 0) & (E[rows] < best_E[rows]))
            k = rows[keep]
            best_q[k], best_e[k], best_E[k], best_code[k] = q[k], e[k], E[k], why[keep]
            out = (why == 0) | (searches[rows] >= len(starts))
            code[rows[out]] = best_code[rows[out]]
            restart = rows[~out]
        # a trial step for the rows that go on, and the restart configurations
        step = act[~finished]
        try:
            trial = q[step] + rule.step(J[step], e[step], W, state[step])
        except np.linalg.LinAlgError:                   # singular with lam = 0
            state[step] = rule.singular(state[step])
            continue
        restart_q = starts[searches[restart]] if restart.size else q[:0]
        searches[restart] += 1
        rows = np.concatenate([step, restart])
        if rows.size == 0:
            continue
        # one evaluation of the chain for both; the rule takes or rejects each trial
        Qn = np.concatenate([trial, restart_q])
        Jn, en = _evaluate(robot, Qn, T[rows])
        En = _residual(en, W)
        better, state[step] = rule.judge(En[:step.size], E[step], state[step])
        take = np.concatenate([better, np.ones(restart.size, dtype=bool)])
        r = rows[take]
        q[r], J[r], e[r], E[r] = Qn[take], Jn[take], en[take], En[take]
        state[restart] = rule.begin(E[restart])
        it[step] += 1
        total[step] += 1
        it[restart] = 0
        if trace is not None and step.size:
            trace.append(E.copy())
    et, er = _errors(best_e, counted)
    reasons = [_why(c, a, b, ilimit, s, rule.cause) for c, a, b, s in zip(code.tolist(), et.tolist(),
                                                                        er.tolist(), searches.tolist())]
    return IKSolution(best_q, code == 0, reasons, total, _residual(best_e, W), searches, et, er)


def ikine_lm_reference(robot: Chain, T: SE3, q0: JointVector | None = None, *, ilimit: int = 50, tol: float = 1e-9,
                       lam: float = 0.1) -> tuple[JointVector, bool, int]:
    r"""Levenberg-Marquardt inverse kinematics by the definition: one pose, a plain loop.

    .. math::

        e = \bigl(t^* - t(q),\; \log(R^* R(q)^T)^\vee\bigr), \qquad
        \delta q = (J^T J + \lambda I)^{-1} J^T e,

    the trial :math:`q + \delta q` taken (and :math:`\lambda` divided by 5)
    when it lowers :math:`E = e^T e`, otherwise rejected (and :math:`\lambda`
    tripled), until both errors are within ``tol`` (metres, radians),
    :math:`\lambda > 10^6` or ``ilimit`` iterations.  No mask, restarts or
    batch: the idea, for reading.  :func:`ikine` with ``search=False``
    takes the same steps (a test holds them equal) through
    :func:`ik_search` and :class:`LMStep`.  Returns ``(q, success,
    iterations)``.

    >>> p560 = rvc.models.puma560()
    >>> q, ok, it = ikine_lm_reference(p560, p560.fkine(p560.qn))
    >>> ok, it, bool(np.allclose(p560.fkine(q), p560.fkine(p560.qn), atol=1e-9))
    (True, 6, True)
    """
    Tstar = goal_pose(robot, T, "T")
    q = np.zeros(robot.n) if q0 is None else getvector(q0, "q0", robot.n)

    def error(q):
        J, Tq = jacob0_pose(robot, q)
        dR = Tstar[:3, :3] @ Tq[:3, :3].T
        return J, np.concatenate([Tstar[:3, 3] - Tq[:3, 3], trlog(dR, twist=True, check=False)])

    J, e = error(q)
    for it in range(ilimit):
        if np.linalg.norm(e[:3]) <= tol and np.linalg.norm(e[3:]) <= tol:
            return q, True, it
        if lam > _LAM_MAX:
            return q, False, it
        trial = q + np.linalg.solve(J.T @ J + lam * np.eye(robot.n), J.T @ e)
        Jt, et = error(trial)
        if et @ et < e @ e:
            q, J, e, lam = trial, Jt, et, lam / _LAM_DOWN
        else:
            lam *= _LAM_UP
    return q, bool(np.linalg.norm(e[:3]) <= tol and np.linalg.norm(e[3:]) <= tol), ilimit


def _getslimit(search, slimit) -> int:
    """The number of random restarts from ikine's ``search`` and ``slimit`` (one option, two spellings)."""
    if search is not None and not isinstance(search, (bool, np.bool_)):
        raise TypeError(f"search: expected True, False or None, got {type(search).__name__}")
    if slimit is None:
        return 0 if search is False else _SLIMIT
    slimit = getint(slimit, "slimit")
    if search is False and slimit != 0:
        raise ValueError(f"search, slimit: search=False makes no restarts, but slimit={slimit} asks for "
                         "them; give one of the two")
    if search is True and slimit == 0:
        raise ValueError("search, slimit: search=True asks for restarts, but slimit=0 allows none; "
                         "give one of the two")
    return slimit


#: Random restarts per pose unless ``slimit`` says otherwise.
_SLIMIT = 10


def ikine(robot: Chain, T: SE3 | SE2, q0: JointVector | None = None, *, mask: ArrayLike | None = None,
          ilimit: int = 50, tol: float = 1e-9, search: bool | None = None, slimit: int | None = None,
          joint_limits: bool = False, lam: float = 0.1, seed: int | np.random.Generator = 0,
          unit: str = "rad") -> IKSolution:
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
    search : bool, optional
        Restart from random configurations when an attempt fails (the
        default); ``False`` makes one attempt from ``q0``, the same as
        ``slimit=0``.
    slimit : int, optional
        Maximum number of random restarts per pose (default 10, or 0 with
        ``search=False``).  A contradictory pair (``search=False`` with
        ``slimit > 0``, ``search=True`` with ``slimit=0``) raises
        ``ValueError``.
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
    ilimit = getint(ilimit, "ilimit")
    slimit = _getslimit(search, slimit)
    tol = getscalar(tol, "tol")
    lam = getscalar(lam, "lam")
    if ilimit < 1 or slimit < 0 or tol <= 0 or lam < 0:
        raise ValueError(f"ilimit, slimit, tol, lam: expected ilimit >= 1, slimit >= 0, tol > 0, lam >= 0, "
                         f"got {ilimit}, {slimit}, {tol}, {lam}")
    qlim = np.asarray(robot.qlim, dtype=float)
    starts = _Restarts(seed, qlim, prismatic, slimit)
    kw = dict(mask=W, tol=tol, ilimit=ilimit, starts=starts, joint_limits=joint_limits)
    rule = LMStep(lam)
    if batch:                                          # independent poses, solved together
        sol = ik_search(robot, np.broadcast_to(T, q0.shape[:1] + (4, 4)), q0, rule, **kw)
        single = False
    else:                                              # one pose, or a trajectory in order
        single = T.ndim == 2
        parts, start = [], q0
        for Tk in T.reshape(-1, 4, 4):
            parts.append(ik_search(robot, Tk[None], start[None], rule, **kw))
            if parts[-1].success[0]:
                start = parts[-1].q[0]
        sol = parts[0] if single else IKSolution(
            *(np.concatenate([getattr(s, f) for s in parts]) if f != "reason"
              else sum((s.reason for s in parts), []) for f in _FIELDS))
    Q = sol.q
    if unit == "deg":
        Q = np.where(prismatic, Q, np.rad2deg(Q))
    if single:
        return IKSolution(Q[0], bool(sol.success[0]), sol.reason[0], int(sol.iterations[0]),
                          float(sol.residual[0]), int(sol.searches[0]), float(sol.position_error[0]),
                          float(sol.rotation_error[0]))
    return IKSolution(Q, sol.success, sol.reason, sol.iterations, sol.residual, sol.searches,
                      sol.position_error, sol.rotation_error)


#: The fields of an IKSolution, in order.
_FIELDS = ("q", "success", "reason", "iterations", "residual", "searches", "position_error",
           "rotation_error")
