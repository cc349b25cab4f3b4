"""Planar serial chains as data; their dynamics derived once with sympy.

A chain is a list of rigid links joined by revolute joints that turn about
axes normal to the (x, y) plane.  Joint coordinates are *relative* angles:
the absolute angle of link k, measured counter-clockwise from the +x axis, is

.. math:: \\theta_k = q_1 + q_2 + \\dots + q_k .

Each joint has a *role*: ``"a"`` actuated (a motor, with reflected rotor
inertia), ``"e"`` elastic (a lumped torsional spring-damper, stiffness K and
damping D) or ``"p"`` passive.  Link k has length :math:`l_k`, mass
:math:`m_k`, its centre of mass on the link at distance :math:`c_k` from its
joint and inertia :math:`I_k` about that centre; a point mass :math:`m_t`
may sit at the tip.  Gravity g acts along -y.

The equations of motion are Lagrange's (second kind):

.. math:: \\frac{d}{dt}\\frac{\\partial L}{\\partial \\dot q}
          - \\frac{\\partial L}{\\partial q}
          + \\frac{\\partial R}{\\partial \\dot q} = \\tau, \\qquad
          L = T - V_g - \\tfrac12 q^T K q, \\quad R = \\tfrac12 \\dot q^T D \\dot q,

which for :math:`T = \\frac12 \\dot q^T M(q) \\dot q` take the form

.. math:: M(q)\\ddot q + C(q, \\dot q)\\dot q + \\eta(q) + K q + D\\dot q = \\tau,

with C built from the Christoffel symbols of M, so that
:math:`\\dot M - 2C` is skew-symmetric.  :func:`chain_equations` derives M,
C, :math:`\\eta = \\partial V_g/\\partial q`, K, D, the tip position, its
Jacobian and the Jacobian's time derivative symbolically, with every link
parameter a symbol; they are lambdified once per number of joints and cached,
so changing a mass or a stiffness never derives anything again.

>>> chain = PlanarChain([1.0, 1.0], [1.0, 1.0], roles="ap")
>>> chain.inertia([0.0, 0.0])          # two uniform rods, straight out
array([[2.6667, 0.8333],
       [0.8333, 0.3333]])
>>> chain.fkine([0.0, np.pi / 2])
array([1., 1.])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import sympy as sp

from ..checks import getarray, getphysical, getscalar, getvector
from ..results import Result
from ..shapes import ArrayLike, JointVector

__all__ = ["PlanarChain", "ChainEquations", "chain_equations"]

#: Per-joint parameter names, in the order of the lambdified functions' arguments.
JOINT_PARAMS = ("l", "m", "c", "I", "Jr", "K", "D")
#: Chain-wide parameter names, after the per-joint ones.
CHAIN_PARAMS = ("m_t", "g", "b_x", "b_y")
ROLES = "aep"


@dataclass(frozen=True, repr=False, eq=False)
class ChainEquations(Result):
    """The symbolic model of an n-joint planar chain (see :func:`chain_equations`).

    >>> chain_equations(2).K
    Matrix([
    [K1,  0],
    [ 0, K2]])
    """

    q: tuple
    qd: tuple
    params: tuple
    T: sp.Expr
    V: sp.Expr
    R: sp.Expr
    M: sp.Matrix
    C: sp.Matrix
    eta: sp.Matrix
    K: sp.Matrix
    D: sp.Matrix
    tip: sp.Matrix
    J: sp.Matrix
    Jdot: sp.Matrix


def _cos_sum(q, s, t):
    """cos(theta_s - theta_t) for absolute angles theta_k = q_1 + ... + q_k (0-based s, t)."""
    if s == t:
        return sp.Integer(1)
    lo, hi = min(s, t), max(s, t)
    return sp.cos(sum(q[lo + 1: hi + 1]))


@cache
def chain_equations(n: int) -> ChainEquations:
    """Derive the dynamics of an n-joint planar chain with sympy (Lagrange, second kind).

    The velocity of a point at distance :math:`L_k` along link k is
    :math:`v = \\sum_{s \\le k} L_s \\dot\\theta_s\\, u_s^\\perp` with
    :math:`u_s = (\\cos\\theta_s, \\sin\\theta_s)` and :math:`L_s = l_s`
    for s < k, so the kinetic energy is

    .. math:: T = \\tfrac12 \\sum_k \\Big( m_k \\sum_{s,t \\le k} L_s L_t
              \\dot\\theta_s \\dot\\theta_t \\cos(\\theta_s - \\theta_t)
              + I_k \\dot\\theta_k^2 \\Big) + \\tfrac12 m_t |v_{tip}|^2
              + \\tfrac12 \\sum_k J_{r,k} \\dot q_k^2 ,

    :math:`M = \\partial^2 T / \\partial \\dot q^2`, the Christoffel matrix
    :math:`C_{ij} = \\sum_k \\tfrac12 (\\partial_k M_{ij} + \\partial_j M_{ik}
    - \\partial_i M_{jk}) \\dot q_k`, :math:`\\eta = \\partial V_g / \\partial q`
    with :math:`V_g = g \\sum_k m_k y_k + g\\, m_t y_{tip}`,
    :math:`K = \\partial^2 (\\frac12 \\sum K_k q_k^2) / \\partial q^2` and
    :math:`D = \\partial^2 R / \\partial \\dot q^2`.  Every parameter is a
    symbol; the result is cached per n.

    >>> eq = chain_equations(1)
    >>> eq.M
    Matrix([[I1 + Jr1 + c1**2*m1 + l1**2*m_t]])
    >>> eq.eta
    Matrix([[g*(c1*m1 + l1*m_t)*cos(q1)]])
    """
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n: expected a positive number of joints, got {n!r}")
    n = int(n)
    q = sp.symbols(f"q1:{n + 1}")
    qd = sp.symbols(f"qd1:{n + 1}")
    per = {name: sp.symbols(f"{name}1:{n + 1}", real=True) for name in JOINT_PARAMS}
    m_t, g, b_x, b_y = sp.symbols("m_t g b_x b_y", real=True)
    l, m, c, I, Jr, K, D = (per[name] for name in JOINT_PARAMS)
    params = tuple(s for name in JOINT_PARAMS for s in per[name]) + (m_t, g, b_x, b_y)

    theta = [sum(q[: k + 1]) for k in range(n)]
    theta_d = [sum(qd[: k + 1]) for k in range(n)]

    def speed2(lever):
        """|v|^2 of a point whose lever arms along links 0..k are ``lever``."""
        k = len(lever)
        return sum(lever[s] * lever[t] * theta_d[s] * theta_d[t] * _cos_sum(q, s, t)
                   for s in range(k) for t in range(k))

    T = 0
    for k in range(n):
        T += m[k] * speed2(list(l[:k]) + [c[k]]) + I[k] * theta_d[k] ** 2 + Jr[k] * qd[k] ** 2
    T += m_t * speed2(list(l))
    T = T / 2

    # M = d2T/dqd2, written out: d(theta_d_s)/d(qd_i) = 1 for i <= s, so a point with
    # lever arms L along links 0..k adds m L_s L_t cos(theta_s - theta_t) for s >= i, t >= j.
    def point_mass(mass, lever, i, j):
        k = len(lever)
        return mass * sum(lever[s] * lever[t] * _cos_sum(q, s, t)
                          for s in range(i, k) for t in range(j, k))

    M = sp.zeros(n, n)
    for i in range(n):
        for j in range(i, n):
            e = sum(point_mass(m[k], list(l[:k]) + [c[k]], i, j) + I[k]
                    for k in range(max(i, j), n))
            e += point_mass(m_t, list(l), i, j) + (Jr[i] if i == j else 0)
            M[i, j] = M[j, i] = sp.expand(e)

    C = sp.zeros(n, n)
    dM = [M.diff(qk) for qk in q]
    for i in range(n):
        for j in range(n):
            C[i, j] = sum(sp.Rational(1, 2) * (dM[k][i, j] + dM[j][i, k] - dM[i][j, k]) * qd[k]
                          for k in range(n))

    x = [b_x + sum(l[s] * sp.cos(theta[s]) for s in range(k)) for k in range(n + 1)]
    y = [b_y + sum(l[s] * sp.sin(theta[s]) for s in range(k)) for k in range(n + 1)]
    y_com = [y[k] + c[k] * sp.sin(theta[k]) for k in range(n)]
    V = g * (sum(m[k] * y_com[k] for k in range(n)) + m_t * y[n])
    eta = sp.Matrix([sp.factor_terms(sp.diff(V, qk)) for qk in q])
    Vk = sum(K[k] * q[k] ** 2 for k in range(n)) / 2
    R = sum(D[k] * qd[k] ** 2 for k in range(n)) / 2
    Kmat = sp.hessian(Vk, q)
    Dmat = sp.hessian(R, qd)

    tip = sp.Matrix([x[n], y[n]])
    J = tip.jacobian(q)
    Jdot = sum((J.diff(qk) * qdk for qk, qdk in zip(q, qd)), sp.zeros(2, n))
    return ChainEquations(q, qd, params, T, V + Vk, R, M, C, eta, Kmat, Dmat, tip, J, Jdot)


def _lambdify(args, blocks, nstate):
    """One function evaluating several sympy matrices, broadcasting over batches.

    ``blocks`` is a list of sympy matrices, or of ``(vector, "v")`` pairs for
    column vectors; the function returns a list of arrays of shapes
    (..., rows, cols), or (..., rows) for the vectors.  The first ``nstate``
    arguments may be arrays (a batch); the others are scalars.  When the
    state arguments are all Python floats (one configuration) the
    expressions run with the ``math`` module, several times faster than
    numpy's functions on scalars; otherwise with numpy.
    """
    shapes = [(b[0].rows,) if isinstance(b, tuple) else (b.rows, b.cols) for b in blocks]
    blocks = [b[0] if isinstance(b, tuple) else b for b in blocks]
    flat = [e for b in blocks for e in b]
    f = sp.lambdify(args, flat, modules="numpy", cse=True)
    f_one = sp.lambdify(args, flat, modules="math", cse=True)
    sizes = [int(np.prod(s)) for s in shapes]

    def call(*values):
        if all(type(v) is float for v in values[:nstate]):
            batch, arr = (), np.array(f_one(*values), dtype=float)
        else:
            out = f(*values)
            batch = np.broadcast_shapes(*(np.shape(v) for v in values[:nstate]))
            if batch == ():
                arr = np.array(out, dtype=float)
            else:
                arr = np.stack([np.broadcast_to(np.asarray(o, dtype=float), batch) for o in out],
                               -1)
        res, start = [], 0
        for shape, size in zip(shapes, sizes):
            res.append(arr[..., start:start + size].reshape(batch + shape))
            start += size
        return res

    return call


@cache
def _functions(n: int) -> dict:
    """The lambdified functions of an n-joint chain (cached: derived once per n)."""
    eq = chain_equations(n)
    qq = list(eq.q) + list(eq.qd) + list(eq.params)
    q_only = list(eq.q) + list(eq.params)
    Cqd = eq.C * sp.Matrix(eq.qd)
    Jdqd = eq.Jdot * sp.Matrix(eq.qd)
    return {
        "M": _lambdify(q_only, [eq.M], n),
        "C": _lambdify(qq, [eq.C], 2 * n),
        "eta": _lambdify(q_only, [(eq.eta, "v")], n),
        "tip": _lambdify(q_only, [(eq.tip, "v"), eq.J], n),
        "Jdot": _lambdify(qq, [eq.Jdot], 2 * n),
        # everything forward dynamics needs, in one call
        "dyn": _lambdify(qq, [eq.M, (Cqd + eq.eta, "v"), (eq.tip, "v"), eq.J, (Jdqd, "v")], 2 * n),
        "energy": _lambdify(qq, [(sp.Matrix([eq.T, eq.V]), "v")], 2 * n),
    }


def _positive(value, name, n, *, strict=False, default=None):
    """A per-joint vector (a scalar is repeated) of non-negative (or positive) numbers."""
    if value is None:
        value = default
    if n is None:
        value = getvector(value, name)
        n = value.size
    return getphysical(value, name, positive=strict, nonnegative=not strict, n=n)


class PlanarChain:
    """A planar serial chain of revolute joints, described by data.

    Parameters
    ----------
    lengths : array_like (n,)
        Link lengths (m), positive.
    masses : array_like (n,)
        Link masses (kg), non-negative.
    com : array_like (n,), optional
        Distance of each link's centre of mass from its joint (m); default
        the middle of the link.
    inertia : array_like (n,), optional
        Each link's inertia about its centre of mass (kg m^2); default a
        uniform rod, :math:`m l^2 / 12`.
    roles : str, optional
        One letter per joint: ``a`` actuated, ``e`` elastic, ``p`` passive
        (default all actuated).
    base : array_like (2,), optional
        Position of the first joint (m).
    stiffness, damping : float or array_like (n,), optional
        Lumped joint stiffness (N m/rad) and damping (N m s/rad); a scalar
        applies to every elastic joint, other joints get 0.
    rotor : float or array_like (n,), optional
        Reflected rotor inertia (kg m^2); a scalar applies to every actuated
        joint.
    tip_mass : float, optional
        A point mass at the tip (kg).
    g : float, optional
        Gravitational acceleration along -y (m/s^2).

    The dynamics come from :func:`chain_equations` (derived once per n):

    .. math:: M(q)\\ddot q + C(q,\\dot q)\\dot q + \\eta(q) + K q + D \\dot q = \\tau .

    >>> chain = PlanarChain([0.5, 0.5], [1.0, 1.0], roles="ae", stiffness=100.0)
    >>> chain.K
    array([[  0.,   0.],
           [  0., 100.]])
    >>> chain.gravload([0.0, 0.0])      # holding both links horizontal
    array([9.81  , 2.4525])
    """

    def __init__(self, lengths: ArrayLike, masses: ArrayLike, *, com: ArrayLike | None = None,
                 inertia: ArrayLike | None = None, roles: Sequence[str] | None = None, base: ArrayLike = (0.0, 0.0),
                 stiffness: ArrayLike = 0.0, damping: ArrayLike = 0.0, rotor: ArrayLike = 0.0,
                 tip_mass: float = 0.0, g: float = 9.81) -> None:
        self.lengths = _positive(lengths, "lengths", None, strict=True)
        n = self.n = len(self.lengths)
        self.masses = _positive(masses, "masses", n)
        self.com = getvector(self.lengths / 2 if com is None else com, "com", n)
        self.inertia_cm = _positive(inertia, "inertia", n,
                                    default=self.masses * self.lengths ** 2 / 12)
        roles = "a" * n if roles is None else roles
        if not isinstance(roles, str) or len(roles) != n or set(roles) - set(ROLES):
            raise ValueError(f"roles: expected a string of {n} letters from 'a', 'e', 'p', "
                             f"got {roles!r}")
        self.roles = roles
        self.base = getvector(base, "base", 2)

        def per_role(value, name, role):
            a = getarray(value, name)
            if a.ndim == 0:
                a = np.where(np.array(list(roles)) == role, float(a), 0.0)
            return _positive(a, name, n)

        self.stiffness = per_role(stiffness, "stiffness", "e")
        self.damping = per_role(damping, "damping", "e")
        self.rotor = per_role(rotor, "rotor", "a")
        self.tip_mass = getphysical(tip_mass, "tip_mass", "mass", nonnegative=True)
        self.g = getscalar(g, "g")
        self.params = tuple(float(v) for v in np.concatenate([
            self.lengths, self.masses, self.com, self.inertia_cm, self.rotor,
            self.stiffness, self.damping, [self.tip_mass, self.g, *self.base]]))

    @property
    def _f(self):
        """The lambdified dynamics (derived with sympy on first use, then cached per n)."""
        return _functions(self.n)

    def __repr__(self) -> str:
        return (f"PlanarChain(n={self.n}, roles={self.roles!r}, lengths={self.lengths.tolist()}, "
                f"base={self.base.tolist()})")

    # -- helpers -----------------------------------------------------------
    def _q(self, q, name="q"):
        return getarray(q, name, shape=(self.n,))

    def _args(self, *arrays):
        """The lambdified functions' arguments: the arrays' columns, then the parameters.

        A single configuration (1-D arrays) goes as Python floats (the fast path)."""
        cols = [x for a in arrays
                for x in (a.tolist() if a.ndim == 1 else [a[..., k] for k in range(self.n)])]
        return (*cols, *self.params)

    # -- dynamics ----------------------------------------------------------
    @property
    def K(self) -> np.ndarray:
        """Joint stiffness matrix, diagonal (n, n).

        >>> PlanarChain([1.0], [1.0], roles="e", stiffness=5.0).K
        array([[5.]])
        """
        return np.diag(self.stiffness)

    @property
    def D(self) -> np.ndarray:
        """Joint damping matrix, diagonal (n, n).

        >>> PlanarChain([1.0], [1.0], roles="e", damping=0.5).D
        array([[0.5]])
        """
        return np.diag(self.damping)

    def inertia(self, q: JointVector) -> np.ndarray:
        """Joint-space inertia matrix M(q), (..., n, n), symmetric positive definite.

        >>> PlanarChain([1.0], [3.0]).inertia([0.7])     # rod about its end: m l^2 / 3
        array([[1.]])
        """
        return self._f["M"](*self._args(self._q(q)))[0]

    def coriolis(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Coriolis matrix C(q, qd) (..., n, n) from the Christoffel symbols of M.

        .. math:: C_{ij} = \\sum_k \\tfrac12 \\left(\\frac{\\partial M_{ij}}{\\partial q_k}
                  + \\frac{\\partial M_{ik}}{\\partial q_j}
                  - \\frac{\\partial M_{jk}}{\\partial q_i}\\right) \\dot q_k

        >>> chain = PlanarChain([1.0, 1.0], [1.0, 1.0])
        >>> chain.coriolis([0.0, np.pi / 2], [1.0, 0.0]) + 0.0   # elbow at 90 deg
        array([[ 0. , -0.5],
               [ 0.5,  0. ]])
        """
        q, qd = self._q(q), self._q(qd, "qd")
        return self._f["C"](*self._args(q, qd))[0]

    def gravload(self, q: JointVector) -> np.ndarray:
        """Gravity torques :math:`\\eta(q) = \\partial V_g/\\partial q` (..., n).

        >>> PlanarChain([1.0], [2.0]).gravload([0.0])     # m g l / 2
        array([9.81])
        """
        return self._f["eta"](*self._args(self._q(q)))[0]

    def rne(self, q: JointVector, qd: JointVector, qdd: JointVector) -> np.ndarray:
        """Inverse dynamics of the open chain: :math:`\\tau = M\\ddot q + C\\dot q + \\eta + Kq + D\\dot q`.

        >>> chain = PlanarChain([1.0], [3.0], g=0.0)
        >>> chain.rne([0.3], [0.0], [2.0])                # (m l^2 / 3) qdd
        array([2.])
        """
        q, qd, qdd = self._q(q), self._q(qd, "qd"), self._q(qdd, "qdd")
        M, bias, *_ = self._f["dyn"](*self._args(q, qd))
        return (np.einsum("...ij,...j->...i", M, qdd) + bias
                + q * self.stiffness + qd * self.damping)

    def accel(self, q: JointVector, qd: JointVector, tau: JointVector) -> np.ndarray:
        """Forward dynamics of the open chain: :math:`\\ddot q = M^{-1}(\\tau - C\\dot q - \\eta - Kq - D\\dot q)`.

        >>> chain = PlanarChain([1.0], [3.0], g=0.0)
        >>> chain.accel([0.3], [0.0], [2.0])
        array([2.])
        """
        q, qd, tau = self._q(q), self._q(qd, "qd"), self._q(tau, "tau")
        M, bias, *_ = self._f["dyn"](*self._args(q, qd))
        rhs = tau - bias - q * self.stiffness - qd * self.damping
        return np.linalg.solve(M, rhs[..., None])[..., 0]

    def energy(self, q: JointVector, qd: JointVector) -> tuple:
        """Kinetic and potential energy (T, V), each (...); V includes gravity and springs.

        .. math:: T = \\tfrac12 \\dot q^T M \\dot q, \\qquad
                  V = V_g + \\tfrac12 q^T K q

        >>> T, V = PlanarChain([1.0], [3.0]).energy([0.0], [2.0])
        >>> float(T), float(V)                 # (1/2)(m l^2/3) qd^2; the rod is horizontal
        (2.0, 0.0)
        """
        q, qd = self._q(q), self._q(qd, "qd")
        TV = self._f["energy"](*self._args(q, qd))[0]
        return TV[..., 0], TV[..., 1]

    # -- kinematics --------------------------------------------------------
    def fkine(self, q: JointVector) -> np.ndarray:
        """Tip position (..., 2): :math:`b + \\sum_k l_k (\\cos\\theta_k, \\sin\\theta_k)`.

        >>> PlanarChain([1.0, 1.0], [1.0, 1.0], base=(1, 0)).fkine([np.pi / 2, -np.pi / 2])
        array([2., 1.])
        """
        return self.points(q)[..., -1, :]

    def points(self, q: JointVector) -> np.ndarray:
        """Positions of the base, every joint and the tip, (..., n + 1, 2).

        >>> PlanarChain([1.0, 1.0], [1.0, 1.0]).points([0.0, np.pi / 2])
        array([[0., 0.],
               [1., 0.],
               [1., 1.]])
        """
        q = self._q(q)
        theta = np.cumsum(q, axis=-1)
        steps = self.lengths[:, None] * np.stack([np.cos(theta), np.sin(theta)], axis=-1)
        pts = np.cumsum(steps, axis=-2) + self.base
        base = np.broadcast_to(self.base, pts.shape[:-2] + (1, 2))
        return np.concatenate([base, pts], axis=-2)

    def jacob0(self, q: JointVector) -> np.ndarray:
        """Tip Jacobian (..., 2, n): column j is :math:`\\hat z \\times (p_{tip} - p_j)`.

        >>> PlanarChain([1.0, 1.0], [1.0, 1.0]).jacob0([0.0, np.pi / 2])
        array([[-1., -1.],
               [ 1.,  0.]])
        """
        return self._jacob0(self._q(q))

    def jacob_dot(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Time derivative of the tip Jacobian, :math:`\\dot J = \\sum_k \\partial J/\\partial q_k\\, \\dot q_k`.

        >>> PlanarChain([1.0], [1.0]).jacob_dot([0.0], [2.0]) + 0.0   # -l qd (cos, sin)
        array([[-2.],
               [ 0.]])
        """
        q, qd = self._q(q), self._q(qd, "qd")
        return self._f["Jdot"](*self._args(q, qd))[0]

    def _jacob0(self, q):
        """:meth:`jacob0` without the argument check (the simulation's inner loop)."""
        return self._f["tip"](*self._args(q))[1]

    def _terms(self, q, qd):
        """(M, C qd + eta + K q + D qd, tip, J, Jdot qd): what forward dynamics needs."""
        M, bias, tip, J, Jdqd = self._f["dyn"](*self._args(q, qd))
        return M, bias + q * self.stiffness + qd * self.damping, tip, J, Jdqd
