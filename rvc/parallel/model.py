"""Elastic parallel manipulators in general: serial chains, joint roles and a closure, as data.

A :class:`ParallelModel` is the course's own serial chains (any rvc chain
model with dynamics: standard or modified DH, planar or spatial), a *role*
for every joint -- ``a`` actuated, ``e`` elastic (a lumped spring-damper,
stiffness K and damping D: lumped link elasticity is such a joint inserted in
a chain), ``p`` passive -- and a :class:`Closure`: the chains' tips meet at
one point (:func:`point_closure`), or carry a rigid moving platform with its
own mass and inertia at given attachment points (:func:`platform_closure`),
closing position and, where a chain is rigidly fixed to the platform, its
orientation.

Cutting the closure gives a *tree*: tree coordinates :math:`q_t` are the
chains' joint coordinates, chain after chain, then the platform's own
coordinates :math:`x_p` (passive).  The closure is :math:`h(q_t) = 0`,

.. math:: h = \\begin{pmatrix} p_1 - p_2 \\\\ \\vdots \\\\ p_1 - p_m \\end{pmatrix}
          \\ \\text{(point)}, \\qquad
          h_i = p_i(q_i) - \\big(o(x_p) + R(x_p)\\, b_i\\big) \\ \\text{(platform)},

:math:`A = \\partial h / \\partial q_t = [A_c\\; A_p]`, :math:`\\dot q_t = W
\\dot q_c` with :math:`W = (I; -A_p^{-1} A_c)` (rows in tree order).  The
tree's dynamics are those of Chapter 9 -- :func:`~rvc.dynamics.inertia`,
:func:`~rvc.dynamics.rne`, :func:`~rvc.dynamics.coriolis`,
:func:`~rvc.dynamics.gravload` of each chain, no second implementation --
plus the springs and dampers of the roles and the platform's rigid body:

.. math:: M_t \\ddot q_t + C_t \\dot q_t + \\eta_t + K_t q_t + D_t \\dot q_t
          = \\tau_t + A^T \\lambda .

Every algorithm is a function of ``(model, q, ...)`` (``parallel_W(model, q)``,
``parallel_fdyn(model, q, qd, tau)`` ...); the model's methods
(``model.W(q)``, as :class:`~rvc.parallel.ClosedChain` names them) are thin
calls.  The five-bar is one instance (``rvc.models.fivebar_model()``), the
planar 3-RRR another (``rvc.models.rrr3()``).

>>> from rvc.models import fivebar_model
>>> robot = fivebar_model()
>>> robot.roles, robot.n_compact
('aepaep', 4)
>>> float(np.abs(parallel_A(robot, robot.q_home) @ parallel_W(robot, robot.q_home)).max()) < 1e-12
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.optimize

from ..checks import getarray, getoption, getphysical, getroles, getvector, warn_singular
from ..dynamics import coriolis, dynparams, energy, gravload, inertia, rne
from ..kinematics import jacob0, jacob0_dot, lift_planar, pose3d
from ..results import Result
from ..shapes import ArrayLike, JointVector
from .closed import CompactModel, singular_solve
from .fivebar import Modes, StaticDeflection, locked_modes
from .simulation import RigidPlan, quintic

__all__ = ["Closure", "point_closure", "platform_closure", "ParallelModel",
           "parallel_h", "parallel_A", "parallel_Adot", "parallel_W", "parallel_Wdot",
           "parallel_fkine", "parallel_points", "parallel_jacobian", "parallel_singularity", "SingularityMap",
           "parallel_singularity_map", "parallel_assemble",
           "parallel_ikine", "parallel_compact", "parallel_idyn", "TreeTerms", "parallel_tree_terms",
           "parallel_solve_forward", "parallel_fdyn", "parallel_energy",
           "parallel_deflection", "parallel_modes", "parallel_rigid_plan", "parallel_operation_counts"]

#: Closure residual (relative to the chains' reach) below which a configuration counts as assembled.
CLOSURE_TOL = 1e-6
INVERSE_METHODS = ("lagrange", "lda", "compact")
FORWARD_METHODS = ("compact", "kkt", "scdd")
AXES = {"x": 0, "y": 1, "z": 2}


@dataclass(frozen=True, repr=False, eq=False)
class Closure(Result):
    """How the chains of a parallel mechanism close (see :func:`point_closure`, :func:`platform_closure`).

    ``kind`` ``"point"`` or ``"platform"``; ``axes`` the closed position rows
    (0, 1 for a planar mechanism in the (x, y) plane); for a platform its
    ``motion`` (``"planar"``: coordinates :math:`(x, y, \\varphi)`,
    ``"translation"``: :math:`(x, y, z)`), ``mass``, ``inertia`` (about its
    centre of mass, the platform frame's origin: :math:`I_{zz}` for a planar
    platform), ``attachments`` (m, 3) in the platform frame, ``orientation``
    (per chain: its tip's angle about z is fixed to the platform's too) and
    ``offsets`` (those fixed angles).

    >>> point_closure("xy").axes
    (0, 1)
    """

    kind: str
    axes: tuple
    motion: str = ""
    mass: float = 0.0
    inertia: float = 0.0
    attachments: np.ndarray | None = None
    orientation: tuple = ()
    offsets: np.ndarray | None = None

    @property
    def n_platform(self) -> int:
        """Number of platform coordinates (0 for a point closure).

        >>> platform_closure([[0, 0, 0]] * 3, mass=1.0, inertia=0.1).n_platform
        3
        """
        return 0 if self.kind == "point" else 3


def _axes(axes):
    if not isinstance(axes, str) or not axes or set(axes) - set(AXES) or len(set(axes)) != len(axes):
        raise ValueError(f"axes: expected position axes such as 'xy' or 'xyz', got {axes!r}")
    return tuple(AXES[a] for a in axes)


def point_closure(axes: str = "xyz") -> Closure:
    """The chains' tips meet at one point, closing the position ``axes`` (``"xy"`` for a planar mechanism).

    The end-effector is chain 1's tip (put an end-effector mass there);
    :math:`h = (p_1 - p_2, \\dots, p_1 - p_m)` on those axes.

    >>> point_closure("xy")
    Closure(kind='point', axes=(0, 1), motion='', mass=0.0, inertia=0.0, attachments=None, orientation=(), offsets=None)
    >>> point_closure("xw")
    Traceback (most recent call last):
    ...
    ValueError: axes: expected position axes such as 'xy' or 'xyz', got 'xw'
    """
    return Closure("point", _axes(axes))


def platform_closure(attachments: ArrayLike, *, mass: float, inertia: float = 0.0, motion: str = "planar",
                     orientation: Sequence[bool] | None = None, offsets: ArrayLike | None = None) -> Closure:
    """A rigid moving platform carried by the chains at its ``attachments`` (m, 2 or 3), platform frame.

    ``motion="planar"``: the platform moves in the (x, y) plane with
    coordinates :math:`x_p = (x, y, \\varphi)`, pose :math:`o = (x, y, 0)`,
    :math:`R = R_z(\\varphi)`, mass matrix :math:`\\mathrm{diag}(m, m, I_{zz})`
    (its centre of mass at the frame's origin); chain i closes
    :math:`h_i = [p_i - o - R b_i]_{x,y}` and, where ``orientation[i]``, also
    :math:`\\theta_i - \\varphi - \\theta_{i,0}` (its tip's angle about z,
    ``offsets[i]``).  ``motion="translation"``: :math:`x_p = (x, y, z)`,
    R = I (the platform of a Delta robot), mass matrix :math:`m I_3`.

    >>> c = platform_closure([[0.1, 0.0], [-0.05, 0.0866], [-0.05, -0.0866]], mass=0.5, inertia=1e-3)
    >>> c.attachments.shape, c.axes, c.orientation
    ((3, 3), (0, 1), (False, False, False))
    >>> platform_closure([[0, 0]], mass=1.0, motion="spin")
    Traceback (most recent call last):
    ...
    ValueError: motion: expected one of 'planar', 'translation', got 'spin'
    """
    motion = getoption(motion, "motion", ("planar", "translation"))
    b = getarray(attachments, "attachments", batch=False)
    if b.ndim != 2 or b.shape[1] not in (2, 3) or b.shape[0] < 1:
        raise ValueError(f"attachments: expected an (m, 2) or (m, 3) array of points, got shape {b.shape}")
    if b.shape[1] == 2:
        b = np.concatenate([b, np.zeros((len(b), 1))], axis=1)
    m = len(b)
    mass = getphysical(mass, "mass", "mass", nonnegative=True)
    inertia = getphysical(inertia, "inertia", "inertia", nonnegative=True)
    orientation = (False,) * m if orientation is None else tuple(bool(o) for o in orientation)
    if len(orientation) != m:
        raise ValueError(f"orientation: expected {m} flags (one per chain), got {len(orientation)}")
    if motion == "translation" and any(orientation):
        raise ValueError("orientation: a translating platform closes positions only, got an "
                         "orientation closure")
    offsets = np.zeros(m) if offsets is None else getvector(offsets, "offsets", m)
    axes = (0, 1) if motion == "planar" else (0, 1, 2)
    return Closure("platform", axes, motion, mass, inertia, b, orientation, offsets)


def _wrap(a):
    return (a + np.pi) % (2 * np.pi) - np.pi


def _mv(M, v):
    return (M @ v[..., None])[..., 0]


def _mtv(M, v):
    return np.einsum("...ji,...j->...i", M, v)


class ParallelModel:
    """A parallel mechanism as data: serial chains, joint roles, a closure (module docstring).

    Parameters
    ----------
    chains : sequence of DynamicChain
        m >= 1 serial chains with dynamic parameters (``rvc.models.DHRobot``
        ...), without joint friction (a joint's damping is its role's).
    roles : sequence of str
        One string per chain, one letter per joint: ``a``, ``e`` or ``p``.
    closure : Closure
        :func:`point_closure` or :func:`platform_closure`.
    stiffness, damping : float or sequence of array_like, optional
        Per chain, each joint's stiffness (N m/rad) and damping (N m s/rad);
        a scalar applies to every elastic joint (others get 0).
    gravity : array_like (3,), optional
        Acceleration of free fall (default chain 1's ``gravity``).

    The passive coordinates (the chains' ``p`` joints and the platform's)
    must be as many as the closure's conditions; fewer over-constrain the
    actuators (over-actuated), more leave a free motion (under-actuated).

    >>> from rvc.models import planar_arm
    >>> left = planar_arm([0.3, 0.4], [0.2, 0.2], base=(-0.1, 0))
    >>> right = planar_arm([0.3, 0.4], [0.2, 0.2], base=(0.1, 0))
    >>> loop = ParallelModel([left, right], ["ap", "ap"], point_closure("xy"))
    >>> loop.N, loop.n_compact, loop.k
    (4, 2, 2)
    >>> ParallelModel([left, right], ["aa", "ap"], point_closure("xy"))
    Traceback (most recent call last):
    ...
    ValueError: roles: expected 2 passive coordinates (one per closure condition), got 1 in ('aa', 'ap'): \
the actuators would fight the closure (over-actuated)
    """

    def __init__(self, chains: Sequence, roles: Sequence[str], closure: Closure, *,
                 stiffness: float | Sequence[ArrayLike] = 0.0, damping: float | Sequence[ArrayLike] = 0.0,
                 gravity: ArrayLike | None = None, name: str = "") -> None:
        chains = tuple(chains)
        if not chains or not all(hasattr(c, "links") and hasattr(c, "fkine") for c in chains):
            raise ValueError(f"chains: expected one or more serial chains with dynamics, got {chains!r}")
        if not isinstance(closure, Closure):
            raise ValueError(f"closure: expected a Closure (point_closure or platform_closure), got {closure!r}")
        self.chains, self.closure, self.name = chains, closure, str(name)
        self.m = len(chains)
        if closure.kind == "point" and self.m < 2:
            raise ValueError("chains: a point closure joins two or more chains, got one")
        if closure.kind == "platform" and len(closure.attachments) != self.m:
            raise ValueError(f"closure: expected {self.m} attachment points (one per chain), "
                             f"got {len(closure.attachments)}")
        for i, c in enumerate(chains):
            p = dynparams(c)
            if np.any(p.B) or np.any(p.Tc):
                raise ValueError(f"chains: expected links without joint friction (a joint's damping is "
                                 f"its role's), chain {i + 1} has B or Tc")
        sizes = [c.n for c in chains]
        self.chain_roles = getroles(roles, sizes)
        starts = np.cumsum([0] + sizes)
        self.slices = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
        self.n_platform = closure.n_platform
        self.platform = slice(int(starts[-1]), int(starts[-1]) + self.n_platform)
        self.N = int(starts[-1]) + self.n_platform
        self.roles = "".join(self.chain_roles) + "p" * self.n_platform
        r = np.array(list(self.roles))
        self.ia, self.ie = np.flatnonzero(r == "a"), np.flatnonzero(r == "e")
        self.ip, self.ic = np.flatnonzero(r == "p"), np.flatnonzero(r != "p")
        nax = len(closure.axes)
        self.k = (nax * (self.m - 1) if closure.kind == "point"
                  else nax * self.m + sum(closure.orientation))
        if len(self.ip) != self.k:
            why = ("the actuators would fight the closure (over-actuated)" if len(self.ip) < self.k
                   else "the mechanism would move with its actuators held (under-actuated)")
            raise ValueError(f"roles: expected {self.k} passive coordinates (one per closure condition), "
                             f"got {len(self.ip)} in {self.chain_roles}: {why}")
        self.n_compact = len(self.ic)
        rc = r[self.ic]
        self.ca, self.ce = np.flatnonzero(rc == "a"), np.flatnonzero(rc == "e")
        self.n_x = nax if closure.kind == "point" else self.n_platform
        if self.n_x != len(self.ia):
            raise ValueError(f"roles: expected {self.n_x} actuated joints for the end-effector's "
                             f"{self.n_x} coordinates, got {len(self.ia)} in {self.chain_roles}")

        def per_joint(value, what):
            a = getarray(value, what) if np.isscalar(value) or np.ndim(value) == 0 else None
            out = np.zeros(self.N)
            for i, (s, rr) in enumerate(zip(self.slices, self.chain_roles)):
                if a is not None:
                    v = np.where(np.array(list(rr)) == "e", float(a), 0.0)
                else:
                    v = value[i]
                out[s] = getphysical(v, what, what, nonnegative=True, n=len(rr))
            return out

        if not (np.ndim(stiffness) == 0 and np.ndim(damping) == 0):
            for value, what in ((stiffness, "stiffness"), (damping, "damping")):
                if np.ndim(value) != 0 and len(value) != self.m:
                    raise ValueError(f"{what}: expected a scalar or one array per chain ({self.m}), "
                                     f"got {len(value)}")
        self.stiffness, self.damping = per_joint(stiffness, "stiffness"), per_joint(damping, "damping")
        self.K_t, self.D_t = np.diag(self.stiffness), np.diag(self.damping)
        self.gravity = getvector(chains[0].gravity if gravity is None else gravity, "gravity", 3)
        self.reach = float(max(max(sum(abs(float(L.a)) + abs(float(L.d)) for L in c.links), 1e-3)
                               + np.linalg.norm(c.tool[:3, 3]) for c in chains))
        self.q_home = None

    def __repr__(self) -> str:
        return (f"ParallelModel({self.name or 'unnamed'!r}, {self.m} chains, roles {self.roles!r}, "
                f"{self.closure.kind} closure)")

    # thin methods: the names ClosedChain uses
    def h(self, q: JointVector) -> np.ndarray:
        """:func:`parallel_h`."""
        return parallel_h(self, q)

    def A(self, q: JointVector) -> np.ndarray:
        """:func:`parallel_A`."""
        return parallel_A(self, q)

    def Adot(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """:func:`parallel_Adot`."""
        return parallel_Adot(self, q, qd)

    def W(self, q: JointVector) -> np.ndarray:
        """:func:`parallel_W`."""
        return parallel_W(self, q)

    def Wdot(self, q: JointVector, qd: JointVector) -> np.ndarray:
        """:func:`parallel_Wdot`."""
        return parallel_Wdot(self, q, qd)

    def fkine(self, q: JointVector) -> np.ndarray:
        """:func:`parallel_fkine`."""
        return parallel_fkine(self, q)

    def jacobian(self, q: JointVector) -> np.ndarray:
        """:func:`parallel_jacobian`."""
        return parallel_jacobian(self, q)

    def assemble(self, qa: JointVector, qe: JointVector, guess: JointVector | None = None) -> JointVector:
        """:func:`parallel_assemble`."""
        return parallel_assemble(self, qa, qe, guess)

    def compact(self, q: JointVector, qd: JointVector) -> CompactModel:
        """:func:`parallel_compact`."""
        return parallel_compact(self, q, qd)

    def inverse_dynamics(self, q: JointVector, qd: JointVector, qdd: JointVector, method: str = "lda", *,
                         multipliers: bool = False) -> JointVector | tuple[JointVector, np.ndarray]:
        """:func:`parallel_idyn`."""
        return parallel_idyn(self, q, qd, qdd, method, multipliers=multipliers)

    def forward_dynamics(self, q: JointVector, qd: JointVector, tau: ArrayLike, method: str = "compact",
                         f_ext: ArrayLike | None = None) -> JointVector:
        """:func:`parallel_fdyn`."""
        return parallel_fdyn(self, q, qd, tau, method, f_ext=f_ext)

    def energy(self, q: JointVector, qd: JointVector) -> tuple:
        """:func:`parallel_energy`."""
        return parallel_energy(self, q, qd)

    # what simulate_closed (coords="compact") calls, as on a ClosedChain
    def _getq(self, q):
        return _getq(self, q)

    def _rates(self, q, value, name):
        v = getarray(value, name)
        if v.ndim >= 1 and v.shape[-1] == self.n_compact and self.n_compact != self.N:
            return v, None
        return _rates(self, q, v, name)

    def _assemble(self, qa, qe, guess=None):
        if np.ndim(qa) == 1 and np.ndim(qe) == 1 and (guess is None or np.ndim(guess) == 1):
            return parallel_assemble(self, qa, qe, guess)
        return _assemble_batch(self, qa, qe, guess)

    def _rigid_plan(self, x0, x1, duration, t):
        return parallel_rigid_plan(self, x0, x1, duration, t)

    def _compact_accel(self, q, qd_c, tau):
        return parallel_fdyn(self, q, qd_c, tau)[self.ic]

    def _forward(self, q, qd_t, tau, method, alpha=0.0, beta=0.0):
        raise ValueError("coords: a ParallelModel is simulated in compact coordinates (coords='compact'); "
                         "tree coordinates with drift control are ClosedChain's")


# ------------------------------------------------------------------ kinematics
def _split(model, q):
    return [q[..., s] for s in model.slices], q[..., model.platform]


def _platform_points(model, xp):
    """World positions (..., m, 3) of the attachment points, and R b_i (..., m, 3)."""
    c = model.closure
    if c.motion == "translation":
        Rb = np.broadcast_to(c.attachments, xp.shape[:-1] + c.attachments.shape)
        return xp[..., None, :] + Rb, Rb
    co, si = np.cos(xp[..., 2, None]), np.sin(xp[..., 2, None])
    bx, by = c.attachments[:, 0], c.attachments[:, 1]
    bz = np.broadcast_to(c.attachments[:, 2], co.shape[:-1] + (len(bx),))
    Rb = np.stack([co * bx - si * by, si * bx + co * by, bz], -1)
    o = np.concatenate([xp[..., :2], np.zeros(xp.shape[:-1] + (1,))], -1)
    return o[..., None, :] + Rb, Rb


def _getq(model, q, check=True):
    q = getarray(q, "q", shape=(model.N,))
    if check:
        res = np.abs(parallel_h(model, q)).max(initial=0.0)
        if res > CLOSURE_TOL * model.reach:
            raise ValueError(f"q: expected tree coordinates ({model.N},) that close the mechanism, "
                             f"h(q) = 0, got a residual of {res:.3g}")
    return q


def parallel_h(model: ParallelModel, q: JointVector) -> np.ndarray:
    """The closure :math:`h(q_t)` (..., k); zero where the mechanism is assembled.

    Point closure: :math:`h = ([p_1 - p_2]_{axes}, \\dots, [p_1 - p_m]_{axes})`.
    Platform: per chain :math:`[p_i - o - R b_i]_{axes}` and, for a chain
    fixed to the platform, :math:`\\theta_i - \\varphi - \\theta_{i,0}` wrapped
    to (-pi, pi] (its tip's angle about z, :math:`\\theta_i`).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> float(np.abs(parallel_h(robot, robot.q_home)).max()) < 1e-12
    True
    """
    q = getarray(q, "q", shape=(model.N,))
    qs, xp = _split(model, q)
    T = [pose3d(c, qi) for c, qi in zip(model.chains, qs)]
    ax = list(model.closure.axes)
    if model.closure.kind == "point":
        return np.concatenate([T[0][..., ax, 3] - Ti[..., ax, 3] for Ti in T[1:]], -1)
    P, _ = _platform_points(model, xp)
    rows = []
    for i, Ti in enumerate(T):
        rows.append(Ti[..., ax, 3] - P[..., i, ax])
        if model.closure.orientation[i]:
            theta = np.arctan2(Ti[..., 1, 0], Ti[..., 0, 0])
            rows.append(_wrap(theta - xp[..., 2] - model.closure.offsets[i])[..., None])
    return np.concatenate(rows, -1)


def _assemble_rows(model, Js, q):
    """A (..., k, N) from the chains' Jacobians Js (..., 6, n_i) (or their derivatives, ``q`` None)."""
    batch = Js[0].shape[:-2]
    A = np.zeros(batch + (model.k, model.N))
    ax = list(model.closure.axes)
    nax = len(ax)
    if model.closure.kind == "point":
        for i in range(1, model.m):
            rows = slice(nax * (i - 1), nax * i)
            A[..., rows, model.slices[0]] = Js[0][..., ax, :]
            A[..., rows, model.slices[i]] = -Js[i][..., ax, :]
        return A
    row = 0
    for i, J in enumerate(Js):
        A[..., row:row + nax, model.slices[i]] = J[..., ax, :]
        row += nax
        if model.closure.orientation[i]:
            A[..., row, model.slices[i]] = J[..., 5, :]
            row += 1
    return A


def _platform_cols(model, xp, xpd=None):
    """The platform's columns of A (..., k, 3), or of Adot with the platform rates ``xpd``."""
    c = model.closure
    out = np.zeros(xp.shape[:-1] + (model.k, 3))
    _, Rb = _platform_points(model, xp)
    nax = len(c.axes)
    row = 0
    for i in range(model.m):
        if c.motion == "translation":
            if xpd is None:
                out[..., row:row + 3, :] = -np.eye(3)
        elif xpd is None:
            out[..., row:row + 2, :2] = -np.eye(2)
            out[..., row, 2] = Rb[..., i, 1]            # -d(R b)/dphi = (R b)_y, -(R b)_x
            out[..., row + 1, 2] = -Rb[..., i, 0]
        else:
            out[..., row, 2] = Rb[..., i, 0] * xpd[..., 2]
            out[..., row + 1, 2] = Rb[..., i, 1] * xpd[..., 2]
        row += nax
        if c.orientation[i]:
            if xpd is None:
                out[..., row, 2] = -1.0
            row += 1
    return out


def parallel_A(model: ParallelModel, q: JointVector) -> np.ndarray:
    """The constraint Jacobian :math:`A = \\partial h / \\partial q_t`, (..., k, N).

    Chain i's columns hold its tool Jacobian's closed rows (:func:`~rvc.jacob0`:
    the position rows of the axes, and :math:`\\omega_z` for an orientation
    closure); a point closure puts :math:`J_1` and :math:`-J_i` in block row
    i - 1.  A planar platform's columns are
    :math:`-\\partial (o + R b_i)/\\partial (x, y, \\varphi) =
    -(I_2,\\; (R b_i)^{\\perp})` and :math:`(0, 0, -1)` for an orientation row.

    >>> from rvc.models import fivebar_model
    >>> parallel_A(fivebar_model(), fivebar_model().q_home).shape
    (2, 6)
    """
    q = getarray(q, "q", shape=(model.N,))
    qs, xp = _split(model, q)
    A = _assemble_rows(model, [jacob0(c, qi) for c, qi in zip(model.chains, qs)], q)
    if model.n_platform:
        A[..., model.platform] = _platform_cols(model, xp)
    return A


def parallel_Adot(model: ParallelModel, q: JointVector, qd: JointVector) -> np.ndarray:
    """The constraint Jacobian's time derivative :math:`\\dot A(q_t, \\dot q_t)`, (..., k, N); ``qd`` tree rates.

    The chains' columns from :func:`~rvc.jacob0_dot`; a planar platform's
    :math:`\\varphi` column is :math:`\\dot\\varphi\\, R b_i` (the derivative of
    :math:`-(R b_i)^{\\perp}`).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> parallel_Adot(robot, robot.q_home, np.zeros(6)).any()
    np.False_
    """
    q = getarray(q, "q", shape=(model.N,))
    qd = getarray(qd, "qd", shape=(model.N,))
    qs, xp = _split(model, q)
    qds, xpd = _split(model, qd)
    Ad = _assemble_rows(model, [jacob0_dot(c, qi, qdi) for c, qi, qdi in zip(model.chains, qs, qds)], q)
    if model.n_platform:
        Ad[..., model.platform] = _platform_cols(model, xp, xpd)
    return Ad


def _W_from_A(model, A):
    W = np.zeros(A.shape[:-2] + (model.N, model.n_compact))
    W[..., model.ic, np.arange(model.n_compact)] = 1.0
    W[..., model.ip, :] = -singular_solve(
        A[..., :, model.ip], A[..., :, model.ic], "A_p",
        "the passive rates along the mechanism's free motion are not determined by the compact rates "
        "(W gives the passive rates of least norm)")
    return W


def parallel_W(model: ParallelModel, q: JointVector) -> np.ndarray:
    """The tree rates from the compact ones, :math:`\\dot q_t = W \\dot q_c`, (..., N, n_c).

    .. math:: W = \\begin{pmatrix} I \\\\ -A_p^{-1} A_c \\end{pmatrix}
              \\ \\text{(rows in tree order)}, \\qquad A W = 0 .

    At a type-II singularity (:math:`A_p` singular) W holds the least-norm
    passive rates and a :class:`~rvc.checks.SingularityWarning` says so;
    a ``q`` that does not close the mechanism is refused.

    >>> from rvc.models import fivebar_model
    >>> parallel_W(fivebar_model(), fivebar_model().q_home).shape
    (6, 4)
    """
    return _W_from_A(model, parallel_A(model, _getq(model, q)))


def _rates(model, q, value, name, W=None, lower=None):
    """(compact, tree) rates from compact (..., n_c) or tree (..., N) rates; tree rates must satisfy A v = -lower."""
    v = getarray(value, name)
    if v.ndim >= 1 and v.shape[-1] == model.n_compact and model.n_compact != model.N:
        return v, _mv(parallel_W(model, q) if W is None else W, v) if lower is None else None
    if v.ndim >= 1 and v.shape[-1] == model.N:
        res = _mv(parallel_A(model, q), v) + (0 if lower is None else lower)
        scale = model.reach * (1 + np.abs(v).max(initial=0.0))
        if np.abs(res).max(initial=0.0) > CLOSURE_TOL * scale:
            raise ValueError(f"{name}: expected tree rates ({model.N},) consistent with the closure or "
                             f"compact rates ({model.n_compact},), got a constraint residual of "
                             f"{np.abs(res).max():.3g}")
        return v[..., model.ic], v
    raise ValueError(f"{name}: expected compact rates (..., {model.n_compact}) or tree rates "
                     f"(..., {model.N}), got shape {v.shape}")


def parallel_Wdot(model: ParallelModel, q: JointVector, qd: JointVector) -> np.ndarray:
    """The time derivative of W, (..., N, n_c); ``qd`` compact or tree rates.

    From :math:`A W = 0`: :math:`\\dot W = (0;\\; -A_p^{-1} \\dot A W)`.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> parallel_Wdot(robot, robot.q_home, np.zeros(4)).any()
    np.False_
    """
    q = _getq(model, q)
    A = parallel_A(model, q)
    W = _W_from_A(model, A)
    _, qd_t = _rates(model, q, qd, "qd", W)
    Wd = np.zeros_like(W)
    Wd[..., model.ip, :] = -singular_solve(
        A[..., :, model.ip], parallel_Adot(model, q, qd_t) @ W, "A_p",
        "the passive accelerations along the mechanism's free motion are not determined "
        "(Wdot gives those of least norm)")
    return Wd


def parallel_fkine(model: ParallelModel, q: JointVector) -> np.ndarray:
    """End-effector coordinates (..., n_x): chain 1's tip on the closed axes, or the platform's :math:`x_p`.

    >>> from rvc.models import fivebar_model
    >>> parallel_fkine(fivebar_model(), fivebar_model().q_home).round(4) + 0.0
    array([0. , 0.4])
    """
    q = getarray(q, "q", shape=(model.N,))
    if model.closure.kind == "platform":
        return q[..., model.platform]
    return pose3d(model.chains[0], q[..., model.slices[0]])[..., list(model.closure.axes), 3]


def parallel_points(model: ParallelModel, q: JointVector) -> tuple:
    """Points to draw the mechanism: each chain's frame origins (..., n_i + 1, 3), and the platform's corners.

    Returns ``(chains, platform)``: a list of each chain's
    :meth:`~rvc.kinematics.chain.Chain.fkine_all` origins (base first, tip
    last) in 3-D, and the attachment points in the world (..., m, 3) (None
    for a point closure).

    >>> from rvc.models import rrr3
    >>> robot = rrr3()
    >>> legs, corners = parallel_points(robot, robot.q_home)
    >>> len(legs), legs[0].shape, corners.shape
    (3, (4, 3), (3, 3))
    >>> bool(np.allclose(legs[1][-1], corners[1]))
    True
    """
    q = getarray(q, "q", shape=(model.N,))
    chains = [pose_all[..., :3, 3] for pose_all in
              (_lift(c.fkine_all(q[..., s])) for c, s in zip(model.chains, model.slices))]
    if model.closure.kind != "platform":
        return chains, None
    return chains, _platform_points(model, q[..., model.platform])[0]


def _lift(F):
    """Planar frames (..., 3, 3) as 3-D poses; 3-D poses unchanged."""
    return lift_planar(F) if F.shape[-1] == 3 else F


def _x_jacobian(model, q):
    """:math:`\\partial x / \\partial q_t` (..., n_x, N)."""
    G = np.zeros(q.shape[:-1] + (model.n_x, model.N))
    if model.closure.kind == "platform":
        G[..., model.platform] = np.eye(model.n_platform)
    else:
        G[..., model.slices[0]] = jacob0(model.chains[0], q[..., model.slices[0]])[..., list(model.closure.axes), :]
    return G


def parallel_jacobian(model: ParallelModel, q: JointVector) -> np.ndarray:
    """End-effector Jacobian (..., n_x, n_c): :math:`\\dot x = G \\dot q_c`, :math:`G = (\\partial x/\\partial q_t) W`.

    >>> from rvc.models import fivebar_model
    >>> parallel_jacobian(fivebar_model(), fivebar_model().q_home).shape
    (2, 4)
    """
    q = _getq(model, q)
    return _x_jacobian(model, q) @ parallel_W(model, q)


def _ik_columns(model):
    """The coordinates inverse kinematics solves for: actuated, then passive."""
    return np.concatenate([model.ia, model.ip])


def _ik_matrix(model, q):
    """:math:`\\partial (h, x) / \\partial (q_a, q_p)` (..., k + n_x, n_a + n_p): inverse kinematics' Newton matrix."""
    return np.concatenate([parallel_A(model, q), _x_jacobian(model, q)], -2)[..., :, _ik_columns(model)]


def _inverse_condition(M):
    s = np.linalg.svd(M, compute_uv=False)
    return s[..., -1] / s[..., 0]


def parallel_singularity(model: ParallelModel, q: JointVector, kind: str = "II") -> np.ndarray:
    """Singularity measure (...,): an inverse condition number :math:`\\sigma_{min}/\\sigma_{max}`, 0 if singular.

    ``kind="II"`` (default): of :math:`A_p`, the closure's passive columns.  1
    for well-conditioned passive joints, 0 where :math:`A_p` is singular (the
    mechanism gains a free motion with its actuators and springs held, and W,
    the compact model and the multipliers lose a direction).

    ``kind="I"``: of :math:`\\partial(h, x)/\\partial(q_a, q_p)`, the matrix
    inverse kinematics solves with (springs held).  It is singular where the
    actuated and passive joints can move with the end-effector held -- a
    chain stretched out or folded back, the workspace's edge, where the
    motors lose a direction of motion.  (The end-effector rows of the
    platform's own coordinates are the identity, so a type-II singularity
    does not make it singular.)

    The columns mix units (radians, metres), so compare values of one mechanism.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> 0 < float(parallel_singularity(robot, robot.q_home)) < 1
    True
    >>> 0 < float(parallel_singularity(robot, robot.q_home, kind="I")) < 1
    True
    """
    kind = getoption(kind, "kind", ("I", "II"))
    q = getarray(q, "q", shape=(model.N,))
    if kind == "I":
        return _inverse_condition(_ik_matrix(model, q))
    return _inverse_condition(parallel_A(model, q)[..., :, model.ip])


@dataclass(frozen=True, repr=False, eq=False)
class SingularityMap(Result):
    """Assembly and singularity measures over a grid of end-effector coordinates (:func:`parallel_singularity_map`).

    ``x`` the grid (..., n_x); ``assembled`` (...) where inverse kinematics
    closed the mechanism (on the branch of ``model.q_home``); ``type1``,
    ``type2`` the two measures of :func:`parallel_singularity` there (NaN
    elsewhere); ``q`` the tree coordinates (..., N) (NaN elsewhere).
    """

    unpack = ("assembled", "type1", "type2")
    x: np.ndarray
    assembled: np.ndarray
    type1: np.ndarray
    type2: np.ndarray
    q: np.ndarray


def _newton_masked(model, q, target, tol=1e-12, maxiter=30):
    """Batched Newton on (h, x - target) = 0 for the actuated and passive coordinates; q (B, N) in place.

    Returns where it converged (B,): no error for the points that do not (out of reach).
    """
    unknown = _ik_columns(model)
    done = np.zeros(len(q), dtype=bool)
    for _ in range(maxiter):
        r = np.concatenate([parallel_h(model, q), parallel_fkine(model, q) - target], -1)
        done = np.abs(r).max(-1) <= tol * model.reach
        todo = ~done & np.isfinite(r).all(-1)
        if not todo.any():
            break
        J = _ik_matrix(model, q[todo])
        try:
            step = np.linalg.solve(J, r[todo][..., None])[..., 0]
        except np.linalg.LinAlgError:
            step = (np.linalg.pinv(J) @ r[todo][..., None])[..., 0]
        q[np.ix_(todo, unknown)] -= step
    return done


def parallel_singularity_map(model: ParallelModel, grid: ArrayLike, qe: JointVector | None = None
                             ) -> SingularityMap:
    """Assemble the mechanism over a grid of end-effector coordinates and measure both singularity types there.

    ``grid`` (n_1, n_x) or (n_1, n_2, n_x): end-effector coordinates
    (:func:`parallel_fkine`'s), elastic coordinates ``qe`` (default 0).  Inverse
    kinematics runs by continuation, so that every point keeps the branch of
    ``model.q_home``: from the grid point nearest home along the first grid
    axis, then from there along the second, each step batched over the other
    axis and started from its neighbour's solution (a row whose point on that
    first line failed, from the nearest one that did not).  A point where
    Newton's method does not close the mechanism (out of reach, or across a
    type-I singularity from the branch) is not ``assembled``, and the next
    starts from the last one that was.  A grid whose line through the point
    nearest home assembles nowhere is a ``ValueError``.

    >>> from rvc.models import rrr3
    >>> robot = rrr3()
    >>> xs = np.linspace(-0.3, 0.3, 7)
    >>> grid = np.stack([xs, np.zeros(7), np.zeros(7)], -1)      # a line through home
    >>> smap = parallel_singularity_map(robot, grid)
    >>> smap.assembled                   # the legs reach 0.1 m either side of home on this line
    array([False, False,  True,  True,  True, False, False])
    >>> bool(np.all(smap.type2[2:5] > 0)), bool(np.isnan(smap.type1[0]))
    (True, True)
    """
    grid = getarray(grid, "grid")
    if grid.ndim not in (2, 3) or grid.shape[-1] != model.n_x or 0 in grid.shape:
        raise ValueError(f"grid: expected end-effector coordinates of shape (n1, {model.n_x}) or "
                         f"(n1, n2, {model.n_x}), got shape {grid.shape}")
    if model.q_home is None:
        raise ValueError("model: expected a model with q_home (the branch to follow), got none")
    qe = np.zeros(len(model.ie)) if qe is None else getarray(qe, "qe", shape=(len(model.ie),), batch=False)
    X = grid if grid.ndim == 3 else grid[:, None]
    n1, n2 = X.shape[:2]
    home = parallel_fkine(model, model.q_home)
    i0, j0 = np.unravel_index(np.argmin(np.linalg.norm(X - home, axis=-1)), (n1, n2))
    q = np.full((n1, n2, model.N), np.nan)
    ok = np.zeros((n1, n2), dtype=bool)
    start = np.array(model.q_home)
    start[model.ie] = qe

    def march(line, guess, count, origin):
        """Continuation along the first axis of ``line`` (count, B, n_x) from index ``origin``."""
        qs, oks = np.full(line.shape[:2] + (model.N,), np.nan), np.zeros(line.shape[:2], dtype=bool)
        for order in (range(origin, count), range(origin - 1, -1, -1)):
            last = np.array(guess)
            for i in order:
                trial = np.array(last)
                done = _newton_masked(model, trial, line[i])
                qs[i, done], oks[i] = trial[done], done
                last[done] = trial[done]
        return qs, oks

    col, col_ok = march(X[:, j0][:, None], start[None], n1, i0)          # along the first axis
    q[:, j0], ok[:, j0] = col[:, 0], col_ok[:, 0]
    reached = np.flatnonzero(col_ok[:, 0])
    if len(reached) == 0:
        raise ValueError("grid: expected grid points the mechanism reaches on home's branch, but it "
                         "assembles at none of the points nearest home along the first axis")
    nearest = reached[np.argmin(np.abs(np.arange(n1)[:, None] - reached), axis=1)]
    seed = col[nearest, 0]                        # a row whose first point failed starts from the nearest that did
    rows, rows_ok = march(np.swapaxes(X, 0, 1), seed, n2, j0)           # then along the second
    q, ok = np.swapaxes(rows, 0, 1), np.swapaxes(rows_ok, 0, 1) & np.isfinite(rows).all(-1).T
    t1, t2 = np.full((n1, n2), np.nan), np.full((n1, n2), np.nan)
    if ok.any():
        t1[ok] = parallel_singularity(model, q[ok], kind="I")
        t2[ok] = parallel_singularity(model, q[ok], kind="II")
    shape = grid.shape[:-1]
    return SingularityMap(grid, ok.reshape(shape), t1.reshape(shape), t2.reshape(shape),
                          q.reshape(shape + (model.N,)))


def _newton(model, q, unknown, target=None, tol=1e-13, maxiter=50, name="qa, qe"):
    """Newton's method on h = 0 (and x = target) for the coordinates ``unknown``; q (..., N), in place."""
    for _ in range(maxiter):
        r = parallel_h(model, q)
        if target is not None:
            r = np.concatenate([r, parallel_fkine(model, q) - target], -1)
        if np.abs(r).max(initial=0.0) <= tol * model.reach:
            return q
        J = parallel_A(model, q)
        if target is not None:
            J = np.concatenate([J, _x_jacobian(model, q)], -2)
        try:
            step = np.linalg.solve(J[..., :, unknown], r[..., None])[..., 0]
        except np.linalg.LinAlgError:
            break
        q[..., unknown] -= step
    raise ValueError(f"{name}: the closure does not assemble from this guess (residual "
                     f"{np.abs(r).max():.3g} after Newton's method: out of reach, or start nearer)")


def _assemble_batch(model, qa, qe, guess=None):
    """:func:`parallel_assemble` over leading dimensions (no checks): the simulations' and moves' step."""
    qa, qe = np.asarray(qa, dtype=float), np.asarray(qe, dtype=float)
    guess = model.q_home if guess is None else np.asarray(guess, dtype=float)
    batch = np.broadcast_shapes(qa.shape[:-1], qe.shape[:-1], guess.shape[:-1])
    q = np.array(np.broadcast_to(guess, batch + (model.N,)))
    q[..., model.ia], q[..., model.ie] = qa, qe
    return _newton(model, q, model.ip)


def parallel_assemble(model: ParallelModel, qa: JointVector, qe: JointVector, guess: JointVector | None = None,
                      tol: float = 1e-13, maxiter: int = 50) -> JointVector:
    """Tree coordinates (..., N) from actuated and elastic coordinates: Newton's method on h = 0.

    The passive coordinates start from ``guess`` (tree coordinates, default
    ``model.q_home`` or 0) and follow :math:`\\Delta q_p = -A_p^{-1} h`; the
    branch (elbows up or down) is the guess's.  A closure that cannot
    assemble is a ``ValueError``.  Batched over the leading dimensions of
    ``qa``, ``qe`` and ``guess`` (broadcast together).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> q = parallel_assemble(robot, robot.q_home[[0, 3]], [0.01, 0.0])
    >>> float(np.abs(robot.h(q)).max()) < 1e-12
    True
    >>> parallel_assemble(robot, robot.q_home[[0, 3]], [[0.01, 0.0], [0.0, 0.01]]).shape
    (2, 6)
    """
    qa = getarray(qa, "qa", shape=(len(model.ia),))
    qe = getarray(qe, "qe", shape=(len(model.ie),))
    if guess is None:
        guess = model.q_home if model.q_home is not None else np.zeros(model.N)
    guess = getarray(guess, "guess", shape=(model.N,))
    try:
        batch = np.broadcast_shapes(qa.shape[:-1], qe.shape[:-1], guess.shape[:-1])
    except ValueError:
        raise ValueError(f"qa, qe, guess: expected leading dimensions that broadcast, got shapes {qa.shape}, "
                         f"{qe.shape}, {guess.shape}") from None
    q = np.array(np.broadcast_to(guess, batch + (model.N,)))
    q[..., model.ia], q[..., model.ie] = qa, qe
    q = _newton(model, q, model.ip, tol=tol, maxiter=maxiter)
    if np.any(parallel_singularity(model, q) < 1e-8):
        warn_singular("assemble: A_p is singular here (a type-II singularity): the passive coordinates "
                      "are not unique nearby")
    return q


def parallel_ikine(model: ParallelModel, x: ArrayLike, qe: JointVector | None = None,
                   guess: JointVector | None = None, tol: float = 1e-13, maxiter: int = 50) -> JointVector:
    """Tree coordinates (N,) putting the end-effector at ``x`` (n_x,) with elastic coordinates ``qe`` (default 0).

    Newton's method on :math:`(h(q), x(q) - x) = 0` for the actuated and
    passive coordinates, from ``guess`` (default ``model.q_home``), whose
    branch it keeps.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> q = parallel_ikine(robot, [0.02, 0.38])
    >>> robot.fkine(q).round(12) + 0.0
    array([0.02, 0.38])
    """
    x = getarray(x, "x", shape=(model.n_x,), batch=False)
    qe = np.zeros(len(model.ie)) if qe is None else getarray(qe, "qe", shape=(len(model.ie),), batch=False)
    if guess is None:
        guess = model.q_home if model.q_home is not None else np.zeros(model.N)
    q = np.array(getarray(guess, "guess", shape=(model.N,), batch=False))
    q[model.ie] = qe
    unknown = np.concatenate([model.ia, model.ip])
    return _newton(model, q, unknown, target=x, tol=tol, maxiter=maxiter, name="x")


# -------------------------------------------------------------------- dynamics
def _platform_mass(model):
    c = model.closure
    return np.diag([c.mass] * 3) if c.motion == "translation" else np.diag([c.mass, c.mass, c.inertia])


def _platform_gravity(model):
    c, g = model.closure, model.gravity
    return -c.mass * g if c.motion == "translation" else np.array([-c.mass * g[0], -c.mass * g[1], 0.0])


def _tree_inertia(model, q):
    M = np.zeros(q.shape[:-1] + (model.N, model.N))
    for c, s in zip(model.chains, model.slices):
        M[..., s, s] = inertia(c, q[..., s])
    if model.n_platform:
        M[..., model.platform, model.platform] = _platform_mass(model)
    return M


def _tree_gravity(model, q):
    eta = np.zeros(q.shape[:-1] + (model.N,))
    for c, s in zip(model.chains, model.slices):
        eta[..., s] = gravload(c, q[..., s], gravity=model.gravity)
    if model.n_platform:
        eta[..., model.platform] = _platform_gravity(model)
    return eta


def _tree_lhs(model, q, qd, qdd):
    """:math:`M_t\\ddot q + C_t\\dot q + \\eta_t + K_t q + D_t \\dot q` (..., N): each chain's rne, the platform."""
    out = np.zeros(np.broadcast_shapes(q.shape, qd.shape, qdd.shape))
    for c, s in zip(model.chains, model.slices):
        out[..., s] = rne(c, q[..., s], qd[..., s], qdd[..., s], gravity=model.gravity)
    if model.n_platform:
        out[..., model.platform] = _mv(_platform_mass(model), qdd[..., model.platform]) + _platform_gravity(model)
    return out + q * model.stiffness + qd * model.damping


def parallel_compact(model: ParallelModel, q: JointVector, qd: JointVector) -> CompactModel:
    """The compact model (Lagrange-D'Alembert projection of the tree), ``qd`` compact or tree rates.

    .. math:: M_c = W^T M_t W, \\quad C_c = W^T C_t W + W^T M_t \\dot W, \\quad
              \\eta_c = W^T \\eta_t, \\quad K_c = W^T K_t W, \\quad D_c = W^T D_t W

    with :math:`M_t, C_t, \\eta_t` block-diagonal from
    :func:`~rvc.dynamics.inertia`, :func:`~rvc.dynamics.coriolis` and
    :func:`~rvc.dynamics.gravload` of each chain and the platform's rigid body.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> parallel_compact(robot, robot.q_home, np.zeros(4)).K.diagonal()
    array([  0., 500.,   0., 500.])
    """
    q = _getq(model, q)
    W = parallel_W(model, q)
    qd_c, qd_t = _rates(model, q, qd, "qd", W)
    Wd = parallel_Wdot(model, q, qd_t)
    Wt = np.swapaxes(W, -1, -2)
    Mt = _tree_inertia(model, q)
    Ct = np.zeros(np.broadcast_shapes(q.shape, qd_t.shape)[:-1] + (model.N, model.N))
    for c, s in zip(model.chains, model.slices):
        Ct[..., s, s] = coriolis(c, q[..., s], qd_t[..., s])
    return CompactModel(M=Wt @ Mt @ W, C=Wt @ Ct @ W + Wt @ Mt @ Wd, eta=_mv(Wt, _tree_gravity(model, q)),
                        K=Wt @ model.K_t @ W, D=Wt @ model.D_t @ W)


def parallel_idyn(model: ParallelModel, q: JointVector, qd: JointVector, qdd: JointVector, method: str = "lda", *,
                  multipliers: bool = False) -> JointVector | tuple[JointVector, np.ndarray]:
    """Generalized forces on the compact coordinates (n_c,) for a motion; ``qd``, ``qdd`` compact or tree.

    With the tree's left-hand side :math:`\\ell = M_t\\ddot q_t + C_t\\dot q_t
    + \\eta_t + K_t q_t + D_t \\dot q_t` (each chain's :func:`~rvc.dynamics.rne`):

    * ``"lagrange"`` -- first kind: :math:`\\lambda = A_p^{-T} \\ell_p`,
      :math:`\\tau_c = \\ell_c - A_c^T \\lambda`;
    * ``"lda"`` -- Lagrange-D'Alembert: :math:`\\tau_c = W^T \\ell`;
    * ``"compact"`` -- :math:`M_c\\ddot q_c + C_c\\dot q_c + \\eta_c + K_c q_c + D_c\\dot q_c`.

    ``multipliers=True`` also returns :math:`\\lambda` (``lagrange``; None otherwise).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> tau = parallel_idyn(robot, robot.q_home, np.zeros(4), np.zeros(4))
    >>> bool(np.allclose(tau, parallel_idyn(robot, robot.q_home, np.zeros(4), np.zeros(4), "lagrange")))
    True
    """
    method = getoption(method, "method", INVERSE_METHODS)
    q = _getq(model, q)
    W = parallel_W(model, q)
    qd_c, qd_t = _rates(model, q, qd, "qd", W)
    Wd = parallel_Wdot(model, q, qd_t)
    lower = _mv(parallel_Adot(model, q, qd_t), qd_t)
    qdd_c, qdd_t = _rates(model, q, qdd, "qdd", W, lower=lower)
    if qdd_t is None:
        qdd_t = _mv(W, qdd_c) + _mv(Wd, qd_c)
    if method == "compact":
        cm = parallel_compact(model, q, qd_t)
        tau = (_mv(cm.M, qdd_c) + _mv(cm.C, qd_c) + cm.eta + _mv(cm.K, q[..., model.ic]) + _mv(cm.D, qd_c))
        return (tau, None) if multipliers else tau
    lhs = _tree_lhs(model, q, qd_t, qdd_t)
    if method == "lda":
        tau = _mtv(W, lhs)
        return (tau, None) if multipliers else tau
    A = parallel_A(model, q)
    ApT = np.swapaxes(A[..., :, model.ip], -1, -2)
    lam = singular_solve(ApT, lhs[..., model.ip, None], "A_p^T",
                         "the cut force along the singular direction loads no passive joint (lambda is "
                         "the least-norm multiplier)")[..., 0]
    tau = lhs[..., model.ic] - _mtv(A[..., :, model.ic], lam)
    return (tau, lam) if multipliers else tau


def _tau_tree(model, tau, batch):
    tau = getarray(tau, "tau")
    if tau.ndim == 0 or tau.shape[-1] not in (len(model.ia), model.n_compact):
        raise ValueError(f"tau: expected actuated forces (..., {len(model.ia)}) or compact forces "
                         f"(..., {model.n_compact}), got shape {tau.shape}")
    out = np.zeros(np.broadcast_shapes(batch, tau.shape[:-1]) + (model.N,))
    out[..., model.ia if tau.shape[-1] == len(model.ia) else model.ic] = tau
    return out


@dataclass(frozen=True, repr=False, eq=False)
class TreeTerms(Result):
    """One state of the tree evaluated for the forward dynamics (:func:`parallel_tree_terms`).

    ``M`` (..., N, N) the tree's block-diagonal inertia, ``bias`` (..., N)
    :math:`b_t = C_t\\dot q_t + \\eta_t + K_t q_t + D_t\\dot q_t`, ``A`` (..., k, N),
    ``Adqd`` (..., k) :math:`\\dot A\\dot q_t`, ``tau`` (..., N) the tree's generalized forces
    (drives and the end-effector load).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> parallel_tree_terms(robot, robot.q_home, np.zeros(4), [0.5, -0.5]).M.shape
    (6, 6)
    """

    M: np.ndarray
    bias: np.ndarray
    A: np.ndarray
    Adqd: np.ndarray
    tau: np.ndarray


def parallel_tree_terms(model: ParallelModel, q: JointVector, qd: JointVector, tau: ArrayLike, *,
                        f_ext: ArrayLike | None = None) -> TreeTerms:
    """Evaluate the tree once for :func:`parallel_solve_forward`: the step the three forward methods share.

    Each chain's :func:`~rvc.dynamics.inertia` and :func:`~rvc.dynamics.rne` (at zero
    acceleration: the bias), the platform's rigid body, the springs and dampers, the
    constraint Jacobian A and :math:`\\dot A\\dot q_t`, and the tree forces: ``tau``
    (actuated (n_a,) or compact (n_c,)) plus :math:`(\\partial x/\\partial q_t)^T f_{ext}`.
    ``qd`` compact or tree rates.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> t = parallel_tree_terms(robot, robot.q_home, np.zeros(4), [0.5, -0.5])
    >>> t.A.shape, t.tau[robot.ia]
    ((2, 6), array([ 0.5, -0.5]))
    """
    q = _getq(model, q)
    A = parallel_A(model, q)
    W = _W_from_A(model, A)
    qd_c, qd_t = _rates(model, q, qd, "qd", W)
    tau_t = _tau_tree(model, tau, q.shape[:-1])
    if f_ext is not None:
        f_ext = getarray(f_ext, "f_ext", shape=(model.n_x,))
        tau_t = tau_t + _mtv(_x_jacobian(model, q), f_ext)
    bias = _tree_lhs(model, q, qd_t, np.zeros_like(qd_t))
    return TreeTerms(_tree_inertia(model, q), bias, A, _mv(parallel_Adot(model, q, qd_t), qd_t), tau_t)


def _bodies(model):
    """The tree's bodies as slices of the tree coordinates: each chain, then the platform."""
    return list(model.slices) + ([model.platform] if model.n_platform else [])


def parallel_solve_forward(model: ParallelModel, terms: TreeTerms, method: str = "compact") -> JointVector:
    """Tree accelerations (..., N) from an evaluated tree (:func:`parallel_tree_terms`): the linear algebra alone.

    With :math:`f = \\tau_t - b_t` and the bodies of the tree (each chain, the platform):

    * ``"compact"`` -- one solve with :math:`A_p` gives W's passive rows and
      :math:`\\dot W\\dot q_c`: :math:`A_p [X\\; y] = [A_c\\; \\dot A\\dot q_t]`, then
      :math:`M_c = \\sum_i W_i^T M_i W_i`, :math:`r = \\sum_i W_i^T(f_i - M_i \\dot W_i\\dot q_c)`
      body by body, one :math:`n_c \\times n_c` solve :math:`M_c\\ddot q_c = r` and
      :math:`\\ddot q_t = W\\ddot q_c + \\dot W\\dot q_c`;
    * ``"kkt"`` -- one (N + k) solve,
      :math:`\\begin{pmatrix} M_t & -A^T \\\\ A & 0 \\end{pmatrix}
      \\begin{pmatrix}\\ddot q_t \\\\ \\lambda\\end{pmatrix} =
      \\begin{pmatrix} f \\\\ -\\dot A\\dot q_t\\end{pmatrix}`;
    * ``"scdd"`` -- per body one solve :math:`M_i [\\ddot q_i^0\\; Y_i] = [f_i\\; A_i^T]`,
      then :math:`(\\sum_i A_i Y_i)\\lambda = -\\dot A\\dot q_t - \\sum_i A_i \\ddot q_i^0` and
      :math:`\\ddot q_i = \\ddot q_i^0 + Y_i\\lambda` (each body's :math:`M_i` must be invertible:
      a chain ending in a massless link needs ``"compact"`` or ``"kkt"``).

    :func:`parallel_operation_counts` counts the floating-point operations of exactly these steps.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> t = parallel_tree_terms(robot, robot.q_home, np.zeros(4), [0.5, -0.5])
    >>> bool(np.allclose(parallel_solve_forward(robot, t, "scdd"), parallel_solve_forward(robot, t, "kkt")))
    True
    """
    method = getoption(method, "method", FORWARD_METHODS)
    if not isinstance(terms, TreeTerms):
        raise TypeError(f"terms: expected the TreeTerms of parallel_tree_terms, got {type(terms).__name__}")
    Mt, A, Adqd = terms.M, terms.A, terms.Adqd
    f = terms.tau - terms.bias
    if method == "compact":
        nc = model.n_compact
        X = singular_solve(A[..., :, model.ip], np.concatenate([A[..., :, model.ic], Adqd[..., None]], -1), "A_p",
                           "the passive rates and accelerations along the mechanism's free motion are not "
                           "determined by the compact rates (those of least norm are used)")
        W = np.zeros(A.shape[:-2] + (model.N, nc))
        W[..., model.ic, np.arange(nc)] = 1.0
        W[..., model.ip, :] = -X[..., :nc]
        Wd_qd = np.zeros(f.shape)
        Wd_qd[..., model.ip] = -X[..., nc]
        Mc, rhs = 0.0, 0.0
        for s in _bodies(model):
            Wi, Mi = W[..., s, :], Mt[..., s, s]
            WiT = np.swapaxes(Wi, -1, -2)
            Mc = Mc + (WiT @ Mi) @ Wi
            rhs = rhs + _mv(WiT, f[..., s] - _mv(Mi, Wd_qd[..., s]))
        qdd_c = np.linalg.solve(Mc, rhs[..., None])[..., 0]
        return _mv(W, qdd_c) + Wd_qd
    if method == "kkt":
        n, k = model.N, model.k
        KKT = np.zeros(Mt.shape[:-2] + (n + k, n + k))
        KKT[..., :n, :n] = Mt
        KKT[..., :n, n:] = -np.swapaxes(A, -1, -2)
        KKT[..., n:, :n] = A
        rhs = np.concatenate([f, -Adqd], -1)
        return np.linalg.solve(KKT, rhs[..., None])[..., :n, 0]
    free, resp, schur, rhs = [], [], 0.0, -Adqd
    for i, s in enumerate(_bodies(model)):
        Ai = A[..., :, s]
        try:
            sol = np.linalg.solve(Mt[..., s, s], np.concatenate([f[..., s, None], np.swapaxes(Ai, -1, -2)], -1))
        except np.linalg.LinAlgError:
            raise ValueError(f"method: 'scdd' factors each body's mass matrix alone, and body {i + 1}'s is "
                             "singular (a massless link); use 'compact' or 'kkt'") from None
        free.append(sol[..., 0])
        resp.append(sol[..., 1:])
        schur = schur + Ai @ sol[..., 1:]
        rhs = rhs - _mv(Ai, sol[..., 0])
    lam = singular_solve(schur, rhs[..., None], "A M^-1 A^T",
                         "the constraint force along the singular direction is not determined")[..., 0]
    return np.concatenate([q0 + _mv(Y, lam) for q0, Y in zip(free, resp)], -1)


def parallel_fdyn(model: ParallelModel, q: JointVector, qd: JointVector, tau: ArrayLike, method: str = "compact", *,
                  f_ext: ArrayLike | None = None) -> JointVector:
    """Tree accelerations (N,) from drive forces ``tau`` (actuated (n_a,) or compact (n_c,)) and an end-effector load.

    ``f_ext`` (n_x,) is the generalized force the environment applies to the
    end-effector coordinates (a force at chain 1's tip, or the platform's
    :math:`(f_x, f_y, m_z)` or :math:`(f_x, f_y, f_z)`), entering as
    :math:`(\\partial x/\\partial q_t)^T f_{ext}`.  The tree is evaluated once
    (:func:`parallel_tree_terms`) and solved by ``method``
    (:func:`parallel_solve_forward`): ``"compact"`` (the compact model
    :math:`M_c\\ddot q_c = W^T(\\tau_t - b_t - M_t\\dot W\\dot q_c)`), ``"kkt"``
    (Lagrange's equations of the first kind as one system) or ``"scdd"`` (per
    body, then the constraint forces from a k x k system).

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> a = parallel_fdyn(robot, robot.q_home, np.zeros(4), [0.5, -0.5])
    >>> bool(np.allclose(a, parallel_fdyn(robot, robot.q_home, np.zeros(4), [0.5, -0.5], "kkt")))
    True
    """
    method = getoption(method, "method", FORWARD_METHODS)
    return parallel_solve_forward(model, parallel_tree_terms(model, q, qd, tau, f_ext=f_ext), method)


def parallel_energy(model: ParallelModel, q: JointVector, qd: JointVector) -> tuple:
    """Kinetic and potential energy (T, V) of the mechanism; V holds gravity and the springs.

    Each chain's :func:`~rvc.dynamics.energy`, the springs' :math:`\\frac12 q^T K_t q`
    and the platform's :math:`\\frac12 \\dot x_p^T M_p \\dot x_p` and :math:`-m g^T o`.

    >>> from rvc.models import fivebar_model
    >>> robot = fivebar_model()
    >>> T, V = parallel_energy(robot, robot.q_home, np.zeros(4))
    >>> float(T)
    0.0
    """
    q = _getq(model, q)
    _, qd_t = _rates(model, q, qd, "qd")
    T = V = 0.0
    for c, s in zip(model.chains, model.slices):
        e = energy(c, q[..., s], qd_t[..., s], gravity=model.gravity)
        T, V = T + e.kinetic, V + e.potential
    V = V + 0.5 * np.sum(model.stiffness * q * q, -1)
    if model.n_platform:
        xpd = qd_t[..., model.platform]
        T = T + 0.5 * np.einsum("...i,ij,...j->...", xpd, _platform_mass(model), xpd)
        o = q[..., model.platform] if model.closure.motion == "translation" else np.concatenate(
            [q[..., model.platform][..., :2], np.zeros(q.shape[:-1] + (1,))], -1)
        V = V - model.closure.mass * o @ model.gravity
    return T, V


# ------------------------------------------------------------ elastic behaviour
def parallel_deflection(model: ParallelModel, x: ArrayLike | None = None, guess: JointVector | None = None
                        ) -> StaticDeflection:
    """Spring deflections and end-effector displacement at the gravity equilibrium, the motors held.

    The motors hold the actuated coordinates of the undeflected mechanism at
    ``x`` (default the home pose, ``model.q_home``); the elastic rows of the
    compact model at rest, :math:`[W^T(\\eta_t + K_t q_t)]_e = 0`, are solved
    for the elastic coordinates (from 0), the passive ones following by
    :func:`parallel_assemble`.

    >>> from rvc.models import fivebar_model
    >>> s = parallel_deflection(fivebar_model())
    >>> (s.displacement * 1e3).round(3) + 0.0      # mm
    array([ 0.   , -0.459])
    """
    q0 = (model.q_home if x is None else parallel_ikine(model, x, guess=guess))
    x0 = parallel_fkine(model, q0)
    qa = q0[model.ia]

    def residual(e):
        q = parallel_assemble(model, qa, e, guess=q0)
        return (_mtv(parallel_W(model, q), _tree_gravity(model, q) + model.stiffness * q))[model.ce]

    e0 = np.zeros(len(model.ie))
    sol = scipy.optimize.root(residual, e0, tol=1e-12)
    scale = np.abs(residual(e0)).max() + 1e-300
    if np.abs(residual(sol.x)).max() > 1e-9 * scale:
        raise ValueError(f"x: no static equilibrium found near the undeflected pose ({sol.message}); "
                         "are the springs stiff enough to carry the weight?")
    q = parallel_assemble(model, qa, sol.x, guess=q0)
    return StaticDeflection(sol.x, parallel_fkine(model, q) - x0, q)


def parallel_modes(model: ParallelModel, x: ArrayLike | None = None, guess: JointVector | None = None) -> Modes:
    """Elastic modes with the motors locked, about the undeflected mechanism at ``x`` (default home).

    The elastic blocks of the compact model, :math:`M_{ee}\\ddot e + D_{ee}\\dot e +
    K_{ee} e = 0` (gravity's small stiffness left out): :math:`K_{ee}\\phi =
    \\omega^2 M_{ee}\\phi` gives :math:`f = \\omega/2\\pi` (ascending) and shapes
    (columns, largest entry +1), :math:`\\zeta = \\phi^T D_{ee}\\phi / (2\\omega\\,\\phi^T M_{ee}\\phi)`.

    >>> from rvc.models import fivebar_model
    >>> m = parallel_modes(fivebar_model())
    >>> m.frequency.round(2), m.damping.round(4)
    (array([24.67, 28.96]), array([0.0155, 0.0182]))
    """
    if len(model.ie) == 0:
        raise ValueError(f"model: expected elastic joints for modes, got roles {model.roles!r}")
    q = model.q_home if x is None else parallel_ikine(model, x, guess=guess)
    cm = parallel_compact(model, q, np.zeros(model.n_compact))
    e = model.ce
    return locked_modes(*(X[np.ix_(e, e)] for X in (cm.M, cm.K, cm.D)), q)


def _x_dot_qd(model, q, qd_t):
    """:math:`\\frac{d}{dt}(\\partial x/\\partial q_t)\\, \\dot q_t` (..., n_x); zero for a platform's coordinates."""
    if model.closure.kind == "platform":
        return np.zeros(q.shape[:-1] + (model.n_x,))
    s = model.slices[0]
    return _mv(jacob0_dot(model.chains[0], q[..., s], qd_t[..., s])[..., list(model.closure.axes), :], qd_t[..., s])


def parallel_rigid_plan(model: ParallelModel, x0: ArrayLike, x1: ArrayLike, duration: float,
                        t: ArrayLike) -> RigidPlan:
    """The rigid model's motion and compact forces for a quintic end-effector move from x0 to x1 (n_x,).

    Springs locked (:math:`e = \\dot e = \\ddot e = 0`): the tree coordinates from
    :func:`parallel_ikine` at each sample (each from the last, so the branch is kept), the
    actuated rates from the actuated columns of the end-effector Jacobian,
    :math:`G_a\\dot a = \\dot x`, the accelerations from :math:`G_a\\ddot a = \\ddot x - \\ddot x_0`
    (:math:`\\ddot x_0` the end-effector acceleration with :math:`\\ddot q_c = 0`, from
    :math:`\\dot W\\dot q_c`), and the compact forces from :func:`parallel_idyn` (actuated entries:
    the feedforward torques).  What :func:`~rvc.parallel.rigid_plan` returns for a
    :class:`~rvc.parallel.FiveBar`, for any model, and what
    :func:`~rvc.parallel.simulate_move` and :func:`~rvc.parallel.linear_move` use for a ParallelModel.

    >>> from rvc.models import rrr3
    >>> plan = parallel_rigid_plan(rrr3(), (0.0, 0.0, 0.0), (0.03, 0.0, 0.0), 0.2, np.linspace(0, 0.2, 5))
    >>> plan.q.shape, plan.tau.shape, plan.x[2]
    ((5, 12), (5, 6), array([0.015, 0.   , 0.   ]))
    """
    t = getvector(t, "t")
    x0 = getarray(x0, "x0", shape=(model.n_x,), batch=False)
    x1 = getarray(x1, "x1", shape=(model.n_x,), batch=False)
    x, xd, xdd = quintic(x0, x1, duration, t)
    q = np.empty(t.shape + (model.N,))
    guess = model.q_home
    for i, xi in enumerate(x):                 # continuation along the path keeps the branch
        if i and np.array_equal(xi, x[i - 1]):
            q[i] = q[i - 1]
            continue
        try:
            q[i] = guess = parallel_ikine(model, xi, guess=guess)
        except ValueError:
            raise ValueError(f"x0, x1: expected a straight move the mechanism can follow, but it does not "
                             f"assemble at t = {t[i]:g} s, x = {xi}; choose nearer points") from None
    Ga = parallel_jacobian(model, q)[..., :, model.ca]
    qd = np.zeros(t.shape + (model.n_compact,))
    qd[..., model.ca] = np.linalg.solve(Ga, xd[..., None])[..., 0]
    qd_t = _mv(parallel_W(model, q), qd)
    xdd0 = _mv(_x_jacobian(model, q), _mv(parallel_Wdot(model, q, qd), qd)) + _x_dot_qd(model, q, qd_t)
    qdd = np.zeros_like(qd)
    qdd[..., model.ca] = np.linalg.solve(Ga, (xdd - xdd0)[..., None])[..., 0]
    return RigidPlan(t, x, xd, xdd, q, qd, qdd, parallel_idyn(model, q, qd, qdd, "lda"))


def parallel_operation_counts(model: ParallelModel) -> dict:
    """Floating-point operations of :func:`parallel_solve_forward`'s three methods, from the sizes they form.

    Every step of the solve on an evaluated tree, with N tree and :math:`n_c` compact coordinates,
    k closure conditions, :math:`n_p` passive coordinates and the bodies of the tree (each chain's
    :math:`n_i` joints, the platform's coordinates); an LU of n x n costs :math:`\\frac23 n^3`
    (its leading term; a determinant is one LU), a solve with r right-hand sides on it
    :math:`2n^2 r`, a product of (a x b) and (b x c) matrices :math:`2abc`, adding two arrays
    their size:

    * ``compact``: :math:`f = \\tau - b` (N); the singularity check of :math:`A_p` (one LU) and
      one LU solve with :math:`n_c + 1` right-hand sides; per body :math:`W_i^T M_i`
      (:math:`2 n_c n_i^2`), its product with :math:`W_i` (:math:`2 n_c^2 n_i`), the sum into
      :math:`M_c` (:math:`n_c^2`), :math:`M_i \\dot W_i\\dot q_c` (:math:`2n_i^2`), the difference
      (:math:`n_i`), :math:`W_i^T(\\cdot)` (:math:`2n_c n_i`) and its sum (:math:`n_c`); the
      :math:`n_c` LU and solve; :math:`W\\ddot q_c + \\dot W\\dot q_c` (:math:`2Nn_c + N`);
    * ``kkt``: f (N), one (N + k) LU and solve;
    * ``scdd``: f (N); per body one LU solve with 1 + k right-hand sides, :math:`A_i Y_i`
      (:math:`2k^2n_i`) and its sum (:math:`k^2`), :math:`A_i\\ddot q_i^0` (:math:`2kn_i`) and
      its sum (k), :math:`\\ddot q_i^0 + Y_i\\lambda` (:math:`2kn_i + n_i`); the k x k singularity
      check (one LU), LU and solve.

    ``factor_*`` count only the factorizations that invert the inertia (the source's measure):
    one :math:`n_c` LU (compact), one N + k LU (KKT), one LU per body and the k x k one
    (per chain).  ``tests/parallel`` checks the counts of a small loop against a hand count.

    >>> from rvc.models import rrr3
    >>> c = parallel_operation_counts(rrr3())
    >>> c["factor_compact"], c["factor_kkt"]          # one 6 x 6 LU; one 18 x 18 LU
    (144.0, 3888.0)
    """
    lu = lambda n: 2 * n ** 3 / 3                      # noqa: E731
    sizes = [s.stop - s.start for s in _bodies(model)]
    N, nc, k, npas = model.N, model.n_compact, model.k, len(model.ip)
    compact = (N + 2 * lu(npas) + 2 * npas ** 2 * (nc + 1)
               + sum(2 * nc * n * n + 2 * nc * nc * n + nc * nc + 2 * n * n + n + 2 * nc * n + nc for n in sizes)
               + lu(nc) + 2 * nc ** 2 + 2 * N * nc + N)
    kkt = N + lu(N + k) + 2 * (N + k) ** 2
    scdd = (N + sum(lu(n) + 2 * n * n * (1 + k) + 2 * k * k * n + k * k + 2 * k * n + k + 2 * k * n + n
                    for n in sizes)
            + 2 * lu(k) + 2 * k * k)
    return {"compact": compact, "kkt": kkt, "scdd": scdd, "factor_compact": lu(nc), "factor_kkt": lu(N + k),
            "factor_scdd": sum(lu(n) for n in sizes) + lu(k)}
