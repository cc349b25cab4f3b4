"""Manipulator velocity and force: singularities, joint rates, ellipsoids, wrenches (Chapter 8.2-8.5).

The Jacobian :math:`J(q)` maps joint rates to the tool's spatial velocity,
:math:`\\nu = J\\dot q`, and its transpose maps a tool wrench to joint
forces, :math:`\\tau = J^T w`.  The functions here answer the questions of
Chapter 8 about that map:

* :func:`jsingu` -- which joints are redundant at a singularity (8.2.1);
* :func:`resolve_rates` -- joint rates for a wanted tool velocity, by the
  inverse, the pseudo-inverse or damped least squares (8.2, 8.3.1, 8.4);
* :func:`nullproj` -- the projector onto joint motions that leave the tool
  still (8.4.2);
* :func:`vellipse`, :func:`fellipse` -- velocity and force ellipsoids
  (8.2.2, 8.5.2), as :class:`~rvc.kinematics.ellipsoid.Ellipsoid`;
* :func:`wrench2tau` -- joint forces from a tool wrench (8.5.1);
* :func:`pose_error` -- the spatial displacement between two poses that
  closed-loop control (8.3) and numerical IK (8.6) drive to zero.

All take and return plain arrays, batched over leading dimensions of ``q``.

>>> p2 = rvc.models.planar2()
>>> E = vellipse(p2, [0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0])
>>> E.radii.round(4), E.centre
(array([1.618, 0.618]), array([1., 1.]))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import ZERO_TOL, getarray, getaxes, getoption, getpose, getscalar, getq, warn_singular
from ..results import Result
from ..shapes import SE3, ArrayLike, Jacobian, JointVector, Twist6
from ..spatial.expmap import trlog
from .chain import Chain, axes_point
from .ellipsoid import Ellipsoid, ellipsoid
from .jacobian import jacob0, jacobe

__all__ = ["Dependence", "jsingu", "resolve_rates", "nullproj", "vellipse", "fellipse",
           "wrench2tau", "pose_error"]

#: Relative tolerance (of the largest singular value) below which a Jacobian
#: direction counts as lost: a column is dependent, a rate is singular.
RANK_TOL = 1e-9


# ---------------------------------------------------------------------------
# 8.2.1 singularities


@dataclass(frozen=True, repr=False, eq=False)
class Dependence(Result):
    """The result of :func:`jsingu`: which Jacobian columns (joints) are linearly dependent.

    Attributes
    ----------
    rank : int
        The rank of ``J``.
    independent : tuple of int
        0-based indices of the columns kept, scanning left to right.
    dependent : tuple of int
        0-based indices of the columns that are combinations of earlier kept ones.
    coefficients : ndarray (len(dependent), n)
        Row k gives column ``dependent[k]`` as a combination of the
        independent columns: ``J[:, dependent[k]] = J @ coefficients[k]``.

    Unpacks as ``rank, dependent``.  Prints like MATLAB's ``jsingu``,
    with joints numbered from 1 (``q6 depends on: q4``).
    """

    unpack = ("rank", "dependent")

    rank: int
    independent: tuple
    dependent: tuple
    coefficients: np.ndarray

    def __str__(self) -> str:
        n = len(self.independent) + len(self.dependent)
        k = len(self.dependent)
        lines = [f"rank {self.rank} of {n}: {k} linearly dependent joint{'s' if k != 1 else ''}"]
        for d, c in zip(self.dependent, self.coefficients):
            on = np.flatnonzero(np.abs(c) > 1e-3)
            if on.size == 0:
                lines.append(f"  q{d + 1} does not move the tool (a zero column)")
                continue
            terms = " ".join(f"{c[j]:+.4g} J{j + 1}" for j in on)
            lines.append(f"  q{d + 1} depends on: {' '.join(f'q{j + 1}' for j in on)}"
                         f"   (J{d + 1} = {terms})")
        return "\n".join(lines)

    __repr__ = __str__


def jsingu(J: Jacobian, tol: float = RANK_TOL) -> Dependence:
    """Which columns of a Jacobian are linearly dependent (8.2.1, MATLAB's ``jsingu(J)``).

    Scans the columns left to right, as the reduced row echelon form does:
    column j is *dependent* if it lies in the span of the independent
    columns before it,

    .. math:: \\min_c \\| J_{:,B}\\, c - J_{:,j} \\| \\le \\mathrm{tol}\\; \\sigma_{max}(J),

    where B are the columns kept so far; otherwise it is kept.  At a
    singularity the dependent joints are those whose motion other joints
    can already produce: at the Puma's ready pose ``qr`` the wrist joints 4
    and 6 are aligned, so ``q6 depends on q4``.  ``J`` is one (m, n)
    matrix.

    >>> p560 = rvc.models.puma560()
    >>> jsingu(p560.jacob0(p560.qr))
    rank 5 of 6: 1 linearly dependent joint
      q6 depends on: q4   (J6 = +1 J4)
    >>> jsingu(p560.jacob0(p560.qn)).dependent
    ()
    """
    J = getarray(J, "J")
    if J.ndim != 2:
        raise ValueError(f"J: expected one Jacobian, shape (m, n), got shape {J.shape}")
    tol = getscalar(tol, "tol")
    if tol <= 0:
        raise ValueError(f"tol: expected a positive tolerance, got {tol}")
    m, n = J.shape
    smax = float(np.linalg.norm(J, 2)) if J.size else 0.0
    thr = tol * max(smax, ZERO_TOL)
    keep, dep, coef = [], [], []
    for j in range(n):
        col = J[:, j]
        if keep:
            c, *_ = np.linalg.lstsq(J[:, keep], col, rcond=None)
            resid = float(np.linalg.norm(J[:, keep] @ c - col))
        else:
            c, resid = np.zeros(0), float(np.linalg.norm(col))
        if resid <= thr:
            full = np.zeros(n)
            full[keep] = c
            dep.append(j)
            coef.append(full)
        else:
            keep.append(j)
    return Dependence(len(keep), tuple(keep), tuple(dep),
                      np.array(coef).reshape(len(dep), n))


# ---------------------------------------------------------------------------
# 8.2, 8.3.1, 8.4 joint rates from tool velocity

_RATE_METHODS = ("inv", "pinv", "dls")


def _getjv(J, v):
    J = getarray(J, "J")
    if J.ndim < 2:
        raise ValueError(f"J: expected a Jacobian of shape (..., m, n), got shape {J.shape}")
    v = getarray(v, "v")
    if v.ndim < 1 or v.shape[-1] != J.shape[-2]:
        raise ValueError(f"v: expected {J.shape[-2]} components (one per row of J), "
                         f"got shape {v.shape}")
    return J, v


def resolve_rates(J: Jacobian, v: Twist6 | ArrayLike, method: str = "pinv", damping: float = 0.0) -> JointVector:
    """Joint rates that give the tool velocity ``v``: :math:`\\dot q = J^{-1} v` and its cousins.

    ``method``:

    * ``"inv"`` -- :math:`\\dot q = J^{-1} v` for a square ``J`` (8.2);
    * ``"pinv"`` (default) -- the pseudo-inverse :math:`\\dot q = J^+ v`
      (8.3.1, 8.4.2): for a redundant arm (more joints than rows) the
      smallest :math:`|\\dot q|` that gives ``v``; for an under-actuated
      one (fewer joints than rows, 8.4.1) the rates whose velocity is
      closest to ``v`` in the least-squares sense;
    * ``"dls"`` -- damped least squares with ``damping`` :math:`\\lambda > 0`
      (8.3.1, as Chapter 7's ``ikine`` damps its steps):

      .. math:: \\dot q = J^T (J J^T + \\lambda I)^{-1} v
                       = (J^T J + \\lambda I)^{-1} J^T v,

      which turns each singular value :math:`\\sigma` of ``J`` into the gain
      :math:`\\sigma / (\\sigma^2 + \\lambda)`: never more than
      :math:`1 / (2\\sqrt\\lambda)`, so the rates stay bounded near a
      singularity at the price of a velocity error there.

    Near a singularity ``inv`` and ``pinv`` return very large rates: that
    is the physics.  Where the rates cannot give ``v`` at all (``J`` singular
    or with too few joints and ``v`` outside its range) ``"inv"`` falls back
    to ``"pinv"``, and both warn (:class:`~rvc.checks.SingularityWarning`)
    that only part of ``v`` is achieved.  A direction counts as lost when
    its singular value is below ``RANK_TOL`` (1e-9) times the largest, and
    the pseudo-inverse drops exactly those: the rank the warning judges is
    the rank the rates use.  Batched: ``J`` (..., m, n), ``v`` (..., m).

    >>> p560 = rvc.models.puma560()
    >>> qns = p560.qr.copy(); qns[4] = np.radians(5)
    >>> J = p560.jacob0(qns)
    >>> resolve_rates(J, [0, 0, 0.1, 0, 0, 0], "inv").round(4) + 0      # the notes' 8.2.1
    array([ 0.    , -4.9261,  9.8522,  0.    , -4.9261,  0.    ])
    >>> qd = resolve_rates(J, [0, 0, 0.1, 0, 0, 0], "dls", damping=1e-5)
    >>> round(float(np.abs(qd).max()), 4), (J @ qd).round(4) + 0      # slower, and a little off
    (8.5681, array([-0.0003,  0.0021,  0.0873,  0.    ,  0.    ,  0.    ]))
    """
    method = getoption(method, "method", _RATE_METHODS)
    damping = getscalar(damping, "damping")
    J, v = _getjv(J, v)
    m, n = J.shape[-2:]
    if method == "dls":
        if damping <= 0:
            raise ValueError(f"damping: expected lambda > 0 for method 'dls', got {damping}")
        A = J @ np.swapaxes(J, -1, -2) + damping * np.eye(m)
        return (np.swapaxes(J, -1, -2) @ np.linalg.solve(A, v[..., None]))[..., 0]
    if damping != 0:
        raise ValueError(f"damping: only method 'dls' uses damping, got damping={damping} "
                         f"with method {method!r}")
    s = np.linalg.svd(J, compute_uv=False)
    smax = s[..., :1]
    full = np.all(s > RANK_TOL * np.maximum(smax, ZERO_TOL), axis=-1) & (m <= n)
    if method == "inv":
        if m != n:
            raise ValueError(f"J: method 'inv' needs a square Jacobian, got shape {J.shape[-2:]}; "
                             "use 'pinv' or 'dls'")
        batch = np.broadcast_shapes(J.shape[:-2], v.shape[:-1])
        Jb, vb = np.broadcast_to(J, batch + (m, n)), np.broadcast_to(v, batch + (m,))
        full = np.broadcast_to(full, batch)
        qd = np.empty(batch + (n,))
        qd[full] = np.linalg.solve(Jb[full], vb[full][..., None])[..., 0]
        qd[~full] = (np.linalg.pinv(Jb[~full], rcond=RANK_TOL) @ vb[~full][..., None])[..., 0]
    else:
        qd = (np.linalg.pinv(J, rcond=RANK_TOL) @ v[..., None])[..., 0]
    if not np.all(full):
        vn = np.linalg.norm(v, axis=-1)
        miss = np.linalg.norm((J @ qd[..., None])[..., 0] - v, axis=-1)
        if np.any(miss > 1e-9 * np.maximum(vn, 1.0)):
            warn_singular(f"{method}: J is singular or has too few joints for v; the rates give "
                          "only the part of v in the range of J (least squares)")
    return qd


def nullproj(J: Jacobian) -> np.ndarray:
    """Projector onto the null space of ``J``: :math:`P = I - J^+ J`, shape (..., n, n).

    Joint rates :math:`P\\dot q_0` move no part of the tool (:math:`J P = 0`):
    the *null-space motion* of a redundant arm (8.4.2).  :math:`P = N N^+`
    for any basis :math:`N` of the null space (MATLAB's ``N = null(J)``),
    and :math:`\\dot q = J^+ v + P \\dot q_0` gives the tool velocity ``v``
    while moving the joints as close to :math:`\\dot q_0` as the task allows.
    Directions whose singular value is below ``RANK_TOL`` times the largest
    count as lost, as in :func:`resolve_rates`, so they belong to the null space.

    >>> left = rvc.models.baxter("left")
    >>> J = left.jacob0(left.qn)
    >>> P = nullproj(J)
    >>> bool(np.abs(J @ P).max() < 1e-12), round(float(np.trace(P)), 6)   # one redundant direction
    (True, 1.0)
    """
    J = getarray(J, "J")
    if J.ndim < 2:
        raise ValueError(f"J: expected a Jacobian of shape (..., m, n), got shape {J.shape}")
    n = J.shape[-1]
    return np.eye(n) - np.linalg.pinv(J, rcond=RANK_TOL) @ J


# ---------------------------------------------------------------------------
# 8.2.2, 8.5.2 ellipsoids


def _rows_and_centre(robot, q, axes, centre, unit):
    """The world-frame Jacobian's rows ``axes`` and the ellipsoid's centre there."""
    rows = getaxes(axes)
    qa = getq(q, robot.n, robot.revolute, unit)
    return jacob0(robot, qa)[..., rows, :], axes_point(robot, qa, axes, centre)


def vellipse(robot: Chain, q: JointVector, axes: str | ArrayLike = "trans", *, centre: str = "tool",
             unit: str = "rad") -> Ellipsoid:
    """Velocity ellipsoid of the arm at ``q`` (8.2.2): the tool velocities of unit joint speed.

    Joint rates on the unit sphere :math:`\\dot q^T \\dot q = 1` give tool
    velocities on the ellipsoid

    .. math:: \\nu^T (J J^T)^{-1} \\nu = 1,

    with semi-axes the singular values :math:`\\sigma_i` of ``J`` along its
    left singular vectors (:func:`~rvc.kinematics.ellipsoid.ellipsoid` of
    :math:`S = J J^T`).  ``J`` is the world-frame Jacobian restricted to the
    rows of ``axes``: ``"trans"`` (default, vx vy vz), ``"rot"`` (wx wy wz),
    ``"all"`` or a mask of 6, e.g. ``[1, 1, 0, 0, 0, 0]`` for a planar arm's
    velocity ellipse.  The product of the semi-axes is the Yoshikawa
    manipulability ``manipulability(robot, q, axes=axes)``.

    ``centre``: ``"tool"`` (default) puts translational rows at the tool
    position (where the notes draw the ellipse) and rotational rows at 0;
    ``"origin"`` (or None) puts everything at 0; or give an array.  Batched:
    ``q`` (N, n) gives radii (N, k).

    MATLAB: ``p2.vellipse(q)``, ``p560.vellipse(q, 'trans')``.

    >>> p560 = rvc.models.puma560()
    >>> E = vellipse(p560, p560.qn)
    >>> E.radii.round(4), round(float(E.volume_factor), 4)
    (array([0.6902, 0.6125, 0.263 ]), 0.1112)
    """
    J, c = _rows_and_centre(robot, q, axes, centre, unit)
    return ellipsoid(J @ np.swapaxes(J, -1, -2), c)


def fellipse(robot: Chain, q: JointVector, axes: str | ArrayLike = "trans", *, centre: str = "tool",
             unit: str = "rad") -> Ellipsoid:
    """Force ellipsoid of the arm at ``q`` (8.5.2): the tool wrenches of unit joint force.

    Joint forces on the unit sphere :math:`\\tau^T\\tau = 1` with
    :math:`\\tau = J^T w` give wrenches on the ellipsoid

    .. math:: w^T (J J^T)\\, w = 1,

    the velocity ellipsoid's dual: the same axes, semi-axes
    :math:`1/\\sigma_i`.  The arm pushes hardest where it moves slowest.
    At a singularity (:math:`\\sigma_i = 0`) the ellipsoid is unbounded in
    that direction: radius ``inf`` and a :class:`~rvc.checks.SingularityWarning`
    (the structure, not the motors, takes such a wrench).  ``axes`` and
    ``centre`` as :func:`vellipse`.

    MATLAB: ``p2.fellipse(q)``.

    >>> p2 = rvc.models.planar2()
    >>> fellipse(p2, [0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0]).radii.round(4)
    array([1.618, 0.618])
    """
    J, c = _rows_and_centre(robot, q, axes, centre, unit)
    E = ellipsoid(J @ np.swapaxes(J, -1, -2), c)
    r = E.radii[..., ::-1]
    if np.any(r == 0):
        warn_singular("fellipse: J is singular here; the force ellipsoid is unbounded "
                      "(radius inf) along the directions the joints cannot move")
    with np.errstate(divide="ignore"):
        radii = np.where(r == 0, np.inf, 1.0 / np.where(r == 0, 1.0, r))
    return Ellipsoid(E.centre, radii, E.axes[..., ::-1])


# ---------------------------------------------------------------------------
# 8.5.1 wrenches


def wrench2tau(robot: Chain, q: JointVector, w: Twist6, frame: str = "world", *, unit: str = "rad") -> JointVector:
    """Joint forces and torques from a wrench on the tool (8.5.1): :math:`\\tau = J^T w`, shape (..., n).

    ``w = (fx, fy, fz, mx, my, mz)`` acts at the tool point;
    ``frame="world"`` (default) reads it in world axes and uses
    :math:`{}^0J` (:func:`~rvc.kinematics.jacobian.jacob0`),
    ``frame="tool"`` in the tool's axes with :math:`{}^EJ`
    (:func:`~rvc.kinematics.jacobian.jacobe`).  By virtual work,
    :math:`\\tau \\cdot \\dot q = w \\cdot \\nu` for every joint rate.
    These are the joint forces the wrench *exerts* (the motors must apply
    :math:`-\\tau` to hold it).  Unlike the rates of :func:`resolve_rates`,
    no inverse is involved: this map has no singularity.

    MATLAB: ``tau = p560.jacob0(qn)' * [0 20 0 0 0 0]'``.

    >>> p560 = rvc.models.puma560()
    >>> wrench2tau(p560, p560.qn, [0, 20, 0, 0, 0, 0]).round(4) + 0
    array([11.9261,  0.    ,  0.    ,  0.    ,  0.    ,  0.    ])
    """
    frame = getoption(frame, "frame", ("world", "tool"))
    J = (jacob0 if frame == "world" else jacobe)(robot, q, unit=unit)
    w = getarray(w, "w", shape=(6,))
    return (np.swapaxes(J, -1, -2) @ w[..., None])[..., 0]


# ---------------------------------------------------------------------------
# 8.3, 8.6 pose error


def pose_error(T: SE3, Tstar: SE3, frame: str = "world") -> Twist6:
    """Spatial displacement from pose ``T`` to pose ``Tstar``: :math:`\\Delta(T, T^*) \\in \\mathbb{R}^6`.

    .. math:: \\Delta = \\bigl(t^* - t,\\ \\theta\\hat k\\bigr), \\qquad
              R^* R^T = e^{[\\theta \\hat k]_\\times}

    in the world frame (default), or with ``frame="tool"`` both parts in
    the axes of ``T``: :math:`(R^T (t^* - t),\\ \\theta\\hat k')` with
    :math:`R^T R^* = e^{[\\theta\\hat k']_\\times}` (the notes'
    :math:`{}^E\\Delta`).  The rotation part is exact (angle-axis by
    ``trlog``, not the small-angle ``tr2delta``), so a velocity
    :math:`\\nu = \\Delta / \\delta_t` moves ``T`` onto ``Tstar`` in time
    :math:`\\delta_t` to first order.  Batched over (..., 4, 4), broadcasting.

    >>> pose_error(np.eye(4), transl(0.1, 0, 0) @ trotz(0.2)).round(4) + 0
    array([0.1, 0. , 0. , 0. , 0. , 0.2])
    """
    frame = getoption(frame, "frame", ("world", "tool"))
    T = getpose(T, "T")
    Tstar = getpose(Tstar, "Tstar")
    R, Rs = T[..., :3, :3], Tstar[..., :3, :3]
    dt = Tstar[..., :3, 3] - T[..., :3, 3]
    Rt = np.swapaxes(R, -1, -2)
    if frame == "world":
        dR = Rs @ Rt
    else:
        dR = Rt @ Rs
        dt = (Rt @ dt[..., None])[..., 0]
    dt, dR = np.broadcast_arrays(dt[..., None], dR)
    return np.concatenate([dt[..., 0], trlog(dR, twist=True, check=False)], axis=-1)
