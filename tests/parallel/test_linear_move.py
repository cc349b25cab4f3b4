"""linear_move (the linearised error dynamics about the plan) equals simulate_move over Chapter 10's panels.

The notebook's stiffness panel (K from 100 to 5000 N m/rad, a 0.2 s move) and duration panel (T from 0.12 to
0.8 s, both starts) read t, x, plan.x, deflection and residual_vibration(): the fast answer must hold the
end-effector error within 2 % of its peak, the deflections within 2 % of theirs and the residual vibration
within 5 %, at the ends and the middle of those ranges.
"""

import numpy as np
import pytest

from rvc.parallel import FiveBar, linear_move, simulate_move
from rvc.parallel.linear_move import _hold, _phi

A, B = (-0.12, 0.36), (0.12, 0.36)


def _close(model, duration, t_end, start):
    fast = linear_move(model, A, B, duration, t_end=t_end, dt=0.005, start=start)
    full = simulate_move(model, A, B, duration, t_end=t_end, dt=0.005, start=start)
    np.testing.assert_array_equal(fast.t, full.t)
    np.testing.assert_allclose(fast.plan.x, full.plan.x, atol=1e-12)
    e_fast, e_full = fast.x - fast.plan.x, full.x - full.plan.x
    assert np.abs(e_fast - e_full).max() <= 0.02 * np.abs(e_full).max()
    assert np.abs(fast.deflection - full.deflection).max() <= 0.02 * np.abs(full.deflection).max()
    assert abs(fast.residual_vibration() - full.residual_vibration()) <= 0.05 * full.residual_vibration()
    assert np.abs(fast.tau - full.tau).max() <= 0.02 * np.abs(full.tau).max()


@pytest.mark.slow
@pytest.mark.parametrize("K", [100.0, 700.0, 5000.0])
def test_stiffness_panel(K):
    _close(FiveBar(K=K), 0.2, 0.4, "static")


@pytest.mark.slow
@pytest.mark.parametrize("duration", [0.12, 0.8])
@pytest.mark.parametrize("start", ["static", "undeflected"])
def test_duration_panel(duration, start):
    _close(FiveBar(), duration, duration + 0.3, start)


def test_standing_still_stays_still():
    still = linear_move(FiveBar(), A, A, 0.2, t_end=0.3)
    assert still.residual_vibration() < 1e-9
    assert np.abs(still.deflection).max() > 1e-4                 # sagged under gravity, held there
    moved = linear_move(FiveBar(), A, A, 0.2, t_end=0.3, start="undeflected")
    assert moved.residual_vibration() > 1e-5                     # dropped into the sag: it rings


def test_arguments():
    with pytest.raises(ValueError, match="nodes"):
        linear_move(FiveBar(), A, B, 0.2, nodes=1)
    with pytest.raises(ValueError, match="duration"):
        linear_move(FiveBar(), A, B, 0.0)
    with pytest.raises(ValueError, match="start"):
        linear_move(FiveBar(), A, B, 0.2, start="rest")


def _phi_exact(x, k):
    import mpmath
    with mpmath.workdps(50):
        z = mpmath.mpc(complex(x))
        v = (mpmath.exp(z) - 1) / z if k == 1 else (mpmath.exp(z) - 1 - z) / z ** 2
        return complex(v)


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("x", [1e-9, 3e-5, -1e-4 * (1 - 1e-9), 1e-4 * (1 + 1e-9), 2e-4, -1e-3, 0.05, 0.5,
                               -0.99, 0.999999, 1.000001, -1.5, 4.0, -30.0, 2e-5 + 3e-5j, -0.3 + 0.9j,
                               -2.0 + 40.0j])
def test_phi_is_exact_on_both_sides_of_its_series_switch(x, k):
    """Accuracy at the switch points (issue 20, list item 1): phi_1 = (e^x - 1)/x and
    phi_2 = (e^x - 1 - x)/x^2, which every step of linear_move uses, to a few ulp of a 50-digit
    reference just below and above each switch, real and complex (the eigenvalues of F)."""
    got = complex(_phi(np.array([x]), k)[0])
    want = _phi_exact(x, k)
    assert abs(got - want) <= 4 * np.finfo(float).eps * abs(want), (got, want)


def test_hold_is_the_exact_first_order_hold():
    """The documented step: z+ = e^{F dt} z + int_0^dt e^{F (dt - s)} (u + udot s) ds, for a matrix F
    with a fast, a slow (below the series switch) and an oscillating mode, against expm of the
    augmented system (which integrates the held input exactly)."""
    from scipy.linalg import expm
    F = np.array([[-400.0, 3.0, 0.0, 0.0], [0.0, -1e-3, 0.0, 0.0], [0.0, 0.0, -2.0, 90.0],
                  [0.0, 0.0, -90.0, -2.0]])
    dt, u, udot = 0.005, np.array([1.0, -2.0, 0.5, 3.0]), np.array([10.0, 4.0, -7.0, 2.0])
    Phi, drive = _hold(F[None], dt)
    aug = np.zeros((6, 6))
    aug[:4, :4], aug[:4, 4], aug[:4, 5], aug[5, 4] = F, u, udot, 1.0   # states z, 1, s (s' = 1)
    E = expm(aug * dt)
    np.testing.assert_allclose(Phi[0], E[:4, :4], rtol=0, atol=1e-13)
    np.testing.assert_allclose(drive(u[None], udot[None])[0], E[:4, 4], rtol=1e-12, atol=1e-16)
