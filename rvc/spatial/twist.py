"""Twists in 2-D and 3-D, and the adjoint (Chapters 2.1.2.3, 2.2.2.3).

A twist is the vector of an element of se(3) (se(2)), ordered
(linear, angular) as everywhere in rvc:
:math:`S = (v, \\omega) \\in \\mathbb{R}^6` (3-D) or :math:`(v_x, v_y, \\omega)`
(2-D).  Its exponential :math:`e^{[S]\\theta}` is the rigid motion of a
screw: rotation :math:`\\theta|\\omega|` about a line, with translation along
it.  For a unit revolute twist about the line through point :math:`q` with
direction :math:`\\hat\\omega` and pitch :math:`p`,

.. math:: S = (-\\hat\\omega\\times q + p\\hat\\omega,\\; \\hat\\omega),

and for a unit prismatic twist along :math:`\\hat d`, :math:`S = (\\hat d, 0)`.
These are the conventions of Corke's toolbox and spatialmath-python
(``Twist3.UnitRevolute``, ``Twist3.UnitPrismatic``).

>>> C = np.array([1.0, 2.0])
>>> tw = Twist2.R(C)
>>> np.allclose(tw.exp(2), transl2(C) @ trot2(2) @ transl2(-C))
True
>>> tw.pole
array([1., 2.])
"""

from __future__ import annotations

import numpy as np

from .. import checks
from .expmap import skew, skewa, trexp, trexp2, trlog, trlog2
from ..shapes import SE2, SE3, Angle, PlanarTwist, SkewA, Twist6, Vector2, Vector3

__all__ = ["Ad", "Twist3", "Twist2"]


def Ad(T: SE3, check: bool = True) -> np.ndarray:
    """Adjoint of a pose, for twists ordered (linear, angular).

    .. math:: \\mathrm{Ad}(T) = \\begin{pmatrix} R & [t]_\\times R\\\\ 0 & R\\end{pmatrix}

    so that :math:`[\\mathrm{Ad}(T) S] = T [S] T^{-1}`.  (..., 4, 4) gives (..., 6, 6).

    >>> A = Ad(transl(1, 0, 0))
    >>> A[:3, 3:] + 0
    array([[ 0.,  0.,  0.],
           [ 0.,  0., -1.],
           [ 0.,  1.,  0.]])
    """
    T = checks.getpose(T, "T", 3, check=check)
    R = T[..., :3, :3]
    A = np.zeros(T.shape[:-2] + (6, 6))
    A[..., :3, :3] = R
    A[..., 3:, 3:] = R
    A[..., :3, 3:] = skew(T[..., :3, 3]) @ R
    return A


def _fmt(a) -> str:
    return ", ".join(f"{(0.0 if abs(x) < 5e-16 else x):.4g}" for x in np.asarray(a).ravel())


class Twist3:
    """A 3-D twist :math:`S = (v, \\omega)` (linear part first).

    Construct from a 6-vector ``Twist3(S)``, or with :meth:`R` (revolute /
    screw), :meth:`T` (pure translation) or :meth:`from_T` (logarithm of a
    pose).  ``exp(theta)`` gives :math:`e^{[S]\\theta}`.

    >>> tw = Twist3.R([1, 0, 0], [0, 0, 0])
    >>> np.allclose(tw.exp(0.3), trotx(0.3))
    True
    >>> Twist3.T([0, 1, 0]).exp(2)[:3, 3]
    array([0., 2., 0.])
    >>> Twist3.R([0, 0, 1], [2, 3, 2], 0.5)
    Twist3([3, -2, 0.5, 0, 0, 1])
    """

    __slots__ = ("_S",)

    def __init__(self, S: Twist6) -> None:
        self._S = checks.getarray(S, "S", shape=(6,), batch=False).copy()

    # --------------------------------------------------------- constructors
    @classmethod
    def R(cls, axis: Vector3, point: Vector3, pitch: float = 0.0) -> Twist3:
        """Unit twist for rotation about the line through ``point`` along ``axis``.

        :math:`\\hat\\omega = a/|a|`, :math:`S = (-\\hat\\omega\\times q + p\\,\\hat\\omega, \\hat\\omega)`;
        ``pitch`` p is the translation along the axis per radian.

        >>> Twist3.R([0, 0, 2], [1, 0, 0]).S
        array([ 0., -1.,  0.,  0.,  0.,  1.])
        """
        w = checks.getunitvector(axis, "axis", 3)
        q = checks.getvector(point, "point", 3)
        p = checks.getscalar(pitch, "pitch")
        v = -np.cross(w, q) + p * w
        return cls(np.concatenate([v, w]))

    @classmethod
    def T(cls, direction: Vector3) -> Twist3:
        """Unit twist for pure translation along ``direction``: :math:`S = (\\hat d, 0)`.

        >>> Twist3.T([0, 0, 3]).S
        array([0., 0., 1., 0., 0., 0.])
        """
        d = checks.getunitvector(direction, "direction", 3)
        return cls(np.concatenate([d, np.zeros(3)]))

    @classmethod
    def from_T(cls, T: SE3, check: bool = True) -> Twist3:
        """Twist whose exponential is the pose ``T``: :math:`S = \\operatorname{vexa}(\\log T)`.

        Not a unit twist in general; :math:`|\\omega|` is the rotation angle.

        >>> T = transl(1, 2, 3) @ eul2tr(0.3, 0.4, 0.5)
        >>> tw = Twist3.from_T(T)
        >>> np.allclose(tw.exp(), T)
        True
        """
        T = checks.getpose(T, "T", 3, check=check)
        if T.shape != (4, 4):
            raise ValueError(f"T: expected shape (4, 4), got shape {T.shape}")
        return cls(trlog(T, twist=True, check=False))

    # ------------------------------------------------------------ properties
    @property
    def S(self) -> Twist6:
        """The 6-vector :math:`(v, \\omega)` (a copy)."""
        return self._S.copy()

    @property
    def v(self) -> Vector3:
        """Linear part :math:`v` (moment), shape (3,)."""
        return self._S[:3].copy()

    @property
    def w(self) -> Vector3:
        """Angular part :math:`\\omega` (direction), shape (3,)."""
        return self._S[3:].copy()

    @property
    def theta(self) -> float:
        """Rotation magnitude :math:`|\\omega|` (the rotation angle of ``exp()``).

        >>> round(Twist3.from_T(trotx(0.3)).theta, 6)
        0.3
        """
        return float(np.linalg.norm(self._S[3:]))

    @property
    def pitch(self) -> float:
        """Pitch :math:`p = \\omega\\cdot v / |\\omega|^2` (translation per radian); 0 if :math:`\\omega = 0`.

        >>> Twist3.R([0, 0, 1], [2, 3, 2], 0.5).pitch
        0.5
        """
        ww = float(np.dot(self._S[3:], self._S[3:]))
        return float(np.dot(self._S[3:], self._S[:3]) / ww) if ww > 0 else 0.0

    @property
    def pole(self) -> Vector3:
        """Point on the screw axis closest to the origin: :math:`\\omega\\times v / |\\omega|^2`.

        For a pure translation (:math:`\\omega = 0`) the axis can be any line
        along :math:`v`; the origin ``[0, 0, 0]`` is returned.
        (spatialmath-python divides by :math:`|\\omega|`, which agrees for unit twists.)

        >>> Twist3.R([0, 0, 1], [2, 3, 2], 0.5).pole + 0
        array([2., 3., 0.])
        """
        w, v = self._S[3:], self._S[:3]
        ww = float(np.dot(w, w))
        return np.cross(w, v) / ww if ww > 0 else np.zeros(3)

    def line(self) -> tuple[Vector3, Vector3]:
        """The screw axis as ``(point, direction)``: (:attr:`pole`, :math:`\\hat\\omega`).

        For a pure translation the direction is :math:`\\hat v` through the origin.

        >>> p, d = Twist3.R([0, 0, 1], [2, 3, 2]).line()
        >>> p + 0, d
        (array([2., 3., 0.]), array([0., 0., 1.]))
        """
        w, v = self._S[3:], self._S[:3]
        nw = np.linalg.norm(w)
        if nw > 0:
            return self.pole, w / nw
        nv = np.linalg.norm(v)
        return np.zeros(3), (v / nv if nv > 0 else np.zeros(3))

    def unit(self) -> Twist3:
        """Unit twist: :math:`S/|\\omega|`, or :math:`S/|v|` if :math:`\\omega = 0`.

        >>> Twist3.from_T(transl(1, 2, 3) @ trotx(0.3)).unit().theta
        1.0
        """
        nw = np.linalg.norm(self._S[3:])
        if nw > 0:
            return Twist3(self._S / nw)
        nv = np.linalg.norm(self._S[:3])
        if nv == 0:
            raise ValueError("Twist3.unit: expected a non-zero twist, got S = 0")
        return Twist3(self._S / nv)

    def se(self) -> SkewA:
        """Augmented skew matrix :math:`[S] = \\begin{pmatrix}[\\omega]_\\times & v\\\\0&0\\end{pmatrix}` (4, 4).

        >>> float(Twist3.T([1, 0, 0]).se()[0, 3])
        1.0
        """
        return skewa(self._S)

    def exp(self, theta: Angle = 1.0, unit: str = "rad") -> SE3:
        """Pose :math:`e^{[S]\\theta}`; ``theta`` of shape (N,) gives (N, 4, 4).

        >>> Twist3.R([0, 0, 1], [2, 3, 2], 0.5).exp(np.linspace(0, 1, 4)).shape
        (4, 4, 4)
        """
        return trexp(self._S, theta, unit=unit)

    def __repr__(self) -> str:
        return f"Twist3([{_fmt(self._S)}])"

    def __eq__(self, other):
        return isinstance(other, Twist3) and np.array_equal(self._S, other._S)

    __hash__ = None


class Twist2:
    """A 2-D twist :math:`S = (v_x, v_y, \\omega)`.

    >>> T = transl2(2, 3) @ trot2(0.5)
    >>> tw = Twist2.from_T(T)
    >>> np.allclose(tw.exp(), T)
    True
    >>> Twist2.R([1, 2])
    Twist2([2, -1, 1])
    """

    __slots__ = ("_S",)

    def __init__(self, S: PlanarTwist) -> None:
        self._S = checks.getarray(S, "S", shape=(3,), batch=False).copy()

    @classmethod
    def R(cls, point: Vector2) -> Twist2:
        """Unit twist for rotation about ``point``: :math:`S = (q_y, -q_x, 1)`
        (that is :math:`v = -\\hat z\\times q`).

        >>> np.round(Twist2.R([1, 2]).exp(np.pi)[:2, 2], 6)
        array([2., 4.])
        """
        q = checks.getvector(point, "point", 2)
        return cls(np.array([q[1], -q[0], 1.0]))

    @classmethod
    def T(cls, direction: Vector2) -> Twist2:
        """Unit twist for pure translation along ``direction``: :math:`S = (\\hat d, 0)`.

        >>> np.round(Twist2.T([1, 1]).exp(np.sqrt(2)), 6) + 0
        array([[1., 0., 1.],
               [0., 1., 1.],
               [0., 0., 1.]])
        """
        d = checks.getunitvector(direction, "direction", 2)
        return cls(np.array([d[0], d[1], 0.0]))

    @classmethod
    def from_T(cls, T: SE2, check: bool = True) -> Twist2:
        """Twist whose exponential is the SE(2) pose ``T`` (:math:`S = \\operatorname{vexa}(\\log T)`).

        >>> Twist2.from_T(transl2(1, 2)).S
        array([1., 2., 0.])
        """
        T = checks.getpose(T, "T", 2, check=check)
        if T.shape != (3, 3):
            raise ValueError(f"T: expected shape (3, 3), got shape {T.shape}")
        return cls(trlog2(T, twist=True, check=False))

    @property
    def S(self) -> PlanarTwist:
        """The 3-vector :math:`(v_x, v_y, \\omega)` (a copy)."""
        return self._S.copy()

    @property
    def v(self) -> Vector2:
        """Linear part (2,)."""
        return self._S[:2].copy()

    @property
    def w(self) -> float:
        """Angular part :math:`\\omega` (a scalar)."""
        return float(self._S[2])

    @property
    def theta(self) -> float:
        """Rotation magnitude :math:`|\\omega|`."""
        return abs(float(self._S[2]))

    @property
    def pole(self) -> Vector2:
        """Centre of rotation :math:`(-v_y, v_x)/\\omega`; ``[0, 0]`` for a pure translation.

        >>> Twist2.R([1, 2]).pole
        array([1., 2.])
        """
        w = float(self._S[2])
        if w == 0:
            return np.zeros(2)
        return np.array([-self._S[1], self._S[0]]) / w

    def unit(self) -> Twist2:
        """Unit twist: :math:`S/|\\omega|`, or :math:`S/|v|` if :math:`\\omega = 0`."""
        nw = abs(float(self._S[2]))
        if nw > 0:
            return Twist2(self._S / nw)
        nv = np.linalg.norm(self._S[:2])
        if nv == 0:
            raise ValueError("Twist2.unit: expected a non-zero twist, got S = 0")
        return Twist2(self._S / nv)

    def se(self) -> SkewA:
        """Augmented skew matrix (3, 3) in se(2)."""
        return skewa(self._S)

    def exp(self, theta: Angle = 1.0, unit: str = "rad") -> SE2:
        """Pose :math:`e^{[S]\\theta}` in SE(2); ``theta`` of shape (N,) gives (N, 3, 3).

        >>> Twist2.R([1, 2]).exp([0, 1, 2]).shape
        (3, 3, 3)
        """
        return trexp2(self._S, theta, unit=unit)

    def __repr__(self) -> str:
        return f"Twist2([{_fmt(self._S)}])"

    def __eq__(self, other):
        return isinstance(other, Twist2) and np.array_equal(self._S, other._S)

    __hash__ = None
