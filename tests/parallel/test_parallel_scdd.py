"""rvc.parallel.scdd: the source's U and Jacobian, its SCDD in five steps, an external end-effector force.

The five-step SCDD is checked against the Schur-complement form (``forward_dynamics(..., "scdd")``,
which applies the external force at chain 1's tip instead of splitting it), against the compact
model, and the external force's effect against the virtual-work map J^T f in closed form: a
rigid five-bar held by tau = eta_c - G^T f does not move, and the extra acceleration of the elastic
one is W M_c^-1 G^T f with G from finite differences of the end-effector position.
"""

import numpy as np
import pytest

from rvc.parallel import (FiveBar, active_torque_difference, branch_map, chain_direct_dynamics,
                          complexity_claim, fuse_external_force, operation_counts, passive_motion,
                          scdd_forward, source_jacobian, tip_constraint_forces, tree_jacobian,
                          virtual_passive_torques)

MODELS = {"elastic": FiveBar(), "rigid": FiveBar(n_elastic=0), "two springs": FiveBar(n_elastic=2)}


def states(model, n=6, seed=0):
    rng = np.random.default_rng(seed)
    X = np.stack([rng.uniform(-0.12, 0.12, n), rng.uniform(0.28, 0.46, n)], -1)
    q = model.assemble(model.ikine_rigid(X), rng.normal(0, 0.01, (n, len(model.ie))))
    qd = rng.normal(0, 1.0, (n, model.n_compact))
    tau = rng.normal(0, 1.0, (n, len(model.ia)))
    f = rng.normal(0, 5.0, (n, 2))
    return q, qd, tau, f


def fd_jacobian(model, q, eps=1e-7):
    """dx/dq_c by central differences of the end-effector position (the loop rebuilt each time)."""
    qc = q[model.ic]

    def x_of(c):
        return model.fkine(model.assemble(c[model.ca], c[model.ce]))
    return np.stack([(x_of(qc + eps * e) - x_of(qc - eps * e)) / (2 * eps)
                     for e in np.eye(model.n_compact)], -1)


@pytest.mark.parametrize("name", MODELS)
def test_source_jacobian_equals_the_course_jacobian_and_finite_differences(name):
    model = MODELS[name]
    q, *_ = states(model)
    G_src = source_jacobian(model, q)
    np.testing.assert_allclose(G_src, model.jacobian(q, "static"), rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(G_src, model.jacobian(q, "w"), rtol=1e-11, atol=1e-13)
    for k in range(len(q)):
        np.testing.assert_allclose(G_src[k], fd_jacobian(model, q[k]), atol=1e-7)


def test_source_U_and_tree_jacobian_relate_to_the_course_U():
    """W^T J_t^T U_source = U_course (column i: J_{i,c}^T s_i), since J_{i,p}^T s_i = 0."""
    model = MODELS["elastic"]
    q, *_ = states(model)
    S, U_course = model.static_matrices(q)
    U = branch_map(model, q)
    # f_B -> tip forces: chain i's tip gets s_i f_B,i, and their sum is S f_B
    fB = np.array([0.7, -1.3])
    tips = (U @ fB).reshape(len(q), 2, 2)
    np.testing.assert_allclose(tips.sum(axis=1), S @ fB, atol=1e-14)
    Jt = tree_jacobian(model, q)
    np.testing.assert_allclose(np.swapaxes(model.W(q), -1, -2) @ np.swapaxes(Jt, -1, -2) @ U, U_course,
                               atol=1e-13)
    np.testing.assert_allclose((np.swapaxes(Jt, -1, -2) @ U)[..., model.ip, :], 0, atol=1e-13)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("with_force", [False, True])
def test_five_steps_equal_the_schur_complement_form(name, with_force):
    model = MODELS[name]
    q, qd, tau, f = states(model, seed=1)
    for k in range(len(q)):
        fk = f[k] if with_force else None
        a = scdd_forward(model, q[k], qd[k], tau[k], f_ext=fk)
        ref = model.forward_dynamics(q[k], qd[k], tau[k], "scdd", f_ext=fk)
        np.testing.assert_allclose(a, ref, rtol=1e-10, atol=1e-10 * np.abs(ref).max())
        np.testing.assert_allclose(a, model.forward_dynamics(q[k], qd[k], tau[k], "compact", f_ext=fk),
                                   rtol=1e-9, atol=1e-9 * np.abs(ref).max())
        # the accelerations keep the loop closed
        assert np.abs(model.A(q[k]) @ a + model.Adot(q[k], model.velocities(q[k], qd[k]))
                      @ model.velocities(q[k], qd[k])).max() < 1e-8 * np.abs(a).max()


def test_no_force_is_zero_force():
    model = MODELS["elastic"]
    q, qd, tau, _ = states(model, n=2, seed=2)
    np.testing.assert_array_equal(scdd_forward(model, q[0], qd[0], tau[0]),
                                  scdd_forward(model, q[0], qd[0], tau[0], f_ext=[0.0, 0.0]))
    np.testing.assert_array_equal(model.forward_dynamics(q[0], qd[0], tau[0], "kkt"),
                                  model.forward_dynamics(q[0], qd[0], tau[0], "kkt", f_ext=np.zeros(2)))


def test_step_three_returns_the_virtual_torques_the_solve_found():
    """At the five-step motion the source's (35) gives tau_p, and (39) gives the cut force lambda."""
    model = MODELS["elastic"]
    q, qd, tau, f = states(model, n=3, seed=3)
    for k in range(3):
        a = scdd_forward(model, q[k], qd[k], tau[k], f_ext=f[k])
        qd_t = model.velocities(q[k], qd[k])
        tau_p = virtual_passive_torques(model, q[k], qd_t, a)
        f_con = tip_constraint_forces(model, q[k], tau_p, active_torque_difference(model, q[k], tau_p))
        forces = fuse_external_force(model, q[k], f_con, f[k])
        tau_t = np.zeros(model.N)
        tau_t[model.ia] = tau[k]
        np.testing.assert_allclose(chain_direct_dynamics(model, q[k], qd_t, tau_t, forces), a,
                                   rtol=1e-10, atol=1e-9)
        # the chains' forces balance the external one on the end-effector
        np.testing.assert_allclose(forces.sum(axis=0), -f[k], atol=1e-10)
        # the constraint part is the cut force of Lagrange's first kind: lambda = A_p^-T tau_p
        lam = np.linalg.solve(model.A(q[k])[:, model.ip].T, tau_p)
        np.testing.assert_allclose(f_con, [-lam, lam], atol=1e-12 * (1 + np.abs(lam).max()))


def test_rigid_holding_torque_is_the_virtual_work_map():
    """Rigid five-bar at rest: tau = eta_c - G^T f (G from finite differences) holds it still."""
    model = MODELS["rigid"]
    q, _, _, f = states(model, seed=4)
    for k in range(len(q)):
        eta_c = model.W(q[k]).T @ model.tree_gravload(q[k])
        tau = eta_c - fd_jacobian(model, q[k]).T @ f[k]
        a = scdd_forward(model, q[k], np.zeros(2), tau, f_ext=f[k])
        assert np.abs(a).max() < 1e-5, a                 # finite-difference G to ~1e-8
        # and a torque without the force term does not hold it
        assert np.abs(scdd_forward(model, q[k], np.zeros(2), eta_c, f_ext=f[k])).max() > 1e-2


def test_external_force_response_is_W_Mc_inverse_G_transpose_f():
    model = MODELS["elastic"]
    q, qd, tau, f = states(model, n=3, seed=5)
    for k in range(3):
        cm = model.compact(q[k], qd[k])
        expected = model.W(q[k]) @ np.linalg.solve(cm.M, fd_jacobian(model, q[k]).T @ f[k])
        got = scdd_forward(model, q[k], qd[k], tau[k], f_ext=f[k]) - scdd_forward(model, q[k], qd[k], tau[k])
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6 * np.abs(expected).max())


def test_passive_motion_rebuilds_the_passive_joints():
    model = MODELS["elastic"]
    q, qd, *_ = states(model, n=1, seed=6)
    bent = q[0].copy()
    bent[model.ip] += 0.02
    pm = passive_motion(model, bent, qd[0])
    np.testing.assert_allclose(pm.q, q[0], atol=1e-12)
    np.testing.assert_allclose(pm.A @ pm.qd, 0, atol=1e-12)


def test_complexity_claim_ratio_is_bounded_by_n_k_squared():
    n_e = np.arange(1, 200)
    for n_k in (2, 3, 6):
        c = complexity_claim(n_k, n_e)
        np.testing.assert_allclose(c["ratio"], c["compact"] / c["scdd"])
        assert np.all(c["ratio"] < n_k ** 2) and c["ratio"][-1] > 0.98 * n_k ** 2
        assert np.all(np.diff(c["ratio"]) > 0)
    # the operation counts of rvc's own solvers show the same bounded factor for the factorizations
    r = [operation_counts(FiveBar(n_elastic=k)) for k in (1, 8, 40)]
    ratios = [c["factor_compact"] / c["factor_scdd"] for c in r]
    assert ratios[0] < ratios[1] < ratios[2] < 2 ** 2


def test_bad_input():
    model = MODELS["elastic"]
    q = model.q_home
    with pytest.raises(ValueError, match="f_ext"):
        scdd_forward(model, q, np.zeros(4), [0.0, 0.0], f_ext=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="f_ext"):
        model.forward_dynamics(q, np.zeros(4), [0.0, 0.0], f_ext=[np.nan, 0.0])
    with pytest.raises(TypeError, match="f_ext"):
        model.forward_dynamics(q, np.zeros(4), [0.0, 0.0], f_ext="up")
    with pytest.raises(ValueError, match="tau"):
        scdd_forward(model, q, np.zeros(4), [0.0, 0.0, 1.0])
