"""The elastic planar five-bar: the chapter's worked example.

Two chains hang from actuated joints at :math:`B_1` and :math:`B_2` on the
base line.  Each proximal link is split at mid-span by a torsional
spring-damper (with ``n_elastic > 1``: into ``n_elastic + 1`` equal segments
joined by ``n_elastic`` springs); a distal link joins it to the
end-effector, a point mass rigidly at the tip of chain 1.  The loop is cut
at the end-effector.  Chain k's coordinates are relative angles
:math:`(a_k, e_k, p_k)`: :math:`a_k` the absolute angle of the inner
proximal half from +x, :math:`e_k` the spring's deflection, :math:`p_k` the
distal link's angle relative to the outer half.  Tree coordinates
:math:`q = (a_1, e_1, p_1, a_2, e_2, p_2)`; compact :math:`(a_1, e_1, a_2, e_2)`.

>>> robot = FiveBar()
>>> robot.roles
'aepaep'
>>> robot.fkine(robot.q_home).round(4) + 0.0
array([0. , 0.4])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.optimize

from ..checks import getangle, getarray, getphysical, getscalar, putangle
from ..results import Result
from ..shapes import ArrayLike, JointVector, Vector2
from .planar_chain import PlanarChain
from .closed import ClosedChain

__all__ = ["FiveBar", "Modes", "StaticDeflection"]


@dataclass(frozen=True, repr=False, eq=False)
class Modes(Result):
    """Elastic modes with the motors locked: natural frequencies (Hz), damping ratios, shapes.

    >>> FiveBar().modes().shapes.shape        # one column per mode
    (2, 2)
    """

    frequency: np.ndarray
    damping: np.ndarray
    shapes: np.ndarray
    q: np.ndarray


def locked_modes(M: np.ndarray, K: np.ndarray, D: np.ndarray, q: JointVector) -> Modes:
    """Modes of :math:`M\\ddot e + D\\dot e + K e = 0` (the elastic blocks, motors locked) at ``q``.

    :math:`K\\phi = \\omega^2 M\\phi` gives :math:`f = \\omega/2\\pi` ascending and the shapes,
    each scaled so that its largest entry is 1 (ties: the first); the damping ratio of a mode is
    :math:`\\zeta = \\phi^T D\\phi / (2\\omega\\,\\phi^T M\\phi)` (inf for a zero frequency).

    >>> m = locked_modes(np.eye(2), np.diag([4.0, 1.0]) * (2 * np.pi) ** 2, 0.1 * np.eye(2), np.zeros(2))
    >>> m.frequency, m.damping.round(4)
    (array([1., 2.]), array([0.008, 0.004]))
    """
    w2, phi = scipy.linalg.eigh(K, M)
    omega = np.sqrt(np.clip(w2, 0.0, None))
    big = np.argmax(np.round(np.abs(phi), 9), axis=0)          # ties: the first entry
    phi = phi / phi[big, np.arange(phi.shape[1])]
    modal_m = np.einsum("ij,ik,kj->j", phi, M, phi)
    modal_d = np.einsum("ij,ik,kj->j", phi, D, phi)
    with np.errstate(divide="ignore", invalid="ignore"):
        zeta = np.where(omega > 0, modal_d / (2 * omega * modal_m), np.inf)
    return Modes(omega / (2 * np.pi), zeta, phi, q)


@dataclass(frozen=True, repr=False, eq=False)
class StaticDeflection(Result):
    """Gravity equilibrium: spring deflections (rad), end-effector displacement (m), tree q.

    >>> FiveBar().static_deflection().deflection.shape
    (2,)
    """

    deflection: np.ndarray
    displacement: np.ndarray
    q: np.ndarray


def _wrap(angle):
    return (angle + np.pi) % (2 * np.pi) - np.pi


def _perp(v):
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


class FiveBar(ClosedChain):
    """The elastic planar five-bar of the worked example (defaults) or a variant.

    Keyword parameters (SI units): ``B1``, ``B2`` actuated joint positions;
    ``L1``, ``m1`` proximal link length and mass (uniform, split into
    ``n_elastic + 1`` equal rods); ``L2``, ``m2`` distal link; ``m_ee`` the
    end-effector point mass on chain 1's tip; ``K``, ``D`` stiffness and
    damping of each spring; ``Jr`` reflected rotor inertia of each motor;
    ``g`` gravity along -y.  Defaults: B1 = (-0.10, 0), B2 = (0.10, 0),
    L1 = 0.25, m1 = 0.5, L2 = 0.35, m2 = 0.4, m_ee = 0.5, K = 500, D = 0.1,
    Jr = 2e-4, g = 9.81, n_elastic = 1.

    >>> robot = FiveBar(K=1000.0)
    >>> robot.q_home.round(4) + 0.0
    array([ 2.3338,  0.    , -1.6566,  0.8078,  0.    ,  1.6566])
    >>> FiveBar(K=-1.0)
    Traceback (most recent call last):
    ...
    ValueError: K: expected a non-negative stiffness, got -1.0
    """

    def __init__(self, *, B1: ArrayLike = (-0.10, 0.0), B2: ArrayLike = (0.10, 0.0), L1: float = 0.25,
                 m1: float = 0.5, L2: float = 0.35, m2: float = 0.4, m_ee: float = 0.5, K: float = 500.0,
                 D: float = 0.1, Jr: float = 2e-4, g: float = 9.81, n_elastic: int = 1,
                 home: ArrayLike = (0.0, 0.40)) -> None:
        def nonneg(value, name, what, strict=False):
            return getphysical(value, name, what, positive=strict, nonnegative=not strict)

        L1 = nonneg(L1, "L1", "length", strict=True)
        L2 = nonneg(L2, "L2", "length", strict=True)
        m1, m2, m_ee = (nonneg(v, n, "mass") for v, n in ((m1, "m1"), (m2, "m2"), (m_ee, "m_ee")))
        K = nonneg(K, "K", "stiffness")
        D = nonneg(D, "D", "damping")
        Jr = nonneg(Jr, "Jr", "rotor inertia")
        if not isinstance(n_elastic, (int, np.integer)) or isinstance(n_elastic, bool) \
                or n_elastic < 0:
            raise ValueError(f"n_elastic: expected a whole number >= 0, got {n_elastic!r}")
        B1 = getarray(B1, "B1", shape=(2,), batch=False)
        B2 = getarray(B2, "B2", shape=(2,), batch=False)
        if np.allclose(B1, B2):
            raise ValueError(f"B1, B2: expected two distinct base joints, got {B1} and {B2}")
        ns = int(n_elastic) + 1
        self.params = dict(B1=tuple(float(v) for v in B1), B2=tuple(float(v) for v in B2), L1=L1, m1=m1,
                           L2=L2, m2=m2, m_ee=m_ee, K=K, D=D, Jr=Jr, g=getscalar(g, "g"), n_elastic=ns - 1)
        self.L1, self.L2, self.n_elastic = L1, L2, ns - 1
        roles = "a" + "e" * (ns - 1) + "p"
        lengths = [L1 / ns] * ns + [L2]
        masses = [m1 / ns] * ns + [m2]
        chains = [PlanarChain(lengths, masses, roles=roles, base=B, stiffness=K, damping=D,
                              rotor=Jr, tip_mass=tip, g=self.params["g"])
                  for B, tip in ((B1, m_ee), (B2, 0.0))]
        super().__init__(chains)
        self.B = np.stack([B1, B2])
        self.x_home = self._reach(getarray(home, "home", shape=(2,), batch=False), "home")
        self.q_home = self.assemble(self.ikine_rigid(self.x_home), np.zeros(len(self.ie)))

    def __repr__(self) -> str:
        p = self.params
        return (f"FiveBar(L1={p['L1']}, L2={p['L2']}, K={p['K']}, D={p['D']}, "
                f"n_elastic={p['n_elastic']})")

    # ------------------------------------------------------------- kinematics
    def reachable(self, x: Vector2) -> np.ndarray:
        """True where the rigid five-bar can put its end-effector at x (..., 2).

        Both chains must reach: :math:`|L_1 - L_2| \\le |x - B_k| \\le L_1 + L_2`.

        >>> FiveBar().reachable([[0.0, 0.4], [0.0, 0.7]])
        array([ True, False])
        """
        x = getarray(x, "x", shape=(2,))
        d = np.linalg.norm(x[..., None, :] - self.B, axis=-1)
        return np.all((d <= self.L1 + self.L2) & (d >= abs(self.L1 - self.L2)), axis=-1)

    def _reach(self, x, name):
        """``x`` (..., 2) after checking both chains reach it; the error names ``name``."""
        x = getarray(x, name, shape=(2,))
        ok = self.reachable(x)
        if not np.all(ok):
            bad = x.reshape(-1, 2)[np.flatnonzero(~np.reshape(ok, -1))[0]]
            raise ValueError(f"{name}: expected a position both chains reach "
                             f"({abs(self.L1 - self.L2):.3g} <= |x - B_k| <= "
                             f"{self.L1 + self.L2:.3g}), got {bad}")
        return x

    def ikine_rigid(self, x: Vector2, *, unit: str = "rad") -> np.ndarray:
        """Actuated angles (..., 2) putting the end-effector at x with the springs undeflected.

        Each chain is a two-link arm (proximal L1, distal L2): its elbow is
        where the circles about :math:`B_k` (radius L1) and x (radius L2) meet,

        .. math:: E_k = B_k + a\\,\\hat r \\pm \\sqrt{L_1^2 - a^2}\\, \\hat r^\\perp,
                  \\quad a = \\frac{L_1^2 - L_2^2 + d^2}{2d},\\;
                  r = x - B_k,\\; d = |r|,

        with + for chain 1 (elbow left of the line from B1 to x) and - for
        chain 2 (elbows outward); :math:`a_k = \\mathrm{atan2}(E_k - B_k)`,
        in radians unless ``unit="deg"``.

        >>> FiveBar().ikine_rigid([0.0, 0.40]).round(4)
        array([2.3338, 0.8078])
        >>> FiveBar().ikine_rigid([0.0, 0.40], unit="deg").round(2)
        array([133.72,  46.28])
        >>> FiveBar().ikine_rigid([0.0, 0.70])
        Traceback (most recent call last):
        ...
        ValueError: x: expected a position both chains reach (0.1 <= |x - B_k| <= 0.6), got [0.  0.7]
        """
        x = self._reach(x, "x")
        out = []
        for B, side in zip(self.B, (1.0, -1.0)):
            r = x - B
            d = np.linalg.norm(r, axis=-1, keepdims=True)
            u = r / d
            a = (self.L1 ** 2 - self.L2 ** 2 + d ** 2) / (2 * d)
            hgt = np.sqrt(np.clip(self.L1 ** 2 - a ** 2, 0.0, None))
            E = a * u + side * hgt * _perp(u)
            out.append(np.arctan2(E[..., 1], E[..., 0]))
        return putangle(np.stack(out, axis=-1), unit)

    def assemble(self, qa: JointVector, qe: JointVector, guess: JointVector | None = None, *,
                 unit: str = "rad") -> np.ndarray:
        """Tree coordinates (..., N) from actuated (..., 2) and elastic (..., 2 n_elastic) angles.

        The elbows :math:`E_k` follow from :math:`a_k, e_k`; the end-effector is
        where the circles of radius L2 about them meet, on the home branch
        (left of the line from :math:`E_1` to :math:`E_2`):

        .. math:: x = \\tfrac12(E_1 + E_2) + \\sqrt{L_2^2 - d^2/4}\\; \\hat u^\\perp,
                  \\quad d\\,\\hat u = E_2 - E_1,

        and :math:`p_k = \\mathrm{atan2}(x - E_k) - (a_k + \\sum e_k)`, wrapped to
        [-pi, pi).  ``guess`` is ignored (the form is closed).  Angles in and out
        are radians unless ``unit="deg"``.

        >>> robot = FiveBar()
        >>> q = robot.assemble([2.3338, 0.8078], [0.01, -0.01])
        >>> q.round(4)
        array([ 2.3338,  0.01  , -1.6707,  0.8078, -0.01  ,  1.6707])
        >>> FiveBar(L2=0.3).assemble([np.pi, 0.0], [0.0, 0.0])    # elbows straight out
        Traceback (most recent call last):
        ...
        ValueError: qa, qe: the distal links cannot close the loop here (elbows 0.7 m apart, at most 0.6 allowed)
        """
        qa = getangle(getarray(qa, "qa", shape=(2,)), "qa", unit)
        qe = getangle(getarray(qe, "qe", shape=(2 * self.n_elastic,)), "qe", unit)
        return putangle(self._assemble(qa, qe), unit)

    def _assemble(self, qa, qe, guess=None):
        """:meth:`assemble` without the argument checks (the simulation's inner loop)."""
        ne = self.n_elastic
        if np.ndim(qa) == 1 and np.ndim(qe) == 1:
            return self._assemble_one(qa, qe)
        batch = np.broadcast_shapes(qa.shape[:-1], qe.shape[:-1])
        qa = np.broadcast_to(qa, batch + (2,))
        qe = np.broadcast_to(qe, batch + (2 * ne,))
        seg = self.L1 / (ne + 1)
        elbows, last = [], []
        for k in range(2):
            theta = qa[..., k, None] + np.concatenate(
                [np.zeros(batch + (1,)), np.cumsum(qe[..., k * ne:(k + 1) * ne], axis=-1)], -1)
            E = self.B[k] + seg * np.stack([np.cos(theta).sum(-1), np.sin(theta).sum(-1)], -1)
            elbows.append(E)
            last.append(theta[..., -1])
        v = elbows[1] - elbows[0]
        d = np.linalg.norm(v, axis=-1, keepdims=True)
        if np.any(d >= 2 * self.L2 - 1e-12) or np.any(d <= 1e-12):
            worst = float(np.max(d)) if np.any(d >= 2 * self.L2 - 1e-12) else float(np.min(d))
            raise ValueError(f"qa, qe: the distal links cannot close the loop here (elbows "
                             f"{worst:.3g} m apart, at most {2 * self.L2:.3g} allowed)")
        x = (elbows[0] + elbows[1]) / 2 + np.sqrt(self.L2 ** 2 - d ** 2 / 4) * _perp(v / d)
        q = np.zeros(batch + (self.N,))
        for k, s in enumerate(self.slices):
            r = x - elbows[k]
            q[..., s.start] = qa[..., k]
            q[..., s.start + 1:s.stop - 1] = qe[..., k * ne:(k + 1) * ne]
            q[..., s.stop - 1] = _wrap(np.arctan2(r[..., 1], r[..., 0]) - last[k])
        return q

    def _assemble_one(self, qa, qe):
        """One configuration with scalar arithmetic (the same formulas as :meth:`_assemble`)."""
        ne, seg = self.n_elastic, self.L1 / (self.n_elastic + 1)
        E, last = [], []
        for k in range(2):
            th = float(qa[k])
            ex, ey = self.B[k, 0] + seg * math.cos(th), self.B[k, 1] + seg * math.sin(th)
            for j in range(ne):
                th += float(qe[k * ne + j])
                ex += seg * math.cos(th)
                ey += seg * math.sin(th)
            E.append((ex, ey))
            last.append(th)
        vx, vy = E[1][0] - E[0][0], E[1][1] - E[0][1]
        d = math.hypot(vx, vy)
        if d >= 2 * self.L2 - 1e-12 or d <= 1e-12:
            raise ValueError(f"qa, qe: the distal links cannot close the loop here (elbows "
                             f"{d:.3g} m apart, at most {2 * self.L2:.3g} allowed)")
        hgt = math.sqrt(self.L2 ** 2 - d * d / 4) / d
        x = (0.5 * (E[0][0] + E[1][0]) - hgt * vy, 0.5 * (E[0][1] + E[1][1]) + hgt * vx)
        q = np.empty(self.N)
        for k, s in enumerate(self.slices):
            q[s.start] = qa[k]
            q[s.start + 1:s.stop - 1] = qe[k * ne:(k + 1) * ne]
            ang = math.atan2(x[1] - E[k][1], x[0] - E[k][0]) - last[k]
            q[s.stop - 1] = (ang + math.pi) % (2 * math.pi) - math.pi
        return q

    # ------------------------------------------------------ elastic behaviour
    def modes(self, x: ArrayLike = (0.0, 0.40)) -> Modes:
        """Elastic modes with the motors locked, linearized about the undeflected configuration at x.

        With the actuated joints held, the elastic coordinates obey
        :math:`M_{ee}\\ddot e + D_{ee}\\dot e + K_{ee} e = 0` (blocks of the
        compact model at :math:`q = ` ``assemble(ikine_rigid(x), 0)``; gravity's
        small stiffness is left out).  The generalized eigenproblem
        :math:`K_{ee}\\phi = \\omega^2 M_{ee}\\phi` gives the natural
        frequencies :math:`f = \\omega / 2\\pi` (ascending) and shapes
        :math:`\\phi` (columns, largest entry +1); the modal damping ratios are
        :math:`\\zeta = \\phi^T D_{ee}\\phi / (2\\omega\\, \\phi^T M_{ee}\\phi)`,
        exact when D is proportional to K, as with equal springs.

        >>> m = FiveBar().modes()
        >>> m.frequency.round(2), m.damping.round(4)
        (array([24.67, 28.96]), array([0.0155, 0.0182]))
        """
        qa = self.ikine_rigid(getarray(x, "x", shape=(2,), batch=False))
        q = self.assemble(qa, np.zeros(len(self.ie)))
        cm = self.compact(q, np.zeros(self.n_compact))
        e = self.ce
        return locked_modes(*(X[np.ix_(e, e)] for X in (cm.M, cm.K, cm.D)), q)

    def static_deflection(self, x: ArrayLike = (0.0, 0.40)) -> StaticDeflection:
        """Spring deflections and end-effector sag at the gravity equilibrium, motors held.

        The motors hold :math:`a = ` ``ikine_rigid(x)``; the elastic rows of the
        compact model at rest, :math:`\\eta_c(q(a, e))_e + K_{ee}\\, e = 0`, are
        solved for e (Newton-type, from e = 0).  The displacement is
        ``fkine(assemble(a, e)) - x``.

        >>> s = FiveBar().static_deflection()
        >>> (s.displacement * 1e3).round(3) + 0.0      # mm
        array([ 0.   , -0.459])
        """
        x = getarray(x, "x", shape=(2,), batch=False)
        qa = self.ikine_rigid(x)
        ke = self.K_t[self.ie, self.ie]

        def residual(e):
            q = self.assemble(qa, e)
            eta_c = np.einsum("ji,j->i", self.W(q), self.tree_gravload(q))
            return eta_c[self.ce] + ke * e

        sol = scipy.optimize.root(residual, np.zeros(len(self.ie)), tol=1e-12)
        scale = np.abs(residual(np.zeros(len(self.ie)))).max() + 1e-300
        if np.abs(residual(sol.x)).max() > 1e-9 * scale:
            raise ValueError(f"x: no static equilibrium found near the undeflected pose "
                             f"({sol.message}); is K large enough to carry the weight?")
        q = self.assemble(qa, sol.x)
        return StaticDeflection(sol.x, self.fkine(q) - x, q)
