"""Rotations and poses in 3-D (Chapter 2.2).

A rotation is a (3, 3) array in SO(3), a pose a (4, 4) homogeneous
transform in SE(3).  Batches add leading dimensions everywhere: ``rotx`` of
an (N,) array is (N, 3, 3), ``tr2rpy`` of (N, 3, 3) is (N, 3).  Angles are
radians unless ``unit="deg"``.

Three-angle conventions (as in Corke's toolbox and spatialmath-python):

* ZYZ Euler angles :math:`(\\phi, \\theta, \\psi)`:
  :math:`R = R_z(\\phi) R_y(\\theta) R_z(\\psi)`.
* Roll-pitch-yaw angles, given as ``(roll, pitch, yaw)``:
  ``order="zyx"`` :math:`R = R_z(yaw) R_y(pitch) R_x(roll)` (vehicles, the
  default), ``"xyz"`` :math:`R = R_x(yaw) R_y(pitch) R_z(roll)` (arm
  end-effectors), ``"yxz"`` :math:`R = R_y(yaw) R_x(pitch) R_z(roll)`
  (cameras).

At a singularity (gimbal lock: ZYZ :math:`\\theta \\approx 0, \\pi`; RPY
pitch :math:`\\approx \\pm\\pi/2`) only a sum or difference of two angles is
defined.  ``tr2eul`` then sets :math:`\\phi = 0` and ``tr2rpy`` sets roll = 0,
and both issue :class:`rvc.SingularityWarning`.  "Near" means
:data:`SINGULAR_TOL` (:math:`\\sqrt{\\epsilon} \\approx 1.5\\times10^{-8}`) on
:math:`\\sin\\theta` resp. :math:`\\cos(pitch)`, the threshold that keeps
the round trip ``eul2r(tr2eul(R))`` accurate to about 1e-8 on both sides.

>>> T = transl(1, 0, 0) @ trotx(np.pi / 2) @ transl(0, 1, 0)
>>> np.round(T, 4) + 0
array([[ 1.,  0.,  0.,  1.],
       [ 0.,  0., -1.,  0.],
       [ 0.,  1.,  0.,  1.],
       [ 0.,  0.,  0.,  1.]])
"""

from __future__ import annotations

import numpy as np

from .. import checks
from ..shapes import SE3, SO3, Angle, ArrayLike, Vector3

__all__ = [
    "rotx", "roty", "rotz", "trotx", "troty", "trotz", "transl",
    "t2r", "r2t", "rt2tr", "tr2rt",
    "eul2r", "eul2tr", "tr2eul",
    "rpy2r", "rpy2tr", "tr2rpy",
    "oa2r", "oa2tr", "trnorm", "isrot", "ishom", "trinv",
    "SINGULAR_TOL",
]

#: Threshold on sin(theta) (ZYZ) or cos(pitch) (RPY) below which an
#: orientation is treated as a gimbal-lock singularity.
SINGULAR_TOL = float(np.sqrt(np.finfo(float).eps))

_RPY_ORDERS = ("zyx", "xyz", "yxz")
_AXIS = {"x": 0, "y": 1, "z": 2}


# ----------------------------------------------------------------- elementary
def _rot_axis(th: np.ndarray, axis: int) -> np.ndarray:
    """Rotation about coordinate axis ``axis`` by angles ``th`` (radians)."""
    c, s = np.cos(th), np.sin(th)
    R = np.zeros(th.shape + (3, 3))
    i, j = (axis + 1) % 3, (axis + 2) % 3
    R[..., axis, axis] = 1.0
    R[..., i, i] = c
    R[..., j, j] = c
    R[..., i, j] = -s
    R[..., j, i] = s
    return R


def rotx(theta: Angle, unit: str = "rad") -> SO3:
    """Rotation about the x-axis.

    .. math:: R_x(\\theta) = \\begin{pmatrix}1&0&0\\\\0&\\cos\\theta&-\\sin\\theta\\\\
              0&\\sin\\theta&\\cos\\theta\\end{pmatrix}

    >>> np.round(rotx(0.3), 4)
    array([[ 1.    ,  0.    ,  0.    ],
           [ 0.    ,  0.9553, -0.2955],
           [ 0.    ,  0.2955,  0.9553]])
    >>> rotx(np.array([0.1, 0.2])).shape
    (2, 3, 3)
    """
    return _rot_axis(checks.getangle(theta, "theta", unit), 0)


def roty(theta: Angle, unit: str = "rad") -> SO3:
    """Rotation about the y-axis.

    .. math:: R_y(\\theta) = \\begin{pmatrix}\\cos\\theta&0&\\sin\\theta\\\\0&1&0\\\\
              -\\sin\\theta&0&\\cos\\theta\\end{pmatrix}

    >>> roty(90, unit="deg").round(6) + 0
    array([[ 0.,  0.,  1.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.]])
    """
    return _rot_axis(checks.getangle(theta, "theta", unit), 1)


def rotz(theta: Angle, unit: str = "rad") -> SO3:
    """Rotation about the z-axis.

    .. math:: R_z(\\theta) = \\begin{pmatrix}\\cos\\theta&-\\sin\\theta&0\\\\
              \\sin\\theta&\\cos\\theta&0\\\\0&0&1\\end{pmatrix}

    >>> rotz(90, unit="deg").round(6) + 0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    return _rot_axis(checks.getangle(theta, "theta", unit), 2)


def _r2t(R: np.ndarray, t=None) -> np.ndarray:
    n = R.shape[-1]
    T = np.zeros(R.shape[:-2] + (n + 1, n + 1))
    T[..., :n, :n] = R
    T[..., n, n] = 1.0
    if t is not None:
        T[..., :n, n] = t
    return T


def trotx(theta: Angle, unit: str = "rad", t: ArrayLike | None = None) -> SE3:
    """Pose: rotation about x, plus optional translation ``t``.

    :math:`T = \\begin{pmatrix} R_x(\\theta) & t\\\\ 0 & 1\\end{pmatrix}`

    >>> np.round(trotx(0.3)[1:3, 1:3], 4)
    array([[ 0.9553, -0.2955],
           [ 0.2955,  0.9553]])
    """
    tt = None if t is None else checks.getarray(t, "t", shape=(3,))
    return _r2t(rotx(theta, unit), tt)


def troty(theta: Angle, unit: str = "rad", t: ArrayLike | None = None) -> SE3:
    """Pose: rotation about y, plus optional translation ``t``.

    :math:`T = \\begin{pmatrix} R_y(\\theta) & t\\\\ 0 & 1\\end{pmatrix}`

    >>> troty(0, t=[1, 2, 3])[:3, 3]
    array([1., 2., 3.])
    """
    tt = None if t is None else checks.getarray(t, "t", shape=(3,))
    return _r2t(roty(theta, unit), tt)


def trotz(theta: Angle, unit: str = "rad", t: ArrayLike | None = None) -> SE3:
    """Pose: rotation about z, plus optional translation ``t``.

    :math:`T = \\begin{pmatrix} R_z(\\theta) & t\\\\ 0 & 1\\end{pmatrix}`

    >>> trotz([0.1, 0.2, 0.3]).shape
    (3, 4, 4)
    """
    tt = None if t is None else checks.getarray(t, "t", shape=(3,))
    return _r2t(rotz(theta, unit), tt)


def transl(x: ArrayLike, y: ArrayLike | None = None, z: ArrayLike | None = None) -> SE3 | Vector3:
    """Pure translation in SE(3), or the translation part of a pose.

    * ``transl(x, y, z)`` (scalars or broadcastable arrays) and ``transl(v)``
      with ``v`` of shape (..., 3) give
      :math:`T = \\begin{pmatrix} I & (x, y, z)^T\\\\ 0 & 1\\end{pmatrix}`.
    * ``transl(T)`` with ``T`` of shape (..., 4, 4) returns ``T[..., :3, 3]``
      (the pose is checked).

    >>> transl(1, 2, 3)[:3, 3]
    array([1., 2., 3.])
    >>> transl(transl([4, 5, 6]) @ trotx(1))
    array([4., 5., 6.])
    """
    if y is None and z is None:
        a = checks.getarray(x, "x")
        if a.ndim >= 2 and a.shape[-2:] == (4, 4):
            return checks.getpose(a, "x", dim=3)[..., :3, 3].copy()
        v = checks.getarray(x, "x", shape=(3,))
    else:
        if y is None or z is None:
            raise TypeError("transl: expected x, y and z (or one 3-vector, or a 4x4 pose), "
                            "got only two of x, y, z")
        arrs = [checks.getarray(a, n) for a, n in ((x, "x"), (y, "y"), (z, "z"))]
        try:
            arrs = np.broadcast_arrays(*arrs)
        except ValueError:
            raise ValueError("x, y, z: expected broadcastable shapes, got shapes "
                             + ", ".join(str(a.shape) for a in arrs)) from None
        v = np.stack(arrs, axis=-1)
    return _r2t(np.broadcast_to(np.eye(3), v.shape[:-1] + (3, 3)), v)


# ------------------------------------------------------ rotation <-> pose
def t2r(T: SE3, check: bool = True) -> SO3:
    """Rotation part of a pose: ``T[..., :n, :n]`` (SE(3) -> SO(3), SE(2) -> SO(2)).

    >>> t2r(trotx(0.3)).shape, t2r(np.eye(3)).shape
    ((3, 3), (2, 2))
    """
    T = _getpose_any(T, "T", check)
    n = T.shape[-1] - 1
    return T[..., :n, :n].copy()


def r2t(R: SO3, check: bool = True) -> SE3:
    """Pose with rotation ``R`` and zero translation: :math:`\\begin{pmatrix}R&0\\\\0&1\\end{pmatrix}`.

    Works for SO(2) -> SE(2) and SO(3) -> SE(3).

    >>> r2t(np.eye(2))
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    R = _getrot_any(R, "R", check)
    return _r2t(R)


def rt2tr(R: SO3, t: Vector3, check: bool = True) -> SE3:
    """Pose from rotation and translation: :math:`\\begin{pmatrix}R&t\\\\0&1\\end{pmatrix}`.

    >>> rt2tr(rotx(0), [1, 2, 3])[:3, 3]
    array([1., 2., 3.])
    """
    R = _getrot_any(R, "R", check)
    n = R.shape[-1]
    t = checks.getarray(t, "t", shape=(n,))
    shape = np.broadcast_shapes(R.shape[:-2], t.shape[:-1])
    return _r2t(np.broadcast_to(R, shape + (n, n)), t)


def tr2rt(T: SE3, check: bool = True) -> tuple[SO3, Vector3]:
    """Split a pose into ``(R, t)``: :math:`T = \\begin{pmatrix}R&t\\\\0&1\\end{pmatrix}`.

    >>> R, t = tr2rt(transl(1, 2, 3))
    >>> t
    array([1., 2., 3.])
    """
    T = _getpose_any(T, "T", check)
    n = T.shape[-1] - 1
    return T[..., :n, :n].copy(), T[..., :n, n].copy()


def _getrot_any(R, name, check):
    a = checks.getarray(R, name)
    if a.ndim < 2 or a.shape[-2:] not in ((2, 2), (3, 3)):
        raise ValueError(f"{name}: expected shape (..., 3, 3) or (..., 2, 2), got shape {a.shape}")
    return checks.getrotation(a, name, a.shape[-1], check=check)


def _getpose_any(T, name, check):
    a = checks.getarray(T, name)
    if a.ndim < 2 or a.shape[-2:] not in ((3, 3), (4, 4)):
        raise ValueError(f"{name}: expected shape (..., 4, 4) or (..., 3, 3), got shape {a.shape}")
    return checks.getpose(a, name, a.shape[-1] - 1, check=check)


def _angles3(a, b, c, name, unit):
    """Three angles given separately or as one (..., 3) array -> (..., 3) radians."""
    if b is None and c is None:
        ang = checks.getarray(a, name, shape=(3,))
    else:
        if b is None or c is None:
            raise TypeError(f"{name}: expected three angles or one (..., 3) array, got two")
        arrs = [checks.getarray(v, name) for v in (a, b, c)]
        try:
            ang = np.stack(np.broadcast_arrays(*arrs), axis=-1)
        except ValueError:
            raise ValueError(f"{name}: expected three broadcastable angle arrays, got shapes "
                             + ", ".join(str(v.shape) for v in arrs)) from None
    return checks.getangle(ang, name, unit)


# --------------------------------------------------------------- ZYZ Euler
def eul2r(phi: Angle, theta: Angle | None = None, psi: Angle | None = None, unit: str = "rad") -> SO3:
    """Rotation from ZYZ Euler angles: :math:`R = R_z(\\phi) R_y(\\theta) R_z(\\psi)`.

    Angles are given separately or as one (..., 3) array ``(phi, theta, psi)``.

    >>> R = eul2r(0.1, 0.2, 0.3)
    >>> np.allclose(R, rotz(0.1) @ roty(0.2) @ rotz(0.3))
    True
    >>> eul2r(np.zeros((5, 3))).shape
    (5, 3, 3)
    """
    ang = _angles3(phi, theta, psi, "angles", unit)
    return _rot_axis(ang[..., 0], 2) @ _rot_axis(ang[..., 1], 1) @ _rot_axis(ang[..., 2], 2)


def eul2tr(phi: Angle, theta: Angle | None = None, psi: Angle | None = None, unit: str = "rad") -> SE3:
    """Pose with rotation ``eul2r(phi, theta, psi)`` and zero translation.

    >>> eul2tr(0.1, 0.2, 0.3).shape
    (4, 4)
    """
    return _r2t(eul2r(phi, theta, psi, unit))


def tr2eul(R: SO3 | SE3, unit: str = "rad", flip: bool = False, check: bool = True) -> Vector3:
    """ZYZ Euler angles ``(phi, theta, psi)`` of a rotation or pose.

    With :math:`R = R_z(\\phi) R_y(\\theta) R_z(\\psi)`:

    .. math::  \\theta = \\operatorname{atan2}(\\sqrt{r_{13}^2 + r_{23}^2}, r_{33}),\\quad
               \\phi = \\operatorname{atan2}(r_{23}, r_{13}),\\quad
               \\psi = \\operatorname{atan2}(r_{32}, -r_{31})

    so :math:`\\theta \\in [0, \\pi]` (the toolbox convention);
    ``flip=True`` returns the other solution
    :math:`(\\phi+\\pi, -\\theta, \\psi+\\pi)` (wrapped to :math:`(-\\pi, \\pi]`),
    with :math:`\\theta \\le 0`.
    At a singularity (:math:`\\sin\\theta <` :data:`SINGULAR_TOL`) only
    :math:`\\phi \\pm \\psi` is defined: ``phi`` is set to 0,
    :math:`\\psi = \\operatorname{atan2}(r_{21}, r_{22})`, and a
    :class:`rvc.SingularityWarning` is issued.

    >>> np.round(tr2eul(eul2r(0.1, 0.2, 0.3)), 6)
    array([0.1, 0.2, 0.3])
    >>> np.round(tr2eul(eul2r(0.1, -0.2, 0.3)), 4)   # theta >= 0: another triple
    array([-3.0416,  0.2   , -2.8416])
    >>> np.round(tr2eul(eul2r(0.1, -0.2, 0.3), flip=True), 6)
    array([ 0.1, -0.2,  0.3])
    """
    R = checks.getrotation(R, "R", check=check, allow_pose=True)
    r13, r23, r33 = R[..., 0, 2], R[..., 1, 2], R[..., 2, 2]
    r31, r32 = R[..., 2, 0], R[..., 2, 1]
    st = np.hypot(r13, r23)
    sing = st < SINGULAR_TOL
    sgn = -1.0 if flip else 1.0
    theta = sgn * np.arctan2(st, r33)
    phi = np.arctan2(sgn * r23, sgn * r13)
    psi = np.arctan2(sgn * r32, -sgn * r31)
    if np.any(sing):
        checks.warn_singular(
            "tr2eul: theta is 0 or pi (gimbal lock); only phi +/- psi is defined, "
            "phi was set to zero")
        # theta = 0:  R = Rz(phi + psi);  theta = pi:  R = Rz(phi) Ry(pi) Rz(psi)
        # with phi = 0 both give psi = atan2(r21, r22)
        phi = np.where(sing, 0.0, phi)
        psi = np.where(sing, np.arctan2(R[..., 1, 0], R[..., 1, 1]), psi)
        theta = np.where(sing, sgn * np.arctan2(0.0, r33), theta)
    return checks.putangle(np.stack([phi, theta, psi], axis=-1), unit)


# ------------------------------------------------------------ roll-pitch-yaw
def _rpy_axes(order):
    o = checks.getoption(order, "order", _RPY_ORDERS)
    return _AXIS[o[0]], _AXIS[o[1]], _AXIS[o[2]]


def rpy2r(roll: Angle, pitch: Angle | None = None, yaw: Angle | None = None, unit: str = "rad",
          order: str = "zyx") -> SO3:
    """Rotation from roll-pitch-yaw angles.

    Angles are given separately or as one (..., 3) array ``(roll, pitch, yaw)``.

    * ``order="zyx"``: :math:`R = R_z(yaw) R_y(pitch) R_x(roll)`
    * ``order="xyz"``: :math:`R = R_x(yaw) R_y(pitch) R_z(roll)`
    * ``order="yxz"``: :math:`R = R_y(yaw) R_x(pitch) R_z(roll)`

    >>> np.allclose(rpy2r(0.1, 0.2, 0.3), rotz(0.3) @ roty(0.2) @ rotx(0.1))
    True
    >>> np.allclose(rpy2r([0.1, 0.2, 0.3], order="xyz"), rotx(0.3) @ roty(0.2) @ rotz(0.1))
    True
    """
    i, j, k = _rpy_axes(order)
    ang = _angles3(roll, pitch, yaw, "angles", unit)
    return _rot_axis(ang[..., 2], i) @ _rot_axis(ang[..., 1], j) @ _rot_axis(ang[..., 0], k)


def rpy2tr(roll: Angle, pitch: Angle | None = None, yaw: Angle | None = None, unit: str = "rad",
           order: str = "zyx") -> SE3:
    """Pose with rotation ``rpy2r(roll, pitch, yaw, unit, order)``, zero translation.

    >>> rpy2tr(0.1, 0.2, 0.3)[3]
    array([0., 0., 0., 1.])
    """
    return _r2t(rpy2r(roll, pitch, yaw, unit, order))


def tr2rpy(R: SO3 | SE3, unit: str = "rad", order: str = "zyx", check: bool = True) -> Vector3:
    """Roll-pitch-yaw angles ``(roll, pitch, yaw)`` of a rotation or pose.

    For :math:`R = R_i(yaw) R_j(pitch) R_k(roll)` (``order`` = "ijk") with
    :math:`e = +1` if (i, j, k) is a cyclic permutation of (x, y, z), else
    :math:`-1`:

    .. math::  pitch = \\operatorname{atan2}(e\\,r_{ik}, \\sqrt{r_{ii}^2 + r_{ij}^2}),\\quad
               roll = \\operatorname{atan2}(-e\\,r_{ij}, r_{ii}),\\quad
               yaw = \\operatorname{atan2}(-e\\,r_{jk}, r_{kk})

    (zyx: roll = atan2(r32, r33), yaw = atan2(r21, r11), pitch = -asin r31),
    so pitch lies in :math:`[-\\pi/2, \\pi/2]`.  At gimbal lock
    (:math:`\\cos(pitch) <` :data:`SINGULAR_TOL`) only roll :math:`\\pm` yaw is
    defined: roll is set to 0, :math:`yaw = \\operatorname{atan2}(e\\,r_{kj}, r_{jj})`,
    and a :class:`rvc.SingularityWarning` is issued.

    >>> np.round(tr2rpy(rpy2r(0.1, 0.2, 0.3)), 6)
    array([0.1, 0.2, 0.3])
    >>> np.round(tr2rpy(rpy2r(0.1, 0.2, 0.3, order="xyz"), order="xyz"), 6)
    array([0.1, 0.2, 0.3])
    >>> tr2rpy(rpy2r(np.zeros((4, 3)))).shape
    (4, 3)
    """
    i, j, k = _rpy_axes(order)
    R = checks.getrotation(R, "R", check=check, allow_pose=True)
    e = 1.0 if (j - i) % 3 == 1 else -1.0
    rii, rij, rik = R[..., i, i], R[..., i, j], R[..., i, k]
    cp = np.hypot(rii, rij)
    pitch = np.arctan2(e * rik, cp)
    roll = np.arctan2(-e * rij, rii)
    yaw = np.arctan2(-e * R[..., j, k], R[..., k, k])
    sing = cp < SINGULAR_TOL
    if np.any(sing):
        checks.warn_singular(
            "tr2rpy: pitch is +/-pi/2 (gimbal lock); only roll +/- yaw is defined, "
            "roll was set to zero")
        roll = np.where(sing, 0.0, roll)
        yaw = np.where(sing, np.arctan2(e * R[..., k, j], R[..., j, j]), yaw)
    return checks.putangle(np.stack([roll, pitch, yaw], axis=-1), unit)


# -------------------------------------------------------- two vectors
def oa2r(o: Vector3, a: Vector3) -> SO3:
    """Rotation from orientation (y) and approach (z) vectors.

    .. math:: \\hat n = \\frac{o \\times a}{|o \\times a|},\\quad
              \\hat a = \\frac{a}{|a|},\\quad \\hat o = \\hat a \\times \\hat n,\\quad
              R = (\\hat n\\; \\hat o\\; \\hat a)

    ``o`` and ``a`` need not be unit nor orthogonal (``a`` is kept, ``o`` is
    corrected), but must not be parallel (ValueError).  Batched over (..., 3).

    >>> oa2r([0, 1, 0], [1, 0, 0]) + 0
    array([[ 0.,  0.,  1.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.]])
    """
    o = checks.getarray(o, "o", shape=(3,))
    a = checks.getarray(a, "a", shape=(3,))
    na = np.linalg.norm(a, axis=-1)
    no = np.linalg.norm(o, axis=-1)
    if np.any(na <= 1e-12):
        raise ValueError(f"a: expected a non-zero vector, got norm {float(np.min(na)):.3g}")
    if np.any(no <= 1e-12):
        raise ValueError(f"o: expected a non-zero vector, got norm {float(np.min(no)):.3g}")
    n = np.cross(o, a)
    nn = np.linalg.norm(n, axis=-1)
    sin_angle = nn / (na * no)
    if np.any(sin_angle <= 1e-9):
        raise ValueError("o, a: expected non-parallel vectors, got o parallel to a "
                         f"(sin of angle between them {float(np.min(sin_angle)):.3g})")
    n = n / nn[..., None]
    a = a / na[..., None]
    o = np.cross(a, n)
    return np.stack([n, o, a], axis=-1)


def oa2tr(o: Vector3, a: Vector3) -> SE3:
    """Pose with rotation ``oa2r(o, a)`` and zero translation.

    >>> oa2tr([0, 1, 0], [0, 0, 1])
    array([[1., 0., 0., 0.],
           [0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    return _r2t(oa2r(o, a))


def trnorm(T: SO3 | SE3) -> SO3 | SE3:
    """Re-orthonormalise a rotation (..., 3, 3) or pose (..., 4, 4).

    Keeps the direction of the z column :math:`a`, rebuilds
    :math:`n = o \\times a` and :math:`o = a \\times n` (as ``oa2r``), and for a
    pose resets the bottom row to ``[0, 0, 0, 1]`` keeping the translation.
    The input is not checked for orthonormality (repairing it is the point),
    only for shape and finiteness.

    >>> R = rotx(0.3) @ roty(0.2) + 1e-4
    >>> isrot(R), isrot(trnorm(R))
    (False, True)
    """
    a = checks.getarray(T, "T")
    if a.ndim < 2 or a.shape[-2:] not in ((3, 3), (4, 4)):
        raise ValueError(f"T: expected shape (..., 3, 3) or (..., 4, 4), got shape {a.shape}")
    R = oa2r(a[..., :3, 1], a[..., :3, 2])
    if a.shape[-1] == 3:
        return R
    return _r2t(R, a[..., :3, 3])


def isrot(R: ArrayLike, check: bool = True, tol: float = checks.ORTHO_TOL) -> bool:
    """True if ``R`` is a (..., 3, 3) array of rotations (orthonormal, det +1).

    With ``check=False`` only the shape is tested.  Never raises.

    >>> isrot(rotx(0.3)), isrot(np.eye(4)), isrot(np.diag([1, 1, -1]))
    (True, False, False)
    """
    return checks.passes(lambda x: checks.getrotation(x, "R", 3, tol=tol), R, (3, 3), check)


def ishom(T: ArrayLike, check: bool = True, tol: float = checks.ORTHO_TOL) -> bool:
    """True if ``T`` is a (..., 4, 4) array of SE(3) poses (bottom row [0 0 0 1]).

    >>> ishom(transl(1, 2, 3)), ishom(np.ones((4, 4))), ishom(rotx(1))
    (True, False, False)
    """
    return checks.passes(lambda x: checks.getpose(x, "T", 3, tol=tol), T, (4, 4), check)



def trinv(T: SE3, check: bool = True) -> SE3:
    """Inverse of a pose, without a general matrix inverse.

    .. math:: T^{-1} = \\begin{pmatrix} R^T & -R^T t\\\\ 0 & 1\\end{pmatrix}

    Works for SE(3) (..., 4, 4) and SE(2) (..., 3, 3).

    >>> T = transl(1, 2, 3) @ trotx(0.5)
    >>> np.allclose(trinv(T) @ T, np.eye(4))
    True
    """
    T = _getpose_any(T, "T", check)
    n = T.shape[-1] - 1
    Rt = np.swapaxes(T[..., :n, :n], -1, -2)
    t = -(Rt @ T[..., :n, n, None])[..., 0]
    return _r2t(Rt, t)
