"""The fast paths of the chain: one configuration in floats, batches in rows and blocks.

``rvc.kinematics.dh`` walks the link table with multiply-adds, on Python
floats for one configuration (and for batches of up to ``SMALL``) and on rows
of N values for a batch (in blocks of ``BLOCK``); ``rvc.kinematics.jacobian`` builds a Jacobian column by column
in floats for one configuration and vectorised for a batch.  These tests hold
every path to the plain definition: the product of the 4x4 link matrices
``base A_1(q_1) ... A_n(q_n) tool`` and the Jacobian columns
``(z_j x (p_e - p_j), z_j)`` computed with numpy from those matrices.
"""

import numpy as np
import pytest

from rvc import DHRobot, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH, rpy2tr, transl, trotx
from rvc.kinematics import dh
from rvc.kinematics.dh import fkine_all, fkine_dh, fkine_dh_reference, joint_frames_dh, link_transform
from rvc.kinematics.jacobian import jacob0, jacob0_pose, jacobe
from rvc.models import cobra600, puma560, puma560_mdh


def _robots():
    base = transl(0.1, -0.2, 0.7) @ rpy2tr(0.3, -0.4, 1.1)
    tool = transl(0.02, 0.05, 0.2) @ trotx(0.6)
    mixed = DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2, offset=0.2),
                     PrismaticDH(theta=np.pi / 2, a=0.1, alpha=-np.pi / 2, offset=0.1),
                     RevoluteDH(a=0.4, alpha=0.3, d=0.05), PrismaticDH(alpha=np.pi / 3)],
                    base=base, tool=tool)
    mixed_mdh = DHRobot([RevoluteMDH(d=0.3), PrismaticMDH(a=0.2, alpha=np.pi / 2, theta=0.4),
                         RevoluteMDH(a=0.1, alpha=-np.pi / 2, d=0.1, offset=-0.3),
                         PrismaticMDH(alpha=0.7, a=0.05)], base=base, tool=tool)
    return {"puma560": puma560(), "puma560_mdh": puma560_mdh(), "cobra600": cobra600(),
            "RPRP, base, tool, offsets": mixed, "RPRP mdh, base, tool": mixed_mdh}


ROBOTS = _robots()


def frames_by_matrices(robot, q):
    """The n + 1 frames base A_1 ... A_j by 4x4 products (q of shape (..., n))."""
    T = np.broadcast_to(robot.base, q.shape[:-1] + (4, 4))
    frames = [T]
    for j, L in enumerate(robot.links):
        T = T @ link_transform(L, q[..., j])
        frames.append(T)
    return np.stack(frames, axis=-3)


def jacobian_by_matrices(robot, q):
    F = frames_by_matrices(robot, q)
    axes = F[..., 1:, :, :] if robot.mdh else F[..., :-1, :, :]
    Te = F[..., -1, :, :] @ robot.tool
    z, p = axes[..., :3, 2], axes[..., :3, 3]
    rev = robot.revolute[:, None]
    Jv = np.where(rev, np.cross(z, Te[..., None, :3, 3] - p), z)
    Jw = np.where(rev, z, 0.0)
    return np.swapaxes(np.concatenate([Jv, Jw], axis=-1), -1, -2), Te


@pytest.mark.parametrize("name", ROBOTS)
@pytest.mark.parametrize("shape", [(), (1,), (7,), (2, 3), (0,), (40,), (3, 7)])
def test_chain_equals_matrix_products(name, shape):
    robot = ROBOTS[name]
    q = np.random.default_rng(1).uniform(-2, 2, shape + (robot.n,))
    F = frames_by_matrices(robot, q)
    np.testing.assert_allclose(fkine_dh(robot, q), F[..., -1, :, :] @ robot.tool, atol=1e-13)
    np.testing.assert_allclose(fkine_all(robot, q), F, atol=1e-13)
    axes, T = joint_frames_dh(robot, q)
    np.testing.assert_allclose(axes, F[..., 1:, :, :] if robot.mdh else F[..., :-1, :, :], atol=1e-13)
    np.testing.assert_allclose(T, F[..., -1, :, :] @ robot.tool, atol=1e-13)
    J, T = jacobian_by_matrices(robot, q)
    np.testing.assert_allclose(jacob0(robot, q), J, atol=1e-13)
    J0, T0 = jacob0_pose(robot, q)
    np.testing.assert_array_equal(J0, jacob0(robot, q))
    np.testing.assert_allclose(T0, T, atol=1e-13)
    assert jacobe(robot, q).shape == J.shape


@pytest.mark.parametrize("name", ROBOTS)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (dh.SMALL + 3,)])
def test_chain_equals_the_reference_in_the_package(name, shape):
    """fkine_dh (floats, rows, blocks) equals fkine_dh_reference, the plain product of the A_j."""
    robot = ROBOTS[name]
    q = np.random.default_rng(7).uniform(-2, 2, shape + (robot.n,))
    T = fkine_dh(robot, q)
    for idx in np.ndindex(shape):
        np.testing.assert_allclose(T[idx], fkine_dh_reference(robot, q[idx]), atol=1e-13)
    np.testing.assert_allclose(fkine_dh_reference(robot, q.reshape(-1, robot.n)[0]),
                               frames_by_matrices(robot, q.reshape(-1, robot.n)[0])[-1] @ robot.tool,
                               atol=1e-13)


@pytest.mark.parametrize("name", ROBOTS)
def test_one_configuration_equals_its_row_of_a_batch(name):
    """Floats for one configuration, numpy rows for a batch: the same numbers (to round-off)."""
    robot = ROBOTS[name]
    Q = np.random.default_rng(2).uniform(-3, 3, (25, robot.n))
    for f in (fkine_dh, fkine_all, jacob0, lambda r, q: joint_frames_dh(r, q)[0]):
        batch = f(robot, Q)
        for k in range(len(Q)):
            np.testing.assert_allclose(f(robot, Q[k]), batch[k], rtol=0, atol=1e-14)


def test_a_small_batch_one_at_a_time_equals_rows(monkeypatch):
    """Up to SMALL configurations are done one at a time in floats: the same as rows of a batch."""
    robot = ROBOTS["RPRP, base, tool, offsets"]
    Q = np.random.default_rng(4).uniform(-2, 2, (2, 5, robot.n))
    assert Q[..., 0].size <= dh.SMALL
    small = fkine_dh(robot, Q), fkine_all(robot, Q), jacob0(robot, Q)
    monkeypatch.setattr(dh, "SMALL", 0)
    rows = fkine_dh(robot, Q), fkine_all(robot, Q), jacob0(robot, Q)
    for a, b in zip(small, rows):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-14)


def test_blocks_of_a_long_batch(monkeypatch):
    """A batch longer than BLOCK is done in blocks; every block boundary is seamless."""
    robot = ROBOTS["RPRP mdh, base, tool"]
    Q = np.random.default_rng(3).uniform(-2, 2, (4, 5, robot.n))
    whole = fkine_dh(robot, Q), fkine_all(robot, Q), jacob0(robot, Q)
    monkeypatch.setattr(dh, "BLOCK", 3)
    blocks = fkine_dh(robot, Q), fkine_all(robot, Q), jacob0(robot, Q)
    for a, b in zip(whole, blocks):
        np.testing.assert_array_equal(a, b)


def test_degrees_and_a_changed_link():
    """The link table is read at every call (links are mutable data)."""
    robot = puma560()
    q = np.array([10, -20, 30, 40, 50, 60.0])
    np.testing.assert_allclose(fkine_dh(robot, q, unit="deg"), fkine_dh(robot, np.deg2rad(q)), atol=1e-15)
    before = fkine_dh(robot, np.deg2rad(q))
    robot[2].a = 0.5
    after = fkine_dh(robot, np.deg2rad(q))
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, frames_by_matrices(robot, np.deg2rad(q))[-1], atol=1e-13)


def test_batch_results_are_values():
    """A batched result is an array of its own (a view of a fresh buffer), not tied to the robot."""
    robot = puma560()
    Q = np.zeros((3, 6))
    T = fkine_dh(robot, Q)
    T[0, 0, 3] = 99.0
    assert fkine_dh(robot, Q)[0, 0, 3] != 99.0
    assert T.shape == (3, 4, 4) and T[1].shape == (4, 4)
