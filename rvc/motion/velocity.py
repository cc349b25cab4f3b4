"""Chapter 3.1: time-varying pose, velocity transforms and incremental motion.

Spatial velocity is ordered (linear, angular): ``v = (vx, vy, vz, wx, wy, wz)``.
``T = ^A T_B`` is the pose of frame B relative to frame A; ``R = ^A R_B``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import getangle, getarray, getoption, getpose, getrotation, getunit, putangle, warn_singular
from ..results import Result
from ..spatial.expmap import skew, skewa, trexp, vex
from ..spatial.transforms3d import trinv
from ..spatial.twist import Ad
from ..shapes import SE3, SO3, Twist6, Vector3

__all__ = [
    "dotR",
    "dotT",
    "tr2jac",
    "delta2r",
    "delta2tr",
    "tr2delta",
    "IncrementalRotation",
    "incremental_rotation",
    "rpy2jac",
    "eul2jac",
    "rpydot",
    "euldot",
]


def dotR(R: SO3, omega: Vector3, frame: str = "world", check: bool = True) -> SO3:
    r"""Time derivative of a rotation matrix.

    .. math:: {}^A\dot R_B = [{}^A\omega]_\times\, {}^A R_B
              \qquad\text{or, with body-frame } {}^B\omega:\quad
              {}^A\dot R_B = {}^A R_B\, [{}^B\omega]_\times

    ``frame="world"`` (default) takes :math:`\omega` in frame A, as the notes
    do; ``frame="body"`` in frame B.  Batched: ``R`` (..., 3, 3), ``omega``
    (..., 3).

    >>> dotR(np.eye(3), [0, 0, 1])
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  0.]])
    """
    R = getrotation(R, "R", check=check)
    w = getarray(omega, "omega", shape=(3,))
    frame = getoption(frame, "frame", ("world", "body"))
    return skew(w) @ R if frame == "world" else R @ skew(w)


def dotT(T: SE3, v: Twist6, check: bool = True) -> np.ndarray:
    r"""Time derivative of a pose, from the spatial velocity ``v = (v, w)`` in frame A.

    .. math:: {}^A\dot T_B = \begin{pmatrix} [{}^A\omega]_\times\, {}^A R_B & {}^A\dot t_B \\
              0_{1\times3} & 0 \end{pmatrix}

    where :math:`v = {}^A\dot t_B` is the velocity of B's origin and
    :math:`\omega` the angular velocity, both in frame A (the notes' 3.1.1).
    Batched: ``T`` (..., 4, 4), ``v`` (..., 6).

    >>> T = np.eye(4); T[0, 3] = 1.0
    >>> dotT(T, [0.5, 0, 0, 0, 0, 1])
    array([[ 0. , -1. ,  0. ,  0.5],
           [ 1. ,  0. ,  0. ,  0. ],
           [ 0. ,  0. ,  0. ,  0. ],
           [ 0. ,  0. ,  0. ,  0. ]])
    """
    T = getpose(T, "T", check=check)
    v = getarray(v, "v", shape=(6,))
    shape = np.broadcast_shapes(T.shape[:-2], v.shape[:-1])
    out = np.zeros(shape + (4, 4))
    out[..., :3, :3] = skew(v[..., 3:]) @ T[..., :3, :3]
    out[..., :3, 3] = v[..., :3]
    return out


def tr2jac(T: SE3, samebody: bool = False, check: bool = True) -> np.ndarray:
    r"""Velocity transform (6, 6) from frame B to frame A, ``T`` = :math:`{}^A T_B`.

    .. math::
        {}^A v = \begin{pmatrix} R & 0 \\ 0 & R \end{pmatrix} {}^B v
        \qquad\text{(default: the same velocity in rotated axes)}

    .. math::
        {}^A v = \mathrm{Ad}({}^A T_B)\, {}^B v = \begin{pmatrix} R & [t]_\times R \\ 0 & R
        \end{pmatrix} {}^B v \qquad (\texttt{samebody=True})

    With ``samebody=True`` the two frames are fixed to the same rigid body,
    and the result is the velocity of the point at A's origin (the notes'
    :math:`{}^C v = \mathrm{Ad}({}^C\xi_B)\, {}^B v`).  As spatialmath-python's
    ``tr2jac``; MATLAB's ``tr2jac`` maps the other way, A to B (its transpose, or
    :math:`\mathrm{Ad}(T^{-1})` with ``'samebody'``).  Batched over (..., 4, 4).

    >>> T = np.eye(4); T[:3, 3] = [1, 0, 0]
    >>> tr2jac(T, samebody=True) @ [0, 0, 0, 0, 0, 1]   # spin about B's z: A's origin moves -y
    array([ 0., -1.,  0.,  0.,  0.,  1.])
    """
    T = getpose(T, "T", check=check)
    if samebody:
        return Ad(T, check=False)
    R = T[..., :3, :3]
    J = np.zeros(T.shape[:-2] + (6, 6))
    J[..., :3, :3] = R
    J[..., 3:, 3:] = R
    return J


def delta2r(d: Vector3) -> np.ndarray:
    r"""First-order incremental rotation :math:`R \approx I_3 + [\delta\theta]_\times`.

    Not exactly a rotation: :math:`R^T R = I - [\delta\theta]_\times^2`, off
    by :math:`O(|\delta\theta|^2)`; see :func:`incremental_rotation`.
    Batched over (..., 3).

    >>> delta2r([0, 0, 0.01])
    array([[ 1.  , -0.01,  0.  ],
           [ 0.01,  1.  ,  0.  ],
           [ 0.  ,  0.  ,  1.  ]])
    """
    d = getarray(d, "d", shape=(3,))
    return np.eye(3) + skew(d)


@dataclass(frozen=True, repr=False, eq=False)
class IncrementalRotation(Result):
    """Result of :func:`incremental_rotation`."""

    approx: np.ndarray  #: I + [d]x
    exact: np.ndarray  #: exp([d]x)
    error: np.ndarray  #: Frobenius norm of approx - exact
    ortho_error: np.ndarray  #: Frobenius norm of approx^T approx - I


def incremental_rotation(d: Vector3, unit: str = "rad") -> IncrementalRotation:
    r"""Compare the incremental rotation :math:`I + [\delta\theta]_\times` with the exact one.

    .. math::
        e^{[\delta\theta]_\times} = I + [\delta\theta]_\times
        + \tfrac12 [\delta\theta]_\times^2 + \dots

    so the first-order form is wrong by about
    :math:`\tfrac{1}{\sqrt 2}|\delta\theta|^2` (Frobenius norm), and is
    orthonormal only to :math:`\|R^T R - I\| = \sqrt2 |\delta\theta|^2`.
    Returns an :class:`IncrementalRotation` (``approx``, ``exact``, ``error``,
    ``ortho_error``); batched over (..., 3).

    >>> r = incremental_rotation([0, 0, 0.01])
    >>> float(r.error), float(r.ortho_error)
    (7.0710...e-05, 0.000141421...)
    """
    d = getangle(getarray(d, "d", shape=(3,)), "d", getunit(unit))
    approx = delta2r(d)
    exact = trexp(d)
    err = np.linalg.norm(approx - exact, axis=(-2, -1))
    ortho = np.linalg.norm(np.swapaxes(approx, -1, -2) @ approx - np.eye(3), axis=(-2, -1))
    return IncrementalRotation(approx, exact, err, ortho)


def delta2tr(d: Twist6) -> np.ndarray:
    r"""Pose of a small (incremental) motion.

    :math:`\Delta = (\delta_x, \delta_y, \delta_z, \delta\theta_x, \delta\theta_y, \delta\theta_z)`:

    .. math:: T \approx I_4 + \begin{pmatrix} [\delta\theta]_\times & \delta_t \\ 0 & 0 \end{pmatrix}

    a first-order approximation (its rotation part is not exactly
    orthonormal).  Inverse of :func:`tr2delta` to first order.  Batched over
    (..., 6).

    >>> delta2tr([0.01, 0, 0, 0, 0, 0.02])
    array([[ 1.  , -0.02,  0.  ,  0.01],
           [ 0.02,  1.  ,  0.  ,  0.  ],
           [ 0.  ,  0.  ,  1.  ,  0.  ],
           [ 0.  ,  0.  ,  0.  ,  1.  ]])
    """
    d = getarray(d, "d", shape=(6,))
    return np.eye(4) + skewa(d)


def tr2delta(T0: SE3, T1: SE3 | None = None, check: bool = True) -> Twist6:
    r"""Incremental motion :math:`\Delta` (6,) from pose ``T0`` to ``T1``, in ``T0``'s frame.

    .. math::
        T_\Delta = T_0^{-1} T_1 = \begin{pmatrix} R & t \\ 0 & 1 \end{pmatrix},
        \qquad \Delta = \left(t,\ \mathrm{vex}\!\left(\tfrac12 (R - R^T)\right)\right)

    ``tr2delta(T)`` is the motion from the identity to ``T``.  Meaningful for
    small motions: for a rotation by angle :math:`\theta` about
    :math:`\hat\omega` the angular part is :math:`\sin\theta\,\hat\omega`.
    As the toolboxes' ``tr2delta``.  Batched: (..., 4, 4), broadcasting.

    >>> T1 = np.eye(4); T1[:3, 3] = [0.01, 0, 0]
    >>> T1[:2, :2] = [[np.cos(0.02), -np.sin(0.02)], [np.sin(0.02), np.cos(0.02)]]
    >>> tr2delta(np.eye(4), T1)                   # sin(0.02) = 0.019999
    array([0.01    , 0.      , 0.      , 0.      , 0.      , 0.019999])
    """
    T0 = getpose(T0, "T0", check=check)
    if T1 is None:
        Td = T0
    else:
        T1 = getpose(T1, "T1", check=check)
        try:
            Td = trinv(T0, check=False) @ T1
        except ValueError:
            raise ValueError(f"T0, T1: expected batch shapes that broadcast, got {T0.shape} "
                             f"and {T1.shape}") from None
    return np.concatenate([Td[..., :3, 3], vex(Td[..., :3, :3], check=False)], axis=-1)


def rpy2jac(rpy: Vector3, order: str = "zyx", unit: str = "rad") -> np.ndarray:
    r"""Jacobian from roll-pitch-yaw angle rates to angular velocity, :math:`\omega = J(\Gamma)\dot\Gamma`.

    ``rpy`` = (roll α, pitch β, yaw γ), as :func:`rpy2r`; :math:`\omega` is
    in the world frame (:math:`[\omega]_\times = \dot R R^T`).  For
    ``order="zyx"`` (:math:`R = R_z(\gamma) R_y(\beta) R_x(\alpha)`)

    .. math:: J = \begin{pmatrix} c_\beta c_\gamma & -s_\gamma & 0 \\
              c_\beta s_\gamma & c_\gamma & 0 \\ -s_\beta & 0 & 1 \end{pmatrix}

    and similarly for ``"xyz"`` and ``"yxz"`` (as spatialmath's ``rpy2jac``).
    :math:`\det J = \pm\cos\beta`: at pitch :math:`\pm 90^\circ` (gimbal lock)
    no angle rates give some angular velocities.  Rates back from
    :math:`\omega`: :func:`rpydot`.  ``unit="deg"`` only says how
    ``rpy`` is given; ``J`` is dimensionless.  Batched over (..., 3).

    >>> rpy2jac([0, 0, 0]) + 0.0
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    >>> np.round(rpy2jac([10, 90, 0], unit="deg"), 6) + 0.0     # gimbal lock: det 0
    array([[ 0.,  0.,  0.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  1.]])
    """
    a = getangle(getarray(rpy, "rpy", shape=(3,)), "rpy", unit)
    order = getoption(order, "order", ("zyx", "xyz", "yxz"))
    cb, sb = np.cos(a[..., 1]), np.sin(a[..., 1])
    cg, sg = np.cos(a[..., 2]), np.sin(a[..., 2])
    z, o = np.zeros_like(cb), np.ones_like(cb)
    if order == "zyx":
        rows = [[cb * cg, -sg, z], [cb * sg, cg, z], [-sb, z, o]]
    elif order == "xyz":
        rows = [[sb, z, o], [-cb * sg, cg, z], [cb * cg, sg, z]]
    else:  # yxz
        rows = [[cb * sg, cg, z], [-sb, z, o], [cb * cg, -sg, z]]
    return np.stack([np.stack(r, axis=-1) for r in rows], axis=-2)


def eul2jac(eul: Vector3, unit: str = "rad") -> np.ndarray:
    r"""Jacobian from ZYZ Euler angle rates to angular velocity, :math:`\omega = J(\Gamma)\dot\Gamma`.

    ``eul`` = (φ, θ, ψ) with :math:`R = R_z(\phi) R_y(\theta) R_z(\psi)` (as
    :func:`eul2r`); :math:`\omega` in the world frame.

    .. math:: J = \begin{pmatrix} 0 & -s_\phi & c_\phi s_\theta \\
              0 & c_\phi & s_\phi s_\theta \\ 1 & 0 & c_\theta \end{pmatrix}

    Singular (:math:`\det J = -\sin\theta`) at :math:`\theta = 0, \pi`.
    As spatialmath's ``eul2jac``.  Batched over (..., 3).

    >>> eul2jac([0, np.pi / 2, 0]).round(12) + 0.0
    array([[0., 0., 1.],
           [0., 1., 0.],
           [1., 0., 0.]])
    """
    a = getangle(getarray(eul, "eul", shape=(3,)), "eul", unit)
    cp, sp = np.cos(a[..., 0]), np.sin(a[..., 0])
    ct, st = np.cos(a[..., 1]), np.sin(a[..., 1])
    z, o = np.zeros_like(cp), np.ones_like(cp)
    rows = [[z, -sp, cp * st], [z, cp, sp * st], [o, z, ct]]
    return np.stack([np.stack(r, axis=-1) for r in rows], axis=-2)


#: Below this |det J| the angle-rate Jacobian is treated as singular.
RATE_SINGULAR_TOL = 1e-9


def _rates(J, w, angles_name, unit):
    """Solve J(Gamma) Gamma_dot = w; least squares (with a warning) where J is singular."""
    w = getarray(w, "w", shape=(3,))
    J, w = np.broadcast_arrays(J, w[..., None])
    w = w[..., 0]
    det = np.linalg.det(J)
    singular = np.abs(det) < RATE_SINGULAR_TOL
    rates = np.empty(np.broadcast_shapes(J.shape[:-2], w.shape[:-1]) + (3,))
    ok = ~singular
    if np.any(ok):
        rates[ok] = np.linalg.solve(J[ok], w[ok][..., None])[..., 0]
    if np.any(singular):
        warn_singular(
            f"{angles_name}: the angle-rate Jacobian is singular (gimbal lock); returning the "
            "minimum-norm rates, which reproduce only the part of w the angles can express"
        )
        rates[singular] = (np.linalg.pinv(J[singular]) @ w[singular][..., None])[..., 0]
    return putangle(rates, unit)


def rpydot(rpy: Vector3, w: Vector3, order: str = "zyx", unit: str = "rad") -> Vector3:
    r"""Roll-pitch-yaw angle rates that give the angular velocity ``w``: :math:`\dot\Gamma = J(\Gamma)^{-1}\omega`.

    The inverse of :func:`rpy2jac` (``w`` in the world frame).  At gimbal
    lock (:math:`\cos\beta = 0`) no rates give some ``w``: the minimum-norm
    least-squares rates are returned and a :class:`~rvc.checks.SingularityWarning`
    says so.  With ``unit="deg"`` the angles are read, and the rates returned,
    in degrees (per unit time).  Batched over (..., 3).

    >>> rpydot([0.1, 0.2, 0.3], rpy2jac([0.1, 0.2, 0.3]) @ [1.0, 2.0, 3.0]).round(12)
    array([1., 2., 3.])
    """
    return _rates(rpy2jac(rpy, order, unit), w, "rpy", unit)


def euldot(eul: Vector3, w: Vector3, unit: str = "rad") -> Vector3:
    r"""ZYZ Euler angle rates that give the angular velocity ``w``: :math:`\dot\Gamma = J(\Gamma)^{-1}\omega`.

    The inverse of :func:`eul2jac`; singular (minimum-norm rates and a
    :class:`~rvc.checks.SingularityWarning`) at :math:`\theta = 0, \pi`.
    Batched over (..., 3).

    >>> euldot([0.1, 0.5, 0.3], eul2jac([0.1, 0.5, 0.3]) @ [0.5, -1.0, 2.0]).round(12)
    array([ 0.5, -1. ,  2. ])
    """
    return _rates(eul2jac(eul, unit), w, "eul", unit)
