"""Serial-link robots described by Denavit-Hartenberg parameters (Chapter 7.1.2).

Models are data, algorithms are functions of the model:

* :class:`Link` holds one link's kinematic parameters (``theta d a alpha``,
  joint type ``sigma``, convention ``mdh``, ``offset``, ``qlim``) and the
  dynamic parameters used in Chapter 9 (``m r I Jm B Tc G``).
  :func:`RevoluteDH`, :func:`PrismaticDH`, :func:`RevoluteMDH` and
  :func:`PrismaticMDH` build them as the toolbox does.
* :class:`DHRobot` is a list of links plus a name, base and tool transforms
  and named joint configurations.
* :func:`fkine_dh`, :func:`fkine_all`, :func:`joint_twists` and
  :func:`fkine_poe` compute forward kinematics; the robot methods
  ``robot.fkine(q)``, ``robot.fkine_all(q)``, ``robot.twists()`` call them.

The standard DH link transform (frame {j} at the far end of link j) is

    A_j = Rz(theta_j) Tz(d_j) Tx(a_j) Rx(alpha_j)

and the modified DH one (frame {j} at the near end of link j) is

    A_j = Rx(alpha_{j-1}) Tx(a_{j-1}) Rz(theta_j) Tz(d_j),

where for a revolute joint ``theta_j = q_j + offset_j`` and for a prismatic
joint ``d_j = q_j + offset_j``.

>>> robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)], name="my robot")
>>> robot.fkine([30, 40], unit="deg").round(4)
array([[ 0.342 , -0.9397,  0.    ,  1.208 ],
       [ 0.9397,  0.342 ,  0.    ,  1.4397],
       [ 0.    ,  0.    ,  1.    ,  0.    ],
       [ 0.    ,  0.    ,  0.    ,  1.    ]])
"""

from __future__ import annotations

import math

import numpy as np

from .checks import getarray, getpose, getscalar, getvector
from .ets import _getq
from .expmap import trexp

__all__ = [
    "Link",
    "RevoluteDH",
    "PrismaticDH",
    "RevoluteMDH",
    "PrismaticMDH",
    "DHRobot",
    "dh_transform",
    "fkine_dh",
    "fkine_all",
    "joint_twists",
    "fkine_poe",
]


# --------------------------------------------------------------------------- #
# the link transform

def dh_transform(theta, d, a, alpha, mdh: bool = False) -> np.ndarray:
    """Link transform from DH parameters, batched over broadcastable arguments.

    Standard DH (``mdh=False``), :math:`A = R_z(\\theta) T_z(d) T_x(a) R_x(\\alpha)`:

    .. math::
        A = \\begin{pmatrix}
        c_\\theta & -s_\\theta c_\\alpha & s_\\theta s_\\alpha & a c_\\theta\\\\
        s_\\theta & c_\\theta c_\\alpha & -c_\\theta s_\\alpha & a s_\\theta\\\\
        0 & s_\\alpha & c_\\alpha & d\\\\ 0&0&0&1\\end{pmatrix}

    Modified DH (``mdh=True``), :math:`A = R_x(\\alpha) T_x(a) R_z(\\theta) T_z(d)`.

    >>> dh_transform(np.pi / 2, 0.5, 1, 0).round(3)
    array([[ 0. , -1. ,  0. ,  0. ],
           [ 1. ,  0. , -0. ,  1. ],
           [ 0. ,  0. ,  1. ,  0.5],
           [ 0. ,  0. ,  0. ,  1. ]])
    >>> dh_transform(np.linspace(0, 1, 4), 0, 1, 0).shape
    (4, 4, 4)
    """
    th, d, a, al = np.broadcast_arrays(*(getarray(x, name) for x, name in
                                         ((theta, "theta"), (d, "d"), (a, "a"),
                                          (alpha, "alpha"))))
    ct, st, ca, sa = np.cos(th), np.sin(th), np.cos(al), np.sin(al)
    T = np.zeros(th.shape + (4, 4))
    if not mdh:
        T[..., 0, :] = np.stack([ct, -st * ca, st * sa, a * ct], axis=-1)
        T[..., 1, :] = np.stack([st, ct * ca, -ct * sa, a * st], axis=-1)
        T[..., 2, 1] = sa
        T[..., 2, 2] = ca
        T[..., 2, 3] = d
    else:
        T[..., 0, :] = np.stack([ct, -st, np.zeros_like(ct), a], axis=-1)
        T[..., 1, :] = np.stack([st * ca, ct * ca, -sa, -d * sa], axis=-1)
        T[..., 2, :] = np.stack([st * sa, ct * sa, ca, d * ca], axis=-1)
    T[..., 3, 3] = 1.0
    return T


# --------------------------------------------------------------------------- #
# links

def _inertia(I) -> np.ndarray:
    """3x3 inertia tensor from a 3x3 matrix, a 3-vector (diagonal) or the
    toolbox's 6-vector ``[Ixx, Iyy, Izz, Ixy, Iyz, Ixz]``."""
    a = getarray(I, "I")
    if a.shape == (3, 3):
        M = a.copy()
    elif a.shape == (3,):
        M = np.diag(a)
    elif a.shape == (6,):
        xx, yy, zz, xy, yz, xz = a
        M = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    else:
        raise ValueError("I: expected a 3x3 matrix, a 3-vector (diagonal) or a 6-vector "
                         f"[Ixx, Iyy, Izz, Ixy, Iyz, Ixz], got shape {a.shape}")
    if np.max(np.abs(M - M.T)) > 1e-12:
        raise ValueError("I: expected a symmetric inertia tensor, got an asymmetric matrix")
    return M


def _qlim(v):
    if v is None:
        return None
    a = getvector(v, "qlim", 2)
    if a[0] > a[1]:
        raise ValueError(f"qlim: expected [lower, upper] with lower <= upper, got {a.tolist()}")
    return a


def _Tc(v):
    a = getarray(v, "Tc")
    if a.size == 1:
        x = float(a.reshape(()))
        return np.array([x, -x])
    return getvector(a, "Tc", 2)


_SCALARS = ("theta", "d", "a", "alpha", "offset", "m", "Jm", "B", "G")
_NORMALISE = {
    **{k: (lambda k: (lambda v: getscalar(v, k)))(k) for k in _SCALARS},
    "sigma": lambda v: _sigma(v),
    "mdh": bool,
    "qlim": _qlim,
    "r": lambda v: getvector(v, "r", 3),
    "I": _inertia,
    "Tc": _Tc,
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
    ``[Ixx, Iyy, Izz, Ixy, Iyz, Ixz]``), ``Jm`` motor inertia, ``B`` motor
    viscous friction, ``Tc = [Tc+, Tc-]`` motor Coulomb friction (a scalar
    ``c`` means ``[c, -c]``), ``G`` gear ratio.  All are checked on
    assignment, so ``link.m = 2`` works as ``L(1).m = 2`` does in MATLAB.

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
    """

    def __init__(self, theta=0.0, d=0.0, a=0.0, alpha=0.0, *, sigma=0, mdh=False,
                 offset=0.0, qlim=None, m=0.0, r=(0.0, 0.0, 0.0), I=np.zeros((3, 3)),
                 Jm=0.0, B=0.0, Tc=(0.0, 0.0), G=1.0, name=""):
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

    def A(self, q) -> np.ndarray:
        """Link transform for joint coordinate ``q`` (scalar or any shape, batched).

        Revolute: ``dh_transform(q + offset, d, a, alpha)``; prismatic:
        ``dh_transform(theta, q + offset, a, alpha)``; modified DH if ``mdh``.

        >>> PrismaticDH().A([0.1, 0.2])[:, 2, 3]
        array([0.1, 0.2])
        """
        q = getarray(q, "q")
        if self.isrevolute:
            return dh_transform(q + self.offset, self.d, self.a, self.alpha, self.mdh)
        return dh_transform(self.theta, q + self.offset, self.a, self.alpha, self.mdh)

    def copy(self) -> "Link":
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


def RevoluteDH(d=0.0, a=0.0, alpha=0.0, offset=0.0, qlim=None, **dynamics) -> Link:
    """Revolute link, standard DH: ``A = Rz(q + offset) Tz(d) Tx(a) Rx(alpha)``.

    ``dynamics`` are the keywords ``m r I Jm B Tc G`` of :class:`Link`.

    >>> RevoluteDH(a=0.4318)
    RevoluteDH(d=0, a=0.4318, alpha=0)
    """
    return Link(0.0, d, a, alpha, sigma=0, mdh=False, offset=offset, qlim=qlim, **dynamics)


def PrismaticDH(theta=0.0, a=0.0, alpha=0.0, offset=0.0, qlim=None, **dynamics) -> Link:
    """Prismatic link, standard DH: ``A = Rz(theta) Tz(q + offset) Tx(a) Rx(alpha)``.

    >>> PrismaticDH(qlim=[0, 0.21]).isprismatic
    True
    """
    return Link(theta, 0.0, a, alpha, sigma=1, mdh=False, offset=offset, qlim=qlim, **dynamics)


def RevoluteMDH(d=0.0, a=0.0, alpha=0.0, offset=0.0, qlim=None, **dynamics) -> Link:
    """Revolute link, modified DH: ``A = Rx(alpha) Tx(a) Rz(q + offset) Tz(d)``.

    Here ``a`` and ``alpha`` are the notes' a_{j-1}, alpha_{j-1}.

    >>> RevoluteMDH(d=1).mdh
    True
    """
    return Link(0.0, d, a, alpha, sigma=0, mdh=True, offset=offset, qlim=qlim, **dynamics)


def PrismaticMDH(theta=0.0, a=0.0, alpha=0.0, offset=0.0, qlim=None, **dynamics) -> Link:
    """Prismatic link, modified DH: ``A = Rx(alpha) Tx(a) Rz(theta) Tz(q + offset)``.

    >>> float(PrismaticMDH().A(0.3)[2, 3])
    0.3
    """
    return Link(theta, 0.0, a, alpha, sigma=1, mdh=True, offset=offset, qlim=qlim, **dynamics)


# --------------------------------------------------------------------------- #
# the robot

def _box(header, rows) -> str:
    """A table with box-drawing borders, like the toolbox prints."""
    cols = list(zip(header, *rows))
    w = [max(len(str(c)) for c in col) + 2 for col in cols]

    def line(l, m, r):
        return l + m.join("─" * x for x in w) + r

    def row(cells):
        return "│" + "│".join(str(c).rjust(x - 1) + " "
                              for i, (c, x) in enumerate(zip(cells, w))) + "│"

    out = [line("┌", "┬", "┐"), row(header), line("├", "┼", "┤")]
    out += [row(r) for r in rows]
    out.append(line("└", "┴", "┘"))
    return "\n".join(out)


def _num(x) -> str:
    return f"{x:.6g}" if x != 0 else "0"


def _deg(x) -> str:
    return f"{math.degrees(x):.1f}°"


def _pose_str(T) -> str:
    t = ", ".join(_num(v) for v in T[:3, 3])
    R = T[:3, :3]
    if np.allclose(R, np.eye(3)):
        return f"t = {t}"
    # ZYX roll-pitch-yaw in degrees, as the toolbox prints a base or tool
    pitch = math.asin(-max(-1.0, min(1.0, R[2, 0])))
    roll = math.atan2(R[2, 1], R[2, 2])
    yaw = math.atan2(R[1, 0], R[0, 0])
    return f"t = {t}; rpy/zyx = {_deg(roll)}, {_deg(pitch)}, {_deg(yaw)}"


class DHRobot:
    """A serial-link robot: DH links, base and tool transforms, named configurations.

    ``DHRobot(links, name="", base=None, tool=None, configurations=None)``
    with ``links`` a list of :class:`Link` (all standard or all modified
    DH), ``base`` and ``tool`` 4x4 poses (identity if None) and
    ``configurations`` a dict of named joint vectors, which also become
    attributes (``p560.qn``).  ``DHRobot(robot, name=..., base=...)`` copies
    a robot and overrides what is given (MATLAB's ``SerialLink(robot, ...)``).

    Forward kinematics (:func:`fkine_dh`):

        T(q) = base A_1(q_1) A_2(q_2) ... A_n(q_n) tool

    ``gravity`` (the gravitational acceleration in the world frame, default
    ``(0, 0, -9.81)`` as in roboticstoolbox-python) and ``manufacturer`` are
    stored for Chapter 9 and printing.

    >>> robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)], name="two",
    ...                 configurations={"qz": [0, 0]})
    >>> robot.n, robot.structure, robot.qz
    (2, 'RR', array([0., 0.]))
    >>> robot.fkine(robot.qz)[:3, 3]
    array([2., 0., 0.])
    """

    def __init__(self, links, name: str = "", base=None, tool=None, configurations=None,
                 *, manufacturer: str | None = None, gravity=None):
        if isinstance(links, DHRobot):
            src = links
            links = [L.copy() for L in src.links]
            name = name or src.name
            base = src.base if base is None else base
            tool = src.tool if tool is None else tool
            confs = dict(src.configurations)
            confs.update(configurations or {})
            configurations = confs
            manufacturer = src.manufacturer if manufacturer is None else manufacturer
            gravity = src.gravity if gravity is None else gravity
        links = list(links)
        if len(links) == 0:
            raise ValueError("links: expected at least one Link, got an empty list")
        for i, L in enumerate(links):
            if not isinstance(L, Link):
                raise TypeError(f"links[{i}]: expected a Link, got {type(L).__name__}")
        if len({L.mdh for L in links}) > 1:
            raise ValueError("links: expected all standard DH or all modified DH links, "
                             "got a mixture")
        self._links = [L.copy() for L in links]  # value semantics, as SerialLink
        self.name = str(name)
        self.manufacturer = "" if manufacturer is None else str(manufacturer)
        self.base = base
        self.tool = tool
        self.gravity = (0.0, 0.0, -9.81) if gravity is None else gravity
        self._configurations = {}
        for k, v in (configurations or {}).items():
            self.addconfiguration(k, v)

    # -- data ---------------------------------------------------------------- #
    def __setattr__(self, key, value):
        if key in ("base", "tool"):
            value = np.eye(4) if value is None else getpose(value, key).copy()
            if value.shape != (4, 4):
                raise ValueError(f"{key}: expected one 4x4 pose, got shape {value.shape}")
        elif key == "gravity":
            value = getvector(value, "gravity", 3)
        object.__setattr__(self, key, value)

    def __getattr__(self, key):
        confs = self.__dict__.get("_configurations", {})
        if key in confs:
            return confs[key].copy()
        raise AttributeError(f"{type(self).__name__!s} has no attribute or configuration {key!r}")

    def addconfiguration(self, name: str, q) -> None:
        """Store a named joint configuration, also available as ``robot.<name>``.

        >>> r = DHRobot([RevoluteDH()]); r.addconfiguration("qup", [1.0]); r.qup
        array([1.])
        """
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"name: expected a Python identifier, got {name!r}")
        if name in type(self).__dict__ or name in self.__dict__:
            raise ValueError(f"name: {name!r} is already an attribute of DHRobot")
        self._configurations[name] = _getq(q, self.n, self.revolute, name=name).copy()

    @property
    def configurations(self) -> dict:
        """Named joint configurations, a dict of name -> (n,) array (a copy)."""
        return {k: v.copy() for k, v in self._configurations.items()}

    @property
    def links(self) -> list:
        """The links (the list is a copy; the Link objects are the robot's own)."""
        return list(self._links)

    def __getitem__(self, j) -> Link:
        return self._links[j]

    def __len__(self) -> int:
        return len(self._links)

    def __iter__(self):
        return iter(self._links)

    @property
    def n(self) -> int:
        """Number of joints."""
        return len(self._links)

    @property
    def mdh(self) -> bool:
        """True if the links use modified DH parameters."""
        return self._links[0].mdh

    @property
    def structure(self) -> str:
        """Joint types, ``R`` revolute and ``P`` prismatic, e.g. ``"RRPR"``."""
        return "".join("R" if L.isrevolute else "P" for L in self._links)

    @property
    def revolute(self) -> np.ndarray:
        """Boolean (n,) array, true for revolute joints."""
        return np.array([L.isrevolute for L in self._links])

    @property
    def offset(self) -> np.ndarray:
        """Joint coordinate offsets (n,)."""
        return np.array([L.offset for L in self._links])

    @property
    def qlim(self) -> np.ndarray:
        """Joint limits as a (2, n) array: row 0 lower, row 1 upper.

        A revolute joint without limits reports ``[-pi, pi]``, a prismatic
        one ``[-inf, inf]``.
        """
        out = np.empty((2, self.n))
        for j, L in enumerate(self._links):
            if L.qlim is not None:
                out[:, j] = L.qlim
            else:
                out[:, j] = (-np.pi, np.pi) if L.isrevolute else (-np.inf, np.inf)
        return out

    @property
    def hasdynamics(self) -> bool:
        """True if any link has dynamic parameters."""
        return any(L.hasdynamics for L in self._links)

    # -- kinematics (thin calls) -------------------------------------------- #
    def fkine(self, q, *, unit: str = "rad") -> np.ndarray:
        """Forward kinematics, see :func:`fkine_dh`.

        >>> float(DHRobot([PrismaticDH()]).fkine(0.5)[2, 3])
        0.5
        """
        return fkine_dh(self, q, unit=unit)

    def fkine_all(self, q, *, unit: str = "rad") -> np.ndarray:
        """Poses of all link frames, see :func:`fkine_all`.

        >>> DHRobot([RevoluteDH(a=1)] * 2).fkine_all([0, 0]).shape
        (3, 4, 4)
        """
        return fkine_all(self, q, unit=unit)

    def A(self, j, q, *, unit: str = "rad") -> np.ndarray:
        """Link transforms without base or tool, as in the toolbox.

        ``robot.A(j, q)`` is the transform from frame {j} to {j+1}, i.e. link
        ``j`` (0-based) alone, ``A_{j+1}(q_j)``; ``robot.A([j0, j1], q)`` is
        the product of links j0 to j1 inclusive.  ``q`` is the full joint
        vector (n,) or its first j1 + 1 elements; batched over leading
        dimensions.

        >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=2)])
        >>> r.A([0, 1], [0, 0])[:3, 3]
        array([3., 0., 0.])
        >>> r.A(1, [0, 0])[:3, 3]
        array([2., 0., 0.])
        """
        if np.ndim(j) == 0:
            j0 = j1 = int(j)
        else:
            jj = getvector(j, "j", 2)
            j0, j1 = int(jj[0]), int(jj[1])
        if not (0 <= j0 <= j1 < self.n):
            raise ValueError(f"j: expected link indices 0 <= j0 <= j1 < {self.n}, got {j!r}")
        qa = getarray(q, "q")
        m = qa.shape[-1] if qa.ndim else 1
        if m not in (self.n, j1 + 1) or (qa.ndim == 0 and self.n != 1 and j1 != 0):
            raise ValueError(f"q: expected {self.n} (or {j1 + 1}) joint coordinates, "
                             f"got shape {qa.shape}")
        qa = _getq(qa, m, self.revolute[:m], unit)
        T = self._links[j0].A(qa[..., j0])
        for k in range(j0 + 1, j1 + 1):
            T = T @ self._links[k].A(qa[..., k])
        return T

    def twists(self):
        """Joint twists and home pose ``(S, M)`` for the product of exponentials.

        See :func:`joint_twists`; ``M = robot.fkine(zeros)``.

        >>> S, M = DHRobot([RevoluteDH(a=1)] * 2).twists()
        >>> S
        array([[ 0.,  0.,  0.,  0.,  0.,  1.],
               [ 0., -1.,  0.,  0.,  0.,  1.]])
        """
        return joint_twists(self), self.fkine(np.zeros(self.n))

    # -- thin calls into the algorithms, as the notes write them ------------ #
    # (p560.ikine6s(T), p560.plot(q)...). The algorithms live in lower layers;
    # each method imports its function when called, so this module stays
    # above them in the layer order (tests/test_layers.py).
    def ikine6s(self, T, config: str = "lun", **kwargs):
        """Closed-form inverse kinematics: :func:`rvc.ikine.ikine6s` ``(self, T, config)``."""
        from .ikine import ikine6s

        return ikine6s(self, T, config, **kwargs)

    def ikine(self, T, q0=None, **kwargs):
        """Numerical inverse kinematics: :func:`rvc.ikine.ikine` ``(self, T, q0)``."""
        from .ikine import ikine

        return ikine(self, T, q0, **kwargs)

    def jacob0(self, q, *, unit: str = "rad"):
        """Jacobian in the world frame (6, n): :func:`rvc.jacobian.jacob0` ``(self, q)``.

        >>> DHRobot([RevoluteDH(a=1)]).jacob0([0])[:, 0]
        array([0., 1., 0., 0., 0., 1.])
        """
        from .jacobian import jacob0

        return jacob0(self, q, unit=unit)

    def jacobe(self, q, *, unit: str = "rad"):
        """Jacobian in the end-effector frame (6, n): :func:`rvc.jacobian.jacobe` ``(self, q)``.

        >>> DHRobot([RevoluteDH(a=1)]).jacobe([np.pi / 2])[:, 0].round(6) + 0
        array([0., 1., 0., 0., 0., 1.])
        """
        from .jacobian import jacobe

        return jacobe(self, q, unit=unit)

    def manipulability(self, q, method: str = "yoshikawa", axes="all", *, unit: str = "rad"):
        """Manipulability at ``q`` (a float, or (N,) for (N, n)): :func:`rvc.jacobian.manipulability`.

        The notes' ``p560.maniplty(q)``.

        >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
        >>> round(float(r.manipulability([0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0])), 4)
        1.0
        """
        from .jacobian import manipulability

        return manipulability(self, q, method, axes, unit=unit)

    def plot(self, q, **kwargs):
        """Draw the robot at ``q``: :func:`rvc.robotplot.plot_robot`."""
        from .robotplot import plot_robot

        return plot_robot(self, q, **kwargs)

    def animate(self, Q, **kwargs):
        """Animate a joint trajectory ``Q`` (N, n): :func:`rvc.robotplot.animate_robot`."""
        from .robotplot import animate_robot

        return animate_robot(self, Q, **kwargs)

    def teach(self, q=None):
        """One slider per joint, drawing the robot: :func:`rvc.robotplot.teach`."""
        from .robotplot import teach

        return teach(self, q)

    # -- printing --------------------------------------------------------- #
    def _qstr(self, j, L):
        s = f"q{j + 1}"
        if L.offset != 0:
            sign = "+" if L.offset > 0 else "-"
            off = abs(L.offset)
            s += f" {sign} {off:.4g}" if L.isprismatic else f" {sign} {_deg(off)}"
        return s

    def __str__(self) -> str:
        head = f"DHRobot: {self.name}"
        if self.manufacturer:
            head += f" (by {self.manufacturer})"
        head += f", {self.n} joints ({self.structure})"
        if self.hasdynamics:
            head += ", dynamics"
        head += ", modified DH parameters" if self.mdh else ", standard DH parameters"
        rows = []
        for j, L in enumerate(self._links):
            th = self._qstr(j, L) if L.isrevolute else _deg(L.theta)
            d = self._qstr(j, L) if L.isprismatic else _num(L.d)
            lim = []
            if L.qlim is not None:
                f = _deg if L.isrevolute else _num
                lim = [f(L.qlim[0]), f(L.qlim[1])]
            elif any(k.qlim is not None for k in self._links):
                lim = ["-", "-"]
            rows.append(([_num(L.a), _deg(L.alpha), th, d] if self.mdh
                         else [th, d, _num(L.a), _deg(L.alpha)]) + lim)
        header = (["aⱼ₋₁", "⍺ⱼ₋₁", "θⱼ", "dⱼ"] if self.mdh else ["θⱼ", "dⱼ", "aⱼ", "⍺ⱼ"])
        if any(L.qlim is not None for L in self._links):
            header += ["q⁻", "q⁺"]
        out = [head, _box(header, rows)]
        if not np.array_equal(self.base, np.eye(4)):
            out.append(f"base: {_pose_str(self.base)}")
        if not np.array_equal(self.tool, np.eye(4)):
            out.append(f"tool: {_pose_str(self.tool)}")
        if self._configurations:
            names = list(self._configurations)
            crow = [[k] + [(_deg(v) if rev else _num(v))
                           for v, rev in zip(self._configurations[k], self.revolute)]
                    for k in names]
            out.append(_box(["name"] + [f"q{j + 1}" for j in range(self.n)], crow))
        return "\n".join(out)

    def __repr__(self) -> str:
        kind = "modified" if self.mdh else "standard"
        return f"DHRobot({self.name!r}, {self.n} joints {self.structure}, {kind} DH)"


# --------------------------------------------------------------------------- #
# kinematic algorithms: functions of (model, q)

def _link_poses(robot: DHRobot, q, unit: str):
    """Generator of the link transforms A_j(q_j), batched."""
    qa = _getq(q, robot.n, robot.revolute, unit)
    for j, L in enumerate(robot.links):
        yield L.A(qa[..., j])


def fkine_dh(robot: DHRobot, q, *, unit: str = "rad") -> np.ndarray:
    """Forward kinematics ``T = base A_1(q_1) ... A_n(q_n) tool``.

    ``q`` of shape (n,) gives a (4, 4) pose, (N, n) gives (N, 4, 4); the
    computation is vectorised over N (a loop over the n links only).
    Revolute joints are radians unless ``unit="deg"``.  Joint limits are
    not checked.

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> fkine_dh(r, np.array([[0, 0], [np.pi / 2, 0]]))[:, :3, 3].round(6) + 0
    array([[2., 0., 0.],
           [0., 2., 0.]])
    """
    T = robot.base
    for A in _link_poses(robot, q, unit):
        T = T @ A
    return T @ robot.tool


def fkine_all(robot: DHRobot, q, *, unit: str = "rad") -> np.ndarray:
    """Poses of the base and every link frame: shape (..., n + 1, 4, 4).

    Element 0 is ``base``, element j is ``base A_1 ... A_j`` (frame {j});
    the tool transform is not applied (as in roboticstoolbox-python), so
    ``fkine(q) = fkine_all(q)[..., -1, :, :] @ tool``.

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> fkine_all(r, [0, np.pi / 2])[:, :3, 3].round(6) + 0
    array([[0., 0., 0.],
           [1., 0., 0.],
           [1., 1., 0.]])
    """
    frames = []
    T = robot.base
    for A in _link_poses(robot, q, unit):
        T = T @ A
        frames.append(T)
    batch = frames[0].shape[:-2]
    frames.insert(0, np.broadcast_to(robot.base, batch + (4, 4)))
    return np.stack(frames, axis=-3)


def joint_twists(robot: DHRobot) -> np.ndarray:
    """Unit joint twists ``S_j = (v_j, w_j)`` in the world frame at q = 0: shape (n, 6).

    For a revolute joint with unit axis ``w`` through point ``p``,
    ``S = (-w x p, w)``; for a prismatic joint along ``w``, ``S = (w, 0)``.
    The axis of joint j is the z axis of frame {j-1} (standard DH) or of
    frame {j} (modified DH) in the zero pose, base included.

    >>> joint_twists(DHRobot([PrismaticDH(alpha=np.pi / 2)]))
    array([[0., 0., 1., 0., 0., 0.]])
    """
    frames = fkine_all(robot, np.zeros(robot.n))
    S = np.zeros((robot.n, 6))
    for j, L in enumerate(robot.links):
        F = frames[j + 1] if robot.mdh else frames[j]
        w, p = F[:3, 2], F[:3, 3]
        if L.isrevolute:
            S[j] = np.r_[-np.cross(w, p), w]
        else:
            S[j] = np.r_[w, 0, 0, 0]
    return S + 0.0  # no negative zeros


def fkine_poe(twists, M, q, *, unit: str = "rad") -> np.ndarray:
    """Forward kinematics by the product of exponentials (7.1.2.2).

    .. math:: T(q) = e^{[S_1] q_1} e^{[S_2] q_2} \\cdots e^{[S_n] q_n} M

    ``twists`` (n, 6) unit twists (linear, angular) in the world frame,
    ``M`` the (4, 4) pose at q = 0, ``q`` (n,) or (N, n).  A twist with a
    zero angular part is prismatic (degrees are converted only for the
    others).

    >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    >>> S, M = r.twists()
    >>> q = np.array([0.3, -0.5])
    >>> np.allclose(fkine_poe(S, M, q), r.fkine(q))
    True
    """
    S = getarray(twists, "twists", shape=(6,))
    if S.ndim == 1:
        S = S[None]
    if S.ndim != 2:
        raise ValueError(f"twists: expected shape (n, 6), got shape {S.shape}")
    M = getpose(M, "M")
    if M.shape != (4, 4):
        raise ValueError(f"M: expected one 4x4 pose, got shape {M.shape}")
    rev = np.linalg.norm(S[:, 3:], axis=1) > 0
    qa = _getq(q, S.shape[0], rev, unit)
    T = np.broadcast_to(np.eye(4), qa.shape[:-1] + (4, 4))
    for j in range(S.shape[0]):
        T = T @ trexp(S[j], qa[..., j], check=False)
    return T @ M
