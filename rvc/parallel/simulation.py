"""Simulating a closed chain: compact coordinates, or tree coordinates with drift control.

Three ways to integrate the same mechanism with :func:`scipy.integrate.solve_ivp`:

* **compact** -- the state is :math:`(q_c, \\dot q_c)`; the passive angles are
  recomputed from the loop at every step (``model.assemble``), so the loop
  can never open: drift-free by construction.
* **tree + Baumgarte** -- the state is :math:`(q_t, \\dot q_t)`; the KKT (or
  per-chain) system asks for :math:`\\ddot h = -2\\alpha\\dot h - \\beta^2 h`
  instead of :math:`\\ddot h = 0`, so a residual decays instead of growing
  (Baumgarte 1972).
* **tree + projection** -- no stabilisation inside a step; after every
  output interval the state is put back on the constraint: the passive
  angles by Newton's method and the rates by :math:`\\dot q_t = W \\dot q_c`.

A motion plan: the end-effector follows a quintic from x0 to x1; the rigid
model (springs locked) gives the actuated angles, rates and the feedforward
torques, and motor PD closes the loop on the actuated joints only:

.. math:: \\tau_a = \\tau_{ff}(t) + K_p (a_d - a) + K_d (\\dot a_d - \\dot a).

>>> from rvc.parallel import FiveBar
>>> robot = FiveBar()
>>> sim = simulate_closed(robot, robot.q_home, np.zeros(4), [0.0, 0.01])
>>> sim.q.shape, float(np.abs(sim.h).max()) < 1e-12
((2, 6), True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.optimize
from scipy.integrate import solve_ivp
from scipy.interpolate import CubicSpline

from ..checks import getarray, getivp, getoption, getphysical, getscalar, getvector
from ..results import Result
from ..shapes import ArrayLike, JointVector, TimeVector
from .closed import ClosedChain
from .fivebar import FiveBar

__all__ = ["ClosedSimulation", "RigidPlan", "Move", "simulate_closed", "quintic", "rigid_plan", "simulate_move"]


@dataclass(frozen=True, repr=False, eq=False)
class ClosedSimulation(Result):
    """The result of :func:`simulate_closed`: samples of the motion and of the loop residual.

    Attributes: ``t`` (T,), tree coordinates ``q`` (T, N) and rates ``qd``
    (T, N), loop residual ``h`` (T, 2(m-1)) and velocity residual
    ``hd = A qd`` (T, 2(m-1)), ``nfev`` right-hand-side evaluations, and the
    settings ``coords`` and ``stabilise``.

    >>> from rvc.parallel import FiveBar
    >>> simulate_closed(FiveBar(), FiveBar().q_home, np.zeros(4), [0.0, 0.01]).coords
    'compact'
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    h: np.ndarray
    hd: np.ndarray
    nfev: int
    coords: str
    stabilise: Any = None

    def __repr__(self) -> str:
        return (f"ClosedSimulation({len(self.t)} samples to t = {self.t[-1]:.3g} s, coords={self.coords!r}, "
                f"stabilise={self.stabilise!r}, max |h| = {np.abs(self.h).max():.3g} m)")


@dataclass(frozen=True, repr=False, eq=False)
class RigidPlan(Result):
    """A motion plan for the rigid model (springs locked): :func:`rigid_plan`.

    ``t`` (T,); end-effector ``x``, ``xd``, ``xdd`` (T, 2); tree coordinates
    ``q`` (T, N); compact rates ``qd`` and accelerations ``qdd`` (T, n_c);
    compact generalized forces ``tau`` (T, n_c): the motor torques on the
    actuated entries, the torques the springs would have to supply to stay
    undeflected on the elastic ones.

    >>> from rvc.parallel import FiveBar
    >>> rigid_plan(FiveBar(), (0, 0.4), (0.1, 0.4), 1.0, [0.0, 0.5]).x
    array([[0.  , 0.4 ],
           [0.05, 0.4 ]])
    """

    t: np.ndarray
    x: np.ndarray
    xd: np.ndarray
    xdd: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray

    def __repr__(self) -> str:
        return f"RigidPlan({len(self.t)} samples, {self.x[0]} -> {self.x[-1]})"


@dataclass(frozen=True, repr=False, eq=False)
class Move(Result):
    """The result of :func:`simulate_move`: the elastic robot under feedforward plus PD.

    ``sim`` the :class:`ClosedSimulation`; ``plan`` the :class:`RigidPlan` sampled
    at ``sim.t``; end-effector coordinates ``x`` (T, n_x) (for a planar platform
    :math:`(x, y, \\varphi)`), their distance from the plan ``error`` (T,), spring
    deflections ``deflection`` (T, n_e) (rad) and motor torques ``tau`` (T, n_a); ``duration`` of the move.

    >>> from rvc.parallel import FiveBar
    >>> simulate_move(FiveBar(), (0, 0.4), (0, 0.4), 0.1, dt=0.1).tau.shape    # standing still
    (3, 2)
    """

    sim: ClosedSimulation
    plan: RigidPlan
    x: np.ndarray
    error: np.ndarray
    deflection: np.ndarray
    tau: np.ndarray
    duration: float
    gains: tuple = field(default=(0.0, 0.0))

    @property
    def t(self) -> TimeVector:
        """Sample times (T,)."""
        return self.sim.t

    def residual_vibration(self) -> float:
        """Amplitude (m) of the end-effector's motion after the move has ended (t >= duration).

        Half the largest peak-to-peak excursion of x or y after the move, so a
        steady offset (the static sag the rigid plan ignores) does not count.

        >>> from rvc.parallel import FiveBar
        >>> mv = simulate_move(FiveBar(), (0.0, 0.40), (0.0, 0.40), 0.1, t_end=0.2, dt=0.05)
        >>> mv.residual_vibration() < 1e-3
        True
        """
        after = self.t >= self.duration
        if np.count_nonzero(after) < 2:
            return float("nan")
        return float(np.ptp(self.x[after], axis=0).max() / 2)

    def __repr__(self) -> str:
        return (f"Move(duration {self.duration:.3g} s, max error {self.error.max() * 1e3:.3g} mm, "
                f"residual vibration {self.residual_vibration() * 1e3:.3g} mm)")


def _mv(M, v):
    return np.einsum("...ij,...j->...i", M, v)


def _torque_function(model, tau):
    n_a = len(model.ia)
    if tau is None:
        zero = np.zeros(n_a)
        return lambda t, q, qd_c: zero
    if callable(tau):
        return tau
    tau = getarray(tau, "tau", batch=False)
    if tau.shape not in ((n_a,), (model.n_compact,)):
        raise ValueError(f"tau: expected a callable, None or constant torques ({n_a},) or "
                         f"({model.n_compact},), got shape {tau.shape}")
    return lambda t, q, qd_c: tau


def simulate_closed(model: ClosedChain, q0: JointVector, qd0: JointVector, t: TimeVector,
                    tau: ArrayLike | Callable | None = None, *, coords: str = "compact",
                    stabilise: str | None = None, solver: str | None = None, alpha: float = 20.0,
                    beta: float = 20.0, rtol: float = 1e-8, atol: float = 1e-10,
                    method: str = "DOP853") -> ClosedSimulation:
    """Integrate the closed chain's dynamics with ``solve_ivp`` and sample it at times ``t``.

    ``model`` a :class:`~rvc.parallel.ClosedChain`, or a
    :class:`~rvc.parallel.ParallelModel` (compact coordinates only).
    ``q0`` tree coordinates closing the loop, ``qd0`` compact or tree rates;
    ``tau`` None (no drive), constant actuated torques (n_a,) (or compact
    forces (n_c,)), or a function ``tau(t, q, qd_c)`` of time, tree
    coordinates and compact rates.  ``coords="compact"`` integrates
    :math:`\\ddot q_c = M_c^{-1}(\\tau_c - C_c\\dot q_c - \\eta_c - K_c q_c - D_c\\dot q_c)`
    with the passive angles rebuilt from the loop (drift-free);
    ``coords="tree"`` integrates :math:`(q_t, \\dot q_t)` with the ``solver``
    ``"kkt"`` (the default), ``"scdd"`` or ``"compact"`` and ``stabilise`` = None (plain
    :math:`\\ddot h = 0`, which drifts), ``"baumgarte"``
    (:math:`\\ddot h + 2\\alpha\\dot h + \\beta^2 h = 0`) or ``"projection"``
    (back onto h = 0 and :math:`A\\dot q = 0` after every output interval).

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar(g=0.0)
    >>> sim = simulate_closed(robot, robot.q_home, np.zeros(4), np.linspace(0, 0.05, 3))
    >>> float(np.abs(sim.q - robot.q_home).max()) < 1e-12     # no gravity, no drive: at rest
    True
    """
    coords = getoption(coords, "coords", ("compact", "tree"))
    if solver is not None:
        solver = getoption(solver, "solver", ("kkt", "scdd", "compact"))
    if coords == "compact" and solver not in (None, "compact"):
        raise ValueError(f"solver: expected None with coords='compact' (the compact equations are "
                         f"solved directly), got {solver!r}; use coords='tree' to choose a solver")
    solver = "kkt" if solver is None else solver
    if stabilise is not None:
        stabilise = getoption(stabilise, "stabilise", ("baumgarte", "projection"))
        if coords == "compact":
            raise ValueError("stabilise: expected None with coords='compact' (it cannot drift), "
                             f"got {stabilise!r}")
    q0 = model._getq(q0)
    if q0.ndim != 1:
        raise ValueError(f"q0: expected one configuration ({model.N},), got shape {q0.shape}")
    qd0_c, qd0_t = model._rates(q0, qd0, "qd0")
    if qd0_t is None:
        qd0_t = _mv(model.W(q0), qd0_c)
    t = getvector(t, "t")
    if len(t) < 2 or np.any(np.diff(t) <= 0):
        raise ValueError(f"t: expected two or more increasing sample times, got {t}")
    alpha = getphysical(alpha, "alpha", "stabilisation gain", nonnegative=True)
    beta = getphysical(beta, "beta", "stabilisation gain", nonnegative=True)
    torque = _torque_function(model, tau)
    ic, N, nc = model.ic, model.N, model.n_compact
    kw = getivp(method, rtol, atol)

    if coords == "compact":
        last = [q0.copy()]

        def full(y):
            qc = y[:nc]
            q = model._assemble(qc[model.ca], qc[model.ce], guess=last[0])
            last[0] = q
            return q

        def rhs(time, y):
            q = full(y)
            qd_c = y[nc:]
            return np.concatenate([qd_c, model._compact_accel(q, qd_c, torque(time, q, qd_c))])

        sol = solve_ivp(rhs, (t[0], t[-1]), np.concatenate([q0[ic], qd0_c]), t_eval=t, **kw)
        _check(sol)
        Y = sol.y.T
        q = np.stack([full(y) for y in Y])
        qd = _mv(model.W(q), Y[:, nc:])
        nfev = sol.nfev
    else:
        ab = (alpha, beta) if stabilise == "baumgarte" else (0.0, 0.0)

        def rhs(time, y):
            q, qd_t = y[:N], y[N:]
            qdd = model._forward(q, qd_t, torque(time, q, qd_t[ic]), solver, *ab)
            return np.concatenate([qd_t, qdd])

        y0 = np.concatenate([q0, qd0_t])
        if stabilise == "projection":
            Y, nfev = [y0], 0
            for t0, t1 in zip(t[:-1], t[1:]):
                sol = solve_ivp(rhs, (t0, t1), Y[-1], **kw)
                _check(sol)
                nfev += sol.nfev
                qp, qdp = model.project(sol.y[:N, -1], sol.y[N:, -1])
                Y.append(np.concatenate([qp, qdp]))
            Y = np.stack(Y)
        else:
            sol = solve_ivp(rhs, (t[0], t[-1]), y0, t_eval=t, **kw)
            _check(sol)
            Y, nfev = sol.y.T, sol.nfev
        q, qd = Y[:, :N], Y[:, N:]
    return ClosedSimulation(t, q, qd, model.h(q), _mv(model.A(q), qd), int(nfev), coords, stabilise)


def _check(sol):
    if sol.status != 0:
        raise ValueError(f"the integration failed: {sol.message}")


def quintic(x0: ArrayLike, x1: ArrayLike, duration: float, t: TimeVector) -> tuple:
    """A rest-to-rest quintic from x0 to x1: positions, velocities, accelerations (T, d).

    .. math:: x(t) = x_0 + (x_1 - x_0)\\, s(\\tau), \\quad
              s = 10\\tau^3 - 15\\tau^4 + 6\\tau^5, \\quad
              \\tau = \\min(\\max(t / T, 0), 1)

    (zero velocity and acceleration at both ends; held at x1 after T).

    >>> x, xd, xdd = quintic([0, 0], [1, 2], 2.0, [0.0, 1.0, 3.0])
    >>> x
    array([[0. , 0. ],
           [0.5, 1. ],
           [1. , 2. ]])
    >>> xd[1]                      # peak speed 15/8 (x1 - x0)/T
    array([0.9375, 1.875 ])
    """
    x0, x1 = getvector(x0, "x0"), getvector(x1, "x1")
    if x0.shape != x1.shape:
        raise ValueError(f"x0, x1: expected a start and an end point of the same length, got "
                         f"{x0.size} and {x1.size} elements")
    T = getscalar(duration, "duration")
    if T <= 0:
        raise ValueError(f"duration: expected a positive time, got {T}")
    t = getarray(t, "t")
    tau = np.clip(t / T, 0.0, 1.0)[..., None]
    inside = ((t >= 0) & (t <= T))[..., None]
    s = tau ** 3 * (10 - 15 * tau + 6 * tau ** 2)
    sd = 30 * tau ** 2 * (1 - tau) ** 2 / T * inside
    sdd = 60 * tau * (1 - tau) * (1 - 2 * tau) / T ** 2 * inside
    d = x1 - x0
    return x0 + d * s, d * sd, d * sdd


def rigid_plan(model: FiveBar, x0: ArrayLike, x1: ArrayLike, duration: float, t: TimeVector) -> RigidPlan:
    """The rigid model's joint motion and torques for a quintic end-effector move.

    Springs locked (:math:`e = \\dot e = \\ddot e = 0`): the actuated angles
    from ``model.ikine_rigid(x)``, their rates from the end-effector Jacobian's
    actuated columns :math:`G_a \\dot a = \\dot x`, their accelerations from
    :math:`G_a \\ddot a = \\ddot x - \\dot G \\dot q_c`, and the compact forces from
    ``model.inverse_dynamics`` (actuated entries: the feedforward torques;
    elastic entries: what the springs would have to supply).  Batched over t.
    A :class:`~rvc.parallel.ParallelModel` plans by :func:`~rvc.parallel.parallel_rigid_plan`.

    >>> from rvc.parallel import FiveBar
    >>> plan = rigid_plan(FiveBar(), (0.0, 0.40), (0.1, 0.35), 0.5, np.linspace(0, 0.5, 6))
    >>> plan.q.shape, plan.tau.shape
    ((6, 6), (6, 4))
    """
    plan = getattr(model, "_rigid_plan", None)
    if plan is not None:                        # a ParallelModel: rvc.parallel.parallel_rigid_plan
        return plan(x0, x1, duration, t)
    t = getvector(t, "t")
    reach = getattr(model, "_reach", None)
    if reach is not None:                       # the points the caller typed, by their names
        reach(getarray(x0, "x0", shape=(2,), batch=False), "x0")
        reach(getarray(x1, "x1", shape=(2,), batch=False), "x1")
    x, xd, xdd = quintic(x0, x1, duration, t)
    if reach is not None:
        if not np.all(model.reachable(x)):
            k = int(np.flatnonzero(~model.reachable(x))[0])
            raise ValueError(f"x0, x1: expected a straight move that stays in the workspace, but "
                             f"it leaves it at t = {t[k]:g} s, x = {x[k]}; add a via point or "
                             f"choose nearer points")
    qa = model.ikine_rigid(x)
    q = model.assemble(qa, np.zeros(x.shape[:-1] + (len(model.ie),)))
    Ga = model.jacobian(q)[..., :, model.ca]
    qd = np.zeros(x.shape[:-1] + (model.n_compact,))
    qd[..., model.ca] = np.linalg.solve(Ga, xd[..., None])[..., 0]
    # end-effector acceleration with zero compact acceleration: Gdot qd
    qdd0 = model.accelerations(q, qd, np.zeros_like(qd))
    s0 = model.slices[0]
    qd_t = model.velocities(q, qd)
    chain = model.chains[0]
    xdd0 = _mv(chain.jacob0(q[..., s0]), qdd0[..., s0]) + _mv(chain.jacob_dot(q[..., s0], qd_t[..., s0]),
                                                              qd_t[..., s0])
    qdd = np.zeros_like(qd)
    qdd[..., model.ca] = np.linalg.solve(Ga, (xdd - xdd0)[..., None])[..., 0]
    tau = model.inverse_dynamics(q, qd, qdd, "lda")
    return RigidPlan(t, x, xd, xdd, q, qd, qdd, tau)


def _held_at_rest(model, q, tau):
    """The tree coordinates near q where the robot at rest under the torques ``tau(0, q, 0)`` stays at rest.

    Solves :math:`\\ddot q_c(q_c, \\dot q_c = 0) = 0` for the compact angles
    (scipy's ``root``, from q's), i.e. the static balance of the compact model.
    """
    zero = np.zeros(model.n_compact)
    ic = model.ic

    def full(qc):
        return model._assemble(qc[model.ca], qc[model.ce], guess=q)

    def accel(qc):
        qt = full(qc)
        return model._compact_accel(qt, zero, tau(0.0, qt, zero))

    sol = scipy.optimize.root(accel, q[ic], tol=1e-13)
    scale = np.abs(accel(q[ic])).max() + 1e-300
    if np.abs(accel(sol.x)).max() > 1e-9 * scale:
        raise ValueError(f"x0: no static equilibrium found near the undeflected start ({sol.message}); "
                         f"use start='undeflected'")
    return full(sol.x)


def simulate_move(model: FiveBar, x0: ArrayLike, x1: ArrayLike, duration: float, *, t_end: float | None = None,
                  kp: float = 2000.0, kd: float = 2.5, dt: float = 0.005, rate: float = 1000.0,
                  rtol: float = 1e-4, atol: float = 1e-6, method: str = "Radau",
                  start: str = "static") -> Move:
    """A fast move of the elastic robot: rigid feedforward plus motor PD, simulated.

    The plan (:func:`rigid_plan`, sampled at ``rate`` Hz as a controller would
    and interpolated) gives :math:`a_d, \\dot a_d, \\tau_{ff}`; the motors apply

    .. math:: \\tau_a = \\tau_{ff}(t) + K_p (a_d - a) + K_d (\\dot a_d - \\dot a)

    to the elastic robot, which starts at rest and is integrated in compact
    coordinates up to ``t_end`` (default 2 x duration), sampled every ``dt``.
    ``start="static"`` (the default): the robot starts at the static
    equilibrium of this controller at x0, the compact angles :math:`q_c` with

    .. math:: \\tau_c(q_c) - \\eta_c(q_c) - K_c q_c = 0, \\quad
              \\tau_a = \\tau_{ff}(0) + K_p (a_d(0) - a)

    (springs sagged under gravity, the motors a little off their plan with the
    holding torques :math:`\\tau_a`), so that standing still (x1 = x0) stays
    still and any vibration is the move's.  ``start="undeflected"``: the
    rigid plan's pose, springs undeflected, so gravity drops the robot into
    its sag at t = 0 and rings its modes before the move does anything.
    The default gains make a stiff servo, as in an
    industrial drive: ``kp`` (N m/rad) well above the springs' stiffness, so
    the motors nearly follow their plan and the elastic modes ring on their
    own; ``kd`` (N m s/rad) damps the light motor side.  The motor joints are
    then stiff ODEs (a small rotor inertia under PD behind a spring), so the
    default integrator is the implicit ``"Radau"``.  ``model`` is a
    :class:`~rvc.parallel.FiveBar` or any :class:`~rvc.parallel.ParallelModel`
    (x0, x1 its end-effector coordinates, the plan :func:`~rvc.parallel.parallel_rigid_plan`).

    >>> from rvc.parallel import FiveBar
    >>> mv = simulate_move(FiveBar(), (0.0, 0.40), (0.05, 0.38), 0.2, dt=0.05)
    >>> mv.x.shape, bool(mv.error.max() < 5e-3)
    ((9, 2), True)
    >>> still = simulate_move(FiveBar(), (0.0, 0.40), (0.0, 0.40), 0.1, dt=0.05)
    >>> bool(still.residual_vibration() < 1e-9)     # the static start: standing still stays still
    True
    """
    duration = getscalar(duration, "duration")
    if duration <= 0:
        raise ValueError(f"duration: expected a positive time, got {duration}")
    t_end = 2 * duration if t_end is None else getphysical(t_end, "t_end", "end time",
                                                           positive=True)
    kp = getphysical(kp, "kp", "gain (N m/rad)", nonnegative=True)
    kd = getphysical(kd, "kd", "gain (N m s/rad)", nonnegative=True)
    dt = getphysical(dt, "dt", "sample time", positive=True)
    rate = getphysical(rate, "rate", "plan rate (Hz)", positive=True)
    getivp(method, rtol, atol)
    start = getoption(start, "start", ("static", "undeflected"))
    grid = np.linspace(0.0, max(t_end, duration), int(np.ceil(max(t_end, duration) * rate)) + 1)
    plan = rigid_plan(model, x0, x1, duration, grid)
    ca = model.ca
    ref = CubicSpline(grid, np.concatenate(
        [plan.q[:, model.ia], plan.qd[:, ca], plan.tau[:, ca]], axis=1), axis=0)
    n_a = len(ca)

    def tau(time, q, qd_c):
        r = ref(time)
        return r[2 * n_a:] + kp * (r[:n_a] - q[model.ia]) + kd * (r[n_a:2 * n_a] - qd_c[ca])

    t = np.arange(0.0, t_end + dt / 2, dt)
    q0 = plan.q[0] if start == "undeflected" else _held_at_rest(model, plan.q[0], tau)
    sim = simulate_closed(model, q0, plan.qd[0], t, tau, rtol=rtol, atol=atol, method=method)
    sampled = rigid_plan(model, x0, x1, duration, t)
    x = model.fkine(sim.q)
    r = ref(t)                                   # the controller's torques at the samples
    torques = (r[:, 2 * n_a:] + kp * (r[:, :n_a] - sim.q[:, model.ia])
               + kd * (r[:, n_a:2 * n_a] - sim.qd[:, model.ia]))
    return Move(sim, sampled, x, np.linalg.norm(x - sampled.x, axis=-1), sim.q[:, model.ie],
                torques, duration, (kp, kd))
