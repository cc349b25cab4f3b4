"""rvc.dynamics.rne and the matrices: base, tool and prismatic joints against independent oracles.

Oracles: the spatial, world-frame recursion ``rne_reference`` (it shares no code with the
link-frame recursion of ``rne``), the gradient of the potential energy, the power balance
d/dt (T + V) = qd . (tau - G), and the Jacobian transpose for an end-effector wrench.
"""

import copy

import numpy as np
import pytest
from support import BASE, TOOL, derivative

from rvc import (DHRobot, PrismaticDH, RevoluteDH, RevoluteMDH, PrismaticMDH, coriolis, energy, friction,
                 gravload, inertia, jacobe, rne)
from rvc.dynamics.rne import rne_reference
from rvc.models import puma560

RNG = np.random.default_rng(91)


def _inertia(seed):
    A = np.random.default_rng(seed).normal(size=(3, 3)) * 0.05
    return A @ A.T + 0.01 * np.eye(3)


def _rprp(mdh=False):
    R, P = (RevoluteMDH, PrismaticMDH) if mdh else (RevoluteDH, PrismaticDH)
    links = [R(d=0.3, alpha=np.pi / 2, m=2.0, r=[0.0, -0.1, 0.02], I=_inertia(1), Jm=1e-3, B=1e-3, G=20.0),
             P(theta=np.pi / 2, a=0.1, alpha=-np.pi / 2, m=1.5, r=[0.02, 0.0, -0.1], I=_inertia(2), qlim=[0, 0.5]),
             R(a=0.4, alpha=0.3, d=0.05, m=1.0, r=[-0.2, 0.01, 0.0], I=_inertia(3), Jm=2e-4, G=-30.0,
               Tc=[0.1, -0.05]),
             P(alpha=np.pi / 3, m=0.5, r=[0.0, 0.03, 0.05], I=_inertia(4), qlim=[0, 0.3])]
    r = DHRobot(links, name="RPRP with masses")
    r.base, r.tool = BASE, TOOL
    return r


def _puma_base_tool():
    p = DHRobot(puma560())
    p.base, p.tool = BASE, TOOL
    return p


ROBOTS = {"puma+base+tool": _puma_base_tool, "RPRP dh": _rprp, "RPRP mdh": lambda: _rprp(True)}


def _state(robot, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, robot.n) * 0.5 + 0.2, rng.normal(size=robot.n), rng.normal(size=robot.n)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_rne_equals_the_spatial_world_frame_recursion(name):
    robot = ROBOTS[name]()
    for seed in range(3):
        q, qd, qdd = _state(robot, seed)
        np.testing.assert_allclose(rne(robot, q, qd, qdd), rne_reference(robot, q, qd, qdd), rtol=1e-10,
                                   atol=1e-10)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_gravity_with_a_turned_base_is_the_gradient_of_the_potential_energy(name):
    robot = ROBOTS[name]()
    robot = copy.deepcopy(robot)
    for L in robot.links:                               # no friction: gravload is pure gravity
        L.B, L.Tc = 0.0, [0.0, 0.0]
    q, _, _ = _state(robot, 4)
    grad = np.array([derivative(lambda x: energy(robot, x, np.zeros(robot.n)).potential, q, e)
                     for e in np.eye(robot.n)])
    np.testing.assert_allclose(gravload(robot, q), grad, rtol=1e-6, atol=1e-7)


def test_gravity_through_a_turned_base_is_gravity_turned_into_the_base():
    """Second, independent identity: a base rotation R acts like gravity R^T g on the unturned arm."""
    robot = _rprp()
    plain = copy.deepcopy(robot)
    plain.base = np.eye(4)
    g = np.array([0.0, 0.0, -9.81])
    q, _, _ = _state(robot, 5)
    np.testing.assert_allclose(gravload(robot, q, gravity=g), gravload(plain, q, gravity=BASE[:3, :3].T @ g),
                               rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_an_end_effector_wrench_adds_the_tool_jacobian_transpose(name):
    robot = ROBOTS[name]()
    q, qd, qdd = _state(robot, 6)
    w = RNG.normal(size=6)
    np.testing.assert_allclose(rne(robot, q, qd, qdd, fext=w) - rne(robot, q, qd, qdd),
                               jacobe(robot, q).T @ w, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_power_balance_with_prismatic_joints_and_base_and_tool(name):
    """dE/dt = qd . (M qdd + C qd) with no gravity and no friction: checks the velocity terms."""
    robot = copy.deepcopy(ROBOTS[name]())
    for L in robot.links:
        L.B, L.Tc = 0.0, [0.0, 0.0]
    q, qd, qdd = _state(robot, 7)
    zero_g = [0.0, 0.0, 0.0]
    dT = derivative(lambda s: energy(robot, q + s * qd + 0.5 * s ** 2 * qdd, qd + s * qdd, zero_g).kinetic,
                    np.array(0.0), np.array(1.0))
    assert qd @ rne(robot, q, qd, qdd, gravity=zero_g) == pytest.approx(float(dT), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_rne_splits_into_the_matrices(name):
    robot = ROBOTS[name]()
    q, qd, qdd = _state(robot, 8)
    np.testing.assert_allclose(rne(robot, q, qd, qdd),
                               inertia(robot, q) @ qdd + coriolis(robot, q, qd) @ qd + gravload(robot, q)
                               - friction(robot, qd), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", list(ROBOTS))
def test_batched_rne_equals_single_calls(name):
    robot = ROBOTS[name]()
    Q = RNG.uniform(-0.3, 0.6, (30, robot.n))
    QD, QDD = RNG.normal(size=Q.shape), RNG.normal(size=Q.shape)
    many = rne(robot, Q, QD, QDD)
    for k in range(len(Q)):
        np.testing.assert_allclose(many[k], rne(robot, Q[k], QD[k], QDD[k]), rtol=1e-12, atol=1e-12)


def test_masses_times_a_thousand_scale_every_torque_by_a_thousand():
    robot = _rprp()
    heavy = copy.deepcopy(robot)
    for L in heavy.links:
        L.m, L.I, L.Jm, L.B, L.Tc = L.m * 1e3, np.asarray(L.I) * 1e3, L.Jm * 1e3, L.B * 1e3, np.asarray(L.Tc) * 1e3
    q, qd, qdd = _state(robot, 9)
    np.testing.assert_allclose(rne(heavy, q, qd, qdd), 1e3 * rne(robot, q, qd, qdd), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(inertia(heavy, q), 1e3 * inertia(robot, q), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("G", [-40.0, 40.0])
def test_friction_opposes_the_motion_whatever_the_sign_of_the_gear_ratio(G):
    robot = DHRobot([RevoluteDH(a=0.5, m=1.0, B=1e-3, Tc=[0.2, -0.1], G=G)])
    for qd in (-2.0, -0.1, 0.1, 2.0):
        tf = float(friction(robot, [qd])[0])
        assert tf * qd < 0
        coulomb = 0.2 if qd > 0 else -0.1
        assert tf == pytest.approx(-(G ** 2 * 1e-3 * qd + abs(G) * coulomb), rel=1e-12)


def test_motor_inertia_enters_with_the_gear_ratio_squared():
    """M's diagonal gains G^2 Jm: the inertia with and without rotors differ by exactly that."""
    robot = _rprp()
    bare = copy.deepcopy(robot)
    for L in bare.links:
        L.Jm = 0.0
    q = _state(robot, 10)[0]
    Gs = np.array([L.G for L in robot.links])
    Jm = np.array([L.Jm for L in robot.links])
    np.testing.assert_allclose(inertia(robot, q) - inertia(bare, q), np.diag(Gs ** 2 * Jm), atol=1e-12)
