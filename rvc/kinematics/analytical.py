"""Analytical Jacobians: orientation rates as angle rates (Chapter 8.1.3).

The geometric Jacobian :func:`~rvc.kinematics.jacobian.jacob0` gives the
tool's angular velocity :math:`\\omega`.  Angular velocity is not the rate
of any set of angles, so when a task is written in roll-pitch-yaw angles,
Euler angles or exponential coordinates :math:`\\Gamma` we want their rates
:math:`\\dot\\Gamma` instead.  Each representation has a rate matrix
:math:`A(\\Gamma)` with

.. math:: \\omega = A(\\Gamma)\\, \\dot\\Gamma ,

(:func:`~rvc.motion.velocity.rpy2jac`, :func:`~rvc.motion.velocity.eul2jac`,
:func:`exp2jac`), so the *analytical* Jacobian is

.. math:: J_a(q) = \\begin{pmatrix} I_3 & 0 \\\\ 0 & A(\\Gamma)^{-1} \\end{pmatrix} {}^0J(q),
          \\qquad \\begin{pmatrix} v \\\\ \\dot\\Gamma \\end{pmatrix} = J_a(q)\\, \\dot q .

:math:`A` is singular where the angles are (gimbal lock: pitch
:math:`\\pm 90^\\circ` for roll-pitch-yaw, :math:`\\theta = 0, \\pi` for ZYZ
Euler angles); there some angular velocities have no angle rates at all.

>>> exp2jac([0, 0, 0])
array([[1., 0., 0.],
       [0., 1., 0.],
       [0., 0., 1.]])
"""

from __future__ import annotations

import warnings

import numpy as np

from ..checks import SingularityWarning, getarray, getoption, getpose, warn_singular
from ..motion.velocity import eul2jac, rpy2jac
from ..spatial.expmap import skew, trlog
from ..spatial.transforms3d import SINGULAR_TOL, tr2eul, tr2rpy
from ..shapes import SE3, Jacobian, Vector3

__all__ = ["ANALYTICAL", "exp2jac", "jacob_analytical"]

#: The orientation representations an analytical Jacobian can use.
ANALYTICAL = ("rpy/xyz", "rpy/zyx", "eul", "exp")


def exp2jac(phi: Vector3) -> np.ndarray:
    """Rate matrix of exponential coordinates, :math:`\\omega = A(\\phi)\\, \\dot\\phi`: shape (..., 3, 3).

    ``phi`` = :math:`\\theta\\hat k` is the rotation vector of
    :math:`R = e^{[\\phi]_\\times}` (``trlog(R, twist=True)``) and
    :math:`\\omega` the angular velocity in the world frame
    (:math:`[\\omega]_\\times = \\dot R R^T`).  With :math:`\\theta = |\\phi|`,

    .. math:: A(\\phi) = I + \\frac{1 - \\cos\\theta}{\\theta^2}[\\phi]_\\times
              + \\frac{\\theta - \\sin\\theta}{\\theta^3}[\\phi]_\\times^2

    (the left Jacobian of SO(3)); :math:`\\det A = 2(1 - \\cos\\theta)/\\theta^2`
    is never zero for :math:`\\theta \\le \\pi`.  The coefficients use their
    Taylor series for small :math:`\\theta`, so ``exp2jac(0)`` is the identity
    and not NaN; above the switch the first is computed as
    :math:`2\\sin^2(\\theta/2)/\\theta^2`, which loses no digits to the
    cancellation in :math:`1 - \\cos\\theta`.  As spatialmath's ``exp2jac``.
    Batched over (..., 3).

    >>> exp2jac([0.3, 0, 0]).round(4)
    array([[ 1.    ,  0.    ,  0.    ],
           [ 0.    ,  0.9851, -0.1489],
           [ 0.    ,  0.1489,  0.9851]])
    """
    phi = getarray(phi, "phi", shape=(3,))
    th = np.linalg.norm(phi, axis=-1)[..., None, None]
    small = th < 1e-4
    t = np.where(small, 1.0, th)                   # no division by zero in the unused branch
    a = np.where(small, 0.5 - th**2 / 24, 2 * (np.sin(t / 2) / t) ** 2)   # = (1 - cos t)/t^2, no cancellation
    b = np.where(small, 1 / 6 - th**2 / 120, (t - np.sin(t)) / t**3)
    K = skew(phi)
    return np.eye(3) + a * K + b * (K @ K)


def _angles_and_rates(R, analytical):
    """The angles of ``R`` in the representation and their rate matrix A (..., 3, 3)."""
    if analytical == "exp":
        gamma = trlog(R, twist=True, check=False)
        return gamma, exp2jac(gamma)
    if analytical == "eul":
        gamma = tr2eul(R, check=False)
        return gamma, eul2jac(gamma)
    order = analytical[4:]
    gamma = tr2rpy(R, order=order, check=False)
    return gamma, rpy2jac(gamma, order=order)


def jacob_analytical(J: Jacobian, T: SE3, analytical: str = "rpy/xyz") -> Jacobian:
    """Analytical Jacobian from a world-frame geometric Jacobian ``J`` at tool pose ``T``.

    .. math:: J_a = \\begin{pmatrix} I_3 & 0 \\\\ 0 & A(\\Gamma)^{-1} \\end{pmatrix} J

    where :math:`\\Gamma` are the angles of ``T``'s rotation in the
    representation ``analytical``:

    ==============  ===========================================================
    ``"rpy/xyz"``   roll-pitch-yaw, :math:`R = R_x(\\gamma) R_y(\\beta) R_z(\\alpha)`
                    (the notes' 8.1.3), :math:`A` = ``rpy2jac(rpy, "xyz")``
    ``"rpy/zyx"``   roll-pitch-yaw, :math:`R = R_z(\\gamma) R_y(\\beta) R_x(\\alpha)`,
                    :math:`A` = ``rpy2jac(rpy, "zyx")``
    ``"eul"``       ZYZ Euler angles (MATLAB's ``jacob0(q, 'eul')``),
                    :math:`A` = ``eul2jac(eul)``
    ``"exp"``       exponential coordinates (rotation vector), :math:`A` = :func:`exp2jac`
    ==============  ===========================================================

    The angles are those of :func:`~rvc.spatial.transforms3d.tr2rpy`,
    :func:`~rvc.spatial.transforms3d.tr2eul` and ``trlog(R, twist=True)``.
    Where :math:`A` is singular (gimbal lock, :math:`|\\det A| <`
    ``SINGULAR_TOL``) no angle rates produce some angular velocities: the
    angular rows are then the minimum-norm rates :math:`A^+ J_\\omega` and a
    :class:`~rvc.checks.SingularityWarning` says so.  ``J`` is (..., 6, n),
    ``T`` (..., 4, 4), batched alike.

    >>> J = np.vstack([np.zeros((3, 1)), [[0], [0], [1]]])   # spinning about world z
    >>> jacob_analytical(J, np.eye(4), "rpy/zyx")[3:, 0]     # only yaw changes
    array([0., 0., 1.])
    >>> jacob_analytical(J, np.eye(4), "quaternion")
    Traceback (most recent call last):
    ...
    ValueError: analytical: expected one of 'rpy/xyz', 'rpy/zyx', 'eul', 'exp', got 'quaternion'
    """
    analytical = getoption(analytical, "analytical", ANALYTICAL)
    J = getarray(J, "J")
    if J.ndim < 2 or J.shape[-2] != 6:
        raise ValueError(f"J: expected a Jacobian of shape (..., 6, n), got shape {J.shape}")
    T = getpose(T, "T")
    with warnings.catch_warnings():            # one warning below says what was lost
        warnings.simplefilter("ignore", SingularityWarning)
        _, A = _angles_and_rates(T[..., :3, :3], analytical)
    A, Jw = np.broadcast_to(A, np.broadcast_shapes(A.shape[:-2], J.shape[:-2]) + (3, 3)), J[..., 3:, :]
    singular = np.abs(np.linalg.det(A)) < SINGULAR_TOL
    rates = np.empty(np.broadcast_shapes(A.shape[:-2], Jw.shape[:-2]) + Jw.shape[-2:])
    Jw = np.broadcast_to(Jw, rates.shape)
    ok = ~singular
    if np.any(ok):
        rates[ok] = np.linalg.solve(A[ok], Jw[ok])
    if np.any(singular):
        warn_singular(f"analytical: the {analytical!r} angles are singular at this pose "
                      "(gimbal lock); the angular rows are the minimum-norm angle rates, which "
                      "miss the angular velocities these angles cannot express")
        rates[singular] = np.linalg.pinv(A[singular]) @ Jw[singular]
    Jv = np.broadcast_to(J[..., :3, :], rates.shape)
    return np.concatenate([Jv, rates], axis=-2)
