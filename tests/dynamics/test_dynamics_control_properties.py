"""rvc.dynamics.control and actuator: the documented schemes asserted equation by equation.

simulate's classical RK4 step under a held torque, the laws' formulas against the
matrices (a different code path), the trajectory sample seen exactly at its own time,
and the motor loops' exact zero-order-hold discretisation against the ODE's solution.
"""

import numpy as np
import pytest

from rvc import (Motor, accel, computed_torque_law, coriolis, feedforward_law, gravload, inertia, jtraj, pd_law,
                 ploop, rne, simulate, vloop)
from rvc.models import twolink

RNG = np.random.default_rng(93)


@pytest.fixture(scope="module")
def arm():
    return twolink()


@pytest.fixture(scope="module")
def traj(arm):
    return jtraj([0.1, -0.2], [0.8, 0.5], np.linspace(0, 0.5, 11))


def _rk4(robot, q, qd, tau, dt):
    def f(q, qd):
        return accel(robot, q, qd, tau)
    a1 = f(q, qd)
    q2, qd2 = q + dt / 2 * qd, qd + dt / 2 * a1
    a2 = f(q2, qd2)
    q3, qd3 = q + dt / 2 * qd2, qd + dt / 2 * a2
    a3 = f(q3, qd3)
    q4, qd4 = q + dt * qd3, qd + dt * a3
    a4 = f(q4, qd4)
    return q + dt / 6 * (qd + 2 * qd2 + 2 * qd3 + qd4), qd + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)


def test_simulate_takes_classical_rk4_steps_under_the_held_torque(arm):
    law = pd_law(arm, jtraj([0.1, -0.2], [0.8, 0.5], np.linspace(0, 0.2, 5)), 30.0, 5.0)
    sim = simulate(arm, law, [0.1, -0.2], [0.3, -0.4], T=0.06, dt=0.02)
    for k in range(3):
        tau = law(sim.t[k], sim.q[k], sim.qd[k])
        np.testing.assert_allclose(sim.tau[k], tau, rtol=1e-12, atol=1e-12)
        q1, qd1 = _rk4(arm, sim.q[k], sim.qd[k], tau, 0.02)
        np.testing.assert_allclose(sim.q[k + 1], q1, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(sim.qd[k + 1], qd1, rtol=1e-12, atol=1e-13)


def test_simulate_is_fourth_order(arm):
    """Second, independent check: halving dt divides the error after a fixed time by about 16."""
    def run(dt):
        return simulate(arm, lambda t, q, qd: np.array([0.5, -0.2]), [0.3, 0.2], T=0.4, dt=dt).q[-1]
    ref = run(0.4 / 256)
    e1, e2 = np.abs(run(0.4 / 8) - ref).max(), np.abs(run(0.4 / 16) - ref).max()
    assert 12 < e1 / e2 < 20


def test_a_law_sees_each_trajectory_sample_at_its_own_time(arm, traj):
    law = pd_law(arm, traj, 1.0, 0.0)
    zero = np.zeros(2)
    for k, t in enumerate(traj.t):
        np.testing.assert_allclose(law(float(t), zero, zero), traj.q[k], atol=0)
    # between samples the demand is held: just before t_k it is still sample k - 1
    np.testing.assert_allclose(law(float(traj.t[3]) - 1e-6, zero, zero), traj.q[2], atol=0)


def test_gravity_compensation_uses_the_measured_angles(arm, traj):
    q, qd = np.array([0.4, 0.9]), np.array([0.1, -0.2])
    with_g = pd_law(arm, traj, 20.0, 3.0, gravity_comp=True)(0.1, q, qd)
    without = pd_law(arm, traj, 20.0, 3.0)(0.1, q, qd)
    np.testing.assert_allclose(with_g - without, gravload(arm, q), rtol=1e-12, atol=1e-12)


def test_computed_torque_is_m_times_the_servoed_acceleration_plus_the_measured_bias(arm, traj):
    Kp, Kv = np.array([40.0, 30.0]), np.array([8.0, 6.0])
    law = computed_torque_law(arm, traj, Kp, Kv)
    t = float(traj.t[4])
    qs, qds, qdds = traj.q[4], traj.qd[4], traj.qdd[4]
    q, qd = qs + np.array([0.05, -0.03]), qds + np.array([-0.2, 0.1])
    a = qdds + Kv * (qds - qd) + Kp * (qs - q)
    ref = inertia(arm, q) @ a + coriolis(arm, q, qd) @ qd + gravload(arm, q)
    np.testing.assert_allclose(law(t, q, qd), ref, rtol=1e-10, atol=1e-10)


def test_feedforward_is_the_demands_inverse_dynamics_plus_pd(arm, traj):
    Kp, Kv = 40.0, 8.0
    law = feedforward_law(arm, traj, Kp, Kv)
    t = float(traj.t[6])
    qs, qds, qdds = traj.q[6], traj.qd[6], traj.qdd[6]
    q, qd = qs + 0.02, qds - 0.1
    np.testing.assert_allclose(law(t, q, qd), rne(arm, qs, qds, qdds) + Kp * (qs - q) + Kv * (qds - qd),
                               rtol=1e-12, atol=1e-12)


def test_computed_torque_makes_the_error_obey_the_servo_equation(arm):
    """With a perfect model, e'' + Kv e' + Kp e = 0 exactly at the samples (checked on one RK4 step)."""
    traj = jtraj([0.0, 0.0], [0.0, 0.0], np.linspace(0, 1, 3))          # hold still at 0
    law = computed_torque_law(arm, traj, 25.0, 10.0)
    q, qd = np.array([0.01, -0.02]), np.array([0.0, 0.0])
    qdd = accel(arm, q, qd, law(0.0, q, qd))
    np.testing.assert_allclose(qdd, -25.0 * q - 10.0 * qd, rtol=1e-9, atol=1e-12)


# ------------------------------------------------------------------ the motor loops

MOTOR = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=1e9)


def _exact_step(J, B, w, th, tau, dt):
    """The ODE J w' + B w = tau, th' = w, over dt with constant tau: its closed-form solution."""
    a = np.exp(-B * dt / J)
    w1 = a * w + (1 - a) * tau / B
    th1 = th + tau / B * dt + (w - tau / B) * J / B * (1 - a)
    return w1, th1


def test_vloop_integrates_the_shaft_exactly_over_each_period():
    t = np.arange(0, 0.05, 1e-3)
    r = vloop(MOTOR, 30.0, t, Kv=0.4, J=580e-6, tau_d=0.05)
    for k in range(len(t) - 1):
        w1, _ = _exact_step(580e-6, MOTOR.B, r.y[k], 0.0, r.torque[k] - 0.05, 1e-3)
        assert r.y[k + 1] == pytest.approx(w1, rel=1e-10, abs=1e-12)


def test_ploop_integrates_the_angle_exactly_over_each_period():
    t = np.arange(0, 0.05, 1e-3)
    r = ploop(MOTOR, 0.3, t, Kp=20.0, Kv=0.5, J=580e-6, tau_d=0.02)
    w, th = r.info["omega"], r.y * MOTOR.G
    for k in range(len(t) - 1):
        w1, th1 = _exact_step(580e-6, MOTOR.B, w[k], th[k], r.torque[k] - 0.02, 1e-3)
        assert w[k + 1] == pytest.approx(w1, rel=1e-10, abs=1e-12)
        assert th[k + 1] == pytest.approx(th1, rel=1e-10, abs=1e-12)


def test_vloop_law_is_the_documented_pi_with_feedforward():
    t = np.arange(0, 0.01, 1e-3)
    Kv, Ki, ff = 0.4, 2.0, 0.03
    r = vloop(MOTOR, 30.0, t, Kv=Kv, Ki=Ki, J=580e-6, tau_ff=ff)
    K = MOTOR.Km * MOTOR.Ka
    e = 30.0 - r.y
    integral = np.concatenate([[0.0], np.cumsum(e[:-1]) * 1e-3])
    np.testing.assert_allclose(r.torque, K * (Kv * e + Ki * integral + ff / K), rtol=1e-10, atol=1e-12)


def test_opspace_law_is_its_documented_equation():
    """Q = J^T (Lambda (Omega a - Jdot qd) + Omega_bar (W* + Kf (W* - W) - Dz Lambda_zz xdot_z)) + h,
    each piece computed here from the public functions."""
    from rvc import inertia_x, jacob0, jacob_dot, opspace_law, trlog, vex
    from rvc.models import puma560
    p = puma560()
    T0 = p.fkine(p.qn)
    vd, ad = np.array([0.01, 0.0, -0.02, 0.0, 0.05, 0.0]), np.array([0.0, 0.1, 0.0, 0.0, 0.0, 0.2])
    Kp, Kv, Kf, Dz, force = 100.0, 20.0, 0.5, 7.0, -10.0
    W = np.array([0.0, 0.0, -4.0, 0.0, 0.0, 0.0])
    law = opspace_law(p, lambda t: (T0, vd, ad), force=force, Kp=Kp, Kv=Kv, Kf=Kf, Dz=Dz,
                      contact=lambda q, qd: W)
    q, qd = p.qn + 0.02, RNG.normal(0, 0.2, 6)
    J, T = jacob0(p, q), p.fkine(q)
    v = J @ qd
    e = np.concatenate([T0[:3, 3] - T[:3, 3], vex(trlog(T0[:3, :3] @ T[:3, :3].T))])
    a = ad + Kv * (vd - v) + Kp * e
    Lam = inertia_x(p, q)
    sel = np.array([1, 1, 0, 1, 1, 1.0])
    wf = force + Kf * (force - W[2]) - Dz * Lam[2, 2] * v[2]
    Fx = Lam @ (sel * a - jacob_dot(p, q, qd)) + (1 - sel) * wf
    np.testing.assert_allclose(law(0.0, q, qd), J.T @ Fx + rne(p, q, qd, np.zeros(6)), rtol=1e-9, atol=1e-9)


def test_table_contact_is_the_documented_spring_and_one_sided_damper():
    """F = k d + b max(0, -zdot) below the surface, never pulling; nothing at or above it."""
    from rvc import jacob0, table_contact
    from rvc.models import puma560
    p = puma560()
    q = p.qn
    z = p.fkine(q)[2, 3]
    k, b = 5000.0, 200.0
    J = jacob0(p, q)
    down = np.linalg.lstsq(J, np.array([0, 0, -0.1, 0, 0, 0]), rcond=None)[0]     # tool moving down
    up = -down
    d = 0.004
    below = table_contact(p, z + d, k=k, b=b)
    np.testing.assert_allclose(below(q, down), [0, 0, -(k * d + b * 0.1), 0, 0, 0], rtol=1e-9)
    np.testing.assert_allclose(below(q, up), [0, 0, -k * d, 0, 0, 0], rtol=1e-9)      # no damping pulling up
    np.testing.assert_array_equal(table_contact(p, z, k=k, b=b)(q, down), np.zeros(6))   # exactly at the surface
    np.testing.assert_array_equal(table_contact(p, z - d, k=k, b=b)(q, down), np.zeros(6))
    # a fast rise from just below never makes the table pull the tool
    fast_up = 100 * up
    assert below(q, fast_up)[2] <= 0.0
