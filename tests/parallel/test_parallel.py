"""rvc.parallel: planar chains, closed chains, the elastic five-bar, simulation.

The three inverse dynamics (Lagrange's first kind, Lagrange-D'Alembert, the
compact model) and the three forward dynamics (compact, KKT, per chain) are
checked against each other; W, its derivative and both Jacobian routes
against finite differences; the chains' sympy derivation against the
Euler-Lagrange equations; the modes against the linearized equations of
motion; simulations against energy conservation and the loop constraint.
"""

import warnings

import numpy as np
import pytest
import sympy as sp

from rvc.parallel import (ClosedChain, FiveBar, PlanarChain, chain_equations, operation_counts,
                          quintic, rigid_plan, simulate_closed, simulate_move)

RNG = np.random.default_rng(10)


@pytest.fixture(scope="module")
def robot():
    return FiveBar()


def states(robot, n=8, spread=0.25, deflection=0.02, rate=1.0, seed=0):
    """n consistent random states (q tree, qd compact, qdd compact) near home."""
    rng = np.random.default_rng(seed)
    qa = robot.q_home[robot.ia] + rng.normal(0, spread / 3, (n, len(robot.ia)))
    qe = rng.normal(0, deflection, (n, len(robot.ie)))
    q = robot.assemble(qa, qe)
    qd = rng.normal(0, rate, (n, robot.n_compact))
    qdd = rng.normal(0, 5 * rate, (n, robot.n_compact))
    return q, qd, qdd


def wrap(a):
    return (a + np.pi) % (2 * np.pi) - np.pi


def rel(a, b):
    return np.abs(a - b).max() / max(np.abs(b).max(), 1e-300)


# ----------------------------------------------------------------- the chains

def test_chain_inertia_is_the_hessian_of_the_kinetic_energy():
    eq = chain_equations(3)
    assert sp.expand(sp.hessian(eq.T, eq.qd) - eq.M) == sp.zeros(3, 3)


def test_chain_equations_satisfy_euler_lagrange():
    """d/dt dL/dqd - dL/dq + dR/dqd = M qdd + C qd + eta + K q + D qd, at random numbers.

    The time derivative by the chain rule:
    d/dt dL/dqd_i = sum_j (d2L/dqd_i dq_j) qd_j + (d2L/dqd_i dqd_j) qdd_j.
    """
    n = 3
    eq = chain_equations(n)
    qdd = sp.symbols(f"qdd1:{n + 1}")
    L = eq.T - eq.V
    lagrange = [sum(L.diff(eq.qd[i], eq.q[j]) * eq.qd[j] + L.diff(eq.qd[i], eq.qd[j]) * qdd[j]
                    for j in range(n)) - L.diff(eq.q[i]) + eq.R.diff(eq.qd[i]) for i in range(n)]
    model = (eq.M * sp.Matrix(qdd) + eq.C * sp.Matrix(eq.qd) + eq.eta + eq.K * sp.Matrix(eq.q)
             + eq.D * sp.Matrix(eq.qd))
    values = dict(zip(eq.params, RNG.uniform(0.2, 1.5, len(eq.params))))
    values.update(zip(eq.q + eq.qd + qdd, RNG.normal(size=3 * n)))
    for lhs, rhs in zip(lagrange, model):
        assert float(lhs.evalf(subs=values)) == pytest.approx(float(rhs.evalf(subs=values)),
                                                              rel=1e-10, abs=1e-12)


def test_chain_inertia_matches_two_link_closed_form():
    l1, l2, m1, m2 = 0.7, 0.5, 1.3, 0.8
    chain = PlanarChain([l1, l2], [m1, m2], g=0.0)
    q2 = 0.9
    I1, I2 = m1 * l1 ** 2 / 12, m2 * l2 ** 2 / 12
    c1, c2 = l1 / 2, l2 / 2
    m11 = I1 + I2 + m1 * c1 ** 2 + m2 * (l1 ** 2 + c2 ** 2 + 2 * l1 * c2 * np.cos(q2))
    m12 = I2 + m2 * (c2 ** 2 + l1 * c2 * np.cos(q2))
    m22 = I2 + m2 * c2 ** 2
    np.testing.assert_allclose(chain.inertia([0.3, q2]), [[m11, m12], [m12, m22]], rtol=1e-12)


def test_chain_derivatives_against_finite_differences():
    chain = PlanarChain([0.3, 0.2, 0.4], [0.5, 0.3, 0.6], roles="aep", tip_mass=0.2,
                        stiffness=80.0, damping=0.3, rotor=1e-3, base=(0.1, -0.2))
    q, qd = RNG.normal(size=3), RNG.normal(size=3)
    eps = 1e-6
    E = np.eye(3)
    J = np.stack([(chain.fkine(q + eps * e) - chain.fkine(q - eps * e)) / (2 * eps) for e in E], -1)
    np.testing.assert_allclose(chain.jacob0(q), J, atol=1e-9)
    Jd = (chain.jacob0(q + eps * qd) - chain.jacob0(q - eps * qd)) / (2 * eps)
    np.testing.assert_allclose(chain.jacob_dot(q, qd), Jd, atol=1e-8)
    _, V = chain.energy(q, np.zeros(3))
    grad = np.array([(chain.energy(q + eps * e, np.zeros(3))[1] - chain.energy(q - eps * e, np.zeros(3))[1])
                     / (2 * eps) for e in E])
    np.testing.assert_allclose(chain.gravload(q) + chain.K @ q, grad, atol=1e-7)
    Md = (chain.inertia(q + eps * qd) - chain.inertia(q - eps * qd)) / (2 * eps)
    S = Md - 2 * chain.coriolis(q, qd)
    np.testing.assert_allclose(S, -S.T, atol=1e-8)


def test_chain_is_batched():
    chain = PlanarChain([0.3, 0.4], [0.5, 0.6])
    Q = RNG.normal(size=(4, 5, 2))
    M = chain.inertia(Q)
    assert M.shape == (4, 5, 2, 2)
    np.testing.assert_allclose(M[2, 3], chain.inertia(Q[2, 3]))
    assert chain.points(Q).shape == (4, 5, 3, 2)
    np.testing.assert_allclose(chain.accel(Q, Q, chain.rne(Q, Q, 2 * Q)), 2 * Q, atol=1e-9)


# ------------------------------------------------------------ the kinematics

def test_home_configuration(robot):
    q = robot.q_home
    assert robot.fkine(q) == pytest.approx([0.0, 0.40], abs=1e-12)
    assert np.abs(robot.h(q)).max() < 1e-12
    assert q[[1, 4]] == pytest.approx([0.0, 0.0])
    elbow1, elbow2 = robot.points(q)[0][2], robot.points(q)[1][2]

    def cross(u, v):
        return u[0] * v[1] - u[1] * v[0]
    # chain 1's elbow left of the line from B1 to the end-effector, chain 2's right of B2's
    assert cross([0.1, 0.4], elbow1 - [-0.1, 0]) > 0
    assert cross([-0.1, 0.4], elbow2 - [0.1, 0]) < 0
    assert elbow1[0] < -0.1 and elbow2[0] > 0.1
    # mirror symmetry of the home pose
    assert q[3] == pytest.approx(np.pi - q[0]) and q[5] == pytest.approx(-q[2])


def test_ikine_rigid_round_trip(robot):
    X = np.stack(np.meshgrid(np.linspace(-0.15, 0.15, 4), np.linspace(0.2, 0.45, 4)), -1)
    qa = robot.ikine_rigid(X)
    q = robot.assemble(qa, np.zeros(X.shape[:-1] + (2,)))
    np.testing.assert_allclose(robot.fkine(q), X, atol=1e-12)
    assert np.abs(robot.h(q)).max() < 1e-12


def test_assemble_closes_the_loop_for_more_springs():
    robot = FiveBar(n_elastic=3)
    assert robot.roles == "aeeepaeeep"
    qe = RNG.normal(0, 0.02, 6)
    q = robot.assemble(robot.q_home[robot.ia], qe)
    assert np.abs(robot.h(q)).max() < 1e-12
    np.testing.assert_allclose(q[robot.ie], qe)
    # the general Newton assembly (no closed form) finds the same configuration
    q2 = ClosedChain.assemble(robot, robot.q_home[robot.ia], qe, guess=robot.q_home)
    np.testing.assert_allclose(wrap(q2 - q), 0, atol=1e-10)


def test_A_W_is_zero_and_velocities_are_consistent(robot):
    q, qd, _ = states(robot)
    A, W = robot.A(q), robot.W(q)
    assert np.abs(A @ W).max() < 1e-12
    np.testing.assert_allclose(W[..., robot.ic, :], np.broadcast_to(np.eye(4), (8, 4, 4)))
    qd_t = robot.velocities(q, qd)
    assert np.abs(np.einsum("...ij,...j->...i", A, qd_t)).max() < 1e-12


def test_Wdot_against_finite_differences(robot):
    q, qd, _ = states(robot, n=3)
    eps = 1e-6
    for qi, qdi in zip(q, qd):
        def W_at(s):
            qc = qi[robot.ic] + s * qdi
            return robot.W(robot.assemble(qc[robot.ca], qc[robot.ce]))
        fd = (W_at(eps) - W_at(-eps)) / (2 * eps)
        np.testing.assert_allclose(robot.Wdot(qi, qdi), fd, atol=1e-8)


def test_Wdot_refuses_a_q_that_does_not_close_the_loop_as_W_does(robot):
    # W refuses an open q; its derivative (used by the compact model and the dynamics) must too,
    # in the same words, in the closed chain and in the general model alike
    from rvc.models import fivebar_model
    from rvc.parallel import parallel_Wdot
    q = robot.q_home + 0.1
    for call in (lambda: robot.W(q), lambda: robot.Wdot(q, np.ones(4)),
                 lambda: robot.Wdot(np.stack([robot.q_home, q]), np.ones(4))):
        with pytest.raises(ValueError, match=r"^q: expected tree coordinates \(6,\) that close the loop"):
            call()
    with pytest.raises(ValueError, match=r"^q: expected tree coordinates \(6,\) that close the mechanism"):
        parallel_Wdot(fivebar_model(), q, np.ones(4))
    assert not robot.Wdot(robot.q_home, np.zeros(4)).any()     # on the loop, at rest: zero


def test_jacobian_routes_against_finite_differences(robot):
    q, _, _ = states(robot, n=4)
    eps = 1e-7
    for qi in q:
        qc = qi[robot.ic]

        def x(c):
            return robot.fkine(robot.assemble(c[robot.ca], c[robot.ce]))
        G = np.stack([(x(qc + eps * e) - x(qc - eps * e)) / (2 * eps) for e in np.eye(4)], -1)
        np.testing.assert_allclose(robot.jacobian(qi, "w"), G, atol=1e-8)
        np.testing.assert_allclose(robot.jacobian(qi, "static"), G, atol=1e-8)
    np.testing.assert_allclose(robot.jacobian(q), robot.jacobian(q, "w"), atol=1e-12)


def test_singularity_measures(robot):
    t1, t2 = robot.singularity(robot.q_home)
    assert 0 < t1 < 1 and 0 < t2 < 1
    # near the workspace boundary (a chain nearly stretched out) type I goes to zero
    far = np.array([0.0, np.sqrt(0.6 ** 2 - 0.1 ** 2) - 1e-4])
    q = robot.assemble(robot.ikine_rigid(far), np.zeros(2))
    assert robot.singularity(q)[0] < 0.03
    # distal links in line: type II goes to zero; S loses rank there
    lo = robot.assemble(robot.ikine_rigid([0.0, 0.05]), np.zeros(2))
    assert robot.singularity(lo)[1] < robot.singularity(robot.q_home)[1]
    S, U = robot.static_matrices(robot.q_home)
    np.testing.assert_allclose(np.linalg.norm(S, axis=0), 1.0)
    # the branch forces resist no torque at the passive joints (two-force members)
    assert abs(np.linalg.det(S)) == pytest.approx(t2)


# -------------------------------------------------------------- the dynamics

@pytest.mark.parametrize("method", ["lda", "compact"])
def test_inverse_dynamics_methods_agree(robot, method):
    q, qd, qdd = states(robot)
    ref = robot.inverse_dynamics(q, qd, qdd, "lagrange")
    assert rel(robot.inverse_dynamics(q, qd, qdd, method), ref) < 1e-9


@pytest.mark.parametrize("method", ["kkt", "scdd"])
def test_forward_dynamics_methods_agree(robot, method):
    q, qd, _ = states(robot)
    tau = RNG.normal(0, 1, (8, 2))
    ref = robot.forward_dynamics(q, qd, tau, "compact")
    assert rel(robot.forward_dynamics(q, qd, tau, method), ref) < 1e-9


def test_forward_then_inverse_round_trip(robot):
    q, qd, _ = states(robot)
    tau = RNG.normal(0, 1, (8, 2))
    qdd_t = robot.forward_dynamics(q, qd, tau)
    for method in ("lagrange", "lda", "compact"):
        tau_c = robot.inverse_dynamics(q, robot.velocities(q, qd), qdd_t, method)
        np.testing.assert_allclose(tau_c[:, robot.ca], tau, atol=1e-9)
        np.testing.assert_allclose(tau_c[:, robot.ce], 0.0, atol=1e-9)   # nobody pushes the springs


def test_multipliers_are_the_cut_force(robot):
    """lambda is the force on chain 1's tip: each chain alone obeys its own dynamics under it."""
    q, qd, qdd = states(robot, n=1)
    tau, lam = robot.inverse_dynamics(q[0], qd[0], qdd[0], "lagrange", multipliers=True)
    qd_t = robot.velocities(q[0], qd[0])
    qdd_t = robot.accelerations(q[0], qd[0], qdd[0])
    for k, (chain, s, sign) in enumerate(zip(robot.chains, robot.slices, (1, -1))):
        tau_k = np.zeros(chain.n)
        tau_k[:2] = tau[2 * k:2 * k + 2]
        lhs = chain.rne(q[0, s], qd_t[s], qdd_t[s])
        np.testing.assert_allclose(lhs, tau_k + chain.jacob0(q[0, s]).T @ (sign * lam), atol=1e-10)


def test_compact_model_properties(robot):
    q, qd, _ = states(robot, n=3)
    eps = 1e-6
    for qi, qdi in zip(q, qd):
        cm = robot.compact(qi, qdi)
        np.testing.assert_allclose(cm.M, cm.M.T, atol=1e-14)
        assert np.linalg.eigvalsh(cm.M).min() > 0

        def Mc(s):
            c = qi[robot.ic] + s * qdi
            return robot.compact(robot.assemble(c[robot.ca], c[robot.ce]), qdi).M
        S = (Mc(eps) - Mc(-eps)) / (2 * eps) - 2 * cm.C
        np.testing.assert_allclose(S, -S.T, atol=1e-8)
        np.testing.assert_allclose(cm.K, np.diag([0, 500.0, 0, 500.0]), atol=1e-12)
        np.testing.assert_allclose(cm.D, np.diag([0, 0.1, 0, 0.1]), atol=1e-15)


def test_compact_stiffness_is_block_diagonal_with_more_springs():
    robot = FiveBar(n_elastic=2, K=300.0)
    cm = robot.compact(robot.q_home, np.zeros(robot.n_compact))
    np.testing.assert_allclose(cm.K, np.diag([0, 300, 300, 0, 300, 300.0]), atol=1e-12)


def test_general_closed_chain_with_unlike_chains():
    """The method is not five-bar specific: two unlike chains, one with two springs."""
    left = PlanarChain([0.1, 0.1, 0.1, 0.35], [0.2, 0.2, 0.2, 0.3], roles="aeep", base=(-0.1, 0.0),
                       stiffness=[0, 300, 200, 0], damping=0.05, rotor=1e-4, tip_mass=0.3)
    right = PlanarChain([0.3, 0.35], [0.4, 0.3], roles="ap", base=(0.1, 0.0), rotor=1e-4)
    loop = ClosedChain([left, right])
    five = FiveBar(L1=0.3)
    guess = np.concatenate([[five.q_home[0], 0, 0, five.q_home[2]], five.q_home[3:4], five.q_home[5:]])
    q = loop.assemble(guess[loop.ia], [0.02, -0.01], guess=guess)
    qd = RNG.normal(size=loop.n_compact)
    qdd = RNG.normal(size=loop.n_compact)
    ref = loop.inverse_dynamics(q, qd, qdd, "lagrange")
    for method in ("lda", "compact"):
        assert rel(loop.inverse_dynamics(q, qd, qdd, method), ref) < 1e-9
    tau = RNG.normal(size=2)
    ref = loop.forward_dynamics(q, qd, tau)
    for method in ("kkt", "scdd"):
        assert rel(loop.forward_dynamics(q, qd, tau, method), ref) < 1e-9
    np.testing.assert_allclose(loop.jacobian(q), loop.jacobian(q, "w"), atol=1e-10)


def test_notebook_hand_derivations(robot):
    """The notebook's by-hand Lagrange first kind, KKT and compact solutions equal rvc's."""
    q = robot.assemble(robot.ikine_rigid([0.05, 0.36]), [0.004, -0.002])
    qd, qdd, tau_a = np.array([0.8, 0.5, -0.6, -0.3]), np.array([4.0, -30.0, -2.0, 25.0]), [1.0, -0.5]
    qd_t, qdd_t = robot.velocities(q, qd), robot.accelerations(q, qd, qdd)
    ell = np.concatenate([c.rne(q[s], qd_t[s], qdd_t[s]) for c, s in zip(robot.chains, robot.slices)])
    A = robot.A(q)
    lam = np.linalg.solve(A[:, robot.ip].T, ell[robot.ip])
    tau = ell[robot.ic] - A[:, robot.ic].T @ lam
    ref, lam_ref = robot.inverse_dynamics(q, qd, qdd, "lagrange", multipliers=True)
    np.testing.assert_allclose(tau, ref, rtol=1e-12)
    np.testing.assert_allclose(lam, lam_ref, rtol=1e-12)
    np.testing.assert_allclose(robot.W(q).T @ ell, ref, rtol=1e-10)
    b = np.concatenate([c.rne(q[s], qd_t[s], np.zeros(c.n)) for c, s in zip(robot.chains, robot.slices)])
    tau_t = np.zeros(6)
    tau_t[robot.ia] = tau_a
    kkt = np.block([[robot.tree_inertia(q), -A.T], [A, np.zeros((2, 2))]])
    qdd_kkt = np.linalg.solve(kkt, np.concatenate([tau_t - b, -robot.Adot(q, qd_t) @ qd_t]))[:6]
    np.testing.assert_allclose(qdd_kkt, robot.forward_dynamics(q, qd, tau_a, "kkt"), rtol=1e-12)
    cm = robot.compact(q, qd)
    tau_c = np.zeros(4)
    tau_c[robot.ca] = tau_a
    qdd_c = np.linalg.solve(cm.M, tau_c - cm.C @ qd - cm.eta - cm.K @ q[robot.ic] - cm.D @ qd)
    np.testing.assert_allclose(robot.accelerations(q, qd, qdd_c), qdd_kkt, rtol=1e-9)


def test_chain_terms_and_solve_forward(robot):
    q, qd, _ = states(robot, n=5)
    tau = RNG.normal(size=(5, 2))
    terms = robot.chain_terms(q, robot.velocities(q, qd))
    for method in ("compact", "kkt", "scdd"):
        np.testing.assert_allclose(robot.solve_forward(terms, tau, method),
                                   robot.forward_dynamics(q, qd, tau, method), rtol=1e-12)


def test_degrees(robot):
    qa = robot.ikine_rigid([0.05, 0.33], unit="deg")
    np.testing.assert_allclose(np.deg2rad(qa), robot.ikine_rigid([0.05, 0.33]))
    q = robot.assemble(qa, [0.5, -0.2], unit="deg")
    np.testing.assert_allclose(np.deg2rad(q), robot.assemble(np.deg2rad(qa), np.deg2rad([0.5, -0.2])))
    with pytest.raises(ValueError, match="unit: expected 'rad' or 'deg'"):
        robot.ikine_rigid([0.05, 0.33], unit="degrees")


def test_operation_counts():
    c1 = operation_counts(FiveBar())
    assert c1["factor_compact"] == pytest.approx(2 * 4 ** 3 / 3)
    assert c1["factor_scdd"] == pytest.approx(2 * (2 * 3 ** 3 + 2 ** 3) / 3)
    c8 = operation_counts(FiveBar(n_elastic=6))
    assert c8["scdd"] < c8["compact"] / 5 and c8["factor_scdd"] < c8["factor_compact"] / 2


# ------------------------------------------------------ the elastic behaviour

def test_modes_against_the_linearized_equations(robot):
    m = robot.modes()
    assert np.all(np.diff(m.frequency) > 0)
    # state-space eigenvalues of M e'' + D e' + K e = 0 (motors locked)
    cm = robot.compact(m.q, np.zeros(4))
    e = robot.ce
    M, K, D = cm.M[np.ix_(e, e)], cm.K[np.ix_(e, e)], cm.D[np.ix_(e, e)]
    Minv = np.linalg.inv(M)
    lam = np.linalg.eigvals(np.block([[np.zeros((2, 2)), np.eye(2)], [-Minv @ K, -Minv @ D]]))
    lam = lam[lam.imag > 0]
    lam = lam[np.argsort(np.abs(lam))]
    np.testing.assert_allclose(np.abs(lam) / (2 * np.pi), m.frequency, rtol=1e-9)
    np.testing.assert_allclose(-lam.real / np.abs(lam), m.damping, rtol=1e-9)
    # equal springs: D = (D/K) K, so zeta = (D/K) omega / 2
    np.testing.assert_allclose(m.damping, 0.1 / 500 * 2 * np.pi * m.frequency / 2, rtol=1e-12)
    # mirror symmetry: one mode with e1 = -e2 (vertical), one with e1 = e2 (lateral)
    np.testing.assert_allclose(np.abs(m.shapes), 1.0, atol=1e-9)


def test_modes_scale_with_stiffness():
    f1 = FiveBar(K=500.0).modes().frequency
    f4 = FiveBar(K=2000.0).modes().frequency
    np.testing.assert_allclose(f4, 2 * f1, rtol=1e-12)


def test_static_deflection(robot):
    s = robot.static_deflection()
    W = robot.W(s.q)
    eta_c = W.T @ robot.tree_gravload(s.q)
    np.testing.assert_allclose(eta_c[robot.ce] + 500.0 * s.deflection, 0.0, atol=1e-10)
    assert s.displacement[1] < 0                       # it sags
    assert s.displacement[0] == pytest.approx(0.0, abs=1e-12)   # mirror symmetry
    np.testing.assert_allclose(s.deflection[0], -s.deflection[1], rtol=1e-9)
    stiff = FiveBar(K=5000.0).static_deflection()
    assert stiff.displacement[1] * 10 == pytest.approx(s.displacement[1], rel=0.02)  # ~ 1/K


# ---------------------------------------------------------------- simulation

def held(robot):
    """Gravity equilibrium with the motors applying the holding torques."""
    s = robot.static_deflection()
    tau = (robot.W(s.q).T @ robot.tree_gravload(s.q))[robot.ca]
    q0 = robot.assemble(s.q[robot.ia], s.q[robot.ie] + [0.01, -0.004])
    return q0, tau


def total_energy(robot, sim, tau):
    T, V = robot.energy(sim.q, sim.qd)
    return T + V - sim.q[:, robot.ia] @ tau         # constant torques are conservative


def test_energy_is_conserved_without_damping():
    robot = FiveBar(D=0.0)
    q0, tau = held(robot)
    t = np.linspace(0, 0.06, 7)
    sim = simulate_closed(robot, q0, np.zeros(4), t, tau, rtol=1e-10, atol=1e-12)
    E = total_energy(robot, sim, tau)
    T, _ = robot.energy(sim.q, sim.qd)
    assert T.max() > 1e-3                              # it does vibrate
    assert np.ptp(E) < 1e-8 * T.max()
    assert np.abs(sim.q[:, robot.ia] - q0[robot.ia]).max() < 0.05   # a held pose, not a fall


def test_energy_is_conserved_without_gravity_damping_or_drive():
    """No actuation at all: without gravity nothing pulls the pose away, only the plucked springs."""
    robot = FiveBar(D=0.0, g=0.0)
    q0 = robot.assemble(robot.q_home[robot.ia], [0.01, -0.004])
    sim = simulate_closed(robot, q0, np.zeros(4), np.linspace(0, 0.06, 7), rtol=1e-10, atol=1e-12)
    T, V = robot.energy(sim.q, sim.qd)
    assert T.max() > 1e-3 and np.ptp(T + V) < 1e-8 * T.max()
    assert np.abs(sim.q[:, robot.ia] - q0[robot.ia]).max() < 0.05


def test_energy_decreases_with_damping(robot):
    q0, tau = held(robot)
    t = np.linspace(0, 0.06, 13)
    sim = simulate_closed(robot, q0, np.zeros(4), t, tau, rtol=1e-10, atol=1e-12)
    E = total_energy(robot, sim, tau)
    assert np.diff(E).max() < 1e-12
    assert E[0] - E[-1] > 1e-4


def test_tree_simulation_matches_compact_and_stays_closed():
    robot = FiveBar()
    q0, tau = held(robot)
    t = np.linspace(0, 0.04, 5)
    ref = simulate_closed(robot, q0, np.zeros(4), t, tau, rtol=1e-10, atol=1e-12)
    kw = dict(coords="tree", rtol=1e-6, atol=1e-8)
    plain = simulate_closed(robot, q0, np.zeros(4), t, tau, **kw)
    baum = simulate_closed(robot, q0, np.zeros(4), t, tau, stabilise="baumgarte", **kw)
    proj = simulate_closed(robot, q0, np.zeros(4), t, tau, stabilise="projection", solver="scdd", **kw)
    for sim in (plain, baum, proj):
        np.testing.assert_allclose(wrap(sim.q - ref.q), 0.0, atol=1e-5)
    assert np.abs(ref.h).max() < 1e-13                 # compact coordinates cannot drift
    assert np.abs(baum.h).max() < 1e-7                 # bounded with stabilisation
    assert np.abs(baum.h).max() < np.abs(plain.h).max()
    assert np.abs(proj.h[1:]).max() < 1e-12            # restored by projection
    assert np.abs(proj.hd[1:]).max() < 1e-12


def test_quintic_and_rigid_plan(robot):
    x, xd, xdd = quintic([0, 0], [1, 2], 2.0, np.linspace(0, 2, 201))
    inner = slice(1, -1)
    np.testing.assert_allclose(np.gradient(x, 0.01, axis=0)[inner], xd[inner], atol=2e-3)
    np.testing.assert_allclose(np.gradient(xd, 0.01, axis=0)[inner], xdd[inner], atol=2e-2)
    t = np.linspace(0, 0.4, 401)
    plan = rigid_plan(robot, (-0.1, 0.35), (0.1, 0.38), 0.4, t)
    np.testing.assert_allclose(robot.fkine(plan.q), plan.x, atol=1e-12)
    np.testing.assert_allclose(np.gradient(plan.q[:, robot.ia], t, axis=0)[1:-1],
                               plan.qd[1:-1, robot.ca], atol=2e-3)
    np.testing.assert_allclose(np.gradient(plan.qd, t, axis=0)[1:-1], plan.qdd[1:-1], atol=0.2)
    # a rigid plan: the springs would have to push (virtual torques), the motors do the rest
    assert np.abs(plan.tau[:, robot.ce]).max() > 0.1
    np.testing.assert_allclose(plan.tau, robot.inverse_dynamics(plan.q, plan.qd, plan.qdd, "compact"),
                               atol=1e-9)


def test_faster_moves_vibrate_more(robot):
    slow = simulate_move(robot, (-0.1, 0.36), (0.1, 0.36), 0.6, t_end=0.8, dt=0.01, start="undeflected")
    fast = simulate_move(robot, (-0.1, 0.36), (0.1, 0.36), 0.2, t_end=0.8, dt=0.01, start="undeflected")
    assert fast.residual_vibration() > 3 * slow.residual_vibration()
    assert fast.error.max() > slow.error.max()
    assert np.abs(fast.deflection).max() > np.abs(slow.deflection).max()
    np.testing.assert_allclose(fast.x[0], [-0.1, 0.36], atol=1e-12)
    assert np.linalg.norm(fast.x[-1] - [0.1, 0.36]) < 2e-3      # arrives (PD holds the sag)


@pytest.mark.parametrize("duration", [0.2, 0.4])
def test_standing_still_from_the_static_start_does_not_vibrate(robot, duration):
    """The default start is the controller's static equilibrium at x0: with x1 = x0 nothing moves
    (residual vibration below 1e-9 m), while the undeflected start drops into the sag and rings."""
    x0 = (-0.12, 0.36)
    still = simulate_move(robot, x0, x0, duration, t_end=duration + 0.15, dt=0.005)
    assert still.residual_vibration() < 1e-9
    assert np.abs(still.x - still.x[0]).max() < 1e-9
    # it starts sagged, as the motors-held sag (the stiff PD lets the motors yield a little)
    np.testing.assert_allclose(still.x[0] - x0, robot.static_deflection(x0).displacement, atol=1e-6)
    assert np.abs(still.deflection[0]).max() > 1e-4
    dropped = simulate_move(robot, x0, x0, duration, t_end=duration + 0.15, dt=0.005, start="undeflected")
    assert dropped.residual_vibration() > 1e-5
    np.testing.assert_allclose(dropped.x[0], x0, atol=1e-12)


def test_simulate_move_start_option(robot):
    with pytest.raises(ValueError, match="start"):
        simulate_move(robot, (0.0, 0.4), (0.0, 0.4), 0.1, dt=0.05, start="sagged")


# ----------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs, match", [
    (dict(K=-1.0), "K: expected a non-negative stiffness"),
    (dict(D=-0.1), "D: expected a non-negative damping"),
    (dict(m1=-0.5), "m1: expected a non-negative mass"),
    (dict(L2=0.0), "L2: expected a positive length"),
    (dict(L1=float("nan")), "L1: expected finite numbers"),
    (dict(n_elastic=-1), "n_elastic"),
    (dict(B1=(0.1, 0.0)), "B1, B2"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        FiveBar(**kwargs)


def test_bad_input(robot):
    q, qd, qdd = robot.q_home, np.zeros(4), np.zeros(4)
    with pytest.raises(ValueError, match="x: expected a position both chains reach"):
        robot.ikine_rigid([0.0, 0.7])
    with pytest.raises(ValueError, match="x: expected shape"):
        robot.ikine_rigid([0.0, 0.3, 0.1])
    with pytest.raises(ValueError, match="qa: expected shape"):
        robot.assemble([1.0, 2.0, 3.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="qe: expected shape"):
        robot.assemble([1.0, 2.0], [0.0])
    with pytest.raises(ValueError, match="q: expected finite numbers"):
        robot.inverse_dynamics(q * np.nan, qd, qdd)
    with pytest.raises(ValueError, match="method: expected one of 'lagrange', 'lda', 'compact'"):
        robot.inverse_dynamics(q, qd, qdd, method="newton")
    with pytest.raises(ValueError, match="method: expected one of 'compact', 'kkt', 'scdd'"):
        robot.forward_dynamics(q, qd, [0, 0], method="lagrange")
    with pytest.raises(ValueError, match="q: expected tree coordinates .* that close the loop"):
        robot.forward_dynamics(q + [0, 0, 0.1, 0, 0, 0], qd, [0, 0])
    with pytest.raises(ValueError, match="qd: expected tree rates .* consistent with the loop"):
        robot.inverse_dynamics(q, np.ones(6), np.zeros(6))
    with pytest.raises(ValueError, match="qd: expected compact rates"):
        robot.inverse_dynamics(q, np.ones(5), qdd)
    with pytest.raises(ValueError, match="tau: expected actuated torques"):
        robot.forward_dynamics(q, qd, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="route: expected one of"):
        robot.jacobian(q, route="vector-loop")
    with pytest.raises(ValueError, match="x: expected a position"):
        robot.modes(x=(0.0, 0.9))
    with pytest.raises(ValueError, match="stabilise: expected None with coords='compact'"):
        simulate_closed(robot, q, qd, [0, 0.1], stabilise="baumgarte")
    for solver in ("kkt", "scdd"):                     # compact coordinates have no solver to choose
        with pytest.raises(ValueError, match="solver: expected None with coords='compact'"):
            simulate_closed(robot, q, qd, [0, 0.1], solver=solver)
    with pytest.raises(ValueError, match="solver: expected one of"):
        simulate_closed(robot, q, qd, [0, 0.1], coords="tree", solver="lu")
    with pytest.raises(ValueError, match="coords: expected one of"):
        simulate_closed(robot, q, qd, [0, 0.1], coords="cartesian")
    with pytest.raises(ValueError, match="t: expected two or more increasing"):
        simulate_closed(robot, q, qd, [0.1, 0.0])
    with pytest.raises(ValueError, match="duration: expected a positive time"):
        quintic([0, 0], [1, 1], 0.0, [0.0])


def test_bad_chains():
    with pytest.raises(ValueError, match="roles: expected a string of 2 letters"):
        PlanarChain([1.0, 1.0], [1.0, 1.0], roles="ax")
    with pytest.raises(ValueError, match="lengths: expected positive values"):
        PlanarChain([1.0, -1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="masses: expected a vector of 2 elements"):
        PlanarChain([1.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="stiffness: expected non-negative values"):
        PlanarChain([1.0], [1.0], roles="e", stiffness=-3.0)
    a = PlanarChain([1.0, 1.0], [1.0, 1.0], roles="aa")
    b = PlanarChain([1.0, 1.0], [1.0, 1.0], roles="ap")
    with pytest.raises(ValueError, match="chains: expected 2 passive joints in all"):
        ClosedChain([a, b])
    with pytest.raises(ValueError, match="chains: expected two or more PlanarChain"):
        ClosedChain([b])
    with pytest.raises(ValueError, match="n: expected a positive number of joints"):
        chain_equations(0)


def test_type_two_singularity_warns_and_stays_finite(robot):
    from rvc import SingularityWarning
    q = np.array([np.pi, 0.0, -np.pi, 0.0, 0.0, np.pi])     # elbows straight out, distal links in line
    assert np.abs(robot.h(q)).max() < 1e-15
    assert robot.singularity(q)[1] < 1e-12
    with pytest.warns(SingularityWarning, match="A_p is singular"):
        W = robot.W(q)
    with pytest.warns(SingularityWarning, match="S is singular"):
        G = robot.jacobian(q)
    assert np.all(np.isfinite(W)) and np.all(np.isfinite(G))
    assert np.abs(robot.A(q) @ W).max() < 1e-12            # still admissible rates


def test_no_silent_nan_near_the_loop_limit():
    robot = FiveBar()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="qa, qe: the distal links cannot close the loop"):
            FiveBar(L2=0.3).assemble([np.pi, 0.0], [0.0, 0.0])
        q = robot.assemble(robot.ikine_rigid([0.0, 0.59]), [0.0, 0.0])
        assert np.all(np.isfinite(robot.forward_dynamics(q, np.zeros(4), [0.0, 0.0])))


# ------------------------------------------------------ the simulation's fast path

def test_one_configuration_in_floats_equals_the_batched_evaluation(robot):
    """The chains' functions run with math on floats for one configuration, numpy for batches."""
    q, qd, _ = states(robot, 6, seed=3)
    qd_t = robot.velocities(q, qd)
    for c, s in zip(robot.chains, robot.slices):
        batch = c._terms(q[:, s], qd_t[:, s])
        for k in range(6):
            for one, many in zip(c._terms(q[k, s], qd_t[k, s]), batch):
                np.testing.assert_allclose(one, many[k], rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(c.inertia(q[2, s]), c.inertia(q[:, s])[2], rtol=1e-13)
        np.testing.assert_allclose(c.jacob0(q[4, s]), c.jacob0(q[:, s])[4], rtol=1e-13)


@pytest.mark.parametrize("model", [FiveBar(), FiveBar(n_elastic=2, K=300.0)], ids=["1 spring", "2 springs"])
def test_compact_step_equals_forward_dynamics(model):
    q, qd, _ = states(model, 5, seed=4)
    tau = RNG.normal(0, 1, (5, 2))
    for k in range(5):
        ref = model.forward_dynamics(q[k], qd[k], tau[k], "kkt")[model.ic]
        np.testing.assert_allclose(model._compact_accel(q[k], qd[k], tau[k]), ref, rtol=1e-9,
                                   atol=1e-9)
        np.testing.assert_allclose(model._compact_accel(q[k], qd[k], tau[k]),
                                   model.forward_dynamics(q[k], qd[k], tau[k])[model.ic], rtol=1e-12,
                                   atol=1e-12)


def test_singular_matrix_one_at_a_time_as_in_a_batch(robot):
    """The single-matrix singularity test of the inner loop decides as the batched one."""
    from rvc import SingularityWarning
    from rvc.parallel.closed import singular_solve as _solve
    q = np.array([np.pi, 0.0, -np.pi, 0.0, 0.0, np.pi])     # type-II singular
    A = robot.A(np.stack([q, robot.q_home]))
    Ap, Ac = A[..., :, robot.ip], A[..., :, robot.ic]
    with pytest.warns(SingularityWarning):
        one = _solve(Ap[0], Ac[0], "A_p")
    with pytest.warns(SingularityWarning):
        both = _solve(Ap, Ac, "A_p")
    np.testing.assert_allclose(one, both[0], atol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(_solve(Ap[1], Ac[1], "A_p"), np.linalg.solve(Ap[1], Ac[1]))


def test_compact_simulation_against_the_checked_forward_dynamics(robot):
    """simulate_closed's compact right-hand side against solve_ivp on the public, checked calls."""
    from scipy.integrate import solve_ivp
    q0 = robot.q_home
    tau = np.array([0.4, -0.3])
    t = np.linspace(0.0, 0.05, 6)
    sim = simulate_closed(robot, q0, np.zeros(4), t, tau, rtol=1e-10, atol=1e-12)

    def rhs(time, y):
        q = robot.assemble(y[robot.ca], y[robot.ce])
        return np.concatenate([y[4:], robot.forward_dynamics(q, y[4:], tau)[robot.ic]])

    ref = solve_ivp(rhs, (0, 0.05), np.concatenate([q0[robot.ic], np.zeros(4)]), t_eval=t,
                    rtol=1e-10, atol=1e-12, method="DOP853")
    np.testing.assert_allclose(sim.q[:, robot.ic], ref.y[:4].T, atol=1e-9)
    np.testing.assert_allclose(sim.qd[:, robot.ic], ref.y[4:].T, atol=1e-7)


def test_each_mode_shape_is_scaled_so_its_largest_entry_in_magnitude_is_plus_one():
    """The documented scaling of locked_modes: a shape whose biggest entry is negative is flipped,
    so that entry becomes +1 (ties: the first); every other entry stays within [-1, 1]."""
    from rvc.models import fivebar_model
    from rvc.parallel import parallel_modes
    from rvc.parallel.fivebar import locked_modes

    tied = locked_modes(np.eye(2), np.array([[2.0, 1.0], [1.0, 2.0]]), np.zeros((2, 2)), np.zeros(2))
    np.testing.assert_allclose(tied.shapes[0], [1.0, 1.0], atol=1e-12)     # first entry wins the tie
    for shapes in (tied.shapes, FiveBar().modes().shapes, parallel_modes(fivebar_model()).shapes):
        big = np.argmax(np.round(np.abs(shapes), 9), axis=0)
        np.testing.assert_allclose(shapes[big, np.arange(shapes.shape[1])], 1.0, atol=1e-12)
        assert np.abs(shapes).max() <= 1 + 1e-12
