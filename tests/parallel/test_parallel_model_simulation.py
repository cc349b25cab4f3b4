"""simulate_closed (compact coordinates) runs on the general ParallelModel too.

The five-bar as fivebar_model() follows the same trajectory as FiveBar under the same drive (to 1e-9), and
the 3-RRR's compact simulation keeps its closure (drift-free by construction) while the platform moves.
"""

import numpy as np
import pytest

from rvc.models import fivebar_model, rrr3
from rvc.parallel import FiveBar, simulate_closed


def test_fivebar_model_simulates_as_fivebar():
    fb, pm = FiveBar(), fivebar_model()
    t = np.linspace(0.0, 0.01, 3)
    a = simulate_closed(fb, fb.q_home, np.zeros(4), t, [0.3, -0.2])
    b = simulate_closed(pm, pm.q_home, np.zeros(4), t, [0.3, -0.2])
    np.testing.assert_allclose(b.q, a.q, atol=1e-9)
    np.testing.assert_allclose(b.qd, a.qd, atol=1e-9 * np.abs(a.qd).max())
    assert np.abs(b.q[-1] - b.q[0]).max() > 1e-3                   # it moved


def test_3rrr_compact_simulation_is_drift_free():
    robot = rrr3()
    sim = simulate_closed(robot, robot.q_home, np.zeros(6), np.linspace(0.0, 0.01, 3), [0.1, 0.0, -0.1])
    assert np.abs(sim.h).max() < 1e-12 and np.abs(sim.hd).max() < 1e-10
    assert np.abs(sim.q[-1, robot.platform] - sim.q[0, robot.platform]).max() > 1e-5


def test_tree_coordinates_are_refused_by_name():
    robot = fivebar_model()
    with pytest.raises(ValueError, match="coords: a ParallelModel is simulated in compact coordinates"):
        simulate_closed(robot, robot.q_home, np.zeros(4), [0.0, 1e-3], coords="tree")
