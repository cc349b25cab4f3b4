"""Cross-check rvc's Jacobians (8.1, 8.7.1) against Pinocchio's frame Jacobians.

Pinocchio (PyPI package ``pin``) is an oracle only: rvc never imports it.  Each test builds
the Pinocchio model from the robot's DH table, joint by joint, so that nothing but the table
is shared:

* standard DH, :math:`A_j = R_z(\\theta_j) T_z(d_j) T_x(a_j) R_x(\\alpha_j)`: joint j turns
  (slides) about the z axis of frame {j-1}; what follows the joint variable,
  :math:`R_z(\\text{offset}) T_z(d) T_x(a) R_x(\\alpha)` (or :math:`R_z(\\theta) T_z(\\text{offset})
  T_x(a) R_x(\\alpha)` for a prismatic joint), is the placement of the next joint;
* modified DH, :math:`A_j = R_x(\\alpha_{j-1}) T_x(a_{j-1}) R_z(\\theta_j) T_z(d_j)`: what
  precedes the joint variable is the joint's placement, what follows it the next one's;
* the base is the first placement, the tool a frame on the last joint.

Pinocchio's reference frames: ``LOCAL_WORLD_ALIGNED`` is rvc's ``jacob0`` (velocity of the
tool point, world axes), ``LOCAL`` its ``jacobe``, ``WORLD`` the velocity-twist (space)
Jacobian ``jacobs_poe`` of 8.7.1.  Both order spatial vectors (linear, angular).
"""

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio", reason="the PyPI package 'pin' (Pinocchio) is not installed")

from rvc import (DHRobot, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH, jacob0, jacobe,  # noqa: E402
                 jacobs_poe, joint_twists, rpy2tr, transl, trotx, trotz)
from rvc.models import baxter, cobra600, puma560, puma560_mdh  # noqa: E402


def _se3(T):
    return pin.SE3(np.asarray(T[:3, :3]), np.asarray(T[:3, 3]))


def pinocchio_model(robot):
    """A Pinocchio model of ``robot`` built from its DH table; returns (model, tool frame id)."""
    model = pin.Model()
    parent, placement = 0, robot.base.copy()
    for j, L in enumerate(robot.links):
        if L.mdh:
            placement = placement @ trotx(L.alpha) @ transl(L.a, 0, 0)
            if L.isrevolute:
                placement, after = placement @ trotz(L.offset), transl(0, 0, L.d)
            else:
                placement, after = placement @ trotz(L.theta) @ transl(0, 0, L.offset), np.eye(4)
        elif L.isrevolute:
            after = trotz(L.offset) @ transl(0, 0, L.d) @ transl(L.a, 0, 0) @ trotx(L.alpha)
        else:
            after = trotz(L.theta) @ transl(0, 0, L.offset) @ transl(L.a, 0, 0) @ trotx(L.alpha)
        joint = pin.JointModelRZ() if L.isrevolute else pin.JointModelPZ()
        parent = model.addJoint(parent, joint, _se3(placement), f"q{j + 1}")
        placement = after
    tool = model.addFrame(pin.Frame("tool", parent, _se3(placement @ robot.tool), pin.FrameType.OP_FRAME))
    return model, tool


def rprp():
    return DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2, offset=0.2),
                    PrismaticDH(theta=np.pi / 2, a=0.1, alpha=-np.pi / 2, offset=0.1),
                    RevoluteDH(a=0.4, alpha=0.3, d=0.05),
                    PrismaticDH(alpha=np.pi / 3)],
                   base=transl(0.1, -0.2, 0.7) @ rpy2tr(0.3, -0.4, 1.1),
                   tool=transl(0.02, 0.05, 0.2) @ trotx(0.6))


def rprp_mdh():
    return DHRobot([RevoluteMDH(d=0.3, offset=-0.3), PrismaticMDH(a=0.2, alpha=np.pi / 2, theta=0.4),
                    RevoluteMDH(a=0.1, alpha=-np.pi / 2, d=0.1), PrismaticMDH(alpha=0.7, a=0.05, offset=0.2)],
                   base=transl(-0.1, 0.3, 0.2) @ trotz(0.5), tool=transl(0, 0, 0.1) @ trotx(-0.3))


def puma_with_tool():
    r = puma560()
    r.tool = transl(0.02, -0.03, 0.15) @ trotx(0.4) @ trotz(-0.2)
    return r


ROBOTS = {"puma560": puma560, "puma560+tool": puma_with_tool, "puma560_mdh": puma560_mdh,
          "cobra600 (prismatic)": cobra600, "baxter (base)": baxter, "RPRP dh (base, tool, offsets)": rprp,
          "RPRP mdh (base, tool, offsets)": rprp_mdh}


@pytest.fixture(scope="module", params=sorted(ROBOTS))
def case(request):
    robot = ROBOTS[request.param]()
    model, tool = pinocchio_model(robot)
    data = model.createData()
    lo, hi = robot.qlim
    Q = np.random.default_rng(4).uniform(np.where(np.isfinite(lo), lo, -0.5),
                                         np.where(np.isfinite(hi), hi, 0.5), (10, robot.n))
    for q in Q:                                   # the same arm: the same tool pose
        pin.framesForwardKinematics(model, data, q)
        np.testing.assert_allclose(data.oMf[tool].homogeneous, robot.fkine(q), atol=1e-12)
    return robot, model, data, tool, Q


def _frame_jacobian(model, data, q, tool, ref):
    return np.asarray(pin.computeFrameJacobian(model, data, q, tool, ref)).reshape(6, -1)


def test_jacob0_is_the_local_world_aligned_frame_jacobian(case):
    robot, model, data, tool, Q = case
    J = jacob0(robot, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], _frame_jacobian(model, data, q, tool, pin.LOCAL_WORLD_ALIGNED),
                                   atol=1e-12)


def test_jacobe_is_the_local_frame_jacobian(case):
    robot, model, data, tool, Q = case
    J = jacobe(robot, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], _frame_jacobian(model, data, q, tool, pin.LOCAL), atol=1e-12)


def test_twist_jacobian_is_the_world_frame_jacobian(case):
    """8.7.1's velocity-twist Jacobian 0Jv is Pinocchio's WORLD Jacobian."""
    robot, model, data, tool, Q = case
    Jv = jacobs_poe(joint_twists(robot), Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(Jv[k], _frame_jacobian(model, data, q, tool, pin.WORLD), atol=1e-12)
