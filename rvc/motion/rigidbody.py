"""Chapter 3.2: accelerating bodies, wrenches, inertia and rotating frames.

Conventions
-----------
* Angular velocity ``w`` in Euler's equations is in the **body** frame.
* A wrench is ordered (force, moment) = (fx, fy, fz, mx, my, mz), like the
  spatial velocity (v, w) it pairs with: power = wrench . velocity.
* ``T = ^A T_B`` is the pose of frame B relative to frame A.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from ..checks import getarray, getinertia, getint, getivp, getphysical, getpose, getrotation, getscalar, getvector
from ..results import Result
from ..shapes import SE3, SO3, Inertia, TimeVector, Twist6, Vector3

__all__ = [
    "euler_rhs",
    "RigidBodyMotion",
    "simulate_rigidbody",
    "wrench_transform",
    "inertia_shift",
    "inertia_rotate",
    "RotatingFrameAccel",
    "accel_rotating_frame",
]


def _body_inertia(J, name: str = "J") -> np.ndarray:
    """A rigid body's (3, 3) inertia (:func:`rvc.checks.getinertia`) that is invertible.

    Euler's equations divide by it, so a zero principal moment (a thin rod)
    is refused too.
    """
    J = getinertia(J, name)
    ev = np.linalg.eigvalsh(J)
    if ev[0] <= 0:
        raise ValueError(f"{name}: expected a positive-definite inertia tensor, got smallest "
                         f"principal moment {ev[0]:.3g}")
    return J


def euler_rhs(J: Inertia, w: Vector3, tau: Vector3 | None = None) -> Vector3:
    r"""Angular acceleration from Euler's equations of motion (body frame).

    .. math:: J \dot\omega + \omega \times (J \omega) = \tau
              \quad\Rightarrow\quad \dot\omega = J^{-1}\left(\tau - \omega \times J\omega\right)

    ``J`` is the (3, 3) inertia tensor about the centre of mass in body
    axes, ``w`` the body-frame angular velocity (3,) or (N, 3), ``tau`` the
    body-frame torque (default zero).  Even without torque a body spinning
    about a non-principal axis has :math:`\dot\omega \ne 0`.

    >>> J = np.diag([1.0, 2.0, 3.0])
    >>> euler_rhs(J, [1.0, 0.0, 0.0])             # principal axis: steady spin
    array([0., 0., 0.])
    >>> euler_rhs(J, [1.0, 1.0, 1.0])
    array([-1. ,  1. , -0.33333333])
    """
    J = _body_inertia(J)
    w = getarray(w, "w", shape=(3,))
    tau = np.zeros(3) if tau is None else getarray(tau, "tau", shape=(3,))
    rhs = tau - np.cross(w, w @ J.T)
    return np.linalg.solve(J, rhs[..., None])[..., 0] if rhs.ndim > 1 else np.linalg.solve(J, rhs)


@dataclass(frozen=True, repr=False, eq=False)
class RigidBodyMotion(Result):
    """Result of :func:`simulate_rigidbody`, N samples.

    ``t`` (N,), ``R`` (N, 3, 3) orientation ^A R_B of the body in the world,
    ``w`` (N, 3) body-frame angular velocity, ``L`` (N, 3) angular momentum
    in the world frame :math:`R J \\omega`, ``E`` (N,) kinetic energy
    :math:`\\tfrac12 \\omega^T J \\omega`.
    """

    t: np.ndarray
    R: np.ndarray
    w: np.ndarray
    L: np.ndarray
    E: np.ndarray


def _nearest_rotation(R):
    """Project (..., 3, 3) onto SO(3) (polar decomposition via SVD)."""
    U, _, Vt = np.linalg.svd(R)
    D = np.ones(R.shape[:-1])
    D[..., -1] = np.sign(np.linalg.det(U @ Vt))
    return (U * D[..., None, :]) @ Vt


def simulate_rigidbody(J: Inertia, w0: Vector3, R0: SO3 | None = None, tf: float = 10.0, *,
                       tau: Vector3 | Callable[[float, SO3, Vector3], Vector3] | None = None, n: int = 501,
                       t: TimeVector | None = None, rtol: float = 1e-10, atol: float = 1e-12) -> RigidBodyMotion:
    r"""Simulate a free rigid body's rotation with ``scipy.integrate.solve_ivp``.

    State: the orientation :math:`R = {}^A R_B` (9 numbers) and the body
    angular velocity :math:`\omega` (3), with

    .. math:: \dot R = R [\omega]_\times, \qquad
              \dot\omega = J^{-1}(\tau - \omega \times J\omega)

    integrated by ``RK45`` (``rtol``, ``atol``).  The rotation matrix is
    integrated directly and each output sample is projected onto the nearest
    rotation (SVD), which removes the small drift from orthonormality.

    ``R0`` defaults to the identity; ``tau`` is ``None`` (torque-free), a
    constant body-frame torque (3,) or a function ``tau(t, R, w)``.  Output at
    ``n`` equally spaced times in [0, tf], or at the increasing times ``t``.

    Torque-free, kinetic energy and world-frame angular momentum are
    conserved; spin about the intermediate principal axis is unstable (the
    tumbling box, or Dzhanibekov effect):

    >>> sol = simulate_rigidbody(np.diag([1.0, 2.0, 3.0]), [0.01, 1.0, 0.0], tf=20)
    >>> bool(np.ptp(sol.E) < 1e-8 and np.ptp(sol.L, axis=0).max() < 1e-7)
    True
    >>> bool(sol.w[:, 1].min() < -0.9)        # the spin axis flips over
    True
    """
    J = _body_inertia(J)
    w0 = getvector(w0, "w0", 3)
    R0 = np.eye(3) if R0 is None else getrotation(R0, "R0")
    if R0.shape != (3, 3):
        raise ValueError(f"R0: expected shape (3, 3), got shape {R0.shape}")
    if t is None:
        tf = getscalar(tf, "tf")
        if tf <= 0:
            raise ValueError(f"tf: expected a positive duration, got {tf:g}")
        tv = np.linspace(0.0, tf, getint(n, "n", 2))
    else:
        tv = getvector(t, "t")
        if tv.size < 2 or np.any(np.diff(tv) <= 0):
            raise ValueError("t: expected a strictly increasing time vector of at least 2 samples")
    if tau is None:
        def torque(ti, R, w):
            return 0.0
    elif callable(tau):
        torque = tau
    else:
        tau_c = getvector(tau, "tau", 3)

        def torque(ti, R, w):
            return tau_c

    Jinv = np.linalg.inv(J)

    def f(ti, y):
        R = y[:9].reshape(3, 3)
        w = y[9:]
        Rd = np.cross(R, w)  # R [w]x, row by row: r_i x w
        wd = Jinv @ (np.asarray(torque(ti, R, w), dtype=float) - np.cross(w, J @ w))
        return np.concatenate([Rd.ravel(), wd])

    res = solve_ivp(f, (tv[0], tv[-1]), np.concatenate([R0.ravel(), w0]), t_eval=tv,
                    **getivp("RK45", rtol, atol))
    if not res.success:  # pragma: no cover - RK45 on a smooth ODE
        raise RuntimeError(f"simulate_rigidbody: integration failed: {res.message}")
    R = _nearest_rotation(res.y[:9].T.reshape(-1, 3, 3))
    w = res.y[9:].T
    Jw = w @ J.T
    L = np.einsum("nij,nj->ni", R, Jw)
    E = 0.5 * np.sum(w * Jw, axis=1)
    return RigidBodyMotion(res.t, R, w, L, E)


def wrench_transform(T: SE3, wrench: Twist6, check: bool = True) -> Twist6:
    r"""Express a wrench given in frame A in frame B, where ``T`` = :math:`{}^A T_B`.

    .. math::
        {}^B w = \mathrm{Ad}({}^A T_B)^T\, {}^A w, \qquad
        {}^B f = R^T\, {}^A f, \quad {}^B m = R^T ({}^A m - t \times {}^A f)

    with wrench = (f, m) ordered (force, moment), the moment taken about
    each frame's origin.  It is the transpose of the velocity adjoint
    (:math:`{}^A v = \mathrm{Ad}({}^A T_B)\, {}^B v`), so the power
    :math:`w \cdot v` is the same in both frames.  For the opposite
    direction, :math:`{}^A w = \mathrm{Ad}({}^A T_B)^{-T}\, {}^B w`, pass
    ``trinv(T)``.  Batched: ``T`` (..., 4, 4), ``wrench`` (..., 6).

    A 1 N force along x at A's origin, seen from B one metre up z:

    >>> T = np.eye(4); T[2, 3] = 1.0
    >>> wrench_transform(T, [1, 0, 0, 0, 0, 0])
    array([ 1.,  0.,  0.,  0., -1.,  0.])
    """
    T = getpose(T, "T", check=check)
    w = getarray(wrench, "wrench", shape=(6,))
    R = T[..., :3, :3]
    t = T[..., :3, 3]
    f, m = w[..., :3], w[..., 3:]
    Rt = np.swapaxes(R, -1, -2)
    fB = np.einsum("...ij,...j->...i", Rt, f)
    mB = np.einsum("...ij,...j->...i", Rt, m - np.cross(t, f))
    return np.concatenate(np.broadcast_arrays(fB, mB), axis=-1)


def inertia_shift(J_c: Inertia, m: float, r: Vector3) -> Inertia:
    r"""Inertia about a point displaced by ``r`` from the centre of mass (parallel axes).

    .. math:: J_P = J_C + m\left( (r \cdot r) I_3 - r r^T \right)

    ``J_c`` is the (3, 3) inertia about the centre of mass, ``m`` > 0 the
    mass, ``r`` (3,) or (N, 3) the position of the new point relative to the
    centre of mass, in the same axes as ``J_c``.

    >>> inertia_shift(np.diag([1.0, 1.0, 1.0]), 2.0, [0, 0, 1])
    array([[3., 0., 0.],
           [0., 3., 0.],
           [0., 0., 1.]])
    """
    J = _body_inertia(J_c, "J_c")
    m = getphysical(m, "m", "mass", positive=True)
    r = getarray(r, "r", shape=(3,))
    rr = np.sum(r * r, axis=-1)[..., None, None]
    return J + m * (rr * np.eye(3) - r[..., :, None] * r[..., None, :])


def inertia_rotate(J: Inertia, R: SO3, check: bool = True) -> Inertia:
    r"""Inertia tensor expressed in rotated axes: :math:`{}^A J = R\, {}^B J\, R^T`.

    ``J`` is given in frame B's axes, ``R`` = :math:`{}^A R_B` (3, 3) or
    (N, 3, 3).  The principal moments (eigenvalues) do not change.

    >>> np.round(inertia_rotate(np.diag([1.0, 2.0, 3.0]), np.array([[0., -1, 0], [1, 0, 0], [0, 0, 1]])), 6)
    array([[2., 0., 0.],
           [0., 1., 0.],
           [0., 0., 3.]])
    """
    J = _body_inertia(J)
    R = getrotation(R, "R", check=check)
    return R @ J @ np.swapaxes(R, -1, -2)


@dataclass(frozen=True, repr=False, eq=False)
class RotatingFrameAccel(Result):
    """Terms of :func:`accel_rotating_frame`; each has the shape of ``r``.

    ``inertial = origin + relative + coriolis + centripetal + euler``.
    """

    inertial: np.ndarray
    relative: np.ndarray
    coriolis: np.ndarray
    centripetal: np.ndarray
    euler: np.ndarray
    origin: np.ndarray


def accel_rotating_frame(r: Vector3, v_rel: Vector3, a_rel: Vector3, omega: Vector3, alpha: Vector3 | None = None,
                         a0: Vector3 | None = None) -> RotatingFrameAccel:
    r"""Inertial acceleration of a point described in a rotating (non-inertial) frame.

    Frame B rotates with angular velocity :math:`\omega` and angular
    acceleration :math:`\alpha` relative to an inertial frame A, and its origin
    accelerates at :math:`a_0`.  A point at ``r`` in B moves with velocity
    ``v_rel`` and acceleration ``a_rel`` *as seen in B*.  Its acceleration in
    A is

    .. math::
        a_A = a_0 + a_{rel} + \underbrace{2\,\omega \times v_{rel}}_{\text{Coriolis}}
              + \underbrace{\omega \times (\omega \times r)}_{\text{centripetal}}
              + \underbrace{\alpha \times r}_{\text{Euler}}

    All vectors in one set of axes (usually B's); the result is in the same
    axes.  An observer in B who writes :math:`m a_{rel} = F` must add the
    fictitious forces :math:`-2m\,\omega\times v_{rel}` (Coriolis),
    :math:`-m\,\omega\times(\omega\times r)` (centrifugal) and
    :math:`-m\,\alpha\times r` (Euler).  Returns a
    :class:`RotatingFrameAccel` with the terms separately; inputs broadcast
    over leading dimensions.

    A point at rest 1 m from the axis of a frame spinning at 2 rad/s is
    accelerated 4 m/s^2 towards the axis:

    >>> acc = accel_rotating_frame([1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 2])
    >>> acc.centripetal, acc.inertial
    (array([-4.,  0.,  0.]), array([-4.,  0.,  0.]))
    """
    r = getarray(r, "r", shape=(3,))
    v = getarray(v_rel, "v_rel", shape=(3,))
    a = getarray(a_rel, "a_rel", shape=(3,))
    w = getarray(omega, "omega", shape=(3,))
    al = np.zeros(3) if alpha is None else getarray(alpha, "alpha", shape=(3,))
    o = np.zeros(3) if a0 is None else getarray(a0, "a0", shape=(3,))
    try:
        shape = np.broadcast_shapes(r.shape, v.shape, a.shape, w.shape, al.shape, o.shape)
    except ValueError:
        raise ValueError("r, v_rel, a_rel, omega, alpha, a0: expected shapes that broadcast, got "
                         f"{r.shape}, {v.shape}, {a.shape}, {w.shape}, {al.shape}, {o.shape}") from None
    cor = 2 * np.cross(w, v)
    cen = np.cross(w, np.cross(w, r))
    eul = np.cross(al, r)
    b = [np.broadcast_to(x, shape).copy() for x in (a, cor, cen, eul, o)]
    total = b[4] + b[0] + b[1] + b[2] + b[3]
    return RotatingFrameAccel(total, b[0], b[1], b[2], b[3], b[4])
