r"""Model-based control of an arm and its simulation (Chapter 9.4).

A digital controller samples the arm every ``dt`` seconds and holds its
torque until the next sample (zero-order hold); between samples the arm
moves by its forward dynamics (:func:`~rvc.dynamics.fdyn.accel`).
:func:`simulate` runs that loop for any control law ``law(t, q, qd) -> tau``
(the loop over time steps is the nature of feedback: each torque depends on
the state the previous one produced).  The laws, for a desired trajectory
:math:`q^*(t)` (a :class:`~rvc.motion.trajectory.Trajectory` sampled at the
controller's times) and the error :math:`e = q^* - q`:

* :func:`pd_law` -- independent joint control, :math:`Q = K_p e + K_v\dot e`
  (plus the gravity load, optionally);
* :func:`feedforward_law` -- 9.4.1, :math:`Q = \mathcal{D}^{-1}(q^*, \dot q^*, \ddot q^*) + K_p e + K_v\dot e`;
* :func:`computed_torque_law` -- 9.4.2,
  :math:`Q = \mathcal{D}^{-1}(q, \dot q, \ddot q^* + K_v\dot e + K_p e)`, which
  with a perfect model makes every joint's error obey
  :math:`\ddot e + K_v\dot e + K_p e = 0`;
* :func:`opspace_law` -- 9.4.3, operational-space control: position control
  in some directions of the end effector and force control in the others
  (the notes' table wiping).

The inverse dynamics :math:`\mathcal{D}^{-1}` is :func:`~rvc.dynamics.rne.rne`
of the controller's ``model``, which may differ from the simulated arm.

>>> p560 = rvc.models.puma560()
>>> traj = jtraj(p560.qz, p560.qr, np.arange(0, 0.505, 0.005))
>>> sim = simulate(p560, computed_torque_law(p560, traj, 100, 20), p560.qz, T=0.5, dt=0.005)
>>> bool(np.abs(sim.error).max() < 0.01)               # 90 degrees in 0.5 s
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..checks import getarray, getcallable, warn_nonfinite, getfields, getphysical, getq, getscalar, getvector
from ..kinematics.chain import Chain
from ..kinematics.jacobian import jacob0, jacob_dot
from ..motion.trajectory import Trajectory
from ..shapes import SE3, ArrayLike, JointVector, Twist6
from ..spatial.expmap import trlog, vex
from .cartesian import inertia_x
from .fdyn import Simulation, accel
from .matrices import gravload
from .params import DynamicChain, getgravity
from .recursion import boundary_conditions, forward_dynamics, link_table
from .rne import rne

__all__ = ["Tracking", "simulate", "pd_law", "feedforward_law", "computed_torque_law",
           "table_contact", "opspace_law"]


@dataclass(frozen=True, repr=False, eq=False)
class Tracking(Simulation):
    """A controlled motion: a :class:`~rvc.dynamics.fdyn.Simulation` plus the demand.

    ``q_demand`` (N, n) is what the law asked for at each sample (None when
    the law has no joint demand) and ``error = q_demand - q``;
    ``info["wrench"]`` holds the end-effector wrench of a contact, if any.
    """

    q_demand: np.ndarray | None = None

    @property
    def error(self) -> np.ndarray:
        """Tracking error ``q_demand - q`` (N, n)."""
        return self.q_demand - self.q


def _gain(K, n, name):
    """Feedback gains (n,): a scalar is repeated; negative gains (positive feedback) are refused."""
    return getphysical(K, name, "gain", nonnegative=True, n=n)


class _Demand:
    """A sampled trajectory looked up at the controller's sample times (held after its end)."""

    def __init__(self, traj, n):
        getfields(traj, "traj", ("t", "q", "qd", "qdd"),
                  "a sampled Trajectory, e.g. jtraj(q0, q1, np.linspace(0, 1, 51))")
        self.t = getvector(traj.t, "traj.t")
        self.q = getarray(traj.q, "traj.q", shape=(n,))
        self.qd = getarray(traj.qd, "traj.qd", shape=(n,))
        self.qdd = getarray(traj.qdd, "traj.qdd", shape=(n,))
        if self.q.shape != (len(self.t), n):
            raise ValueError(f"traj: expected q of shape ({len(self.t)}, {n}), got {self.q.shape}")

    def __call__(self, t):
        k = min(max(int(np.searchsorted(self.t, t + 1e-9, side="right")) - 1, 0), len(self.t) - 1)
        end = t > self.t[-1] + 1e-9
        qd = np.zeros_like(self.qd[k]) if end else self.qd[k]
        qdd = np.zeros_like(self.qdd[k]) if end else self.qdd[k]
        return self.q[k], qd, qdd


def simulate(robot: DynamicChain, law: Callable[[float, JointVector, JointVector], JointVector], q0: JointVector,
             qd0: JointVector | None = None, *, T: float, dt: float,
             contact: Callable[[JointVector, JointVector], Twist6] | None = None) -> Tracking:
    """Simulate a sampled-data controller ``law(t, q, qd) -> tau`` on the arm ``robot``.

    At each sample ``t_k = k dt`` the law reads the state and returns the
    torque, held for ``dt``; the arm moves by one classical Runge-Kutta
    (RK4) step of :func:`~rvc.dynamics.fdyn.accel` under that torque.
    ``contact(q, qd) -> W`` (optional) is the wrench (6,) the end effector
    exerts on its surroundings, in the world frame (it is turned into the
    end-effector frame that :func:`~rvc.dynamics.fdyn.accel` takes).  A law may
    expose ``law.demand(t)`` (the joint demand it tracks); it is recorded as
    ``q_demand``.

    >>> tl = rvc.models.twolink()
    >>> sim = simulate(tl, lambda t, q, qd: gravload(tl, q), tl.qn, T=0.1, dt=0.05)
    >>> sim.q.round(6) + 0                            # held up by its gravity load
    array([[ 0.523599, -0.523599],
           [ 0.523599, -0.523599],
           [ 0.523599, -0.523599]])
    """
    n = robot.n
    getcallable(law, "law", "a control law, a function law(t, q, qd) -> tau such as "
                "pd_law(robot, traj, Kp, Kv)")
    if contact is not None:
        getcallable(contact, "contact", "None or a function contact(q, qd) -> W such as "
                    "table_contact(robot, height)")
    T = getscalar(T, "T")
    dt = getscalar(dt, "dt")
    if dt <= 0 or T < dt:
        raise ValueError(f"dt, T: expected 0 < dt <= T, got dt = {dt:g}, T = {T:g}")
    q = getq(q0, n, robot.revolute, name="q0").copy()
    qd = np.zeros(n) if qd0 is None else getq(qd0, n, name="qd0").copy()
    if q.ndim != 1:
        raise ValueError(f"q0: expected one configuration ({n},), got shape {q.shape}")
    steps = int(round(T / dt))
    t = np.arange(steps + 1) * dt
    Q, QD, TAU = np.zeros((steps + 1, n)), np.zeros((steps + 1, n)), np.zeros((steps + 1, n))
    W = np.zeros((steps + 1, 6))
    demand = getattr(law, "demand", None)
    QS = None if demand is None else np.zeros((steps + 1, n))

    # the arm's parameters, gravity and base, read once; then each step in floats, unchecked
    table = link_table(robot)
    g = getgravity(None, robot)
    a0, _ = boundary_conditions(robot, table, g)

    def f(q, qd, tau):
        wrench = None
        if contact is not None:
            R = robot.fkine(q)[:3, :3]
            w = contact(q, qd)
            we = np.concatenate([R.T @ w[:3], R.T @ w[3:]])        # world -> end-effector axes
            wrench = boundary_conditions(robot, table, g, we)[1].tolist()
        try:
            return forward_dynamics(table, q.tolist(), qd.tolist(), tau, a0, wrench)
        except np.linalg.LinAlgError:
            return accel(robot, q, qd, tau)      # raises accel's error, naming the robot

    for k in range(steps + 1):                   # the controller's clock: one sample per step
        if not (np.isfinite(q).all() and np.isfinite(qd).all()):
            warn_nonfinite(np.concatenate([q, qd]), "simulate",
                           f"the simulation diverged: the state overflowed by t = {t[k]:g} s and "
                           f"is NaN from there on; the law's gains, its torques or dt = {dt:g} "
                           f"are too large for this arm (try a smaller dt or gentler gains)")
            for rec in (Q, QD, TAU, W) + (() if QS is None else (QS,)):
                rec[k:] = np.nan
            break
        tau = getq(law(t[k], q, qd), n, name="law(t, q, qd)")
        Q[k], QD[k], TAU[k] = q, qd, tau
        if contact is not None:
            W[k] = contact(q, qd)
        if QS is not None:
            QS[k] = demand(t[k])[0]
        if k == steps:
            break
        tau = tau.tolist()
        a1 = f(q, qd, tau)
        q2, qd2 = q + dt / 2 * qd, qd + dt / 2 * a1
        a2 = f(q2, qd2, tau)
        q3, qd3 = q + dt / 2 * qd2, qd + dt / 2 * a2
        a3 = f(q3, qd3, tau)
        q4, qd4 = q + dt * qd3, qd + dt * a3
        a4 = f(q4, qd4, tau)
        q = q + dt / 6 * (qd + 2 * qd2 + 2 * qd3 + qd4)
        qd = qd + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    info = {"dt": dt}
    if contact is not None:
        info["wrench"] = W
    return Tracking(t, Q, QD, TAU, info, QS)


def pd_law(robot: DynamicChain, traj: Trajectory, Kp: float | ArrayLike, Kv: float | ArrayLike, *,
           gravity_comp: bool = False) -> Callable[[float, JointVector, JointVector], JointVector]:
    """Independent joint PD control: ``tau = Kp e + Kv edot`` (+ ``gravload(q)`` if ``gravity_comp``).

    ``Kp``, ``Kv`` are scalars or (n,) gains (N m/rad, N m s/rad); ``traj``
    a sampled :class:`~rvc.motion.trajectory.Trajectory` with times ``t``.
    Each joint is controlled alone: the coupling torques are disturbances
    its feedback must reject.

    >>> p560 = rvc.models.puma560()
    >>> law = pd_law(p560, jtraj(p560.qz, p560.qr, np.linspace(0, 1, 11)), 100, 20)
    >>> law(0.0, p560.qz, np.zeros(6))
    array([0., 0., 0., 0., 0., 0.])
    """
    n = robot.n
    Kp, Kv = _gain(Kp, n, "Kp"), _gain(Kv, n, "Kv")
    demand = _Demand(traj, n)

    def law(t, q, qd):
        qs, qds, _ = demand(t)
        tau = Kp * (qs - q) + Kv * (qds - qd)
        return tau + gravload(robot, q) if gravity_comp else tau

    law.demand = demand
    return law


def feedforward_law(model: DynamicChain, traj: Trajectory, Kp: float | ArrayLike, Kv: float | ArrayLike
                    ) -> Callable[[float, JointVector, JointVector], JointVector]:
    r"""Torque feedforward (9.4.1): :math:`Q = \mathcal{D}^{-1}(q^*, \dot q^*, \ddot q^*) + K_p e + K_v \dot e`.

    The model's inverse dynamics along the *demand* supplies the torque the
    motion needs (it could be computed ahead of time); the feedback only
    corrects what the model gets wrong.

    >>> p560 = rvc.models.puma560()
    >>> traj = jtraj(p560.qz, p560.qr, np.linspace(0, 1, 11))
    >>> bool(np.allclose(feedforward_law(p560, traj, 1, 1)(0.0, p560.qz, np.zeros(6)),
    ...                  rne(p560, p560.qz)))
    True
    """
    n = model.n
    Kp, Kv = _gain(Kp, n, "Kp"), _gain(Kv, n, "Kv")
    demand = _Demand(traj, n)

    def law(t, q, qd):
        qs, qds, qdds = demand(t)
        return rne(model, qs, qds, qdds) + Kp * (qs - q) + Kv * (qds - qd)

    law.demand = demand
    return law


def computed_torque_law(model: DynamicChain, traj: Trajectory, Kp: float | ArrayLike, Kv: float | ArrayLike
                        ) -> Callable[[float, JointVector, JointVector], JointVector]:
    r"""Computed torque (9.4.2): :math:`Q = \mathcal{D}^{-1}(q, \dot q,\ \ddot q^* + K_v \dot e + K_p e)`.

    The inverse dynamics at the *measured* state cancels the arm's own
    dynamics (if ``model`` is right), leaving for each joint
    :math:`\ddot e + K_v \dot e + K_p e = 0`: a decoupled linear system of
    natural frequency :math:`\sqrt{K_p}` and damping ratio
    :math:`K_v / (2\sqrt{K_p})`, the same in every configuration.
    (The notes' formula evaluates the velocity and gravity terms at the
    demand; with the measured state, as the toolbox's ``sl_ctorque`` does,
    the cancellation is exact.)

    >>> p560 = rvc.models.puma560()
    >>> law = computed_torque_law(p560, jtraj(p560.qz, p560.qr, np.linspace(0, 1, 11)), 100, 20)
    >>> bool(np.allclose(law(0.0, p560.qz, np.zeros(6)), gravload(p560, p560.qz)))
    True
    """
    n = model.n
    Kp, Kv = _gain(Kp, n, "Kp"), _gain(Kv, n, "Kv")
    demand = _Demand(traj, n)

    def law(t, q, qd):
        qs, qds, qdds = demand(t)
        return rne(model, q, qd, qdds + Kv * (qds - qd) + Kp * (qs - q))

    law.demand = demand
    return law


def table_contact(robot: Chain, height: float, k: float = 5000.0, b: float = 200.0
                  ) -> Callable[[JointVector, JointVector], Twist6]:
    """A horizontal table at ``z = height``: ``contact(q, qd) -> W`` for :func:`simulate`.

    When the tool point is below the surface by ``d`` the table pushes up
    with :math:`F = k d + b\\,\\max(0, -\\dot z)` (never pulling); ``W`` is the
    wrench the end effector exerts on the table, world frame: ``(0, 0, -F, 0, 0, 0)``.

    >>> p560 = rvc.models.puma560()
    >>> table_contact(p560, 0.5)(p560.qz, np.zeros(6)).round(4).tolist()   # 6.82 cm deep
    [0.0, 0.0, -341.0, 0.0, 0.0, 0.0]
    """
    k = getscalar(k, "k")
    b = getscalar(b, "b")
    height = getscalar(height, "height")

    def contact(q, qd):
        d = height - robot.fkine(q)[2, 3]
        if d <= 0:
            return np.zeros(6)
        zd = (jacob0(robot, q) @ qd)[2]
        return np.array([0.0, 0.0, -max(0.0, k * d + b * max(0.0, -zd)), 0.0, 0.0, 0.0])

    return contact


def opspace_law(model: DynamicChain, T_demand: Callable[[float], tuple[SE3, Twist6, Twist6]], *, force: float,
                Kp: float | ArrayLike, Kv: float | ArrayLike, Kf: float = 0.0, Dz: float | None = None,
                contact: Callable[[JointVector, JointVector], Twist6] | None = None, force_axis: int = 2
                ) -> Callable[[float, JointVector, JointVector], JointVector]:
    r"""Operational-space control (9.4.3): position control in some directions, force in one.

    The end effector is treated as one rigid body of inertia
    :math:`\Lambda = (J M^{-1} J^T)^{-1}` (:func:`~rvc.dynamics.cartesian.inertia_x`).
    In the position-controlled directions (selection :math:`\Omega`, all but
    ``force_axis`` of the world frame) the law asks for the acceleration
    :math:`a = \ddot x^* + K_v \dot e + K_p e` (pose error :math:`e`:
    translation, and the rotation error's axis-angle vector); in the
    force direction it applies the wrench :math:`W^*` (``force``, the world
    z component the end effector should exert, e.g. ``-10`` N to press down),
    corrected by ``Kf`` times the measured force error, with damping ``Dz``
    (an acceleration gain, 1/s, turned into a force by the end effector's
    inertia along that axis, :math:`\Lambda_{zz}`; default :math:`2\sqrt{K_{p,z}}`):

    .. math:: Q = J^T\left(\Lambda(\Omega a - \dot J\dot q) + \bar\Omega
              \left(W^* + K_f (W^* - W) - D_z \Lambda_{zz} \dot x\right)\right) + h(q, \dot q),

    where :math:`h = ` ``rne(q, qd, 0)`` compensates gravity, velocity terms
    and friction.  ``T_demand(t) -> (T, v, a)`` gives the desired pose
    (4x4), its spatial velocity and acceleration (6,) (world frame,
    (linear, angular)).  ``contact`` is the environment model whose wrench a
    wrist sensor would measure.  Needs a 6-joint arm away from singularities.

    >>> p560 = rvc.models.puma560()
    >>> T0 = p560.fkine(p560.qn)
    >>> law = opspace_law(p560, lambda t: (T0, np.zeros(6), np.zeros(6)), force=0.0,
    ...                   Kp=100, Kv=20)
    >>> bool(np.allclose(law(0.0, p560.qn, np.zeros(6)), gravload(p560, p560.qn)))
    True
    """
    Kp, Kv = _gain(Kp, 6, "Kp"), _gain(Kv, 6, "Kv")
    force = getscalar(force, "force")
    Kf = getphysical(Kf, "Kf", "gain", nonnegative=True)
    Dz = 2.0 * np.sqrt(Kp[force_axis]) if Dz is None else getphysical(Dz, "Dz", "damping",
                                                                      nonnegative=True)
    getcallable(T_demand, "T_demand", "a function T_demand(t) -> (T, v, a)")
    sel = np.ones(6)
    sel[force_axis] = 0.0

    def law(t, q, qd):
        Td, vd, ad = T_demand(t)
        T = model.fkine(q)
        J = jacob0(model, q)
        v = J @ qd
        e = np.concatenate([Td[:3, 3] - T[:3, 3], vex(trlog(Td[:3, :3] @ T[:3, :3].T))])
        a = ad + Kv * (vd - v) + Kp * e
        Lam = inertia_x(model, q)
        W = np.zeros(6)
        if contact is not None:
            W = contact(q, qd)
        wf = force + Kf * (force - W[force_axis]) - Dz * Lam[force_axis, force_axis] * v[force_axis]
        Fx = Lam @ (sel * a - jacob_dot(model, q, qd)) + (1 - sel) * wf
        return J.T @ Fx + rne(model, q, qd, np.zeros(model.n))

    return law
