"""Properties every ParallelModel keeps: the five-bar, the 3-RRR and the Delta robot (rvc.models).

A W = 0; A, W, Wdot and the end-effector Jacobian against finite differences (of h, of assembly, of W
along a motion, of fkine after assembly); M_c symmetric positive definite and dM_c/dt - 2 C_c skew; the
three inverse and the three forward dynamics agreeing to 1e-9 and inverting each other; energy conserved
by a simulation without damping and with zero drive; and the bad inputs: a closure that cannot assemble,
roles that leave a mechanism under- or over-actuated, a type-II singular configuration (least-norm answer
and a SingularityWarning).
"""

import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import rvc
from rvc.models import delta_robot, fivebar_model, planar_arm, rrr3
from rvc.parallel import (ParallelModel, parallel_assemble, parallel_deflection, parallel_energy, parallel_fdyn,
                          parallel_ikine, parallel_modes, parallel_singularity, platform_closure, point_closure)

H = 1e-6
MODELS = {"five-bar": fivebar_model, "five-bar, 2 springs": lambda: fivebar_model(n_elastic=2),
          "3-RRR": rrr3, "3-RRR, rigid": lambda: rrr3(n_elastic=0), "Delta": delta_robot,
          "Delta, 2 springs": lambda: delta_robot(n_elastic=2)}


@pytest.fixture(scope="module", params=list(MODELS))
def model(request):
    return MODELS[request.param]()


def moved(model, seed=0):
    """A deflected, moving state: tree q, compact rates and accelerations, actuated torques."""
    rng = np.random.default_rng(seed)
    q = parallel_assemble(model, model.q_home[model.ia] + rng.uniform(-0.05, 0.05, len(model.ia)),
                          rng.uniform(-0.02, 0.02, len(model.ie)))
    return q, rng.normal(size=model.n_compact), rng.normal(size=model.n_compact), rng.normal(size=len(model.ia))


def compact_to_tree(model, qc, guess):
    return parallel_assemble(model, qc[model.ca], qc[model.ce], guess=guess)


def test_AW_is_zero_and_A_is_dh_dq(model):
    q, *_ = moved(model)
    A, W = model.A(q), model.W(q)
    assert np.abs(A @ W).max() < 1e-12
    fd = np.stack([(model.h(q + H * e) - model.h(q - H * e)) / (2 * H) for e in np.eye(model.N)], -1)
    np.testing.assert_allclose(A, fd, atol=1e-8)


def test_W_Wdot_and_jacobian_against_differences(model):
    q, qd, _, _ = moved(model, 1)
    qc = q[model.ic]
    W = model.W(q)
    cols = [(compact_to_tree(model, qc + H * e, q) - compact_to_tree(model, qc - H * e, q)) / (2 * H)
            for e in np.eye(model.n_compact)]
    np.testing.assert_allclose(W, np.stack(cols, -1), atol=1e-7)
    qp, qm = compact_to_tree(model, qc + H * qd, q), compact_to_tree(model, qc - H * qd, q)
    np.testing.assert_allclose(model.Wdot(q, qd), (model.W(qp) - model.W(qm)) / (2 * H), atol=1e-6)
    G = model.jacobian(q)
    cols = [(model.fkine(compact_to_tree(model, qc + H * e, q)) - model.fkine(compact_to_tree(model, qc - H * e, q)))
            / (2 * H) for e in np.eye(model.n_compact)]
    np.testing.assert_allclose(G, np.stack(cols, -1), atol=1e-7)
    # Adot qd is the derivative of A along the motion
    qd_t = W @ qd
    np.testing.assert_allclose(model.Adot(q, qd_t), (model.A(q + H * qd_t) - model.A(q - H * qd_t)) / (2 * H),
                               atol=1e-7)


def test_compact_inertia_spd_and_skew(model):
    q, qd, _, _ = moved(model, 2)
    cm = model.compact(q, qd)
    np.testing.assert_allclose(cm.M, cm.M.T, atol=1e-14)
    assert np.linalg.eigvalsh(cm.M).min() > 0
    qc = q[model.ic]
    qp, qm = compact_to_tree(model, qc + H * qd, q), compact_to_tree(model, qc - H * qd, q)
    Mdot = (model.compact(qp, qd).M - model.compact(qm, qd).M) / (2 * H)
    S = Mdot - 2 * cm.C
    np.testing.assert_allclose(S, -S.T, atol=1e-6 * max(1.0, np.abs(Mdot).max()))


def test_the_three_methods_agree(model):
    q, qd, qdd, tau = moved(model, 3)
    taus = [model.inverse_dynamics(q, qd, qdd, m) for m in ("lagrange", "lda", "compact")]
    scale = max(1.0, np.abs(taus[0]).max())
    for t in taus[1:]:
        np.testing.assert_allclose(t, taus[0], rtol=0, atol=1e-9 * scale)
    accs = [model.forward_dynamics(q, qd, tau, m) for m in ("compact", "kkt", "scdd")]
    scale = max(1.0, np.abs(accs[0]).max())
    for a in accs[1:]:
        np.testing.assert_allclose(a, accs[0], rtol=0, atol=1e-9 * scale)
    # forward and inverse dynamics invert each other, with compact drive forces and an end-effector load
    tau_c = np.random.default_rng(4).normal(size=model.n_compact)
    f = np.linspace(-1.0, 1.0, model.n_x)
    for m in ("compact", "kkt", "scdd"):
        a = model.forward_dynamics(q, qd, tau_c, m)
        np.testing.assert_allclose(model.inverse_dynamics(q, qd, a), tau_c, atol=1e-9 * scale)
        a = model.forward_dynamics(q, qd, tau_c, m, f_ext=f)
        G = model.jacobian(q)
        np.testing.assert_allclose(model.inverse_dynamics(q, qd, a), tau_c + G.T @ f, atol=1e-9 * scale)


@pytest.mark.parametrize("build", [rrr3, delta_robot], ids=["3-RRR", "Delta"])
def test_energy_is_conserved_without_damping(build):
    model = build(D=0.0)
    q0, qd0, _, _ = moved(model, 5)
    qd0 = 0.2 * qd0
    guess = [q0]

    def rhs(t, y):
        qc, qdc = y[:model.n_compact], y[model.n_compact:]
        q = compact_to_tree(model, qc, guess[0])
        guess[0] = q
        qdd = parallel_fdyn(model, q, qdc, np.zeros(len(model.ia)))
        return np.concatenate([qdc, qdd[model.ic]])

    y0 = np.concatenate([q0[model.ic], qd0])
    # 5 ms, a sixth of the first mode's period (about 33 Hz): kinetic and elastic energy trade places
    sol = solve_ivp(rhs, (0.0, 0.005), y0, method="DOP853", rtol=1e-11, atol=1e-12, t_eval=[0.0, 0.0025, 0.005])
    E = []
    for y in sol.y.T:
        q = compact_to_tree(model, y[:model.n_compact], q0)
        T, V = parallel_energy(model, q, y[model.n_compact:])
        E.append(T + V)
    assert sol.success and np.ptp(E) < 1e-8 * max(1.0, abs(E[0]))
    assert np.ptp(sol.y[0]) > 1e-4           # it moved


def test_closure_that_cannot_assemble():
    robot = fivebar_model(L2=0.3)
    with pytest.raises(ValueError, match="qa, qe: the closure does not assemble"):
        parallel_assemble(robot, [np.pi, 0.0], [0.0, 0.0])         # elbows 0.7 m apart, distal links 0.3
    with pytest.raises(ValueError, match="x: the closure does not assemble"):
        parallel_ikine(rrr3(), [0.5, 0.0, 0.0])                     # out of the platform's reach
    with pytest.raises(ValueError, match="q: expected tree coordinates"):
        robot.W(robot.q_home + 0.1)


def test_roles_under_and_over_actuated():
    left, right = planar_arm([0.3, 0.4], [0.2, 0.2], base=(-0.1, 0)), planar_arm([0.3, 0.4], [0.2, 0.2], base=(0.1, 0))
    with pytest.raises(ValueError, match="over-actuated"):
        ParallelModel([left, right], ["aa", "ap"], point_closure("xy"))
    three = planar_arm([0.2, 0.2, 0.3], [0.2, 0.2, 0.2])
    with pytest.raises(ValueError, match="under-actuated"):
        ParallelModel([three, right], ["app", "ap"], point_closure("xy"))
    with pytest.raises(ValueError, match="roles: expected 2 actuated joints"):
        ParallelModel([three, right], ["eep", "ap"], point_closure("xy"))
    with pytest.raises(ValueError, match="roles: expected for chain 2"):
        ParallelModel([left, right], ["ap", "ax"], point_closure("xy"))
    with pytest.raises(ValueError, match="closure: expected 2 attachment points"):
        ParallelModel([left, right], ["ap", "ap"], platform_closure([[0, 0]], mass=1.0))


def test_type_two_singularity_warns_and_gives_the_least_norm_answer():
    robot = fivebar_model()
    # elbows straight out at (-0.35, 0) and (0.35, 0), the distal links in one line through x = (0, 0)
    q = np.array([np.pi, 0.0, -np.pi, 0.0, 0.0, np.pi])
    assert np.abs(robot.h(q)).max() < 1e-12
    assert parallel_singularity(robot, q) < 1e-12
    A = robot.A(q)
    with pytest.warns(rvc.SingularityWarning, match="A_p is singular here"):
        W = robot.W(q)
    np.testing.assert_allclose(W[robot.ip], -np.linalg.pinv(A[:, robot.ip]) @ A[:, robot.ic], atol=1e-12)
    np.testing.assert_allclose(W[robot.ic], np.eye(robot.n_compact))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        robot.W(robot.q_home)                                       # no warning away from it


def test_orientation_closure_of_a_leg_fixed_to_the_platform():
    """Leg 1 of the 3-RRR carrying the platform pin as its own (massless, zero-length) third joint, its tip
    frame fixed to the platform (orientation closure): the same mechanism, so the same compact dynamics."""
    from rvc.models import DHRobot, RevoluteDH

    robot = rrr3()
    leg = robot.chains[0]
    pinned = DHRobot([*leg.links, RevoluteDH(a=0.0)], base=leg.base, gravity=leg.gravity)
    c = robot.closure
    offset = 0.3                                           # leg 1's tip angle minus the platform's
    closure = platform_closure(c.attachments, mass=c.mass, inertia=c.inertia,
                               orientation=(True, False, False), offsets=[offset, 0.0, 0.0])
    fixed = ParallelModel([pinned, *robot.chains[1:]], ["aepp", "aep", "aep"], closure,
                          stiffness=300.0, damping=0.05, gravity=robot.gravity)
    assert fixed.k == robot.k + 1 and fixed.n_compact == robot.n_compact
    state = moved(robot, 7)
    q, qd, qdd, tau = state
    qf = np.insert(q, 3, q[-1] - q[robot.slices[0]].sum() + offset)     # r1 = phi - (a1 + e1 + p1) + offset
    assert np.abs(fixed.h(qf)).max() < 1e-12
    a, b = fixed.compact(qf, qd), robot.compact(q, qd)
    for k in ("M", "C", "eta", "K", "D"):
        np.testing.assert_allclose(getattr(a, k), getattr(b, k), atol=1e-12)
    np.testing.assert_allclose(fixed.jacobian(qf), robot.jacobian(q), atol=1e-12)
    for method in ("compact", "kkt"):
        acc = fixed.forward_dynamics(qf, qd, tau, method)
        np.testing.assert_allclose(np.delete(acc, 3), robot.forward_dynamics(q, qd, tau), rtol=1e-9)
    with pytest.raises(ValueError, match="body 1's is singular"):       # the massless pin joint
        fixed.forward_dynamics(qf, qd, tau, "scdd")
    np.testing.assert_allclose(fixed.inverse_dynamics(qf, qd, qdd, "lagrange"),
                               robot.inverse_dynamics(q, qd, qdd), atol=1e-9)


@pytest.mark.parametrize("build", [rrr3, delta_robot], ids=["3-RRR", "Delta"])
def test_symmetric_robots_sag_straight_down_and_have_a_pair_of_modes(build):
    """Three legs 120 degrees apart: at the centre, gravity's sag of the Delta is straight down, and the
    elastic modes of both robots come as one pair of equal frequencies (the symmetry's two-dimensional
    representation) and one apart."""
    robot = build()
    f = parallel_modes(robot).frequency
    assert f.size == 3 and np.all(np.diff(f) >= 0) and f[0] > 0
    assert abs(f[1] - f[0]) < 1e-9 * f[0] and f[2] - f[1] > 1e-3 * f[2]
    s = parallel_deflection(robot)
    assert np.all(s.deflection != 0)
    if build is delta_robot:
        assert s.displacement[2] < 0 and np.abs(s.displacement[:2]).max() < 1e-9 * abs(s.displacement[2])
    stiffer = parallel_deflection(build(K=4 * (300.0 if build is rrr3 else 200.0)))
    # linear springs: four times stiffer sags a quarter as much (to first order)
    np.testing.assert_allclose(stiffer.displacement, s.displacement / 4, rtol=0,
                               atol=0.02 * np.abs(s.displacement).max() / 4)


def test_3rrr_type_two_singularity_all_distal_links_through_the_centre():
    """The 3-RRR's type-II singularity: every distal link points at the platform's centre, so the platform
    can turn about it with the motors held.  Elbows at (r_p + L2) from the centre, L1 from their bases:
    cos(beta) = (E^2 + R_b^2 - L1^2) / (2 E R_b) for the angle phi the platform is turned by."""
    robot = rrr3(n_elastic=0)
    c = robot.closure
    R_b = float(np.linalg.norm(robot.chains[0].base[:2, 3]))
    r_p = float(np.linalg.norm(c.attachments[0]))
    L1, L2 = robot.chains[0].links[0].a, robot.chains[0].links[1].a
    E = r_p + L2
    phi = np.arccos((E ** 2 + R_b ** 2 - L1 ** 2) / (2 * E * R_b))
    q = np.zeros(robot.N)
    q[robot.platform] = [0.0, 0.0, phi]
    for s, leg in zip(robot.slices, robot.chains):
        B = leg.base[:2, 3]
        u = np.array([np.cos(np.arctan2(B[1], B[0]) + phi), np.sin(np.arctan2(B[1], B[0]) + phi)])
        elbow, tip = E * u, r_p * u
        q[s.start] = np.arctan2(*(elbow - B)[::-1])
        q[s.start + 1] = np.arctan2(*(tip - elbow)[::-1]) - q[s.start]
    assert np.abs(robot.h(q)).max() < 1e-12
    assert parallel_singularity(robot, q) < 1e-9
    A = robot.A(q)
    with pytest.warns(rvc.SingularityWarning, match="A_p is singular here"):
        W = robot.W(q)
    np.testing.assert_allclose(W[robot.ip], -np.linalg.pinv(A[:, robot.ip]) @ A[:, robot.ic], atol=1e-9)
    # the free motion: the platform turning about its centre, with the motors held, keeps A qd = 0
    _, _, Vt = np.linalg.svd(A[:, robot.ip])
    free = Vt[-1] / Vt[-1][-1]
    assert abs(free[-1]) == 1 and np.abs(free[-3:-1]).max() < 1e-9      # (x, y) still, phi turning
