"""Skew-symmetric matrices, matrix exponential and logarithm (Chapters 2.1.1.2, 2.2.1.6, 2.3.2).

The Lie algebras and their vectors (linear part first, as everywhere in rvc):

=========  =================  ============================================
group      vector             matrix
=========  =================  ============================================
SO(2)      (theta,)           ``skew(theta)``, (2, 2)
SO(3)      omega (3,)         ``skew(omega)``, (3, 3)
SE(2)      (vx, vy, w)        ``skewa(S)`` = [[skew(w), v], [0, 0]], (3, 3)
SE(3)      (v, omega) (6,)    ``skewa(S)`` = [[skew(omega), v], [0, 0]], (4, 4)
=========  =================  ============================================

``trexp`` evaluates the closed forms (Rodrigues) rather than a series, and
``trlog`` the closed-form inverse, both valid at theta = 0 and theta = pi.

>>> R = np.array([[1, 0, 0], [0, np.cos(0.3), -np.sin(0.3)], [0, np.sin(0.3), np.cos(0.3)]])
>>> S = trlog(R)          # as scipy.linalg.logm(R)
>>> np.round(vex(S), 6)
array([0.3, 0. , 0. ])
>>> np.allclose(trexp(skew([1, 0, 0]) * 0.3), R)
True
"""

from __future__ import annotations

import numpy as np

from .. import checks
from .transforms3d import rt2tr
from ..shapes import SE2, SE3, SO2, SO3, Angle, ArrayLike, PlanarTwist, Skew, SkewA, Twist6, Vector3

__all__ = ["angvec2r", "angvec2tr", "tr2angvec", "skew", "vex", "skewa", "vexa",
           "trexp", "trlog", "trexp2", "trlog2"]

#: Tolerance on ``max |S + S^T|`` for a matrix to be accepted as skew-symmetric.
SKEW_TOL = 1e-6


# ------------------------------------------------------------- angle-axis
def _rodrigues(phi: np.ndarray) -> np.ndarray:
    """SO(3) exponential of rotation vectors ``phi`` (..., 3): Rodrigues' formula.

    :math:`R = I + A [\\phi]_\\times + B [\\phi]_\\times^2`,
    :math:`A = \\sin\\theta/\\theta`, :math:`B = (1-\\cos\\theta)/\\theta^2`,
    :math:`\\theta = |\\phi|`, evaluated without division by zero.
    """
    th = np.linalg.norm(phi, axis=-1)
    A = np.sinc(th / np.pi)
    B = 0.5 * np.sinc(th / (2 * np.pi)) ** 2
    K = _skew3(phi)
    return np.eye(3) + A[..., None, None] * K + B[..., None, None] * (K @ K)


def _skew3(v: np.ndarray) -> np.ndarray:
    S = np.zeros(v.shape[:-1] + (3, 3))
    S[..., 0, 1] = -v[..., 2]
    S[..., 0, 2] = v[..., 1]
    S[..., 1, 0] = v[..., 2]
    S[..., 1, 2] = -v[..., 0]
    S[..., 2, 0] = -v[..., 1]
    S[..., 2, 1] = v[..., 0]
    return S


def _rotvec(R: np.ndarray) -> np.ndarray:
    """Rotation vector :math:`\\hat\\omega\\theta` (..., 3) of rotations R, theta in [0, pi].

    Uses :math:`v = (r_{32}-r_{23}, r_{13}-r_{31}, r_{21}-r_{12}) = 2\\sin\\theta\\,\\hat\\omega`
    and :math:`\\theta = \\operatorname{atan2}(|v|/2, (\\operatorname{tr}R - 1)/2)`.
    For :math:`\\theta > \\pi/2` the axis comes from the symmetric part
    :math:`(R+R^T)/2 - \\cos\\theta I = (1-\\cos\\theta)\\hat\\omega\\hat\\omega^T`
    (accurate up to and at :math:`\\pi`), its sign from ``v``; at exactly
    :math:`\\theta=\\pi` the sign is chosen so that the largest-magnitude
    component of :math:`\\hat\\omega` is positive.
    """
    v = np.stack([R[..., 2, 1] - R[..., 1, 2],
                  R[..., 0, 2] - R[..., 2, 0],
                  R[..., 1, 0] - R[..., 0, 1]], axis=-1)
    s = 0.5 * np.linalg.norm(v, axis=-1)
    c = 0.5 * (np.trace(R, axis1=-2, axis2=-1) - 1.0)
    c = np.clip(c, -1.0, 1.0)
    th = np.arctan2(s, c)
    # branch 1 (theta <= pi/2): v/2 * theta/sin(theta)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(s > 1e-300, th / np.where(s > 1e-300, s, 1.0), 1.0)
    w1 = 0.5 * v * f[..., None]
    # branch 2 (theta > pi/2)
    B = 0.5 * (R + np.swapaxes(R, -1, -2)) - c[..., None, None] * np.eye(3)
    d = np.diagonal(B, axis1=-2, axis2=-1)
    kk = np.argmax(d, axis=-1)
    col = np.take_along_axis(B, kk[..., None, None], axis=-1)[..., 0]
    dk = np.take_along_axis(d, kk[..., None], axis=-1)[..., 0]
    denom = np.sqrt(np.maximum(dk * (1.0 - c), 1e-300))
    w2 = col / denom[..., None]
    sg = np.sign(np.sum(w2 * v, axis=-1))
    sg = np.where(sg == 0, 1.0, sg)
    w2 = w2 * (sg * th)[..., None]
    return np.where((c < 0)[..., None], w2, w1)


def angvec2r(theta: Angle, v: Vector3, unit: str = "rad") -> SO3:
    """Rotation by ``theta`` about the axis ``v`` (Rodrigues' formula).

    .. math:: R = I + \\sin\\theta\\,[\\hat v]_\\times + (1-\\cos\\theta)[\\hat v]_\\times^2

    ``v`` need not be unit (it is normalised) but must be non-zero.
    ``theta`` (shape S) and ``v`` (shape (..., 3)) broadcast.

    >>> np.round(angvec2r(np.pi / 2, [1, 0, 0]), 6) + 0
    array([[ 1.,  0.,  0.],
           [ 0.,  0., -1.],
           [ 0.,  1.,  0.]])
    """
    th = checks.getangle(theta, "theta", unit)
    u = _unitvecs(v, "v")
    return _rodrigues(u * th[..., None])


def angvec2tr(theta: Angle, v: Vector3, unit: str = "rad") -> SE3:
    """Pose with rotation ``angvec2r(theta, v)`` and zero translation.

    >>> np.allclose(angvec2tr(0.3, [0, 0, 2]), trotz(0.3))
    True
    """
    return rt2tr(angvec2r(theta, v, unit), np.zeros(3), check=False)


def _unitvecs(v, name):
    """(..., 3) array of non-zero vectors -> unit vectors (ValueError names ``name``)."""
    a = checks.getarray(v, name, shape=(3,))
    n = np.linalg.norm(a, axis=-1)
    if np.any(n <= 1e-12):
        raise ValueError(f"{name}: expected a non-zero vector, got norm {float(np.min(n)):.3g}")
    return a / n[..., None]


def tr2angvec(R: SO3 | SE3, unit: str = "rad", check: bool = True) -> tuple[float | np.ndarray, Vector3]:
    """Angle and axis ``(theta, v)`` of a rotation or pose.

    :math:`R = e^{[\\hat v]_\\times\\theta}` with :math:`\\theta \\in [0, \\pi]`
    and :math:`\\hat v` a unit vector.  For the identity (:math:`\\theta = 0`)
    the axis is undefined and ``v`` is ``[0, 0, 0]`` (as in
    spatialmath-python).  At :math:`\\theta = \\pi`, :math:`\\pm\\hat v` are
    equivalent; the one whose largest component is positive is returned.
    Batched: (..., 3, 3) gives theta (...,) and v (..., 3).

    >>> theta, v = tr2angvec(rotx(0.3))
    >>> round(float(theta), 6), v
    (0.3, array([1., 0., 0.]))
    >>> tr2angvec(np.eye(3))
    (0.0, array([0., 0., 0.]))
    """
    R = checks.getrotation(R, "R", check=check, allow_pose=True)
    phi = _rotvec(R)
    th = np.linalg.norm(phi, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where((th > 0)[..., None], phi / np.where(th > 0, th, 1.0)[..., None], 0.0)
    th = checks.putangle(th, unit)
    if np.ndim(th) == 0:
        th = float(th)
    return th, v


# ------------------------------------------------------------------- skew
def skew(v: ArrayLike) -> Skew:
    """Skew-symmetric matrix of a vector: :math:`[v]_\\times`.

    * 1 element (or a scalar): :math:`\\begin{pmatrix}0&-\\theta\\\\\\theta&0\\end{pmatrix}` in so(2)
    * 3 elements: :math:`\\begin{pmatrix}0&-v_3&v_2\\\\v_3&0&-v_1\\\\-v_2&v_1&0\\end{pmatrix}`
      in so(3), so that :math:`[v]_\\times u = v \\times u`.

    Batched over leading dimensions of a (..., 3) or (..., 1) array.

    >>> skew([1, 2, 3])
    array([[ 0., -3.,  2.],
           [ 3.,  0., -1.],
           [-2.,  1.,  0.]])
    >>> skew(0.5)
    array([[ 0. , -0.5],
           [ 0.5,  0. ]])
    """
    a = checks.getarray(v, "v")
    if a.ndim == 0:
        a = a.reshape(1)
    if a.shape[-1] == 3:
        return _skew3(a)
    if a.shape[-1] == 1:
        S = np.zeros(a.shape[:-1] + (2, 2))
        S[..., 0, 1] = -a[..., 0]
        S[..., 1, 0] = a[..., 0]
        return S
    raise ValueError(f"v: expected shape (..., 1) or (..., 3), got shape {a.shape}")


def _getskew(S, name, check, sizes=(2, 3)):
    a = checks.getarray(S, name)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.shape[-1] not in sizes:
        want = " or ".join(f"(..., {n}, {n})" for n in sizes)
        raise ValueError(f"{name}: expected shape {want}, got shape {a.shape}")
    if check:
        err = np.max(np.abs(a + np.swapaxes(a, -1, -2)))
        if err > SKEW_TOL:
            raise ValueError(
                f"{name}: expected a skew-symmetric matrix (max |S + S^T| <= {SKEW_TOL:g}), "
                f"got {err:.3g}")
    return a


def vex(S: Skew, check: bool = True) -> np.ndarray:
    """Vector of a skew-symmetric matrix, the inverse of :func:`skew`.

    (2, 2) gives :math:`(s_{21},)`; (3, 3) gives :math:`(s_{32}, s_{13}, s_{21})`.
    The matrix is checked to be skew-symmetric (:data:`SKEW_TOL`) unless
    ``check=False``, in which case the antisymmetric part is used:
    :math:`\\operatorname{vex}((S - S^T)/2)`.

    >>> vex(skew([1, 2, 3]))
    array([1., 2., 3.])
    >>> vex(np.eye(3))
    Traceback (most recent call last):
    ...
    ValueError: S: expected a skew-symmetric matrix (max |S + S^T| <= 1e-06), got 2
    """
    a = _getskew(S, "S", check)
    if a.shape[-1] == 2:
        return 0.5 * (a[..., 1, 0] - a[..., 0, 1])[..., None]
    return 0.5 * np.stack([a[..., 2, 1] - a[..., 1, 2],
                           a[..., 0, 2] - a[..., 2, 0],
                           a[..., 1, 0] - a[..., 0, 1]], axis=-1)


def skewa(S: PlanarTwist | Twist6) -> SkewA:
    """Augmented skew-symmetric matrix of a twist vector.

    * 3 elements (vx, vy, w): :math:`\\begin{pmatrix}[w]_\\times & v\\\\ 0 & 0\\end{pmatrix}` in se(2), (3, 3)
    * 6 elements (v, omega): :math:`\\begin{pmatrix}[\\omega]_\\times & v\\\\ 0 & 0\\end{pmatrix}` in se(3), (4, 4)

    >>> skewa([1, 2, 3])
    array([[ 0., -3.,  1.],
           [ 3.,  0.,  2.],
           [ 0.,  0.,  0.]])
    >>> skewa([1, 2, 3, 4, 5, 6]).shape
    (4, 4)
    """
    a = checks.getarray(S, "S")
    if a.ndim == 0 or a.shape[-1] not in (3, 6):
        raise ValueError(f"S: expected shape (..., 3) or (..., 6), got shape {a.shape}")
    n = a.shape[-1] // 3 + 1            # 2 or 3
    m = np.zeros(a.shape[:-1] + (n + 1, n + 1))
    m[..., :n, :n] = skew(a[..., n:])
    m[..., :n, n] = a[..., :n]
    return m


def vexa(S: SkewA, check: bool = True) -> PlanarTwist | Twist6:
    """Twist vector of an augmented skew-symmetric matrix, the inverse of :func:`skewa`.

    (3, 3) in se(2) gives (vx, vy, w); (4, 4) in se(3) gives (v, omega).
    Checked (top-left block skew-symmetric, bottom row zero) unless
    ``check=False``.

    >>> vexa(skewa([1, 2, 3, 4, 5, 6]))
    array([1., 2., 3., 4., 5., 6.])
    """
    a = checks.getarray(S, "S")
    if a.ndim < 2 or a.shape[-2:] not in ((3, 3), (4, 4)):
        raise ValueError(f"S: expected shape (..., 3, 3) or (..., 4, 4), got shape {a.shape}")
    n = a.shape[-1] - 1
    if check:
        bad = np.max(np.abs(a[..., n, :]))
        if bad > SKEW_TOL:
            raise ValueError(
                f"S: expected an augmented skew-symmetric matrix with bottom row 0, "
                f"got max |bottom row| = {bad:.3g}")
    w = vex(a[..., :n, :n], check=check)
    return np.concatenate([a[..., :n, n], w], axis=-1)


# ------------------------------------------------------------------ trexp
def _se3_V(phi):
    """Left Jacobian V with t = V v for exp of (v, phi), phi = omega*theta (..., 3)."""
    th = np.linalg.norm(phi, axis=-1)
    B = 0.5 * np.sinc(th / (2 * np.pi)) ** 2                  # (1 - cos)/th^2
    small = th < 1e-3
    ths = np.where(small, 1.0, th)
    C = np.where(small, 1.0 / 6.0 - th ** 2 / 120.0, (ths - np.sin(ths)) / ths ** 3)
    K = _skew3(phi)
    return np.eye(3) + B[..., None, None] * K + C[..., None, None] * (K @ K)


def _se2_AB(th):
    """A = sin(th)/th, B = (1 - cos th)/th, so that V = [[A, -B], [B, A]]."""
    A = np.sinc(th / np.pi)
    B = np.sin(th / 2) * np.sinc(th / (2 * np.pi))
    return A, B


def _times_theta(vec: np.ndarray, theta, unit: str) -> np.ndarray:
    """``vec * theta`` (the exponential coordinates of a twist or axis turned by theta),
    or ``vec`` when theta is None; theta broadcasts over the batch."""
    if theta is None:
        return vec
    th = checks.getangle(theta, "theta", unit)
    try:
        return vec * th[..., None]
    except ValueError:
        raise ValueError(f"theta: expected a shape broadcastable with the batch shape "
                         f"{vec.shape[:-1]} of S, got shape {th.shape}") from None


def _exp_vec(s: np.ndarray, kind: str) -> np.ndarray:
    if kind == "so2":
        th = s[..., 0]
        c, sn = np.cos(th), np.sin(th)
        return np.stack([np.stack([c, -sn], -1), np.stack([sn, c], -1)], -2)
    if kind == "so3":
        return _rodrigues(s)
    if kind == "se2":
        th = s[..., 2]
        A, B = _se2_AB(th)
        t = np.stack([A * s[..., 0] - B * s[..., 1], B * s[..., 0] + A * s[..., 1]], -1)
        return rt2tr(_exp_vec(s[..., 2:], "so2"), t, check=False)
    # se3
    phi = s[..., 3:]
    t = (_se3_V(phi) @ s[..., :3, None])[..., 0]
    return rt2tr(_rodrigues(phi), t, check=False)


def _classify_matrix(a, name, check):
    """Which Lie algebra a square matrix belongs to, and its vector."""
    n = a.shape[-1]
    if n == 2:
        return "so2", vex(a, check=check)
    if n == 4:
        return "se3", vexa(a, check=check)
    # 3x3: so(3) if skew-symmetric, se(2) if augmented (bottom row zero).
    # The two overlap only for a rotation about z (same exponential either way);
    # otherwise the structure with the smaller residual wins.
    skew_err = np.max(np.abs(a + np.swapaxes(a, -1, -2)))
    bottom = np.max(np.abs(a[..., 2, :]))
    if bottom <= SKEW_TOL and bottom <= skew_err:
        return "se2", vexa(a, check=check)
    if skew_err <= SKEW_TOL:
        return "so3", vex(a, check=False)
    if not check:
        return "so3", vex(a, check=False)
    raise ValueError(
        f"{name}: expected a skew-symmetric matrix in so(3) or an augmented skew matrix "
        f"in se(2), got max |S + S^T| = {skew_err:.3g} and max |bottom row| = {bottom:.3g}")


def trexp(S: ArrayLike, theta: Angle | None = None, unit: str = "rad",
          check: bool = True) -> SO2 | SO3 | SE2 | SE3:
    """Matrix exponential of an element of so(2), so(3), se(2) or se(3).

    ``S`` is a matrix (as ``scipy.linalg.expm`` takes) or a vector:

    * (..., 2, 2) so(2), or a scalar / (..., 1) vector: SO(2),
      :math:`R = \\begin{pmatrix}\\cos\\theta&-\\sin\\theta\\\\\\sin\\theta&\\cos\\theta\\end{pmatrix}`
    * (..., 3, 3) skew-symmetric, or a (..., 3) vector :math:`\\phi`: SO(3) by Rodrigues,
      :math:`R = I + \\frac{\\sin\\theta}{\\theta}[\\phi]_\\times + \\frac{1-\\cos\\theta}{\\theta^2}[\\phi]_\\times^2`,
      :math:`\\theta = |\\phi|`
    * (..., 3, 3) augmented skew (bottom row zero; when a matrix is within
      tolerance of both forms, the one with the smaller residual is used): SE(2).
      A 3-vector always means so(3); pass an se(2) twist as ``skewa(S)``.
    * (..., 4, 4) or a (..., 6) vector :math:`(v, \\phi)`: SE(3),
      :math:`t = (I + \\frac{1-\\cos\\theta}{\\theta^2}[\\phi]_\\times
      + \\frac{\\theta-\\sin\\theta}{\\theta^3}[\\phi]_\\times^2)\\,v`.

    With ``theta`` the result is :math:`e^{S\\theta}` (``theta`` broadcasts
    against the batch shape of ``S``, e.g. a unit twist and an (N,) array of
    angles give N poses).

    >>> np.allclose(trexp(skew([0, 0, 1]), np.pi / 2), rotz(np.pi / 2))
    True
    >>> np.round(trexp([1, 0, 0, 0, 0, 0], 2.0)[:3, 3], 6)
    array([2., 0., 0.])
    >>> trexp([0, 0, 1], np.linspace(0, 1, 5)).shape
    (5, 3, 3)
    """
    a = checks.getarray(S, "S")
    if a.ndim >= 2 and a.shape[-1] == a.shape[-2] and a.shape[-1] in (2, 3, 4):
        kind, vec = _classify_matrix(a, "S", check)
    else:
        if a.ndim == 0:
            a = a.reshape(1)
        kinds = {1: "so2", 3: "so3", 6: "se3"}
        if a.shape[-1] not in kinds:
            raise ValueError(
                "S: expected a vector of shape (..., 1), (..., 3) or (..., 6), or a matrix "
                f"of shape (..., 2, 2), (..., 3, 3) or (..., 4, 4), got shape {a.shape}")
        kind, vec = kinds[a.shape[-1]], a
    return _exp_vec(_times_theta(vec, theta, unit), kind)


# ------------------------------------------------------------------- trlog
def _log_vec(T: np.ndarray, kind: str) -> np.ndarray:
    if kind == "so2":
        return np.arctan2(T[..., 1, 0], T[..., 0, 0])[..., None]
    if kind == "so3":
        return _rotvec(T)
    if kind == "se2":
        th = np.arctan2(T[..., 1, 0], T[..., 0, 0])
        A, B = _se2_AB(th)
        d = A * A + B * B
        tx, ty = T[..., 0, 2], T[..., 1, 2]
        vx = (A * tx + B * ty) / d
        vy = (-B * tx + A * ty) / d
        return np.stack([vx, vy, th], axis=-1)
    phi = _rotvec(T[..., :3, :3])
    th = np.linalg.norm(phi, axis=-1)
    # V^{-1} = I - 1/2 [phi] + a [phi]^2, a = (1 - (th/2) cot(th/2)) / th^2  (th <= pi)
    small = th < 1e-3
    ths = np.where(small, 1.0, th)
    half = ths / 2
    a = np.where(small, 1.0 / 12.0 + th ** 2 / 720.0,
                 (1.0 - half * np.cos(half) / np.sin(half)) / ths ** 2)
    K = _skew3(phi)
    Vinv = np.eye(3) - 0.5 * K + a[..., None, None] * (K @ K)
    v = (Vinv @ T[..., :3, 3, None])[..., 0]
    return np.concatenate([v, phi], axis=-1)


def trlog(T: SO2 | SO3 | SE2 | SE3, twist: bool = False, check: bool = True) -> np.ndarray:
    """Matrix logarithm of a rotation or pose (SO(2), SO(3), SE(2), SE(3)).

    Returns the matrix :math:`\\log T` in so(n)/se(n), the principal value
    that ``scipy.linalg.logm`` gives (rotation angle :math:`\\theta \\in [0, \\pi]`),
    or with ``twist=True`` its vector: ``vex``/``vexa`` of it, i.e.

    * SO(2): :math:`(\\theta,)` with :math:`\\theta = \\operatorname{atan2}(r_{21}, r_{11})`
    * SO(3): :math:`\\hat\\omega\\theta`, from :math:`\\cos\\theta = (\\operatorname{tr}R-1)/2`
      and :math:`R - R^T = 2\\sin\\theta[\\hat\\omega]_\\times` (see below for :math:`\\theta\\approx\\pi`)
    * SE(2): (vx, vy, theta) with :math:`v = V^{-1} t`
    * SE(3): :math:`(v, \\hat\\omega\\theta)` with
      :math:`v = (I - \\tfrac12[\\phi]_\\times
      + \\frac{1 - (\\theta/2)\\cot(\\theta/2)}{\\theta^2}[\\phi]_\\times^2)\\, t`

    Near :math:`\\theta = \\pi` the axis comes from the symmetric part of R,
    so there is no loss of accuracy and no NaN; at exactly :math:`\\pi` the sign
    of the axis is chosen so that its largest component is positive.
    A (3, 3) input is read as SE(2) if its bottom row is [0, 0, 1] and that
    fits better than orthonormality, otherwise as SO(3) (a rotation about z
    gives the same result either way).

    >>> np.round(trlog(rotx(0.3)), 4) + 0
    array([[ 0. ,  0. ,  0. ],
           [ 0. ,  0. , -0.3],
           [ 0. ,  0.3,  0. ]])
    >>> np.round(trlog(rotx(np.pi), twist=True), 6)
    array([3.141593, 0.      , 0.      ])
    >>> np.round(trlog(transl(1, 2, 3), twist=True), 6) + 0
    array([1., 2., 3., 0., 0., 0.])
    """
    a = checks.getarray(T, "T")
    if a.ndim < 2 or a.shape[-2:] not in ((2, 2), (3, 3), (4, 4)):
        raise ValueError(
            f"T: expected shape (..., 2, 2), (..., 3, 3) or (..., 4, 4), got shape {a.shape}")
    n = a.shape[-1]
    if n == 2:
        kind = "so2"
        checks.getrotation(a, "T", 2, check=check)
    elif n == 4:
        kind = "se3"
        checks.getpose(a, "T", 3, check=check)
    else:
        # SO(3) or SE(2)?  They overlap only for a rotation about z (same log either
        # way); otherwise the structure with the smaller residual wins.
        bottom_err = np.max(np.abs(a[..., 2, :] - np.array([0.0, 0.0, 1.0])))
        ortho_err = np.max(np.abs(np.swapaxes(a, -1, -2) @ a - np.eye(3)))
        if bottom_err <= checks.ORTHO_TOL and bottom_err <= ortho_err:
            kind = "se2"
            checks.getpose(a, "T", 2, check=check)
        else:
            kind = "so3"
            checks.getrotation(a, "T", 3, check=check)
    vec = _log_vec(a, kind)
    if twist:
        return vec
    return skew(vec) if kind in ("so2", "so3") else skewa(vec)


# ------------------------------------------------------- 2-D, kind explicit
def trexp2(S: ArrayLike, theta: Angle | None = None, unit: str = "rad") -> SO2 | SE2:
    """Matrix exponential in 2-D: SO(2) from (..., 1), SE(2) from a twist (..., 3).

    As :func:`trexp` but a 3-vector means an se(2) twist :math:`(v_x, v_y,
    \\omega)`, never so(3):

    .. math:: e^{[S]\\theta} = \\begin{pmatrix} R(\\omega\\theta) & V t \\\\ 0 & 1 \\end{pmatrix},
              \\quad V = \\begin{pmatrix} A & -B \\\\ B & A \\end{pmatrix},
              \\ A = \\frac{\\sin\\phi}{\\phi},\\ B = \\frac{1-\\cos\\phi}{\\phi},
              \\ \\phi = \\omega\\theta,\\ t = (v_x, v_y)\\theta.

    A (..., 2, 2) or (..., 3, 3) matrix is read as so(2) or se(2).

    >>> np.round(trexp2([1, 0, 0], 2.0), 6) + 0
    array([[1., 0., 2.],
           [0., 1., 0.],
           [0., 0., 1.]])
    >>> np.round(trexp2([0, 0, 1], np.pi / 2), 6) + 0
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    a = checks.getarray(S, "S")
    if a.ndim >= 2 and a.shape[-2:] == (2, 2):
        kind, vec = "so2", vex(a)
    elif a.ndim >= 2 and a.shape[-2:] == (3, 3):
        kind, vec = "se2", vexa(a)
    else:
        if a.ndim == 0:
            a = a.reshape(1)
        kinds = {1: "so2", 3: "se2"}
        if a.shape[-1] not in kinds:
            raise ValueError("S: expected a vector of shape (..., 1) or (..., 3), or a matrix of "
                             f"shape (..., 2, 2) or (..., 3, 3), got shape {a.shape}")
        kind, vec = kinds[a.shape[-1]], a
    return _exp_vec(_times_theta(vec, theta, unit), kind)


def trlog2(T: SO2 | SE2, twist: bool = False, check: bool = True) -> np.ndarray:
    """Matrix logarithm in 2-D: of an SO(2) rotation (..., 2, 2) or an SE(2) pose (..., 3, 3).

    As :func:`trlog` but a (3, 3) argument is always an SE(2) pose; with
    ``twist=True`` the result is :math:`(\\theta,)` or :math:`(v_x, v_y, \\theta)`
    with :math:`v = V^{-1} t` (see :func:`trexp2`).

    >>> np.round(trlog2(trexp2([1, 2, 0.5]), twist=True), 6)
    array([1. , 2. , 0.5])
    """
    a = checks.getarray(T, "T")
    if a.ndim >= 2 and a.shape[-2:] == (2, 2):
        checks.getrotation(a, "T", 2, check=check)
        kind = "so2"
    elif a.ndim >= 2 and a.shape[-2:] == (3, 3):
        checks.getpose(a, "T", 2, check=check)
        kind = "se2"
    else:
        raise ValueError(f"T: expected shape (..., 2, 2) or (..., 3, 3), got shape {a.shape}")
    vec = _log_vec(a, kind)
    if twist:
        return vec
    return skew(vec) if kind == "so2" else skewa(vec)
