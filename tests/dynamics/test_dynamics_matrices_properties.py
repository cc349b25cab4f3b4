"""rvc.dynamics.matrices, payload, friction, cartesian: each matrix against its definition by another route.

C from the Christoffel symbols of M (finite differences of ``inertia``), the potential
energy's sign from a falling height, a payload's inertia by the parallel-axis theorem on
a point mass, friction's value exactly at zero speed, and the acceleration ellipsoid as
the image of the unit torque ball under J M^-1.
"""

import copy

import numpy as np
import pytest
from support import BASE, TOOL, derivative

from rvc import (DHRobot, accel_ellipsoid, add_point_mass, coriolis, energy, friction, gravload, inertia, jacob0,
                 payload, rne)
from rvc.models import puma560

RNG = np.random.default_rng(92)


@pytest.fixture(scope="module")
def arm():
    p = DHRobot(puma560())
    p.base, p.tool = BASE, TOOL
    return p


def test_coriolis_matrix_is_built_from_the_christoffel_symbols_of_m(arm):
    q, qd = arm.qn + 0.2, RNG.normal(size=6)
    dM = np.stack([derivative(lambda x: inertia(arm, x), q, e) for e in np.eye(6)], axis=-1)   # dM[i, j, k]
    c = 0.5 * (dM + np.einsum("ikj->ijk", dM) - np.einsum("jki->ijk", dM))   # (M_ij,k + M_ik,j - M_jk,i) / 2
    np.testing.assert_allclose(coriolis(arm, q, qd), np.einsum("ijk,k->ij", c, qd), rtol=1e-6, atol=1e-7)


def test_mdot_minus_2c_is_skew_symmetric(arm):
    """Second, independent identity of the same C."""
    q, qd = arm.qn - 0.3, RNG.normal(size=6)
    Md = derivative(lambda x: inertia(arm, x), q, qd)
    S = Md - 2 * coriolis(arm, q, qd)
    np.testing.assert_allclose(S, -S.T, atol=1e-6)


def test_coriolis_batched_equals_single(arm):
    Q, QD = arm.qn + RNG.normal(0, 0.5, (6, 6)), RNG.normal(size=(6, 6))
    many = coriolis(arm, Q, QD)
    for k in range(6):
        np.testing.assert_allclose(many[k], coriolis(arm, Q[k], QD[k]), rtol=1e-12, atol=1e-12)


def test_the_potential_energy_grows_with_height(arm):
    """Lift the whole arm by 1 m (its base): V grows by the total mass times g."""
    higher = copy.deepcopy(arm)
    higher.base = np.array(arm.base, dtype=float)
    higher.base[2, 3] += 1.0
    q = arm.qn
    dV = energy(higher, q, np.zeros(6)).potential - energy(arm, q, np.zeros(6)).potential
    assert dV == pytest.approx(sum(L.m for L in arm.links) * 9.81, rel=1e-9)


def test_kinetic_energy_is_half_qd_m_qd_and_includes_the_rotors(arm):
    q, qd = arm.qn, RNG.normal(size=6)
    M = np.stack([rne(arm, q, np.zeros(6), e, gravity=[0, 0, 0]) for e in np.eye(6)], axis=1)
    assert energy(arm, q, qd).kinetic == pytest.approx(0.5 * qd @ M @ qd, rel=1e-10)


def test_a_point_mass_adds_by_the_parallel_axis_theorem():
    m, r, I = 2.0, np.array([0.1, -0.2, 0.05]), np.diag([0.02, 0.03, 0.01])
    mp, p = 0.7, np.array([0.3, 0.1, -0.1])
    mc, rc, Ic = add_point_mass(m, r, I, mp, p)
    assert mc == pytest.approx(2.7)
    np.testing.assert_allclose(rc, (m * r + mp * p) / (m + mp), atol=1e-15)

    def about_origin(mass, c, Ic_):
        return Ic_ + mass * (c @ c * np.eye(3) - np.outer(c, c))
    # the inertia about the origin is additive: body + point mass
    np.testing.assert_allclose(about_origin(mc, rc, Ic), about_origin(m, r, I) + about_origin(mp, p, np.zeros((3, 3))),
                               atol=1e-14)


def test_a_payload_at_the_tool_point_adds_its_weight_through_the_jacobian():
    """An independent route: the payload's gravity torque is -J^T (0, 0, -m g) at the point it sits on."""
    p = DHRobot(puma560())
    p.tool = TOOL
    q = p.qn + 0.1
    before = gravload(p, q)
    payload(p, 1.5, [0.0, 0.0, 0.0])                        # at the tool point
    J = jacob0(p, q)
    np.testing.assert_allclose(gravload(p, q) - before, J[:3].T @ np.array([0.0, 0.0, 1.5 * 9.81]),
                               rtol=1e-9, atol=1e-9)


def test_friction_at_rest_is_exactly_zero_and_coulomb_just_either_side():
    p = puma560()
    G, B = np.array([L.G for L in p.links]), np.array([L.B for L in p.links])
    Tc = np.array([L.Tc for L in p.links])
    np.testing.assert_array_equal(friction(p, np.zeros(6)), np.zeros(6))
    for s, col in ((1e-12, 0), (-1e-12, 1)):
        qd = np.full(6, s)
        np.testing.assert_allclose(friction(p, qd), -(G ** 2 * B * qd + np.abs(G) * Tc[:, col]), rtol=1e-12)


def test_the_acceleration_ellipsoid_is_the_image_of_the_unit_torque_ball(arm):
    q = arm.qn + 0.1
    J, M = jacob0(arm, q), inertia(arm, q)
    A = (J @ np.linalg.inv(M))[:3]
    E = accel_ellipsoid(arm, q)
    np.testing.assert_allclose(E.radii, np.linalg.svd(A, compute_uv=False), rtol=1e-9)
    # a torque on the unit sphere maps onto the ellipsoid's surface: y^T S^-1 y = 1
    tau = RNG.normal(size=6)
    tau /= np.linalg.norm(tau)
    y = A @ tau
    S = A @ A.T
    assert y @ np.linalg.solve(S, y) <= 1 + 1e-9
    u = np.linalg.svd(A)[2][0]
    assert (A @ u) @ np.linalg.solve(S, A @ u) == pytest.approx(1.0, rel=1e-9)


def test_a_payload_off_the_tool_point_is_placed_through_the_tools_rotation():
    """The payload at p in the end-effector frame sits at the tool point of a robot whose tool is
    tool @ transl(p): its weight enters through that robot's translational Jacobian."""
    from rvc import transl
    p = DHRobot(puma560())
    p.tool = TOOL
    q = p.qn + 0.1
    where = np.array([0.05, -0.03, 0.12])
    longer = DHRobot(puma560())
    longer.tool = TOOL @ transl(*where)
    before = gravload(p, q)
    payload(p, 2.0, where)
    np.testing.assert_allclose(gravload(p, q) - before, jacob0(longer, q)[:3].T @ np.array([0.0, 0.0, 2.0 * 9.81]),
                               rtol=1e-9, atol=1e-9)
