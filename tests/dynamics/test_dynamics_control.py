"""Joint actuators and control (9.1, 9.4, 9.5): loops against closed forms, controllers against theory."""

import numpy as np
import pytest

from rvc import (Motor, friction, computed_torque_law, feedforward_law, gravload, inertia, jointdynamics,
                 jtraj, opspace_law, payload, pd_law, ploop, sea, simulate, table_contact,
                 vloop, vloop_tf)
from rvc.models import puma560, puma560_motor2

MOTOR = puma560_motor2()
J = 580e-6


def test_vloop_P_steady_state_matches_the_transfer_function():
    t = np.arange(0, 0.3, 5e-4)
    r = vloop(MOTOR, 5.0, t, Kv=0.6, J=J)                 # small step: no torque limit
    assert np.abs(r.torque).max() < MOTOR.tau_max
    K = MOTOR.Km * MOTOR.Ka
    assert r.y[-1] == pytest.approx(5.0 * K * 0.6 / (MOTOR.B + K * 0.6), rel=1e-6)
    tf = vloop_tf(MOTOR, 0.6, J=J)
    assert tf.num[-1] / tf.den[-1] == pytest.approx(K * 0.6 / (MOTOR.B + K * 0.6))
    # with a fast sample rate the sampled loop approaches the continuous one
    from scipy import signal
    tf_t = np.arange(0, 0.03, 1e-5)
    _, y = signal.step(tf, T=tf_t)
    np.testing.assert_allclose(vloop(MOTOR, 5.0, tf_t, Kv=0.6, J=J).y, 5 * y, atol=5e-3)


def test_vloop_disturbance_and_the_three_remedies():
    t = np.arange(0, 0.5, 5e-4)
    td = 0.2                                              # N m at the motor
    p = vloop(MOTOR, 10.0, t, Kv=0.6, J=J, tau_d=td)
    p2 = vloop(MOTOR, 10.0, t, Kv=1.2, J=J, tau_d=td)
    pi = vloop(MOTOR, 10.0, t, Kv=0.6, Ki=20.0, J=J, tau_d=td)
    ff = vloop(MOTOR, 10.0, t, Kv=0.6, J=J, tau_d=td, tau_ff=td)
    K = MOTOR.Km * MOTOR.Ka
    # P: omega_ss = (K Kv w* - td) / (B + K Kv)
    assert p.y[-1] == pytest.approx((K * 0.6 * 10 - td) / (MOTOR.B + K * 0.6), rel=1e-6)
    assert abs(p2.error[-1]) < abs(p.error[-1]) / 1.8      # doubling the gain halves the error
    assert abs(pi.error[-1]) < 1e-3                        # integral action removes it
    assert ff.y[-1] == pytest.approx(10 * K * 0.6 / (MOTOR.B + K * 0.6), rel=1e-6)


def test_vloop_torque_limit():
    r = vloop(MOTOR, 500.0, np.arange(0, 0.05, 1e-4), Kv=5, J=J)
    assert np.abs(r.torque).max() == pytest.approx(MOTOR.tau_max)


def test_ploop_tracks_with_velocity_feedforward_better():
    t = np.arange(0, 1.0, 1e-3)
    traj = jtraj([0.0], [1.0], t)
    a = ploop(MOTOR, traj.q[:, 0], t, Kp=20, Kv=0.6, J=J)
    b = ploop(MOTOR, traj.q[:, 0], t, Kp=20, Kv=0.6, J=J, qd_demand=traj.qd[:, 0])
    assert np.abs(b.error).max() < np.abs(a.error).max() / 3
    assert abs(a.y[-1] - 1.0) < 0.02


def test_jointdynamics_is_the_diagonal_of_M_over_G2():
    p = puma560()
    jd = jointdynamics(p, p.qn)
    G = np.array([L.G for L in p.links])
    np.testing.assert_allclose(jd.J, np.diag(inertia(p, p.qn)) / G**2)
    assert jd[1].poles[0] == pytest.approx(-jd.B[1] / jd.J[1])
    assert len(jd.tf) == 6
    jd2 = jointdynamics(p, p.qn, [0, 1, 0, 0, 0, 0])      # linearised Coulomb friction
    assert jd2.B[1] == pytest.approx(p.links[1].B + p.links[1].Tc[0] / p.links[1].G)


def test_linearised_coulomb_friction_damps_whatever_the_sign_of_the_gear_ratio():
    """The Puma's joint 1 has G = -62.6: its linearised Coulomb term must still be positive, the
    slope of friction's own torque |G| Tc at that speed, referred to the motor (over G^2)."""
    p = puma560()
    assert p.links[0].G < 0
    for speed in (0.5, -0.5):
        qd = np.full(6, speed)
        jd = jointdynamics(p, p.qn, qd)
        assert np.all(jd.B > 0), jd.B
        G = np.array([L.G for L in p.links])
        B = np.array([L.B for L in p.links])
        coulomb = -friction(p, qd) - G**2 * B * qd              # |G| Tc+- at this speed
        np.testing.assert_allclose(jd.B, B + coulomb / (G**2 * qd), rtol=1e-12)


def test_sea_soft_spring_softens_the_impact():
    t = np.arange(0, 0.35, 1e-4)
    soft, stiff = sea(t, 0.5, k=300.0), sea(t, 0.5, k=3e4)
    assert soft.contact_force.max() < 0.7 * stiff.contact_force.max()
    # before contact the spring force measures what accelerates the load
    i = np.argmax(soft.contact_force > 0) - 10
    a = np.gradient(np.gradient(soft.x_load, t), t)
    assert soft.spring_force[i] == pytest.approx(0.5 * a[i], abs=0.5)
    with pytest.raises(ValueError, match="k: expected a positive"):
        sea(t, 0.5, k=0)


def test_computed_torque_error_decays_as_the_gains_predict():
    """With a perfect model: e'' + Kv e' + Kp e = 0 from e(0) = e0 (critically damped here).

    Coulomb friction is removed (``nofriction()``): it is a step at zero
    speed that a sampled controller cannot cancel, and it stalls small errors.
    """
    p = puma560().nofriction()
    Kp, Kv = 64.0, 16.0                                    # wn = 8 rad/s, zeta = 1
    dt = 0.005
    t = np.arange(0, 0.6 + dt / 2, dt)
    traj = jtraj(p.qn, p.qn, t)                            # hold qn
    e0 = np.array([0.05, -0.04, 0.03, 0.02, -0.02, 0.01])
    sim = simulate(p, computed_torque_law(p, traj, Kp, Kv), p.qn - e0, T=0.6, dt=dt)
    wn = 8.0
    predicted = np.outer((1 + wn * sim.t) * np.exp(-wn * sim.t), e0)
    np.testing.assert_allclose(sim.error, predicted, atol=0.03 * np.abs(e0).max())


def test_feedforward_and_computed_torque_beat_pd_and_model_errors_show():
    p = puma560().nofriction()
    dt = 0.02
    t = np.arange(0, 1.0 + dt / 2, dt)
    traj = jtraj(p.qz, p.qr, t)
    err = {}
    for name, law in [("pd", pd_law(p, traj, 100, 20, gravity_comp=True)),
                      ("ff", feedforward_law(p, traj, 100, 20)),
                      ("ct", computed_torque_law(p, traj, 100, 20))]:
        err[name] = np.abs(simulate(p, law, p.qz, T=1.0, dt=dt).error).max()
    assert err["ct"] < err["pd"] / 5 and err["ff"] < err["pd"] / 5
    # a controller whose model lacks a 2.5 kg payload the arm carries does worse
    plant = puma560().nofriction()
    payload(plant, 2.5, [0, 0, 0.1])
    wrong = np.abs(simulate(plant, computed_torque_law(p, traj, 100, 20), p.qz, T=1.0,
                            dt=dt).error).max()
    assert wrong > 2 * err["ct"]


def test_pd_law_holds_with_gravity_compensation():
    p = puma560()
    traj = jtraj(p.qn, p.qn, np.array([0.0, 1.0]))
    law = pd_law(p, traj, 50, 10, gravity_comp=True)
    np.testing.assert_allclose(law(0.5, p.qn, np.zeros(6)), gravload(p, p.qn))


def test_opspace_presses_with_the_demanded_force_while_holding_position():
    p = puma560().nofriction()                           # no Coulomb stick-slip at rest
    q0 = np.array([0, np.pi / 4, np.pi, 0, np.pi / 4, 0])
    T0 = p.fkine(q0)
    table = T0[2, 3] - 0.005                             # the table 5 mm below the tool
    contact = table_contact(p, table)
    law = opspace_law(p, lambda t: (T0, np.zeros(6), np.zeros(6)), force=-10.0, Kp=100.0,
                      Kv=20.0, Kf=0.5, contact=contact)
    sim = simulate(p, law, q0, T=0.6, dt=0.004, contact=contact)
    W = sim.info["wrench"]
    assert W[0, 2] == 0                                  # no contact at first
    assert W[-1, 2] == pytest.approx(-10.0, abs=0.05)    # then pressing down with 10 N
    xy = p.fkine(sim.q[-1])[:2, 3]
    np.testing.assert_allclose(xy, T0[:2, 3], atol=5e-4)


def test_bad_input():
    t = np.arange(0, 0.1, 1e-3)
    with pytest.raises(ValueError, match="demand: expected a scalar or one value per time"):
        vloop(MOTOR, np.ones(3), t, Kv=1)
    with pytest.raises(ValueError, match="t: expected equally spaced"):
        vloop(MOTOR, 1.0, np.array([0, 0.1, 0.3]), Kv=1)
    with pytest.raises(ValueError, match="J: expected a positive inertia"):
        vloop(MOTOR, 1.0, t, Kv=1, J=-1)
    p = puma560()
    with pytest.raises(ValueError, match="Kp: expected a vector of 6"):
        pd_law(p, jtraj(p.qz, p.qr, t), [1, 2], 1)
    with pytest.raises(ValueError, match="dt, T"):
        simulate(p, lambda t, q, qd: np.zeros(6), p.qz, T=0.1, dt=0)
    assert isinstance(MOTOR, Motor)
