"""The dynamic parameters of a serial robot, read from its links (Chapter 9.2).

Every dynamics function reads a robot's links through :func:`dynparams`,
which gathers the toolbox's per-link parameters into arrays and refuses a
robot that has none:

==========  ==========  ===================================================
field       shape       meaning (SI units, as in the toolbox)
==========  ==========  ===================================================
``m``       (n,)        link mass
``r``       (n, 3)      centre of mass in the link frame {j}
``I``       (n, 3, 3)   inertia about the centre of mass, link-frame axes
``Jm``      (n,)        motor (armature) inertia, motor side
``B``       (n,)        motor viscous friction, motor side
``Tc``      (n, 2)      motor Coulomb friction ``[Tc+, Tc-]``, motor side
``G``       (n,)        gear ratio (motor speed / joint speed, may be < 0)
==========  ==========  ===================================================

>>> P = dynparams(rvc.models.puma560())
>>> P.m
array([ 0.  , 17.4 ,  4.8 ,  0.82,  0.34,  0.09])
>>> float(P.total_mass)
23.45
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import getvector
from ..results import Result

__all__ = ["DynParams", "dynparams", "getgravity"]


@dataclass(frozen=True, repr=False, eq=False)
class DynParams(Result):
    """Dynamic parameters of all links as arrays (see the module docstring)."""

    unpack = ("m", "r", "I")

    m: np.ndarray
    r: np.ndarray
    I: np.ndarray
    Jm: np.ndarray
    B: np.ndarray
    Tc: np.ndarray
    G: np.ndarray

    @property
    def total_mass(self) -> float:
        """Sum of the link masses (the notes' ``sum([p560.links.m])``)."""
        return float(np.sum(self.m))


def dynparams(robot) -> DynParams:
    """Gather the links' dynamic parameters ``m r I Jm B Tc G`` into arrays.

    ``robot.links`` is read as data (each link has the attributes of the
    table above).  A robot without links, or whose links all have zero mass,
    zero inertia and zero motor inertia, has no dynamics: ``ValueError``.

    >>> dynparams(rvc.models.planar2())
    Traceback (most recent call last):
    ...
    ValueError: robot: expected a robot with dynamic parameters (link masses, inertias or motor inertias), got 'Planar 2 link' whose links have none
    """
    links = getattr(robot, "links", None)
    name = getattr(robot, "name", type(robot).__name__)
    if not links:
        raise ValueError(f"robot: expected a serial robot with links carrying dynamic parameters, "
                         f"got {name!r} with no links")
    m = np.array([L.m for L in links], dtype=float)
    I = np.array([L.I for L in links], dtype=float)
    Jm = np.array([L.Jm for L in links], dtype=float)
    if not (np.any(m) or np.any(I) or np.any(Jm)):
        raise ValueError(f"robot: expected a robot with dynamic parameters (link masses, inertias "
                         f"or motor inertias), got {name!r} whose links have none")
    return DynParams(
        m=m,
        r=np.array([L.r for L in links], dtype=float),
        I=I,
        Jm=Jm,
        B=np.array([L.B for L in links], dtype=float),
        Tc=np.array([L.Tc for L in links], dtype=float),
        G=np.array([L.G for L in links], dtype=float),
    )


def getgravity(gravity, robot) -> np.ndarray:
    """The gravitational acceleration (3,) in the world frame: ``gravity`` or ``robot.gravity``.

    rvc follows roboticstoolbox-python: ``gravity`` is the acceleration of
    free fall, ``(0, 0, -9.81)`` on the Earth with z up.  (MATLAB's toolbox
    stores the opposite vector, the base's fictitious upward acceleration.)

    >>> getgravity(None, rvc.models.puma560())
    array([ 0.  ,  0.  , -9.81])
    >>> getgravity([0, 9.81], rvc.models.puma560())
    Traceback (most recent call last):
    ...
    ValueError: gravity: expected a vector of 3 elements, got shape (2,)
    """
    if gravity is None:
        gravity = getattr(robot, "gravity", (0.0, 0.0, -9.81))
    return getvector(gravity, "gravity", 3)
