"""rvc.parallel.closed and fivebar: the loop's matrices against derivatives along a motion, the
rigid plan against its own end-effector path, the modes against the linearised equations."""

import numpy as np
import pytest
import scipy.linalg

from rvc.parallel import FiveBar, rigid_plan

RNG = np.random.default_rng(101)


@pytest.fixture(scope="module")
def robot():
    return FiveBar()


def _path(robot, qd_c, qdd_c, s):
    """Tree coordinates along q_c(s) = q_c0 + s qd + s^2/2 qdd, re-closed by assembly."""
    q0 = robot.q_home
    qc = q0[robot.ic] + s * qd_c + 0.5 * s * s * qdd_c
    return robot.assemble(qc[robot.ca], qc[robot.ce])


def test_tree_rates_and_accelerations_are_the_derivatives_along_the_loop(robot):
    qd, qdd = RNG.normal(0, 0.5, 4), RNG.normal(0, 0.5, 4)
    h = 1e-5
    qp, q0, qm = (_path(robot, qd, qdd, s) for s in (h, 0.0, -h))
    np.testing.assert_allclose(robot.velocities(q0, qd), (qp - qm) / (2 * h), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(robot.accelerations(q0, qd, qdd), (qp - 2 * q0 + qm) / h ** 2, rtol=1e-4,
                               atol=1e-4)


def test_wdot_is_the_derivative_of_w_along_the_motion(robot):
    qd = RNG.normal(0, 0.5, 4)
    h = 1e-6
    Wp, Wm = robot.W(_path(robot, qd, np.zeros(4), h)), robot.W(_path(robot, qd, np.zeros(4), -h))
    np.testing.assert_allclose(robot.Wdot(robot.q_home, qd), (Wp - Wm) / (2 * h), rtol=1e-6, atol=1e-7)


def test_the_rigid_plan_moves_the_end_effector_as_planned(robot):
    t = np.linspace(0.05, 0.45, 5)
    h = 1e-5
    plan = rigid_plan(robot, (0.0, 0.40), (0.08, 0.36), 0.5, t)
    np.testing.assert_allclose(robot.fkine(plan.q), plan.x, atol=1e-10)
    # x'' = d^2/dt^2 fkine(q(t)): from the plan's own q at t +- h
    up = rigid_plan(robot, (0.0, 0.40), (0.08, 0.36), 0.5, t + h)
    down = rigid_plan(robot, (0.0, 0.40), (0.08, 0.36), 0.5, t - h)
    np.testing.assert_allclose(robot.velocities(plan.q, plan.qd), (up.q - down.q) / (2 * h), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(robot.accelerations(plan.q, plan.qd, plan.qdd),
                               (up.q - 2 * plan.q + down.q) / h ** 2, rtol=1e-3, atol=1e-3)
    # the springs stay undeflected in the rigid plan
    np.testing.assert_allclose(plan.q[:, robot.ie], 0.0, atol=0)


def test_the_modes_are_the_linearised_motor_locked_vibrations(robot):
    modes = robot.modes()
    q = modes.q
    cm = robot.compact(q, np.zeros(4))
    e = robot.ce
    M, K = cm.M[np.ix_(e, e)], cm.K[np.ix_(e, e)]
    w2 = scipy.linalg.eigvals(np.linalg.solve(M, K)).real
    np.testing.assert_allclose(np.sort(modes.frequency),
                               np.sort(np.sqrt(w2)) / (2 * np.pi), rtol=1e-9)


def test_a_stiffer_spring_raises_each_frequency_by_the_square_root():
    """Scale: K x 4 with the same inertia doubles every natural frequency."""
    soft, stiff = FiveBar(K=500.0), FiveBar(K=2000.0)
    np.testing.assert_allclose(stiff.modes().frequency, 2 * soft.modes().frequency, rtol=1e-9)
