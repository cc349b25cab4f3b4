"""Elementary transform sequences (Chapter 7.1).

A robot arm is a chain of *elementary transforms*: rotations about and
translations along the x, y or z axis, each by a constant or by a joint
variable.  The notes write the planar two-link arm as

    xi_E(q) = Rz(q1) (+) Tx(a1) (+) Rz(q2) (+) Tx(a2)

and the Puma 560 as ``Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4)
Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)``.  :class:`ETS3` holds such a
sequence in 3-D (terms ``Rx Ry Rz Tx Ty Tz``), :class:`ETS2` in the plane
(terms ``Rz Tx Ty``).  A sequence is data; :meth:`ETS3.fkine` multiplies
the elementary matrices, batched over configurations.

>>> E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Rz("q2") * ETS2.Tx(1)
>>> print(E)
Rz(q1) ⊕ Tx(1) ⊕ Rz(q2) ⊕ Tx(1)
>>> E.structure, E.n
('RR', 2)
>>> E.fkine([30, 40], unit="deg").round(4)
array([[ 0.342 , -0.9397,  1.208 ],
       [ 0.9397,  0.342 ,  1.4397],
       [ 0.    ,  0.    ,  1.    ]])
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from ..checks import getq, getscalar, getunit
from ..kinematics.ellipsoid import Ellipsoid
from ..kinematics.ets_fkine import fkine_all_ets, fkine_ets, joint_frames_ets
from ..kinematics.ikine import IKSolution, ikine
from ..kinematics.jacobian import jacob0, jacobe, manipulability
from ..kinematics.rates import fellipse, vellipse
from ..plot.robot import PlanarPlot, RobotPlot, Teach, plot_planar, plot_robot, teach
from ..shapes import SE2, SE3, ArrayLike, Jacobian, JointVector

__all__ = ["ET", "ETS2", "ETS3"]


class ET(NamedTuple):
    """One elementary transform: a term of an :class:`ETS3` or :class:`ETS2`.

    ``axis`` is one of ``"Rx" "Ry" "Rz" "Tx" "Ty" "Tz"``; a constant term has
    ``value`` (radians or metres) and ``joint is None``; a joint term has
    ``value is None`` and ``joint`` its 0-based index in the sequence.
    ``name`` is the constant's symbol (e.g. ``"L1"``) or the joint's label,
    used only for printing.

    >>> ET("Tz", 0.5, None, "L1").isjoint
    False
    """

    axis: str
    value: float | None
    joint: int | None
    name: str | None = None

    @property
    def isjoint(self) -> bool:
        """True for a joint-variable term."""
        return self.joint is not None

    @property
    def isrotation(self) -> bool:
        """True for ``Rx Ry Rz`` terms (revolute when a joint)."""
        return self.axis[0] == "R"


# --------------------------------------------------------------------------- #
# restricted evaluation of the arguments in a string such as "Tz(L1) Ry(-pi/2)"

_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
           ast.Pow: lambda a, b: a ** b}


def _evaluate(expr: str, constants: dict, term: str) -> tuple[float, str | None]:
    """Value of a constant argument: a number, a named constant or arithmetic of them."""
    try:
        tree = ast.parse(expr.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"{term}: cannot read the argument {expr!r}") from None

    def ev(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name):
            if node.id in constants:
                return getscalar(constants[node.id], node.id)
            if node.id == "pi":
                return math.pi
            if re.fullmatch(r"q\d*", node.id):
                raise ValueError(
                    f"{term}: a joint variable must be the whole argument, "
                    f"as in Rz(q1), got {expr!r}"
                )
            raise ValueError(
                f"{term}: no value for the constant {node.id!r}; "
                f"pass it as a keyword, e.g. {node.id}=0.5"
            )
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(f"{term}: cannot read the argument {expr!r}")

    value = ev(tree)
    name = None if isinstance(tree, ast.Constant) else expr.strip()
    return value, name


_TERM_RE = re.compile(r"([RT][xyz])\(([^()]*(?:\([^()]*\)[^()]*)*)\)")


class _ETSBase:
    """Common code of :class:`ETS3` and :class:`ETS2`."""

    _AXES: tuple = ()
    dim = 3

    def __init__(self, terms: Iterable[ET | tuple] = ()) -> None:
        if isinstance(terms, str):
            raise TypeError(f"terms: expected elementary transforms, got the string {terms!r}; "
                            f"parse a string with {type(self).__name__}.from_string(...)")
        terms = list(terms)
        seen = set()
        out = []
        j = 0
        for t in terms:
            if not isinstance(t, ET):
                if not isinstance(t, (tuple, list)) or len(t) not in (3, 4):
                    raise TypeError(f"terms: expected ET terms or (axis, value, joint[, name]) tuples, "
                                    f"got {t!r}")
                t = ET(*t)
            if t.axis not in self._AXES:
                raise ValueError(
                    f"terms: expected axes {', '.join(self._AXES)} for {type(self).__name__}, "
                    f"got {t.axis!r}"
                )
            if t.isjoint:
                if t.name is not None:
                    if t.name in seen:
                        raise ValueError(
                            f"{t.axis}({t.name}): joint variable {t.name!r} appears twice; "
                            "each joint of a serial chain moves one term"
                        )
                    seen.add(t.name)
                t = ET(t.axis, None, j, t.name)
                j += 1
            else:
                t = ET(t.axis, getscalar(t.value, f"{t.axis} value"), None, t.name)
            out.append(t)
        self._terms = tuple(out)

    # -- construction ------------------------------------------------------ #
    @classmethod
    def _one(cls, axis, eta=None, unit="rad", name=None):
        if eta is None or (isinstance(eta, str) and re.fullmatch(r"q\d*", eta)):
            return cls([ET(axis, None, 0, eta)])
        if isinstance(eta, str):
            raise ValueError(
                f"eta: expected a number or a joint name such as 'q1', got {eta!r}"
            )
        v = getscalar(eta, "eta")
        if axis[0] == "R" and getunit(unit) == "deg":
            v = math.radians(v)
        return cls([ET(axis, v, None, name)])

    @classmethod
    def from_string(cls, s: str, *, unit: str = "rad", **constants: float) -> ETS3 | ETS2:
        """Parse a sequence such as ``"Tz(L1) Rz(q1) Ry(q2) Ty(L2)"``.

        Terms are ``Rx Ry Rz Tx Ty Tz`` followed by a parenthesised argument,
        separated by spaces (``*``, ``.`` and ``⊕`` are also accepted).  An
        argument ``q`` or ``q<k>`` is a joint variable; anything else is a
        number, a constant passed as a keyword (``L1=0.1``), ``pi`` or
        arithmetic of those.  Constant rotations are radians unless
        ``unit="deg"``.

        >>> E = ETS3.from_string("Rz(q1) Rx(q2) Ty(L1) Rx(q3) Tz(L2)", L1=0.1, L2=0.1)
        >>> print(E)
        Rz(q1) ⊕ Rx(q2) ⊕ Ty(L1) ⊕ Rx(q3) ⊕ Tz(L2)
        >>> E.fkine([0, 0, 0])[:3, 3]
        array([0. , 0.1, 0.1])
        >>> ETS3.from_string("Tz(L1) Rz(q1)")
        Traceback (most recent call last):
        ...
        ValueError: Tz(L1): no value for the constant 'L1'; pass it as a keyword, e.g. L1=0.5
        """
        if not isinstance(s, str):
            raise TypeError(f"s: expected a string, got {type(s).__name__}")
        getunit(unit)
        terms = []
        pos = 0
        for m in _TERM_RE.finditer(s):
            gap = s[pos:m.start()]
            if gap.strip(" \t\n*.⊕"):
                raise ValueError(f"s: cannot read {gap.strip()!r} (terms are Rx(..) Ry(..) Rz(..) "
                                 f"Tx(..) Ty(..) Tz(..))")
            pos = m.end()
            axis, arg = m.group(1), m.group(2).strip()
            term = m.group(0)
            if axis not in cls._AXES:
                raise ValueError(f"{term}: {cls.__name__} has only the terms "
                                 f"{', '.join(cls._AXES)}")
            if re.fullmatch(r"q\d*", arg):
                terms.append(ET(axis, None, 0, arg))
                continue
            v, name = _evaluate(arg, constants, term)
            if axis[0] == "R" and unit == "deg":
                v = math.radians(v)
            terms.append(ET(axis, v, None, name))
        if s[pos:].strip(" \t\n*.⊕"):
            raise ValueError(f"s: cannot read {s[pos:].strip()!r} (terms are Rx(..) Ry(..) "
                             f"Rz(..) Tx(..) Ty(..) Tz(..))")
        return cls(terms)

    def __mul__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return type(self)(self._terms + other._terms)

    # -- properties -------------------------------------------------------- #
    @property
    def terms(self) -> tuple[ET, ...]:
        """The terms as a tuple of :class:`ET` (axis, value, joint, name)."""
        return self._terms

    @property
    def n(self) -> int:
        """Number of joints."""
        return sum(t.isjoint for t in self._terms)

    @property
    def structure(self) -> str:
        """Joint types in order, ``R`` revolute and ``P`` prismatic, e.g. ``"RRP"``."""
        return "".join("R" if t.isrotation else "P" for t in self._terms if t.isjoint)

    def __len__(self):
        return len(self._terms)

    def __iter__(self):
        return iter(self._terms)

    def __getitem__(self, i):
        t = self._terms[i]
        return type(self)(t if isinstance(i, slice) else [t])

    def __str__(self):
        def arg(t):
            if t.isjoint:
                return f"q{t.joint + 1}"
            if t.name is not None:
                return t.name
            if t.isrotation:
                return f"{math.degrees(t.value):.4g}°"
            return f"{t.value:.4g}"
        return " ⊕ ".join(f"{t.axis}({arg(t)})" for t in self._terms)

    def __repr__(self):
        return f"{type(self).__name__}({str(self)!r})"

    @property
    def revolute(self) -> np.ndarray:
        """Boolean (n,) array, true for revolute joints (the chain interface)."""
        return np.array([t.isrotation for t in self._terms if t.isjoint], dtype=bool)

    @property
    def qlim(self) -> np.ndarray:
        """Joint limits (2, n): ``[-pi, pi]`` for revolute, ``[-inf, inf]`` for prismatic joints.

        An elementary transform sequence has no limits of its own; these
        are the ranges the sliders and random restarts use.
        """
        rev = self.revolute
        return np.stack([np.where(rev, -np.pi, -np.inf), np.where(rev, np.pi, np.inf)])

    @property
    def base(self) -> SE3:
        """Base pose (4, 4): the identity (a sequence starts where it is drawn)."""
        return np.eye(4)

    @base.setter
    def base(self, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} has no base of its own: put it in the sequence as "
                             f"its first constant terms, e.g. {type(self).__name__}.Tz(0.5) * E")

    @property
    def tool(self) -> SE3:
        """Tool pose (4, 4): the identity (a tool is one more constant term)."""
        return np.eye(4)

    @tool.setter
    def tool(self, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} has no tool of its own: put it in the sequence as "
                             f"its last constant terms, e.g. E * {type(self).__name__}.Tz(0.1)")

    # -- kinematics: thin calls into rvc.kinematics.ets_fkine --------------------- #
    def fkine(self, q: JointVector | None = None, *, unit: str = "rad") -> SE3 | SE2:
        """Forward kinematics ``T(q) = E_1 E_2 ... E_m``: :func:`rvc.kinematics.ets_fkine.fkine_ets`.

        >>> E = ETS3.Rz() * ETS3.Tx(1)
        >>> E.fkine(np.zeros((5, 1))).shape
        (5, 4, 4)
        """
        return fkine_ets(self, q, unit=unit)

    def fkine_all(self, q: JointVector | None = None, *, unit: str = "rad") -> SE3 | SE2:
        """The origin, each joint's frame and the end: :func:`rvc.kinematics.ets_fkine.fkine_all_ets`.

        >>> (ETS2.Tx(1) * ETS2.Tx()).fkine_all([0.5])[:, 0, 2]   # the slider starts at x = 1
        array([0. , 1. , 1.5])
        """
        return fkine_all_ets(self, q, unit=unit)

    def joint_frames(self, q: JointVector, *, unit: str = "rad") -> tuple[SE3, SE3]:
        """Frames of the joint axes and the end pose: :func:`rvc.kinematics.ets_fkine.joint_frames_ets`.

        >>> F, T = ETS3.Rx().joint_frames([0.0])
        >>> F[0, :3, 2]
        array([1., 0., 0.])
        """
        return joint_frames_ets(self, q, unit=unit)

    def ikine(self, T: SE3 | SE2, q0: JointVector | None = None, **kwargs: Any) -> IKSolution:
        """Numerical inverse kinematics: :func:`rvc.kinematics.ikine.ikine` ``(self, T, q0)``.

        An :class:`ETS2` takes planar poses (3, 3), as its ``fkine`` returns them.

        >>> E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz()
        >>> sol = E.ikine(E.fkine([0.3, 0.6, -0.2]), [0.2, 0.4, 0.0])
        >>> sol.success, sol.q.round(6)
        (True, array([ 0.3,  0.6, -0.2]))
        """
        return ikine(self, T, q0, **kwargs)

    # -- Chapter 8: manipulator velocity (thin calls) ------------------------ #
    def jacob0(self, q: JointVector, analytical: str | None = None, *, unit: str = "rad") -> Jacobian:
        """World-frame Jacobian (6, n): :func:`rvc.kinematics.jacobian.jacob0` ``(self, q, analytical)``.

        A planar :class:`ETS2` moves in the xy-plane of 3-D space: rows vx vy wz.

        >>> (ETS2.Rz() * ETS2.Tx(1)).jacob0([0])[:, 0]
        array([0., 1., 0., 0., 0., 1.])
        """
        return jacob0(self, q, analytical, unit=unit)

    def jacobe(self, q: JointVector, *, unit: str = "rad") -> Jacobian:
        """End-effector-frame Jacobian (6, n): :func:`rvc.kinematics.jacobian.jacobe`."""
        return jacobe(self, q, unit=unit)

    def manipulability(self, q: JointVector, method: str = "yoshikawa", axes: str | ArrayLike = "all", *,
                       unit: str = "rad") -> float | np.ndarray:
        """Manipulability at ``q``: :func:`rvc.kinematics.jacobian.manipulability`."""
        return manipulability(self, q, method, axes, unit=unit)

    def vellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> Ellipsoid:
        """Velocity ellipsoid at ``q``: :func:`rvc.kinematics.rates.vellipse`."""
        return vellipse(self, q, axes, **kwargs)

    def fellipse(self, q: JointVector, axes: str | ArrayLike = "trans", **kwargs: Any) -> Ellipsoid:
        """Force ellipsoid at ``q``: :func:`rvc.kinematics.rates.fellipse`."""
        return fellipse(self, q, axes, **kwargs)

    def plot(self, q: JointVector, *, unit: str = "rad", **kwargs: Any) -> RobotPlot | PlanarPlot:
        """Draw the chain at ``q`` (the notes' ``E.plot(q)``): :func:`rvc.plot.robot.plot_planar`
        for an :class:`ETS2`, :func:`rvc.plot.robot.plot_robot` for an :class:`ETS3`."""
        draw = plot_planar if self.dim == 2 else plot_robot
        return draw(self, getq(q, self.n, self.revolute, unit), **kwargs)

    def teach(self, q: JointVector | None = None) -> Teach:
        """One slider per joint moving the drawing (the notes' ``E.teach``):
        :func:`rvc.plot.robot.teach`."""
        return teach(self, q)


class ETS3(_ETSBase):
    """A sequence of 3-D elementary transforms ``Rx Ry Rz Tx Ty Tz``.

    Build one term at a time with the class methods and ``*``
    (``ETS3.Tz(0.5) * ETS3.Rz("q1")`` or ``ETS3.Rz()`` for a joint), or from a
    string with :meth:`from_string`.  Joints are numbered in the order they
    appear (``q1 ... qn``).  The forward kinematics are the product

        T(q) = E_1(eta_1) E_2(eta_2) ... E_m(eta_m)

    of the 4x4 elementary matrices, where eta is the constant or the joint
    coordinate of each term.

    >>> E3 = ETS3.Tz(0.5) * ETS3.Rz("q1") * ETS3.Tx(1)
    >>> print(E3)
    Tz(0.5) ⊕ Rz(q1) ⊕ Tx(1)
    >>> E3.fkine([np.pi / 2]).round(3)
    array([[ 0. , -1. ,  0. ,  0. ],
           [ 1. ,  0. ,  0. ,  1. ],
           [ 0. ,  0. ,  1. ,  0.5],
           [ 0. ,  0. ,  0. ,  1. ]])
    """

    _AXES = ("Rx", "Ry", "Rz", "Tx", "Ty", "Tz")
    #: Dimension of the space the chain moves in (the chain interface).
    dim = 3

    @classmethod
    def Rx(cls, eta: float | str | None = None, *, unit: str = "rad", name: str | None = None) -> ETS3:
        """Rotation about x by ``eta`` (a constant), or a revolute joint if ``eta`` is None or ``'q1'``...

        >>> print(ETS3.Rx(90, unit="deg"))
        Rx(90°)
        """
        return cls._one("Rx", eta, unit, name)

    @classmethod
    def Ry(cls, eta: float | str | None = None, *, unit: str = "rad", name: str | None = None) -> ETS3:
        """Rotation about y by ``eta``, or a revolute joint (see :meth:`Rx`).

        >>> ETS3.Ry().structure
        'R'
        """
        return cls._one("Ry", eta, unit, name)

    @classmethod
    def Rz(cls, eta: float | str | None = None, *, unit: str = "rad", name: str | None = None) -> ETS3:
        """Rotation about z by ``eta``, or a revolute joint (see :meth:`Rx`).

        >>> ETS3.Rz("q1").n
        1
        """
        return cls._one("Rz", eta, unit, name)

    @classmethod
    def Tx(cls, eta: float | str | None = None, *, name: str | None = None) -> ETS3:
        """Translation along x by ``eta``, or a prismatic joint if ``eta`` is None or ``'q1'``...

        >>> ETS3.Tx().structure
        'P'
        """
        return cls._one("Tx", eta, "rad", name)

    @classmethod
    def Ty(cls, eta: float | str | None = None, *, name: str | None = None) -> ETS3:
        """Translation along y by ``eta``, or a prismatic joint.

        >>> print(ETS3.Ty(0.25))
        Ty(0.25)
        """
        return cls._one("Ty", eta, "rad", name)

    @classmethod
    def Tz(cls, eta: float | str | None = None, *, name: str | None = None) -> ETS3:
        """Translation along z by ``eta``, or a prismatic joint.

        >>> print(ETS3.Tz(0.6, name="L1"))
        Tz(L1)
        """
        return cls._one("Tz", eta, "rad", name)


class ETS2(_ETSBase):
    """A sequence of planar elementary transforms ``Rz Tx Ty`` (Chapter 7.1.1).

    As :class:`ETS3`, with 3x3 homogeneous transforms of SE(2).

    >>> E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Tx("q2")
    >>> E.structure
    'RP'
    >>> E.fkine([0, 0.5])[:2, 2]
    array([1.5, 0. ])
    """

    _AXES = ("Rz", "Tx", "Ty")
    #: Dimension of the space the chain moves in (the chain interface).
    dim = 2

    @classmethod
    def Rz(cls, eta: float | str | None = None, *, unit: str = "rad", name: str | None = None) -> ETS2:
        """Rotation by ``eta`` in the plane, or a revolute joint if ``eta`` is None or ``'q1'``...

        >>> print(ETS2.Rz(45, unit="deg"))
        Rz(45°)
        """
        return cls._one("Rz", eta, unit, name)

    @classmethod
    def Tx(cls, eta: float | str | None = None, *, name: str | None = None) -> ETS2:
        """Translation along x by ``eta``, or a prismatic joint.

        >>> ETS2.Tx().structure
        'P'
        """
        return cls._one("Tx", eta, "rad", name)

    @classmethod
    def Ty(cls, eta: float | str | None = None, *, name: str | None = None) -> ETS2:
        """Translation along y by ``eta``, or a prismatic joint.

        >>> print(ETS2.Ty(2))
        Ty(2)
        """
        return cls._one("Ty", eta, "rad", name)
