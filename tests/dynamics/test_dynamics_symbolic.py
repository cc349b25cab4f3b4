"""Symbolic dynamics (9.1.3): Lagrange's equations in sympy equal the numerical Newton-Euler rne."""

import numpy as np
import pytest
import sympy as sp

import rvc
from rvc import DHRobot, PrismaticMDH, RevoluteDH, RevoluteMDH, lagrange_sym, rne, twolink_sym


@pytest.fixture(scope="module")
def sd():
    return twolink_sym()


def test_twolink_matches_the_notes_formulas(sd):
    s = sd.params
    a1, a2, m1, m2, c1, c2, g = (s[k] for k in "a1 a2 m1 m2 c1 c2 g".split())
    q1, q2 = sd.q
    M11 = m1 * (a1**2 + 2 * a1 * c1 + c1**2) + m2 * (a1**2 + (a2 + c2)**2
                                                      + (2 * a1 * a2 + 2 * a1 * c2) * sp.cos(q2))
    M12 = m2 * (a2 + c2) * (a2 + c2 + a1 * sp.cos(q2))
    C1 = -2 * a1 * m2 * (a2 + c2) * sp.sin(q2)
    C2 = -a1 * m2 * (a2 + c2) * sp.sin(q2)
    gg = (a1 * m1 + a1 * m2 + c1 * m1) * sp.cos(q1) + (a2 * m2 + c2 * m2) * sp.cos(q1 + q2)
    q1d, q2d = sd.qd
    q1dd, q2dd = sd.qdd
    tau1 = M11 * q1dd + M12 * q2dd + C1 * q1d * q2d + C2 * q2d**2 + g * gg
    assert sp.simplify(sp.expand(sd.tau[0] - tau1)) == 0
    assert sp.simplify(sd.M[0, 0] - M11) == 0
    assert sp.simplify(sd.M[0, 1] - M12) == 0


def test_twolink_sym_equals_numerical_rne(sd):
    rng = np.random.default_rng(5)
    s = sd.params
    f = sp.lambdify([*sd.q, *sd.qd, *sd.qdd, *(s[k] for k in "a1 a2 m1 m2 c1 c2 g".split())],
                    list(sd.tau), "numpy")
    for _ in range(5):
        a1, a2, m1, m2, g = rng.uniform(0.5, 2.0, 5)
        c1, c2 = rng.uniform(-1, 0.5, 2)
        robot = DHRobot([RevoluteDH(a=a1, m=m1, r=[c1, 0, 0]), RevoluteDH(a=a2, m=m2, r=[c2, 0, 0])],
                        base=rvc.trotx(np.pi / 2), gravity=[0, 0, -g])
        q, qd, qdd = rng.uniform(-2, 2, (3, 2))
        np.testing.assert_allclose(f(*q, *qd, *qdd, a1, a2, m1, m2, c1, c2, g),
                                   rne(robot, q, qd, qdd), atol=1e-10)


def test_lagrange_of_an_mdh_arm_with_a_prismatic_joint_equals_rne():
    """Modified DH, a prismatic joint, full inertia tensors, motor inertia, a base, tilted gravity."""
    robot = DHRobot([
        RevoluteMDH(d=0.3, m=2.0, r=[0.05, 0.02, 0.1], I=[0.02, 0.03, 0.04, 0.001, 0.002, 0.003],
                    Jm=1e-4, G=50),
        PrismaticMDH(alpha=-np.pi / 2, a=0.1, m=1.5, r=[0.0, 0.03, -0.2],
                     I=[0.05, 0.04, 0.01, 0, 0.002, 0], Jm=3e-5, G=-20),
    ], base=rvc.transl(0.1, 0, 0.2) @ rvc.troty(0.3), gravity=[0.5, 0, -9.81])
    sd = lagrange_sym(robot, simplify=False)
    f = sp.lambdify([*sd.q, *sd.qd, *sd.qdd], list(sd.tau), "numpy")
    rng = np.random.default_rng(9)
    for _ in range(4):
        q, qd, qdd = rng.uniform(-1, 1, (3, 2))
        np.testing.assert_allclose(f(*q, *qd, *qdd), rne(robot, q, qd, qdd), atol=1e-10)


def test_list_of_links_needs_gravity():
    with pytest.raises(ValueError, match="gravity"):
        lagrange_sym([dict(a=1, m=1)])


def test_twolink_sym_hands_out_copies_a_change_cannot_reach_the_next_call():
    first = twolink_sym()
    first.M[0, 0] = 0
    first.params.clear()
    second = twolink_sym()
    assert second.M[0, 0] != 0 and "a1" in second.params
