"""Tests of rvc.robot: DH links, DHRobot, fkine (DH, all frames, PoE)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rvc.models.ets import ETS3
from rvc import (DHRobot, Link, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH,
                       dh_transform, fkine_all, fkine_dh, fkine_poe, joint_twists)
from rvc.spatial.transforms3d import transl, trotx, troty, trotz


def _ets_of(robot):
    """The elementary sequence of a DH robot, written out term by term."""
    E = ETS3([])
    for L in robot:
        if L.mdh:
            E = E * ETS3.Rx(L.alpha) * ETS3.Tx(L.a)
        E = E * (ETS3.Rz() * ETS3.Rz(L.offset) * ETS3.Tz(L.d) if L.isrevolute
                 else ETS3.Rz(L.theta) * ETS3.Tz() * ETS3.Tz(L.offset))
        if not L.mdh:
            E = E * ETS3.Tx(L.a) * ETS3.Rx(L.alpha)
    return E


def test_dh_transform_is_elementary_product():
    th, d, a, al = 0.3, 0.2, 0.5, -1.1
    np.testing.assert_allclose(dh_transform(th, d, a, al),
                               trotz(th) @ transl(0, 0, d) @ transl(a, 0, 0) @ trotx(al),
                               atol=1e-15)
    np.testing.assert_allclose(dh_transform(th, d, a, al, mdh=True),
                               trotx(al) @ transl(a, 0, 0) @ trotz(th) @ transl(0, 0, d),
                               atol=1e-15)


def test_notes_revolute_link():
    # L = Revolute('a', 1); L.A(0.5)
    T = RevoluteDH(a=1).A(0.5)
    np.testing.assert_allclose(T[:3, 3], [np.cos(0.5), np.sin(0.5), 0])
    assert RevoluteDH(a=1).A(np.zeros((4, 2))).shape == (4, 2, 4, 4)


def test_link_parameters():
    L = RevoluteDH(d=1, a=2, alpha=0.5, offset=0.1, qlim=[-1, 1], m=3, r=[1, 2, 3],
                   I=[1, 2, 3], Jm=1e-4, B=1e-3, Tc=0.4, G=50)
    assert L.isrevolute and not L.mdh and L.hasdynamics
    np.testing.assert_array_equal(L.I, np.diag([1, 2, 3]))
    np.testing.assert_array_equal(L.Tc, [0.4, -0.4])
    L.m = 4.0
    assert L.m == 4.0
    I6 = Link(I=[1, 2, 3, 0.1, 0.2, 0.3]).I
    np.testing.assert_array_equal(I6, [[1, 0.1, 0.3], [0.1, 2, 0.2], [0.3, 0.2, 3]])
    assert not Link().hasdynamics
    assert PrismaticMDH().isprismatic and PrismaticMDH().mdh and RevoluteMDH().mdh
    with pytest.raises(ValueError, match="I:"):
        Link(I=[1, 2])
    with pytest.raises(ValueError, match="qlim"):
        Link(qlim=[1, -1])
    with pytest.raises(ValueError, match="r:"):
        Link(r=[1, 2])
    with pytest.raises(ValueError, match="sigma"):
        Link(sigma=2)
    with pytest.raises(ValueError, match="I: expected a symmetric"):
        Link(I=[[1, 1, 0], [0, 1, 0], [0, 0, 1]])


def test_serial_link_two_link():
    # robot = SerialLink([Revolute('a', 1) Revolute('a', 1)]); robot.fkine([30 40], 'deg')
    robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)], name="my robot")
    T = robot.fkine([30, 40], unit="deg")
    c = np.deg2rad([30, 70])
    np.testing.assert_allclose(T[:2, 3], [np.cos(c).sum(), np.sin(c).sum()])
    assert robot.n == 2 and robot.structure == "RR" and not robot.mdh


def _random_robot(draw_mdh, rng):
    links = []
    for _ in range(rng.integers(1, 7)):
        prism = rng.random() < 0.25
        kw = dict(a=rng.normal(), alpha=rng.uniform(-3, 3), offset=rng.normal())
        if prism:
            links.append((PrismaticMDH if draw_mdh else PrismaticDH)(theta=rng.normal(), **kw))
        else:
            links.append((RevoluteMDH if draw_mdh else RevoluteDH)(d=rng.normal(), **kw))
    base = transl(*rng.normal(size=3)) @ trotz(rng.normal()) @ troty(rng.normal())
    tool = transl(*rng.normal(size=3)) @ trotx(rng.normal())
    return DHRobot(links, base=base, tool=tool)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_dh_ets_poe_batched_agree(seed, mdh):
    rng = np.random.default_rng(seed)
    robot = _random_robot(mdh, rng)
    Q = rng.uniform(-np.pi, np.pi, (4, robot.n))
    T = robot.fkine(Q)
    assert T.shape == (4, 4, 4)
    # batched equals per configuration
    for k in range(4):
        np.testing.assert_allclose(T[k], fkine_dh(robot, Q[k]), atol=1e-12)
    # ETS written out term by term
    np.testing.assert_allclose(T, robot.base @ _ets_of(robot).fkine(Q) @ robot.tool,
                               atol=1e-10)
    # product of exponentials
    S, M = robot.twists()
    np.testing.assert_allclose(fkine_poe(S, M, Q), T, atol=1e-10)
    # all frames
    F = robot.fkine_all(Q)
    assert F.shape == (4, robot.n + 1, 4, 4)
    np.testing.assert_allclose(F[:, 0], np.broadcast_to(robot.base, (4, 4, 4)))
    np.testing.assert_allclose(F[:, -1] @ robot.tool, T, atol=1e-12)
    # A() chains
    np.testing.assert_allclose(robot.base @ robot.A([0, robot.n - 1], Q) @ robot.tool, T,
                               atol=1e-12)


def test_twists_of_planar_arm():
    robot = DHRobot([RevoluteDH(a=1), PrismaticDH(alpha=0)])
    S = joint_twists(robot)
    np.testing.assert_allclose(S, [[0, 0, 0, 0, 0, 1], [0, 0, 1, 0, 0, 0]])


def test_fkine_all_and_A():
    robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=2), RevoluteDH(a=3)],
                    base=transl(0, 0, 1))
    q = [0.1, 0.2, 0.3]
    F = fkine_all(robot, q)
    np.testing.assert_allclose(F[1], robot.base @ robot.A(0, q))
    np.testing.assert_allclose(F[2], robot.base @ robot.A([0, 1], q))
    np.testing.assert_allclose(robot.A([1, 2], q), robot.A(1, q) @ robot.A(2, q))
    np.testing.assert_allclose(robot.A([0, 1], q[:2]), robot.A([0, 1], q))
    with pytest.raises(ValueError, match="j:"):
        robot.A(3, q)
    with pytest.raises(ValueError, match="q:"):
        robot.A([0, 1], [0.1])


def test_base_tool_offset_unit():
    robot = DHRobot([RevoluteDH(a=1, offset=np.pi / 2)])
    np.testing.assert_allclose(robot.fkine([0])[:3, 3], [0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(robot.fkine([-90], unit="deg")[:3, 3], [1, 0, 0], atol=1e-15)
    robot.tool = transl(0, 0, 0.2)
    robot.base = transl(0, 0, 30 * 0.0254)
    np.testing.assert_allclose(robot.fkine([0])[:3, 3], [0, 1, 0.2 + 0.762], atol=1e-15)


def test_configurations_and_copy():
    robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)], name="two",
                    configurations={"qz": [0, 0], "qup": [np.pi / 2, 0]})
    np.testing.assert_array_equal(robot.qz, [0, 0])
    assert set(robot.configurations) == {"qz", "qup"}
    robot.qz[0] = 5  # a copy: the model is unchanged
    assert robot.qz[0] == 0
    clone = DHRobot(robot, name="two-b", base=transl(1, 0, 0))
    assert clone.name == "two-b" and "qup" in clone.configurations
    np.testing.assert_allclose(clone.fkine(clone.qz)[:3, 3], [3, 0, 0])
    np.testing.assert_allclose(robot.fkine(robot.qz)[:3, 3], [2, 0, 0])
    with pytest.raises(AttributeError):
        _ = robot.qnope
    with pytest.raises(ValueError, match="qbad"):
        robot.addconfiguration("qbad", [1, 2, 3])


def test_qlim_and_str():
    robot = DHRobot([RevoluteDH(a=1, qlim=[-1, 1]), PrismaticDH(qlim=[0, 0.5]), RevoluteDH()])
    np.testing.assert_allclose(robot.qlim, [[-1, 0, -np.pi], [1, 0.5, np.pi]])
    assert DHRobot([PrismaticDH()]).qlim[1, 0] == np.inf
    s = str(robot)
    assert "3 joints (RPR)" in s and "q2" in s and "θⱼ" in s
    assert "modified DH" in str(DHRobot([RevoluteMDH(a=1)]))
    assert "base: t = 1, 2, 3" in str(DHRobot([RevoluteDH()], base=transl(1, 2, 3)))


def test_fkine_ignores_qlim():
    robot = DHRobot([RevoluteDH(a=1, qlim=[-0.1, 0.1])])
    np.testing.assert_allclose(robot.fkine([np.pi])[:3, 3], [-1, 0, 0], atol=1e-15)


def test_bad_input():
    robot = DHRobot([RevoluteDH(a=1), RevoluteDH(a=1)])
    with pytest.raises(ValueError, match=r"q: expected 2 joint coordinates.*got shape \(3,\)"):
        robot.fkine([1, 2, 3])
    with pytest.raises(ValueError, match=r"q: expected 2"):
        robot.fkine(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="q: expected finite"):
        robot.fkine([0, np.nan])
    with pytest.raises(ValueError, match="base"):
        DHRobot([RevoluteDH()], base=np.ones((4, 4)))
    with pytest.raises(ValueError, match="tool"):
        robot.tool = np.diag([1, 1, -1, 1.0])
    with pytest.raises(ValueError, match="base"):
        robot.base = np.eye(3)
    with pytest.raises(ValueError, match="mixture"):
        DHRobot([RevoluteDH(), RevoluteMDH()])
    with pytest.raises(ValueError, match="links"):
        DHRobot([])
    with pytest.raises(TypeError, match=r"links\[0\]"):
        DHRobot([1])
    with pytest.raises(ValueError, match="M"):
        fkine_poe(np.zeros((1, 6)), np.zeros((4, 4)), [0])


def test_thin_methods_call_the_algorithms():
    """p560.ikine6s(T), p560.ikine(T), p560.plot(q) are the module functions."""
    import matplotlib.pyplot as plt

    from rvc import models
    from rvc.kinematics.ikine6s import ikine6s
    from rvc.plot.robot import plot_robot

    p560 = models.puma560()
    T = p560.fkine(p560.qn)
    np.testing.assert_allclose(p560.ikine6s(T, "ru").q, ikine6s(p560, T, "ru").q)
    np.testing.assert_allclose(p560.fkine(p560.ikine(T, q0=p560.qn + 0.1).q), T, atol=1e-6)
    handle = p560.plot(p560.qz)
    assert type(handle) is type(plot_robot(p560, p560.qz))
    plt.close("all")


def test_copy_keeps_base_and_tool():
    """DHRobot(robot) copies the base and the tool, each to its place; overriding one keeps the other."""
    base = transl(0.1, -0.2, 0.3) @ trotz(0.4)
    tool = transl(0, 0.05, 0.25) @ trotx(0.3)
    robot = DHRobot([RevoluteDH(a=1, alpha=0.2), PrismaticDH(alpha=np.pi / 2)], base=base, tool=tool)
    q = [0.3, 0.2]
    chain = dh_transform(0.3, 0, 1, 0.2) @ dh_transform(0, 0.2, 0, np.pi / 2)
    clone = DHRobot(robot)
    np.testing.assert_array_equal(clone.base, base)
    np.testing.assert_array_equal(clone.tool, tool)
    np.testing.assert_allclose(clone.fkine(q), base @ chain @ tool, atol=1e-14)
    moved = DHRobot(robot, base=np.eye(4))
    np.testing.assert_allclose(moved.fkine(q), chain @ tool, atol=1e-14)


@pytest.mark.parametrize("kind", ["vellipse", "fellipse"])
def test_the_ellipse_methods_are_the_functions(kind):
    """``robot.vellipse``/``robot.fellipse`` are thin calls of rvc's functions of the same name."""
    import rvc
    from rvc.models import planar2, puma560

    for robot, q, axes in ((planar2(), [0.0, 1.0], [1, 1, 0, 0, 0, 0]), (puma560(), puma560().qn, "trans")):
        E, F = getattr(robot, kind)(q, axes=axes), getattr(rvc, kind)(robot, q, axes)
        np.testing.assert_allclose(E.radii, F.radii, atol=1e-12)
        np.testing.assert_allclose(E.axes, F.axes, atol=1e-12)
        np.testing.assert_allclose(E.centre, F.centre, atol=1e-12)
