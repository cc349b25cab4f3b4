"""Closed chains: serial chains whose tips meet at one point, cut into a tree.

The method of the chapter (a reconstruction from Nakamura & Ghodoussi 1989,
Featherstone 2008 ch. 8 and Lynch & Park 2017 sec. 8.7).  A parallel
mechanism is cut at the end-effector into a *tree* of m serial chains
(:class:`~rvc.parallel.planar_chain.PlanarChain`).  Tree coordinates
:math:`q_t` are all joint angles, chain after chain; they split into the
non-redundant (*compact*) coordinates :math:`q_c` -- actuated (``a``) and
elastic (``e``) joints, in tree order -- and the passive (``p``) ones.
Cutting the loops loses the conditions that the chains' tips coincide,

.. math:: h(q_t) = \\begin{pmatrix} p_1(q_1) - p_2(q_2) \\\\ \\vdots \\\\
          p_1(q_1) - p_m(q_m) \\end{pmatrix} = 0, \\qquad
          A = \\frac{\\partial h}{\\partial q_t} = [A_c\\; A_p],

so :math:`\\dot q_t = W \\dot q_c` with
:math:`W = \\begin{pmatrix} I \\\\ -A_p^{-1} A_c \\end{pmatrix}` (rows in tree
order) and :math:`A W = 0`.  The tree's equations of motion (block-diagonal,
one block per chain)

.. math:: M_t \\ddot q_t + C_t \\dot q_t + \\eta_t + K_t q_t + D_t \\dot q_t = \\tau_t + A^T \\lambda

are closed by the multipliers :math:`\\lambda` (Lagrange's equations of the
first kind, the cut force at the tip of chain 1) or projected with
:math:`W^T` (Lagrange-D'Alembert), which removes :math:`A^T\\lambda` and gives
the compact model

.. math:: M_c = W^T M_t W,\\; C_c = W^T C_t W + W^T M_t \\dot W,\\;
          \\eta_c = W^T \\eta_t,\\; K_c = W^T K_t W,\\; D_c = W^T D_t W .

>>> from rvc.parallel import FiveBar
>>> robot = FiveBar()
>>> q = robot.assemble(robot.ikine_rigid([0.0, 0.40]), [0.0, 0.0])
>>> float(np.abs(robot.A(q) @ robot.W(q)).max()) < 1e-12
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..checks import getarray, getoption, warn_singular
from ..results import Result
from ..shapes import ArrayLike, JointVector, Vector2
from .planar_chain import PlanarChain

__all__ = ["ClosedChain", "CompactModel", "operation_counts", "singular_solve"]

#: Loop-closure tolerance (m, relative to the chains' reach) for a configuration to be accepted.
CLOSURE_TOL = 1e-6

INVERSE_METHODS = ("lagrange", "lda", "compact")
FORWARD_METHODS = ("compact", "kkt", "scdd")


@dataclass(frozen=True, repr=False, eq=False)
class CompactModel(Result):
    """The compact model :math:`M_c \\ddot q_c + C_c \\dot q_c + \\eta_c + K_c q_c + D_c \\dot q_c = \\tau_c`.

    >>> from rvc.parallel import FiveBar
    >>> FiveBar().compact(FiveBar().q_home, np.zeros(4)).M.shape
    (4, 4)
    """

    M: np.ndarray
    C: np.ndarray
    eta: np.ndarray
    K: np.ndarray
    D: np.ndarray


#: Below this ratio |det X| / (|X|_F / sqrt(n))^n (1 for an orthogonal X, 0 for a singular
#: one) a square matrix counts as singular.
SINGULAR_TOL = 1e-10


def singular_solve(X: np.ndarray, B: np.ndarray, what: str,
                   lost: str = "its component along the singular direction is not determined") -> np.ndarray:
    """:math:`X^{-1} B`, or the least-squares (minimum-norm) solution with a warning where X is singular.

    X counts as singular where :math:`|\\det X| / (\\|X\\|_F / \\sqrt n)^n` < ``SINGULAR_TOL``.
    The warning names the matrix, says what is ``lost`` at the singularity (what X no longer
    determines) and that the minimum-norm least-squares solution ``pinv(X) B`` is returned.

    >>> singular_solve(np.diag([2.0, 4.0]), np.array([2.0, 2.0]), "X")
    array([1. , 0.5])
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     x = singular_solve(np.diag([2.0, 0.0]), np.array([2.0, 2.0]), "X")
    >>> x, w[0].category.__name__
    (array([1., 0.]), 'SingularityWarning')
    """
    n = X.shape[-1]
    if X.ndim == 2:
        # one matrix (a simulation's inner loop): the same test in floats, without batch arrays
        scale = (math.sqrt(float(np.vdot(X, X))) / math.sqrt(n)) ** n
        if abs(float(np.linalg.det(X))) / (scale if scale > 0 else 1.0) >= SINGULAR_TOL:
            return np.linalg.solve(X, B)
    else:
        scale = (np.linalg.norm(X, axis=(-2, -1)) / np.sqrt(n)) ** n
        bad = np.abs(np.linalg.det(X)) / np.where(scale > 0, scale, 1.0) < SINGULAR_TOL
        if not np.any(bad):
            return np.linalg.solve(X, B)
    warn_singular(f"{what} is singular here (a type-II singularity): {lost}; the minimum-norm "
                  "least-squares solution is returned")
    return np.linalg.pinv(X) @ B


def _mv(M, v):
    """M v for stacks of matrices and vectors."""
    return (M @ v[..., None])[..., 0]


def _mtv(M, v):
    return np.einsum("...ji,...j->...i", M, v)


class ClosedChain:
    """Planar serial chains whose tips are joined at one point (the cut).

    Parameters
    ----------
    chains : sequence of PlanarChain
        m >= 2 chains; together they must have 2(m - 1) passive joints
        (one closure condition per coordinate of each cut).

    Tree coordinates are the chains' joint angles one chain after another;
    compact coordinates the actuated and elastic ones, in the same order.

    >>> from rvc.parallel import PlanarChain
    >>> left = PlanarChain([0.3, 0.4], [0.2, 0.2], roles="ap", base=(-0.1, 0))
    >>> right = PlanarChain([0.3, 0.4], [0.2, 0.2], roles="ap", base=(0.1, 0))
    >>> loop = ClosedChain([left, right])
    >>> loop.roles, loop.n_compact
    ('apap', 2)
    """

    def __init__(self, chains: Sequence[PlanarChain]) -> None:
        chains = tuple(chains)
        if len(chains) < 2 or not all(isinstance(c, PlanarChain) for c in chains):
            raise ValueError(f"chains: expected two or more PlanarChain objects, got {chains!r}")
        self.chains = chains
        self.m = len(chains)
        sizes = [c.n for c in chains]
        starts = np.cumsum([0] + sizes)
        self.slices = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
        self.N = int(starts[-1])
        self.roles = "".join(c.roles for c in chains)
        r = np.array(list(self.roles))
        self.ia = np.flatnonzero(r == "a")
        self.ie = np.flatnonzero(r == "e")
        self.ip = np.flatnonzero(r == "p")
        self.ic = np.flatnonzero(r != "p")
        self.n_con = 2 * (self.m - 1)
        if len(self.ip) != self.n_con:
            raise ValueError(
                f"chains: expected {self.n_con} passive joints in all to close {self.m - 1} "
                f"loop(s), got {len(self.ip)} (roles {self.roles!r})")
        self.n_compact = len(self.ic)
        rc = r[self.ic]
        self.ca = np.flatnonzero(rc == "a")   # positions of the actuated joints in q_c
        self.ce = np.flatnonzero(rc == "e")   # positions of the elastic joints in q_c
        # W's compact rows (the identity); its passive rows come from the loop
        self._W_compact = np.zeros((self.N, self.n_compact))
        self._W_compact[self.ic, np.arange(self.n_compact)] = 1.0
        self.K_t = np.diag(np.concatenate([c.stiffness for c in chains]))
        self.D_t = np.diag(np.concatenate([c.damping for c in chains]))
        self.reach = float(max(c.lengths.sum() for c in chains))

    # ------------------------------------------------------------------ input
    def _getq(self, q):
        q = getarray(q, "q", shape=(self.N,))
        res = np.abs(self.h(q)).max(initial=0.0)
        if res > CLOSURE_TOL * self.reach:
            raise ValueError(f"q: expected tree coordinates ({self.N},) that close the loop, "
                             f"h(q) = 0, got a residual of {res:.3g} m")
        return q

    def _rates(self, q, value, name, lower=None):
        """Tree rates from compact (..., n_c) or tree (..., N) rates.

        Tree rates must satisfy the constraint (``A v + lower = 0``)."""
        v = getarray(value, name)
        if v.ndim >= 1 and v.shape[-1] == self.n_compact and self.n_compact != self.N:
            return v, None
        if v.ndim >= 1 and v.shape[-1] == self.N:
            A = self.A(q)
            res = _mv(A, v) + (0 if lower is None else lower)
            scale = self.reach * (1 + np.abs(v).max(initial=0.0))
            if np.abs(res).max(initial=0.0) > CLOSURE_TOL * scale:
                raise ValueError(
                    f"{name}: expected tree rates ({self.N},) consistent with the loop "
                    f"constraint or compact rates ({self.n_compact},), got a constraint residual "
                    f"of {np.abs(res).max():.3g}")
            return v[..., self.ic], v
        raise ValueError(f"{name}: expected compact rates (..., {self.n_compact}) or tree rates "
                         f"(..., {self.N}), got shape {v.shape}")

    # ------------------------------------------------------------- kinematics
    def points(self, q: JointVector) -> list:
        """Joint positions of every chain: a list of (..., n_i + 1, 2) arrays (base to tip).

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> [p.shape for p in robot.points(robot.q_home)]
        [(4, 2), (4, 2)]
        """
        q = getarray(q, "q", shape=(self.N,))
        return [c.points(q[..., s]) for c, s in zip(self.chains, self.slices)]

    def tips(self, q: JointVector) -> np.ndarray:
        """Tip positions of the chains, (..., m, 2).

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.tips(robot.q_home).round(4) + 0.0
        array([[0. , 0.4],
               [0. , 0.4]])
        """
        q = getarray(q, "q", shape=(self.N,))
        return np.stack([c.fkine(q[..., s]) for c, s in zip(self.chains, self.slices)], -2)

    def fkine(self, q: JointVector) -> Vector2:
        """End-effector position (..., 2): the tip of chain 1.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.fkine(robot.q_home).round(4) + 0.0
        array([0. , 0.4])
        """
        q = getarray(q, "q", shape=(self.N,))
        return self.chains[0].fkine(q[..., self.slices[0]])

    def h(self, q: JointVector) -> np.ndarray:
        """Loop closure :math:`h(q) = (p_1 - p_2, \\dots, p_1 - p_m)`, (..., 2(m-1)); zero when closed.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> float(np.abs(robot.h(robot.q_home)).max()) < 1e-12
        True
        """
        P = self.tips(q)
        return (P[..., :1, :] - P[..., 1:, :]).reshape(P.shape[:-2] + (self.n_con,))

    def _assemble_A(self, Js):
        batch = Js[0].shape[:-2]
        A = np.zeros(batch + (self.n_con, self.N))
        for i in range(1, self.m):
            rows = slice(2 * (i - 1), 2 * i)
            A[..., rows, self.slices[0]] = Js[0]
            A[..., rows, self.slices[i]] = -Js[i]
        return A

    def _stack_vec(self, vs):
        return np.concatenate([vs[0] - vs[i] for i in range(1, self.m)], axis=-1)

    def A(self, q: JointVector) -> np.ndarray:
        """Constraint Jacobian :math:`A = \\partial h / \\partial q_t`, (..., 2(m-1), N).

        Block row i holds :math:`J_1` in chain 1's columns and :math:`-J_{i+1}`
        in chain i+1's, the chains' tip Jacobians.

        >>> from rvc.parallel import FiveBar
        >>> FiveBar().A(FiveBar().q_home).shape
        (2, 6)
        """
        q = getarray(q, "q", shape=(self.N,))
        return self._assemble_A([c.jacob0(q[..., s]) for c, s in zip(self.chains, self.slices)])

    def Adot(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Time derivative of the constraint Jacobian, (..., 2(m-1), N); ``qd`` tree rates.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.Adot(robot.q_home, np.zeros(6)).any()
        np.False_
        """
        q = getarray(q, "q", shape=(self.N,))
        qd = getarray(qd, "qd", shape=(self.N,))
        return self._assemble_A([c.jacob_dot(q[..., s], qd[..., s])
                                 for c, s in zip(self.chains, self.slices)])

    def _W_from_A(self, A):
        W = np.array(np.broadcast_to(self._W_compact, A.shape[:-2] + self._W_compact.shape))
        W[..., self.ip, :] = -singular_solve(A[..., :, self.ip], A[..., :, self.ic], "A_p",
                                     "the passive rates along the loop's free motion are not determined "
                                     "by the compact rates (W gives the passive rates of least norm)")
        return W

    def W(self, q: JointVector) -> np.ndarray:
        """The tree's velocities from the compact ones, :math:`\\dot q_t = W \\dot q_c`, (..., N, n_c).

        .. math:: W = \\begin{pmatrix} I \\\\ -A_p^{-1} A_c \\end{pmatrix}
                  \\quad \\text{(rows in tree order)}, \\qquad A W = 0 .

        At a type-II singularity :math:`A_p` is singular: W then uses the
        pseudo-inverse (minimum-norm passive rates) and a
        :class:`~rvc.checks.SingularityWarning` says so.  W belongs to a
        configuration on the loop: a ``q`` that does not close it (``h(q) != 0``)
        is refused, as the dynamics refuse it.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.W(robot.q_home).shape
        (6, 4)
        >>> robot.W(robot.q_home + 0.1)
        Traceback (most recent call last):
        ...
        ValueError: q: expected tree coordinates (6,) that close the loop, h(q) = 0, got a residual of 0.11 m
        """
        return self._W_from_A(self.A(self._getq(q)))

    def Wdot(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Time derivative of W, (..., N, n_c); ``qd`` compact or tree rates.

        From :math:`A W = 0`: :math:`\\dot W = \\begin{pmatrix} 0 \\\\
        -A_p^{-1} \\dot A W \\end{pmatrix}`.  Like :meth:`W` it belongs to a configuration on
        the loop: a ``q`` that does not close it is refused.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.Wdot(robot.q_home, np.zeros(4)).any()
        np.False_
        """
        q = self._getq(q)
        A = self.A(q)
        W = self._W_from_A(A)
        qd_c, qd_t = self._rates(q, qd, "qd")
        if qd_t is None:
            qd_t = _mv(W, qd_c)
        Ad = self.Adot(q, qd_t)
        Wd = np.zeros_like(W)
        Wd[..., self.ip, :] = -singular_solve(A[..., :, self.ip], Ad @ W, "A_p",
                                      "the passive accelerations along the loop's free motion are not "
                                      "determined (Wdot gives those of least norm)")
        return Wd

    def velocities(self, q: JointVector, qd_c: JointVector) -> JointVector:
        """Tree rates consistent with the loop from compact rates: :math:`\\dot q_t = W \\dot q_c`.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> qd = robot.velocities(robot.q_home, [1.0, 0.0, 0.0, 0.0])
        >>> float(np.abs(robot.A(robot.q_home) @ qd).max()) < 1e-12
        True
        """
        qd_c = getarray(qd_c, "qd_c", shape=(self.n_compact,))
        return _mv(self.W(q), qd_c)

    def accelerations(self, q: JointVector, qd_c: JointVector, qdd_c: JointVector) -> JointVector:
        """Tree accelerations from compact ones: :math:`\\ddot q_t = W \\ddot q_c + \\dot W \\dot q_c`.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> robot.accelerations(robot.q_home, np.zeros(4), [1.0, 0, 0, 0]).shape
        (6,)
        """
        qd_c = getarray(qd_c, "qd_c", shape=(self.n_compact,))
        qdd_c = getarray(qdd_c, "qdd_c", shape=(self.n_compact,))
        return _mv(self.W(q), qdd_c) + _mv(self.Wdot(q, qd_c), qd_c)

    # --------------------------------------------------------------- dynamics
    def _terms(self, q, qd_t):
        """Per chain (M, bias, tip, J, Jdot qd); bias = C qd + eta + K q + D qd."""
        return [c._terms(q[..., s], qd_t[..., s]) for c, s in zip(self.chains, self.slices)]

    def _tree(self, terms, inertia=True):
        """Tree M (block-diagonal; None unless ``inertia``), bias, A, Adot qd and h from chain terms."""
        M = None
        if inertia:
            batch = terms[0][0].shape[:-2]
            M = np.zeros(batch + (self.N, self.N))
            for (Mi, *_), s in zip(terms, self.slices):
                M[..., s, s] = Mi
        bias = np.concatenate([t[1] for t in terms], axis=-1)
        A = self._assemble_A([t[3] for t in terms])
        Adqd = self._stack_vec([t[4] for t in terms])
        h = self._stack_vec([t[2] for t in terms])
        return M, bias, A, Adqd, h

    def _tau_tree(self, tau, batch):
        """Tree generalized forces from actuated (n_a) or compact (n_c) forces."""
        tau = np.asarray(tau, dtype=float)
        out = np.zeros(np.broadcast_shapes(batch, tau.shape[:-1]) + (self.N,))
        idx = self.ia if tau.shape[-1] == len(self.ia) else self.ic
        out[..., idx] = tau
        return out

    def tree_inertia(self, q: JointVector) -> np.ndarray:
        """Block-diagonal inertia of the tree, :math:`M_t = \\mathrm{blkdiag}(M_1, \\dots, M_m)`.

        >>> from rvc.parallel import FiveBar
        >>> M = FiveBar().tree_inertia(FiveBar().q_home)
        >>> M.shape, float(np.abs(M[:3, 3:]).max())
        ((6, 6), 0.0)
        """
        q = getarray(q, "q", shape=(self.N,))
        M = np.zeros(q.shape[:-1] + (self.N, self.N))
        for c, s in zip(self.chains, self.slices):
            M[..., s, s] = c.inertia(q[..., s])
        return M

    def tree_coriolis(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """Block-diagonal Coriolis matrix of the tree, (..., N, N); ``qd`` tree rates.

        >>> from rvc.parallel import FiveBar
        >>> FiveBar().tree_coriolis(FiveBar().q_home, np.zeros(6)).any()
        np.False_
        """
        q = getarray(q, "q", shape=(self.N,))
        qd = getarray(qd, "qd", shape=(self.N,))
        C = np.zeros(np.broadcast_shapes(q.shape, qd.shape)[:-1] + (self.N, self.N))
        for c, s in zip(self.chains, self.slices):
            C[..., s, s] = c.coriolis(q[..., s], qd[..., s])
        return C

    def tree_gravload(self, q: JointVector) -> JointVector:
        """Gravity torques of the tree, :math:`\\eta_t`, (..., N).

        >>> from rvc.parallel import FiveBar
        >>> FiveBar().tree_gravload(FiveBar().q_home).shape
        (6,)
        """
        q = getarray(q, "q", shape=(self.N,))
        return np.concatenate([c.gravload(q[..., s]) for c, s in zip(self.chains, self.slices)], -1)

    def compact(self, q: JointVector, qd: JointVector) -> CompactModel:
        """The compact model's matrices (Lagrange-D'Alembert projection of the tree).

        .. math:: M_c = W^T M_t W, \\quad C_c = W^T C_t W + W^T M_t \\dot W, \\quad
                  \\eta_c = W^T \\eta_t, \\quad K_c = W^T K_t W, \\quad D_c = W^T D_t W

        ``q`` tree coordinates (..., N), ``qd`` compact (..., n_c) or tree rates.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> cm = robot.compact(robot.q_home, np.zeros(4))
        >>> cm.K
        array([[  0.,   0.,   0.,   0.],
               [  0., 500.,   0.,   0.],
               [  0.,   0.,   0.,   0.],
               [  0.,   0.,   0., 500.]])
        """
        q = self._getq(q)
        qd_c, _ = self._rates(q, qd, "qd")
        W = self.W(q)
        Wd = self.Wdot(q, qd_c)
        qd_t = _mv(W, qd_c)
        Wt = np.swapaxes(W, -1, -2)
        Mt = self.tree_inertia(q)
        Ct = self.tree_coriolis(q, qd_t)
        return CompactModel(
            M=Wt @ Mt @ W,
            C=Wt @ Ct @ W + Wt @ Mt @ Wd,
            eta=_mv(Wt, self.tree_gravload(q)),
            K=Wt @ self.K_t @ W,
            D=Wt @ self.D_t @ W,
        )

    def inverse_dynamics(self, q: JointVector, qd: JointVector, qdd: JointVector, method: str = "lda", *,
                         multipliers: bool = False) -> JointVector | tuple[JointVector, np.ndarray]:
        """Generalized forces on the compact coordinates for a motion, (..., n_c).

        ``q`` tree coordinates (closing the loop); ``qd``, ``qdd`` compact rates
        (..., n_c) or tree rates (..., N) consistent with the loop.  Methods:

        * ``"lagrange"`` -- Lagrange's equations of the first kind.  The tree's
          left-hand side :math:`\\ell = M_t\\ddot q_t + C_t\\dot q_t + \\eta_t +
          K_t q_t + D_t\\dot q_t` must equal :math:`\\tau_t + A^T\\lambda`; the
          passive rows (no drive) give :math:`\\lambda = A_p^{-T}\\ell_p`, the
          others :math:`\\tau_c = \\ell_c - A_c^T\\lambda`.
        * ``"lda"`` -- Lagrange-D'Alembert: each chain's serial inverse
          dynamics (virtual drives on the passive joints), then
          :math:`\\tau_c = W^T \\tau_t` (equal virtual work).
        * ``"compact"`` -- :math:`\\tau_c = M_c\\ddot q_c + C_c\\dot q_c + \\eta_c
          + K_c q_c + D_c \\dot q_c`.

        The elastic entries of :math:`\\tau_c` are the torques that would have
        to act at the springs (zero for a motion the mechanism makes by itself).
        With ``multipliers=True`` also returns :math:`\\lambda` (the force on
        chain 1's tip at the cut; ``lagrange`` only).

        At a type-II singularity :math:`A_p` is singular and the three methods
        give the same answer: the least-norm passive rates (:meth:`W`) and, for
        ``"lagrange"``, the least-norm multipliers
        :math:`\\lambda = (A_p^T)^{+}\\ell_p`, so that
        :math:`\\tau_c = \\ell_c - A_c^T\\lambda = W^T\\ell` as in ``"lda"``.  A
        :class:`~rvc.checks.SingularityWarning` says what is lost: the cut
        force along the singular direction (it loads no passive joint), and,
        when :math:`\\ell_p` has a part no finite cut force can balance, by how much.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> tau = robot.inverse_dynamics(robot.q_home, np.zeros(4), np.zeros(4))
        >>> bool(np.allclose(tau, robot.inverse_dynamics(robot.q_home, np.zeros(4), np.zeros(4), "compact")))
        True
        """
        method = getoption(method, "method", INVERSE_METHODS)
        q = self._getq(q)
        qd_c, qd_t = self._rates(q, qd, "qd")
        W = self.W(q)
        if qd_t is None:
            qd_t = _mv(W, qd_c)
        Wd_qd = _mv(self.Wdot(q, qd_c), qd_c)
        lower = _mv(self.Adot(q, qd_t), qd_t)
        qdd_c, qdd_t = self._rates(q, qdd, "qdd", lower=lower)
        if qdd_t is None:
            qdd_t = _mv(W, qdd_c) + Wd_qd
        if method == "compact":
            cm = self.compact(q, qd_c)
            qc = q[..., self.ic]
            tau = (_mv(cm.M, qdd_c) + _mv(cm.C, qd_c) + cm.eta + _mv(cm.K, qc) + _mv(cm.D, qd_c))
            return (tau, None) if multipliers else tau
        lhs = np.concatenate([c.rne(q[..., s], qd_t[..., s], qdd_t[..., s])
                              for c, s in zip(self.chains, self.slices)], -1)
        if method == "lda":
            tau = _mtv(W, lhs)
            return (tau, None) if multipliers else tau
        A = self.A(q)
        ApT = np.swapaxes(A[..., :, self.ip], -1, -2)
        lam = singular_solve(ApT, lhs[..., self.ip, None], "A_p^T",
                     "the cut force along the singular direction loads no passive joint, so it is not "
                     "determined (lambda is the least-norm multiplier, tau equals the 'lda' and "
                     "'compact' answers)")[..., 0]
        unbalanced = np.abs(_mv(ApT, lam) - lhs[..., self.ip]).max() if lam.size else 0.0
        if unbalanced > 1e-9 * (1.0 + np.abs(lhs).max()):
            warn_singular(f"inverse_dynamics: at this type-II singularity the passive joints cannot be "
                          f"balanced by any finite cut force (off by up to {unbalanced:.3g} N m in the "
                          f"least-squares multipliers): the motion asked for is not one the loop can make")
        tau = lhs[..., self.ic] - _mtv(A[..., :, self.ic], lam)
        return (tau, lam) if multipliers else tau

    # forward dynamics: each solver takes the evaluated tree terms
    def _fd_compact(self, terms, bias, A, Adqd, tau_t, W=None):
        """Compact forward dynamics; M_c = sum_i W_i^T M_i W_i uses the tree's block structure.

        ``W`` when the caller has it already (from the same A)."""
        if W is None:
            W = self._W_from_A(A)
        Wd_qd = np.zeros(bias.shape)
        Wd_qd[..., self.ip] = -singular_solve(A[..., :, self.ip], Adqd[..., None], "A_p",
                                      "the passive accelerations along the loop's free motion are not "
                                      "determined (those of least norm are used)")[..., 0]
        f = (tau_t - bias)[..., None]
        Mc, rhs = 0.0, 0.0
        for (Mi, *_), s in zip(terms, self.slices):
            Wi = W[..., s, :]
            WiT_Mi = np.swapaxes(Wi, -1, -2) @ Mi
            Mc = Mc + WiT_Mi @ Wi
            rhs = rhs + np.swapaxes(Wi, -1, -2) @ f[..., s, :] - WiT_Mi @ Wd_qd[..., s, None]
        return (W @ np.linalg.solve(Mc, rhs))[..., 0] + Wd_qd

    def _fd_kkt(self, M, bias, A, gamma, tau_t):
        n, k = self.N, self.n_con
        K = np.zeros(M.shape[:-2] + (n + k, n + k))
        K[..., :n, :n] = M
        K[..., :n, n:] = -np.swapaxes(A, -1, -2)
        K[..., n:, :n] = A
        rhs = np.concatenate([tau_t - bias, gamma], axis=-1)
        return np.linalg.solve(K, rhs[..., None])[..., :n, 0]

    def _fd_scdd(self, terms, A, gamma, tau_t):
        """Per chain: factor M_i alone, then the cut force from a 2(m-1) system."""
        free, resp = [], []
        schur = 0.0
        rhs = gamma
        for (Mi, bi, *_), s in zip(terms, self.slices):
            Ai = A[..., :, s]
            sol = np.linalg.solve(Mi, np.concatenate(
                [(tau_t[..., s] - bi)[..., None], np.swapaxes(Ai, -1, -2)], axis=-1))
            q0, Y = sol[..., 0], sol[..., 1:]           # free acceleration, response to lambda
            free.append(q0)
            resp.append(Y)
            schur = schur + Ai @ Y
            rhs = rhs - _mv(Ai, q0)
        lam = np.linalg.solve(schur, rhs[..., None])[..., 0]
        return np.concatenate([q0 + _mv(Y, lam) for q0, Y in zip(free, resp)], axis=-1)

    def forward_dynamics(self, q: JointVector, qd: JointVector, tau: ArrayLike, method: str = "compact",
                         f_ext: ArrayLike | None = None) -> JointVector:
        """Tree accelerations (..., N) from the drive torques and an external end-effector force.

        ``q`` tree coordinates, ``qd`` compact (..., n_c) or tree rates,
        ``tau`` the actuated torques (..., n_a) (or compact forces (..., n_c),
        e.g. with actuators on the elastic joints).  ``f_ext`` (..., 2), default
        zero, is the force (N) the environment applies to the end-effector (a
        pin, so a planar wrench without a moment); it enters as
        :math:`J_1^T f_{ext}` on chain 1, whose tip the end-effector is
        (:func:`~rvc.parallel.scdd_forward` splits it between the chains
        instead, as the source does).  Methods:

        * ``"compact"`` -- :math:`\\ddot q_c = M_c^{-1}(\\tau_c - C_c\\dot q_c -
          \\eta_c - K_c q_c - D_c\\dot q_c)`, then :math:`\\ddot q_t = W\\ddot q_c
          + \\dot W\\dot q_c`;
        * ``"kkt"`` -- Lagrange's equations of the first kind solved as one system,
          :math:`\\begin{pmatrix} M_t & -A^T \\\\ A & 0 \\end{pmatrix}
          \\begin{pmatrix}\\ddot q_t \\\\ \\lambda\\end{pmatrix} =
          \\begin{pmatrix}\\tau_t - b_t \\\\ -\\dot A\\dot q_t\\end{pmatrix}`;
        * ``"scdd"`` -- per chain (in the spirit of the source's SCDD): each
          chain's :math:`M_i` is factored on its own, giving its free
          acceleration :math:`\\ddot q_i^0 = M_i^{-1}(\\tau_i - b_i)` and its
          response :math:`Y_i = M_i^{-1} A_i^T` to the cut force; the cut force
          comes from the small system
          :math:`(\\sum_i A_i Y_i)\\lambda = -\\dot A \\dot q_t - \\sum_i A_i\\ddot q_i^0`.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> a = robot.forward_dynamics(robot.q_home, np.zeros(4), [0.5, -0.5])
        >>> bool(np.allclose(a, robot.forward_dynamics(robot.q_home, np.zeros(4), [0.5, -0.5], "scdd")))
        True
        >>> a = robot.forward_dynamics(robot.q_home, np.zeros(4), [0.5, -0.5], f_ext=[0.0, -2.0])
        >>> bool(np.allclose(a, robot.forward_dynamics(robot.q_home, np.zeros(4), [0.5, -0.5], "kkt",
        ...                                            f_ext=[0.0, -2.0])))
        True
        """
        method = getoption(method, "method", FORWARD_METHODS)
        q = self._getq(q)
        qd_c, qd_t = self._rates(q, qd, "qd")
        if qd_t is None:
            qd_t = _mv(self.W(q), qd_c)
        tau = getarray(tau, "tau")
        if tau.ndim == 0 or tau.shape[-1] not in (len(self.ia), self.n_compact):
            raise ValueError(f"tau: expected actuated torques (..., {len(self.ia)}) or compact "
                             f"forces (..., {self.n_compact}), got shape {tau.shape}")
        if f_ext is not None:
            f_ext = getarray(f_ext, "f_ext", shape=(2,))
            return self._solve(self._terms(q, qd_t), tau, method, f_ext=f_ext)
        return self._forward(q, qd_t, tau, method)

    def chain_terms(self, q: JointVector, qd: JointVector) -> list:
        """Evaluate every chain once: per chain :math:`(M_i, b_i, p_i, J_i, \\dot J_i \\dot q_i)`.

        :math:`b_i = C_i\\dot q_i + \\eta_i + K_i q_i + D_i\\dot q_i`, :math:`p_i` the tip position,
        :math:`J_i` its Jacobian; ``q`` and ``qd`` are tree coordinates and rates.
        This is the step every forward-dynamics method shares (and the one
        that can run chain by chain in parallel); :meth:`solve_forward` does
        the rest.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> [t.shape for t in robot.chain_terms(robot.q_home, np.zeros(6))[0]]
        [(3, 3), (3,), (2,), (2, 3), (2,)]
        """
        q = getarray(q, "q", shape=(self.N,))
        qd = getarray(qd, "qd", shape=(self.N,))
        return self._terms(q, qd)

    def solve_forward(self, terms: list, tau: ArrayLike, method: str = "compact") -> JointVector:
        """Tree accelerations from evaluated chains (:meth:`chain_terms`) and drive torques.

        The linear algebra of :meth:`forward_dynamics` alone, for comparing
        the methods' cost: ``"compact"`` forms and factors :math:`M_c`,
        ``"kkt"`` factors the (N + k) KKT matrix, ``"scdd"`` factors each
        :math:`M_i` and the k x k system for the cut force.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> terms = robot.chain_terms(robot.q_home, np.zeros(6))
        >>> bool(np.allclose(robot.solve_forward(terms, [0.5, 0.0], "scdd"),
        ...                  robot.forward_dynamics(robot.q_home, np.zeros(4), [0.5, 0.0])))
        True
        """
        method = getoption(method, "method", FORWARD_METHODS)
        return self._solve(terms, getarray(tau, "tau"), method)

    def _solve(self, terms, tau, method, stabilise=None, f_ext=None):
        M, bias, A, Adqd, h = self._tree(terms, inertia=(method == "kkt"))
        tau_t = self._tau_tree(tau, bias.shape[:-1])
        if f_ext is not None:
            tau_t = tau_t + self._ee_forces(terms[0][3], f_ext)
        if method == "compact":
            return self._fd_compact(terms, bias, A, Adqd, tau_t)
        gamma = -Adqd if stabilise is None else -Adqd - stabilise(A, h)
        if method == "kkt":
            return self._fd_kkt(M, bias, A, gamma, tau_t)
        return self._fd_scdd(terms, A, gamma, tau_t)

    def _ee_forces(self, J1, f_ext):
        """Tree generalized forces (..., N) of a force f_ext applied at the end-effector (chain 1's tip).

        Virtual work: :math:`\\tau_1 = J_1^T f_{ext}` on chain 1's joints, zero on the others."""
        out = np.zeros(np.broadcast_shapes(J1.shape[:-2], f_ext.shape[:-1]) + (self.N,))
        out[..., self.slices[0]] = _mtv(J1, f_ext)
        return out

    def _compact_accel(self, q, qd_c, tau):
        """Compact accelerations (n_c,) of one state, without input checks: the compact simulation's step.

        ``forward_dynamics(q, qd_c, tau)[ic]`` with every piece evaluated once:
        the chains' tip Jacobians give A and W, W the tree rates, then one
        evaluation of each chain's terms and the compact solve, reusing W.
        """
        A = self._assemble_A([c._jacob0(q[s]) for c, s in zip(self.chains, self.slices)])
        W = self._W_from_A(A)
        terms = self._terms(q, W @ qd_c)
        _, bias, A, Adqd, _ = self._tree(terms, inertia=False)
        tau_t = self._tau_tree(tau, ())
        return self._fd_compact(terms, bias, A, Adqd, tau_t, W)[self.ic]

    def _forward(self, q, qd_t, tau, method, alpha=0.0, beta=0.0):
        """Forward dynamics without input checks; Baumgarte terms for kkt and scdd."""
        stabilise = None
        if alpha or beta:
            def stabilise(A, h):
                return 2 * alpha * _mv(A, qd_t) + beta ** 2 * h
        return self._solve(self._terms(q, qd_t), tau, method, stabilise)

    def energy(self, q: JointVector, qd: JointVector) -> tuple:
        """Kinetic and potential energy (T, V) of the mechanism; V holds gravity and springs.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> T, V = robot.energy(robot.q_home, np.zeros(4))
        >>> float(T)
        0.0
        """
        q = getarray(q, "q", shape=(self.N,))
        qd_c, qd_t = self._rates(q, qd, "qd")
        if qd_t is None:
            qd_t = _mv(self.W(q), qd_c)
        TV = [c.energy(q[..., s], qd_t[..., s]) for c, s in zip(self.chains, self.slices)]
        return sum(t for t, _ in TV), sum(v for _, v in TV)

    # ---------------------------------------------------------------- jacobian
    def static_matrices(self, q: JointVector) -> tuple:
        """The static matrix S (..., 2, m) and the branch-force map U (..., n_c, m).

        With one passive joint per chain, chain i can push on the end-effector
        only along :math:`s_i`, the unit vector with :math:`J_{i,p}^T s_i = 0`
        (for the five-bar: along the distal link).  A force
        :math:`f = S f_B = \\sum_i s_i f_{B,i}` on the end-effector splits into
        branch forces :math:`f_B = S^{-1} f`, which the compact joints resist
        with :math:`\\tau_c = U f_B`, column i of U holding :math:`J_{i,c}^T s_i`
        in chain i's rows.

        >>> from rvc.parallel import FiveBar
        >>> S, U = FiveBar().static_matrices(FiveBar().q_home)
        >>> S.shape, U.shape
        ((2, 2), (4, 2))
        """
        q = getarray(q, "q", shape=(self.N,))
        if self.m != 2 or any(c.roles.count("p") != 1 for c in self.chains):
            raise ValueError("self: the static-matrix route needs two chains with one passive "
                             f"joint each, got roles {self.roles!r}")
        S = []
        pos = 0
        U = np.zeros(q.shape[:-1] + (self.n_compact, self.m))
        for i, (c, s) in enumerate(zip(self.chains, self.slices)):
            J = c.jacob0(q[..., s])
            jp = c.roles.index("p")
            Jp = J[..., :, jp]
            si = np.stack([Jp[..., 1], -Jp[..., 0]], -1)
            si = si / np.linalg.norm(si, axis=-1, keepdims=True)
            S.append(si)
            keep = [k for k, r in enumerate(c.roles) if r != "p"]
            U[..., pos:pos + len(keep), i] = _mtv(J[..., :, keep], si)
            pos += len(keep)
        return np.stack(S, -1), U

    def jacobian(self, q: JointVector, route: str = "static") -> np.ndarray:
        """End-effector Jacobian G (..., 2, n_c): :math:`\\dot x = G \\dot q_c`.

        ``route="w"``: chain 1's tip Jacobian parameterized by W,
        :math:`G = J_1 W_1` (:math:`W_1` chain 1's rows of W).
        ``route="static"``: from the serial chains' Jacobians through the
        statics, :math:`\\tau_c = U S^{-1} f = G^T f`, so :math:`G = S^{-T} U^T`
        (see :meth:`static_matrices`); no passive joint rates are needed.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> bool(np.allclose(robot.jacobian(robot.q_home), robot.jacobian(robot.q_home, "w")))
        True
        """
        route = getoption(route, "route", ("static", "w"))
        q = getarray(q, "q", shape=(self.N,))
        if route == "w":
            J1 = self.chains[0].jacob0(q[..., self.slices[0]])
            return J1 @ self.W(q)[..., self.slices[0], :]
        S, U = self.static_matrices(q)
        return singular_solve(np.swapaxes(S, -1, -2), np.swapaxes(U, -1, -2), "S",
                      "the end-effector velocity along the platform's free motion is not determined by "
                      "the compact rates")

    def singularity(self, q: JointVector) -> tuple:
        """Type-I and type-II singularity measures (each in [0, 1], zero at the singularity).

        Type I (a chain stretched out or folded: the end-effector cannot move
        along :math:`s_i`): :math:`\\min_i |J_{i,a}^T s_i| / \\|J_{i,a}\\|`, the
        sine of the angle between the line from chain i's actuated joint to
        the tip and the chain's force direction.  Type II (the branch forces
        cannot balance some end-effector force; the platform gains a free
        motion): :math:`|\\det S|`, the sine of the angle between
        :math:`s_1` and :math:`s_2`.

        >>> from rvc.parallel import FiveBar
        >>> t1, t2 = FiveBar().singularity(FiveBar().q_home)
        >>> 0 < float(t1) < 1 and 0 < float(t2) < 1
        True
        """
        q = getarray(q, "q", shape=(self.N,))
        S, _ = self.static_matrices(q)
        type1 = []
        for i, (c, s) in enumerate(zip(self.chains, self.slices)):
            J = c.jacob0(q[..., s])
            Ja = J[..., :, [k for k, r in enumerate(c.roles) if r == "a"]]
            proj = _mtv(Ja, S[..., :, i])
            type1.append(np.linalg.norm(proj, axis=-1) / np.linalg.norm(Ja, axis=(-2, -1)))
        return np.min(np.stack(type1, -1), axis=-1), np.abs(np.linalg.det(S))

    # --------------------------------------------------------------- assembly
    def assemble(self, qa: ArrayLike, qe: ArrayLike, guess: ArrayLike | None = None, tol: float = 1e-13,
                 maxiter: int = 50) -> JointVector:
        """Tree coordinates from actuated and elastic angles, by Newton's method on h = 0.

        The passive angles start from ``guess`` (tree coordinates, default 0)
        and follow :math:`\\Delta q_p = -A_p^{-1} h`.  Subclasses with a closed
        form (:class:`~rvc.parallel.FiveBar`) override this.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> loop = ClosedChain(robot.chains)               # the five-bar without its closed form
        >>> q = loop.assemble(robot.q_home[[0, 3]], [0.01, 0.0], guess=robot.q_home)
        >>> bool(np.allclose(q, robot.assemble(robot.q_home[[0, 3]], [0.01, 0.0])))
        True
        """
        qa = getarray(qa, "qa", shape=(len(self.ia),))
        qe = getarray(qe, "qe", shape=(len(self.ie),))
        batch = np.broadcast_shapes(qa.shape[:-1], qe.shape[:-1])
        q = np.zeros(batch + (self.N,)) if guess is None else \
            np.array(np.broadcast_to(getarray(guess, "guess", shape=(self.N,)), batch + (self.N,)))
        q[..., self.ia] = qa
        q[..., self.ie] = qe
        return self._newton(q, tol, maxiter)

    def _assemble(self, qa, qe, guess=None, tol=1e-13, maxiter=50):
        """:meth:`assemble` without the argument checks (subclasses put a closed form here)."""
        q = np.zeros(np.shape(qa)[:-1] + (self.N,)) if guess is None else np.array(guess, dtype=float)
        q[..., self.ia] = qa
        q[..., self.ie] = qe
        return self._newton(q, tol, maxiter)

    def _newton(self, q, tol=1e-13, maxiter=50):
        for _ in range(maxiter):
            r = self.h(q)
            if np.abs(r).max(initial=0.0) <= tol * self.reach:
                return q
            A = self.A(q)
            q[..., self.ip] -= np.linalg.solve(A[..., :, self.ip], r[..., None])[..., 0]
        raise ValueError(f"qa, qe: the loop does not close from this guess "
                         f"(residual {np.abs(self.h(q)).max():.3g} m after {maxiter} steps)")

    def project(self, q: JointVector, qd: JointVector | None = None) -> JointVector | tuple[JointVector, JointVector]:
        """Restore the constraints: passive angles by Newton from q, rates by :math:`W \\dot q_c`.

        The compact coordinates and rates are kept (coordinate partitioning);
        returns q, or (q, qd) when tree rates ``qd`` are given.

        >>> from rvc.parallel import FiveBar
        >>> robot = FiveBar()
        >>> q = robot.q_home + [0, 0, 1e-3, 0, 0, 0]
        >>> float(np.abs(robot.h(robot.project(q))).max()) < 1e-12
        True
        """
        q = np.array(getarray(q, "q", shape=(self.N,)))
        q = self._newton(q)
        if qd is None:
            return q
        qd = getarray(qd, "qd", shape=(self.N,))
        return q, _mv(self.W(q), qd[..., self.ic])


def operation_counts(model: ClosedChain) -> dict:
    """Floating-point operations of the three forward-dynamics solvers, once the chains are evaluated.

    Counted as :meth:`ClosedChain.forward_dynamics` does the linear algebra
    (LU factorization :math:`\\frac23 n^3`, a solve with r right-hand sides
    :math:`2n^2 r`, a product of (a x b) and (b x c) matrices :math:`2abc`),
    for chains of :math:`n_i` joints, N tree and :math:`n_c` compact
    coordinates and k = 2(m-1) constraints:

    * ``compact``: W and :math:`\\dot W\\dot q` (two k x k solves),
      :math:`M_c = \\sum_i W_i^T M_i W_i`, the right-hand side, one
      :math:`n_c \\times n_c` LU and the back-substitution to tree rates;
    * ``kkt``: one LU of the (N + k) square KKT matrix;
    * ``scdd``: per chain one :math:`n_i \\times n_i` LU with 1 + k right-hand
      sides and the k x k Schur system for the cut force.

    ``factor_*`` count only the factorizations (the source's measure).

    >>> from rvc.parallel import FiveBar
    >>> c = operation_counts(FiveBar())
    >>> c["factor_compact"], c["factor_scdd"]      # one 4 x 4 LU; two 3 x 3 and one 2 x 2
    (42.66666666666667, 41.333333333333336)
    """
    lu = lambda n: 2 * n ** 3 / 3                      # noqa: E731
    sizes = [c.n for c in model.chains]
    N, nc, k, npas = model.N, model.n_compact, model.n_con, len(model.ip)
    compact = (2 * lu(npas) + 2 * npas ** 2 * (nc + 1)               # W_p and Wdot qd
               + sum(2 * n * n * nc + 2 * n * nc * nc + 2 * n * n + 2 * n * nc + n for n in sizes)
               + lu(nc) + 2 * nc ** 2 + 2 * N * nc + N)
    kkt = lu(N + k) + 2 * (N + k) ** 2 + N
    scdd = (sum(lu(n) + 2 * n * n * (1 + k) + 2 * k * k * n + 2 * k * n + 2 * n * k + n
                for n in sizes) + lu(k) + 2 * k * k)
    return {"compact": compact, "kkt": kkt, "scdd": scdd,
            "factor_compact": lu(nc), "factor_kkt": lu(N + k),
            "factor_scdd": sum(lu(n) for n in sizes) + lu(k)}
