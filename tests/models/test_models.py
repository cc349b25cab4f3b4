"""Tests of rvc.models against published values (notes, Corke's book, the toolbox)."""

import numpy as np
import pytest

from rvc import models
from rvc.models.ets import ETS3
from rvc import fkine_poe
from rvc.spatial.transforms3d import transl

PUMA_S = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"

# published poses (Corke, RVC 2nd ed. 7.1.2.3; roboticstoolbox-python with d1 = 0)
PUMA_T = {
    "qz": [[1, 0, 0, 0.4521], [0, 1, 0, -0.15005], [0, 0, 1, 0.4318]],
    "qr": [[1, 0, 0, 0.0203], [0, 1, 0, -0.15005], [0, 0, 1, 0.8636]],
    "qs": [[0, 0, 1, 0.8636], [0, 1, 0, -0.15005], [-1, 0, 0, -0.0203]],
    "qn": [[0, 0, 1, 0.596303], [0, 1, 0, -0.15005], [-1, 0, 0, -0.014354]],
}


@pytest.mark.parametrize("name", sorted(PUMA_T))
def test_puma_published_poses(name):
    p560 = models.puma560()
    np.testing.assert_allclose(p560.fkine(getattr(p560, name))[:3], PUMA_T[name], atol=1e-6)


def test_puma_tool_and_base_as_notes():
    p560 = models.puma560()
    p560.tool = transl(0, 0, 0.2)
    p560.base = transl(0, 0, 30 * 0.0254)
    np.testing.assert_allclose(p560.fkine(p560.qz)[:3, 3], [0.4521, -0.15005, 0.4318 + 0.2 + 0.762],
                               atol=1e-6)


def test_puma_parameters_exactly_rtb():
    p = models.puma560()
    np.testing.assert_array_equal([L.d for L in p], [0, 0, 0.15005, 0.4318, 0, 0])
    np.testing.assert_array_equal([L.a for L in p], [0, 0.4318, 0.0203, 0, 0, 0])
    np.testing.assert_allclose([L.alpha for L in p], np.pi / 2 * np.array([1, 0, -1, 1, -1, 0]))
    np.testing.assert_array_equal([L.m for L in p], [0, 17.4, 4.8, 0.82, 0.34, 0.09])
    np.testing.assert_array_equal(p[1].r, [-0.3638, 0.006, 0.2275])
    np.testing.assert_array_equal(np.diag(p[2].I), [0.066, 0.086, 0.0125])
    np.testing.assert_array_equal([L.G for L in p],
                                  [-62.6111, 107.815, -53.7063, 76.0364, 71.923, 76.686])
    np.testing.assert_array_equal([L.Jm for L in p], [200e-6] * 3 + [33e-6] * 3)
    np.testing.assert_array_equal(p[0].Tc, [0.395, -0.435])
    np.testing.assert_allclose(np.rad2deg(p.qlim[:, 1]), [-45, 225])
    np.testing.assert_allclose(p.qn, [0, np.pi / 4, np.pi, 0, np.pi / 4, 0])


def test_puma_dh_mdh_ets_poe_agree():
    """Standard DH, modified DH, the notes' ETS string and PoE: one arm."""
    p = models.puma560()
    pm = models.puma560_mdh()
    assert pm.mdh and not p.mdh
    # the notes' string with L2 + L5 = -d3 exactly (the notes round d3 to 0.15)
    E = ETS3.from_string(PUMA_S, L1=0, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.08365,
                         L6=0.4318)
    rng = np.random.default_rng(7)
    Q = rng.uniform(-np.pi, np.pi, (50, 6))
    T = p.fkine(Q)
    np.testing.assert_allclose(pm.fkine(Q), T, atol=1e-12)
    S, M = p.twists()
    np.testing.assert_allclose(fkine_poe(S, M, Q), T, atol=1e-12)
    Sm, Mm = pm.twists()
    np.testing.assert_allclose(fkine_poe(Sm, Mm, Q), T, atol=1e-12)
    # ETS joint conventions: Ry joints about +y; DH joints 2, 3, 5 about -y
    qdh = Q * [1, -1, -1, 1, -1, 1] + [0, np.pi / 2, -np.pi / 2, 0, 0, 0]
    np.testing.assert_allclose(p.fkine(qdh), E.fkine(Q), atol=1e-12)


def test_notes_ets_puma_is_the_dh_puma_with_three_joints_reversed():
    """07-1/07-3: K_ETS(q) = K_DH(diag(1, -1, -1, 1, -1, 1) q + qr), up to the 0.15 vs 0.15005 offset.

    Not "only where the angles are counted from": one matching configuration (q = 0 vs qr)
    is not evidence, and with the offset alone the two disagree by metres.
    """
    p = models.puma560()
    E = ETS3.from_string(PUMA_S, L1=0, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)
    Q = np.random.default_rng(12).uniform(-np.pi, np.pi, (200, 6))
    # the joint axes at the matching configurations point the same way or opposite ways
    FE, _ = E.joint_frames(np.zeros(6))
    FD, _ = p.joint_frames(p.qr)
    signs = np.einsum("ni,ni->n", FE[:, :3, 2], FD[:, :3, 2])
    np.testing.assert_allclose(signs, [1, -1, -1, 1, -1, 1], atol=1e-12)
    TE, TD = E.fkine(Q), p.fkine(Q * signs + p.qr)
    np.testing.assert_allclose(TE[:, :3, :3], TD[:, :3, :3], atol=1e-12)   # orientation exact
    # position: off by the 5e-5 m the notes' rounding of d3 leaves, always across the arm
    gap = np.linalg.norm(TE[:, :3, 3] - TD[:, :3, 3], axis=1)
    np.testing.assert_allclose(gap, 0.15005 - 0.15, atol=1e-12)
    # an offset alone (every joint turning the same way) is wrong almost everywhere
    assert np.abs(E.fkine(Q)[:, :3, 3] - p.fkine(Q + p.qr)[:, :3, 3]).max() > 0.5


def test_mdh_dynamics_moved_to_new_frames():
    p, pm = models.puma560(), models.puma560_mdh()
    q = np.array([0.3, -0.2, 0.5, 0.1, 0.7, -0.4])
    Fs, Fm = p.fkine_all(q), pm.fkine_all(q)
    for j in range(6):
        # the centre of mass is the same point in the world
        c_std = Fs[j + 1] @ np.r_[p[j].r, 1]
        c_mdh = Fm[j + 1] @ np.r_[pm[j].r, 1]
        np.testing.assert_allclose(c_std, c_mdh, atol=1e-12)
        # the inertia tensor is the same tensor in the world
        Rs, Rm = Fs[j + 1][:3, :3], Fm[j + 1][:3, :3]
        np.testing.assert_allclose(Rs @ p[j].I @ Rs.T, Rm @ pm[j].I @ Rm.T, atol=1e-12)
        assert pm[j].m == p[j].m and pm[j].G == p[j].G


def test_other_models():
    c600 = models.cobra600()
    assert c600.structure == "RRPR" and c600.n == 4
    np.testing.assert_allclose(c600.fkine([0, 0, 0.1, 0])[:3, 3], [0.6, 0, 0.287], atol=1e-12)
    for arm, y in (("left", 0.25858), ("right", -0.25966)):
        b = models.baxter(arm)
        assert b.n == 7 and b.base[1, 3] == y
    with pytest.raises(ValueError, match="arm"):
        models.baxter("middle")
    tl = models.twolink()
    assert tl.hasdynamics and tl[0].m == 1 and tl[0].r[0] == -0.5
    np.testing.assert_allclose(tl.fkine(tl.q1)[:3, 3], [1, 0, 1], atol=1e-12)  # x-z plane
    p2 = models.planar2(2, 1)
    np.testing.assert_allclose(p2.fkine(p2.q1)[:3, 3], [2, 1, 0], atol=1e-12)


def test_leg_matches_notes():
    lg = models.leg()
    # the notes' walking.m table: alpha1 = pi/2, a2 = L1, a3 = -L2, offsets [pi/2, 0, -pi/2]
    np.testing.assert_allclose([L.a for L in lg], [0, 0.1, -0.1], atol=1e-15)
    np.testing.assert_allclose([L.alpha for L in lg], [np.pi / 2, 0, 0], atol=1e-15)
    np.testing.assert_allclose(lg.offset, [np.pi / 2, 0, -np.pi / 2], atol=1e-15)
    np.testing.assert_allclose(lg.fkine([0, 0, 0])[:3, 3], [0, 0.1, 0.1], atol=1e-15)
    E = ETS3.from_string(models.LEG_STRING, L1=0.1, L2=0.1)
    Q = np.random.default_rng(3).uniform(-np.pi, np.pi, (20, 3))
    np.testing.assert_allclose(lg.fkine(Q), E.fkine(Q), atol=1e-12)


def test_models_are_fresh_copies():
    a, b = models.puma560(), models.puma560()
    a[1].m = 0
    assert b[1].m == 17.4


def test_dh_to_mdh_keeps_the_dynamics_of_any_link_twist_and_inertia():
    """The Puma's twists (multiples of pi/2) and diagonal inertias cannot tell R I R^T from R^T I R;
    links twisted by other angles, with distinct moments, can."""
    d = dict(m=1.0, r=[0.1, 0.02, -0.03], I=[0.01, 0.02, 0.025])
    robot = models.DHRobot([models.RevoluteDH(a=0.3, alpha=0.5, **d), models.RevoluteDH(a=0.2, alpha=-0.7, **d),
                            models.RevoluteDH(d=0.1, a=0.1, alpha=1.1, **d)])
    mdh = models.dh_to_mdh(robot)
    q, qd, qdd = np.array([0.3, 0.8, -0.4]), np.array([0.5, -1.0, 0.7]), np.array([0.2, 0.1, -0.3])
    from rvc import inertia, rne
    np.testing.assert_allclose(inertia(mdh, q), inertia(robot, q), atol=1e-12)
    np.testing.assert_allclose(rne(mdh, q, qd, qdd), rne(robot, q, qd, qdd), atol=1e-12)


def test_puma_joint_limits_are_the_published_degrees_in_radians():
    """The Puma 560's limits (the toolbox's table, in degrees), stored in radians."""
    deg = np.array([[-160, -45, -225, -110, -100, -266], [160, 225, 45, 170, 100, 266]])
    np.testing.assert_allclose(models.puma560().qlim, np.radians(deg), atol=1e-12)
