"""The manipulator Jacobian and manipulability (Chapter 8.1-8.2).

The geometric Jacobian maps joint velocity to the spatial velocity of the
tool, ordered (linear, angular) as everywhere in rvc:

.. math:: {}^0\\nu = \\begin{pmatrix} v \\\\ \\omega \\end{pmatrix} = {}^0J(q)\\, \\dot q,
          \\qquad {}^0J(q) \\in \\mathbb{R}^{6 \\times n}

Column j is the tool's spatial velocity for a unit speed of joint j alone.
With :math:`z_j` the joint's unit axis and :math:`p_j` a point on it (both in
the world frame) and :math:`p_e` the tool point,

.. math:: J_j = \\begin{pmatrix} z_j \\times (p_e - p_j) \\\\ z_j \\end{pmatrix}
          \\ \\text{(revolute)}, \\qquad
          J_j = \\begin{pmatrix} z_j \\\\ 0 \\end{pmatrix} \\ \\text{(prismatic)}.

The axes come from the chain interface every model provides,
``robot.joint_frames(q)``: joint j moves about (along) the z axis of the
j-th frame, which for standard DH parameters is frame {j-1}, for modified
DH frame {j}, and for an elementary transform sequence the frame just
before the joint's term; the base transform is included, and :math:`p_e`
is the origin of ``fkine(q)``, the tool transform included.  So the same
functions serve DH, modified-DH and ETS robots.

Functions: :func:`jacob0` (world frame), :func:`jacobe` (end-effector
frame), :func:`manipulability` and :func:`jacob_dot` (the acceleration
term :math:`\\dot J \\dot q`).  The robot methods ``p560.jacob0(q)``,
``p560.jacobe(q)`` and ``p560.manipulability(q)`` call them.

>>> p2 = rvc.models.planar2()
>>> jacob0(p2, [0, np.pi / 2]).round(4) + 0
array([[-1., -1.],
       [ 1.,  0.],
       [ 0.,  0.],
       [ 0.,  0.],
       [ 0.,  0.],
       [ 1.,  1.]])
"""

from __future__ import annotations

import typing

import numpy as np

from ..checks import getaxes, getoption, getq
from ..shapes import SE3, Jacobian, JointVector, Twist6
from .analytical import ANALYTICAL, jacob_analytical
from .chain import Chain

__all__ = ["jacob0", "jacob0_pose", "jacobe", "manipulability", "jacob_dot", "jacob0_dot"]

_METHODS = ("yoshikawa", "invcondition", "minsingular")


def _jacob0_and_pose(robot, q, unit):
    """World-frame Jacobian (..., 6, n) and tool pose (..., 4, 4).

    Column j is ``(z_j x (p_e - p_j), z_j)`` for a revolute joint and
    ``(z_j, 0)`` for a prismatic one, from the joint frames of the chain
    interface.  One configuration is done with Python floats (for a 6-axis
    arm that is a few microseconds, less than the numpy calls it replaces);
    a batch with numpy, vectorised over the batch and the joints.
    """
    F, Te = robot.joint_frames(q, unit=unit)            # (..., n, 4, 4), (..., 4, 4)
    revolute = np.asarray(robot.revolute, dtype=bool)
    if F.ndim == 3:
        ex, ey, ez = Te[:3, 3].tolist()
        columns = []
        for ((zx, px), (zy, py), (zz, pz)), rev in zip(F[:, :3, 2:].tolist(), revolute.tolist()):
            if rev:
                dx, dy, dz = ex - px, ey - py, ez - pz
                columns.append((zy * dz - zz * dy, zz * dx - zx * dz, zx * dy - zy * dx, zx, zy, zz))
            else:
                columns.append((zx, zy, zz, 0.0, 0.0, 0.0))
        return np.array(columns).reshape(-1, 6).T.copy(), Te
    z = F[..., :3, 2]                                    # (..., n, 3) joint axes
    d = Te[..., None, :3, 3] - F[..., :3, 3]             # (..., n, 3) joint to tool point
    zx, zy, zz = z[..., 0], z[..., 1], z[..., 2]
    dx, dy, dz = d[..., 0], d[..., 1], d[..., 2]
    J = np.empty(z.shape[:-2] + (6, z.shape[-2]))
    J[..., 0, :] = zy * dz - zz * dy
    J[..., 1, :] = zz * dx - zx * dz
    J[..., 2, :] = zx * dy - zy * dx
    J[..., 3:, :] = np.swapaxes(z, -1, -2)
    if not revolute.all():
        J[..., :3, ~revolute] = J[..., 3:, ~revolute]
        J[..., 3:, ~revolute] = 0.0
    return J, Te


def jacob0(robot: Chain, q: JointVector, analytical: str | None = None, *, unit: str = "rad") -> Jacobian:
    """Geometric Jacobian in the world frame, ``v0 = J0(q) qd``: shape (6, n).

    Rows are (vx, vy, vz, wx, wy, wz); column j is

    .. math:: J_j = \\begin{pmatrix} z_j \\times (p_e - p_j) \\\\ z_j \\end{pmatrix}
              \\ \\text{revolute}, \\qquad
              J_j = \\begin{pmatrix} z_j \\\\ 0 \\end{pmatrix} \\ \\text{prismatic},

    with :math:`z_j, p_j` the axis and origin of frame {j-1} (standard DH)
    or {j} (modified DH) and :math:`p_e` the tool point, all in the world
    frame (base and tool included).  ``q`` (n,) gives (6, n); a batch
    (N, n) gives (N, 6, n), computed without a loop over N.  Revolute joint
    coordinates are radians unless ``unit="deg"`` (the Jacobian is always
    per radian).

    ``analytical`` (8.1.3) gives the analytical Jacobian instead, whose
    angular rows are the rates of the tool's ``"rpy/xyz"``, ``"rpy/zyx"``,
    ``"eul"`` (ZYZ) or ``"exp"`` angles (see
    :func:`~rvc.kinematics.analytical.jacob_analytical`; at gimbal lock of
    those angles it warns).

    MATLAB: ``J = p560.jacob0(qn)``, ``p560.jacob0(qn, 'eul')``.

    >>> p560 = rvc.models.puma560()
    >>> jacob0(p560, p560.qn).round(3) + 0
    array([[ 0.15 ,  0.014,  0.32 ,  0.   ,  0.   ,  0.   ],
           [ 0.596,  0.   ,  0.   ,  0.   ,  0.   ,  0.   ],
           [ 0.   ,  0.596,  0.291,  0.   ,  0.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  0.707,  0.   ,  1.   ],
           [ 0.   , -1.   , -1.   ,  0.   , -1.   ,  0.   ],
           [ 1.   ,  0.   ,  0.   , -0.707,  0.   ,  0.   ]])
    >>> jacob0(p560, np.zeros((5, 6))).shape
    (5, 6, 6)
    >>> jacob0(p560, p560.qn, "eul")[3:].round(3) + 0      # rates of ZYZ angles
    array([[ 1.   ,  0.   ,  0.   , -0.707,  0.   ,  0.   ],
           [ 0.   , -1.   , -1.   ,  0.   , -1.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  0.707,  0.   ,  1.   ]])
    """
    if analytical is not None:
        getoption(analytical, "analytical", ANALYTICAL)
    J, T = _jacob0_and_pose(robot, q, unit)
    return J if analytical is None else jacob_analytical(J, T, analytical)


def jacob0_pose(robot: Chain, q: JointVector, *, unit: str = "rad") -> tuple[Jacobian, SE3]:
    """The world-frame Jacobian and the tool pose together: ``(J, T)``.

    ``J = jacob0(robot, q)`` and ``T = robot.fkine(q)``, both from one walk
    along the chain (``robot.joint_frames(q)``), which is what each step of
    a numerical inverse kinematics solver needs.  Shapes (6, n) and (4, 4),
    or (N, 6, n) and (N, 4, 4) for a batch.

    >>> p560 = rvc.models.puma560()
    >>> J, T = jacob0_pose(p560, p560.qn)
    >>> bool(np.array_equal(J, jacob0(p560, p560.qn))), bool(np.allclose(T, p560.fkine(p560.qn)))
    (True, True)
    """
    return _jacob0_and_pose(robot, q, unit)


def jacobe(robot: Chain, q: JointVector, *, unit: str = "rad") -> Jacobian:
    """Geometric Jacobian in the end-effector (tool) frame: shape (6, n) or (N, 6, n).

    .. math:: {}^EJ(q) = \\begin{pmatrix} {}^ER_0 & 0 \\\\ 0 & {}^ER_0 \\end{pmatrix} {}^0J(q),
              \\qquad {}^ER_0 = R^T

    where :math:`R` is the rotation of the tool pose ``fkine(q)``.

    MATLAB: ``p560.jacobe(qn)``.

    >>> p560 = rvc.models.puma560()
    >>> jacobe(p560, p560.qn).round(3) + 0
    array([[ 0.   , -0.596, -0.291,  0.   ,  0.   ,  0.   ],
           [ 0.596,  0.   ,  0.   ,  0.   ,  0.   ,  0.   ],
           [ 0.15 ,  0.014,  0.32 ,  0.   ,  0.   ,  0.   ],
           [-1.   ,  0.   ,  0.   ,  0.707,  0.   ,  0.   ],
           [ 0.   , -1.   , -1.   ,  0.   , -1.   ,  0.   ],
           [ 0.   ,  0.   ,  0.   ,  0.707,  0.   ,  1.   ]])
    """
    J0, Te = _jacob0_and_pose(robot, q, unit)
    Rt = np.swapaxes(Te[..., :3, :3], -1, -2)
    return np.concatenate([Rt @ J0[..., :3, :], Rt @ J0[..., 3:, :]], axis=-2)


def manipulability(robot: Chain, q: JointVector, method: str = "yoshikawa",
                   axes: str | typing.Sequence[bool] = "all", *, unit: str = "rad") -> np.ndarray:
    """Manipulability of the arm at ``q``: a float, or shape (N,) for q of shape (N, n).

    ``J`` is the world-frame Jacobian :func:`jacob0` restricted to the rows
    chosen by ``axes``: ``"all"`` (6 rows), ``"trans"`` (vx vy vz), ``"rot"``
    (wx wy wz), or a mask of 6 booleans (e.g. ``[1, 1, 0, 0, 0, 1]`` for a
    planar arm).  With :math:`\\sigma_i` the singular values of ``J``:

    * ``"yoshikawa"`` (default, 8.2.2), the volume of the velocity ellipsoid
      :math:`v^T (J J^T)^{-1} v = 1` up to a constant:

      .. math:: m = \\sqrt{\\det(J J^T)} = \\prod_i \\sigma_i

      (0 when ``J`` has more rows than joints);
    * ``"invcondition"``: :math:`\\sigma_{min} / \\sigma_{max}`, 1 for a
      spherical ellipsoid, 0 at a singularity; it has no units, unlike the
      Yoshikawa measure, whose value mixes metres and radians;
    * ``"minsingular"``: :math:`\\sigma_{min}`, the smallest radius of the
      ellipsoid.

    All are 0 at a singularity.  (Asada's dynamic manipulability needs the
    inertia matrix of Chapter 9.)  Computed from the singular values, so
    the result is never negative or NaN near a singularity.

    MATLAB: ``m = p560.maniplty(qn)``.

    >>> p560 = rvc.models.puma560()
    >>> round(float(manipulability(p560, p560.qn)), 4)
    0.0786
    >>> manipulability(p560, np.stack([p560.qz, p560.qr, p560.qn])).round(4) + 0
    array([0.    , 0.    , 0.0786])
    >>> round(float(manipulability(p560, p560.qn, axes="trans")), 4)
    0.1112
    >>> manipulability(p560, p560.qn, method="asada")
    Traceback (most recent call last):
    ...
    ValueError: method: expected one of 'yoshikawa', 'invcondition', 'minsingular', got 'asada'
    """
    getoption(method, "method", _METHODS)
    rows = getaxes(axes)
    J = jacob0(robot, q, unit=unit)[..., rows, :]
    s = np.linalg.svd(J, compute_uv=False)                  # (..., min(rows, n)), descending
    if method == "yoshikawa":
        m = np.prod(s, axis=-1) if J.shape[-2] <= J.shape[-1] else np.zeros(J.shape[:-2])
    elif method == "invcondition":
        smax = s[..., 0]
        m = np.divide(s[..., -1], smax, out=np.zeros_like(smax), where=smax > 0)
    else:
        m = s[..., -1]
    m = np.asarray(m, dtype=float)
    return m if m.ndim else m[()]


def jacob_dot(robot: Chain, q: JointVector, qd: JointVector) -> Twist6:
    r"""The end-effector acceleration bias :math:`\dot J(q, \dot q)\,\dot q`, (..., 6).

    The tool's acceleration is :math:`\dot\nu = J\ddot q + \dot J\dot q`
    (rows :math:`(\dot v, \dot\omega)` of the tool point, world frame, as
    :func:`rvc.jacob0`); this is the second term, the acceleration with
    :math:`\ddot q = 0`.  With the unit joint twists :math:`S_j` about the
    world origin (from ``robot.joint_frames``, as in
    :func:`~rvc.dynamics.rne.link_spatial`), the links' spatial velocities
    are :math:`v_j = \sum_{k \le j} S_k\dot q_k` and the last link's
    spatial acceleration is :math:`a = \sum_j v_j \times S_j \dot q_j`, with the
    cross product of motion vectors
    :math:`(v, \omega)\times(m, \mu) = (\omega\times m + v\times\mu,\ \omega\times\mu)`
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
    lin = np.cross(v[..., 3:], V[..., :3]) + np.cross(v[..., :3], V[..., 3:])
    a = np.concatenate([lin, np.cross(v[..., 3:], V[..., 3:])], axis=-1).sum(axis=-2)   # qdd = 0
    v, p = v[..., -1, :], Te[..., :3, 3]
    w, alpha = v[..., 3:], a[..., 3:]
    vp = v[..., :3] + np.cross(w, p)
    ap = a[..., :3] + np.cross(alpha, p) + np.cross(w, vp)
    return np.concatenate(np.broadcast_arrays(ap, alpha), axis=-1)


def jacob0_dot(robot: Chain, q: JointVector, qd: JointVector) -> Jacobian:
    r"""The time derivative of the world-frame Jacobian, :math:`\dot J(q, \dot q)`, (..., 6, n).

    :func:`jacob_dot` gives the product :math:`\dot J\dot q`; a closed chain
    needs the matrix itself (its constraint Jacobian's derivative acts on
    other rates than :math:`\dot q`).  With the unit joint twists :math:`S_j`
    about the world origin and the links' twists
    :math:`v_j = \sum_{k \le j} S_k\dot q_k` (as in :func:`jacob_dot`), an axis
    moves with its link: :math:`\dot S_j = v_j \times S_j` (the cross product
    of motion vectors).  Column j of :func:`jacob0` is the velocity of the tool
    point p, :math:`J_j = (S_{j,v} + S_{j,\omega}\times p,\; S_{j,\omega})`, so

    .. math:: \dot J_j = \begin{pmatrix} \dot S_{j,v} + \dot S_{j,\omega}\times p
              + S_{j,\omega}\times\dot p \\ \dot S_{j,\omega} \end{pmatrix},
              \qquad \dot p = J_v\dot q .

    >>> tl = rvc.models.twolink()
    >>> Jd = jacob0_dot(tl, [0, 0], [1, 0])
    >>> (Jd @ [1, 0]).round(4) + 0                   # the product jacob_dot gives
    array([-2.,  0.,  0.,  0.,  0.,  0.])
    >>> Jd[:2].round(4) + 0
    array([[-2., -1.],
           [ 0.,  0.]])
    """
    n = robot.n
    qa = getq(q, n)
    qd = getq(qd, n, name="qd")
    F, Te = robot.joint_frames(qa)
    z, pj = F[..., :3, 2], F[..., :3, 3]
    rev = np.asarray(robot.revolute, dtype=bool)[:, None]
    Sv, Sw = np.where(rev, np.cross(pj, z), z), np.where(rev, z, 0.0)
    Sv, Sw = np.broadcast_arrays(Sv, Sw, np.zeros(np.broadcast_shapes(Sv.shape, qd.shape + (1,))))[:2]
    v = np.cumsum(Sv * qd[..., None], axis=-2)         # the links' twists (linear part about the origin)
    w = np.cumsum(Sw * qd[..., None], axis=-2)
    Sv_dot = np.cross(w, Sv) + np.cross(v, Sw)
    Sw_dot = np.cross(w, Sw)
    p = Te[..., None, :3, 3]
    p_dot = (v[..., -1, :] + np.cross(w[..., -1, :], Te[..., :3, 3]))[..., None, :]
    lin = Sv_dot + np.cross(Sw_dot, p) + np.cross(Sw, p_dot)
    return np.swapaxes(np.concatenate([lin, Sw_dot], axis=-1), -1, -2)
