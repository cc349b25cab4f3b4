"""Rotations and poses in the plane (Chapter 2.1).

A 2-D rotation is a (2, 2) array ``R`` in SO(2); a 2-D pose is a (3, 3)
homogeneous transform in SE(2),

.. math::  T = \\begin{pmatrix} R & t \\\\ 0_{1\\times 2} & 1 \\end{pmatrix}.

Every function accepts batches: an angle array of shape ``S`` gives a stack of
shape ``S + (2, 2)`` or ``S + (3, 3)``.  Angles are radians unless
``unit="deg"``.

Points are rows: a point is a (2,) vector and a set of N points an (N, 2)
array (a batch, like everything else in rvc).  To transform points ``P`` of
shape (N, 2) by ``T`` use ``h2e(e2h(P) @ T.T)``; for one point
``h2e(T @ e2h(p))`` works as in the notes.

>>> T1 = transl2(1, 2) @ trot2(30, unit="deg")
>>> np.round(T1, 4)
array([[ 0.866, -0.5  ,  1.   ],
       [ 0.5  ,  0.866,  2.   ],
       [ 0.   ,  0.   ,  1.   ]])
"""

from __future__ import annotations

import numpy as np

from .. import checks
from ..shapes import SE2, SO2, Angle, ArrayLike

__all__ = ["rot2", "trot2", "transl2", "e2h", "h2e", "isrot2", "ishom2"]


def rot2(theta: Angle, unit: str = "rad") -> SO2:
    """Rotation matrix in SO(2).

    .. math::  R(\\theta) = \\begin{pmatrix}\\cos\\theta & -\\sin\\theta \\\\
               \\sin\\theta & \\cos\\theta\\end{pmatrix}

    ``theta`` of shape ``S`` gives an array of shape ``S + (2, 2)``.

    >>> rot2(90, unit="deg").round(6) + 0
    array([[ 0., -1.],
           [ 1.,  0.]])
    >>> rot2([0.1, 0.2]).shape
    (2, 2, 2)
    """
    th = checks.getangle(theta, "theta", unit)
    c, s = np.cos(th), np.sin(th)
    R = np.empty(th.shape + (2, 2))
    R[..., 0, 0] = c
    R[..., 0, 1] = -s
    R[..., 1, 0] = s
    R[..., 1, 1] = c
    return R


def trot2(theta: Angle, unit: str = "rad", t: ArrayLike | None = None) -> SE2:
    """Pose in SE(2) for a pure rotation (plus an optional translation ``t``).

    .. math::  T = \\begin{pmatrix} R(\\theta) & t \\\\ 0 & 1 \\end{pmatrix}

    >>> np.round(trot2(0.5), 4)
    array([[ 0.8776, -0.4794,  0.    ],
           [ 0.4794,  0.8776,  0.    ],
           [ 0.    ,  0.    ,  1.    ]])
    >>> trot2(0, t=[1, 2])[:2, 2]
    array([1., 2.])
    """
    R = rot2(theta, unit)
    T = np.zeros(R.shape[:-2] + (3, 3))
    T[..., :2, :2] = R
    T[..., 2, 2] = 1.0
    if t is not None:
        T[..., :2, 2] = checks.getarray(t, "t", shape=(2,))
    return T


def transl2(x: ArrayLike, y: ArrayLike | None = None) -> SE2 | np.ndarray:
    """Pure translation in SE(2), or the translation part of a pose.

    * ``transl2(x, y)`` (scalars or broadcastable arrays) and
      ``transl2(v)`` with ``v`` of shape (..., 2) give
      :math:`T = \\begin{pmatrix} I & (x, y)^T \\\\ 0 & 1\\end{pmatrix}`.
    * ``transl2(T)`` with ``T`` of shape (..., 3, 3) returns ``T[..., :2, 2]``
      (the pose is checked).

    >>> transl2(1, 2)
    array([[1., 0., 1.],
           [0., 1., 2.],
           [0., 0., 1.]])
    >>> transl2(transl2([3, 4]))
    array([3., 4.])
    """
    if y is None:
        a = checks.getarray(x, "x")
        if a.ndim >= 2 and a.shape[-2:] == (3, 3):
            return checks.getpose(a, "x", dim=2)[..., :2, 2].copy()
        v = checks.getarray(x, "x", shape=(2,))
    else:
        xa = checks.getarray(x, "x")
        ya = checks.getarray(y, "y")
        try:
            xa, ya = np.broadcast_arrays(xa, ya)
        except ValueError:
            raise ValueError(
                f"x, y: expected broadcastable shapes, got shapes {xa.shape} and {ya.shape}"
            ) from None
        v = np.stack([xa, ya], axis=-1)
    T = np.zeros(v.shape[:-1] + (3, 3))
    T[..., 0, 0] = T[..., 1, 1] = T[..., 2, 2] = 1.0
    T[..., :2, 2] = v
    return T


def e2h(p: ArrayLike) -> np.ndarray:
    """Euclidean to homogeneous coordinates: append a 1 to the last axis.

    :math:`\\tilde p = (p, 1)`.  Works in any dimension; ``p`` of shape
    (..., n) gives (..., n+1).

    >>> e2h([3, 2])
    array([3., 2., 1.])
    >>> e2h(np.zeros((4, 3))).shape
    (4, 4)
    """
    a = checks.getarray(p, "p")
    if a.ndim == 0:
        raise ValueError("p: expected a vector or an (..., n) array of points, got shape ()")
    return np.concatenate([a, np.ones(a.shape[:-1] + (1,))], axis=-1)


def h2e(p: ArrayLike) -> np.ndarray:
    """Homogeneous to Euclidean coordinates: divide by, and drop, the last element.

    :math:`p = \\tilde p_{1:n} / \\tilde p_{n+1}`.  ``p`` of shape (..., n+1)
    gives (..., n).  A last element of 0 (a point at infinity) is a ValueError.

    >>> h2e([6, 4, 2])
    array([3., 2.])
    """
    a = checks.getarray(p, "p")
    if a.ndim == 0 or a.shape[-1] < 2:
        raise ValueError(f"p: expected shape (..., n+1) with n >= 1, got shape {a.shape}")
    w = a[..., -1:]
    if np.any(w == 0):
        raise ValueError("p: expected a non-zero last (scale) element, got 0 (a point at infinity)")
    return a[..., :-1] / w



def isrot2(R: ArrayLike, check: bool = True, tol: float = checks.ORTHO_TOL) -> bool:
    """True if ``R`` is a (..., 2, 2) array of rotations (orthonormal, det +1).

    With ``check=False`` only the shape is tested.  Never raises.

    >>> isrot2(rot2(0.3)), isrot2(np.eye(3)), isrot2(np.diag([1, -1]))
    (True, False, False)
    """
    return checks.passes(lambda a: checks.getrotation(a, "R", 2, tol=tol), R, (2, 2), check)


def ishom2(T: ArrayLike, check: bool = True, tol: float = checks.ORTHO_TOL) -> bool:
    """True if ``T`` is a (..., 3, 3) array of SE(2) poses.

    The bottom row must be ``[0, 0, 1]`` and the rotation part valid
    (skipped with ``check=False``).  Never raises.

    >>> ishom2(transl2(1, 2)), ishom2(np.ones((3, 3))), ishom2(np.eye(4))
    (True, False, False)
    """
    return checks.passes(lambda a: checks.getpose(a, "T", 2, tol=tol), T, (3, 3), check)
