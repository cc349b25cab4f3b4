"""The dynamic parameters of a serial robot, read from its links (Chapter 9.2).

The dynamics functions take a :class:`DynamicChain`: a
:class:`~rvc.kinematics.chain.Chain` (the kinematics, read through
``fkine``, ``fkine_all`` and ``joint_frames``) whose ``links`` are
:class:`DynamicLink` s, each carrying the toolbox's parameters
``m r I Jm B Tc G`` (and, optionally, the robot's ``gravity``).  They read
the links through :func:`dynparams`, which gathers the parameters into
arrays and refuses a robot that has none:

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

>>> isinstance(rvc.models.puma560(), DynamicChain), isinstance(ETS3.Rz(), DynamicChain)
(True, False)
>>> P = dynparams(rvc.models.puma560())
>>> P.m
array([ 0.  , 17.4 ,  4.8 ,  0.82,  0.34,  0.09])
>>> float(P.total_mass)
23.45
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable
from collections.abc import Sequence

import numpy as np

from ..checks import getvector
from ..kinematics.chain import Chain
from ..results import Result
from ..shapes import Vector3

__all__ = ["DynamicLink", "DynamicChain", "DynParams", "dynparams", "getgravity"]


@runtime_checkable
class DynamicLink(Protocol):
    """The dynamic parameters of one link, as the dynamics reads them (SI units, as the toolbox).

    Friction and the motor act on the motor side of the gearbox: the joint
    sees ``G**2 * Jm`` of armature inertia and ``G**2 * B`` of viscous friction.

    >>> L = rvc.models.puma560().links[1]
    >>> isinstance(L, DynamicLink), L.m, L.r, L.Tc, L.G
    (True, 17.4, array([-0.3638,  0.006 ,  0.2275]), array([ 0.126, -0.071]), 107.815)
    """

    @property
    def m(self) -> float:
        """Mass of the link (a float, kg)."""

    @property
    def r(self) -> np.ndarray:
        """(3,) centre of mass in the link frame {j} (m)."""

    @property
    def I(self) -> np.ndarray:  # noqa: E743  (the toolbox's name)
        """(3, 3) inertia tensor about the centre of mass, in the link frame's axes (kg m^2)."""

    @property
    def Jm(self) -> float:
        """Motor (armature) inertia, motor side (a float, kg m^2)."""

    @property
    def B(self) -> float:
        """Motor viscous friction, motor side (a float, N m s/rad)."""

    @property
    def Tc(self) -> np.ndarray:
        """(2,) motor Coulomb friction ``[Tc+, Tc-]`` for positive and negative speed, motor side (N m)."""

    @property
    def G(self) -> float:
        """Gear ratio, motor speed over joint speed (a float, may be negative)."""


@runtime_checkable
class DynamicChain(Chain, Protocol):
    """A :class:`~rvc.kinematics.chain.Chain` whose links carry dynamic parameters.

    Link j of ``links`` is the body that joint j moves; its parameters are
    given in the frame of that link (frame {j} of a DH chain).  A robot may
    also have ``gravity`` (3,), the acceleration of free fall in the world
    frame (default ``(0, 0, -9.81)``).

    >>> p560 = rvc.models.puma560()
    >>> isinstance(p560, DynamicChain), len(p560.links) == p560.n
    (True, True)
    """

    @property
    def links(self) -> Sequence[DynamicLink]:
        """The n links, in joint order, each a :class:`DynamicLink`."""


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


def dynparams(robot: DynamicChain) -> DynParams:
    """Gather the links' dynamic parameters ``m r I Jm B Tc G`` into arrays.

    ``robot.links`` is read as data (each link has the attributes of the
    table above).  A robot without links, or whose links all have zero mass,
    zero inertia and zero motor inertia, has no dynamics: ``ValueError``.

    >>> dynparams(rvc.models.planar2())
    Traceback (most recent call last):
    ...
    ValueError: robot: expected a robot with dynamic parameters (link masses, inertias or motor inertias), got
    'Planar 2 link' whose links have none
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


def getgravity(gravity: Vector3 | None, robot: Chain) -> Vector3:
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
