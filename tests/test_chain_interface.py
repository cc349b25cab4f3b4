"""One chain interface: every algorithm works on DH, modified-DH and ETS models alike.

The models differ in how they are described; the algorithms (fkine, the
Jacobians, manipulability, the twists, ikine, plot, teach) read them only
through ``n``, ``revolute``, ``qlim``, ``base``, ``tool``, ``dim``,
``fkine``, ``fkine_all`` and ``joint_frames``.
"""

import dataclasses
import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import rvc
from rvc import (DHRobot, ETS2, ETS3, PrismaticDH, PrismaticMDH, RevoluteDH, RevoluteMDH,
                 fkine_poe, ikine, jacob0, jacobe, joint_twists, manipulability, plot_planar,
                 plot_robot, teach, transl, trotx, trotz)
from rvc.models import puma560, puma560_mdh

PUMA_S = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"
PUMA_L = dict(L1=0, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)


def models():
    """A chain of every kind, prismatic joints, base and tool included."""
    stanford_like = DHRobot([RevoluteDH(d=0.4, alpha=-np.pi / 2), RevoluteDH(d=0.15, alpha=np.pi / 2),
                             PrismaticDH(qlim=[0.1, 0.9]), RevoluteDH(alpha=-np.pi / 2),
                             RevoluteDH(alpha=np.pi / 2), RevoluteDH(d=0.1)],
                            base=transl(0.1, -0.2, 0.3) @ trotz(0.4), tool=transl(0, 0, 0.05) @ trotx(0.2))
    mdh_prismatic = DHRobot([RevoluteMDH(d=0.2), PrismaticMDH(alpha=-np.pi / 2, a=0.1),
                             RevoluteMDH(a=0.3, alpha=np.pi / 2)], tool=transl(0.1, 0, 0))
    return {
        "DH puma560": puma560(),
        "MDH puma560": puma560_mdh(),
        "DH with P joint, base, tool": stanford_like,
        "MDH with P joint": mdh_prismatic,
        "ETS3 puma": ETS3.from_string(PUMA_S, **PUMA_L),
        "ETS3 with Tx, Ty joints": ETS3.Rx() * ETS3.Tz(0.3) * ETS3.Tx() * ETS3.Ry() * ETS3.Ty() * ETS3.Tx(0.2),
        "ETS2 planar RPR": ETS2.Rz() * ETS2.Tx(1) * ETS2.Tx() * ETS2.Rz() * ETS2.Ty(0.5),
    }


MODELS = models()


def random_q(robot, rng, N=None):
    shape = (robot.n,) if N is None else (N, robot.n)
    return rng.uniform(-1.2, 1.2, shape) * np.where(robot.revolute, 1.0, 0.3) + np.where(robot.revolute, 0, 0.4)


def pose3(robot, q):
    """The end pose as 4x4 (a planar pose embedded in z = 0)."""
    T = robot.fkine(q)
    if robot.dim == 3:
        return T
    out = np.zeros(T.shape[:-2] + (4, 4))
    idx = np.array([0, 1, 3])
    out[..., idx[:, None], idx] = T
    out[..., 2, 2] = 1
    return out


@pytest.mark.parametrize("name", MODELS)
def test_interface_is_complete(name):
    r = MODELS[name]
    assert isinstance(r.n, int) and r.revolute.shape == (r.n,) and r.qlim.shape == (2, r.n)
    assert r.base.shape == (4, 4) and r.tool.shape == (4, 4) and r.dim in (2, 3)
    q = random_q(r, np.random.default_rng(1))
    F, T = r.joint_frames(q)
    assert F.shape == (r.n, 4, 4)
    np.testing.assert_allclose(T, pose3(r, q), atol=1e-12)


@pytest.mark.parametrize("name", MODELS)
def test_jacob0_is_the_derivative_of_fkine(name):
    """Column j of J0 is d(pose)/dq_j: the translation and the angular velocity [dR R^T]."""
    r = MODELS[name]
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = random_q(r, rng)
        J = jacob0(r, q)
        h = 1e-6
        for j in range(r.n):
            dq = np.zeros(r.n)
            dq[j] = h
            Tp, Tm = pose3(r, q + dq), pose3(r, q - dq)
            v = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
            dR = (Tp[:3, :3] - Tm[:3, :3]) / (2 * h)
            W = dR @ pose3(r, q)[:3, :3].T
            w = np.array([W[2, 1], W[0, 2], W[1, 0]])
            np.testing.assert_allclose(J[:, j], np.r_[v, w], atol=1e-7)


@pytest.mark.parametrize("name", MODELS)
def test_batched_jacobians_and_manipulability(name):
    r = MODELS[name]
    Q = random_q(r, np.random.default_rng(3), N=4)
    J = jacob0(r, Q)
    assert J.shape == (4, 6, r.n)
    for k in range(4):
        np.testing.assert_allclose(J[k], jacob0(r, Q[k]), atol=1e-12)
    Je = jacobe(r, Q)
    R = pose3(r, Q)[:, :3, :3]
    np.testing.assert_allclose(Je[:, :3], np.swapaxes(R, 1, 2) @ J[:, :3], atol=1e-12)
    m = manipulability(r, Q, method="minsingular")
    assert m.shape == (4,) and np.all(m >= 0)


@pytest.mark.parametrize("name", MODELS)
def test_product_of_exponentials_matches_fkine(name):
    r = MODELS[name]
    if r.dim == 2:
        pytest.skip("a planar chain's fkine is 3x3; its twists are checked through the Jacobian")
    S = joint_twists(r)
    M = r.fkine(np.zeros(r.n))
    Q = random_q(r, np.random.default_rng(5), N=5)
    np.testing.assert_allclose(fkine_poe(S, M, Q), r.fkine(Q), atol=1e-12)


@pytest.mark.parametrize("name", ["ETS3 puma", "DH with P joint, base, tool", "MDH puma560"])
def test_ikine_works_on_every_kind(name):
    r = MODELS[name]
    rng = np.random.default_rng(11)
    q = random_q(r, rng)
    T = r.fkine(q)
    sol = ikine(r, T, q + 0.1 * np.where(r.revolute, 1, 0.3) * rng.uniform(-1, 1, r.n))
    assert sol.success, sol.reason
    np.testing.assert_allclose(r.fkine(sol.q), T, atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_ikine_method_takes_the_pose_fkine_gives(name):
    """``robot.ikine(robot.fkine(q))`` on every kind: a planar chain takes its 3x3 pose."""
    r = MODELS[name]
    rng = np.random.default_rng(12)
    q = random_q(r, rng)
    T = r.fkine(q)
    assert T.shape == ((4, 4) if r.dim == 3 else (3, 3))
    sol = r.ikine(T, q + 0.05 * np.where(r.revolute, 1, 0.3) * rng.uniform(-1, 1, r.n))
    assert sol.success, sol.reason
    np.testing.assert_allclose(r.fkine(sol.q), T, atol=1e-8)
    np.testing.assert_array_equal(sol.q, ikine(r, T, sol.q).q)        # the method is the function


def test_ikine_planar_pose_only_for_a_planar_chain():
    E = MODELS["ETS2 planar RPR"]
    with pytest.raises(ValueError, match="T"):
        ikine(puma560(), np.eye(3))
    with pytest.raises(ValueError, match="T"):                        # not a planar pose
        ikine(E, np.ones((3, 3)))
    Ts = E.fkine(random_q(E, np.random.default_rng(2), N=3))          # a trajectory of planar poses
    sol = E.ikine(Ts, mask=[1, 1, 0, 0, 0, 1])
    np.testing.assert_allclose(E.fkine(sol.q), Ts, atol=1e-8)


def test_goal_seeking_algorithms_take_a_planar_chain_and_its_planar_pose():
    """ikine_transpose and rrmc2 read goals and poses through the same 3-D view as ikine."""
    E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(0.8)
    goal = E.fkine([0.4, 0.9])                                       # a planar pose (3, 3)
    mask = [1, 1, 0, 0, 0, 0]
    sol = rvc.ikine_transpose(E, goal, q0=[0.2, 0.6], mask=mask, alpha=0.5, ilimit=2000)
    assert sol.success, sol.reason
    np.testing.assert_allclose(E.fkine(sol.q)[:2, 2], goal[:2, 2], atol=1e-4)
    r = rvc.rrmc2(E, [0.2, 0.6], goal, gain=10, steps=200, axes=mask)
    assert r.T.shape[-2:] == (4, 4)
    np.testing.assert_allclose(E.fkine(r.q[-1])[:2, 2], goal[:2, 2], atol=1e-9)
    with pytest.raises(ValueError, match="Tstar"):
        rvc.rrmc2(E, [0.2, 0.6], np.ones((3, 3)), steps=2)


@pytest.mark.parametrize("name", MODELS)
def test_plot_and_teach_work_on_every_kind(name):
    import matplotlib.pyplot as plt

    r = MODELS[name]
    q = random_q(r, np.random.default_rng(2))
    h = (plot_planar if r.dim == 2 else plot_robot)(r, q)
    np.testing.assert_allclose(h.T, r.fkine(q), atol=1e-12)
    t = teach(r, np.zeros(r.n))
    assert len(t.sliders) == r.n
    t.update(np.clip(q, r.qlim[0], r.qlim[1]))
    plt.close("all")


def test_every_result_is_frozen_and_unpacks():
    """One style: frozen dataclasses that unpack like MATLAB's multiple returns."""
    results = [
        rvc.jtraj(np.zeros(2), np.ones(2), 5),
        rvc.ikine6s(puma560(), puma560().fkine(puma560().qn)),
        rvc.incremental_rotation([0, 0, 0.01]),
        rvc.accel_rotating_frame([1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 1]),
        rvc.simulate_rigidbody(np.diag([1.0, 2, 3]), [0, 0, 1], tf=0.1, n=3),
        rvc.letter_path(rvc.hershey_strokes("I", scale=0.1)),
    ]
    for res in results:
        assert isinstance(res, rvc.Result)
        first = dataclasses.fields(res)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(res, first, None)
        values = list(res)
        assert len(values) >= 2
        assert repr(res).startswith(type(res).__name__ + "(")
    q, qd, qdd = results[0]
    assert q.shape == qd.shape == qdd.shape == (5, 2)
    qs, ok = results[1]
    assert ok and qs.shape == (6,)


#: Record types that are not results: a term of a model.
NOT_RESULTS = {"rvc.models.ets.ET"}


def test_every_record_type_in_rvc_is_a_result():
    """Every dataclass or named tuple rvc defines is a :class:`rvc.Result` (but NOT_RESULTS)."""
    found, others = 0, []
    for info in pkgutil.walk_packages(rvc.__path__, "rvc."):
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            record = dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))
            if record and f"{module.__name__}.{name}" not in NOT_RESULTS:
                found += 1
                if not (issubclass(cls, rvc.Result) and cls.__dataclass_params__.frozen):
                    others.append(f"{module.__name__}.{name}")
    assert found > 20 and not others, others


def test_ellipsoid_of_a_linear_map():
    """The image of the unit ball under A: radii are the singular values of A."""
    rng = np.random.default_rng(4)
    A = rng.normal(size=(5, 3, 4))
    E = rvc.ellipsoid(A @ np.swapaxes(A, 1, 2), centre=[1.0, 2, 3])
    np.testing.assert_allclose(E.radii, np.linalg.svd(A, compute_uv=False), rtol=1e-10)
    np.testing.assert_allclose(E.centre, np.broadcast_to([1.0, 2, 3], (5, 3)))
    # each axis is an eigenvector: S a_i = r_i^2 a_i
    S = A @ np.swapaxes(A, 1, 2)
    np.testing.assert_allclose(S @ E.axes, E.axes * E.radii[:, None, :] ** 2, atol=1e-10)
    # a flat (singular) map has a zero radius, never NaN
    flat = rvc.ellipsoid(np.diag([1.0, 0.0, 1e-20]))
    assert np.all(np.isfinite(flat.radii)) and flat.radii[-1] == 0
    with pytest.raises(ValueError, match="positive semi-definite"):
        rvc.ellipsoid(np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="square"):
        rvc.ellipsoid(np.ones((2, 3)))
