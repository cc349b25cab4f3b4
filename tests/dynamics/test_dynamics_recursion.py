"""The link-frame recursions behind rne, inertia and accel (rvc.dynamics.recursion).

Three independent checks: the spatial-vector recursion in the world frame
(``rne_reference``, written out from rvc's spatial pieces as 9.2 presents it,
beside ``rne`` in rvc.dynamics.rne) gives the
same torques; one configuration in Python floats, small batches one at a
time and long batches as rows (in several blocks) give the same numbers;
and arms that exercise every branch of the recursions (prismatic joints,
offsets, full inertia tensors, massless links, base and tool, both DH
conventions) agree with both.
"""

import numpy as np
import pytest

import rvc
from rvc import (DHRobot, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH, accel, inertia,
                 inertia_reference, jacobe, rne, rne_reference, simulate)
from rvc.dynamics import recursion
from rvc.dynamics.recursion import (batch_rows, boundary_conditions, composite_inertia,
                                    forward_dynamics, link_table, newton_euler)
from rvc.models import puma560, puma560_mdh, stanford, twolink

RNG = np.random.default_rng(12)


def _inertia_tensor(rng):
    A = rng.normal(size=(3, 3))
    return A @ A.T * 0.05 + np.diag(rng.uniform(0.01, 0.1, 3))


def general_arm(mdh: bool, rng=RNG):
    """Five links with every parameter set: offsets, a prismatic joint, full inertias."""
    make = {(False, 0): RevoluteDH, (False, 1): PrismaticDH,
            (True, 0): RevoluteMDH, (True, 1): PrismaticMDH}
    links = []
    for sigma in [0, 0, 1, 0, 0]:
        kw = dict(a=rng.uniform(-0.4, 0.4), alpha=rng.uniform(-np.pi, np.pi),
                  offset=rng.uniform(-0.5, 0.5), m=rng.uniform(0.5, 3.0),
                  r=rng.uniform(-0.2, 0.2, 3), I=_inertia_tensor(rng), Jm=rng.uniform(0, 1e-3),
                  B=rng.uniform(0, 1e-3), Tc=[rng.uniform(0, 0.2), -rng.uniform(0, 0.2)],
                  G=rng.uniform(-50, 50))
        if sigma == 0:
            kw["d"] = rng.uniform(-0.3, 0.3)
        else:
            kw["theta"] = rng.uniform(-np.pi, np.pi)
        links.append(make[(mdh, sigma)](**kw))
    links[1].m = 0.0                                         # a massless link with inertia
    robot = DHRobot(links, name="general " + ("MDH" if mdh else "DH"))
    robot.base = rvc.transl(0.1, -0.2, 0.3) @ rvc.trotx(0.4) @ rvc.troty(-0.7)
    robot.tool = rvc.transl(0.02, 0.05, 0.1) @ rvc.trotz(0.3) @ rvc.trotx(0.2)
    robot.gravity = [0.5, -1.0, -9.81]
    return robot


def robots():
    p = puma560()
    p.tool = rvc.transl(0, 0, 0.2)
    return [p, puma560_mdh(), stanford(), twolink(), general_arm(False), general_arm(True)]


def states(robot, k, rng=RNG):
    return (rng.uniform(-1.5, 1.5, (k, robot.n)), rng.uniform(-1, 1, (k, robot.n)),
            rng.uniform(-1, 1, (k, robot.n)))


def spatial_rne(robot, q, qd, qdd, fext=None):
    """rne of one state by the world-frame spatial-vector recursion of 9.2, now in the package."""
    return rne_reference(robot, q, qd, qdd, fext=fext)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_rne_equals_the_spatial_vector_recursion(robot):
    Q, QD, QDD = states(robot, 4)
    W = RNG.uniform(-2, 2, (4, 6))
    for q, qd, qdd, w in zip(Q, QD, QDD, W):
        np.testing.assert_allclose(rne(robot, q, qd, qdd), spatial_rne(robot, q, qd, qdd),
                                   atol=1e-10)
        np.testing.assert_allclose(rne(robot, q, qd, qdd, fext=w),
                                   spatial_rne(robot, q, qd, qdd, fext=w), atol=1e-10)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_rne_and_inertia_equal_their_references_single_and_batched(robot):
    """The engines (link-frame recursion, composite rigid body) equal the textbook definitions
    (world-frame spatial recursion, columns of unit accelerations), one configuration and rows."""
    Q, QD, QDD = states(robot, 5)
    W = RNG.uniform(-2, 2, (5, 6))
    tau, M = rne(robot, Q, QD, QDD, fext=W), inertia(robot, Q)
    for k in range(5):
        ref = rne_reference(robot, Q[k], QD[k], QDD[k], fext=W[k])
        np.testing.assert_allclose(tau[k], ref, atol=1e-10)
        np.testing.assert_allclose(rne(robot, Q[k], QD[k], QDD[k], fext=W[k]), ref, atol=1e-10)
        Mref = inertia_reference(robot, Q[k])
        np.testing.assert_allclose(M[k], Mref, atol=1e-10)
        np.testing.assert_allclose(inertia(robot, Q[k]), Mref, atol=1e-10)
    g0 = rne_reference(robot, Q[0], np.zeros(robot.n), np.zeros(robot.n), gravity=[0, 0, 0])
    assert np.allclose(g0, -rvc.friction(robot, np.zeros(robot.n)))   # at rest, no gravity: no torque


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_inertia_is_the_columns_of_rne_and_accel_inverts_rne(robot):
    q, qd, qdd = (x[0] for x in states(robot, 1))
    cols = np.stack([rne(robot, q, np.zeros(robot.n), e, gravity=[0, 0, 0])
                     for e in np.eye(robot.n)], axis=1)
    np.testing.assert_allclose(inertia(robot, q), cols, atol=1e-10)
    tau = rne(robot, q, qd, qdd)
    np.testing.assert_allclose(accel(robot, q, qd, tau), qdd, atol=1e-8)
    W = np.array([1.0, -2.0, 0.5, 0.1, 0.2, -0.3])
    np.testing.assert_allclose(rne(robot, q, qd, qdd, fext=W) - tau, jacobe(robot, q).T @ W,
                               atol=1e-10)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
@pytest.mark.parametrize("N", [1, 5, recursion.SMALL + 1, 70])
def test_floats_small_batches_and_rows_agree(robot, N, monkeypatch):
    """One configuration at a time (floats) against one call over N (rows in blocks of 32)."""
    monkeypatch.setattr(recursion, "BLOCK", 32)               # N = 70 runs as three blocks
    Q, QD, QDD = states(robot, N)
    W = RNG.uniform(-2, 2, (N, 6))
    tau, wb = rne(robot, Q, QD, QDD, fext=W, base_wrench=True)
    M = inertia(robot, Q)
    A = accel(robot, Q, QD, tau, fext=W)
    for k in range(N):
        t1, w1 = rne(robot, Q[k], QD[k], QDD[k], fext=W[k], base_wrench=True)
        np.testing.assert_allclose(tau[k], t1, atol=1e-11)
        np.testing.assert_allclose(wb[k], w1, atol=1e-11)
        np.testing.assert_allclose(M[k], inertia(robot, Q[k]), atol=1e-12)
        np.testing.assert_allclose(A[k], accel(robot, Q[k], QD[k], tau[k], fext=W[k]), atol=1e-8)
        np.testing.assert_allclose(A[k], QDD[k], atol=1e-7)


def test_broadcasting_between_q_qd_qdd_and_fext():
    robot = puma560()
    Q, QD, QDD = states(robot, 20)
    one = rne(robot, Q[0], QD, QDD[3])                       # one q, many speeds
    np.testing.assert_allclose(one, rne(robot, np.tile(Q[0], (20, 1)), QD, np.tile(QDD[3], (20, 1))),
                               atol=1e-12)
    grid = rne(robot, Q[:4, None, :], QD[None, :3, :])       # (4, 1, 6) with (1, 3, 6)
    assert grid.shape == (4, 3, 6)
    np.testing.assert_allclose(grid[2, 1], rne(robot, Q[2], QD[1]), atol=1e-12)
    W = RNG.uniform(-1, 1, (20, 6))
    np.testing.assert_allclose(rne(robot, Q[0], fext=W)[7], rne(robot, Q[0], fext=W[7]), atol=1e-12)
    Mg = inertia(robot, Q.reshape(4, 5, 6))
    np.testing.assert_allclose(Mg[3, 2], inertia(robot, Q[17]), atol=1e-12)
    np.testing.assert_allclose(accel(robot, Q[:2], QD[0], np.zeros((3, 1, 6)))[2, 1],
                               accel(robot, Q[1], QD[0], np.zeros(6)), atol=1e-10)


def test_the_recursions_by_hand_for_the_two_link_arm():
    """The two-link arm's closed-form M and gravity torque (point masses at the link ends)."""
    tl = twolink()
    table = link_table(tl)
    q1, q2 = 0.3, -0.8
    (m1, a1, _, _), (m2, a2, _, _) = table.bodies[0][:4], table.bodies[1][:4]   # r = (a, 0, 0)
    l1 = 1.0
    M = np.array(composite_inertia(table, [q1, q2]))
    c2 = np.cos(q2)
    M11 = m1 * a1**2 + m2 * (l1**2 + a2**2 + 2 * l1 * a2 * c2)
    M12 = m2 * (a2**2 + l1 * a2 * c2)
    np.testing.assert_allclose(M, [[M11, M12], [M12, m2 * a2**2]], atol=1e-12)
    a0, _ = boundary_conditions(tl, table, np.asarray(tl.gravity))
    tau, _ = newton_euler(table, [q1, q2], [0.0, 0.0], [0.0, 0.0], a0)
    g = 9.8
    G2 = m2 * g * a2 * np.cos(q1 + q2)
    G1 = (m1 * a1 + m2 * l1) * g * np.cos(q1) + G2
    np.testing.assert_allclose(tau, [G1, G2], atol=1e-12)
    np.testing.assert_allclose(forward_dynamics(table, [q1, q2], [0.0, 0.0], tau, a0), 0, atol=1e-12)


def test_link_table_reads_changed_links_and_refuses_no_dynamics():
    robot = puma560()
    before = inertia(robot, robot.qn)
    robot.links[2].m = 10.0                                  # read afresh at every call
    assert not np.allclose(inertia(robot, robot.qn), before)
    with pytest.raises(ValueError, match="robot: expected a robot with dynamic parameters"):
        link_table(rvc.models.planar2())


def test_batch_rows_bookkeeping(monkeypatch):
    monkeypatch.setattr(recursion, "BLOCK", 4)
    x = np.arange(30.0).reshape(10, 3)
    run = lambda a, b: [a[0] * b[0], a[1] + b[1], a[2] - b[2]]   # noqa: E731
    out = batch_rows([x, np.array([2.0, 3.0, 4.0])], run, (3,))
    np.testing.assert_array_equal(out, x * [2, 1, 1] + [0, 3, -4])
    assert batch_rows([x[:2], None], lambda a, b: [a[0], 0.0], (2,)).shape == (2, 2)
    assert batch_rows([x[0]], lambda a: a, (3,)).shape == (3,)


def test_simulate_is_rk4_of_accel():
    """simulate's loop (floats, one read of the arm) against RK4 written out with accel."""
    robot = puma560().nofriction()
    traj = rvc.jtraj(robot.qz, robot.qr, np.linspace(0, 0.2, 21))
    law = rvc.computed_torque_law(robot, traj, 100, 20)
    q0 = robot.qz + 0.05
    sim = simulate(robot, law, q0, T=0.2, dt=0.01)
    q, qd, dt = q0.copy(), np.zeros(6), 0.01
    for k in range(20):
        tau = law(k * dt, q, qd)
        f = lambda q, qd: (qd, accel(robot, q, qd, tau))     # noqa: E731
        k1 = f(q, qd)
        k2 = f(q + dt / 2 * k1[0], qd + dt / 2 * k1[1])
        k3 = f(q + dt / 2 * k2[0], qd + dt / 2 * k2[1])
        k4 = f(q + dt * k3[0], qd + dt * k3[1])
        q = q + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        qd = qd + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        np.testing.assert_allclose(sim.q[k + 1], q, atol=1e-12)
        np.testing.assert_allclose(sim.qd[k + 1], qd, atol=1e-10)


def test_simulate_names_a_robot_whose_inertia_is_singular():
    robot = DHRobot([RevoluteDH(a=1, m=1), RevoluteDH(a=1)], name="limp")
    with pytest.raises(ValueError, match="invertible inertia matrix .* 'limp'"):
        simulate(robot, lambda t, q, qd: np.zeros(2), [0, 0], T=0.1, dt=0.05)
