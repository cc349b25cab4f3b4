"""DH factorisation: from an elementary transform sequence to DH parameters (7.4.2).

The notes describe an arm as a string of elementary transforms, e.g. the
Puma 560 as ``'Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5)
Tz(L6) Rz(q4) Ry(q5) Rz(q6)'``, where joints may turn about any axis, and
Corke's ``DHFactor`` turns it into standard DH parameters.  The Python
toolbox never finished it; :class:`DHFactor` here does it numerically (the
constants get values) and exactly.

>>> dh = DHFactor("Rz(q1) Tx(a1) Rz(q2) Tx(a2)", a1=1, a2=1)
>>> print(dh)
DHFactor: Rz(q1) ⊕ Tx(a1) ⊕ Rz(q2) ⊕ Tx(a2)
┌────┬────┬────┬──────┐
│ θⱼ │ dⱼ │ aⱼ │   ⍺ⱼ │
├────┼────┼────┼──────┤
│ q1 │  0 │  1 │ 0.0° │
│ q2 │  0 │  1 │ 0.0° │
└────┴────┴────┴──────┘
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..kinematics.dh import dh_transform
from ..kinematics.ets_fkine import Z_ONTO, elementary
from ..spatial.transforms3d import trinv
from .dhrobot import DHRobot
from .display import box_table, fmt_deg, fmt_num, pose_str
from .ets import ETS2, ETS3
from .link import Link

__all__ = ["DHFactor"]

_EPS = 1e-10



def _clean(x: float) -> float:
    """Snap round-off: |x| < 1e-12 to 0, and near-integers of 90 degrees for angles."""
    return 0.0 if abs(x) < 1e-12 else float(x)


def _angle(x: float) -> float:
    k = round(x / (math.pi / 2))
    if abs(x - k * math.pi / 2) < 1e-12:
        x = k * math.pi / 2
    return _clean(x)


def _dh_params(N: np.ndarray):
    """(theta, d, a, alpha) of a transform N known to be Rz Tz Tx Rx."""
    x, w, o = N[:3, 0], N[:3, 2], N[:3, 3]
    theta = math.atan2(x[1], x[0])
    alpha = math.atan2(np.cross([0, 0, 1.0], w) @ x, w[2])
    return _angle(theta), _clean(o[2]), _clean(o @ x), _angle(alpha)


def _pick_x(direction: np.ndarray) -> np.ndarray:
    """Of +direction and -direction (both perpendicular to z) the one with
    -90 deg <= theta < 90 deg."""
    u = direction / np.linalg.norm(direction)
    if u[0] < -_EPS or (abs(u[0]) <= _EPS and u[1] > 0):
        u = -u
    return u


def _next_frame(Y: np.ndarray) -> np.ndarray:
    """DH frame {k} on the next joint axis, expressed in frame {k-1}.

    ``Y`` places the next joint's axis as its z axis (through its origin).
    Returns ``N = Rz(theta) Tz(d) Tx(a) Rx(alpha)`` whose z axis is that same
    line and whose x axis lies along the common normal from the z axis of
    {k-1}: for skew or intersecting axes the common normal is unique (up to
    sign); for parallel axes the one with d = 0 is taken, for coincident
    axes x is kept along x_{k-1}.
    """
    p, w = Y[:3, 3], Y[:3, 2]
    ez = np.array([0.0, 0.0, 1.0])
    c = np.cross(ez, w)
    if np.linalg.norm(c) > 1e-9:
        # closest points t*ez and p + s*w of the two lines
        b = ez @ w
        d0, e0 = ez @ (-p), w @ (-p)
        den = 1.0 - b * b
        t = (b * e0 - d0) / den
        s = (e0 - b * d0) / den
        o = p + s * w
        x = c / np.linalg.norm(c)   # x_k = z_{k-1} x z_k, so 0 < alpha < 180 deg
        o = np.array([0.0, 0.0, t]) + ((o - np.array([0.0, 0.0, t])) @ x) * x
    else:
        s = -p[2] / w[2]
        o = p + s * w
        radial = np.array([o[0], o[1], 0.0])
        x = _pick_x(radial) if np.linalg.norm(radial) > 1e-9 else np.array([1.0, 0.0, 0.0])
    N = np.eye(4)
    N[:3, 0], N[:3, 1], N[:3, 2], N[:3, 3] = x, np.cross(w, x), w, o
    return N


def _is_zscrew(F: np.ndarray, tol: float = 1e-9) -> bool:
    """True if F = Rz(phi) Tz(s): it commutes with a joint about/along z."""
    return (abs(F[2, 2] - 1) < tol and np.all(np.abs(F[:2, 3]) < tol))


class DHFactor:
    """Standard DH parameters, base and tool of an elementary transform sequence.

    ``DHFactor(s, **constants)`` with ``s`` a string such as
    ``"Tz(L1) Rz(q1) Ry(q2) ..."`` (constants passed as keywords, rotations in
    radians unless ``unit="deg"``), or an :class:`~rvc.models.ETS3` /
    :class:`~rvc.models.ETS2`.  The result satisfies, for every q,

        ETS(q) = base A_1(q_1) ... A_n(q_n) tool,    A_j standard DH.

    **Algorithm** (numeric, exact up to round-off):

    1. Group the sequence as ``C_0 J_1(q_1) C_1 ... J_n(q_n) C_n``, with
       ``C_k`` the product of the constant terms and ``J_k`` the joint terms.
    2. Turn every joint about/along z: ``R_u(q) = P_u Rz(q) P_u^-1`` with
       ``P_x = Ry(90°)``, ``P_y = Rx(-90°)``, ``P_z = I`` (the same for
       translations), giving ``C'_0 Z_1 C'_1 ... Z_n C'_n`` with
       ``C'_k = P_k^-1 C_k P_{k+1}``.
    3. A z-screw ``F = Rz(phi) Tz(s)`` commutes with ``Z_k``, so
       ``C'_{k-1} Z_k C'_k = (C'_{k-1} F_k) Z_k (F_k^-1 C'_k)``: the frame
       of joint k may slide along and turn about its axis.  Choose
       ``F_{k+1}`` so that ``D_k = F_k^-1 C'_k F_{k+1}`` has the DH form
       ``Rz(theta) Tz(d) Tx(a) Rx(alpha)``: that is, the x axis of frame
       {k} lies on the common normal of the axes of joints k and k+1.  For
       skew or intersecting axes ``x_k`` is along ``z_{k-1} x z_k`` (so
       0 < alpha < 180°, the usual convention); for parallel axes the normal
       with d = 0 is taken, pointing so that -90° <= theta < 90°.
       Link k is then ``Z_k(q_k) D_k``: revolute ``theta_k = q_k + theta``,
       prismatic ``d_k = q_k + d``.
    4. ``base = C'_0 F_1`` (``F_1 = C'_0^-1`` when ``C'_0`` is itself a
       z-screw, so the base is the identity); the last link takes the
       translation of ``F_n^-1 C'_n`` (and its rotation too when that is a
       ``Rz Rx`` pair), the rest is the ``tool``.

    Axes closer to parallel than 1e-9 rad are treated as parallel, so the
    identity holds to round-off times the chain's size for ordinary strings
    and to about that angle in such near-degenerate ones.

    Every serial chain of one-variable joints has such a description, so
    the factorisation fails only for terms that are not one joint variable
    or a known constant: a ``ValueError`` names the term (a constant without
    a value, a joint variable used twice, a joint inside an expression such
    as ``Rz(2*q1)``).  Attributes: ``ets``, ``links`` (list of
    :class:`~rvc.models.Link`), ``dh`` ((n, 4) array of rows
    ``[theta, d, a, alpha]``, where the joint variable's column holds its
    constant offset), ``sigma``, ``structure``, ``base``, ``tool``.

    >>> s = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"
    >>> dh = DHFactor(s, L1=0, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)
    >>> p = dh.robot("puma")
    >>> q = np.random.default_rng(0).uniform(-3, 3, (10, 6))
    >>> np.allclose(p.fkine(q), dh.ets.fkine(q))
    True
    >>> DHFactor("Rz(q1) Tx(L1) Rz(2*q2)", L1=1)
    Traceback (most recent call last):
    ...
    ValueError: Rz(2*q2): a joint variable must be the whole argument, as in Rz(q1), got '2*q2'
    """

    def __init__(self, s: str | ETS3 | ETS2, *, unit: str = "rad", **constants: float) -> None:
        if isinstance(s, str):
            ets = ETS3.from_string(s, unit=unit, **constants)
        elif isinstance(s, (ETS3, ETS2)):
            ets = ETS3(s.terms)
        else:
            raise TypeError(f"s: expected a string or an ETS3, got {type(s).__name__}")
        if ets.n == 0:
            raise ValueError(f"s: expected at least one joint variable, got {str(ets)!r}")
        self.ets = ets
        self._factor()

    def _factor(self):
        # 1. C_0 J_1 C_1 ... J_n C_n
        consts = [np.eye(4)]
        joints = []
        for t in self.ets.terms:
            if t.isjoint:
                joints.append(t)
                consts.append(np.eye(4))
            else:
                consts[-1] = consts[-1] @ elementary(t.axis, t.value)
        n = len(joints)
        # 2. all joints about/along z
        P = [Z_ONTO[t.axis[1]] for t in joints]
        Cp = [consts[0] @ P[0]]
        Cp += [P[k - 1].T @ consts[k] @ P[k] for k in range(1, n)]
        Cp.append(P[n - 1].T @ consts[n])
        # 4. base
        if _is_zscrew(Cp[0]):
            # F_1 = the exact z-screw part of C'_0; the base keeps any round-off
            Z = elementary("Rz", math.atan2(Cp[0][1, 0], Cp[0][0, 0])) \
                @ elementary("Tz", Cp[0][2, 3])
            F = trinv(Z, check=False)
            base = Cp[0] @ F
        else:
            F = np.eye(4)
            base = Cp[0]
        # 3. links 1 .. n-1
        params = []
        for k in range(1, n):
            Y = trinv(F, check=False) @ Cp[k]
            N = _next_frame(Y)
            Fn = trinv(Y, check=False) @ N
            assert _is_zscrew(Fn, 1e-7), "internal error: frame not on the joint axis"
            params.append(_dh_params(N))
            F = Fn
        # last link and tool
        Y = trinv(F, check=False) @ Cp[n]
        p, R = Y[:3, 3], Y[:3, :3]
        r = math.hypot(p[0], p[1])
        if r > 1e-9:
            x = _pick_x(np.array([p[0], p[1], 0.0]))
            theta, a = math.atan2(x[1], x[0]), float(p[:2] @ x[:2])
            rem = trinv(dh_transform(theta, p[2], a, 0.0), check=False) @ Y
            alpha = math.atan2(rem[2, 1], rem[1, 1]) if abs(rem[0, 0] - 1) < 1e-9 else 0.0
        elif abs(R[2, 0]) < 1e-9:
            theta, a = math.atan2(R[1, 0], R[0, 0]), 0.0
            alpha = math.atan2(R[2, 1], R[2, 2])
        else:
            theta, a, alpha = 0.0, 0.0, 0.0
        last = (_angle(theta), _clean(p[2]), _clean(a), _angle(alpha))
        tool = trinv(dh_transform(*last), check=False) @ Y
        params.append(last)
        tool[np.abs(tool) < 1e-14] = 0.0
        base = base.copy()
        base[np.abs(base) < 1e-14] = 0.0

        self.base = base
        self.tool = tool
        self.sigma = np.array([0 if t.isrotation else 1 for t in joints])
        self.dh = np.array(params, dtype=float).reshape(n, 4)
        self.links = []
        for (theta, d, a, alpha), sg in zip(self.dh, self.sigma):
            if sg == 0:
                self.links.append(Link(0.0, d, a, alpha, sigma=0, offset=theta))
            else:
                self.links.append(Link(theta, 0.0, a, alpha, sigma=1, offset=d))

    @property
    def n(self) -> int:
        """Number of joints."""
        return len(self.links)

    @property
    def structure(self) -> str:
        """Joint types, e.g. ``"RRR"``."""
        return self.ets.structure

    def robot(self, name: str = "", **kwargs: Any) -> DHRobot:
        """A :class:`~rvc.models.DHRobot` with these links, base and tool.

        The notes' ``eval(dh.command('puma'))``.  Extra keywords go to DHRobot.

        >>> DHFactor("Rz(q1) Tx(1)").robot("one").fkine([0])[:3, 3]
        array([1., 0., 0.])
        """
        return DHRobot(self.links, name=name, base=self.base, tool=self.tool, **kwargs)

    def command(self, name: str = "robot") -> str:
        """Python source that builds the robot (the notes' ``dh.command('puma')``).

        >>> print(DHFactor("Rz(q1) Tx(1)").command("arm"))
        DHRobot([
            RevoluteDH(d=0, a=1, alpha=0, offset=0),
        ], name='arm')
        """
        def num(x):                 # 15 significant figures: no round-off tails
            return f"{x:.15g}"

        lines = ["DHRobot(["]
        for L in self.links:
            if L.isrevolute:
                lines.append(f"    RevoluteDH(d={num(L.d)}, a={num(L.a)}, alpha={num(L.alpha)}, "
                             f"offset={num(L.offset)}),")
            else:
                lines.append(f"    PrismaticDH(theta={num(L.theta)}, a={num(L.a)}, "
                             f"alpha={num(L.alpha)}, offset={num(L.offset)}),")
        extra = ""
        if not np.allclose(self.base, np.eye(4)):
            extra += f", base=np.array({np.round(self.base, 15).tolist()!r})"
        if not np.allclose(self.tool, np.eye(4)):
            extra += f", tool=np.array({np.round(self.tool, 15).tolist()!r})"
        lines.append(f"], name={name!r}{extra})")
        return "\n".join(lines).replace("=0.0,", "=0,").replace("=0.0)", "=0)") \
            .replace("=1.0,", "=1,")

    def __str__(self) -> str:
        rows = []
        for j, L in enumerate(self.links):
            q = f"q{j + 1}"
            if L.offset:
                sign = "+" if L.offset > 0 else "-"
                q += (f" {sign} {fmt_deg(abs(L.offset))}" if L.isrevolute
                      else f" {sign} {fmt_num(abs(L.offset))}")
            rows.append([q if L.isrevolute else fmt_deg(L.theta),
                         q if L.isprismatic else fmt_num(L.d), fmt_num(L.a), fmt_deg(L.alpha)])
        out = [f"DHFactor: {self.ets}", box_table(["θⱼ", "dⱼ", "aⱼ", "⍺ⱼ"], rows)]
        if not np.allclose(self.base, np.eye(4), atol=1e-12):
            out.append(f"base: {pose_str(self.base)}")
        if not np.allclose(self.tool, np.eye(4), atol=1e-12):
            out.append(f"tool: {pose_str(self.tool)}")
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"DHFactor({str(self.ets)!r})"
