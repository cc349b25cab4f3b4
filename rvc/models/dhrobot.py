"""Serial-link robots described by Denavit-Hartenberg parameters (Chapter 7.1.2).

Models are data, algorithms are functions of the model: :class:`DHRobot`
is a list of :class:`~rvc.models.link.Link` plus a name, base and tool
transforms and named joint configurations.  Its methods (``p560.fkine(q)``,
``p560.jacob0(q)``, ``p560.plot(q)`` as the notes write them) are thin
calls into :mod:`rvc.kinematics` and :mod:`rvc.plot`.

>>> robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)], name="my robot")
>>> robot.fkine([30, 40], unit="deg").round(4)
array([[ 0.342 , -0.9397,  0.    ,  1.208 ],
       [ 0.9397,  0.342 ,  0.    ,  1.4397],
       [ 0.    ,  0.    ,  1.    ,  0.    ],
       [ 0.    ,  0.    ,  0.    ,  1.    ]])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..checks import getpose, getq, getvector
from ..shapes import SE3, ArrayLike, Jacobian, JointPath, JointVector, Twist6, Vector3
from ..kinematics.dh import fkine_all, fkine_dh, fkine_links, joint_frames_dh
from ..kinematics.ikine import IKSolution, ikine
from ..kinematics.ikine6s import ikine6s
from ..kinematics.jacobian import jacob0, jacobe, manipulability
from ..kinematics.jtranspose import IKHistory, ikine_transpose
from ..kinematics.ellipsoid import Ellipsoid
from ..kinematics.rates import fellipse, vellipse, wrench2tau
from ..plot.ellipse import ArmEllipsePlot, plot_fellipse, plot_vellipse
from ..kinematics.poe import joint_twists
from ..dynamics import (Energy, JointDynamics, Simulation, accel, asada, coriolis, energy, fdyn, friction, gravload,
                        inertia, inertia_x, itorque, jointdynamics, nofriction, payload, rne)
from ..plot.robot import RobotPlot, Teach, animate_robot, plot_robot, teach
from .display import box_table, fmt_deg, fmt_num, pose_str
from .link import Link

__all__ = ["DHRobot"]


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

    def __init__(self, links: Sequence[Link] | DHRobot, name: str = "", base: SE3 | None = None,
                 tool: SE3 | None = None, configurations: dict[str, JointVector] | None = None,
                 *, manufacturer: str | None = None, gravity: Vector3 | None = None) -> None:
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

    def addconfiguration(self, name: str, q: JointVector) -> None:
        """Store a named joint configuration, also available as ``robot.<name>``.

        >>> r = DHRobot([RevoluteDH()]); r.addconfiguration("qup", [1.0]); r.qup
        array([1.])
        """
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"name: expected a Python identifier, got {name!r}")
        if name in type(self).__dict__ or name in self.__dict__:
            raise ValueError(f"name: {name!r} is already an attribute of DHRobot")
        self._configurations[name] = getq(q, self.n, self.revolute, name=name).copy()

    @property
    def configurations(self) -> dict[str, JointVector]:
        """Named joint configurations, a dict of name -> (n,) array (a copy)."""
        return {k: v.copy() for k, v in self._configurations.items()}

    @property
    def links(self) -> list[Link]:
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

    #: Dimension of the space the arm moves in (the chain interface): 3.
    dim = 3

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
    def fkine(self, q: JointVector, *, unit: str = "rad") -> SE3:
        """Forward kinematics, see :func:`fkine_dh`.

        >>> float(DHRobot([PrismaticDH()]).fkine(0.5)[2, 3])
        0.5
        """
        return fkine_dh(self, q, unit=unit)

    def joint_frames(self, q: JointVector, *, unit: str = "rad") -> tuple[SE3, SE3]:
        """Frames of the joint axes and the tool pose, see :func:`rvc.kinematics.dh.joint_frames_dh`.

        >>> F, T = DHRobot([RevoluteDH(a=1)]).joint_frames([0])
        >>> F.shape, T[:3, 3]
        ((1, 4, 4), array([1., 0., 0.]))
        """
        return joint_frames_dh(self, q, unit=unit)

    def fkine_all(self, q: JointVector, *, unit: str = "rad") -> SE3:
        """Poses of all link frames, see :func:`fkine_all`.

        >>> DHRobot([RevoluteDH(a=1)] * 2).fkine_all([0, 0]).shape
        (3, 4, 4)
        """
        return fkine_all(self, q, unit=unit)

    def A(self, j: int | Sequence[int], q: JointVector, *, unit: str = "rad") -> SE3:
        """Link transforms without base or tool, as in the toolbox: :func:`rvc.kinematics.dh.fkine_links`.

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
        return fkine_links(self, j, q, unit=unit)

    def twists(self) -> tuple[Twist6, SE3]:
        """Joint twists and home pose ``(S, M)`` for the product of exponentials.

        See :func:`joint_twists`; ``M = robot.fkine(zeros)``.

        >>> S, M = DHRobot([RevoluteDH(a=1)] * 2).twists()
        >>> S
        array([[ 0.,  0.,  0.,  0.,  0.,  1.],
               [ 0., -1.,  0.,  0.,  0.,  1.]])
        """
        return joint_twists(self), self.fkine(np.zeros(self.n))

    # -- thin calls into the algorithms, as the notes write them ------------ #
    # (p560.ikine6s(T), p560.plot(q)...): the algorithms live in the layers
    # below (rvc.kinematics, rvc.plot) and never import this class.
    def ikine6s(self, T: SE3, config: str = "lun", **kwargs: Any) -> IKSolution:
        """Closed-form inverse kinematics: :func:`rvc.kinematics.ikine.ikine6s` ``(self, T, config)``."""
        return ikine6s(self, T, config, **kwargs)

    def ikine(self, T: SE3, q0: JointVector | None = None, **kwargs: Any) -> IKSolution:
        """Numerical inverse kinematics: :func:`rvc.kinematics.ikine.ikine` ``(self, T, q0)``."""
        return ikine(self, T, q0, **kwargs)

    def jacob0(self, q: JointVector, analytical: str | None = None, *, unit: str = "rad") -> Jacobian:
        """Jacobian in the world frame (6, n): :func:`rvc.kinematics.jacobian.jacob0` ``(self, q, analytical)``.

        ``p560.jacob0(qn, "eul")`` is the analytical Jacobian (8.1.3).

        >>> DHRobot([RevoluteDH(a=1)]).jacob0([0])[:, 0]
        array([0., 1., 0., 0., 0., 1.])
        """
        return jacob0(self, q, analytical, unit=unit)

    def jacobe(self, q: JointVector, *, unit: str = "rad") -> Jacobian:
        """Jacobian in the end-effector frame (6, n): :func:`rvc.kinematics.jacobian.jacobe` ``(self, q)``.

        >>> DHRobot([RevoluteDH(a=1)]).jacobe([np.pi / 2])[:, 0].round(6) + 0
        array([0., 1., 0., 0., 0., 1.])
        """
        return jacobe(self, q, unit=unit)

    def manipulability(self, q: JointVector, method: str = "yoshikawa", axes: str | ArrayLike = "all", *,
                       unit: str = "rad") -> float | np.ndarray:
        """Manipulability at ``q`` (a float, or (N,) for (N, n)): :func:`rvc.kinematics.jacobian.manipulability`.

        The notes' ``p560.maniplty(q)``; ``method="asada"`` is the dynamic
        measure of 9.2.7, :func:`rvc.dynamics.cartesian.asada`.

        >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
        >>> round(float(r.manipulability([0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0])), 4)
        1.0
        """
        if method == "asada":
            return asada(self, getq(q, self.n, self.revolute, unit), axes)
        return manipulability(self, q, method, axes, unit=unit)

    # -- Chapter 8: manipulator velocity (thin calls) ------------------------ #
    def vellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> Ellipsoid:
        """Velocity ellipsoid at ``q``: :func:`rvc.kinematics.rates.vellipse` ``(self, q, axes)``.

        >>> r = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
        >>> r.vellipse([0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0]).radii.round(4)
        array([1.618, 0.618])
        """
        return vellipse(self, q, axes, **kwargs)

    def fellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> Ellipsoid:
        """Force ellipsoid at ``q``: :func:`rvc.kinematics.rates.fellipse` ``(self, q, axes)``."""
        return fellipse(self, q, axes, **kwargs)

    def plot_vellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> ArmEllipsePlot:
        """Draw the velocity ellipsoid at the tool (the notes' ``p2.vellipse(q)``):
        :func:`rvc.plot.ellipse.plot_vellipse`."""
        return plot_vellipse(self, q, axes, **kwargs)

    def plot_fellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> ArmEllipsePlot:
        """Draw the force ellipsoid at the tool (the notes' ``p2.fellipse(q)``):
        :func:`rvc.plot.ellipse.plot_fellipse`."""
        return plot_fellipse(self, q, axes, **kwargs)

    def wrench2tau(self, q: JointVector, w: Twist6, frame: str = "world", **kwargs: Any) -> JointVector:
        """Joint forces from a tool wrench, ``J^T w``: :func:`rvc.kinematics.rates.wrench2tau`."""
        return wrench2tau(self, q, w, frame, **kwargs)

    def ikine_transpose(self, T: SE3, q0: JointVector | None = None, **kwargs: Any) -> IKHistory:
        """Inverse kinematics by the Jacobian transpose (8.6.1):
        :func:`rvc.kinematics.jtranspose.ikine_transpose` ``(self, T, q0)``."""
        return ikine_transpose(self, T, q0, **kwargs)

    def plot(self, q: JointVector, **kwargs: Any) -> RobotPlot:
        """Draw the robot at ``q``: :func:`rvc.plot.robot.plot_robot`."""
        return plot_robot(self, q, **kwargs)

    def animate(self, Q: JointPath, **kwargs: Any) -> Any:
        """Animate a joint trajectory ``Q`` (N, n): :func:`rvc.plot.robot.animate_robot`."""
        return animate_robot(self, Q, **kwargs)

    def teach(self, q: JointVector | None = None) -> Teach:
        """One slider per joint, drawing the robot: :func:`rvc.plot.robot.teach`."""
        return teach(self, q)

    # -- dynamics (thin calls into rvc.dynamics) ----------------------------- #
    # As the notes write them (p560.rne(qn), p560.inertia(qn) ...); the
    # algorithms read this robot's links as data and never import this class.
    def rne(self, q: JointVector, qd: JointVector | None = None, qdd: JointVector | None = None,
            gravity: Vector3 | None = None, fext: Twist6 | None = None,
            base_wrench: bool = False) -> JointVector | tuple[JointVector, Twist6]:
        """Inverse dynamics, joint torques (..., n): :func:`rvc.dynamics.rne.rne`.

        >>> p560 = rvc.models.puma560()
        >>> p560.rne(p560.qn, np.zeros(6), np.zeros(6)).round(4).tolist()
        [0.0, 31.6399, 6.0351, 0.0, 0.0283, 0.0]
        """
        return rne(self, q, qd, qdd, gravity=gravity, fext=fext, base_wrench=base_wrench)

    def inertia(self, q: JointVector) -> np.ndarray:
        """Joint-space inertia matrix (..., n, n): :func:`rvc.dynamics.matrices.inertia`."""
        return inertia(self, q)

    def gravload(self, q: JointVector, gravity: Vector3 | None = None) -> JointVector:
        """Gravity load (..., n): :func:`rvc.dynamics.matrices.gravload`."""
        return gravload(self, q, gravity)

    def coriolis(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Coriolis matrix (..., n, n): :func:`rvc.dynamics.matrices.coriolis`."""
        return coriolis(self, q, qd)

    def itorque(self, q: JointVector, qdd: JointVector) -> JointVector:
        """Inertial torque M(q) qdd: :func:`rvc.dynamics.matrices.itorque`."""
        return itorque(self, q, qdd)

    def energy(self, q: JointVector, qd: JointVector, gravity: Vector3 | None = None) -> Energy:
        """Kinetic and potential energy: :func:`rvc.dynamics.matrices.energy`."""
        return energy(self, q, qd, gravity)

    def accel(self, q: JointVector, qd: JointVector, torque: JointVector, gravity: Vector3 | None = None,
              fext: Twist6 | None = None) -> JointVector:
        """Forward dynamics, joint accelerations: :func:`rvc.dynamics.fdyn.accel`."""
        return accel(self, q, qd, torque, gravity=gravity, fext=fext)

    def fdyn(self, T: float, q0: JointVector, qd0: JointVector | None = None,
             torque: Callable[[float, JointVector, JointVector], JointVector] | None = None,
             **kwargs: Any) -> Simulation:
        """Integrate the forward dynamics: :func:`rvc.dynamics.fdyn.fdyn`."""
        return fdyn(self, T, q0, qd0, torque, **kwargs)

    def friction(self, qd: JointVector) -> JointVector:
        """Joint friction torque (..., n): :func:`rvc.dynamics.friction.friction`."""
        return friction(self, qd)

    def nofriction(self, coulomb: bool = True, viscous: bool = False) -> DHRobot:
        """A copy without Coulomb (and viscous) friction: :func:`rvc.dynamics.friction.nofriction`.

        MATLAB's ``p560.nofriction('all')`` is ``p560.nofriction(viscous=True)``.
        """
        return nofriction(self, coulomb, viscous)

    def payload(self, m: float, p: Vector3 = (0.0, 0.0, 0.0)) -> None:
        """Add (replace, or with m = 0 remove) a payload, in place: :func:`rvc.dynamics.payload.payload`."""
        return payload(self, m, p)

    def inertia_x(self, q: JointVector, axes: str | ArrayLike = "all") -> np.ndarray:
        """Cartesian inertia (J M^-1 J^T)^-1: :func:`rvc.dynamics.cartesian.inertia_x`."""
        return inertia_x(self, q, axes)

    def jointdynamics(self, q: JointVector, qd: JointVector | None = None) -> JointDynamics:
        """Each joint's motor-side transfer function: :func:`rvc.dynamics.actuator.jointdynamics`."""
        return jointdynamics(self, q, qd)

    # -- printing --------------------------------------------------------- #
    def _qstr(self, j, L):
        s = f"q{j + 1}"
        if L.offset != 0:
            sign = "+" if L.offset > 0 else "-"
            off = abs(L.offset)
            s += f" {sign} {off:.4g}" if L.isprismatic else f" {sign} {fmt_deg(off)}"
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
            th = self._qstr(j, L) if L.isrevolute else fmt_deg(L.theta)
            d = self._qstr(j, L) if L.isprismatic else fmt_num(L.d)
            lim = []
            if L.qlim is not None:
                f = fmt_deg if L.isrevolute else fmt_num
                lim = [f(L.qlim[0]), f(L.qlim[1])]
            elif any(k.qlim is not None for k in self._links):
                lim = ["-", "-"]
            rows.append(([fmt_num(L.a), fmt_deg(L.alpha), th, d] if self.mdh
                         else [th, d, fmt_num(L.a), fmt_deg(L.alpha)]) + lim)
        header = (["aⱼ₋₁", "⍺ⱼ₋₁", "θⱼ", "dⱼ"] if self.mdh else ["θⱼ", "dⱼ", "aⱼ", "⍺ⱼ"])
        if any(L.qlim is not None for L in self._links):
            header += ["q⁻", "q⁺"]
        out = [head, box_table(header, rows)]
        if not np.array_equal(self.base, np.eye(4)):
            out.append(f"base: {pose_str(self.base)}")
        if not np.array_equal(self.tool, np.eye(4)):
            out.append(f"tool: {pose_str(self.tool)}")
        if self._configurations:
            names = list(self._configurations)
            crow = [[k] + [(fmt_deg(v) if rev else fmt_num(v))
                           for v, rev in zip(self._configurations[k], self.revolute)]
                    for k in names]
            out.append(box_table(["name"] + [f"q{j + 1}" for j in range(self.n)], crow))
        return "\n".join(out)

    def __repr__(self) -> str:
        kind = "modified" if self.mdh else "standard"
        return f"DHRobot({self.name!r}, {self.n} joints {self.structure}, {kind} DH)"
