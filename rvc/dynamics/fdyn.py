r"""Forward dynamics: from joint torques to motion (Chapter 9.3).

.. math:: \ddot q = M(q)^{-1}\left(Q - C(q, \dot q)\dot q - F(\dot q) - G(q) - J(q)^T W\right)

:func:`accel` evaluates it (:math:`M` is always invertible);
:func:`fdyn` integrates it over time with :func:`scipy.integrate.solve_ivp`,
the notes' ``sl_ztorque`` Simulink model and the toolbox's ``fdyn``.

>>> p560 = rvc.models.puma560()
>>> qdd = accel(p560, p560.qn, np.zeros(6), np.zeros(6))
>>> bool(np.allclose(rne(p560, p560.qn, np.zeros(6), qdd), 0))
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp

from ..checks import getint, getivp, getphysical, getq
from ..results import Result
from ..shapes import JointVector, Twist6, Vector3
from .params import DynamicChain, getgravity
from .recursion import (batch_rows, boundary_conditions, composite_inertia, forward_dynamics,
                        LinkTable, link_table, newton_euler)

__all__ = ["accel", "Simulation", "fdyn"]


def accel(robot: DynamicChain, q: JointVector, qd: JointVector, torque: JointVector, gravity: Vector3 | None = None,
          fext: Twist6 | None = None, *, table: LinkTable | None = None) -> JointVector:
    """Joint accelerations (..., n) of the arm at ``(q, qd)`` driven by ``torque``.

    Solves :math:`M(q)\\ddot q = Q - h(q, \\dot q)` with
    :math:`h = ` ``rne(q, qd, 0, gravity, fext)`` (velocity, friction,
    gravity and end-effector terms) -- the notes' ``p560.accel(q, qd, Q)``.
    Batched over leading dimensions; ``rne(q, qd, accel(q, qd, Q)) = Q``.
    :math:`h` and :math:`M` come from the link-frame recursions
    (:func:`~rvc.dynamics.recursion.newton_euler`,
    :func:`~rvc.dynamics.recursion.composite_inertia`), in Python floats for
    one state.  ``table`` is the robot's
    :func:`~rvc.dynamics.recursion.link_table` when the caller has read it
    already: a simulation that calls ``accel`` at every step reads it once
    (by default it is read at each call, so a changed link counts at once).

    >>> p560 = rvc.models.puma560()
    >>> accel(p560, p560.qz, np.zeros(6), np.zeros(6)).round(4).tolist()   # falling
    [-0.2462, -8.6829, 3.1462, 0.0021, 0.0603, 0.0001]
    """
    n = robot.n
    q = getq(q, n)
    qd = getq(qd, n, name="qd")
    tau = getq(torque, n, name="torque")
    g = getgravity(gravity, robot)
    if table is None:
        table = link_table(robot)
    a0, wrench = boundary_conditions(robot, table, g, fext)
    zero = [0.0] * n
    if q.ndim == qd.ndim == tau.ndim == 1 and (wrench is None or wrench.ndim == 1):
        # one state, in floats: no batch bookkeeping
        try:
            return forward_dynamics(table, q.tolist(), qd.tolist(), tau.tolist(), a0,
                                    None if wrench is None else wrench.tolist())
        except np.linalg.LinAlgError:
            _singular(robot)

    def run(q, qd, wrench):
        h, _ = newton_euler(table, q, qd, zero, a0, wrench)
        return [*h, *(x for row in composite_inertia(table, q) for x in row)]

    out = batch_rows([q, qd, wrench], run, (n + n * n,))
    M, rhs = out[..., n:].reshape(out.shape[:-1] + (n, n)), tau - out[..., :n]
    batch = np.broadcast_shapes(M.shape[:-2], rhs.shape[:-1])
    try:
        return np.linalg.solve(np.broadcast_to(M, batch + (n, n)),
                               np.broadcast_to(rhs, batch + (n,))[..., None])[..., 0]
    except np.linalg.LinAlgError:
        _singular(robot)


def _singular(robot):
    raise ValueError(f"robot: expected an invertible inertia matrix M(q), got a singular one "
                     f"for {getattr(robot, 'name', 'this robot')!r} (a joint that moves no "
                     f"mass or inertia)") from None


@dataclass(frozen=True, repr=False, eq=False)
class Simulation(Result):
    """A simulated motion: times ``t`` (N,), joint coordinates ``q`` and speeds ``qd`` (N, n).

    ``tau`` (N, n) holds the applied torque where the simulation records it
    (controllers do; :func:`fdyn` leaves it None) and ``info`` extras such as
    the solver's statistics or a controller's demand.  Unpacks as ``t, q, qd``
    (MATLAB's ``[t, q, qd] = p560.fdyn(...)``).
    """

    unpack = ("t", "q", "qd")

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray | None = None
    info: dict = field(default_factory=dict)


def fdyn(robot: DynamicChain, T: float, q0: JointVector, qd0: JointVector | None = None,
         torque: Callable[[float, JointVector, JointVector], JointVector] | None = None, *,
         gravity: Vector3 | None = None, npoints: int = 101,
         rtol: float = 1e-6, atol: float = 1e-8, method: str = "RK45") -> Simulation:
    """Integrate the forward dynamics from ``(q0, qd0)`` for ``T`` seconds.

    ``torque(t, q, qd) -> (n,)`` gives the joint torques (None: zero torque,
    the arm falls under gravity and friction alone).  The state
    :math:`x = (q, \\dot q)` obeys :math:`\\dot x = (\\dot q, \\text{accel}(q, \\dot q, Q))`,
    integrated by :func:`scipy.integrate.solve_ivp` (``method``, ``rtol``,
    ``atol``) and reported at ``npoints`` equally spaced times.  Coulomb
    friction is a step in speed: remove it (:func:`~rvc.dynamics.friction.nofriction`)
    for a fast, smooth integration, as the notes do.

    >>> tl = rvc.models.twolink()
    >>> t, q, qd = fdyn(tl, 0.5, [0, 0], npoints=3)
    >>> t
    array([0.  , 0.25, 0.5 ])
    """
    n = robot.n
    T = getphysical(T, "T", "duration", positive=True)
    npoints = getint(npoints, "npoints", 2)
    ivp = getivp(method, rtol, atol)
    q0 = getq(q0, n, robot.revolute, name="q0")
    qd0 = np.zeros(n) if qd0 is None else getq(qd0, n, name="qd0")
    if q0.ndim != 1 or qd0.ndim != 1:
        raise ValueError(f"q0, qd0: expected one state of {n} joints each, got shapes "
                         f"{q0.shape}, {qd0.shape}")
    if torque is not None and not callable(torque):
        raise TypeError(f"torque: expected a function of (t, q, qd) or None, got "
                        f"{type(torque).__name__}")
    zero = np.zeros(n)
    table = link_table(robot)                   # the arm's parameters, read once

    def rhs(t, x):
        q, qd = x[:n], x[n:]
        tau = zero if torque is None else getq(torque(t, q, qd), n, name="torque(t, q, qd)")
        return np.concatenate([qd, accel(robot, q, qd, tau, gravity=gravity, table=table)])

    t_eval = np.linspace(0.0, T, npoints)
    sol = solve_ivp(rhs, (0.0, T), np.concatenate([q0, qd0]), t_eval=t_eval, **ivp)
    if not sol.success:
        raise RuntimeError(f"fdyn: the integration failed: {sol.message}")
    return Simulation(sol.t, sol.y[:n].T, sol.y[n:].T,
                      info={"nfev": sol.nfev, "method": method, "rtol": rtol, "atol": atol})
