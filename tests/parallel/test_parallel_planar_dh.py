"""The five-bar's planar chains are the course's serial chains: PlanarChain against the same arm as a DHRobot.

``rvc.models.planar_arm`` builds the planar arm of a PlanarChain's parameters as a standard-DH robot
(gravity along -y, the tip mass lumped into the last link, the rotor inertia as Jm with G = 1); its
forward kinematics, Jacobian, inertia, gravity, Coriolis matrix and Newton-Euler inverse dynamics (the
algorithms of Chapters 7-9) agree with the PlanarChain's sympy-derived model to 5e-15 (relative to the
quantity's size), over random states of both chains of the five-bar, with one and two springs per chain.
"""

import numpy as np
import pytest

import rvc
from rvc.models import planar_arm
from rvc.parallel import FiveBar

TOL = 5e-15


def arm_of(chain):
    return planar_arm(chain.lengths, chain.masses, com=chain.com, inertia=chain.inertia_cm,
                      rotor=chain.rotor, tip_mass=chain.tip_mass, base=chain.base, g=chain.g)


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL * max(1.0, float(np.abs(b).max())))


CHAINS = [(ne, k) for ne in (1, 2) for k in (0, 1)]


@pytest.mark.parametrize("ne, k", CHAINS)
def test_planar_chain_is_a_dh_robot(ne, k):
    chain = FiveBar(n_elastic=ne).chains[k]
    arm = arm_of(chain)
    assert arm.n == chain.n
    rng = np.random.default_rng(10 * ne + k)
    for q, qd, qdd in rng.uniform(-3, 3, (6, 3, chain.n)):
        T = arm.fkine(q)
        close(T[:2, 3], chain.fkine(q))
        assert abs(T[2, 3]) == 0.0                     # in the plane z = 0
        J = rvc.jacob0(arm, q)
        close(J[:2], chain.jacob0(q))
        assert np.all(J[2:5] == 0) and np.all(J[5] == 1)    # planar: no vz, wx, wy; wz = sum of rates
        close(rvc.inertia(arm, q), chain.inertia(q))
        close(rvc.gravload(arm, q), chain.gravload(q))
        close(rvc.coriolis(arm, q, qd), chain.coriolis(q, qd))
        close(rvc.jacob_dot(arm, q, qd)[:2], chain.jacob_dot(q, qd) @ qd)
        # the PlanarChain's rne holds the joints' springs and dampers too
        close(rvc.rne(arm, q, qd, qdd) + chain.K @ q + chain.D @ qd, chain.rne(q, qd, qdd))
        T_pc, V_pc = chain.energy(q, qd)
        e = rvc.energy(arm, q, qd)
        close(e.kinetic, T_pc)
        close(e.potential + 0.5 * q @ chain.K @ q, V_pc)


def test_planar_arm_batches_like_planar_chain():
    chain = FiveBar().chains[0]
    arm = arm_of(chain)
    Q = np.random.default_rng(3).uniform(-2, 2, (4, chain.n))
    close(rvc.inertia(arm, Q), chain.inertia(Q))
    close(rvc.gravload(arm, Q), chain.gravload(Q))


def test_planar_arm_bad_input():
    with pytest.raises(ValueError, match="lengths: expected positive values"):
        planar_arm([1.0, -1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="masses"):
        planar_arm([1.0, 1.0], [1.0, 1.0, 1.0])
