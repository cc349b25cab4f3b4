"""A fast counterpart of :func:`~rvc.parallel.simulate_move`: the move's error dynamics, linearised about the plan.

The elastic robot under feedforward plus motor PD stays within a few mrad of
the rigid plan, so its deviation :math:`z = (\\delta, \\dot\\delta)`,
:math:`\\delta = q_c - q_{c,plan}`, obeys the linear time-varying system

.. math:: \\dot z = F(t)\\, z + g(t), \\quad
          F = \\begin{pmatrix} 0 & I \\\\ \\partial f / \\partial q_c & \\partial f / \\partial \\dot q_c
          \\end{pmatrix}, \\quad
          g = \\begin{pmatrix} 0 \\\\ f(q_{plan}, \\dot q_{plan}, t) - \\ddot q_{plan} \\end{pmatrix},

where :math:`f` is the closed loop's compact acceleration (springs, damping,
gravity and the servo :math:`\\tau_a = \\tau_{ff} + K_p(a_d - a) + K_d(\\dot a_d - \\dot a)`).
``g`` is evaluated exactly at every sample; the Jacobians in ``F`` by central
differences at a few nodes along the move and interpolated linearly in time.
Each sample interval is integrated exactly for ``F`` frozen at its midpoint and
``g`` linear in time (first-order hold), from the eigen-decomposition
:math:`F = V\\Lambda V^{-1}`:

.. math:: z_{k+1} = V e^{\\Lambda\\Delta t} V^{-1} z_k
          + \\Delta t\\, V \\varphi_1(\\Lambda\\Delta t) V^{-1} g_k
          + \\Delta t^2\\, V \\varphi_2(\\Lambda\\Delta t) V^{-1} \\dot g_k, \\quad
          \\varphi_1(x) = \\frac{e^x - 1}{x}, \\ \\varphi_2(x) = \\frac{e^x - 1 - x}{x^2},

so the stiff motor poles cost nothing (no step-size limit).  The fast end-effector
rates make the neglected quadratic terms a few per cent, so a few Picard sweeps
follow: the nonlinear remainder of the last answer,
:math:`f(\\text{plan} + z) - f(\\text{plan}) - F z`, is added to g and the
linear system solved again (its linear part exact, so it converges in a few).
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import getoption, getphysical, getscalar
from ..shapes import ArrayLike
from .fivebar import FiveBar
from .simulation import ClosedSimulation, Move, rigid_plan

__all__ = ["linear_move"]


def _mv(M, v):
    return np.einsum("...ij,...j->...i", M, v)


def _phi(x, k):
    """:math:`\\varphi_1(x) = (e^x - 1)/x` (k = 1) or :math:`\\varphi_2(x) = (e^x - 1 - x)/x^2` (k = 2).

    For :math:`|x| < 1` the Taylor series :math:`\\sum_j x^j / (j + k)!` to 20 terms (the rest is
    below 1e-19), where the quotients lose digits (:math:`e^x - 1 - x` cancels); beyond it the
    quotients, whose cancellation then costs nothing.  Exact to a few ulp on both sides of the switch.
    """
    small = np.abs(x) < 1.0
    xs = np.where(small, 2.0, x)
    series = np.zeros_like(x) + 1.0 / math.factorial(20 + k)
    for j in range(19, -1, -1):                   # Horner: sum_j x^j / (j + k)!
        series = series * x + 1.0 / math.factorial(j + k)
    if k == 1:
        return np.where(small, series, np.expm1(xs) / xs)
    return np.where(small, series, (np.expm1(xs) - xs) / xs ** 2)


def _hold(F, dt):
    """Steps of :math:`\\dot z = F z + u + \\dot u s` over dt, batched: :math:`\\Phi`, and the driven part of u, u-dot.

    With :math:`F = V \\Lambda V^{-1}`: :math:`\\Phi = V e^{\\Lambda\\Delta t} V^{-1}` and the driven part
    :math:`\\Delta t\\, V \\varphi_1(\\Lambda\\Delta t) V^{-1} u
    + \\Delta t^2\\, V \\varphi_2(\\Lambda\\Delta t) V^{-1}\\dot u`.

    >>> Phi, drive = _hold(np.array([[[-1.0]]]), 0.5)
    >>> bool(np.isclose(Phi[0, 0, 0], np.exp(-0.5))), bool(np.isclose(drive([[1.0]], [[0.0]])[0, 0], 1 - np.exp(-0.5)))
    (True, True)
    """
    lam, V = np.linalg.eig(F)
    Vi = np.linalg.inv(V)
    x = lam * dt
    Phi = ((V * np.exp(x)[..., None, :]) @ Vi).real
    p1, p2 = dt * _phi(x, 1), dt ** 2 * _phi(x, 2)

    def drive(u, udot):
        return _mv(V, p1 * _mv(Vi, np.asarray(u, dtype=float)) + p2 * _mv(Vi, np.asarray(udot, dtype=float))).real

    return Phi, drive


def _between(F_knots, t_knots, t):
    """The knots' matrices interpolated linearly in time at t."""
    w = np.interp(t, t_knots, np.arange(len(t_knots)))
    lo = np.minimum(np.floor(w).astype(int), len(t_knots) - 2)
    frac = (w - lo)[:, None, None]
    return (1 - frac) * F_knots[lo] + frac * F_knots[lo + 1]


def linear_move(model: FiveBar, x0: ArrayLike, x1: ArrayLike, duration: float, *, t_end: float | None = None,
                kp: float = 2000.0, kd: float = 2.5, dt: float = 0.005, start: str = "static",
                nodes: int = 9, iterations: int = 3) -> Move:
    """:func:`~rvc.parallel.simulate_move` by the linearised error dynamics about the plan (fast, approximate).

    The same arguments and the same :class:`~rvc.parallel.Move` (``t``, ``x``,
    ``plan``, ``error``, ``deflection``, ``tau``, ``residual_vibration()``),
    sampled every ``dt`` up to ``t_end`` (default 2 x duration).  The
    deviation from the plan :math:`z = (\\delta, \\dot\\delta)` follows

    .. math:: \\dot z = F(t) z + g(t), \\quad g = (0,\\; f(\\text{plan}) - \\ddot q_{c,plan}),

    integrated exactly per sample for F frozen (at the interval's midpoint,
    interpolated between ``nodes`` linearisations) and g linear in time, then
    ``iterations`` Picard sweeps with the nonlinear remainder
    :math:`f(\\text{plan} + z) - f(\\text{plan}) - F z` of the last sweep added to g.
    ``start="static"``: the linear static balance :math:`\\delta_0 = -(\\partial f/\\partial q_c)^{-1} g_0`
    at t = 0; ``start="undeflected"``: :math:`\\delta_0 = 0`.  The result's
    ``sim.coords`` is ``"linear"`` and ``sim.nfev`` 0.  Within a few per cent of
    the full simulation for deflections of a few mrad (``tests/parallel/test_linear_move.py``;
    for the 3-RRR and the Delta robot, any :class:`~rvc.parallel.ParallelModel`,
    ``tests/parallel/test_parallel_model_move.py``).

    >>> from rvc.parallel import FiveBar, simulate_move
    >>> fast = linear_move(FiveBar(), (-0.12, 0.36), (0.12, 0.36), 0.2, t_end=0.4)
    >>> full = simulate_move(FiveBar(), (-0.12, 0.36), (0.12, 0.36), 0.2, t_end=0.4)
    >>> fast.x.shape == full.x.shape, bool(np.abs(fast.x - full.x).max() < 0.02 * full.error.max())
    (True, True)
    """
    duration = getscalar(duration, "duration")
    if duration <= 0:
        raise ValueError(f"duration: expected a positive time, got {duration}")
    t_end = 2 * duration if t_end is None else getphysical(t_end, "t_end", "end time", positive=True)
    kp = getphysical(kp, "kp", "gain (N m/rad)", nonnegative=True)
    kd = getphysical(kd, "kd", "gain (N m s/rad)", nonnegative=True)
    dt = getphysical(dt, "dt", "sample time", positive=True)
    start = getoption(start, "start", ("static", "undeflected"))
    nodes = int(getscalar(nodes, "nodes"))
    if nodes < 2:
        raise ValueError(f"nodes: expected two or more linearisation nodes, got {nodes}")
    iterations = int(getscalar(iterations, "iterations"))
    if iterations < 0:
        raise ValueError(f"iterations: expected zero or more sweeps, got {iterations}")
    t = np.arange(0.0, t_end + dt / 2, dt)
    plan = rigid_plan(model, x0, x1, duration, t)
    ca, ce, ic, nc = model.ca, model.ce, model.ic, model.n_compact
    qc_plan = plan.q[:, ic]

    def accel(qc, qd, i):
        """Closed-loop compact accelerations at compact states (..., n_c), plan samples i."""
        q = model._assemble(qc[..., ca], qc[..., ce], guess=plan.q[i])
        tau = (plan.tau[i][..., ca] + kp * (qc_plan[i][..., ca] - qc[..., ca])
               + kd * (plan.qd[i][..., ca] - qd[..., ca]))
        return model.forward_dynamics(q, qd, tau, "compact")[..., ic]

    g = accel(qc_plan, plan.qd, np.arange(len(t))) - plan.qdd           # (T, n_c)
    # the Jacobians at `nodes` samples, over the move and the first of the rest after it
    k_move = min(len(t) - 1, int(np.ceil(duration / dt)))
    knots = np.unique(np.round(np.linspace(0, k_move, nodes)).astype(int))
    eps_q, eps_qd = 1e-6, 1e-4
    steps = np.concatenate([np.eye(nc), -np.eye(nc)])                    # (2 n_c, n_c)
    dq = np.concatenate([steps * eps_q, np.zeros_like(steps)])           # (4 n_c, n_c)
    dqd = np.concatenate([np.zeros_like(steps), steps * eps_qd])
    f = accel(qc_plan[knots][:, None] + dq, plan.qd[knots][:, None] + dqd, knots[:, None])   # (K, 4 n_c, n_c)
    dfdq = (f[:, :nc] - f[:, nc:2 * nc]).transpose(0, 2, 1) / (2 * eps_q)                   # (K, n_c, n_c)
    dfdqd = (f[:, 2 * nc:3 * nc] - f[:, 3 * nc:]).transpose(0, 2, 1) / (2 * eps_qd)
    F_knots = np.zeros((len(knots), 2 * nc, 2 * nc))
    F_knots[:, :nc, nc:] = np.eye(nc)
    F_knots[:, nc:, :nc] = dfdq
    F_knots[:, nc:, nc:] = dfdqd
    Phi, drive = _hold(_between(F_knots, t[knots], t[:-1] + dt / 2), dt)
    F_t = _between(F_knots, t[knots], t)                                  # at the samples
    n = 2 * nc
    G = np.zeros((len(t), n))
    G[:, nc:] = g
    z = np.zeros((len(t), n))
    for sweep in range(iterations + 1):
        # z' = F z + G: G the plan's forcing, then also the nonlinear remainder f(plan + z) - f(plan) - F z
        # of the last sweep (a Picard iteration whose linear part is exact)
        d = drive(G[:-1], np.diff(G, axis=0) / dt)
        if start == "static":                       # at rest at t = 0: F z + G = 0
            z[0, :nc] = -np.linalg.solve(dfdq[0], G[0, nc:])
        for k in range(len(t) - 1):
            z[k + 1] = Phi[k] @ z[k] + d[k]
        if sweep < iterations:
            G[:, nc:] = (accel(qc_plan + z[:, :nc], plan.qd + z[:, nc:], np.arange(len(t))) - plan.qdd
                         - _mv(F_t, z)[:, nc:])
    qc = qc_plan + z[:, :nc]
    qd_c = plan.qd + z[:, nc:]
    q = model._assemble(qc[:, ca], qc[:, ce], guess=plan.q)
    qd = _mv(model.W(q), qd_c)
    sim = ClosedSimulation(t, q, qd, model.h(q), _mv(model.A(q), qd), 0, "linear", None)
    x = model.fkine(q)
    torques = plan.tau[:, ca] - kp * z[:, ca] - kd * z[:, nc + ca]
    return Move(sim, plan, x, np.linalg.norm(x - plan.x, axis=-1), q[:, model.ie], torques, duration, (kp, kd))
