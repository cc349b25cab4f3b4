"""Parallel robots built from the course's own serial chains (the elastic parallel chapter).

Each function returns data: the serial chains are :class:`~rvc.models.DHRobot`
models (so ``fkine``, ``jacob0``, ``rne``, ``inertia``, ``plot`` work on every
chain as in Chapters 7-9), and the parallel robots are
:class:`~rvc.parallel.ParallelModel` instances (chains, joint roles and a closure).

* :func:`planar_arm` -- a planar arm of revolute joints in the (x, y) plane, as the
  :class:`~rvc.parallel.PlanarChain` of the same parameters describes it;
* :func:`fivebar_model` -- Chapter 10's elastic five-bar (two chains, tips meeting at a point);
* :func:`rrr3` -- a planar 3-RRR with elastic proximal links and a moving platform;
* :func:`delta_robot` -- a spatial Delta robot with elastic upper arms and a translating platform.

>>> arm = planar_arm([1.0, 1.0], [1.0, 1.0])
>>> arm.n, arm.structure
(2, 'RR')
"""

from __future__ import annotations

import numpy as np

from ..checks import getphysical, getscalar, getvector
from ..dynamics.payload import add_point_mass
from ..shapes import ArrayLike
from ..parallel.model import ParallelModel, parallel_ikine, platform_closure, point_closure
from ..spatial.transforms3d import transl, trotx, trotz
from .dhrobot import DHRobot
from .link import RevoluteDH

__all__ = ["planar_arm", "fivebar_model", "rrr3", "delta_robot"]


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


def _elbow_guess(B, x, L1, L2, side):
    """(a, p): a two-link arm from B (proximal L1, distal L2) reaching x, elbow on ``side`` (+1 left of B -> x)."""
    r = np.asarray(x, float)[:2] - np.asarray(B, float)[:2]
    d = float(np.hypot(*r))
    if not abs(L1 - L2) < d < L1 + L2:
        raise ValueError(f"home: expected a point the chain from {np.round(B, 4).tolist()} reaches "
                         f"({abs(L1 - L2):.3g} < d < {L1 + L2:.3g}), got d = {d:.3g}")
    u = r / d
    a = (L1 ** 2 - L2 ** 2 + d ** 2) / (2 * d)
    E = a * u + side * np.sqrt(L1 ** 2 - a ** 2) * np.array([-u[1], u[0]])
    a1 = float(np.arctan2(E[1], E[0]))
    w = r - E
    return a1, float((np.arctan2(w[1], w[0]) - a1 + np.pi) % (2 * np.pi) - np.pi)


def _leg(L1, m1, L2, m2, n_elastic, base, Jr, tip_mass, g):
    """A leg of the planar robots: proximal link split into n_elastic + 1 rods, then the distal link."""
    ns = int(n_elastic) + 1
    rotor = [Jr] + [0.0] * ns
    return planar_arm([L1 / ns] * ns + [L2], [m1 / ns] * ns + [m2], rotor=rotor, tip_mass=tip_mass,
                      base=base, g=g), "a" + "e" * (ns - 1) + "p"


def fivebar_model(*, B1: ArrayLike = (-0.10, 0.0), B2: ArrayLike = (0.10, 0.0), L1: float = 0.25, m1: float = 0.5,
                  L2: float = 0.35, m2: float = 0.4, m_ee: float = 0.5, K: float = 500.0, D: float = 0.1,
                  Jr: float = 2e-4, g: float = 9.81, n_elastic: int = 1,
                  home: ArrayLike = (0.0, 0.40)) -> ParallelModel:
    """The elastic planar five-bar of Chapter 10 as a :class:`~rvc.parallel.ParallelModel` of two DH chains.

    The parameters and their defaults are :class:`~rvc.parallel.FiveBar`'s:
    each chain is the :func:`planar_arm` of an actuated joint at :math:`B_k`,
    the proximal link (length L1, mass m1) split into ``n_elastic + 1`` equal
    rods joined by springs (K, D), and the distal link (L2, m2); the
    end-effector mass ``m_ee`` sits on chain 1's tip, the rotor inertia
    ``Jr`` on each actuated joint.  The tips meet at one point
    (:func:`~rvc.parallel.point_closure` on x, y).  ``q_home`` is the
    undeflected mechanism with the end-effector at ``home``, elbows outward.

    >>> robot = fivebar_model()
    >>> robot.roles, robot.q_home.round(4) + 0.0
    ('aepaep', array([ 2.3338,  0.    , -1.6566,  0.8078,  0.    ,  1.6566]))
    """
    if not isinstance(n_elastic, (int, np.integer)) or isinstance(n_elastic, bool) or n_elastic < 0:
        raise ValueError(f"n_elastic: expected a whole number >= 0, got {n_elastic!r}")
    L1 = getphysical(L1, "L1", "length", positive=True)
    L2 = getphysical(L2, "L2", "length", positive=True)
    B1, B2 = getvector(B1, "B1", 2), getvector(B2, "B2", 2)
    legs = [_leg(L1, m1, L2, m2, n_elastic, B, Jr, tip, g) for B, tip in ((B1, m_ee), (B2, 0.0))]
    robot = ParallelModel([c for c, _ in legs], [r for _, r in legs], point_closure("xy"),
                          stiffness=K, damping=D, name="five-bar")
    home = getvector(home, "home", 2)
    guess = np.zeros(robot.N)
    for (B, side), s in zip(((B1, 1.0), (B2, -1.0)), robot.slices):
        guess[s.start], guess[s.stop - 1] = _elbow_guess(B, home, L1, L2, side)
    robot.q_home = parallel_ikine(robot, home, guess=guess)
    return robot


def rrr3(*, R_base: float = 0.30, r_platform: float = 0.08, L1: float = 0.20, m1: float = 0.4, L2: float = 0.20,
         m2: float = 0.3, m_platform: float = 0.5, I_platform: float = 1.5e-3, K: float = 300.0, D: float = 0.05,
         Jr: float = 2e-4, g: float = 9.81, n_elastic: int = 1, home: ArrayLike = (0.0, 0.0, 0.0)) -> ParallelModel:
    """A planar 3-RRR parallel robot with elastic proximal links and a moving platform, in a vertical plane.

    Three legs stand at :math:`B_i = R_b (\\cos\\beta_i, \\sin\\beta_i)`,
    :math:`\\beta_i = 90° + 120° i`; each is the :func:`planar_arm` of an
    actuated joint, a proximal link (L1, m1) split into ``n_elastic + 1``
    rods joined by springs (K, D) and a distal link (L2, m2) whose tip is
    pinned to the platform at :math:`b_i = r_p (\\cos\\beta_i, \\sin\\beta_i)`
    (platform frame).  The platform (mass ``m_platform``, inertia
    ``I_platform`` about its centre) has coordinates :math:`(x, y, \\varphi)`
    (:func:`~rvc.parallel.platform_closure`); gravity acts along -y.  Tree
    coordinates: leg 1, leg 2, leg 3, then :math:`(x, y, \\varphi)`; compact:
    the actuated and elastic joints.  ``q_home`` puts the undeflected platform
    at ``home`` with every elbow to the left of the line from its base to its
    attachment.

    >>> robot = rrr3()
    >>> robot.roles, robot.N, robot.n_compact, robot.k
    ('aepaepaepppp', 12, 6, 6)
    >>> robot.fkine(robot.q_home) + 0.0
    array([0., 0., 0.])
    """
    if not isinstance(n_elastic, (int, np.integer)) or isinstance(n_elastic, bool) or n_elastic < 0:
        raise ValueError(f"n_elastic: expected a whole number >= 0, got {n_elastic!r}")
    R_base = getphysical(R_base, "R_base", "length", positive=True)
    r_platform = getphysical(r_platform, "r_platform", "length", positive=True)
    L1 = getphysical(L1, "L1", "length", positive=True)
    L2 = getphysical(L2, "L2", "length", positive=True)
    beta = np.deg2rad(90.0 + 120.0 * np.arange(3))
    u = np.stack([np.cos(beta), np.sin(beta)], -1)
    legs = [_leg(L1, m1, L2, m2, n_elastic, R_base * ui, Jr, 0.0, g) for ui in u]
    closure = platform_closure(r_platform * u, mass=m_platform, inertia=I_platform, motion="planar")
    robot = ParallelModel([c for c, _ in legs], [r for _, r in legs], closure, stiffness=K, damping=D,
                          gravity=(0.0, -getscalar(g, "g"), 0.0), name="3-RRR")
    home = getvector(home, "home", 3)
    c, s = np.cos(home[2]), np.sin(home[2])
    guess = np.zeros(robot.N)
    guess[robot.platform] = home
    for ui, sl in zip(u, robot.slices):
        P = home[:2] + r_platform * np.array([c * ui[0] - s * ui[1], s * ui[0] + c * ui[1]])
        guess[sl.start], guess[sl.stop - 1] = _elbow_guess(R_base * ui, P, L1, L2, 1.0)
    robot.q_home = parallel_ikine(robot, home, guess=guess)
    return robot


def delta_robot(*, R_base: float = 0.20, r_platform: float = 0.05, L_arm: float = 0.20, m_arm: float = 0.3,
          L_forearm: float = 0.45, m_forearm: float = 0.1, m_platform: float = 0.3, K: float = 200.0,
          D: float = 0.05, Jr: float = 2e-4, g: float = 9.81, n_elastic: int = 1,
          home: ArrayLike = (0.0, 0.0, -0.35)) -> ParallelModel:
    """A spatial three-degree-of-freedom robot of the Delta family with elastic upper arms.

    Leg i hangs from :math:`B_i = R_b(\\cos\\beta_i, \\sin\\beta_i, 0)`,
    :math:`\\beta_i = 120° i`, z up: an actuated joint about the horizontal
    tangent (base :math:`\\mathrm{transl}(B_i) R_z(\\beta_i) R_x(-90°)`; q = 0
    points the arm radially outward, q > 0 turns it down), the upper arm
    (``L_arm``, ``m_arm``) split into ``n_elastic + 1`` rods joined by springs
    (K, D) bending it in its vertical plane, then a universal joint (two
    passive revolute joints, DH :math:`\\alpha = 90°` between them) and the
    forearm, a rod (``L_forearm``, ``m_forearm``: the parallelogram lumped
    into one rod) whose tip meets the platform at
    :math:`b_i = r_p(\\cos\\beta_i, \\sin\\beta_i, 0)`.  The parallelograms keep
    the platform level, so it only translates
    (:func:`~rvc.parallel.platform_closure` with ``motion="translation"``,
    mass ``m_platform``); tree coordinates: the legs, then the platform's
    (x, y, z).  ``q_home`` holds the undeflected platform at ``home`` with the
    elbows out (Newton's method from the arms 35° down, the forearms folded
    back 120°).

    >>> robot = delta_robot()
    >>> robot.roles, robot.N, robot.k, robot.n_compact
    ('aeppaeppaeppppp', 15, 9, 6)
    >>> robot.fkine(robot.q_home).round(12) + 0.0
    array([ 0.  ,  0.  , -0.35])
    """
    if not isinstance(n_elastic, (int, np.integer)) or isinstance(n_elastic, bool) or n_elastic < 0:
        raise ValueError(f"n_elastic: expected a whole number >= 0, got {n_elastic!r}")
    R_base = getphysical(R_base, "R_base", "length", positive=True)
    r_platform = getphysical(r_platform, "r_platform", "length", positive=True)
    L_arm = getphysical(L_arm, "L_arm", "length", positive=True)
    L_forearm = getphysical(L_forearm, "L_forearm", "length", positive=True)
    m_arm = getphysical(m_arm, "m_arm", "mass", nonnegative=True)
    m_forearm = getphysical(m_forearm, "m_forearm", "mass", nonnegative=True)
    ns = int(n_elastic) + 1

    def rod(m, L, **more):
        return RevoluteDH(a=L, m=m, r=[-L / 2, 0.0, 0.0], I=np.diag([0.0, m * L * L / 12, m * L * L / 12]), **more)

    beta = np.deg2rad(120.0 * np.arange(3))
    legs = []
    for k, b in enumerate(beta):
        base = transl(R_base * np.cos(b), R_base * np.sin(b), 0.0) @ trotz(b) @ trotx(-np.pi / 2)
        links = [rod(m_arm / ns, L_arm / ns, Jm=Jr if j == 0 else 0.0) for j in range(ns)]
        links += [RevoluteDH(alpha=np.pi / 2), rod(m_forearm, L_forearm)]
        legs.append(DHRobot(links, name=f"Delta leg {k + 1}", base=base, gravity=(0.0, 0.0, -getscalar(g, "g"))))
    att = r_platform * np.stack([np.cos(beta), np.sin(beta), np.zeros(3)], -1)
    robot = ParallelModel(legs, ["a" + "e" * (ns - 1) + "pp"] * 3,
                          platform_closure(att, mass=m_platform, motion="translation"),
                          stiffness=K, damping=D, name="Delta")
    home = getvector(home, "home", 3)
    guess = np.zeros(robot.N)
    for s in robot.slices:
        guess[s.start], guess[s.stop - 2] = np.deg2rad(35.0), np.deg2rad(120.0)
    guess[robot.platform] = home
    robot.q_home = parallel_ikine(robot, home, guess=guess)
    return robot
