"""Inverse kinematics by the Jacobian transpose (Chapter 8.6.1).

Picture a spring between the tool and the pose we want it at.  The spring
pulls with a wrench proportional to the spatial displacement,
:math:`w = \\gamma\\,\\Delta(\\mathcal{K}(q), \\xi^*)`; the transpose of the
Jacobian turns the wrench into joint torques, :math:`\\tau = J^T w`
(8.5.1); and a robot with only viscous dampers at its joints (no motors)
moves with rates proportional to those torques, :math:`\\dot q = \\tau / B`.
The arm slides into the pose.  Iterated in discrete steps,

.. math:: \\delta q\\langle k\\rangle = \\alpha\\, J(q\\langle k\\rangle)^T
          \\Delta\\bigl(\\mathcal{K}(q\\langle k\\rangle), \\xi^*\\bigr), \\qquad
          q\\langle k+1\\rangle = q\\langle k\\rangle + \\delta q\\langle k\\rangle .

No matrix is inverted, so singular or non-square Jacobians do no harm; but
the steps are those of gradient descent on
:math:`E = \\tfrac12\\Delta^T\\Delta`, so it converges slowly and only for
a small enough :math:`\\alpha`.  Chapter 7's :func:`~rvc.kinematics.ikine.ikine`
(Levenberg-Marquardt, the notes' 8.6.1 continued) replaces
:math:`\\alpha J^T` by :math:`(J^T J + \\lambda I)^{-1} J^T` and converges
in a handful of steps.

>>> p560 = rvc.models.puma560()
>>> T = p560.fkine(p560.qn)
>>> sol = ikine_transpose(p560, T, q0=p560.qn + 0.1)
>>> sol.success, bool(np.allclose(p560.fkine(sol.q), T, atol=1e-5)), sol.history.shape[0] > 100
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..checks import getint, getscalar, getunit, getvector, putangle
from .jacobian import jacob0_pose
from ..shapes import SE3, ArrayLike, Jacobian, JointVector, Twist6
from .chain import Chain, goal_pose
from .ikine import IKSolution, ik_search

__all__ = ["IKHistory", "TransposeStep", "ikine_transpose"]


@dataclass(frozen=True, repr=False, eq=False)
class IKHistory(IKSolution):
    """An :class:`~rvc.kinematics.ikine.IKSolution` with the residual of every iterate.

    ``history`` (iterations + 1,): the squared weighted pose error
    :math:`E = e^T W e` at the start and after each iteration, to plot the
    convergence.
    """

    history: Any = field(default=None)


class TransposeStep:
    r"""The step rule of :func:`ikine_transpose`: :math:`\delta q = \alpha J^T W e`, every step taken.

    Run by :func:`~rvc.kinematics.ikine.ik_search` (as
    :class:`~rvc.kinematics.ikine.LMStep` is for ``ikine``).  Its state is
    the residual :math:`E_0` the attempt started from; the attempt has
    diverged once :math:`E` is not finite or exceeds :math:`10^6 E_0 + 10^3`.

    >>> rule = TransposeStep(0.5)
    >>> rule.step(np.eye(6)[:, :2], np.array([1.0, 2, 3, 0, 0, 0]), np.ones(6), 0.0)
    array([0.5, 1. ])
    >>> bool(rule.stalled(10.0, 2e7))              # E grew a millionfold: diverged
    True
    """

    def __init__(self, alpha: float) -> None:
        self.alpha = alpha
        self.cause = f"diverged: alpha = {alpha:g} is too large for this arm"

    def begin(self, E: float | np.ndarray) -> float | np.ndarray:
        return np.array(E, dtype=float) if np.ndim(E) else float(E)

    def stalled(self, E0: float | np.ndarray, E: float | np.ndarray) -> bool | np.ndarray:
        return ~np.isfinite(E) | (E > 1e6 * E0 + 1e3)

    def step(self, J: Jacobian, e: Twist6, W: np.ndarray, E0: float | np.ndarray) -> JointVector:
        return self.alpha * (np.swapaxes(J, -1, -2) @ (W * e)[..., None])[..., 0]

    def judge(self, E_trial: float | np.ndarray, E: float | np.ndarray,
              E0: float | np.ndarray) -> tuple[bool | np.ndarray, float | np.ndarray]:
        return np.ones(np.shape(E_trial), dtype=bool) if np.ndim(E_trial) else True, E0

    def singular(self, E0: float | np.ndarray) -> float | np.ndarray:   # no system is solved: never called
        return E0


def ikine_transpose(robot: Chain, T: SE3, q0: ArrayLike | None = None, *, alpha: float = 0.3, ilimit: int = 2000,
                    tol: float = 7e-6, mask: ArrayLike | None = None, unit: str = "rad") -> IKHistory:
    """Numerical inverse kinematics by the Jacobian transpose (8.6.1; MATLAB ``ikine(..., 'transpose', alpha)``).

    .. math:: q \\leftarrow q + \\alpha\\, {}^0J(q)^T\\, W e(q), \\qquad
              e = \\bigl(t^* - t,\\ \\theta\\hat k\\bigr)

    with :math:`e` the world-frame pose error of
    :func:`~rvc.kinematics.rates.pose_error` and :math:`W` = ``diag(mask)``,
    until the pose is reached (position error at most ``tol`` metres and
    rotation error at most ``tol`` radians; the default 7e-6 keeps
    :math:`E = e^T W e < 10^{-10}`) or ``ilimit``
    iterations are used.  The same search loop
    (:func:`~rvc.kinematics.ikine.ik_search`) and the same ``tol`` as
    :func:`~rvc.kinematics.ikine.ikine`, with the step rule
    :class:`TransposeStep`, so the two can be compared.  (Before, ``tol``
    bounded the squared error :math:`E = e^T W e`, default 1e-10.)

    Each step lowers :math:`E` when
    :math:`\\alpha < 2 / \\sigma_{max}^2(W^{1/2} J)` (about 0.5 for the
    Puma 560); the error then shrinks by about
    :math:`1 - \\alpha\\sigma_{min}^2` per step, which is slow where the arm
    is poorly conditioned.  ``alpha`` too large makes the iteration
    oscillate or diverge: ``success`` is then false and ``reason`` says so,
    giving the bound at ``q0`` and how far q wandered (with revolute joints
    the error is periodic in q, so a too-large step makes q drift without
    the error ever blowing up).

    Returns an :class:`IKHistory` (``q``, ``success``, ``reason``,
    ``iterations``, ``residual``, ``history``).  ``T`` is one pose (4, 4);
    ``q0`` defaults to zeros; ``unit`` is that of ``q0`` and the returned
    ``q`` (revolute joints).

    >>> p2 = rvc.models.planar2()
    >>> sol = ikine_transpose(p2, transl(0.6, 0.7, 0), q0=[0.5, 0.5], mask=[1, 1, 0, 0, 0, 0])
    >>> sol.success, p2.fkine(sol.q)[:2, 3].round(4)
    (True, array([0.6, 0.7]))
    """
    n = int(robot.n)
    unit = getunit(unit)
    Tstar = goal_pose(robot, T, "T")
    if Tstar.shape != (4, 4):
        raise ValueError(f"T: expected one pose (4, 4), got shape {Tstar.shape}")
    rev = np.asarray(robot.revolute, dtype=bool)
    q = np.zeros(n) if q0 is None else getvector(q0, "q0", n)
    if unit == "deg":
        q = np.where(rev, np.deg2rad(q), q)
    W = np.ones(6) if mask is None else getvector(mask, "mask", 6)
    if np.any(W < 0) or not np.any(W > 0):
        raise ValueError(f"mask: expected 6 non-negative weights, not all zero, got {W.tolist()}")
    alpha = getscalar(alpha, "alpha")
    ilimit = getint(ilimit, "ilimit")
    tol = getscalar(tol, "tol")
    rule = "(alpha, ilimit, tol: expected alpha > 0, ilimit >= 1, tol > 0)"
    for name, value, bad, what in (("alpha", alpha, alpha <= 0, "a positive step size"),
                                   ("ilimit", ilimit, ilimit < 1, "at least one iteration"),
                                   ("tol", tol, tol <= 0, "a positive tolerance")):
        if bad:
            raise ValueError(f"{name}: expected {what}, got {value} {rule}")
    history = []
    sol = ik_search(robot, Tstar[None], q[None], TransposeStep(alpha), mask=W, tol=tol, ilimit=ilimit,
                    trace=history)
    q_end = sol.q[0]
    history = np.concatenate(history)
    reason = sol.reason[0]
    if not sol.success[0]:
        reason = _failure(robot, q, q_end, W, alpha, history, int(sol.iterations[0]), reason)
    q = q_end
    qout = np.where(rev, putangle(q, unit), q)
    return IKHistory(qout, bool(sol.success[0]), reason, int(sol.iterations[0]), float(sol.residual[0]),
                     position_error=float(sol.position_error[0]), rotation_error=float(sol.rotation_error[0]),
                     history=history)


def _failure(robot, q0, q_end, W, alpha, history, iterations, reason) -> str:
    r"""Why :func:`ikine_transpose` failed, judged from what the iteration did.

    Diverged when the error rose on a step (:math:`E_{k+1} > E_k`: gradient
    descent with a small enough step never raises it), when it ended above
    where it began, or when q wandered more than a turn from ``q0`` (with
    revolute joints the error is periodic in q, so a too-large step can make
    q drift while E stays bounded); the reason then gives the bound
    :math:`2/\sigma_{max}^2(W^{1/2}J)` at q0, how far q moved and how many
    steps raised E.  Otherwise E fell on every step and the search only
    ran out of iterations: the reason says so, with E's first and last values.

    >>> p560 = rvc.models.puma560()
    >>> T = p560.fkine(p560.qn)
    >>> ikine_transpose(p560, T, q0=p560.qn + 0.1, alpha=0.3, ilimit=20).reason.split("; ")[-2:]
    ['the error fell on every step, from E = 0.138 to 0.000102: converging slowly', 'raise ilimit (or alpha)']
    """
    rises = int(np.count_nonzero(np.diff(history) > 0))
    drift = float(np.abs(q_end - q0).max())
    J0, _ = jacob0_pose(robot, q0)
    smax = float(np.linalg.svd(np.sqrt(W)[:, None] * J0, compute_uv=False)[0])
    bound = 2.0 / smax ** 2 if smax > 0 else np.inf
    if rises or drift > 2 * np.pi or not history[-1] < history[0] or reason.startswith("diverged"):
        detail = reason[len("diverged: "):] if reason.startswith("diverged") else reason
        return (f"diverged: alpha = {alpha:g} is too large for this arm (a step lowers the "
                f"error only for alpha < 2 / sigma_max^2 = {bound:.3g} at q0); the error rose on "
                f"{rises} of {len(history) - 1} steps and q moved {drift:.3g} rad from q0 in "
                f"{iterations} iterations; {detail}")
    return (f"{reason}; the error fell on every step, from E = {history[0]:.3g} to {history[-1]:.3g}: "
            f"converging slowly; raise ilimit (or alpha)")
