r"""Dynamics seen from the end effector (Chapters 9.2.7 and 9.4.3).

With the geometric Jacobian :math:`J` (:func:`rvc.jacob0`, rows
:math:`(v, \omega)`), a unit joint-torque vector :math:`Q^TQ = 1` at rest
without gravity gives the end-effector accelerations
:math:`\dot\nu = J M^{-1} Q`, the ellipsoid

.. math:: \dot\nu^T \left(J M^{-1} M^{-T} J^T\right)^{-1} \dot\nu = 1

(:func:`accel_ellipsoid`).  The end effector also behaves like a rigid
body of inertia :math:`M_x = \Lambda = (J M^{-1} J^T)^{-1}`
(:func:`inertia_x`), which operational-space control uses.
Asada's measure (:func:`asada`) is the ratio of the smallest to the
largest eigenvalue of :math:`M_x`: 1 when the end effector is equally easy
to accelerate in every direction.

>>> p560 = rvc.models.puma560()
>>> accel_ellipsoid(p560, p560.qn).radii.round(4)
array([0.4412, 0.1677, 0.1039])
"""

from __future__ import annotations

import numpy as np

from ..checks import getq, warn_singular
from ..kinematics.ellipsoid import Ellipsoid, ellipsoid
from ..kinematics.jacobian import jacob0
from ..shapes import JointVector
from .matrices import inertia
from .params import DynamicChain

__all__ = ["inertia_x", "asada", "accel_ellipsoid"]

_SINGULAR = 1e-10      # J M^-1 J^T is singular where sigma_min <= this * sigma_max
_AXES = {"all": slice(0, 6), "trans": slice(0, 3), "rot": slice(3, 6)}


def _axes(axes):
    if isinstance(axes, str):
        if axes not in _AXES:
            raise ValueError(f"axes: expected 'all', 'trans', 'rot' or 6 booleans, got {axes!r}")
        return np.arange(6)[_AXES[axes]]
    sel = np.asarray(axes, dtype=bool)
    if sel.shape != (6,) or not sel.any():
        raise ValueError(f"axes: expected 'all', 'trans', 'rot' or 6 booleans (not all false), "
                         f"got {axes!r}")
    return np.flatnonzero(sel)


def _J_JMinv(robot, q):
    """The Jacobian J and J M^-1 at q."""
    qa = getq(q, robot.n)
    J = jacob0(robot, qa)
    M = inertia(robot, qa)
    # J M^-1 = (M^-1 J^T)^T, M symmetric
    return J, np.swapaxes(np.linalg.solve(M, np.swapaxes(J, -1, -2)), -1, -2)


def inertia_x(robot: DynamicChain, q: JointVector, axes: str = "all") -> np.ndarray:
    r"""Cartesian (operational-space) inertia :math:`M_x = (J M^{-1} J^T)^{-1}` at ``q``.

    ``J`` is the geometric Jacobian in the world frame; ``axes`` keeps the
    rows of the directions the task controls (``"all"``, ``"trans"``,
    ``"rot"`` or 6 booleans), so a robot with fewer than 6 joints can ask
    for as many directions as it has joints.  Where :math:`J M^{-1} J^T` is
    singular (a kinematic singularity, or more directions than joints) the
    pseudo-inverse is returned with a :class:`~rvc.checks.SingularityWarning`.
    Batched: (..., k, k).

    >>> p560 = rvc.models.puma560()
    >>> Mx = inertia_x(p560, p560.qn, "trans")
    >>> Mx.shape, bool(np.all(np.linalg.eigvalsh(Mx) > 0))
    ((3, 3), True)
    """
    rows = _axes(axes)
    J, A = _J_JMinv(robot, q)
    J, A = J[..., rows, :], A[..., rows, :]
    Minv_x = A @ np.swapaxes(J, -1, -2)                       # J M^-1 J^T
    s = np.linalg.svd(Minv_x, compute_uv=False)
    if np.any(s[..., -1] <= _SINGULAR * s[..., 0]):
        warn_singular("inertia_x: J M^-1 J^T is singular here (a singularity, or more task "
                      "directions than joints); returning its pseudo-inverse")
        return np.linalg.pinv(Minv_x, hermitian=True)
    return np.linalg.inv(Minv_x)


def asada(robot: DynamicChain, q: JointVector, axes: str = "all") -> float | np.ndarray:
    r"""Asada's dynamic manipulability: smallest over largest eigenvalue of :func:`inertia_x`.

    The notes' ``p560.maniplty(qn, 'asada')`` (9.2.7); a float for one
    configuration, (N,) for (N, n); always in [0, 1].  The eigenvalues of
    :math:`M_x = (J M^{-1} J^T)^{-1}` are the reciprocals of those of
    :math:`J M^{-1} J^T`, so the ratio is computed without an inverse,

    .. math:: w = \frac{\lambda_{min}(M_x)}{\lambda_{max}(M_x)}
              = \frac{\mu_{min}}{\mu_{max}}, \qquad \mu = \operatorname{eig}(J M^{-1} J^T),

    and is exactly 0 at a singularity (where :func:`inertia_x` warns: the end
    effector's inertia is infinite along a direction it cannot move, while
    a pseudo-inverse's round-off could give a tiny negative ratio).  Dimensionless:
    scaling every mass by k leaves it unchanged.  With ``axes="all"`` (the
    notes' default) the six eigenvalues mix a mass (kg, along the
    translations) with inertias (kg m^2, about the rotations), so that
    number depends on the unit of length, as MATLAB's does: the same arm in
    millimetres gives another value.  ``"trans"`` and ``"rot"`` compare like
    with like and do not depend on it.

    >>> p560 = rvc.models.puma560()
    >>> round(float(asada(p560, p560.qn, "trans")), 4)
    0.1762
    >>> asada(p560, p560.qr)                  # arm straight up: singular
    0.0
    """
    rows = _axes(axes)
    J, A = _J_JMinv(robot, q)
    Minv_x = A[..., rows, :] @ np.swapaxes(J[..., rows, :], -1, -2)      # J M^-1 J^T, symmetric PSD
    mu = np.linalg.svd(Minv_x, compute_uv=False)                          # its eigenvalues, >= 0
    w = np.where(mu[..., -1] <= _SINGULAR * mu[..., 0], 0.0, mu[..., -1] / mu[..., 0])
    return float(w) if np.ndim(w) == 0 else w


def accel_ellipsoid(robot: DynamicChain, q: JointVector, axes: str = "trans") -> Ellipsoid:
    r"""The dynamic-manipulability ellipsoid: end-effector accelerations for unit joint torque.

    The image of the unit ball :math:`|Q| \le 1` under :math:`J M^{-1}`
    (at rest, gravity ignored), :func:`rvc.kinematics.ellipsoid.ellipsoid` of
    :math:`S = (J M^{-1})(J M^{-1})^T` restricted to ``axes`` (default the
    translational accelerations, as the notes' ``Mx(1:3, 1:3)``).  Its radii
    are the square roots of the eigenvalues of :math:`S` -- the notes'
    ``sqrt(eig(Mx))`` -- the largest accelerations, along its axes.

    >>> E = accel_ellipsoid(rvc.models.puma560(), np.array([0, np.pi / 4, np.pi, 0, np.pi / 4, 0]))
    >>> E.axes.shape
    (3, 3)
    """
    rows = _axes(axes)
    A = _J_JMinv(robot, q)[1][..., rows, :]
    return ellipsoid(A @ np.swapaxes(A, -1, -2))

