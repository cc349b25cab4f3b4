"""Parallel robots built from the course's own serial chains (the elastic parallel chapter).

Each function returns data: the serial chains are :class:`~rvc.models.DHRobot`
models (so ``fkine``, ``jacob0``, ``rne``, ``inertia``, ``plot`` work on every
chain as in Chapters 7-9), and the parallel robots are
:class:`~rvc.parallel.ParallelModel` instances (chains, joint roles and a closure).

* :func:`planar_arm` -- a planar arm of revolute joints in the (x, y) plane, as the
  :class:`~rvc.parallel.PlanarChain` of the same parameters describes it;

>>> arm = planar_arm([1.0, 1.0], [1.0, 1.0])
>>> arm.n, arm.structure
(2, 'RR')
"""

from __future__ import annotations

import numpy as np

from ..checks import getphysical, getscalar, getvector
from ..dynamics.payload import add_point_mass
from ..shapes import ArrayLike
from ..spatial.transforms3d import transl
from .dhrobot import DHRobot
from .link import RevoluteDH

__all__ = ["planar_arm"]


def planar_arm(lengths: ArrayLike, masses: ArrayLike, *, com: ArrayLike | None = None,
               inertia: ArrayLike | None = None, rotor: ArrayLike = 0.0, tip_mass: float = 0.0,
               base: ArrayLike = (0.0, 0.0), g: float = 9.81, name: str = "planar arm") -> DHRobot:
    """A planar arm of n revolute joints about z as a standard-DH robot, gravity along -y.

    Link k has DH parameters :math:`a = l_k`, :math:`\\alpha = d = 0`; its frame
    sits at the link's far end with x along the link, so the centre of mass
    at distance :math:`c_k` from the joint is at :math:`r_k = (c_k - l_k, 0, 0)`
    and the inertia about it is :math:`\\mathrm{diag}(0, I_k, I_k)` (a thin
    rod along x; only :math:`I_{zz} = I_k` acts in the plane).  A point mass
    ``tip_mass`` at the tip is lumped into the last link
    (:func:`~rvc.dynamics.payload.add_point_mass`), the reflected rotor
    inertia goes into :math:`J_m` with :math:`G = 1`, the base is
    :math:`\\mathrm{transl}(b_x, b_y, 0)` and the gravity vector
    :math:`(0, -g, 0)`.  Defaults as :class:`~rvc.parallel.PlanarChain`:
    ``com`` mid-link, ``inertia`` a uniform rod :math:`m l^2 / 12`.

    >>> arm = planar_arm([1.0], [3.0])
    >>> inertia(arm, [0.7]).round(12)            # a rod about its end: m l^2 / 3
    array([[1.]])
    >>> gravload(arm, [0.0]).round(12)           # m g l / 2
    array([14.715])
    """
    lengths = getphysical(lengths, "lengths", "length", positive=True, n=getvector(lengths, "lengths").size)
    n = lengths.size
    masses = getphysical(masses, "masses", "mass", nonnegative=True, n=n)
    com = lengths / 2 if com is None else getvector(com, "com", n)
    inertia = (masses * lengths ** 2 / 12 if inertia is None
               else getphysical(inertia, "inertia", "inertia", nonnegative=True, n=n))
    rotor = getphysical(rotor, "rotor", "rotor inertia", nonnegative=True, n=n)
    tip_mass = getphysical(tip_mass, "tip_mass", "mass", nonnegative=True)
    base = getvector(base, "base", 2)
    links = []
    for k in range(n):
        m, r, I = float(masses[k]), np.array([com[k] - lengths[k], 0.0, 0.0]), np.diag([0.0, inertia[k], inertia[k]])
        if k == n - 1 and tip_mass > 0:
            m, r, I = add_point_mass(m, r, I, tip_mass, np.zeros(3))
        links.append(RevoluteDH(a=float(lengths[k]), m=m, r=r, I=I, Jm=float(rotor[k]), G=1.0))
    return DHRobot(links, name=name, base=transl(base[0], base[1], 0.0),
                   gravity=(0.0, -getscalar(g, "g"), 0.0))
