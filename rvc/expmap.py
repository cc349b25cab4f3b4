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

from . import checks
from .transforms3d import _r2t, _rodrigues, _rotvec, _skew3, rotx, rotz, transl  # noqa: F401

__all__ = ["skew", "vex", "skewa", "vexa", "trexp", "trlog"]

#: Tolerance on ``max |S + S^T|`` for a matrix to be accepted as skew-symmetric.
SKEW_TOL = 1e-6


# ------------------------------------------------------------------- skew
def skew(v) -> np.ndarray:
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


def vex(S, check: bool = True) -> np.ndarray:
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


def skewa(S) -> np.ndarray:
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


def vexa(S, check: bool = True) -> np.ndarray:
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
        return _r2t(_exp_vec(s[..., 2:], "so2"), t)
    # se3
    phi = s[..., 3:]
    t = (_se3_V(phi) @ s[..., :3, None])[..., 0]
    return _r2t(_rodrigues(phi), t)


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


def trexp(S, theta=None, unit: str = "rad", check: bool = True) -> np.ndarray:
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
    if theta is not None:
        th = checks.getangle(theta, "theta", unit)
        try:
            vec = vec * th[..., None]
        except ValueError:
            raise ValueError(f"theta: expected a shape broadcastable with the batch shape "
                             f"{vec.shape[:-1]} of S, got shape {th.shape}") from None
    return _exp_vec(vec, kind)


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


def trlog(T, twist: bool = False, check: bool = True) -> np.ndarray:
    """Matrix logarithm of a rotation or pose (SO(2), SO(3), SE(2), SE(3)).

    Returns the matrix :math:`\\log T` in so(n)/se(n), the principal value
    that ``scipy.linalg.logm`` gives (rotation angle :math:`\\theta \\in [0, \\pi]`),
    or with ``twist=True`` its vector: ``vex``/``vexa`` of it, i.e.

    * SO(2): :math:`(\\theta,)` with :math:`\\theta = \\operatorname{atan2}(r_{21}, r_{11})`
    * SO(3): :math:`\\hat\\omega\\theta`, from :math:`\\cos\\theta = (\\operatorname{tr}R-1)/2`
      and :math:`R - R^T = 2\\sin\\theta[\\hat\\omega]_\\times` (see below for :math:`\\theta\\approx\\pi`)
    * SE(2): (vx, vy, theta) with :math:`v = V^{-1} t`
    * SE(3): :math:`(v, \\hat\\omega\\theta)` with
      :math:`v = (I - \\tfrac12[\\phi]_\\times + \\frac{1 - (\\theta/2)\\cot(\\theta/2)}{\\theta^2}[\\phi]_\\times^2)\\, t`

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
