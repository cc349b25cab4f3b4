r"""Joint actuators and independent joint control (Chapters 9.1 and 9.5.1).

A joint is a motor (torque constant :math:`K_m`, rotor inertia
:math:`J_m`, viscous friction :math:`B_m`, Coulomb friction
:math:`\tau_c^\pm`) driven through an amplifier (:math:`i_m = K_a u`) and a
gearbox of ratio :math:`G` (:class:`Motor`).  On the motor shaft, with the
link's inertia reflected through the gearbox,

.. math:: J'\dot\omega + B'\omega = K_m K_a u - \tau_d, \qquad
          J' = J_m + \frac{J_l}{G^2}, \qquad
          \frac{\Omega(s)}{U(s)} = \frac{K_m K_a}{J' s + B'} ,

where :math:`\tau_d` is the disturbance torque (gravity and coupling,
divided by :math:`G`).  :func:`jointdynamics` gives each joint's
:math:`1/(J's + B')` at a configuration, :func:`vloop` and :func:`ploop`
simulate the notes' velocity and position loops (``vloop_test``,
``ploop_test``) as discrete-time loops with the plant integrated exactly
over each sample period (zero-order hold), and :func:`vloop_tf` gives the
closed velocity loop's transfer function.  :func:`sea` simulates a
series-elastic actuator (9.5.1).

>>> m = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
>>> motor_tf(m, J=580e-6).poles.round(4)                 # -B/J
array([-1.4086])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import signal

from ..checks import getarray, getcoulomb, getphysical, getq, getscalar, getvector
from ..results import Result
from ..shapes import ArrayLike, JointVector, TimeVector
from .matrices import inertia
from .params import DynamicChain, dynparams

__all__ = ["Motor", "motor_tf", "JointDynamics", "jointdynamics", "LoopResponse", "vloop",
           "vloop_tf", "ploop", "SEAResponse", "sea"]


@dataclass(frozen=True, repr=False, eq=False)
class Motor(Result):
    """A joint's motor, amplifier and gearbox (SI units, motor side).

    ``Km`` torque constant (N m/A), ``Ka`` amplifier transconductance (A/V),
    ``Jm`` rotor inertia (kg m²), ``B`` viscous friction (N m s/rad),
    ``Tc = (Tc+, Tc-)`` Coulomb friction (N m), ``G`` gear ratio,
    ``tau_max`` largest motor torque (N m), ``qd_max`` largest motor speed
    (rad/s).  Unpacks as ``Km, Jm, B, G``.

    Every parameter is checked by the one rule for physical parameters
    (:func:`rvc.checks.getphysical`): ``Km``, ``Ka``, ``tau_max`` and
    ``qd_max`` positive, ``Jm`` and ``B`` non-negative, ``G`` non-zero (it
    may be negative), ``Tc+ >= 0 >= Tc-``.

    >>> Motor(Km=0.228, Jm=-200e-6, B=817e-6)
    Traceback (most recent call last):
    ...
    ValueError: Jm: expected a non-negative rotor inertia, got -0.0002
    """

    unpack = ("Km", "Jm", "B", "G")

    Km: float
    Jm: float
    B: float
    G: float = 1.0
    Ka: float = 1.0
    Tc: tuple = (0.0, 0.0)
    tau_max: float = np.inf
    qd_max: float = np.inf
    name: str = ""

    def __post_init__(self):
        for key, what, rule in _MOTOR_RULES:
            value = getattr(self, key)
            if key in ("tau_max", "qd_max") and value == np.inf:
                continue
            object.__setattr__(self, key, getphysical(value, key, what, **{rule: True}))
        object.__setattr__(self, "Tc", tuple(float(x) for x in getcoulomb(self.Tc, "Tc")))
        if not isinstance(self.name, str):
            raise TypeError(f"name: expected a str, got {type(self.name).__name__}")


#: Motor parameters and their rule (:func:`rvc.checks.getphysical`).
_MOTOR_RULES = (("Km", "torque constant", "positive"), ("Jm", "rotor inertia", "nonnegative"),
                ("B", "viscous friction", "nonnegative"), ("G", "gear ratio", "nonzero"),
                ("Ka", "amplifier gain", "positive"), ("tau_max", "torque limit", "positive"),
                ("qd_max", "speed limit", "positive"))


def motor_tf(motor: Motor, J: float | None = None) -> signal.TransferFunction:
    """Motor speed over amplifier input, :math:`K_m K_a / (J s + B)` (``J`` defaults to ``Jm``).

    >>> motor_tf(Motor(Km=1.0, Jm=2.0, B=4.0)).poles
    array([-2.])
    """
    if not isinstance(motor, Motor):
        raise TypeError(f"motor: expected a Motor, e.g. Motor(Km=0.228, Jm=200e-6, B=817e-6), "
                        f"got {type(motor).__name__}")
    J = motor.Jm if J is None else getscalar(J, "J")
    return signal.TransferFunction([motor.Km * motor.Ka], [J, motor.B])


@dataclass(frozen=True, repr=False, eq=False)
class JointDynamics(Result):
    """Each joint's motor-side model :math:`1/(J_j s + B_j)`: ``J`` (n,), ``B`` (n,).

    ``jd[j]`` is joint j's :class:`scipy.signal.TransferFunction` (0-based,
    the notes' ``tf(2)`` is ``jd[1]``); ``jd.tf`` lists all of them.
    """

    unpack = ("J", "B")

    J: np.ndarray
    B: np.ndarray

    def __getitem__(self, j) -> signal.TransferFunction:
        return signal.TransferFunction([1.0], [self.J[j], self.B[j]])

    def __len__(self) -> int:
        return len(self.J)

    @property
    def tf(self) -> list:
        """The n transfer functions."""
        return [self[j] for j in range(len(self.J))]


def jointdynamics(robot: DynamicChain, q: JointVector, qd: JointVector | None = None) -> JointDynamics:
    r"""Motor-side transfer function :math:`1/(J_j s + B_j)` of every joint at ``q``.

    :math:`J_j = M_{jj}(q)/G_j^2`, the inertia the motor feels: its own rotor
    (``inertia`` includes :math:`G_j^2 J_{m,j}` on its diagonal) plus the
    links reflected through the gearbox, :math:`J_m + M^{link}_{jj}/G^2`.
    :math:`B_j` is the motor's viscous friction, plus the Coulomb friction
    linearised at the motor's speed :math:`|G_j|\dot q_j`,
    :math:`\tau_c^\pm/(|G_j|\dot q_j)`, when ``qd`` is given: the branch
    follows the joint speed, as in :func:`rvc.dynamics.friction.friction`, so the
    term is positive (friction damps) whatever the sign of the gear ratio.
    (Both toolboxes compute :math:`J_m + M_{jj}/G^2`, counting the rotor
    twice since their :math:`M` includes it too.)

    >>> p560 = rvc.models.puma560()
    >>> jd = jointdynamics(p560, p560.qn)
    >>> round(float(jd.J[1]) * 1e6, 1), jd[1].poles.round(4)    # J in 1e-6 kg m^2, -B/J
    (379.7, array([-2.1517]))
    """
    P = dynparams(robot)
    qa = getq(q, robot.n, robot.revolute)
    if qa.ndim != 1:
        raise ValueError(f"q: expected one configuration ({robot.n},), got shape {qa.shape}")
    J = np.diag(inertia(robot, qa)) / P.G**2
    B = P.B.copy()
    if qd is not None:
        qd = getq(qd, robot.n, name="qd")
        wm = np.abs(P.G) * qd                  # |G|: the Puma's joint 1 has G < 0
        Tc = np.where(qd > 0, P.Tc[:, 0], P.Tc[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            B = np.where(qd != 0, B + Tc / wm, B)
    return JointDynamics(J, B)


@dataclass(frozen=True, repr=False, eq=False)
class LoopResponse(Result):
    """A simulated control loop: times ``t``, output ``y``, ``demand``, motor ``torque``.

    For :func:`vloop` the output is the motor speed (rad/s); for
    :func:`ploop` the joint angle (rad).  ``error = demand - y``.  ``info``
    holds the other signals (``omega``, ``theta``...).  Unpacks as
    ``t, y, demand``.
    """

    unpack = ("t", "y", "demand")

    t: np.ndarray
    y: np.ndarray
    demand: np.ndarray
    torque: np.ndarray
    info: dict = field(default_factory=dict)

    @property
    def error(self) -> np.ndarray:
        """``demand - y``."""
        return self.demand - self.y


def _signal(x, t, name):
    a = getarray(x, name)
    if a.ndim == 0:
        return np.full(t.shape, float(a))
    a = getvector(a, name)
    if a.shape != t.shape:
        raise ValueError(f"{name}: expected a scalar or one value per time step {t.shape}, "
                         f"got shape {a.shape}")
    return a


def _time(t):
    t = getvector(t, "t")
    if t.size < 2 or np.any(np.diff(t) <= 0):
        raise ValueError("t: expected at least 2 equally spaced, increasing times")
    dt = float(t[1] - t[0])
    if not np.allclose(np.diff(t), dt, rtol=1e-6, atol=0):
        raise ValueError("t: expected equally spaced times (a fixed sample period)")
    return t, dt


def _zoh(J, B, dt):
    r"""Exact one-step coefficients of J w' + B w = tau under a held tau:
    w+ = a w + b tau, theta+ = theta + c w + d tau.

    With :math:`x = B\,\delta t / J`: :math:`a = e^{-x}`, :math:`c = \delta t\,\varphi_1(x)`,
    :math:`b = c / J`, :math:`d = \delta t^2 \varphi_2(x) / J`, where
    :math:`\varphi_1 = (1 - e^{-x})/x` and :math:`\varphi_2 = (x - 1 + e^{-x})/x^2`, written so
    that neither loses digits as B -> 0 (``expm1``, and the series of :math:`\varphi_2` below
    x = 0.1); at B = 0 they are 1, dt / J, dt and dt^2 / (2 J).
    """
    x = B * dt / J
    if x == 0:
        return 1.0, dt / J, dt, dt**2 / (2 * J)
    phi1 = -np.expm1(-x) / x
    if x < 0.1:                     # sum of (-x)^k / (k + 2)!, k = 0..10 (the rest < 1e-17)
        phi2, term = 0.0, 0.5
        for k in range(11):
            phi2, term = phi2 + term, -term * x / (k + 3)
    else:
        phi2 = (x + np.expm1(-x)) / x**2
    return float(np.exp(-x)), dt / J * phi1, dt * phi1, dt**2 / J * phi2


def _gains(motor, J, Kv, Ki):
    if not isinstance(motor, Motor):
        raise TypeError(f"motor: expected a Motor, e.g. Motor(Km=0.228, Jm=200e-6, B=817e-6), "
                        f"got {type(motor).__name__}")
    J = motor.Jm if J is None else getscalar(J, "J")
    if J <= 0:
        raise ValueError(f"J: expected a positive inertia, got {J:g}")
    return (J, getphysical(Kv, "Kv", "gain (negative feedback needs Kv >= 0)", nonnegative=True),
            getphysical(Ki, "Ki", "gain (negative feedback needs Ki >= 0)", nonnegative=True))


def vloop(motor: Motor, demand: float | ArrayLike, t: TimeVector, Kv: float, Ki: float = 0.0, *,
          J: float | None = None, tau_d: float | ArrayLike = 0.0, tau_ff: float | ArrayLike | None = None
          ) -> LoopResponse:
    r"""Simulate the velocity loop of one joint (the notes' ``vloop_test``).

    Each sample period the controller sets the amplifier input
    :math:`u = K_v e + K_i \int e\,dt + \tau_{ff}/(K_m K_a)` from the speed
    error :math:`e = \omega^* - \omega`; the motor torque
    :math:`K_m K_a u` is limited to :math:`\pm` ``tau_max``, and the shaft obeys
    :math:`J\dot\omega + B\omega = \tau_m - \tau_d`, integrated exactly over
    the period.  ``demand``, ``tau_d`` and ``tau_ff`` are scalars or one value
    per time in ``t`` (equally spaced); ``J`` is the total inertia on the
    shaft (default ``motor.Jm``).  The three remedies for the error a
    disturbance leaves under P control: a larger ``Kv``, an integral term
    ``Ki``, or the disturbance fed forward, ``tau_ff = tau_d``.

    >>> m = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
    >>> t = np.arange(0, 0.2, 1e-3)
    >>> r = vloop(m, 50.0, t, Kv=0.6, J=580e-6)
    >>> round(float(r.y[-1]), 2)                       # P control: a small steady error
    49.7
    """
    t, dt = _time(t)
    J, Kv, Ki = _gains(motor, J, Kv, Ki)
    wd = _signal(demand, t, "demand")
    td = _signal(tau_d, t, "tau_d")
    ff = np.zeros_like(t) if tau_ff is None else _signal(tau_ff, t, "tau_ff")
    K = motor.Km * motor.Ka
    a, b, _, _ = _zoh(J, motor.B, dt)
    w = np.zeros_like(t)
    tau = np.zeros_like(t)
    integral = 0.0
    for k in range(len(t)):                      # a feedback loop runs sample by sample
        e = wd[k] - w[k]
        u = Kv * e + Ki * integral + ff[k] / K
        tau[k] = np.clip(K * u, -motor.tau_max, motor.tau_max)
        integral += e * dt
        if k + 1 < len(t):
            w[k + 1] = a * w[k] + b * (tau[k] - td[k])
    return LoopResponse(t, w, wd, tau, info={"tau_d": td, "Kv": Kv, "Ki": Ki, "J": J})


def vloop_tf(motor: Motor, Kv: float, Ki: float = 0.0, *, J: float | None = None) -> signal.TransferFunction:
    r"""Closed velocity loop :math:`\Omega/\Omega^*` without torque limit.

    With :math:`K = K_m K_a` and the controller :math:`K_v + K_i/s`,

    .. math:: \frac{\Omega}{\Omega^*} = \frac{K (K_v s + K_i)}{J s^2 + (B + K K_v) s + K K_i} ,

    so under P control (:math:`K_i = 0`) the steady-state gain
    :math:`K K_v/(B + K K_v)` is below 1, and any :math:`K_i > 0` makes it 1.

    >>> m = Motor(Km=0.228, Jm=200e-6, B=817e-6)
    >>> tf = vloop_tf(m, 0.6, J=580e-6)
    >>> round(float(tf.num[-1] / tf.den[-1]), 4)
    0.9941
    """
    J, Kv, Ki = _gains(motor, J, Kv, Ki)
    K = motor.Km * motor.Ka
    if Ki == 0:
        return signal.TransferFunction([K * Kv], [J, motor.B + K * Kv])
    return signal.TransferFunction([K * Kv, K * Ki], [J, motor.B + K * Kv, K * Ki])


def ploop(motor: Motor, q_demand: float | ArrayLike, t: TimeVector, Kp: float, Kv: float, Ki: float = 0.0, *,
          J: float | None = None, tau_d: float | ArrayLike = 0.0, qd_demand: float | ArrayLike | None = None,
          tau_ff: float | ArrayLike | None = None) -> LoopResponse:
    r"""Simulate the position loop of one joint around its velocity loop (``ploop_test``).

    The outer loop turns the joint-angle error into a motor-speed demand,
    :math:`\omega^* = K_p G (q^* - q) + G\dot q^*` (the last term, velocity
    feedforward, when ``qd_demand`` is given), and the inner loop is
    :func:`vloop`'s.  The joint angle is the motor angle over ``G``.
    Returns the joint angle as ``y``; ``info["omega"]`` the motor speed.

    >>> m = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
    >>> t = np.arange(0, 1, 1e-3)
    >>> r = ploop(m, 0.5, t, Kp=20, Kv=0.6, J=580e-6)
    >>> round(float(r.y[-1]), 4)
    0.5
    """
    t, dt = _time(t)
    J, Kv, Ki = _gains(motor, J, Kv, Ki)
    Kp = getphysical(Kp, "Kp", "gain (negative feedback needs Kp >= 0)", nonnegative=True)
    qs = _signal(q_demand, t, "q_demand")
    qds = np.zeros_like(t) if qd_demand is None else _signal(qd_demand, t, "qd_demand")
    td = _signal(tau_d, t, "tau_d")
    ff = np.zeros_like(t) if tau_ff is None else _signal(tau_ff, t, "tau_ff")
    K, G = motor.Km * motor.Ka, motor.G
    a, b, c, d = _zoh(J, motor.B, dt)
    w = np.zeros_like(t)
    th = np.zeros_like(t)
    tau = np.zeros_like(t)
    wd = np.zeros_like(t)
    integral = 0.0
    for k in range(len(t)):                      # sample by sample, as a controller runs
        wd[k] = Kp * G * (qs[k] - th[k] / G) + G * qds[k]
        e = wd[k] - w[k]
        u = Kv * e + Ki * integral + ff[k] / K
        tau[k] = np.clip(K * u, -motor.tau_max, motor.tau_max)
        integral += e * dt
        if k + 1 < len(t):
            w[k + 1] = a * w[k] + b * (tau[k] - td[k])
            th[k + 1] = th[k] + c * w[k] + d * (tau[k] - td[k])
    return LoopResponse(t, th / G, qs, tau, info={"omega": w, "omega_demand": wd, "tau_d": td})


@dataclass(frozen=True, repr=False, eq=False)
class SEAResponse(Result):
    """A simulated series-elastic actuator: ``t``, motor and load positions, forces.

    ``spring_force`` is the force the spring transmits (what the actuator
    controls), ``contact_force`` the force between the load and the wall,
    ``motor_force`` the motor's command.  Unpacks as ``t, spring_force, contact_force``.
    """

    unpack = ("t", "spring_force", "contact_force")

    t: np.ndarray
    x_motor: np.ndarray
    x_load: np.ndarray
    spring_force: np.ndarray
    contact_force: np.ndarray
    motor_force: np.ndarray
    demand: np.ndarray


def sea(t: TimeVector, speed: float, *, k: float, b: float | None = None, m_motor: float = 2.0,
        m_load: float = 0.5, b_motor: float = 1.0, Kp: float = 400.0, Kd: float = 40.0, wall: float = 0.05,
        k_wall: float = 2e4, b_wall: float = 20.0) -> SEAResponse:
    r"""Simulate a series-elastic actuator that drives its load into a wall (9.5.1).

    A motor of (reflected) mass ``m_motor`` and damping ``b_motor`` drives a
    load ``m_load`` through a spring of stiffness ``k`` and damping ``b``
    (default :math:`\sqrt{k m_l}`, half-critical).  The motor follows
    the position demand :math:`x^* = v t` (``speed`` v) under PD control,
    :math:`u = K_p (x^* - x_m) + K_d (v - \dot x_m)`; the load starts at rest
    at 0 and meets a wall at ``wall`` (stiffness ``k_wall``, damping
    ``b_wall``; it only pushes):

    .. math:: m_m \ddot x_m = u - F_s - b_m \dot x_m, \qquad
              m_l \ddot x_l = F_s - F_{wall}, \qquad
              F_s = k (x_m - x_l) + b (\dot x_m - \dot x_l).

    The spring's deflection measures the force it transmits (``spring_force``),
    which is how an SEA senses and controls force.  A soft spring isolates
    the load from the motor: at the impact only the load's own momentum hits
    the wall and the force then grows at the rate :math:`k v`, leaving time to
    react; with a stiff spring (a rigid actuator) the motor's inertia and the
    position loop hit the wall too.  Integrated by semi-implicit Euler at the
    (fine, equal) steps of ``t``; ``motor_force`` is ``u``, ``demand`` is ``x*``.

    >>> t = np.arange(0, 0.3, 1e-4)
    >>> soft, stiff = sea(t, 0.5, k=300.0), sea(t, 0.5, k=3e4)
    >>> bool(soft.contact_force.max() < stiff.contact_force.max())
    True
    """
    t, dt = _time(t)
    v = getscalar(speed, "speed")
    k = getphysical(k, "k", "spring stiffness", positive=True)
    m_motor = getphysical(m_motor, "m_motor", "mass", positive=True)
    m_load = getphysical(m_load, "m_load", "mass", positive=True)
    b_motor = getphysical(b_motor, "b_motor", "damping", nonnegative=True)
    k_wall = getphysical(k_wall, "k_wall", "wall stiffness", nonnegative=True)
    b_wall = getphysical(b_wall, "b_wall", "wall damping", nonnegative=True)
    b = np.sqrt(k * m_load) if b is None else getphysical(b, "b", "spring damping",
                                                          nonnegative=True)
    xs = v * (t - t[0])
    N = len(t)
    xm = np.zeros(N)
    xl = np.zeros(N)
    Fs = np.zeros(N)
    Fc = np.zeros(N)
    U = np.zeros(N)
    vm = vl = 0.0
    for i in range(N):                            # a feedback loop, sample by sample
        Fs[i] = k * (xm[i] - xl[i]) + b * (vm - vl)
        pen = xl[i] - wall
        Fc[i] = max(0.0, k_wall * pen + b_wall * vl) if pen > 0 else 0.0
        U[i] = Kp * (xs[i] - xm[i]) + Kd * (v - vm)
        if i + 1 < N:
            vm += dt * (U[i] - Fs[i] - b_motor * vm) / m_motor
            vl += dt * (Fs[i] - Fc[i]) / m_load
            xm[i + 1] = xm[i] + dt * vm
            xl[i + 1] = xl[i] + dt * vl
    return SEAResponse(t, xm, xl, Fs, Fc, U, xs)
