"""The exact motor-loop discretisation has a branch for a frictionless motor (B = 0); both branches
must be the same function of B: the B = 0 answer is the limit of the B > 0 one."""

import numpy as np

from rvc import Motor, ploop, vloop


def _motor(B):
    return Motor(Km=0.228, Jm=2e-4, B=B, G=107.815, tau_max=0.9)


def test_the_position_loop_without_friction_is_the_limit_of_tiny_friction():
    t = np.arange(0, 0.2, 1e-3)
    exact = ploop(_motor(0.0), 0.5, t, Kp=20, Kv=0.6, J=5.8e-4)
    near = ploop(_motor(1e-12), 0.5, t, Kp=20, Kv=0.6, J=5.8e-4)
    np.testing.assert_allclose(exact.y, near.y, rtol=1e-7, atol=1e-12)


def test_the_velocity_loop_without_friction_is_the_limit_of_tiny_friction():
    t = np.arange(0, 0.1, 1e-3)
    exact = vloop(_motor(0.0), 1.0, t, Kv=0.6, J=5.8e-4)
    near = vloop(_motor(1e-12), 1.0, t, Kv=0.6, J=5.8e-4)
    np.testing.assert_allclose(exact.y, near.y, rtol=1e-7, atol=1e-12)


def test_the_coefficients_keep_their_digits_on_both_sides_of_the_series_switch():
    import sympy as sp

    from rvc.dynamics.actuator import _zoh

    J, dt = 5.8e-4, 1e-3
    for x in (1e-12, 1e-6, 1e-3, 0.0999, 0.1, 0.1001, 0.5, 3.0):
        B = x * J / dt
        Bs, Js, ts = sp.Float(B, 40), sp.Float(J, 40), sp.Float(dt, 40)
        a = sp.exp(-Bs * ts / Js)
        exact = [a, (1 - a) / Bs, Js * (1 - a) / Bs, (ts - Js * (1 - a) / Bs) / Bs]
        got = _zoh(J, B, dt)
        for g, e in zip(got, exact):
            assert abs(g - float(e.evalf(30))) <= 1e-14 * abs(float(e.evalf(30))), (x, g, e)
