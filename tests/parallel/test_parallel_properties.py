"""rvc.parallel: the documented equations of the closed-chain schemes asserted directly.

Baumgarte's stabilised constraint h'' + 2 alpha h' + beta^2 h = 0 on the solvers'
accelerations, the quintic's derivatives and its time scaling, the five-bar's assembly
batched equal to single over the workspace with its angles in their documented range,
and the move's motor torques rebuilt from the simulated state.
"""

import numpy as np
import pytest

from rvc.parallel import FiveBar, quintic, simulate_move

RNG = np.random.default_rng(100)


@pytest.fixture(scope="module")
def robot():
    return FiveBar()


def _off_loop_state(robot, seed=0):
    rng = np.random.default_rng(seed)
    q = robot.q_home + rng.normal(0, 1e-3, robot.N)       # a little off the loop: h != 0
    qd = rng.normal(0, 0.5, robot.N)                        # and not admissible: A qd != 0
    return q, qd


@pytest.mark.parametrize("solver", ["kkt", "scdd"])
@pytest.mark.parametrize("alpha, beta", [(0.0, 0.0), (20.0, 20.0), (5.0, 30.0)])
def test_the_solvers_obey_baumgartes_equation(robot, solver, alpha, beta):
    q, qd = _off_loop_state(robot, 1)
    tau = np.array([0.3, -0.2])
    qdd = robot._forward(q, qd, tau, solver, alpha, beta)
    A, Adot, h = robot.A(q), robot.Adot(q, qd), robot.h(q)
    hd, hdd = A @ qd, A @ qdd + Adot @ qd
    np.testing.assert_allclose(hdd + 2 * alpha * hd + beta ** 2 * h, 0.0, atol=1e-8)


def test_the_two_stabilised_solvers_agree_off_the_loop(robot):
    """Second, independent check: the KKT system and the per-chain (SCDD) solve give the same
    stabilised accelerations; and the stabilisation only changes them along the constraint rows."""
    q, qd = _off_loop_state(robot, 2)
    tau = np.array([0.1, 0.4])
    kkt = robot._forward(q, qd, tau, "kkt", 20.0, 30.0)
    np.testing.assert_allclose(robot._forward(q, qd, tau, "scdd", 20.0, 30.0), kkt, rtol=1e-9, atol=1e-9)
    plain = robot._forward(q, qd, tau, "kkt")
    M = robot.tree_inertia(q)
    A = robot.A(q)
    # M (qdd_stab - qdd_plain) = A^T dlambda: the difference is a constraint force
    dl, *_ = np.linalg.lstsq(A.T, M @ (kkt - plain), rcond=None)
    np.testing.assert_allclose(A.T @ dl, M @ (kkt - plain), atol=1e-9)


@pytest.mark.parametrize("T", [0.3, 1.0, 2.5])
def test_the_quintics_velocity_and_acceleration_are_its_derivatives(T):
    x0, x1 = np.array([0.1, -0.2]), np.array([0.4, 0.3])
    t = np.linspace(0.02, T - 0.02, 7)
    h = 1e-6
    x, xd, xdd = quintic(x0, x1, T, t)
    xp, xdp, _ = quintic(x0, x1, T, t + h)
    xm, xdm, _ = quintic(x0, x1, T, t - h)
    np.testing.assert_allclose(xd, (xp - xm) / (2 * h), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(xdd, (xdp - xdm) / (2 * h), rtol=1e-6, atol=1e-6)


def test_a_slower_quintic_is_the_same_curve_in_scaled_time():
    x0, x1 = np.array([0.0, 0.0]), np.array([1.0, 2.0])
    s = np.linspace(0, 1, 9)
    x1s, xd1, xdd1 = quintic(x0, x1, 1.0, s)
    x3, xd3, xdd3 = quintic(x0, x1, 3.0, 3.0 * s)
    np.testing.assert_allclose(x3, x1s, atol=1e-15)
    np.testing.assert_allclose(xd3, xd1 / 3, atol=1e-14)
    np.testing.assert_allclose(xdd3, xdd1 / 9, atol=1e-14)
    np.testing.assert_allclose(xd1[[0, -1]], 0, atol=0)
    np.testing.assert_allclose(xdd1[[0, -1]], 0, atol=1e-14)


def _workspace_configurations(robot, n=60):
    xs = np.stack([RNG.uniform(-0.25, 0.25, 4 * n), RNG.uniform(0.2, 0.55, 4 * n)], -1)
    xs = xs[robot.reachable(xs)][:n]
    qa = robot.ikine_rigid(xs) + RNG.normal(0, 0.3, (len(xs), 2))
    qa = (qa + np.pi) % (2 * np.pi) - np.pi
    qe = RNG.normal(0, 0.05, (len(xs), len(robot.ie)))
    return qa, qe


@pytest.mark.parametrize("n_elastic", [1, 2])
def test_assembly_batched_equals_single_exactly_and_passive_angles_stay_in_range(n_elastic):
    robot = FiveBar(n_elastic=n_elastic)
    qa, qe = _workspace_configurations(robot)
    ok = []
    for a, e in zip(qa, qe):
        try:
            ok.append((a, e, robot.assemble(a, e)))
        except ValueError:                                  # the loop cannot close there
            pass
    assert len(ok) > 20
    A = np.stack([a for a, _, _ in ok])
    E = np.stack([e for _, e, _ in ok])
    many = robot.assemble(A, E)
    for k, (_, _, one) in enumerate(ok):
        np.testing.assert_allclose(many[k], one, rtol=0, atol=1e-12)      # not modulo 2 pi
    passive = many[:, robot.ip]
    assert np.all(passive >= -np.pi) and np.all(passive <= np.pi)
    np.testing.assert_allclose(robot.h(many), 0.0, atol=1e-12)


def test_the_moves_motor_torques_are_feedforward_plus_pd_on_the_simulated_state(robot):
    mv = simulate_move(robot, (0.0, 0.40), (0.05, 0.38), 0.2, t_end=0.3, dt=0.05, kp=1500.0, kd=4.0)
    kp, kd = mv.gains
    sim = mv.sim
    a = sim.q[:, robot.ia]
    ad = sim.qd[:, robot.ic][:, robot.ca]                  # compact rates of the actuated joints
    plan = mv.plan
    # the controller samples a spline of the plan; at these sample times it equals the plan to ~1e-6
    ref = plan.tau[:, robot.ca] + kp * (plan.q[:, robot.ia] - a) + kd * (plan.qd[:, robot.ca] - ad)
    np.testing.assert_allclose(mv.tau, ref, rtol=1e-4, atol=1e-4)


def test_the_move_reports_the_distance_from_the_plan(robot):
    mv = simulate_move(robot, (0.0, 0.40), (0.05, 0.38), 0.2, t_end=0.3, dt=0.05)
    np.testing.assert_allclose(mv.x, robot.fkine(mv.sim.q), atol=1e-14)
    np.testing.assert_allclose(mv.error, np.linalg.norm(mv.x - mv.plan.x, axis=-1), atol=1e-15)
    np.testing.assert_allclose(mv.deflection, mv.sim.q[:, robot.ie], atol=0)


def test_rigid_inverse_kinematics_round_trips_batched_and_in_range(robot):
    xs = np.stack([RNG.uniform(-0.25, 0.25, 200), RNG.uniform(0.15, 0.55, 200)], -1)
    xs = xs[robot.reachable(xs)]
    qa = robot.ikine_rigid(xs)
    assert np.all(qa > -np.pi) and np.all(qa <= np.pi)              # atan2's range, as documented
    for k in range(0, len(xs), 7):
        np.testing.assert_allclose(qa[k], robot.ikine_rigid(xs[k]), rtol=0, atol=1e-13)
    q = robot.assemble(qa, np.zeros((len(xs), len(robot.ie))))
    np.testing.assert_allclose(robot.fkine(q), xs, atol=1e-10)        # back where it started
    np.testing.assert_allclose(robot.ikine_rigid(xs, unit="deg"), np.degrees(qa), rtol=1e-14, atol=1e-12)


@pytest.mark.parametrize("kw, name", [({"dt": 0.0}, "dt"), ({"dt": -0.01}, "dt"), ({"t_end": -1.0}, "t_end"),
                                      ({"method": "euler"}, "method"), ({"rtol": -1e-3}, "rtol"),
                                      ({"kp": -1.0}, "kp"), ({"start": "moving"}, "start")])
def test_simulate_move_names_the_bad_setting(robot, kw, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        simulate_move(robot, (0.0, 0.40), (0.05, 0.38), 0.2, **kw)


@pytest.mark.parametrize("x0, x1, name", [((0.0, 0.40, 0.1), (0.05, 0.38), "x0"), ((0.0, 0.40), (5.0, 5.0), "x1"),
                                          ((5.0, 5.0), (0.05, 0.38), "x0")])
def test_simulate_move_blames_the_point_typed(robot, x0, x1, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        simulate_move(robot, x0, x1, 0.2)


def test_five_bar_home_out_of_reach_is_blamed_on_home():
    with pytest.raises(ValueError, match="^home: "):
        FiveBar(home=(5.0, 5.0))


def test_assemble_wraps_the_passive_angles_to_the_documented_half_open_range():
    """[-pi, pi): over a grid of poses and deflections, batched and one by one alike (one
    configuration takes a scalar path, the simulation's inner loop: libm's cos and numpy's
    may differ in the last bit, so the two agree to round-off, not bit for bit)."""
    robot = FiveBar()
    xs = np.stack(np.meshgrid(np.linspace(-0.15, 0.15, 7), np.linspace(0.25, 0.45, 7)), -1).reshape(-1, 2)
    qa = robot.ikine_rigid(xs)
    qe = np.tile([0.02, -0.03], (len(xs), 1))
    q = robot.assemble(qa, qe)
    passive = q[:, robot.ip]
    assert np.all(passive >= -np.pi) and np.all(passive < np.pi)
    for k in range(len(xs)):
        np.testing.assert_allclose(robot.assemble(qa[k], qe[k]), q[k], rtol=0, atol=2e-15)
