"""Resolved-rate motion control (Chapter 8.3): the notes' ``sl_rrmc`` and ``sl_rrmc2``.

Instead of solving inverse kinematics for every pose, resolved-rate control
turns a wanted tool velocity into joint rates through the Jacobian, at
every sample k of a discrete-time controller with period :math:`\\delta_t`:

.. math:: \\dot q^*\\langle k\\rangle = J(q\\langle k\\rangle)^{-1}\\, \\nu^*, \\qquad
          q\\langle k+1\\rangle = q\\langle k\\rangle + \\delta_t\\, \\dot q^*\\langle k\\rangle .

:func:`rrmc` is this *open loop* (``sl_rrmc``): it integrates a commanded
velocity, and the errors of the integration accumulate.  :func:`rrmc2` closes
the loop on the pose (``sl_rrmc2``): the commanded velocity is the
spatial displacement to the goal times a gain,

.. math:: \\dot q^*\\langle k\\rangle = K_p\\, J(q\\langle k\\rangle)^{-1}\\,
          \\Delta\\bigl(\\mathcal{K}(q\\langle k\\rangle), \\xi^*\\langle k\\rangle\\bigr),

so errors are corrected instead of accumulated.  Both are plain
simulations: a loop over the time steps (a feedback loop has to be), each
step vectorised over a batch of starting configurations.  Both take the
inverse, the pseudo-inverse or damped least squares
(:func:`~rvc.kinematics.rates.resolve_rates`), a row selection ``axes``
for under-actuated arms (8.4.1) and a null-space joint velocity
``qd_null`` for redundant ones (8.4.2), and return an :class:`RRMC` record.

>>> p560 = rvc.models.puma560()
>>> r = rrmc(p560, p560.qn, [0, 0.05, 0, 0, 0, 0], steps=40)     # 2 s along world y
>>> round(float(r.t[-1]), 2), (r.T[-1, :3, 3] - r.T[0, :3, 3]).round(4) + 0    # drifts in x
(1.95, array([-0.0002,  0.0975,  0.    ]))
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import RVCWarning, getarray, getint, getoption, getq, getscalar, getaxes, putangle
from ..results import Result
from ..shapes import SE3, ArrayLike, JointVector, Twist6
from .chain import Chain, goal_pose, pose3d
from .jacobian import jacob0, jacobe
from .rates import nullproj, pose_error, resolve_rates

__all__ = ["RRMC", "rrmc", "rrmc2"]


@dataclass(frozen=True, repr=False, eq=False)
class RRMC(Result):
    """A resolved-rate motion control run: sample k holds time, joints, rates and tool pose.

    Attributes
    ----------
    t : ndarray (N,)
        Sample times :math:`k\\,\\delta_t`.
    q : ndarray (..., N, n)
        Joint coordinates at the samples (``q[..., 0, :]`` is ``q0``).
    qd : ndarray (..., N, n)
        The joint rates commanded at each sample (held until the next).
    T : ndarray (..., N, 4, 4)
        Tool poses ``fkine(q)`` (a planar chain's lifted into the plane z = 0).
    v : ndarray (..., N, 6)
        The tool velocity those rates give, :math:`J(q\\langle k\\rangle)\\dot q\\langle k\\rangle`
        (in the frame of the command), to compare with what was asked.
    e : ndarray (..., N, 6) or None
        Closed loop: the pose error :math:`\\Delta` to the goal (world frame);
        None for the open loop.
    cond : ndarray (..., N)
        Condition number of the (row-selected) Jacobian: large near a
        singularity, ``inf`` at one.

    Leading dimensions ``...`` are those of a batch of starting
    configurations.  Unpacks as ``t, q, qd``.
    """

    unpack = ("t", "q", "qd")

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    T: np.ndarray
    v: np.ndarray
    e: Any
    cond: np.ndarray


def _setup(robot, q0, dt, steps, method, damping, axes, qd_null, unit):
    q = getq(q0, robot.n, robot.revolute, unit, name="q0").copy()
    dt = getscalar(dt, "dt")
    if dt <= 0:
        raise ValueError(f"dt: expected a positive sample time, got {dt}")
    steps = getint(steps, "steps", 1)
    if method is not None:
        getoption(method, "method", ("inv", "pinv", "dls"))
    damping = getscalar(damping, "damping")
    rows = getaxes(axes)
    if method is None:
        method = "dls" if damping > 0 else ("inv" if rows.size == robot.n else "pinv")
    if qd_null is not None:
        qd_null = getq(qd_null, robot.n, robot.revolute, unit, name="qd_null")
    return q, dt, steps, method, damping, rows, qd_null


def _run(robot, q, dt, steps, velocity, jac, method, damping, rows, qd_null, unit):
    """The loop shared by both controllers: velocity(k, q, T) -> (nu (..., 6), e or None)."""
    Q, QD, TT, V, E, C = [], [], [], [], [], []
    for k in range(steps):
        T = pose3d(robot, q)
        nu, e = velocity(k, T)
        J = jac(robot, q)
        Jr = J[..., rows, :]
        qd = resolve_rates(Jr, nu[..., rows], method, damping)
        if qd_null is not None:
            qd = qd + (nullproj(Jr) @ qd_null[..., None])[..., 0]
        s = np.linalg.svd(Jr, compute_uv=False)
        C.append(np.where(s[..., -1] > 0, s[..., 0] / np.maximum(s[..., -1], 1e-300), np.inf))
        Q.append(q)
        QD.append(qd)
        TT.append(T)
        V.append((J @ qd[..., None])[..., 0])
        E.append(e)
        q = q + dt * qd
    stack = lambda xs, tail: np.stack(xs, axis=-1 - tail)            # noqa: E731
    rev = np.asarray(robot.revolute, dtype=bool)
    conv = (lambda a: np.where(rev, putangle(a, unit), a)) if unit == "deg" else (lambda a: a)
    return RRMC(np.arange(steps) * dt, conv(stack(Q, 1)), conv(stack(QD, 1)), stack(TT, 2),
                stack(V, 1), None if E[0] is None else stack(E, 1), stack(C, 0))


def rrmc(robot: Chain, q0: JointVector, v: Twist6, *, dt: float = 0.05, steps: int = 100,
         frame: str = "world", method: str | None = None, damping: float = 0.0, axes: str | ArrayLike = "all",
         qd_null: JointVector | None = None,
         unit: str = "rad") -> RRMC:
    """Open-loop resolved-rate motion control (8.3, the notes' ``sl_rrmc``).

    .. math:: \\dot q\\langle k\\rangle = J(q\\langle k\\rangle)^{-1}\\nu^*\\langle k\\rangle
              \\;(+\\, P\\,\\dot q_{null}), \\qquad
              q\\langle k+1\\rangle = q\\langle k\\rangle + \\delta_t\\,\\dot q\\langle k\\rangle

    Parameters
    ----------
    robot : chain model
        Any model with the chain interface (DH, modified DH, ETS).
    q0 : array_like (n,) or (..., n)
        Starting joint coordinates (a batch runs in one loop).
    v : array_like (6,) or (steps, 6)
        Commanded spatial velocity (vx vy vz wx wy wz) of the tool: constant,
        or one row per step.
    dt, steps : float, int
        Sample time and number of samples; times are ``0, dt, ..., (steps-1) dt``.
    frame : {"world", "tool"}
        Frame of ``v``: world axes with ``jacob0`` or the tool's with ``jacobe``.
    method : {"inv", "pinv", "dls"} or None
        How the rates are resolved (:func:`~rvc.kinematics.rates.resolve_rates`);
        default ``"dls"`` if ``damping > 0``, else ``"inv"`` for a square
        (row-selected) Jacobian and ``"pinv"`` otherwise.
    damping : float
        :math:`\\lambda` of damped least squares.
    axes : str or array_like (6,)
        Rows of the Jacobian and of ``v`` to control (``"all"``, ``"trans"``,
        ``"rot"`` or a mask): an under-actuated arm controls only as many
        as it has joints (8.4.1).
    qd_null : array_like (n,), optional
        Joint velocity wanted as well, projected into the null space of the
        (row-selected) Jacobian by :func:`~rvc.kinematics.rates.nullproj`,
        so it moves no controlled component of the tool (8.4.2).
    unit : {"rad", "deg"}
        Unit of ``q0``, ``qd_null`` and of the returned ``q``, ``qd``
        (revolute joints).

    Returns
    -------
    RRMC
        ``t, q, qd, T, v, e=None, cond``.

    The tool drifts from the commanded straight line because each step
    holds :math:`J` constant for :math:`\\delta_t`; nothing corrects that
    (see :func:`rrmc2`).

    >>> p2 = rvc.models.planar2()                       # under-actuated: control vx, vy only
    >>> r = rrmc(p2, [0.3, 1.2], [0.1, 0, 0, 0, 0, 0], axes=[1, 1, 0, 0, 0, 0], steps=10)
    >>> r.q.shape, r.v[0].round(4) + 0                   # the tool also turns: wz is free
    ((10, 2), array([ 0.1   ,  0.    ,  0.    ,  0.    ,  0.    , -0.1025]))
    """
    frame = getoption(frame, "frame", ("world", "tool"))
    q, dt, steps, method, damping, rows, qd_null = _setup(robot, q0, dt, steps, method, damping,
                                                          axes, qd_null, unit)
    v = getarray(v, "v", shape=(6,))
    if v.ndim == 2 and v.shape[0] != steps:
        raise ValueError(f"v: expected shape (6,) or ({steps}, 6), one row per step, got shape {v.shape}")
    if v.ndim > 2:
        raise ValueError(f"v: expected shape (6,) or ({steps}, 6), got shape {v.shape}")

    def velocity(k, T):
        return (v if v.ndim == 1 else v[k]) + np.zeros(T.shape[:-2] + (6,)), None

    jac = jacob0 if frame == "world" else jacobe
    return _run(robot, q, dt, steps, velocity, jac, method, damping, rows, qd_null, unit)


def rrmc2(robot: Chain, q0: JointVector, Tstar: SE3, *, gain: float = 1.0, dt: float = 0.05,
          steps: int | None = None, method: str | None = None, damping: float = 0.0, axes: str | ArrayLike = "all",
          qd_null: JointVector | None = None,
          unit: str = "rad") -> RRMC:
    """Closed-loop resolved-rate motion control (8.3, the notes' ``sl_rrmc2``).

    .. math:: \\dot q\\langle k\\rangle = K_p\\, J(q\\langle k\\rangle)^{-1}
              \\Delta\\bigl(\\mathcal{K}(q\\langle k\\rangle), \\xi^*\\langle k\\rangle\\bigr)
              \\;(+\\, P\\,\\dot q_{null}), \\qquad
              q\\langle k+1\\rangle = q\\langle k\\rangle + \\delta_t\\,\\dot q\\langle k\\rangle

    with :math:`\\Delta` the world-frame pose error of
    :func:`~rvc.kinematics.rates.pose_error` and :math:`J` the world-frame
    Jacobian.  Near the goal the error shrinks by the factor
    :math:`1 - K_p\\delta_t` per step (the loop is stable for
    :math:`0 < K_p\\delta_t < 2`, fastest at 1).

    ``Tstar`` is one goal pose (4, 4) (then ``steps`` defaults to 100) or
    a trajectory of poses (steps, 4, 4), one per step, to follow.  ``gain``
    is :math:`K_p` (1/s); ``dt``, ``method``, ``damping``, ``axes``,
    ``qd_null`` and ``unit`` as :func:`rrmc`.  Returns an :class:`RRMC`
    whose ``e`` is the pose error at each sample.

    >>> p560 = rvc.models.puma560()
    >>> goal = transl(0.05, -0.1, 0.1) @ p560.fkine(p560.qn)
    >>> r = rrmc2(p560, p560.qn, goal, gain=10, steps=40)
    >>> float(np.abs(r.e[-1]).max()) < 1e-9, bool(np.allclose(p560.fkine(r.q[-1]), goal, atol=1e-9))
    (True, True)
    """
    Ts = goal_pose(robot, Tstar, "Tstar")
    if Ts.ndim == 2:
        steps = 100 if steps is None else steps
    elif Ts.ndim == 3:
        if steps is not None and steps != Ts.shape[0]:
            raise ValueError(f"steps: expected {Ts.shape[0]} (one per pose of Tstar) or None, "
                             f"got {steps}")
        steps = Ts.shape[0]
    else:
        raise ValueError(f"Tstar: expected a pose (4, 4) or a trajectory (steps, 4, 4), "
                         f"got shape {Ts.shape}")
    gain = getscalar(gain, "gain")
    if gain <= 0:
        raise ValueError(f"gain: expected a positive gain, got {gain}")
    q, dt, steps, method, damping, rows, qd_null = _setup(robot, q0, dt, steps, method, damping,
                                                          axes, qd_null, unit)
    if gain * dt >= 2:
        warnings.warn(f"gain, dt: gain * dt = {gain * dt:.3g} is outside the stable range "
                      f"0 < gain * dt < 2 of this loop: the pose error grows by "
                      f"|1 - gain * dt| = {abs(1 - gain * dt):.3g} per step; lower gain or dt "
                      f"(gain < {2 / dt:.3g} at dt = {dt:g})", RVCWarning, stacklevel=2)

    def velocity(k, T):
        e = pose_error(T, Ts if Ts.ndim == 2 else Ts[k])
        return gain * e, e

    return _run(robot, q, dt, steps, velocity, jacob0, method, damping, rows, qd_null, unit)
