"""One link of a serial robot: DH parameters, joint type and dynamics (Chapter 7.1.2).

A :class:`Link` is data; :func:`rvc.kinematics.dh.link_transform` computes
its transform.  :func:`RevoluteDH`, :func:`PrismaticDH`, :func:`RevoluteMDH`
and :func:`PrismaticMDH` build links as the toolbox does.

>>> RevoluteDH(a=1).A(np.pi / 2)[:3, 3].round(6)
array([0., 1., 0.])
"""

from __future__ import annotations

import numpy as np

from ..checks import getcoulomb, getinertia, getphysical, getscalar, getvector
from ..kinematics.dh import link_transform
from ..shapes import SE3, ArrayLike, Inertia, Vector3

__all__ = ["Link", "RevoluteDH", "PrismaticDH", "RevoluteMDH", "PrismaticMDH"]


def _qlim(v):
    if v is None:
        return None
    a = getvector(v, "qlim", 2)
    if a[0] > a[1]:
        raise ValueError(f"qlim: expected [lower, upper] with lower <= upper, got {a.tolist()}")
    return a


_SCALARS = ("theta", "d", "a", "alpha", "offset")
#: The physical parameters and their rule (:func:`rvc.checks.getphysical`).
_PHYSICAL = {"m": ("mass", "nonnegative"), "Jm": ("motor inertia", "nonnegative"),
             "B": ("viscous friction", "nonnegative"), "G": ("gear ratio", "nonzero")}
_NORMALISE = {
    **{k: (lambda k: (lambda v: getscalar(v, k)))(k) for k in _SCALARS},
    **{k: (lambda k, what, rule: (lambda v: getphysical(v, k, what, **{rule: True})))(k, *spec)
       for k, spec in _PHYSICAL.items()},
    "sigma": lambda v: _sigma(v),
    "mdh": bool,
    "qlim": _qlim,
    "r": lambda v: getvector(v, "r", 3),
    "I": lambda v: getinertia(v, "I", triangle=False),
    "Tc": getcoulomb,
}


def _sigma(v):
    if v not in (0, 1):
        raise ValueError(f"sigma: expected 0 (revolute) or 1 (prismatic), got {v!r}")
    return int(v)


class Link:
    """One link of a serial robot: DH parameters, joint type and dynamics.

    Kinematics: ``theta d a alpha`` (radians, metres), ``sigma`` 0 for a
    revolute joint (``theta = q + offset`` varies) or 1 for a prismatic one
    (``d = q + offset`` varies), ``mdh`` true for modified DH, ``offset``
    (joint coordinate offset, 7.4.1) and ``qlim = [lower, upper]`` or None.

    Dynamics (Chapter 9, SI units, as in the toolbox): ``m`` mass, ``r``
    centre of mass in the link frame (3,), ``I`` inertia about the centre
    of mass (3x3; a 3-vector is the diagonal, a 6-vector is the toolbox's
    ``[Ixx, Iyy, Izz, Ixy, Iyz, Ixz]``; symmetric and positive
    semi-definite, see :func:`rvc.checks.getinertia` -- the triangle
    inequality is not required, since published lumped parameters such as
    the Puma 560's do not satisfy it), ``Jm`` motor inertia, ``B`` motor
    viscous friction, ``Tc = [Tc+, Tc-]`` motor Coulomb friction (a scalar
    ``c`` means ``[c, -c]``), ``G`` gear ratio.  All are checked on
    assignment, so ``link.m = 2`` works as ``L(1).m = 2`` does in MATLAB,
    and ``link.m = -5`` raises: ``m``, ``Jm``, ``B`` and ``c`` are
    non-negative, ``Tc+ >= 0 >= Tc-``, ``G`` is non-zero (it may be
    negative), by the one rule :func:`rvc.checks.getphysical`.

    >>> L = Link(a=1)
    >>> L.A(0.5).round(4)
    array([[ 0.8776, -0.4794,  0.    ,  0.8776],
           [ 0.4794,  0.8776, -0.    ,  0.4794],
           [ 0.    ,  0.    ,  1.    ,  0.    ],
           [ 0.    ,  0.    ,  0.    ,  1.    ]])
    >>> Link(I=[1, 2, 3, 0, 0, 0]).I
    array([[1., 0., 0.],
           [0., 2., 0.],
           [0., 0., 3.]])
    >>> L.m = -5
    Traceback (most recent call last):
    ...
    ValueError: m: expected a non-negative mass, got -5.0
    """

    def __init__(self, theta: float = 0.0, d: float = 0.0, a: float = 0.0, alpha: float = 0.0, *, sigma: int = 0,
                 mdh: bool = False, offset: float = 0.0, qlim: ArrayLike | None = None, m: float = 0.0,
                 r: Vector3 = (0.0, 0.0, 0.0), I: Inertia | ArrayLike = np.zeros((3, 3)), Jm: float = 0.0,
                 B: float = 0.0, Tc: float | ArrayLike = (0.0, 0.0), G: float = 1.0, name: str = "") -> None:
        for k, v in (("theta", theta), ("d", d), ("a", a), ("alpha", alpha),
                     ("sigma", sigma), ("mdh", mdh), ("offset", offset), ("qlim", qlim),
                     ("m", m), ("r", r), ("I", I), ("Jm", Jm), ("B", B), ("Tc", Tc),
                     ("G", G)):
            setattr(self, k, v)
        self.name = str(name)

    def __setattr__(self, key, value):
        if key in _NORMALISE:
            value = _NORMALISE[key](value)
        object.__setattr__(self, key, value)

    @property
    def isrevolute(self) -> bool:
        """True for a revolute joint (``sigma == 0``)."""
        return self.sigma == 0

    @property
    def isprismatic(self) -> bool:
        """True for a prismatic joint (``sigma == 1``)."""
        return self.sigma == 1

    @property
    def hasdynamics(self) -> bool:
        """True if any dynamic parameter differs from its default."""
        return bool(self.m != 0 or np.any(self.r) or np.any(self.I) or self.Jm != 0
                    or self.B != 0 or np.any(self.Tc) or self.G != 1)

    def A(self, q: ArrayLike) -> SE3:
        """Link transform for joint coordinate ``q`` (scalar or any shape, batched).

        Revolute: ``dh_transform(q + offset, d, a, alpha)``; prismatic:
        ``dh_transform(theta, q + offset, a, alpha)``; modified DH if ``mdh``.

        >>> PrismaticDH().A([0.1, 0.2])[:, 2, 3]
        array([0.1, 0.2])
        """
        return link_transform(self, q)

    def copy(self) -> Link:
        """An independent copy (arrays copied).

        >>> L = RevoluteDH(a=1); L2 = L.copy(); L2.a = 2; L.a
        1.0
        """
        new = object.__new__(Link)
        for k, v in self.__dict__.items():
            object.__setattr__(new, k, v.copy() if isinstance(v, np.ndarray) else v)
        return new

    def __repr__(self):
        kind = ("Prismatic" if self.isprismatic else "Revolute") + ("MDH" if self.mdh else "DH")
        var = "theta" if self.isprismatic else "d"
        parts = [f"{var}={getattr(self, var):.4g}", f"a={self.a:.4g}",
                 f"alpha={self.alpha:.4g}"]
        if self.offset:
            parts.append(f"offset={self.offset:.4g}")
        if self.qlim is not None:
            parts.append(f"qlim=[{self.qlim[0]:.4g}, {self.qlim[1]:.4g}]")
        return f"{kind}({', '.join(parts)})"


def RevoluteDH(d: float = 0.0, a: float = 0.0, alpha: float = 0.0, offset: float = 0.0,
               qlim: ArrayLike | None = None, **dynamics: ArrayLike) -> Link:
    """Revolute link, standard DH: ``A = Rz(q + offset) Tz(d) Tx(a) Rx(alpha)``.

    ``dynamics`` are the keywords ``m r I Jm B Tc G`` of :class:`Link`.

    >>> RevoluteDH(a=0.4318)
    RevoluteDH(d=0, a=0.4318, alpha=0)
    """
    return Link(0.0, d, a, alpha, sigma=0, mdh=False, offset=offset, qlim=qlim, **dynamics)


def PrismaticDH(theta: float = 0.0, a: float = 0.0, alpha: float = 0.0, offset: float = 0.0,
                qlim: ArrayLike | None = None, **dynamics: ArrayLike) -> Link:
    """Prismatic link, standard DH: ``A = Rz(theta) Tz(q + offset) Tx(a) Rx(alpha)``.

    >>> PrismaticDH(qlim=[0, 0.21]).isprismatic
    True
    """
    return Link(theta, 0.0, a, alpha, sigma=1, mdh=False, offset=offset, qlim=qlim, **dynamics)


def RevoluteMDH(d: float = 0.0, a: float = 0.0, alpha: float = 0.0, offset: float = 0.0,
                qlim: ArrayLike | None = None, **dynamics: ArrayLike) -> Link:
    """Revolute link, modified DH: ``A = Rx(alpha) Tx(a) Rz(q + offset) Tz(d)``.

    Here ``a`` and ``alpha`` are the notes' a_{j-1}, alpha_{j-1}.

    >>> RevoluteMDH(d=1).mdh
    True
    """
    return Link(0.0, d, a, alpha, sigma=0, mdh=True, offset=offset, qlim=qlim, **dynamics)


def PrismaticMDH(theta: float = 0.0, a: float = 0.0, alpha: float = 0.0, offset: float = 0.0,
                 qlim: ArrayLike | None = None, **dynamics: ArrayLike) -> Link:
    """Prismatic link, modified DH: ``A = Rx(alpha) Tx(a) Rz(theta) Tz(q + offset)``.

    >>> float(PrismaticMDH().A(0.3)[2, 3])
    0.3
    """
    return Link(theta, 0.0, a, alpha, sigma=1, mdh=True, offset=offset, qlim=qlim, **dynamics)
