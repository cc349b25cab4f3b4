"""Cross-check the rigid 3-RRR and Delta robots' constrained forward dynamics against Pinocchio (an oracle only).

Pinocchio builds the same mechanism as one kinematic tree: leg 1 (a1, p1) carries the platform on a
third revolute joint r1 at its tip (the platform's angle is phi = a1 + p1 + r1, its centre at -b_1 in
that joint's frame), legs 2 and 3 hang from the base; the two loops are closed by the constraints that
the tips of legs 2 and 3 coincide with their attachment points on the platform (x, y rows), with
Pinocchio's own joint Jacobians and classical accelerations, and Pinocchio's KKT forward dynamics
(``pinocchio.forwardDynamics`` with a constraint Jacobian and drift) gives the accelerations.  rvc's
three methods (compact, KKT, per-chain) must agree with it to 1e-9 over random states of the rigid
3-RRR (rvc.models.rrr3(n_elastic=0)), in a vertical plane under gravity.

The rigid Delta robot (rvc.models.delta_robot(n_elastic=0)) is built the other way: its three legs and
its platform (on a 3-DOF translation joint) all hang from the world, so Pinocchio's coordinates are rvc's
tree coordinates, and nine constraints (x, y, z of each leg's tip against its attachment point) close it.
"""

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")

from rvc.models import rrr3  # noqa: E402
from rvc.parallel import parallel_assemble, parallel_fdyn, parallel_W  # noqa: E402


def _se3(p, R=np.eye(3)):
    return pin.SE3(np.asarray(R, float), np.asarray(p, float))


def build(robot):
    """Pinocchio model of the rigid 3-RRR; returns (model, tip joints of legs 2 and 3, platform joint)."""
    model = pin.Model()
    tips, platform = [], None
    for i, leg in enumerate(robot.chains):
        parent, place = 0, _se3(leg.base[:3, 3], leg.base[:3, :3])
        for j, L in enumerate(leg.links):
            jid = model.addJoint(parent, pin.JointModelRZ(), place, f"leg{i + 1}_j{j + 1}")
            after = _se3([L.a, 0.0, 0.0])                 # planar_arm: a = l, d = alpha = offset = 0
            model.appendBodyToJoint(jid, pin.Inertia(L.m, L.r + [L.a, 0.0, 0.0], L.I), pin.SE3.Identity())
            parent, place = jid, after
        if i == 0:
            c = robot.closure
            platform = model.addJoint(parent, pin.JointModelRZ(), place, "platform")
            model.appendBodyToJoint(platform, pin.Inertia(c.mass, -c.attachments[0], np.eye(3) * c.inertia),
                                    pin.SE3.Identity())
        else:
            tips.append((parent, np.array([leg.links[-1].a, 0.0, 0.0])))
    model.armature = _armature(robot)
    model.gravity.linear = np.asarray(robot.gravity, float)
    return model, tips, platform


def _armature(robot):
    """G^2 Jm of every joint in Pinocchio's order: leg 1, the platform joint, legs 2 and 3."""
    leg = [[L.G ** 2 * L.Jm for L in c.links] for c in robot.chains]
    return np.array(leg[0] + [0.0] + leg[1] + leg[2])


def _point(model, data, jid, r):
    """World Jacobian (3, nv) and classical acceleration (3,) (with the current data.a) of point r of joint jid."""
    J = pin.getJointJacobian(model, data, jid, pin.ReferenceFrame.LOCAL)
    R = data.oMi[jid].rotation
    Jp = R @ (J[:3] + np.cross(J[3:].T, r).T)                 # v + w x r, in the joint's frame
    v, a = data.v[jid], data.a[jid]
    w, vl = v.angular, v.linear
    acc = a.linear + np.cross(w, vl) + np.cross(a.angular, r) + np.cross(w, np.cross(w, r))
    return Jp, R @ acc


def to_pin(robot, x):
    """rvc tree (a1, p1, a2, p2, a3, p3, x, y, phi) -> Pinocchio (a1, p1, r1, a2, p2, a3, p3)."""
    return np.array([x[0], x[1], x[8] - x[0] - x[1], x[2], x[3], x[4], x[5]])


def pin_fdyn(robot, model, data, tips, platform, q, v, tau):
    pin.forwardKinematics(model, data, q, v, np.zeros(model.nv))
    pin.computeJointJacobians(model, data, q)
    c = robot.closure
    rows, drift = [], []
    for (jid, r), b in zip(tips, c.attachments[1:]):
        J1, a1 = _point(model, data, jid, r)
        J2, a2 = _point(model, data, platform, b - c.attachments[0])
        rows.append((J1 - J2)[:2])
        drift.append((a1 - a2)[:2])
    J, gamma = np.concatenate(rows), np.concatenate(drift)
    ddq = pin.forwardDynamics(model, data, q, v, tau, J, gamma)
    assert np.abs(J @ ddq + gamma).max() < 1e-9 * max(1.0, np.abs(ddq).max())   # the loops stay closed
    return ddq


def test_rigid_3rrr_forward_dynamics_against_pinocchio():
    robot = rrr3(n_elastic=0)
    model, tips, platform = build(robot)
    data = model.createData()
    rng = np.random.default_rng(21)
    for _ in range(5):
        q = parallel_assemble(robot, robot.q_home[robot.ia] + rng.uniform(-0.1, 0.1, 3), [])
        qd_t = parallel_W(robot, q) @ rng.normal(size=3)
        tau = rng.normal(size=3)
        qp, vp = to_pin(robot, q), to_pin(robot, qd_t)
        tau_p = np.zeros(model.nv)
        tau_p[[0, 3, 5]] = tau
        ref = pin_fdyn(robot, model, data, tips, platform, qp, vp, tau_p)
        for method in ("compact", "kkt", "scdd"):
            mine = to_pin(robot, parallel_fdyn(robot, q, qd_t, tau, method))
            np.testing.assert_allclose(mine, ref, rtol=0, atol=1e-9 * max(1.0, np.abs(ref).max()))


def _rx(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def build_translating(robot):
    """Pinocchio tree of a ParallelModel with a translating platform, in rvc's tree order.

    Each standard-DH leg (joint about z, then ``Tz(d) Tx(a) Rx(alpha)``) hangs from the world; the
    platform is a body on a 3-DOF translation joint from the world, so Pinocchio's q is rvc's tree q."""
    model = pin.Model()
    tips = []
    for i, leg in enumerate(robot.chains):
        parent, place = 0, _se3(leg.base[:3, 3], leg.base[:3, :3])
        for j, L in enumerate(leg.links):
            jid = model.addJoint(parent, pin.JointModelRZ(), place, f"leg{i + 1}_j{j + 1}")
            R, p = _rx(L.alpha), np.array([L.a, 0.0, L.d])
            model.appendBodyToJoint(jid, pin.Inertia(L.m, R @ L.r + p, R @ L.I @ R.T), pin.SE3.Identity())
            parent, place = jid, _se3(p, R)
        tips.append((parent, place.translation.copy()))
    platform = model.addJoint(0, pin.JointModelTranslation(), pin.SE3.Identity(), "platform")
    model.appendBodyToJoint(platform, pin.Inertia(robot.closure.mass, np.zeros(3), np.zeros((3, 3))),
                            pin.SE3.Identity())
    model.armature = np.array([L.G ** 2 * L.Jm for c in robot.chains for L in c.links] + [0.0] * 3)
    model.gravity.linear = np.asarray(robot.gravity, float)
    return model, tips, platform


def test_rigid_delta_forward_dynamics_against_pinocchio():
    from rvc.models import delta_robot

    robot = delta_robot(n_elastic=0)
    model, tips, platform = build_translating(robot)
    data = model.createData()
    rng = np.random.default_rng(22)
    for _ in range(5):
        q = parallel_assemble(robot, robot.q_home[robot.ia] + rng.uniform(-0.1, 0.1, 3), [])
        qd = parallel_W(robot, q) @ rng.normal(size=3)
        tau = rng.normal(size=3)
        pin.forwardKinematics(model, data, q, qd, np.zeros(model.nv))
        pin.computeJointJacobians(model, data, q)
        rows, drift = [], []
        for (jid, r), b in zip(tips, robot.closure.attachments):
            J1, a1 = _point(model, data, jid, r)
            J2, a2 = _point(model, data, platform, b)
            rows.append(J1 - J2)
            drift.append(a1 - a2)
        J, gamma = np.concatenate(rows), np.concatenate(drift)
        tau_p = np.zeros(model.nv)
        tau_p[robot.ia] = tau
        ref = pin.forwardDynamics(model, data, q, qd, tau_p, J, gamma)
        assert np.abs(J @ ref + gamma).max() < 1e-9 * max(1.0, np.abs(ref).max())
        for method in ("compact", "kkt", "scdd"):
            mine = parallel_fdyn(robot, q, qd, tau, method)
            np.testing.assert_allclose(mine, ref, rtol=0, atol=1e-9 * max(1.0, np.abs(ref).max()))
