"""Rigid-body dynamics (Chapter 9.2-9.3): printed values of the notes, identities, bad input."""

import warnings

import numpy as np
import pytest

import rvc
from rvc import (DHRobot, PrismaticDH, RevoluteDH, RevoluteMDH, SingularityWarning, accel,
                 accel_ellipsoid, add_point_mass, asada, coriolis, dynparams, energy, fdyn,
                 friction, gravload, inertia, inertia_x, itorque, jacob0, jacob_dot, jacobe,
                 link_spatial, nofriction, payload, rne, spatial_inertia)
from rvc.models import puma560, puma560_mdh, stanford, twolink
from support import derivative

P560 = puma560()
QN = P560.qn
RNG = np.random.default_rng(2024)

#: The notes' printed M = p560.inertia(qn) (9.2.2).
NOTES_M = np.array([
    [3.6594, -0.4044, 0.1006, -0.0025, 0.0000, -0.0000],
    [-0.4044, 4.4137, 0.3509, 0.0000, 0.0024, 0.0000],
    [0.1006, 0.3509, 0.9378, 0.0000, 0.0015, 0.0000],
    [-0.0025, 0.0000, 0.0000, 0.1925, 0.0000, 0.0000],
    [0.0000, 0.0024, 0.0015, 0.0000, 0.1713, 0.0000],
    [-0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.1941]])

#: The notes' printed C = p560.coriolis(qn, [0 0 1 0 0 0]) (9.2.3), which does NOT reproduce.
NOTES_C = np.array([
    [0.8992, -0.2380, -0.2380, 0.0005, -0.0375, 0.0000],
    [-0.0000, 0.9106, 0.9106, 0, -0.0036, 0],
    [0.0000, 0.0000, -0.0000, 0, -0.0799, 0],
    [-0.0559, 0.0000, 0.0000, -0.0000, 0.0000, -0.0000],
    [-0.0000, 0.0799, 0.0799, -0.0000, 0, 0],
    [0.0000, 0, 0, 0.0000, 0, 0]])


def robots():
    """Puma (std DH), Puma (modified DH), Stanford (prismatic), two-link with a base."""
    return [puma560(), puma560_mdh(), stanford(), twolink()]


def random_states(robot, k=8):
    lo, hi = robot.qlim
    lo = np.where(np.isfinite(lo), lo, -0.5)
    hi = np.where(np.isfinite(hi), hi, 0.5)
    return (RNG.uniform(lo, hi, (k, robot.n)), RNG.uniform(-1, 1, (k, robot.n)),
            RNG.uniform(-1, 1, (k, robot.n)))


# ------------------------------------------------------------ printed values

def test_inertia_at_qn_is_the_printed_matrix():
    np.testing.assert_allclose(inertia(P560, QN), NOTES_M, atol=5e-5)
    np.testing.assert_allclose(np.diag(inertia(P560, QN)),
                               [3.6594, 4.4137, 0.9378, 0.1925, 0.1713, 0.1941], atol=5e-5)


def test_base_wrench_and_total_weight():
    tau, wb = rne(P560, QN, np.zeros(6), np.zeros(6), base_wrench=True)
    np.testing.assert_allclose(wb, [0, 0, 230.0445, -48.4024, -31.6399, 0], atol=5e-5)
    assert wb[2] == pytest.approx(dynparams(P560).total_mass * 9.81)
    np.testing.assert_allclose(tau, gravload(P560, QN))


def test_gravload_values():
    np.testing.assert_allclose(gravload(P560, QN), [0, 31.6399, 6.0351, 0, 0.0283, 0], atol=5e-5)
    np.testing.assert_allclose(gravload(P560, P560.qs), [0, 46.0069, 8.7722, 0, 0.0283, 0],
                               atol=5e-5)
    np.testing.assert_allclose(gravload(P560, P560.qr), [0, -0.7752, 0.2489, 0, 0, 0], atol=5e-5)


def test_printed_coriolis_does_not_reproduce_and_fails_the_consistency_check():
    qd = np.array([0, 0, 1, 0, 0, 0.0])
    C = coriolis(P560, QN, qd)
    h = rne(nofriction(P560, viscous=True), QN, qd, np.zeros(6), gravity=[0, 0, 0])
    np.testing.assert_allclose(C @ qd, h, atol=1e-12)            # rvc's C is consistent
    assert np.abs(NOTES_C @ qd - h).max() > 0.3                  # the printed one is not
    assert C[1, 2] == pytest.approx(0.3858, abs=5e-5)             # vs the printed 0.9106


def test_M22_range_of_the_notes():
    Q = np.zeros((361, 6))
    Q[:, 2] = np.linspace(-np.pi, np.pi, 361)
    M22 = inertia(P560, Q)[:, 1, 1]
    assert (round(M22.min(), 2), round(M22.max(), 2), round(M22.mean(), 2)) == (3.66, 5.21, 4.43)


# ------------------------------------------------------------ identities

@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_inertia_symmetric_positive_definite_and_equal_to_rne_columns(robot):
    Q, _, _ = random_states(robot)
    M = inertia(robot, Q)
    np.testing.assert_allclose(M, np.swapaxes(M, -1, -2), atol=1e-12)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    q = Q[0]
    cols = np.stack([rne(robot, q, np.zeros(robot.n), e, gravity=[0, 0, 0])
                     for e in np.eye(robot.n)], axis=1)
    np.testing.assert_allclose(M[0], cols, atol=1e-10)
    np.testing.assert_allclose(itorque(robot, Q, np.eye(robot.n)[0]), M[..., 0], atol=1e-10)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_Mdot_minus_2C_is_skew(robot):
    Q, QD, _ = random_states(robot, 3)
    for q, qd in zip(Q, QD):
        Mdot = derivative(lambda x: inertia(robot, x), q, qd)
        S = Mdot - 2 * coriolis(robot, q, qd)
        np.testing.assert_allclose(S, -S.T, atol=1e-6 * max(1, np.abs(Mdot).max()))


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_rne_of_accel_is_the_torque(robot):
    Q, QD, _ = random_states(robot)
    tau = RNG.uniform(-5, 5, Q.shape)
    qdd = accel(robot, Q, QD, tau)
    np.testing.assert_allclose(rne(robot, Q, QD, qdd), tau, atol=1e-9)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_batched_equals_one_at_a_time(robot):
    Q, QD, QDD = random_states(robot, 4)
    tau = rne(robot, Q, QD, QDD)
    M = inertia(robot, Q)
    C = coriolis(robot, Q, QD)
    for k in range(4):
        np.testing.assert_allclose(tau[k], rne(robot, Q[k], QD[k], QDD[k]), atol=1e-12)
        np.testing.assert_allclose(M[k], inertia(robot, Q[k]), atol=1e-12)
        np.testing.assert_allclose(C[k], coriolis(robot, Q[k], QD[k]), atol=1e-12)
    # broadcasting: one configuration, many speeds
    assert rne(robot, Q[0], QD, QDD).shape == (4, robot.n)


@pytest.mark.parametrize("robot", robots(), ids=lambda r: r.name)
def test_equation_of_motion_assembles(robot):
    """rne = M qdd + C qd + G + F, the notes' equation term by term."""
    Q, QD, QDD = random_states(robot, 3)
    for q, qd, qdd in zip(Q, QD, QDD):
        rhs = (inertia(robot, q) @ qdd + coriolis(robot, q, qd) @ qd + gravload(robot, q)
               - friction(robot, qd))
        np.testing.assert_allclose(rne(robot, q, qd, qdd), rhs, atol=1e-9)


@pytest.mark.parametrize("robot", [puma560(), stanford()], ids=lambda r: r.name)
def test_fext_adds_jacobian_transpose_wrench(robot):
    robot.tool = rvc.transl(0.01, 0.02, 0.1) @ rvc.trotx(0.3)
    q, qd, qdd = (x[0] for x in random_states(robot, 1))
    W = np.array([3.0, -1.0, 2.0, 0.2, 0.5, -0.1])
    diff = rne(robot, q, qd, qdd, fext=W) - rne(robot, q, qd, qdd)
    np.testing.assert_allclose(diff, jacobe(robot, q).T @ W, atol=1e-10)


def test_base_wrench_balances_a_moving_arm():
    """The base wrench is the total rate of change of momentum minus gravity: check with a base transform."""
    robot = puma560()
    robot.base = rvc.transl(0.3, -0.2, 0.5) @ rvc.trotz(0.7)
    q, qd, qdd = (x[0] for x in random_states(robot, 1))
    # static: the base carries the weight, in the base frame
    _, wb = rne(robot, q, np.zeros(6), np.zeros(6), base_wrench=True)
    np.testing.assert_allclose(wb[:3], robot.base[:3, :3].T @ [0, 0, 230.0445], atol=1e-4)
    # dynamic: force = d(momentum)/dt - m g, by finite differences of the momentum
    chain = lambda q: link_spatial(robot, q)                          # noqa: E731

    def momentum(q, qd):
        c = chain(q)
        v = np.cumsum(c.S * qd[:, None], axis=0)                      # link twists
        return np.einsum("jab,jb->a", c.I, v)[:3]
    eps = 1e-6
    dp = (momentum(q + eps * qd + eps**2 / 2 * qdd, qd + eps * qdd)
          - momentum(q - eps * qd + eps**2 / 2 * qdd, qd - eps * qdd)) / (2 * eps)
    _, wb = rne(robot, q, qd, qdd, base_wrench=True)
    F = robot.base[:3, :3] @ wb[:3]
    np.testing.assert_allclose(F, dp - 23.45 * np.array([0, 0, -9.81]), atol=1e-4)


def test_spatial_inertia_gives_momentum():
    I = spatial_inertia(2.0, [1.0, 0, 0], np.diag([0.1, 0.2, 0.3]))
    h = I @ [0, 0, 0, 0, 0, 1.0]                 # spinning about z through the origin
    np.testing.assert_allclose(h, [0, 2, 0, 0, 0, 0.3 + 2])


def test_energy_is_conserved_without_friction():
    """fdyn of a frictionless arm under gravity alone: |E(t) - E(0)| < 1e-6 J over 0.5 s."""
    nf = nofriction(puma560(), viscous=True)
    sim = fdyn(nf, 0.5, [0, 0.3, 0.2, 0.1, 0.4, 0], rtol=1e-10, atol=1e-10, npoints=11)
    E = energy(nf, sim.q, sim.qd).total
    assert np.abs(E - E[0]).max() < 1e-6
    assert np.abs(sim.q[-1] - sim.q[0]).max() > 0.1          # it did fall
    # with viscous friction it loses energy
    f = nofriction(puma560())
    sim = fdyn(f, 0.5, [0, 0.3, 0.2, 0.1, 0.4, 0], npoints=11)
    E = energy(f, sim.q, sim.qd).total
    assert np.all(np.diff(E) < 0)


def test_fdyn_uses_the_gravity_it_is_given():
    """fdyn's gravity option: switched off, an arm at rest with no torque stays exactly where it is;
    another vector gives the motion of the same arm whose own gravity is that vector, and conserves
    the energy computed with it (not with the default)."""
    import copy
    nf = nofriction(puma560(), viscous=True)
    q0 = [0, 0.3, 0.2, 0.1, 0.4, 0]
    still = fdyn(nf, 0.2, q0, gravity=[0, 0, 0], npoints=5)
    np.testing.assert_array_equal(still.q, np.broadcast_to(q0, (5, 6)))
    np.testing.assert_array_equal(still.qd, 0)
    g = np.array([3.0, -2.0, -5.0])
    sim = fdyn(nf, 0.3, q0, gravity=g, rtol=1e-10, atol=1e-10, npoints=7)
    other = copy.deepcopy(nf)
    other.gravity = g
    ref = fdyn(other, 0.3, q0, rtol=1e-10, atol=1e-10, npoints=7)
    np.testing.assert_allclose(sim.q, ref.q, rtol=0, atol=1e-12)
    assert np.abs(sim.q[-1] - fdyn(nf, 0.3, q0, rtol=1e-10, atol=1e-10, npoints=7).q[-1]).max() > 0.01
    E = energy(nf, sim.q, sim.qd, gravity=g).total
    assert np.abs(E - E[0]).max() < 1e-6


def test_energy_rate_is_power():
    """d(KE + PE)/dt = qd . (tau - friction) for the two-link arm: the Lagrangian balance."""
    tl = twolink()
    q, qd, qdd = np.array([0.3, -0.7]), np.array([1.1, -0.4]), np.array([0.5, 2.0])
    tau = rne(tl, q, qd, qdd)
    eps = 1e-6
    E = lambda s: energy(tl, q + s * qd + s**2 / 2 * qdd, qd + s * qdd).total  # noqa: E731
    np.testing.assert_allclose((E(eps) - E(-eps)) / (2 * eps), qd @ tau, rtol=1e-6)


def test_payload_adds_a_point_mass():
    """M_loaded - M = m Jp^T Jp, with Jp the translational Jacobian of the payload point."""
    robot = puma560()
    q = np.array([0.2, 0.6, 2.8, 0.3, 0.5, -0.4])
    M0, g0 = inertia(robot, q), gravload(robot, q)
    p = np.array([0.0, 0.0, 0.1])
    payload(robot, 2.5, p)
    probe = puma560()
    probe.tool = rvc.transl(*p)
    Jp = jacob0(probe, q)[:3]
    np.testing.assert_allclose(inertia(robot, q) - M0, 2.5 * Jp.T @ Jp, atol=1e-10)
    np.testing.assert_allclose(gravload(robot, q) - g0, -Jp.T @ (2.5 * np.array([0, 0, -9.81])),
                               atol=1e-10)
    payload(robot, 1.0, p)                                   # replaces, does not add up
    np.testing.assert_allclose(inertia(robot, q) - M0, 1.0 * Jp.T @ Jp, atol=1e-10)
    payload(robot, 0)
    np.testing.assert_allclose(inertia(robot, q), M0, atol=1e-12)
    assert robot.links[-1].m == 0.09


def test_add_point_mass_keeps_inertia_about_a_point():
    m, r, I = add_point_mass(3.0, [0.1, 0, 0], np.diag([1.0, 2.0, 3.0]), 2.0, [0, 0.2, 0])
    # inertia about the origin is additive
    io = lambda m, r, I: I + m * (r @ r * np.eye(3) - np.outer(r, r))  # noqa: E731
    np.testing.assert_allclose(io(m, r, I), io(3.0, np.array([0.1, 0, 0]), np.diag([1.0, 2, 3]))
                               + io(2.0, np.array([0, 0.2, 0]), np.zeros((3, 3))), atol=1e-15)


def test_friction_and_nofriction():
    tau = friction(P560, [1, -1, 0, 0.5, -2, 0])
    assert tau[0] < 0 and tau[1] > 0 and tau[2] == 0 and tau[5] == 0
    L = P560.links[0]
    assert tau[0] == pytest.approx(-(L.G**2 * L.B + abs(L.G) * L.Tc[0]))
    nf = P560.nofriction()
    assert nf is not P560 and np.all(P560.links[0].Tc != 0)
    assert np.allclose(friction(nf, np.ones(6)), -np.array([L.G**2 * L.B for L in P560.links]))
    assert np.allclose(friction(P560.nofriction(viscous=True), np.ones(6)), 0)


def test_jacob_dot_by_finite_differences():
    robot = stanford()
    q, qd, _ = (x[0] for x in random_states(robot, 1))
    Jd = derivative(lambda x: jacob0(robot, x), q, qd)
    np.testing.assert_allclose(jacob_dot(robot, q, qd), Jd @ qd, atol=1e-7)


def test_cartesian_inertia_and_asada():
    Mx = inertia_x(P560, QN)
    J, M = jacob0(P560, QN), inertia(P560, QN)
    np.testing.assert_allclose(Mx, np.linalg.inv(J @ np.linalg.solve(M, J.T)), atol=1e-9)
    ev = np.linalg.eigvalsh(Mx)
    assert asada(P560, QN) == pytest.approx(ev[0] / ev[-1])
    assert P560.manipulability(QN, method="asada") == pytest.approx(ev[0] / ev[-1])
    E = accel_ellipsoid(P560, QN)
    A = (J @ np.linalg.inv(M))[:3]
    np.testing.assert_allclose(E.radii, np.sqrt(np.linalg.eigvalsh(A @ A.T))[::-1])
    with pytest.warns(SingularityWarning):
        inertia_x(twolink(), [0.3, 0.4])                     # 2 joints, 6 directions


# ------------------------------------------------------------ bad input

def test_bad_input():
    with pytest.raises(ValueError, match="q: expected 6 joint coordinates"):
        rne(P560, [0, 0, 0])
    with pytest.raises(ValueError, match="qd: expected 6 joint coordinates"):
        rne(P560, QN, [0, 0])
    with pytest.raises(ValueError, match="finite"):
        inertia(P560, [0, np.nan, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="gravity: expected a vector of 3"):
        gravload(P560, QN, gravity=[0, 9.81])
    with pytest.raises(ValueError, match="fext: expected shape"):
        rne(P560, QN, fext=[1, 2, 3])
    with pytest.raises(ValueError, match="robot: expected a robot with dynamic parameters"):
        rne(rvc.models.planar2(), [0, 0])
    with pytest.raises(ValueError, match="q, qd, qdd: expected shapes that broadcast"):
        rne(P560, np.zeros((3, 6)), np.zeros((2, 6)))
    with pytest.raises(ValueError, match="m: expected a payload mass >= 0"):
        payload(puma560(), -1.0)
    with pytest.raises(ValueError, match="p: expected a vector of 3"):
        payload(puma560(), 1.0, [0, 0])
    with pytest.raises(ValueError, match="T: expected a positive duration"):
        fdyn(P560, 0, QN)
    with pytest.raises(TypeError, match="torque"):
        fdyn(P560, 1, QN, torque=np.zeros(6))
    robot = DHRobot([RevoluteDH(a=1, m=1), RevoluteDH(a=1)])        # a joint that moves nothing
    with pytest.raises(ValueError, match="invertible inertia"):
        accel(robot, [0, 0], [0, 0], [0, 0])


def test_mixed_joint_types_and_mdh_agree_with_std():
    """The same arm in standard and modified DH has the same dynamics."""
    Q, QD, QDD = random_states(P560, 3)
    np.testing.assert_allclose(rne(puma560_mdh(), Q, QD, QDD), rne(P560, Q, QD, QDD), atol=1e-10)
    # a hand-made MDH robot with a prismatic joint runs too
    r = DHRobot([RevoluteMDH(d=0.2, m=1, r=[0.1, 0, 0], I=[0.01, 0.02, 0.03]),
                 rvc.PrismaticMDH(alpha=np.pi / 2, m=2, r=[0, 0, -0.1], I=[0.02, 0.02, 0.01])])
    q, qd = [0.3, 0.2], [0.5, -0.1]
    np.testing.assert_allclose(rne(r, q, qd, accel(r, q, qd, [1.0, 2.0])), [1.0, 2.0])
    assert isinstance(PrismaticDH(), rvc.Link)


def test_thin_methods_call_the_algorithms():
    p = puma560()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(p.rne(QN), rne(p, QN))
        np.testing.assert_allclose(p.inertia(QN), inertia(p, QN))
        np.testing.assert_allclose(p.gravload(QN), gravload(p, QN))
        np.testing.assert_allclose(p.coriolis(QN, np.ones(6)), coriolis(p, QN, np.ones(6)))
        np.testing.assert_allclose(p.accel(QN, np.zeros(6), np.ones(6)),
                                   accel(p, QN, np.zeros(6), np.ones(6)))
        np.testing.assert_allclose(p.friction(np.ones(6)), friction(p, np.ones(6)))
        np.testing.assert_allclose(p.itorque(QN, np.ones(6)), itorque(p, QN, np.ones(6)))
        np.testing.assert_allclose(p.inertia_x(QN), inertia_x(p, QN))
        assert p.energy(QN, np.zeros(6)).kinetic == 0
        p.payload(1.0)
        assert p.links[-1].m == pytest.approx(1.09)
        assert p.jointdynamics(QN).J.shape == (6,)
        t, q, qd = p.nofriction().fdyn(0.05, p.qz, npoints=2)
        assert q.shape == (2, 6)
