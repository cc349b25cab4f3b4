"""linear_move (the linearised error dynamics about the plan) equals simulate_move over Chapter 10's panels.

The notebook's stiffness panel (K from 100 to 5000 N m/rad, a 0.2 s move) and duration panel (T from 0.12 to
0.8 s, both starts) read t, x, plan.x, deflection and residual_vibration(): the fast answer must hold the
end-effector error within 2 % of its peak, the deflections within 2 % of theirs and the residual vibration
within 5 %, at the ends and the middle of those ranges.
"""

import numpy as np
import pytest

from rvc.parallel import FiveBar, linear_move, simulate_move

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
