"""Quaternions and the vector-quaternion pose (Chapters 2.2.1.7, 2.2.2.2).

A quaternion is a float array ``[s, vx, vy, vz]`` (scalar first),
:math:`q = s + v_1 i + v_2 j + v_3 k`.  A unit quaternion represents the
rotation by :math:`\\theta` about :math:`\\hat v`:
:math:`q = \\cos\\frac{\\theta}{2} + \\hat v \\sin\\frac{\\theta}{2}`; ``q`` and
``-q`` are the same rotation, and rvc returns the one with :math:`s \\ge 0`.
Batches are (..., 4) arrays.

Functions that need a *unit* quaternion check :math:`|\\,|q| - 1| \\le` 1e-6
(``check=False`` skips it); use :func:`qunit` to normalise.

A pose can be held as a vector-quaternion pair :math:`\\xi \\sim (t, q)`
(``tr2vq``, ``vq2tr``, ``vqmul``, ``vqinv``, ``vqvmul``).

>>> q = r2q(rpy2r(0.1, 0.2, 0.3))
>>> np.round(q, 4)
array([0.9833, 0.0343, 0.106 , 0.1436])
>>> np.round(qmul(q, qinv(q)), 6) + 0
array([1., 0., 0., 0.])
>>> np.round(qvmul(q, [1, 0, 0]), 4)
array([ 0.9363,  0.2896, -0.1987])
"""

from __future__ import annotations

import numpy as np

from .. import checks
from ..shapes import SE3, SO3, ArrayLike, Quaternion, Vector3
from .transforms3d import rt2tr

__all__ = [
    "r2q", "q2r", "qmul", "qconj", "qinv", "qnorm", "qunit", "qvmul", "qslerp", "qangle",
    "tr2vq", "vq2tr", "vqmul", "vqinv", "vqvmul",
]

def _canonical(q):
    """Unit quaternions with s >= 0 (if s == 0: first non-zero vector component > 0)."""
    s = q[..., 0]
    v = q[..., 1:]
    nz = np.abs(v) > 1e-15
    first = np.take_along_axis(v, np.argmax(nz, axis=-1)[..., None], axis=-1)[..., 0]
    sign = np.where(s > 0, 1.0, np.where(s < 0, -1.0, np.where(first < 0, -1.0, 1.0)))
    return q * sign[..., None]


def r2q(R: SO3 | SE3, check: bool = True) -> Quaternion:
    """Unit quaternion of a rotation (or the rotation of a pose), with s >= 0.

    Shepperd's method: with :math:`4s^2 = 1 + \\operatorname{tr}R`,
    :math:`4v_x^2 = 1 + 2r_{11} - \\operatorname{tr}R` etc., the largest of
    the four is computed by a square root and the others from the
    off-diagonal sums/differences, e.g. :math:`v_x = (r_{32} - r_{23}) / 4s`.
    The result is normalised and its sign chosen so that :math:`s \\ge 0`
    (for :math:`s = 0`, a 180 degree rotation, the first non-zero vector
    component is made positive).  (..., 3, 3) gives (..., 4).

    >>> r2q(np.eye(3))
    array([1., 0., 0., 0.])
    >>> np.round(r2q(rotx(np.pi / 2)), 6)
    array([0.707107, 0.707107, 0.      , 0.      ])
    """
    R = checks.getrotation(R, "R", check=check, allow_pose=True)
    r = R
    tr = np.trace(R, axis1=-2, axis2=-1)
    d = np.stack([1 + tr,
                  1 + 2 * r[..., 0, 0] - tr,
                  1 + 2 * r[..., 1, 1] - tr,
                  1 + 2 * r[..., 2, 2] - tr], axis=-1)
    k = np.argmax(d, axis=-1)
    big = 0.5 * np.sqrt(np.maximum(np.take_along_axis(d, k[..., None], axis=-1)[..., 0], 1e-300))
    f = 0.25 / big
    a = r[..., 2, 1] - r[..., 1, 2]
    b = r[..., 0, 2] - r[..., 2, 0]
    c = r[..., 1, 0] - r[..., 0, 1]
    xy = r[..., 0, 1] + r[..., 1, 0]
    xz = r[..., 0, 2] + r[..., 2, 0]
    yz = r[..., 1, 2] + r[..., 2, 1]
    cands = np.stack([
        np.stack([big, a * f, b * f, c * f], -1),
        np.stack([a * f, big, xy * f, xz * f], -1),
        np.stack([b * f, xy * f, big, yz * f], -1),
        np.stack([c * f, xz * f, yz * f, big], -1),
    ], axis=-2)
    q = np.take_along_axis(cands, k[..., None, None], axis=-2)[..., 0, :]
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return _canonical(q)


def q2r(q: Quaternion, check: bool = True) -> SO3:
    """Rotation matrix of a unit quaternion :math:`q = (s, x, y, z)`.

    .. math:: R = \\begin{pmatrix}
        1-2(y^2+z^2) & 2(xy-sz) & 2(xz+sy)\\\\
        2(xy+sz) & 1-2(x^2+z^2) & 2(yz-sx)\\\\
        2(xz-sy) & 2(yz+sx) & 1-2(x^2+y^2)\\end{pmatrix}

    (..., 4) gives (..., 3, 3).

    >>> np.allclose(q2r([np.cos(0.15), np.sin(0.15), 0, 0]), rotx(0.3))
    True
    """
    q = checks.getunitquaternion(q, "q", check)
    s, x, y, z = np.moveaxis(q, -1, 0)
    R = np.empty(q.shape[:-1] + (3, 3))
    R[..., 0, 0] = 1 - 2 * (y * y + z * z)
    R[..., 0, 1] = 2 * (x * y - s * z)
    R[..., 0, 2] = 2 * (x * z + s * y)
    R[..., 1, 0] = 2 * (x * y + s * z)
    R[..., 1, 1] = 1 - 2 * (x * x + z * z)
    R[..., 1, 2] = 2 * (y * z - s * x)
    R[..., 2, 0] = 2 * (x * z - s * y)
    R[..., 2, 1] = 2 * (y * z + s * x)
    R[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def qmul(q1: Quaternion, q2: Quaternion) -> Quaternion:
    """Hamilton product :math:`q_1 q_2 = (s_1 s_2 - v_1\\cdot v_2,\\; s_1 v_2 + s_2 v_1 + v_1\\times v_2)`.

    Broadcasts over leading dimensions.  For unit quaternions,
    ``q2r(qmul(q1, q2)) == q2r(q1) @ q2r(q2)``.

    >>> qmul([0, 1, 0, 0], [0, 0, 1, 0])      # i j = k
    array([0., 0., 0., 1.])
    """
    a = checks.getquaternion(q1, "q1")
    b = checks.getquaternion(q2, "q2")
    s1, v1 = a[..., :1], a[..., 1:]
    s2, v2 = b[..., :1], b[..., 1:]
    s = s1 * s2 - np.sum(v1 * v2, axis=-1, keepdims=True)
    v = s1 * v2 + s2 * v1 + np.cross(v1, v2)
    return np.concatenate([s, v], axis=-1)


def qconj(q: Quaternion) -> Quaternion:
    """Conjugate :math:`q^* = (s, -v)`.

    >>> qconj([1, 2, 3, 4])
    array([ 1., -2., -3., -4.])
    """
    q = checks.getquaternion(q)
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def qnorm(q: Quaternion) -> np.ndarray:
    """Norm :math:`|q| = \\sqrt{s^2 + v_1^2 + v_2^2 + v_3^2}`; (..., 4) gives (...).

    >>> float(qnorm([1, 2, 2, 4]))
    5.0
    """
    return np.linalg.norm(checks.getquaternion(q), axis=-1)


def qunit(q: Quaternion) -> Quaternion:
    """Unit quaternion :math:`q / |q|`, with the sign chosen so that s >= 0.

    A zero quaternion is a ValueError.

    >>> qunit([0, 0, 0, -2])
    array([0., 0., 0., 1.])
    """
    q = checks.getunitquaternion(q, "q", check=False)
    return _canonical(q / np.linalg.norm(q, axis=-1, keepdims=True))


def qinv(q: Quaternion) -> Quaternion:
    """Inverse :math:`q^{-1} = q^* / |q|^2` (the conjugate for a unit quaternion).

    >>> qinv([0, 2, 0, 0])
    array([ 0. , -0.5, -0. , -0. ])
    """
    q = checks.getunitquaternion(q, "q", check=False)
    return qconj(q) / np.sum(q * q, axis=-1, keepdims=True)


def qvmul(q: Quaternion, v: Vector3, check: bool = True) -> Vector3:
    """Rotate vector(s) ``v`` by unit quaternion ``q``: :math:`q\\,(0, v)\\,q^*`.

    Evaluated as :math:`v' = v + 2s\\,(u\\times v) + 2\\,u\\times(u\\times v)`,
    :math:`q = (s, u)`; equals ``q2r(q) @ v``.  ``q`` (..., 4) and
    ``v`` (..., 3) broadcast.

    >>> np.round(qvmul(r2q(rotz(np.pi / 2)), [1, 0, 0]), 6) + 0
    array([0., 1., 0.])
    """
    q = checks.getunitquaternion(q, "q", check)
    v = checks.getarray(v, "v", shape=(3,))
    s, u = q[..., :1], q[..., 1:]
    uv = np.cross(u, v)
    return v + 2 * s * uv + 2 * np.cross(u, uv)


def qslerp(q0: Quaternion, q1: Quaternion, s: ArrayLike, shortest: bool = False,
           check: bool = True) -> Quaternion:
    """Spherical linear interpolation between unit quaternions ``q0`` and ``q1``.

    .. math:: q(s) = \\frac{\\sin((1-s)\\Omega)}{\\sin\\Omega} q_0
              + \\frac{\\sin(s\\Omega)}{\\sin\\Omega} q_1,\\quad
              \\cos\\Omega = q_0 \\cdot q_1

    ``s`` is a scalar or an array of values in [0, 1]; ``q0`` and ``q1`` are
    single (4,) quaternions; the result has shape ``np.shape(s) + (4,)``.
    With ``shortest=True``, ``q1`` is replaced by ``-q1`` (the same rotation)
    when :math:`q_0\\cdot q_1 < 0`, so the path is the shorter way round.
    For :math:`\\Omega \\approx 0` linear interpolation (normalised) is used.
    Antipodal ``q1 = -q0`` without ``shortest`` is a ValueError (the path is
    undefined).  The result is not sign-canonicalised (it is a continuous path).

    >>> q = qslerp(r2q(np.eye(3)), r2q(rotz(1.0)), [0, 0.5, 1])
    >>> np.round(q, 4)
    array([[1.    , 0.    , 0.    , 0.    ],
           [0.9689, 0.    , 0.    , 0.2474],
           [0.8776, 0.    , 0.    , 0.4794]])
    """
    a = checks.getunitquaternion(q0, "q0", check)
    b = checks.getunitquaternion(q1, "q1", check)
    if a.shape != (4,) or b.shape != (4,):
        raise ValueError(f"q0, q1: expected single quaternions of shape (4,), got shapes "
                         f"{a.shape} and {b.shape}")
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    s = checks.getarray(s, "s")
    if np.any((s < 0) | (s > 1)):
        raise ValueError(f"s: expected values in [0, 1], got min {float(np.min(s)):.3g}, "
                         f"max {float(np.max(s)):.3g}")
    dot = float(np.dot(a, b))
    if shortest and dot < 0:
        b, dot = -b, -dot
    dot = min(max(dot, -1.0), 1.0)
    if dot < -1 + 1e-12:
        raise ValueError("q0, q1: expected non-antipodal quaternions (q1 != -q0), got "
                         "q0 . q1 = -1; the interpolation path is undefined, use shortest=True")
    omega = np.arccos(dot)
    sw = np.sin(omega)
    ss = s[..., None]
    if sw < 1e-9:
        q = (1 - ss) * a + ss * b
    else:
        q = (np.sin((1 - ss) * omega) * a + np.sin(ss * omega) * b) / sw
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def qangle(q1: Quaternion, q2: Quaternion, unit: str = "rad", check: bool = True) -> np.ndarray:
    """Angle of the rotation between two unit quaternions, in :math:`[0, \\pi]`.

    The rotation angle of :math:`q_1^* q_2`:
    :math:`\\theta = 4\\operatorname{atan2}(|q_1 - \\sigma q_2|, |q_1 + \\sigma q_2|)`
    with :math:`\\sigma = \\pm 1` the sign of :math:`q_1\\cdot q_2`, i.e.
    :math:`2\\arccos|q_1\\cdot q_2|` computed without loss of accuracy.
    ``q`` and ``-q`` are the same rotation, so the angle is at most pi.
    (spatialmath-python's ``qangle`` omits :math:`\\sigma` and can return up to 2 pi.)

    >>> round(float(qangle(r2q(rotx(0.3)), r2q(rotx(-0.2)))), 6)
    0.5
    """
    a = checks.getunitquaternion(q1, "q1", check)
    b = checks.getunitquaternion(q2, "q2", check)
    sig = np.where(np.sum(a * b, axis=-1, keepdims=True) < 0, -1.0, 1.0)
    th = 4 * np.arctan2(np.linalg.norm(a - sig * b, axis=-1), np.linalg.norm(a + sig * b, axis=-1))
    return checks.putangle(th, unit)


# ----------------------------------------------------- vector-quaternion pair
def tr2vq(T: SE3, check: bool = True) -> tuple[Vector3, Quaternion]:
    """Vector-quaternion pair ``(t, q)`` of a pose: ``t = T[:3, 3]``, ``q = r2q(T[:3, :3])``.

    >>> t, q = tr2vq(transl(1, 2, 3) @ trotz(np.pi / 2))
    >>> t, np.round(q, 6)
    (array([1., 2., 3.]), array([0.707107, 0.      , 0.      , 0.707107]))
    """
    T = checks.getpose(T, "T", 3, check=check)
    return T[..., :3, 3].copy(), r2q(T[..., :3, :3], check=False)


def vq2tr(t: Vector3, q: Quaternion, check: bool = True) -> SE3:
    """Pose :math:`\\begin{pmatrix} R(q) & t\\\\ 0 & 1\\end{pmatrix}` of a vector-quaternion pair.

    >>> vq2tr([1, 2, 3], [1, 0, 0, 0])[:3, 3]
    array([1., 2., 3.])
    """
    t = checks.getarray(t, "t", shape=(3,))
    R = q2r(q, check)
    return rt2tr(R, t, check=False)


def _getvq(vq, name):
    try:
        t, q = vq
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a (t, q) pair, got {type(vq).__name__}") from None
    return checks.getarray(t, f"{name}[0] (t)", shape=(3,)), q


def vqmul(vq1: tuple, vq2: tuple, check: bool = True) -> tuple[Vector3, Quaternion]:
    """Compose two vector-quaternion poses: :math:`(t_1, q_1)\\oplus(t_2, q_2) = (t_1 + q_1 t_2 q_1^*,\\; q_1 q_2)`.

    Equivalent to ``T1 @ T2``.

    >>> t, q = vqmul(([1, 0, 0], r2q(rotz(np.pi / 2))), ([1, 0, 0], [1, 0, 0, 0]))
    >>> np.round(t, 6) + 0
    array([1., 1., 0.])
    """
    t1, q1 = _getvq(vq1, "vq1")
    t2, q2 = _getvq(vq2, "vq2")
    return t1 + qvmul(q1, t2, check), qmul(q1, checks.getunitquaternion(q2, "q2", check))


def vqinv(vq: tuple, check: bool = True) -> tuple[Vector3, Quaternion]:
    """Inverse of a vector-quaternion pose: :math:`(t, q)^{-1} = (-q^* t q,\\; q^*)`.

    >>> t, q = vqinv(([1, 2, 3], [1, 0, 0, 0]))
    >>> t
    array([-1., -2., -3.])
    """
    t, q = _getvq(vq, "vq")
    qc = qconj(checks.getunitquaternion(q, "q", check))
    return -qvmul(qc, t, check=False), qc


def vqvmul(vq: tuple, p: Vector3, check: bool = True) -> Vector3:
    """Transform point(s) ``p`` (..., 3) by a vector-quaternion pose: :math:`p' = q p q^* + t`.

    >>> np.round(vqvmul(([1, 0, 0], r2q(rotz(np.pi / 2))), [1, 0, 0]), 6) + 0
    array([1., 1., 0.])
    """
    t, q = _getvq(vq, "vq")
    return qvmul(q, p, check) + t
