"""The manipulator Jacobian (jacob0, jacobe) and manipulability (Chapter 8.1-8.2)."""

import numpy as np
import pytest

import rvc
from rvc.kinematics.jacobian import jacob0, jacobe, manipulability
from rvc.models import planar2, puma560, puma560_mdh
from support import fd_jacobian as numerical_jacobian, prismatic_dh, prismatic_mdh, with_base_tool


ROBOTS = {
    "puma560": puma560,
    "puma560_mdh": puma560_mdh,
    "prismatic_dh": prismatic_dh,
    "prismatic_mdh": prismatic_mdh,
    "puma560+base+tool": lambda: with_base_tool(puma560()),
    "puma560_mdh+base+tool": lambda: with_base_tool(puma560_mdh()),
    "prismatic_dh+base+tool": lambda: with_base_tool(prismatic_dh()),
}


def random_q(robot, n, seed=0):
    lo, hi = robot.qlim
    lo = np.where(np.isfinite(lo), lo, -0.5)
    hi = np.where(np.isfinite(hi), hi, 0.5)
    return np.random.default_rng(seed).uniform(lo, hi, (n, robot.n))


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_jacob0_is_the_derivative_of_fkine(name):
    robot = ROBOTS[name]()
    for q in random_q(robot, 5, seed=1):
        np.testing.assert_allclose(jacob0(robot, q), numerical_jacobian(robot, q), atol=1e-8)


def test_prismatic_columns():
    robot = prismatic_dh()
    J = jacob0(robot, random_q(robot, 1, seed=2)[0])
    np.testing.assert_array_equal(J[3:, [1, 3]], 0)                 # no rotation
    np.testing.assert_allclose(np.linalg.norm(J[:3, [1, 3]], axis=0), 1)  # unit translation


def test_mdh_and_dh_puma_agree():
    Q = random_q(puma560(), 10, seed=3)
    np.testing.assert_allclose(jacob0(puma560_mdh(), Q), jacob0(puma560(), Q), atol=1e-12)


@pytest.mark.parametrize("name", ["puma560", "prismatic_mdh", "puma560+base+tool"])
def test_batched_equals_per_row(name):
    robot = ROBOTS[name]()
    Q = random_q(robot, 12, seed=4)
    J = jacob0(robot, Q)
    assert J.shape == (12, 6, robot.n)
    for k in range(12):
        np.testing.assert_allclose(J[k], jacob0(robot, Q[k]), atol=1e-15)
    # any leading dimensions
    assert jacob0(robot, Q.reshape(3, 4, robot.n)).shape == (3, 4, 6, robot.n)
    np.testing.assert_allclose(jacobe(robot, Q)[5], jacobe(robot, Q[5]), atol=1e-15)
    m = manipulability(robot, Q, axes="trans")
    assert m.shape == (12,)
    np.testing.assert_allclose(m[7], manipulability(robot, Q[7], axes="trans"), atol=1e-15)


def test_degrees():
    p560 = puma560()
    q = random_q(p560, 1, seed=5)[0]
    np.testing.assert_allclose(jacob0(p560, np.rad2deg(q), unit="deg"), jacob0(p560, q), atol=1e-14)
    robot = prismatic_dh()                              # prismatic joints are not converted
    q = random_q(robot, 1, seed=5)[0]
    qd = np.where(robot.revolute, np.rad2deg(q), q)
    np.testing.assert_allclose(jacobe(robot, qd, unit="deg"), jacobe(robot, q), atol=1e-14)


@pytest.mark.parametrize("name", ["puma560", "prismatic_mdh", "puma560_mdh+base+tool"])
def test_jacobe_relation(name):
    robot = ROBOTS[name]()
    Q = random_q(robot, 6, seed=6)
    R = robot.fkine(Q)[:, :3, :3]
    Z = np.zeros_like(R)
    X = np.block([[np.swapaxes(R, 1, 2), Z], [Z, np.swapaxes(R, 1, 2)]])
    np.testing.assert_allclose(jacobe(robot, Q), X @ jacob0(robot, Q), atol=1e-14)


def test_end_effector_velocity_by_differences():
    """v_e = Je qd: the tool's velocity seen in its own frame, T^-1 dT/dt = [w]x, v."""
    robot = with_base_tool(puma560())
    q = random_q(robot, 1, seed=7)[0]
    qd = np.random.default_rng(8).normal(size=6)
    h = 1e-6
    T = robot.fkine(q)
    dT = (robot.fkine(q + h * qd) - robot.fkine(q - h * qd)) / (2 * h)
    V = np.linalg.inv(T) @ dT
    np.testing.assert_allclose(jacobe(robot, q) @ qd,
                               np.r_[V[:3, 3], rvc.vex((V[:3, :3] - V[:3, :3].T) / 2)], atol=1e-8)


def test_robot_methods():
    p560 = puma560()
    Q = random_q(p560, 4, seed=9)
    np.testing.assert_array_equal(p560.jacob0(Q), jacob0(p560, Q))
    np.testing.assert_array_equal(p560.jacobe(Q[0]), jacobe(p560, Q[0]))
    np.testing.assert_array_equal(p560.manipulability(Q, "invcondition", "rot"),
                                  manipulability(p560, Q, "invcondition", "rot"))
    assert rvc.jacob0 is jacob0 and rvc.manipulability is manipulability


# --------------------------------------------------------------------------- #
# manipulability

def test_puma_singular_configurations():
    """8.2.1: at qr (and qz) joints 4 and 6 line up: J has rank 5, m = 0."""
    p560 = puma560()
    for q in (p560.qz, p560.qr):
        assert np.linalg.matrix_rank(jacob0(p560, q)) == 5
        for method in ("yoshikawa", "invcondition", "minsingular"):
            assert manipulability(p560, q, method) < 1e-12
    assert manipulability(p560, p560.qn) > 0.05          # the nominal pose is well away


def test_near_singularity():
    """8.2.1's qns: q5 = 5 deg off qr; J is invertible but m is small."""
    p560 = puma560()
    qns = p560.qr.copy()
    qns[4] = np.deg2rad(5)
    m_near = manipulability(p560, qns)
    assert 0 < m_near < 0.1 * manipulability(p560, p560.qn)
    # m is the product of the singular values, i.e. |det J| for a square J
    np.testing.assert_allclose(m_near, abs(np.linalg.det(jacob0(p560, qns))), rtol=1e-9)


@pytest.mark.parametrize("name", ["puma560", "puma560_mdh+base+tool"])
def test_yoshikawa_formula(name):
    robot = ROBOTS[name]()
    Q = random_q(robot, 8, seed=10)
    J = jacob0(robot, Q)
    np.testing.assert_allclose(manipulability(robot, Q),
                               np.sqrt(np.linalg.det(J @ np.swapaxes(J, 1, 2))), rtol=1e-9)
    Jt = J[:, :3]
    np.testing.assert_allclose(manipulability(robot, Q, axes="trans"),
                               np.sqrt(np.linalg.det(Jt @ np.swapaxes(Jt, 1, 2))), rtol=1e-9)
    Jr = J[:, 3:]
    np.testing.assert_allclose(manipulability(robot, Q, axes="rot"),
                               np.sqrt(np.linalg.det(Jr @ np.swapaxes(Jr, 1, 2))), rtol=1e-9)
    np.testing.assert_allclose(manipulability(robot, Q, "invcondition"),
                               1 / np.linalg.cond(J), rtol=1e-9)
    np.testing.assert_allclose(manipulability(robot, Q, "minsingular"),
                               np.linalg.svd(J, compute_uv=False)[:, -1], rtol=1e-9)


def test_manipulability_independent_of_base():
    robot = puma560()
    moved = with_base_tool(robot)
    moved.tool = np.eye(4)
    Q = random_q(robot, 5, seed=11)
    for method in ("yoshikawa", "invcondition"):
        for axes in ("all", "trans", "rot"):
            np.testing.assert_allclose(manipulability(moved, Q, method, axes),
                                       manipulability(robot, Q, method, axes), rtol=1e-9)


def test_planar_two_link():
    """Yoshikawa's classic result for the planar 2-link arm: m = a1 a2 |sin q2|."""
    p2 = planar2(a1=0.7, a2=0.4)
    q2 = np.linspace(-3, 3, 13)
    Q = np.stack([np.full_like(q2, 0.3), q2], axis=-1)
    np.testing.assert_allclose(manipulability(p2, Q, axes=[1, 1, 0, 0, 0, 0]),
                               0.7 * 0.4 * np.abs(np.sin(q2)), atol=1e-14)
    # 6 (or 3) task rows and 2 joints: J J^T is always singular
    np.testing.assert_array_equal(manipulability(p2, Q), 0)
    np.testing.assert_array_equal(manipulability(p2, Q, axes="trans"), 0)
    assert manipulability(p2, p2.qz, axes=[True, True, False, False, False, False]) == 0


def test_scalar_output():
    p560 = puma560()
    m = manipulability(p560, p560.qn)
    assert np.ndim(m) == 0 and isinstance(float(m), float)


# --------------------------------------------------------------------------- #
# bad input

@pytest.mark.parametrize("func", [jacob0, jacobe, manipulability])
def test_wrong_q_length(func):
    with pytest.raises(ValueError, match=r"^q: expected 6 joint coordinates"):
        func(puma560(), [0, 0, 0])
    with pytest.raises(ValueError, match=r"^q: expected finite"):
        func(puma560(), [0, 0, 0, 0, np.nan, 0])


def test_bad_unit():
    with pytest.raises(ValueError, match=r"^unit: "):
        jacob0(puma560(), np.zeros(6), unit="degrees")


def test_bad_method_and_axes():
    p560 = puma560()
    with pytest.raises(ValueError, match=r"^method: expected one of 'yoshikawa'"):
        manipulability(p560, p560.qn, method="asada")
    with pytest.raises(ValueError, match=r"^axes: expected one of 'all', 'trans', 'rot'"):
        manipulability(p560, p560.qn, axes="both")
    for bad in ([1, 1, 0], [0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]):
        with pytest.raises(ValueError, match=r"^axes: "):
            manipulability(p560, p560.qn, axes=bad)
    with pytest.raises(ValueError, match=r"^axes: "):
        p560.manipulability(p560.qn, axes="xyz")
