"""Cross-check rvc's dynamics against Pinocchio (an oracle only).

The Puma 560 is built in Pinocchio from the DH table: joint j turns about
the z axis of DH frame {j-1}; the fixed transform to the next joint is
``Rz(offset) Tz(d) Tx(a) Rx(alpha)``; link j's centre of mass and inertia,
given in frame {j}, are carried into joint j's frame through that
transform; the motor inertia seen at the joint, ``G^2 Jm``, is Pinocchio's
``armature``.  Pinocchio models no friction, so rvc's Puma is compared
without friction (``nofriction(viscous=True)``).  Also a prismatic joint
(the Stanford arm) and a modified-DH chain (rvc's Puma in MDH form).
"""

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")

from rvc.dynamics import accel, coriolis, gravload, inertia, nofriction, rne  # noqa: E402
from rvc.models import puma560, puma560_mdh, stanford  # noqa: E402


def _rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _rx(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _se3(R, p):
    return pin.SE3(np.asarray(R, float), np.asarray(p, float))


def build(robot):
    """A Pinocchio model of an rvc DH robot (standard or modified), armature G^2 Jm."""
    model = pin.Model()
    parent = 0
    place = _se3(robot.base[:3, :3], robot.base[:3, 3])
    for j, L in enumerate(robot.links):
        if L.mdh:
            # A = Rx(alpha) Tx(a) Rz(theta) Tz(d): the fixed part comes first
            place = place * _se3(_rx(L.alpha), [0, 0, 0]) * _se3(np.eye(3), [L.a, 0, 0])
            if L.isrevolute:
                place = place * _se3(_rz(L.offset), [0, 0, 0]) * _se3(np.eye(3), [0, 0, L.d])
                jm = pin.JointModelRZ()
                after = pin.SE3.Identity()
            else:
                place = place * _se3(_rz(L.theta), [0, 0, 0]) * _se3(np.eye(3), [0, 0, L.offset])
                jm = pin.JointModelPZ()
                after = pin.SE3.Identity()
        else:
            # A = Rz(theta) Tz(d) Tx(a) Rx(alpha): the joint first, then the fixed part
            if L.isrevolute:
                jm = pin.JointModelRZ()
                after = (_se3(_rz(L.offset), [0, 0, 0]) * _se3(np.eye(3), [0, 0, L.d])
                         * _se3(np.eye(3), [L.a, 0, 0]) * _se3(_rx(L.alpha), [0, 0, 0]))
            else:
                place = place * _se3(_rz(L.theta), [0, 0, 0])
                jm = pin.JointModelPZ()
                after = (_se3(np.eye(3), [0, 0, L.offset]) * _se3(np.eye(3), [L.a, 0, 0])
                         * _se3(_rx(L.alpha), [0, 0, 0]))
        jid = model.addJoint(parent, jm, place, f"j{j + 1}")
        # link j's parameters are given in frame {j} = joint frame * after
        R, p = after.rotation, after.translation
        com = R @ L.r + p
        model.appendBodyToJoint(jid, pin.Inertia(L.m, com, R @ L.I @ R.T), pin.SE3.Identity())
        parent, place = jid, after
    model.armature = np.array([L.G**2 * L.Jm for L in robot.links])
    model.gravity.linear = np.asarray(robot.gravity, float)
    return model


ROBOTS = {"puma560": puma560, "puma560 (MDH)": puma560_mdh, "stanford (prismatic)": stanford}


@pytest.fixture(scope="module", params=sorted(ROBOTS))
def setup(request):
    robot = nofriction(ROBOTS[request.param](), viscous=True)
    model = build(robot)
    return robot, model, model.createData()


def _states(robot, k=5, seed=11):
    rng = np.random.default_rng(seed)
    lo, hi = robot.qlim
    return (rng.uniform(lo, hi, (k, robot.n)), rng.uniform(-1, 1, (k, robot.n)),
            rng.uniform(-2, 2, (k, robot.n)))


def test_same_kinematics(setup):
    robot, model, data = setup
    Q, _, _ = _states(robot)
    for q in Q:
        pin.forwardKinematics(model, data, q)
        T = robot.fkine_all(q)[-1]
        np.testing.assert_allclose(data.oMi[model.njoints - 1].translation
                                   if robot.mdh else
                                   (data.oMi[model.njoints - 1] * _last_fixed(robot)).translation,
                                   T[:3, 3], atol=1e-12)


def _last_fixed(robot):
    L = robot.links[-1]
    if L.isrevolute:
        return (_se3(_rz(L.offset), [0, 0, 0]) * _se3(np.eye(3), [0, 0, L.d])
                * _se3(np.eye(3), [L.a, 0, 0]) * _se3(_rx(L.alpha), [0, 0, 0]))
    return (_se3(np.eye(3), [0, 0, L.offset]) * _se3(np.eye(3), [L.a, 0, 0])
            * _se3(_rx(L.alpha), [0, 0, 0]))


def test_rnea(setup):
    robot, model, data = setup
    Q, QD, QDD = _states(robot)
    mine = rne(robot, Q, QD, QDD)
    for k in range(len(Q)):
        ref = pin.rnea(model, data, Q[k], QD[k], QDD[k])
        np.testing.assert_allclose(mine[k], ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())


def test_crba(setup):
    robot, model, data = setup
    Q, _, _ = _states(robot)
    M = inertia(robot, Q)
    for k in range(len(Q)):
        ref = pin.crba(model, data, Q[k])
        ref = np.triu(ref) + np.triu(ref, 1).T
        np.testing.assert_allclose(M[k], ref, rtol=1e-9, atol=1e-9 * np.abs(ref).max())


def test_gravity_and_velocity_terms(setup):
    robot, model, data = setup
    Q, QD, _ = _states(robot)
    G = gravload(robot, Q)
    Cqd = np.einsum("kij,kj->ki", coriolis(robot, Q, QD), QD)
    for k in range(len(Q)):
        g = pin.computeGeneralizedGravity(model, data, Q[k])
        np.testing.assert_allclose(G[k], g, atol=1e-9 * max(1, np.abs(g).max()))
        h = pin.nonLinearEffects(model, data, Q[k], QD[k]) - g
        np.testing.assert_allclose(Cqd[k], h, atol=1e-9 * max(1, np.abs(h).max()))


def test_aba(setup):
    robot, model, data = setup
    Q, QD, QDD = _states(robot)
    tau = rne(robot, Q, QD, QDD)
    for k in range(len(Q)):
        ref = pin.aba(model, data, Q[k], QD[k], tau[k])
        np.testing.assert_allclose(accel(robot, Q[k], QD[k], tau[k]), ref, atol=1e-7)
