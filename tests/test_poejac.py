"""8.7.1: the Jacobian from joint twists equals the DH and ETS routes, and fkine's derivative."""

import numpy as np
import pytest

import rvc
from rvc import (DHFactor, DHRobot, ETS2, ETS3, RevoluteMDH, PrismaticMDH, jacob0, jacob0_poe,
                 jacobe, jacobs_poe, joint_twists, rpy2tr, transl, trinv, trotx, Ad)
from rvc.models import baxter, cobra600, puma560, puma560_mdh


def prismatic_mdh():
    return DHRobot([RevoluteMDH(d=0.3), PrismaticMDH(a=0.2, alpha=np.pi / 2, theta=0.4),
                    RevoluteMDH(a=0.1, alpha=-np.pi / 2, d=0.1), PrismaticMDH(alpha=0.7, a=0.05)],
                   base=transl(0.1, -0.2, 0.7) @ rpy2tr(0.3, -0.4, 1.1), tool=transl(0, 0.05, 0.2) @ trotx(0.6))


def puma_ets():
    """The Puma 560 as the notes' elementary transform sequence (7.1.2)."""
    return ETS3.from_string("Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) "
                            "Rz(q4) Ry(q5) Rz(q6)", L1=0.3, L2=-0.2337, L3=0.4318, L4=0.0203,
                            L5=0.0837, L6=0.4318)


ROBOTS = {"puma560": puma560, "puma560_mdh": puma560_mdh, "cobra600 (prismatic)": cobra600,
          "baxter (base)": baxter, "prismatic mdh+base+tool": prismatic_mdh, "puma ets": puma_ets,
          "planar ets2": lambda: ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(0.7) * ETS2.Tx()}


def numerical_jacobian(robot, q, h=1e-6):
    """Central differences of fkine (3-D poses; a planar ETS2 is lifted to z = 0)."""
    def pose(q):
        T = np.asarray(robot.fkine(q))
        if T.shape == (3, 3):
            L = np.eye(4)
            L[:2, :2], L[:2, 3] = T[:2, :2], T[:2, 2]
            T = L
        return T
    J = np.zeros((6, robot.n))
    R = pose(q)[:3, :3]
    for j in range(robot.n):
        dq = np.zeros(robot.n)
        dq[j] = h
        Tp, Tm = pose(q + dq), pose(q - dq)
        J[:3, j] = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
        S = (Tp[:3, :3] - Tm[:3, :3]) / (2 * h) @ R.T
        J[3:, j] = rvc.vex((S - S.T) / 2)
    return J


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_twist_route_equals_jacob0_and_the_derivative(name):
    robot = ROBOTS[name]()
    S = joint_twists(robot)
    M = np.asarray(robot.fkine(np.zeros(robot.n)))
    if M.shape == (3, 3):                                  # planar: the 3-D home pose
        M = robot.joint_frames(np.zeros(robot.n))[1]
    Q = np.random.default_rng(5).uniform(-1, 1, (4, robot.n))
    Jt = jacob0_poe(S, M, Q)
    np.testing.assert_allclose(Jt, jacob0(robot, Q), atol=1e-12)
    for k in range(2):
        np.testing.assert_allclose(Jt[k], numerical_jacobian(robot, Q[k]), atol=1e-8)


@pytest.mark.parametrize("s, constants", [
    ("Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)",
     dict(L1=0.3, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)),   # the notes' Puma
    ("Rz(q1) Rx(q2) Ty(L1) Rx(q3) Tz(L2)", dict(L1=0.1, L2=0.1)),              # the walking leg
    ("Rz(q1) Tz(q2) Tx(0.2) Ry(0.3) Tx(q3) Rx(q4)", {}),                         # prismatic joints
])
def test_dh_equals_ets_equals_twists(s, constants):
    """The same arm three ways: its ETS, its DH factorisation (7.4.2) and its joint twists."""
    dh = DHFactor(s, **constants)
    ets, robot = dh.ets, dh.robot()
    Q = np.random.default_rng(6).uniform(-1, 1, (5, robot.n))
    S, M = robot.twists()
    J = jacob0(robot, Q)
    np.testing.assert_allclose(jacob0(ets, Q), J, atol=1e-12)
    np.testing.assert_allclose(jacob0_poe(joint_twists(ets), ets.fkine(np.zeros(robot.n)), Q), J,
                               atol=1e-12)
    np.testing.assert_allclose(jacob0_poe(S, M, Q), J, atol=1e-12)


def test_tool_frame_twist_jacobian():
    """8.7.1: EJv = Ad(E xi 0) 0Jv, and jacobe rotates jacob0 by the same R."""
    robot = puma560()
    robot.tool = transl(0.02, -0.03, 0.15) @ trotx(0.4)
    S, M = robot.twists()
    q = np.random.default_rng(8).uniform(-1, 1, 6)
    T = robot.fkine(q)
    Jve = Ad(trinv(T)) @ jacobs_poe(S, q)
    # the body twist: angular rows are jacobe's, linear rows the tool point's velocity in its own axes
    np.testing.assert_allclose(Jve, jacobe(robot, q), atol=1e-12)


def test_space_jacobian_columns():
    """Column 1 is S1 itself; a prismatic twist keeps a zero angular part."""
    robot = cobra600()
    S = joint_twists(robot)
    Jv = jacobs_poe(S, [0.3, -0.2, 0.1, 0.5])
    np.testing.assert_allclose(Jv[:, 0], S[0], atol=1e-15)
    np.testing.assert_array_equal(Jv[3:, 2], 0)


def test_bad_input():
    S = joint_twists(puma560())
    with pytest.raises(ValueError, match="q: expected 6 joint coordinates"):
        jacobs_poe(S, [0, 0])
    with pytest.raises(ValueError, match="twists: expected shape"):
        jacobs_poe(np.zeros((2, 5)), [0, 0])
    with pytest.raises(ValueError, match="M: expected one 4x4 pose"):
        jacob0_poe(S, np.stack([np.eye(4)] * 2), np.zeros(6))
    with pytest.raises(ValueError, match="finite"):
        jacob0_poe(S, np.eye(4), [0, 0, np.nan, 0, 0, 0])
