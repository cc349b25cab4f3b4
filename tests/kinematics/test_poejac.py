"""8.7.1: the Jacobian from joint twists equals the DH and ETS routes, and fkine's derivative."""

import numpy as np
import pytest

from rvc import (DHFactor, ETS2, jacob0, jacob0_poe,
                 jacobe, jacobs_poe, joint_twists, transl, trinv, trotx, Ad)
from rvc.models import baxter, cobra600, puma560, puma560_mdh
from support import fd_jacobian as numerical_jacobian, prismatic_mdh, puma_ets, with_base_tool


def prismatic_mdh_base_tool():
    return with_base_tool(prismatic_mdh(), tool=transl(0, 0.05, 0.2) @ trotx(0.6))


ROBOTS = {"puma560": puma560, "puma560_mdh": puma560_mdh, "cobra600 (prismatic)": cobra600,
          "baxter (base)": baxter, "prismatic mdh+base+tool": prismatic_mdh_base_tool,
          "puma ets": lambda: puma_ets(L1=0.3),
          "planar ets2": lambda: ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(0.7) * ETS2.Tx()}


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
