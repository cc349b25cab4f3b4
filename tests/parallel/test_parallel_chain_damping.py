"""A planar chain's forward dynamics invert its inverse dynamics with stiffness and damping on."""

import numpy as np

from rvc.parallel import PlanarChain


def test_accel_inverts_rne_with_springs_and_dampers():
    chain = PlanarChain([0.3, 0.4], [0.2, 0.2], roles="ae", stiffness=50, damping=0.5)
    q, qd, tau = np.array([0.1, 0.2]), np.array([0.5, -1.0]), np.array([0.3, -0.2])
    qdd = chain.accel(q, qd, tau)
    np.testing.assert_allclose(chain.rne(q, qd, qdd), tau, rtol=1e-10, atol=1e-12)


def test_a_damper_takes_power_out():
    chain = PlanarChain([0.3, 0.4], [0.2, 0.2], roles="ae", stiffness=0.0, damping=0.5, g=0.0)
    still = PlanarChain([0.3, 0.4], [0.2, 0.2], roles="ae", stiffness=0.0, damping=0.0, g=0.0)
    q, qd = np.array([0.1, 0.2]), np.array([0.0, -1.0])
    # with no torque and no gravity, the damper's extra torque opposes the elastic joint's rate
    extra = chain.rne(q, qd, np.zeros(2)) - still.rne(q, qd, np.zeros(2))
    assert extra[1] * qd[1] > 0 and extra[0] == 0.0
