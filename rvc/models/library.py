"""The model library: functions that return robot models (Chapter 7).

Each function builds a fresh :class:`~rvc.models.DHRobot` (models are data;
change one freely).  Every parameter is copied from a cited source:

* roboticstoolbox-python 1.5 (``roboticstoolbox/models/DH/*.py``, P. Corke
  et al., MIT licence), which in turn copies the MATLAB toolbox's
  ``mdl_*.m`` scripts that the notes call (``mdl_puma560``,
  ``mdl_twolink``, ``mdl_cobra600``, ``mdl_baxter``);
* the notes' walking-robot program (7.5.2, ``examples/walking.m``).

>>> from rvc import models
>>> p560 = models.puma560()
>>> p560.fkine(p560.qz).round(5)
array([[ 1.     ,  0.     ,  0.     ,  0.4521 ],
       [ 0.     ,  1.     ,  0.     , -0.15005],
       [ 0.     ,  0.     ,  1.     ,  0.4318 ],
       [ 0.     ,  0.     ,  0.     ,  1.     ]])
"""

from __future__ import annotations

from math import pi

import numpy as np

from ..checks import getoption, getscalar
from ..dynamics.actuator import Motor
from ..spatial.transforms3d import transl, trotx, trotz
from .dhfactor import DHFactor
from .dhrobot import DHRobot
from .link import Link, PrismaticDH, RevoluteDH

__all__ = ["planar2", "twolink", "puma560", "puma560_mdh", "cobra600", "baxter", "leg",
           "dh_to_mdh", "LEG_STRING", "stanford", "puma560_motor2"]

_deg = pi / 180


def planar2(a1: float = 1.0, a2: float = 1.0) -> DHRobot:
    """Two-link planar arm, standard DH: ``Rz(q1) Tx(a1) Rz(q2) Tx(a2)`` (7.1.1).

    Links ``RevoluteDH(a=a1)``, ``RevoluteDH(a=a2)``; configurations
    ``qz = [0, 0]``, ``qr = q1 = [0, pi/2]``, ``q2 = [pi/2, -pi/2]``.
    Source: roboticstoolbox-python ``models/DH/Planar2.py``.

    >>> planar2().fkine([0, 0])[:3, 3]
    array([2., 0., 0.])
    """
    a1 = getscalar(a1, "a1")
    a2 = getscalar(a2, "a2")
    return DHRobot([RevoluteDH(a=a1), RevoluteDH(a=a2)], name="Planar 2 link",
                   configurations={"qz": [0, 0], "qr": [0, pi / 2], "q1": [0, pi / 2],
                                   "q2": [pi / 2, -pi / 2]})


def twolink() -> DHRobot:
    """Corke's two-link arm moving in a vertical plane, with dynamics (``mdl_twolink``).

    Standard DH, ``a1 = a2 = 1`` m, masses 1 kg concentrated at the joints
    at the far end of each link (``r = [-0.5, 0, 0]`` in the DH frame at the
    link's far end, i.e. the mid-point -- as given in the toolbox), zero
    link and motor inertia, no friction, ``G = 1``; ``base = Rx(pi/2)`` so
    the arm moves in the world x-z plane; ``gravity = (0, 0, -9.8)``, free
    fall along -z.  (MATLAB's ``mdl_twolink`` writes ``[0 0 9.8]``, which in
    its convention is the base's upward acceleration, i.e. the same gravity;
    roboticstoolbox-python copied the numbers into its own convention, where
    they point up.)  Configurations ``qz = [0, 0]``,
    ``q1 = [0, pi/2]``, ``q2 = [pi/2, -pi/2]``, ``qn = qr = [pi/6, -pi/6]``.
    Source: roboticstoolbox-python ``models/DH/TwoLink.py`` (Spong and
    Vidyasagar, Fig. 3-6), MATLAB ``mdl_twolink.m``.

    >>> tl = twolink()
    >>> tl.fkine(tl.qz)[:3, 3].round(6) + 0
    array([2., 0., 0.])
    """
    links = [RevoluteDH(a=1.0, m=1.0, r=[-0.5, 0, 0]),
             RevoluteDH(a=1.0, m=1.0, r=[-0.5, 0, 0])]
    return DHRobot(links, name="2 link", base=trotx(pi / 2), gravity=[0, 0, -9.8],
                   configurations={"qz": [0, 0], "q1": [0, pi / 2], "q2": [pi / 2, -pi / 2],
                                   "qn": [pi / 6, -pi / 6], "qr": [pi / 6, -pi / 6]})


def puma560() -> DHRobot:
    """Unimation Puma 560, standard DH, kinematics and dynamics (``mdl_puma560``).

    ===  ========  =======  =======  ========  ===========
    j    theta_j   d_j      a_j      alpha_j   qlim (deg)
    ===  ========  =======  =======  ========  ===========
    1    q1        0        0        pi/2      -160, 160
    2    q2        0        0.4318   0         -45, 225
    3    q3        0.15005  0.0203   -pi/2     -225, 45
    4    q4        0.4318   0        pi/2      -110, 170
    5    q5        0        0        -pi/2     -100, 100
    6    q6        0        0        0         -266, 266
    ===  ========  =======  =======  ========  ===========

    ``d1 = 0`` puts the base frame at the shoulder, as MATLAB's
    ``mdl_puma560`` and the notes do (roboticstoolbox-python adds a 26.45 inch
    pedestal, ``d1 = 0.67183``).  Dynamic parameters: masses, centres of mass
    ``r``, inertias ``I`` about the centre of mass, motor inertia ``Jm``,
    viscous friction ``B``, Coulomb friction ``Tc = [Tc+, Tc-]`` and gear
    ratios ``G``, all from P. Corke and B. Armstrong-Helouvry, "A search for
    consensus among model parameters reported for the PUMA 560 robot", ICRA
    1994, as entered in roboticstoolbox-python ``models/DH/Puma560.py``
    (identical to MATLAB ``mdl_puma560.m``); joint limits from Wang & Chen,
    IEEE Trans. RA 7(4) 1991, via the same file.  Configurations:
    ``qz = 0``, ``qr = [0, pi/2, -pi/2, 0, 0, 0]`` (ready, arm up),
    ``qs = [0, 0, -pi/2, 0, 0, 0]`` (stretched), ``qn = [0, pi/4, pi, 0, pi/4, 0]``
    (nominal, as ``mdl_puma560``; rtb-python writes q3 = -pi, the same pose).

    >>> p560 = puma560()
    >>> p560.fkine(p560.qr)[:3, 3].round(5)
    array([ 0.0203 , -0.15005,  0.8636 ])
    """
    L = [
        RevoluteDH(d=0, a=0, alpha=pi / 2,
                   m=0, r=[0, 0, 0], I=[0, 0.35, 0, 0, 0, 0],
                   Jm=200e-6, G=-62.6111, B=1.48e-3, Tc=[0.395, -0.435],
                   qlim=[-160 * _deg, 160 * _deg]),
        RevoluteDH(d=0, a=0.4318, alpha=0,
                   m=17.4, r=[-0.3638, 0.006, 0.2275], I=[0.13, 0.524, 0.539, 0, 0, 0],
                   Jm=200e-6, G=107.815, B=0.817e-3, Tc=[0.126, -0.071],
                   qlim=[-45 * _deg, 225 * _deg]),
        RevoluteDH(d=0.15005, a=0.0203, alpha=-pi / 2,
                   m=4.8, r=[-0.0203, -0.0141, 0.070], I=[0.066, 0.086, 0.0125, 0, 0, 0],
                   Jm=200e-6, G=-53.7063, B=1.38e-3, Tc=[0.132, -0.105],
                   qlim=[-225 * _deg, 45 * _deg]),
        RevoluteDH(d=0.4318, a=0, alpha=pi / 2,
                   m=0.82, r=[0, 0.019, 0], I=[1.8e-3, 1.3e-3, 1.8e-3, 0, 0, 0],
                   Jm=33e-6, G=76.0364, B=71.2e-6, Tc=[11.2e-3, -16.9e-3],
                   qlim=[-110 * _deg, 170 * _deg]),
        RevoluteDH(d=0, a=0, alpha=-pi / 2,
                   m=0.34, r=[0, 0, 0], I=[0.3e-3, 0.4e-3, 0.3e-3, 0, 0, 0],
                   Jm=33e-6, G=71.923, B=82.6e-6, Tc=[9.26e-3, -14.5e-3],
                   qlim=[-100 * _deg, 100 * _deg]),
        RevoluteDH(d=0, a=0, alpha=0,
                   m=0.09, r=[0, 0, 0.032], I=[0.15e-3, 0.15e-3, 0.04e-3, 0, 0, 0],
                   Jm=33e-6, G=76.686, B=36.7e-6, Tc=[3.96e-3, -10.5e-3],
                   qlim=[-266 * _deg, 266 * _deg]),
    ]
    return DHRobot(L, name="Puma 560", manufacturer="Unimation", configurations={
        "qz": [0, 0, 0, 0, 0, 0],
        "qr": [0, pi / 2, -pi / 2, 0, 0, 0],
        "qs": [0, 0, -pi / 2, 0, 0, 0],
        "qn": [0, pi / 4, pi, 0, pi / 4, 0],
    })


def dh_to_mdh(robot: DHRobot, name: str | None = None) -> DHRobot:
    """The same robot described with modified DH parameters (7.4.3).

    Regroup the standard chain as the notes do,

        [Rz(th1) Tz(d1)] [Tx(a1) Rx(al1) Rz(th2) Tz(d2)] ... [Tx(an) Rx(aln)],

    so modified link j has ``a_{j-1}, alpha_{j-1}`` of standard link j-1
    (zero for j = 1) and ``d_j, theta_j, offset_j`` of standard link j; the
    last ``Tx(a_n) Rx(alpha_n)`` joins the tool.  Frame {j} moves from the far
    end of link j to its joint axis, ``F_std_j = F_mdh_j Tx(a_j) Rx(alpha_j)``,
    so the centre of mass becomes ``r' = (a_j, 0, 0) + Rx(alpha_j) r`` and the
    inertia ``I' = Rx(alpha_j) I Rx(alpha_j)^T``; the rest is unchanged.  The
    forward kinematics (and the dynamics) are identical for every q.

    >>> p = puma560(); pm = dh_to_mdh(p)
    >>> q = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    >>> np.allclose(p.fkine(q), pm.fkine(q))
    True
    """
    if robot.mdh:
        raise ValueError("robot: expected a standard DH robot, got modified DH")
    links = []
    prev_a, prev_alpha = 0.0, 0.0
    for L in robot.links:
        R = trotx(L.alpha)[:3, :3]
        r = np.array([L.a, 0.0, 0.0]) + R @ L.r
        Lm = Link(L.theta, L.d, prev_a, prev_alpha, sigma=L.sigma, mdh=True, offset=L.offset,
                  qlim=L.qlim, m=L.m, r=r, I=R @ L.I @ R.T, Jm=L.Jm, B=L.B, Tc=L.Tc, G=L.G,
                  name=L.name)
        links.append(Lm)
        prev_a, prev_alpha = L.a, L.alpha
    tool = transl(prev_a, 0, 0) @ trotx(prev_alpha) @ robot.tool
    return DHRobot(links, name=name or f"{robot.name} (MDH)", base=robot.base, tool=tool,
                   configurations=robot.configurations, manufacturer=robot.manufacturer,
                   gravity=robot.gravity)


def puma560_mdh() -> DHRobot:
    """Puma 560 with modified DH parameters (7.4.3), the same arm as :func:`puma560`.

    Obtained with :func:`dh_to_mdh`, which gives Craig's table

    ===  ===========  =========  =======  ========
    j    alpha_{j-1}  a_{j-1}    d_j      theta_j
    ===  ===========  =========  =======  ========
    1    0            0          0        q1
    2    pi/2         0          0        q2
    3    0            0.4318     0.15005  q3
    4    -pi/2        0.0203     0.4318   q4
    5    pi/2         0          0        q5
    6    -pi/2        0          0        q6
    ===  ===========  =========  =======  ========

    with the Corke & Armstrong-Helouvry dynamics moved into the new link
    frames, so fkine (and later rne) agree exactly with :func:`puma560` at
    the same q.  (MATLAB's ``mdl_puma560akb`` is a different MDH model,
    after Armstrong, Khatib and Burdick 1986, with other joint sign
    conventions and dynamic parameters.)

    >>> pm = puma560_mdh()
    >>> pm.mdh, pm.fkine(pm.qz)[:3, 3].round(5)
    (True, array([ 0.4521 , -0.15005,  0.4318 ]))
    """
    return dh_to_mdh(puma560(), name="Puma 560 (MDH)")


def cobra600() -> DHRobot:
    """Adept (Omron) Cobra 600 SCARA, RRPR, standard DH (``mdl_cobra600``, 7.2.2.3).

    Links ``RevoluteDH(d=0.387, a=0.325, qlim=±50°)``,
    ``RevoluteDH(a=0.275, alpha=pi, qlim=±88°)``,
    ``PrismaticDH(qlim=[0, 0.210])``, ``RevoluteDH()``; configuration
    ``qz = qr = 0``.  Source: roboticstoolbox-python ``models/DH/Cobra600.py``
    (MATLAB ``mdl_cobra600.m``).

    >>> c600 = cobra600()
    >>> c600.structure, c600.fkine(c600.qz)[:3, 3].round(4)
    ('RRPR', array([0.6  , 0.   , 0.387]))
    """
    L = [
        RevoluteDH(d=0.387, a=0.325, qlim=[-50 * _deg, 50 * _deg]),
        RevoluteDH(a=0.275, alpha=pi, qlim=[-88 * _deg, 88 * _deg]),
        PrismaticDH(qlim=[0, 0.210]),
        RevoluteDH(),
    ]
    return DHRobot(L, name="Cobra600", manufacturer="Omron",
                   configurations={"qz": [0, 0, 0, 0], "qr": [0, 0, 0, 0]})


def baxter(arm: str = "left") -> DHRobot:
    """One 7-joint arm of the Rethink Robotics Baxter, standard DH (``mdl_baxter``, 7.2.2.4).

    ===  =======  =====  ========  =======
    j    d_j      a_j    alpha_j   offset
    ===  =======  =====  ========  =======
    1    0.27     0.069  -pi/2     0
    2    0        0      pi/2      pi/2
    3    0.364    0.069  -pi/2     0
    4    0        0      pi/2      0
    5    0.374    0.010  -pi/2     0
    6    0        0      pi/2      0
    7    0.28     0      0         0
    ===  =======  =====  ========  =======

    ``base`` is the shoulder's pose on the torso: left
    ``transl(0.064614, 0.25858, 0.119) @ trotz(pi/4)``, right
    ``transl(0.063534, -0.25966, 0.119) @ trotz(-pi/4)``.  Configurations
    ``qz = 0``, ``qr = [0, -pi/2, -pi/2, 0, 0, 0, 0]``,
    ``qs = [0, 0, -pi/2, 0, 0, 0, 0]``, ``qn = [0, pi/4, pi/2, 0, pi/4, 0, 0]``.
    Source: roboticstoolbox-python ``models/DH/Baxter.py`` (Z. Ju, C. Yang,
    H. Ma, "Kinematics Modeling and Experimental Verification of Baxter
    Robot", Chinese Control Conf. 2015).

    >>> left = baxter("left")
    >>> left.n, left.base[:3, 3]
    (7, array([0.064614, 0.25858 , 0.119   ]))
    """
    arm = getoption(arm, "arm", ("left", "right"))
    L = [
        RevoluteDH(d=0.27, a=0.069, alpha=-pi / 2),
        RevoluteDH(d=0, a=0, alpha=pi / 2, offset=pi / 2),
        RevoluteDH(d=0.102 + 0.262, a=0.069, alpha=-pi / 2),
        RevoluteDH(d=0, a=0, alpha=pi / 2),
        RevoluteDH(d=0.103 + 0.271, a=0.010, alpha=-pi / 2),
        RevoluteDH(d=0, a=0, alpha=pi / 2),
        RevoluteDH(d=0.28, a=0, alpha=0),
    ]
    if arm == "left":
        base = transl(0.064614, 0.25858, 0.119) @ trotz(pi / 4)
    else:
        base = transl(0.063534, -0.25966, 0.119) @ trotz(-pi / 4)
    return DHRobot(L, name=f"Baxter-{arm}", base=base, manufacturer="Rethink Robotics",
                   configurations={
                       "qz": np.zeros(7),
                       "qr": [0, -pi / 2, -pi / 2, 0, 0, 0, 0],
                       "qs": [0, 0, -pi / 2, 0, 0, 0, 0],
                       "qn": [0, pi / 4, pi / 2, 0, pi / 4, 0, 0],
                   })


LEG_STRING = "Rz(q1) Rx(q2) Ty(L1) Rx(q3) Tz(L2)"


def leg(L1: float = 0.1, L2: float = 0.1) -> DHRobot:
    """One leg of the four-legged walking robot (7.5.2), by DH factorisation.

    The hip-to-toe sequence of the notes, ``Rz(q1) Rx(q2) Ty(L1) Rx(q3)
    Tz(L2)`` (:data:`LEG_STRING`), factored by :class:`~rvc.models.DHFactor`,
    gives the table of the notes' walking program (``examples/walking.m``,
    ``L1 = L2 = 0.1``)

    ===  ========  ===  ===  =====  =======
    j    theta_j   d_j  a_j  alpha  offset
    ===  ========  ===  ===  =====  =======
    1    q1        0    0    pi/2   pi/2
    2    q2        0    L1   0      0
    3    q3        0    -L2  0      -pi/2
    ===  ========  ===  ===  =====  =======

    plus a tool rotation (``Ry(-pi/2)``-like; "unimportant", the notes say) that
    makes the foot frame equal to the sequence's.  Configuration ``qz = [0, 0, 0]``.

    >>> lg = leg()
    >>> lg.fkine(lg.qz)[:3, 3].round(6) + 0
    array([0. , 0.1, 0.1])
    >>> lg.offset.round(4)
    array([ 1.5708,  0.    , -1.5708])
    """
    L1 = getscalar(L1, "L1")
    L2 = getscalar(L2, "L2")
    return DHFactor(LEG_STRING, L1=L1, L2=L2).robot("leg", configurations={"qz": [0, 0, 0]})


# -- Chapter 9: models with dynamics --------------------------------------------


def stanford() -> DHRobot:
    """The Stanford arm: RRPRRR with a prismatic third joint, standard DH, with dynamics.

    ===  ========  =======  ======  ========  =====================
    j    theta_j   d_j      a_j     alpha_j   qlim
    ===  ========  =======  ======  ========  =====================
    1    q1        0.412    0       -pi/2     ±170°
    2    q2        0.154    0       pi/2      ±170°
    3    -pi/2     q3       0.0203  0         12 to 50 inch (m)
    4    q4        0        0       -pi/2     ±170°
    5    q5        0        0       pi/2      ±90°
    6    q6        0        0       0         ±170°
    ===  ========  =======  ======  ========  =====================

    Masses, centres of mass, inertias and (reflected) motor inertias with
    gear ratio 1, no friction, as entered in roboticstoolbox-python 1.5
    ``models/DH/Stanford.py`` (MATLAB ``mdl_stanford.m``), which cite the
    kinematics from Stanford AIM-177 (Fig. 2.3) and the dynamics from
    R. P. Paul, *Robot Manipulators*, 1981, Tables 6.5-6.6.  Copied as
    published: some centres of mass (e.g. link 3's ``r_z = -6.447`` m) are
    far outside the arm, so use it to exercise the algorithms (a prismatic
    joint with dynamics), not as a physical arm.  Configuration ``qz = 0``.

    >>> st = stanford()
    >>> st.structure, st.fkine(st.qz)[:3, 3].round(4)
    ('RRPRRR', array([0.    , 0.1337, 0.412 ]))
    """
    deg, inch = _deg, 0.0254
    L = [
        RevoluteDH(d=0.412, a=0, alpha=-pi / 2, m=9.29, r=[0, 0.0175, -0.1105],
                   I=[0.276, 0.255, 0.071, 0, 0, 0], Jm=0.953, G=1,
                   qlim=[-170 * deg, 170 * deg]),
        RevoluteDH(d=0.154, a=0, alpha=pi / 2, m=5.01, r=[0, -1.054, 0],
                   I=[0.108, 0.018, 0.100, 0, 0, 0], Jm=2.193, G=1,
                   qlim=[-170 * deg, 170 * deg]),
        PrismaticDH(theta=-pi / 2, a=0.0203, alpha=0, m=4.25, r=[0, 0, -6.447],
                    I=[2.51, 2.51, 0.006, 0, 0, 0], Jm=0.782, G=1,
                    qlim=[12 * inch, (12 + 38) * inch]),
        RevoluteDH(d=0, a=0, alpha=-pi / 2, m=1.08, r=[0, 0.092, -0.054],
                   I=[0.002, 0.001, 0.001, 0, 0, 0], Jm=0.106, G=1,
                   qlim=[-170 * deg, 170 * deg]),
        RevoluteDH(d=0, a=0, alpha=pi / 2, m=0.630, r=[0, 0.566, 0.003],
                   I=[0.003, 0.0004, 0, 0, 0, 0], Jm=0.097, G=1,
                   qlim=[-90 * deg, 90 * deg]),
        RevoluteDH(d=0, a=0, alpha=0, m=0.51, r=[0, 0, 1.554],
                   I=[0.013, 0.013, 0.0003, 0, 0, 0], Jm=0.020, G=1,
                   qlim=[-170 * deg, 170 * deg]),
    ]
    return DHRobot(L, name="Stanford arm", manufacturer="Victor Scheinman",
                   configurations={"qz": [0, 0, 0, 0, 0, 0]})


def puma560_motor2() -> Motor:
    """The motor, amplifier and gearbox of the Puma 560's joint 2 (the notes' 9.1.5 table).

    ``Km = 0.228`` N m/A, ``Jm = 200e-6`` kg m², ``B = 817e-6`` N m s/rad,
    ``Tc = (0.126, -0.071)`` N m, ``G = 107.815``, ``tau_max = 0.9`` N m,
    ``qd_max = 165`` rad/s, all motor side; ``Ka = 1`` A/V (the notes give
    no amplifier gain, so the controller's output is the current demand).
    Source: P. Corke, *Robotics, Vision and Control*, 2nd ed., Table 9.1
    (the table the notes show); ``Jm, B, Tc, G`` equal joint 2's link
    parameters in :func:`puma560`.

    >>> m = puma560_motor2()
    >>> m.Km, m.G == puma560().links[1].G
    (0.228, True)
    """
    L2 = puma560().links[1]
    return Motor(Km=0.228, Jm=L2.Jm, B=L2.B, G=L2.G, Ka=1.0, Tc=tuple(float(x) for x in L2.Tc),
                 tau_max=0.9, qd_max=165.0, name="Puma 560 joint 2")
