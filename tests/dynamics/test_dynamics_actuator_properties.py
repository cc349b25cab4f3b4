"""rvc.dynamics.actuator: the torque limit is symmetric and the loops saturate where documented."""

import numpy as np
import pytest

from rvc import Motor, ploop, vloop


@pytest.mark.parametrize("demand", [500.0, -500.0])
def test_vloop_clips_the_torque_at_plus_and_minus_tau_max(demand):
    m = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
    r = vloop(m, demand, np.arange(0, 0.02, 1e-3), Kv=5.0, J=580e-6)
    assert np.abs(r.torque).max() == pytest.approx(0.9, rel=1e-12)
    assert np.sign(r.torque[0]) == np.sign(demand)


@pytest.mark.parametrize("demand", [50.0, -50.0])
def test_ploop_clips_the_torque_at_plus_and_minus_tau_max(demand):
    m = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
    r = ploop(m, demand, np.arange(0, 0.02, 1e-3), Kp=20.0, Kv=5.0, J=580e-6)
    assert np.abs(r.torque).max() == pytest.approx(0.9, rel=1e-12)
    assert np.sign(r.torque[0]) == np.sign(demand)
