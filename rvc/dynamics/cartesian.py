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
from .lagrange import inertia
from .rne import crm

__all__ = ["inertia_x", "asada", "accel_ellipsoid", "jacob_dot"]

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


def inertia_x(robot, q, axes="all") -> np.ndarray:
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
    if np.any(s[..., -1] <= 1e-10 * s[..., 0]):
        warn_singular("inertia_x: J M^-1 J^T is singular here (a singularity, or more task "
                      "directions than joints); returning its pseudo-inverse")
        return np.linalg.pinv(Minv_x, hermitian=True)
    return np.linalg.inv(Minv_x)


def asada(robot, q, axes="all") -> np.ndarray:
    """Asada's dynamic manipulability: smallest over largest eigenvalue of :func:`inertia_x`.

    The notes' ``p560.maniplty(qn, 'asada')`` (9.2.7); a float for one
    configuration, (N,) for (N, n).  0 at a singularity.

    >>> p560 = rvc.models.puma560()
    >>> round(float(asada(p560, p560.qn, "trans")), 4)
    0.1762
    """
    Mx = inertia_x(robot, q, axes)
    ev = np.linalg.eigvalsh(Mx)
    w = ev[..., 0] / ev[..., -1]
    return float(w) if np.ndim(w) == 0 else w


def accel_ellipsoid(robot, q, axes="trans") -> Ellipsoid:
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


def jacob_dot(robot, q, qd) -> np.ndarray:
    r"""The end-effector acceleration bias :math:`\dot J(q, \dot q)\,\dot q`, (..., 6).

    The tool's acceleration is :math:`\dot\nu = J\ddot q + \dot J\dot q`
    (rows :math:`(\dot v, \dot\omega)` of the tool point, world frame, as
    :func:`rvc.jacob0`); this is the second term, the acceleration with
    :math:`\ddot q = 0`.  With the unit joint twists :math:`S_j` about the
    world origin (from ``robot.joint_frames``, as in
    :func:`~rvc.dynamics.rne.link_spatial`), the links' spatial velocities
    are :math:`v_j = \sum_{k \le j} S_k\dot q_k` and the last link's
    spatial acceleration is :math:`a = \sum_j v_j \times S_j \dot q_j`
    (:func:`~rvc.dynamics.rne.crm`): the outward recursion of
    :func:`~rvc.dynamics.rne.rne` without gravity.  Its velocity
    :math:`(v_O, \omega)` and acceleration :math:`(a_O, \alpha)` give the
    tool point :math:`p` the classical acceleration
    :math:`a_O + \alpha\times p + \omega\times(v_O + \omega\times p)`.
    Operational-space control needs it (the notes' :math:`\dot J(q)\dot q`).

    >>> tl = rvc.models.twolink()
    >>> jacob_dot(tl, [0, 0], [1, 0]).round(4) + 0       # centripetal: -w^2 r towards the base
    array([-2.,  0.,  0.,  0.,  0.,  0.])
    """
    n = robot.n
    qa = getq(q, n)
    qd = getq(qd, n, name="qd")
    F, Te = robot.joint_frames(qa)                     # joint axes, world frame; tool pose
    z, p = F[..., :3, 2], F[..., :3, 3]
    rev = np.asarray(robot.revolute, dtype=bool)[:, None]
    S = np.concatenate([np.where(rev, np.cross(p, z), z), np.where(rev, z, 0.0)], axis=-1)
    V = S * qd[..., None]                              # each joint's share of the twist
    v = np.cumsum(V, axis=-2)                          # the links' twists
    a = crm(v, V).sum(axis=-2)                         # sum_j v_j x S_j qd_j, with qdd = 0
    v, p = v[..., -1, :], Te[..., :3, 3]
    w, alpha = v[..., 3:], a[..., 3:]
    vp = v[..., :3] + np.cross(w, p)
    ap = a[..., :3] + np.cross(alpha, p) + np.cross(w, vp)
    return np.concatenate(np.broadcast_arrays(ap, alpha), axis=-1)
