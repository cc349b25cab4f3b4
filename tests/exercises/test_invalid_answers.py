"""Issue 20: answers that look valid but are not are refused or warned about, never silent."""

import warnings

import numpy as np
import pytest

from rvc.checks import NumericalWarning, warn_nonfinite
from rvc.dynamics.control import pd_law, simulate
from rvc.dynamics.rne import rne
from rvc.models import puma560, twolink
from rvc.motion.trajectory import jtraj
from rvc.parallel import FiveBar


@pytest.fixture(scope="module")
def robot():
    return FiveBar()


def test_W_refuses_a_q_that_does_not_close_the_loop_as_the_dynamics_do(robot):
    q = robot.q_home + 0.1
    with pytest.raises(ValueError, match=r"^q: expected tree coordinates \(6,\) that close the loop"):
        robot.W(q)
    with pytest.raises(ValueError, match=r"^q: expected tree coordinates \(6,\) that close the loop"):
        robot.compact(q, np.zeros(4))     # the same refusal, the same words
    batch = np.stack([robot.q_home, q])
    with pytest.raises(ValueError, match="close the loop"):
        robot.W(batch)                    # one bad row in a batch is enough
    W = robot.W(robot.q_home)
    np.testing.assert_allclose(robot.A(robot.q_home) @ W, 0, atol=1e-12)   # on the loop: A W = 0


def test_warn_nonfinite_is_quiet_for_finite_results():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert warn_nonfinite(np.ones(3), "x", "never") is False


def test_rne_overflow_warns_instead_of_silent_nan():
    p = puma560()
    with pytest.warns(NumericalWarning, match=r"^rne: the result overflowed.*largest magnitude 1e\+160"):
        tau = rne(p, p.qn, np.full(6, 1e160), np.zeros(6))
    assert not np.isfinite(tau).all()
    with pytest.warns(NumericalWarning, match="^rne"):
        rne(p, np.stack([p.qn, p.qn]), np.stack([np.zeros(6), np.full(6, 1e160)]))


def test_rne_with_ordinary_rates_does_not_warn():
    p = puma560()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        assert np.isfinite(rne(p, p.qn, np.full(6, 10.0), np.full(6, 100.0))).all()


def test_a_diverging_simulation_warns_says_when_and_stops():
    tl = twolink()
    law = pd_law(tl, jtraj(tl.qz, tl.qn, np.linspace(0, 1, 11)), 1e7, 0)
    with pytest.warns(NumericalWarning, match=r"^simulate: .*diverged.*by t = 0\.15 s.*dt = 0\.05"):
        sim = simulate(tl, law, tl.qz, T=1.0, dt=0.05)
    assert sim.q.shape == (21, 2)
    k = int(np.argmax(~np.isfinite(sim.q).all(axis=1)))
    assert sim.t[k] == pytest.approx(0.15)
    assert np.isnan(sim.q[k:]).all() and np.isnan(sim.tau[k:]).all()
    assert np.isfinite(sim.q[:k]).all()


def test_a_stable_simulation_does_not_warn():
    tl = twolink()
    law = pd_law(tl, jtraj(tl.qz, tl.qn, np.linspace(0, 1, 11)), 10, 2, gravity_comp=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        sim = simulate(tl, law, tl.qz, T=1.0, dt=0.01)
    assert np.isfinite(sim.q).all()
