"""Ellipsoids of linear maps: the picture behind manipulability (Chapters 8.2, 8.5.2, 9.2.7).

A linear map :math:`y = A u` sends the unit ball :math:`|u| \\le 1` onto
the ellipsoid

.. math:: \\{\\, y : y^T S^{-1} y \\le 1 \\,\\}, \\qquad S = A A^T,

whose semi-axes are the singular values :math:`\\sigma_i` of :math:`A`
(the square roots of the eigenvalues of :math:`S`) along the left singular
vectors.  With :math:`A = J` it is the velocity ellipsoid of an arm (unit
joint speeds to tool velocity); with :math:`S = (J J^T)^{-1}` the force
ellipsoid (unit joint torques to tool wrench); with :math:`A = J M^{-1}`
the dynamic one (unit torques to tool acceleration).

>>> E = ellipsoid(np.diag([4.0, 1.0]))
>>> E.radii, E.axes
(array([2., 1.]), array([[1., 0.],
       [0., 1.]]))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import SYM_TOL, getarray
from ..results import Result
from ..shapes import ArrayLike

__all__ = ["Ellipsoid", "ellipsoid"]


@dataclass(frozen=True, repr=False, eq=False)
class Ellipsoid(Result):
    """An ellipsoid :math:`\\{c + \\sum_i r_i a_i u_i : |u| \\le 1\\}`, batched.

    ``centre`` (..., k), ``radii`` (..., k) in descending order (zero for a
    flat direction, ``inf`` for an unbounded one), ``axes`` (..., k, k) whose
    columns are the unit directions of the semi-axes.  Unpacks as
    ``centre, radii, axes``.
    """

    unpack = ("centre", "radii", "axes")

    centre: np.ndarray
    radii: np.ndarray
    axes: np.ndarray

    @property
    def volume_factor(self) -> np.ndarray:
        """The product of the radii, :math:`\\prod_i r_i` (the volume divided by that of the unit ball)."""
        return np.prod(self.radii, axis=-1)


def ellipsoid(S: ArrayLike, centre: ArrayLike | None = None) -> Ellipsoid:
    """The ellipsoid :math:`(y - c)^T S^{-1} (y - c) \\le 1` of a symmetric positive semi-definite ``S``.

    Radii :math:`r_i = \\sqrt{\\lambda_i}` and directions from the
    eigen-decomposition :math:`S = V \\Lambda V^T`, sorted by decreasing
    radius; eigenvalues within round-off of zero give radius 0.  ``S`` is
    (..., k, k) (batched), ``centre`` (..., k) or None (the origin).  For
    the image of the unit ball under :math:`A`, pass :math:`S = A A^T`.

    >>> J = np.array([[-1.0, -1.0], [1.0, 0.0]])      # planar 2-link arm at q = (0, pi/2)
    >>> E = ellipsoid(J @ J.T)
    >>> E.radii.round(4), float(E.volume_factor.round(4))
    (array([1.618, 0.618]), 1.0)
    >>> ellipsoid([[1.0, 2.0], [0.0, 1.0]])
    Traceback (most recent call last):
    ...
    ValueError: S: expected a symmetric matrix, got max |S - S^T| = 2
    """
    S = getarray(S, "S")
    if S.ndim < 2 or S.shape[-1] != S.shape[-2]:
        raise ValueError(f"S: expected a square matrix (..., k, k), got shape {S.shape}")
    scale = np.maximum(np.abs(S).max(axis=(-2, -1)), 1e-300)
    asym = np.abs(S - np.swapaxes(S, -1, -2)).max(axis=(-2, -1))
    if np.any(asym > SYM_TOL * scale):
        raise ValueError(f"S: expected a symmetric matrix, got max |S - S^T| = {float(asym.max()):.3g}")
    lam, V = np.linalg.eigh(0.5 * (S + np.swapaxes(S, -1, -2)))
    tol = 1e3 * np.finfo(float).eps * scale[..., None]
    if np.any(lam < -tol):
        raise ValueError(f"S: expected a positive semi-definite matrix, got eigenvalue "
                         f"{float(lam.min()):.3g}")
    radii = np.sqrt(np.where(lam < tol, 0.0, lam))[..., ::-1]
    axes = V[..., ::-1]
    k = S.shape[-1]
    c = np.zeros(S.shape[:-1]) if centre is None else np.broadcast_to(
        getarray(centre, "centre", shape=(k,)), S.shape[:-1]).copy()
    return Ellipsoid(c, radii, axes)
