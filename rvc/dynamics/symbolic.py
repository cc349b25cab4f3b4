r"""Symbolic dynamics by Lagrange's equations, with sympy (Chapter 9.1.3).

The notes derive the two-link arm's joint torques symbolically
(``mdl_twolink_sym``; ``tau = twolink.rne([q1 q2], [q1d q2d], [q1dd q2dd])``).
rvc derives them the other classical way, from energy, so that a test can
prove the two methods agree: with link j's centre of mass :math:`c_j(q)`,
rotation :math:`R_j(q)`, angular velocity :math:`\omega_j` from
:math:`[\omega_j]_\times = \dot R_j R_j^T`, the kinetic energy

.. math:: T = \sum_j \tfrac12 m_j |\dot c_j|^2 + \tfrac12 \omega_j^T R_j I_j R_j^T \omega_j
          + \tfrac12 G_j^2 J_{m,j} \dot q_j^2 = \tfrac12 \dot q^T M(q) \dot q,

the potential energy :math:`V = -\sum_j m_j g^T c_j`, and Lagrange's
equations give

.. math:: \tau = M(q)\ddot q + C(q, \dot q)\dot q + g(q), \qquad
          C_{ij} = \sum_k \tfrac12\left(\frac{\partial M_{ij}}{\partial q_k}
          + \frac{\partial M_{ik}}{\partial q_j} - \frac{\partial M_{jk}}{\partial q_i}\right)\dot q_k,
          \qquad g = \frac{\partial V}{\partial q}.

>>> sd = twolink_sym()
>>> sd.g[1]
g*m2*(a2 + c2)*cos(q1 + q2)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..results import Result
from ..shapes import SE3
from .params import DynamicChain

__all__ = ["SymDynamics", "lagrange_sym", "twolink_sym"]


@dataclass(frozen=True, repr=False, eq=False)
class SymDynamics(Result):
    """Symbolic equations of motion: ``M``, ``C``, ``g`` (sympy matrices) in ``q, qd, qdd``.

    ``q``, ``qd``, ``qdd`` are tuples of the joint symbols (``q1``, ``q1d``,
    ``q1dd``, ... as the notes name them); ``params`` the other symbols by
    name.  ``tau`` is :math:`M\\ddot q + C\\dot q + g`.  Unpacks as ``M, C, g``.
    """

    unpack = ("M", "C", "g")

    M: object
    C: object
    g: object
    q: tuple
    qd: tuple
    qdd: tuple
    params: dict = field(default_factory=dict)

    @property
    def tau(self) -> sp.Matrix:
        """The joint torques :math:`M\\ddot q + C\\dot q + g` (n x 1 sympy matrix)."""
        return self.M * sp.Matrix(self.qdd) + self.C * sp.Matrix(self.qd) + self.g


def _link_dicts(robot):
    keys = ("theta", "d", "a", "alpha", "offset", "sigma", "mdh", "m", "r", "I", "Jm", "G")
    return [{k: getattr(L, k) for k in keys} for L in robot.links]


def _A(sp, L, q):
    """Symbolic DH link transform."""
    th = q + L.get("offset", 0) if L.get("sigma", 0) == 0 else L.get("theta", 0)
    d = L.get("d", 0) if L.get("sigma", 0) == 0 else q + L.get("offset", 0)
    a, al = L.get("a", 0), L.get("alpha", 0)
    Rz = sp.Matrix([[sp.cos(th), -sp.sin(th), 0, 0], [sp.sin(th), sp.cos(th), 0, 0],
                    [0, 0, 1, 0], [0, 0, 0, 1]])
    Tz = sp.Matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, d], [0, 0, 0, 1]])
    Tx = sp.Matrix([[1, 0, 0, a], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    Rx = sp.Matrix([[1, 0, 0, 0], [0, sp.cos(al), -sp.sin(al), 0],
                    [0, sp.sin(al), sp.cos(al), 0], [0, 0, 0, 1]])
    return Rx * Tx * Rz * Tz if L.get("mdh", False) else Rz * Tz * Tx * Rx


def lagrange_sym(robot: DynamicChain | Sequence[dict[str, Any]], gravity: Sequence[Any] | None = None,
                 base: SE3 | sp.Matrix | None = None, *, simplify: bool = True) -> SymDynamics:
    """M, C and g of a DH chain by Lagrange's equations (module docstring), with sympy.

    ``robot`` is an rvc robot (its links, ``gravity`` and ``base`` are read
    as data, numbers become exact sympy numbers where they are simple) or a
    list of dicts with the link keys ``theta d a alpha offset sigma mdh m r
    I Jm G`` whose values may be sympy expressions; then ``gravity`` (the
    world-frame acceleration of free fall, a 3-sequence) and ``base`` (4x4)
    are given here.  Motor inertia ``G^2 Jm`` is included, friction is not.
    Keep it to a few joints: the expressions grow quickly.

    >>> sd = lagrange_sym(rvc.models.twolink(), simplify=False)
    >>> sd.M.shape, sd.q
    ((2, 2), (q1, q2))
    """
    if hasattr(robot, "links"):
        links = _link_dicts(robot)
        gravity = robot.gravity if gravity is None else gravity
        base = robot.base if base is None else base
    else:
        links = [dict(L) for L in robot]
    if gravity is None:
        raise ValueError("gravity: expected a 3-vector for a list of links, got None")
    n = len(links)
    q = sp.symbols(" ".join(f"q{j + 1}" for j in range(n)), real=True, seq=True)
    qd = sp.symbols(" ".join(f"q{j + 1}d" for j in range(n)), real=True, seq=True)
    qdd = sp.symbols(" ".join(f"q{j + 1}dd" for j in range(n)), real=True, seq=True)
    def S(x):
        """Exact for integers and multiples of pi/2 (so cos(alpha) cancels), else a Float."""
        if isinstance(x, sp.Basic):
            return x
        x = float(x)
        k = round(2 * x / np.pi)
        if abs(2 * x / np.pi - k) < 1e-12:
            return k * sp.pi / 2
        return sp.Integer(round(x)) if x == round(x) else sp.Float(x)

    T = sp.eye(4) if base is None else sp.Matrix(4, 4, lambda i, k: S(base[i][k]))
    gvec = sp.Matrix([S(x) for x in gravity])
    qdv = sp.Matrix(qd)
    M = sp.zeros(n, n)
    V = sp.Integer(0)
    for j, L in enumerate(links):
        T = T * _A(sp, L, q[j])
        if simplify:
            T = T.applyfunc(sp.trigsimp)
        R = T[:3, :3]
        r = sp.Matrix([S(x) for x in L.get("r", (0, 0, 0))])
        Ilink = sp.Matrix(3, 3, lambda i, k: S(sp.Matrix(L.get("I", sp.zeros(3, 3)))[i, k]))
        m = S(L.get("m", 0))
        c = R * r + T[:3, 3]
        Jv = c.jacobian(q)                                     # dc/dt = Jv qd
        Rdot = sum((R.diff(q[i]) * qd[i] for i in range(n)), sp.zeros(3, 3))
        W = Rdot * R.T                                         # [w]x
        w = sp.Matrix([W[2, 1], W[0, 2], W[1, 0]])
        Jw = w.jacobian(qd)                                    # w = Jw qd
        M += m * Jv.T * Jv + Jw.T * (R * Ilink * R.T) * Jw
        M[j, j] += S(L.get("G", 1)) ** 2 * S(L.get("Jm", 0))
        V += -m * (gvec.T * c)[0, 0]
    if simplify:
        M = M.applyfunc(lambda e: sp.factor_terms(sp.trigsimp(sp.expand(e))))
    C = sp.zeros(n, n)
    for i in range(n):
        for jj in range(n):
            C[i, jj] = sum(sp.Rational(1, 2) * (M[i, jj].diff(q[k]) + M[i, k].diff(q[jj])
                                                 - M[jj, k].diff(q[i])) * qdv[k] for k in range(n))
    g = sp.Matrix([V.diff(q[i]) for i in range(n)])
    if simplify:
        C = C.applyfunc(lambda e: sp.factor_terms(sp.expand(e)))
        g = g.applyfunc(lambda e: sp.factor_terms(sp.expand(e)))
    return SymDynamics(M, C, g, tuple(q), tuple(qd), tuple(qdd))


def twolink_sym() -> SymDynamics:
    """The notes' ``mdl_twolink_sym``: the two-link arm in a vertical plane, symbolically.

    Links ``a1``, ``a2`` long with masses ``m1``, ``m2`` at ``c1``, ``c2``
    along each link frame's x axis (so ``c = -a/2`` is mid-link), no link
    or motor inertia, no friction, gear ratio 1; ``base = Rx(pi/2)`` so the
    arm moves in the world x-z plane, and gravity ``g`` acts along -z.
    Source: the MATLAB toolbox's ``mdl_twolink_sym.m`` (Spong and
    Vidyasagar, Fig. 3-6), whose ``gravity = [0; 0; g]`` is MATLAB's upward
    base acceleration, i.e. free fall along -z.  ``params`` holds the
    symbols ``a1 a2 m1 m2 c1 c2 g``.

    >>> sd = twolink_sym()
    >>> sd.M[1, 1]
    m2*(a2 + c2)**2
    """
    sd = _twolink_sym()              # derived once (seconds of algebra); the caller gets copies
    return SymDynamics(sd.M.copy(), sd.C.copy(), sd.g.copy(), sd.q, sd.qd, sd.qdd, dict(sd.params))


@functools.cache
def _twolink_sym() -> SymDynamics:
    a1, a2, m1, m2, c1, c2, g = sp.symbols("a1 a2 m1 m2 c1 c2 g", real=True)
    links = [dict(a=a1, m=m1, r=(c1, 0, 0)), dict(a=a2, m=m2, r=(c2, 0, 0))]
    base = sp.Matrix([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])   # Rx(pi/2)
    sd = lagrange_sym(links, gravity=(0, 0, -g), base=base.tolist())
    params = {s.name: s for s in (a1, a2, m1, m2, c1, c2, g)}
    return SymDynamics(sd.M, sd.C, sd.g, sd.q, sd.qd, sd.qdd, params)
