"""The source's own method: its Jacobian from J_t W, U and S^-1, and its SCDD in five steps.

The source (section 4) distributes an end-effector force :math:`f_{XYZ}`
into **branch forces** :math:`f_B = S^{-1} f_{XYZ}` (27), one magnitude per
chain along its unit direction :math:`s_i` (the columns of the static matrix
S; for the five-bar, along the distal link).  Its U turns these magnitudes
into the chains' Cartesian tip forces (28, 29),

.. math:: f_{B,XYZ} = \\begin{pmatrix} f_{XYZ,1} \\\\ \\vdots \\\\ f_{XYZ,m}\\end{pmatrix}
          = U f_B, \\qquad U = \\mathrm{blkdiag}(s_1, \\dots, s_m) \\quad (2m \\times m),

and with the tree's Jacobian :math:`J_t = \\mathrm{blkdiag}(J_1, \\dots, J_m)`
(30) parameterised by W, the Jacobian of the parallel manipulator (31, 32) is

.. math:: \\tau_c = (J_t W)^T U S^{-1} f_{XYZ} = G^T f_{XYZ}, \\qquad G = S^{-T} U^T J_t W .

Section 5 computes the direct dynamics chain by chain (SCDD) in five steps:

1. each chain's direct dynamics (34),
   :math:`\\ddot q_i = M_i^{-1}(\\tau_i - C_i\\dot q_i - \\eta_i - K_iq_i - D_i\\dot q_i - J_i^T f_i)`,
   with :math:`f_i` the force chain i's tip exerts (the source's sign);
2. the passive joints' motion from the loop constraints: :math:`q_p` from
   h = 0, :math:`\\dot q_p = W_p\\dot q_c`, and the accelerations bound by
   :math:`A\\ddot q_t = -\\dot A\\dot q_t`;
3. the virtual torques of the passive joints (35), the passive rows of each
   chain's inverse dynamics, and what they add at the motors (38),
   :math:`\\Delta\\tau_a = (\\partial q_p/\\partial q_a)^T\\tau_p`;
4. the constraint force at each tip (39), :math:`f_i = J_{i}^{-T}[\\Delta\\tau_{a,i}; -\\tau_{p,i}]`
   (:math:`J_i` restricted to chain i's actuated and passive columns);
5. the external force split by :math:`U S^{-1}` (40) and added (41).

The source runs these "in a calculation loop"; here the loop is closed
exactly.  Steps 3-5 make the tip forces affine in the k = 2(m-1) virtual
passive torques, step 1 turns them into accelerations chain by chain, and
step 2's k conditions fix :math:`\\tau_p`: one k x k solve
(:func:`scdd_forward`).  The result equals the Schur-complement form
(``forward_dynamics(..., "scdd")``) and the compact model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import getarray
from ..results import Result
from ..shapes import ArrayLike, JointVector
from .closed import ClosedChain

__all__ = ["PassiveMotion", "branch_map", "tree_jacobian", "source_jacobian",
           "chain_direct_dynamics", "passive_motion", "virtual_passive_torques",
           "active_torque_difference", "tip_constraint_forces", "fuse_external_force",
           "scdd_forward", "complexity_claim"]


def _mv(M, v):
    return (M @ v[..., None])[..., 0]


def _mtv(M, v):
    return np.einsum("...ji,...j->...i", M, v)


def _roles_ap(model):
    """Per chain, the positions of its actuated and passive joints; step 4 needs exactly one of each."""
    out = []
    for c in model.chains:
        a = [k for k, r in enumerate(c.roles) if r == "a"]
        p = [k for k, r in enumerate(c.roles) if r == "p"]
        if len(a) != 1 or len(p) != 1:
            raise ValueError("model: the source's SCDD needs chains with one actuated and one passive "
                             f"joint each (a square J_i^T on them), got roles {model.roles!r}")
        out.append((a[0], p[0]))
    return out


@dataclass(frozen=True, repr=False, eq=False)
class PassiveMotion(Result):
    """Step 2 of the SCDD: the tree's position and rates on the loop, and the acceleration constraint.

    ``q`` tree coordinates with the passive angles from h = 0, ``qd`` tree
    rates :math:`W\\dot q_c`, ``A`` the constraint Jacobian and ``gamma``
    :math:`= -\\dot A\\dot q_t`: every admissible acceleration has
    :math:`A\\ddot q_t = \\gamma`, i.e. :math:`\\ddot q_p = W_p\\ddot q_c + (\\dot W\\dot q_c)_p`.

    >>> from rvc.parallel import FiveBar
    >>> passive_motion(FiveBar(), FiveBar().q_home, np.zeros(4)).gamma
    array([0., 0.])
    """

    unpack = ("q", "qd", "A", "gamma")
    q: np.ndarray
    qd: np.ndarray
    A: np.ndarray
    gamma: np.ndarray


def branch_map(model: ClosedChain, q: JointVector) -> np.ndarray:
    """The source's U (..., 2m, m): branch-force magnitudes to the chains' Cartesian tip forces.

    .. math:: \\begin{pmatrix} f_{XYZ,1} \\\\ \\vdots \\\\ f_{XYZ,m}\\end{pmatrix} = U f_B,
              \\qquad U = \\mathrm{blkdiag}(s_1, \\dots, s_m),

    :math:`s_i` the unit direction along which chain i can push (column i of S,
    :meth:`~rvc.parallel.ClosedChain.static_matrices`).  Not the joint-space
    map of ``static_matrices``, whose column i is :math:`J_{i,c}^T s_i`.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> S, _ = robot.static_matrices(robot.q_home)
    >>> U = branch_map(robot, robot.q_home)
    >>> U.shape, bool(np.allclose(U[:2, 0], S[:, 0])), bool(np.allclose(U[:2, 1], 0))
    ((4, 2), True, True)
    """
    S, _ = model.static_matrices(q)
    m = model.m
    U = np.zeros(S.shape[:-2] + (2 * m, m))
    for i in range(m):
        U[..., 2 * i:2 * i + 2, i] = S[..., :, i]
    return U


def tree_jacobian(model: ClosedChain, q: JointVector) -> np.ndarray:
    """The tree's Jacobian (30), :math:`J_t = \\mathrm{blkdiag}(J_1, \\dots, J_m)`, (..., 2m, N).

    Chain i's tip velocity is :math:`J_i\\dot q_i`; :math:`J_t\\dot q_t` stacks them.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> Jt = tree_jacobian(robot, robot.q_home)
    >>> Jt.shape, bool(np.allclose(Jt[:2, :3], robot.chains[0].jacob0(robot.q_home[:3])))
    ((4, 6), True)
    """
    q = getarray(q, "q", shape=(model.N,))
    J = np.zeros(q.shape[:-1] + (2 * model.m, model.N))
    for i, (c, s) in enumerate(zip(model.chains, model.slices)):
        J[..., 2 * i:2 * i + 2, s] = c.jacob0(q[..., s])
    return J


def source_jacobian(model: ClosedChain, q: JointVector) -> np.ndarray:
    """The Jacobian of the parallel manipulator as the source builds it (31), (..., 2, n_c).

    .. math:: G^T = (J_t W)^T U S^{-1}, \\qquad G = S^{-T} U^T J_t W,

    with the source's U (:func:`branch_map`): a force f on the end-effector
    splits into branch forces :math:`S^{-1}f`, U makes them tip forces, and
    :math:`(J_tW)^T` maps those to the compact joints by virtual work.  It
    equals the course's :math:`G = S^{-T}U_c^T` with
    :math:`U_c = \\mathrm{blkdiag}(J_{i,c}^T s_i)`, because :math:`J_{i,p}^Ts_i = 0`
    and W's compact rows are the identity.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> q = robot.assemble(robot.ikine_rigid([0.05, 0.36]), [0.004, -0.002])
    >>> bool(np.allclose(source_jacobian(robot, q), robot.jacobian(q), rtol=1e-12, atol=1e-14))
    True
    """
    S, _ = model.static_matrices(q)
    JtW = tree_jacobian(model, q) @ model.W(q)
    return np.linalg.solve(np.swapaxes(S, -1, -2), np.swapaxes(branch_map(model, q), -1, -2) @ JtW)


def chain_direct_dynamics(model: ClosedChain, q: JointVector, qd: JointVector, tau: JointVector, f_tips: ArrayLike,
                          terms: list | None = None) -> np.ndarray:
    """Step 1 (34): each chain's accelerations under its drives and the force its tip exerts, (..., N).

    .. math:: \\ddot q_i = M_i^{-1}\\big(\\tau_i - C_i\\dot q_i - \\eta_i - K_iq_i - D_i\\dot q_i
              - J_i^T f_i\\big),

    ``q``, ``qd`` tree coordinates and rates, ``tau`` tree forces (..., N)
    (zero on the passive joints), ``f_tips`` (..., m, 2) the force chain i's
    tip exerts (so the chain feels :math:`-f_i`).  Each chain is solved on its
    own (an :math:`n_i\\times n_i` system).  ``terms`` reuses
    :meth:`~rvc.parallel.ClosedChain.chain_terms` of the same state.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar(g=0.0)
    >>> chain_direct_dynamics(robot, robot.q_home, np.zeros(6), np.zeros(6), np.zeros((2, 2))) + 0
    array([0., 0., 0., 0., 0., 0.])
    """
    f_tips = getarray(f_tips, "f_tips", shape=(model.m, 2))
    tau = getarray(tau, "tau", shape=(model.N,))
    if terms is None:
        terms = model.chain_terms(q, qd)
    out = []
    for i, ((Mi, bi, _, Ji, _), s) in enumerate(zip(terms, model.slices)):
        out.append(np.linalg.solve(Mi, (tau[..., s] - bi - _mtv(Ji, f_tips[..., i, :]))[..., None])[..., 0])
    return np.concatenate(np.broadcast_arrays(*out), axis=-1)


def passive_motion(model: ClosedChain, q: JointVector, qd_c: JointVector) -> PassiveMotion:
    """Step 2: the passive joints' position, rate and acceleration constraint from the loop.

    .. math:: h(q_t) = 0 \\Rightarrow q_p, \\qquad \\dot q_t = W\\dot q_c, \\qquad
              A\\ddot q_t = -\\dot A\\dot q_t .

    ``q`` tree coordinates whose compact entries are kept (the passive ones
    are rebuilt by Newton's method on h = 0, starting from those given),
    ``qd_c`` compact rates.  The accelerations are not known yet in a forward
    computation: what the loop fixes is the constraint they must satisfy.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> pm = passive_motion(robot, robot.q_home + [0, 0, 0.01, 0, 0, 0], [1.0, 0, 0, 0])
    >>> bool(np.allclose(pm.q, robot.q_home)), bool(np.allclose(pm.A @ pm.qd, 0))
    (True, True)
    """
    q = model.project(q)
    qd_c = getarray(qd_c, "qd_c", shape=(model.n_compact,))
    qd_t = _mv(model.W(q), qd_c)
    return PassiveMotion(q, qd_t, model.A(q), -_mv(model.Adot(q, qd_t), qd_t))


def virtual_passive_torques(model: ClosedChain, q: JointVector, qd: JointVector, qdd: JointVector,
                            f_tips: ArrayLike | None = None) -> np.ndarray:
    """Step 3a (35): the torques virtual drives at the passive joints would need, (..., n_p).

    .. math:: \\tau_{p,j} = \\big(M_i\\ddot q_i + C_i\\dot q_i + \\eta_i + K_iq_i + D_i\\dot q_i
              + J_i^T f_i\\big)_{p_j},

    the passive rows of chain i's inverse dynamics for the tree motion
    ``q``, ``qd``, ``qdd`` (tree coordinates), with the tip forces ``f_tips``
    (..., m, 2) it exerts (default none).  A branch force along :math:`s_i`
    adds nothing here (:math:`J_{i,p}^Ts_i = 0`).

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> tau, lam = robot.inverse_dynamics(robot.q_home, np.zeros(4), np.zeros(4), "lagrange",
    ...                                   multipliers=True)
    >>> tau_p = virtual_passive_torques(robot, robot.q_home, np.zeros(6), np.zeros(6))
    >>> bool(np.allclose(tau_p, robot.A(robot.q_home)[:, robot.ip].T @ lam))   # A_p^T lambda
    True
    """
    q = getarray(q, "q", shape=(model.N,))
    qd = getarray(qd, "qd", shape=(model.N,))
    qdd = getarray(qdd, "qdd", shape=(model.N,))
    lhs = np.concatenate([c.rne(q[..., s], qd[..., s], qdd[..., s])
                          for c, s in zip(model.chains, model.slices)], -1)
    if f_tips is not None:
        f_tips = getarray(f_tips, "f_tips", shape=(model.m, 2))
        lhs = lhs + np.concatenate([_mtv(c.jacob0(q[..., s]), f_tips[..., i, :])
                                    for i, (c, s) in enumerate(zip(model.chains, model.slices))], -1)
    return lhs[..., model.ip]


def active_torque_difference(model: ClosedChain, q: JointVector, tau_p: ArrayLike) -> np.ndarray:
    """Step 3b (36, 38): what the passive joints' virtual torques add at the motors, (..., n_a).

    .. math:: \\Delta\\tau_a = \\tau_{c,a} - \\tau_{t,a}
              = \\Big(\\frac{\\partial q_p}{\\partial q_a}\\Big)^T \\tau_p = W_{pa}^T\\tau_p,

    :math:`W_{pa}` the passive rows and actuated columns of W: the compact
    torque :math:`\\tau_c = W^T\\tau_t` counts each passive torque at the
    motors through the loop.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> W = robot.W(robot.q_home)
    >>> bool(np.allclose(active_torque_difference(robot, robot.q_home, [1.0, 0.0]),
    ...                  W[robot.ip[0], robot.ca]))
    True
    """
    W = model.W(q)
    tau_p = getarray(tau_p, "tau_p", shape=(len(model.ip),))
    Wpa = W[..., model.ip, :][..., model.ca]
    return _mtv(Wpa, tau_p)


def tip_constraint_forces(model: ClosedChain, q: JointVector, tau_p: ArrayLike, dtau_a: ArrayLike) -> np.ndarray:
    """Step 4 (39): the constraint force each chain's tip exerts, (..., m, 2).

    .. math:: f_i = J_{i,ap}^{-T}\\begin{pmatrix}\\Delta\\tau_{a,i} \\\\ -\\tau_{p,i}\\end{pmatrix},

    :math:`J_{i,ap}` chain i's tip Jacobian on its actuated and passive
    columns (2 x 2).  Felt by the chain as :math:`-J_i^Tf_i`, it removes the
    virtual torque from the passive joint and puts :math:`-\\Delta\\tau_a` on
    the motor, so that the tree's compact torques are the mechanism's (37).
    For any :math:`\\tau_p` the forces are equal and opposite,
    :math:`f_1 = -f_2 = -A_p^{-T}\\tau_p`: the cut force
    :math:`\\lambda` of Lagrange's first kind.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> f = tip_constraint_forces(robot, robot.q_home, [1.0, 0.5],
    ...                           active_torque_difference(robot, robot.q_home, [1.0, 0.5]))
    >>> bool(np.allclose(f[0], -f[1]))
    True
    """
    q = getarray(q, "q", shape=(model.N,))
    tau_p = getarray(tau_p, "tau_p", shape=(len(model.ip),))
    dtau_a = getarray(dtau_a, "dtau_a", shape=(len(model.ia),))
    out = []
    pa = pp = 0
    for (ka, kp), c, s in zip(_roles_ap(model), model.chains, model.slices):
        J = c.jacob0(q[..., s])[..., :, [ka, kp]]
        rhs = np.stack(np.broadcast_arrays(dtau_a[..., pa], -tau_p[..., pp]), -1)
        out.append(np.linalg.solve(np.swapaxes(J, -1, -2), rhs[..., None])[..., 0])
        pa, pp = pa + 1, pp + 1
    return np.stack(np.broadcast_arrays(*out), -2)


def fuse_external_force(model: ClosedChain, q: JointVector, f_con: ArrayLike, f_ext: ArrayLike) -> np.ndarray:
    """Step 5 (40, 41): add each chain's share of the external end-effector force, (..., m, 2).

    .. math:: f_i = f_i^{con} - s_i\\,(S^{-1}f_{ext})_i ,

    ``f_con`` (..., m, 2) the constraint forces the tips exert (step 4),
    ``f_ext`` (2,) the force the environment applies to the end-effector.
    The branch forces :math:`f_B = S^{-1}f_{ext}` are carried down the chains
    (:math:`U f_B`); the tips exert the opposite on the end-effector, so
    :math:`\\sum_i f_i = -f_{ext}`.  (The source writes :math:`U S^{-1}f_{XYZ}`
    with :math:`f_{XYZ}` the force the chains must exert, our
    :math:`-f_{ext}`.)

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> f = fuse_external_force(robot, robot.q_home, np.zeros((2, 2)), [0.0, -2.0])
    >>> f.sum(axis=0).round(12) + 0.0
    array([0., 2.])
    """
    f_con = getarray(f_con, "f_con", shape=(model.m, 2))
    f_ext = getarray(f_ext, "f_ext", shape=(2,))
    S, _ = model.static_matrices(q)
    fB = np.linalg.solve(S, f_ext[..., None])[..., 0]
    share = _mv(branch_map(model, q), fB).reshape(fB.shape[:-1] + (model.m, 2))
    return f_con - share


def scdd_forward(model: ClosedChain, q: JointVector, qd: JointVector, tau: JointVector,
                 f_ext: ArrayLike | None = None) -> np.ndarray:
    """Direct dynamics by the source's five steps (SCDD), the loop closed exactly: tree accelerations (N,).

    ``q`` tree coordinates (one configuration on the loop), ``qd`` compact
    rates (n_c,), ``tau`` actuated torques (n_a,), ``f_ext`` (2,) the force
    applied to the end-effector (default zero).  Step 2 gives the tree rates
    and the constraint :math:`A\\ddot q_t = \\gamma`; steps 3b-5 make the tip
    forces affine in the virtual passive torques,
    :math:`f(\\tau_p) = f^0 + F\\tau_p`; step 1 turns them into
    accelerations chain by chain, :math:`\\ddot q_t = \\ddot q^0 + Q\\tau_p`;
    the loop gives the k x k system :math:`(AQ)\\tau_p = \\gamma - A\\ddot q^0`,
    and step 1 once more the accelerations.  At the result, step 3a (35)
    returns the same :math:`\\tau_p`.

    >>> from rvc.parallel import FiveBar
    >>> robot = FiveBar()
    >>> q = robot.assemble(robot.ikine_rigid([0.05, 0.36]), [0.004, -0.002])
    >>> a = scdd_forward(robot, q, [0.8, 0.5, -0.6, -0.3], [1.0, -0.5], f_ext=[3.0, -2.0])
    >>> bool(np.allclose(a, robot.forward_dynamics(q, [0.8, 0.5, -0.6, -0.3], [1.0, -0.5], "scdd",
    ...                                            f_ext=[3.0, -2.0]), rtol=1e-10))
    True
    """
    q = getarray(q, "q", shape=(model.N,), batch=False)
    qd = getarray(qd, "qd", shape=(model.n_compact,), batch=False)
    tau = getarray(tau, "tau", shape=(len(model.ia),), batch=False)
    f_ext = np.zeros(2) if f_ext is None else getarray(f_ext, "f_ext", shape=(2,), batch=False)
    _roles_ap(model)
    pm = passive_motion(model, q, qd)                                  # step 2
    q, qd_t = pm.q, pm.qd
    tau_t = np.zeros(model.N)
    tau_t[model.ia] = tau
    terms = model.chain_terms(q, qd_t)
    k = len(model.ip)
    f0 = fuse_external_force(model, q, np.zeros((model.m, 2)), f_ext)      # step 5, external share
    basis = np.eye(k)
    F = np.stack([tip_constraint_forces(model, q, e, active_torque_difference(model, q, e))
                  for e in basis], -1)                                  # steps 3b, 4: (m, 2, k)
    a0 = chain_direct_dynamics(model, q, qd_t, tau_t, f0, terms)          # step 1 with tau_p = 0
    zero = np.zeros(model.N)
    free = chain_direct_dynamics(model, q, qd_t, zero, np.zeros((model.m, 2)), terms)
    Q = np.stack([chain_direct_dynamics(model, q, qd_t, zero, F[..., j], terms) - free
                  for j in range(k)], -1)                               # response to each tau_p
    tau_p = np.linalg.solve(pm.A @ Q, pm.gamma - pm.A @ a0)             # the loop closes (step 2)
    f = fuse_external_force(model, q, F @ tau_p, f_ext)                  # steps 4, 5
    return chain_direct_dynamics(model, q, qd_t, tau_t, f, terms)       # step 1


def complexity_claim(n_k: int, n_e: int) -> dict:
    """The source's cost claim for inverting the inertia (LU), compact against SCDD.

    .. math:: O\\big((n_k n_e)^3\\big) \\quad\\text{against}\\quad O\\big(n_k(1 + n_e)^3\\big),

    :math:`n_k` chains, :math:`n_e` elastic coordinates per chain.  Their ratio
    :math:`n_k^2\\,(n_e/(1+n_e))^3` stays below :math:`n_k^2`: for a fixed number
    of chains SCDD saves a bounded factor, not an order of growth in
    :math:`n_e`.  Returns the two terms, their ratio and the bound.

    >>> c = complexity_claim(2, 1)
    >>> c["compact"], c["scdd"], c["ratio"], c["bound"]
    (8, 16, 0.5, 4)
    """
    n_k, n_e = np.asarray(n_k), np.asarray(n_e)
    compact, scdd = (n_k * n_e) ** 3, n_k * (1 + n_e) ** 3
    to = (lambda v: v.item()) if compact.ndim == 0 else (lambda v: v)
    return {"compact": to(compact), "scdd": to(scdd), "ratio": to(compact / scdd), "bound": to(n_k ** 2)}
