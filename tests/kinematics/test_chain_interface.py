"""One chain interface: every algorithm works on DH, modified-DH and ETS models alike.

The models differ in how they are described; the algorithms (fkine, the
Jacobians, manipulability, the twists, ikine, plot, teach) read them only
through ``n``, ``revolute``, ``qlim``, ``base``, ``tool``, ``dim``,
``fkine``, ``fkine_all`` and ``joint_frames``: the protocol
:class:`rvc.kinematics.chain.Chain`.  The dynamics reads, besides, the links'
``m r I Jm B Tc G``: :class:`rvc.dynamics.params.DynamicChain` and
:class:`~rvc.dynamics.params.DynamicLink`.  Here every model of the library
is checked against them, member by member (type and shape of what each
gives), and the check itself is shown to fail on a model that lacks one.
"""

import dataclasses
import importlib
import inspect
import pkgutil
import typing

import numpy as np
import pytest

import rvc
from rvc import (Chain, DHRobot, DynamicChain, DynamicLink, ETS2, ETS3, PrismaticDH, PrismaticMDH,
                 RevoluteDH, RevoluteMDH, fkine_poe, ikine, jacob0, jacobe, joint_twists, manipulability, plot_planar,
                 plot_robot, teach, transl, trotx, trotz)
from rvc.models import puma560, puma560_mdh
from support import PUMA_ETS as PUMA_S, fd_jacobian, pose3

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
        np.testing.assert_allclose(jacob0(r, q), fd_jacobian(r, q), atol=1e-7)


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


# ---------------------------------------------------------------------------
# the protocols, member by member, for every model of the library

#: Names of rvc.models.library that build no chain: a motor, a converter that takes a robot, a string.
NOT_CHAIN_BUILDERS = {"puma560_motor2", "dh_to_mdh", "LEG_STRING"}


def library_models():
    """Every robot the library builds, with its default arguments, and ``dh_to_mdh`` of the Puma."""
    from rvc.models import library

    out = {f"library {name}": getattr(library, name)() for name in library.__all__
           if name not in NOT_CHAIN_BUILDERS}
    out["library dh_to_mdh(puma560())"] = library.dh_to_mdh(puma560())
    return out


ALL_MODELS = {**MODELS, **library_models()}


def protocol_members(protocol) -> list:
    """The members a Protocol declares, its Protocol bases' included."""
    out = []
    for cls in reversed(protocol.__mro__):
        if getattr(cls, "_is_protocol", False) and cls is not typing.Protocol:
            out += [n for n in vars(cls) if not n.startswith("_") and n not in out]
    return out


def is_pose(T, d) -> bool:
    T = np.asarray(T)
    R = T[..., : d - 1, : d - 1]
    return (T.shape[-2:] == (d, d) and np.allclose(T[..., d - 1, :], np.eye(d)[d - 1])
            and np.allclose(R @ np.swapaxes(R, -1, -2), np.eye(d - 1), atol=1e-9))


def is_scalar(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _fkine(r, q, Q):
    d = int(r.dim) + 1                                     # lenient: _dim judges dim
    T, TQ = r.fkine(q), r.fkine(Q)
    if not (isinstance(T, np.ndarray) and T.shape == (d, d) and is_pose(T, d)):
        return f"fkine(q): expected a ({d}, {d}) pose, got {type(T).__name__} {np.shape(T)}"
    if np.shape(TQ) != (len(Q), d, d) or not np.allclose(TQ[0], r.fkine(Q[0])):
        return f"fkine(Q (N, n)): expected (N, {d}, {d}), one pose per row, got {np.shape(TQ)}"


def _fkine_all(r, q, Q):
    d = int(r.dim) + 1                                     # lenient: _dim judges dim
    A, AQ = r.fkine_all(q), r.fkine_all(Q)
    if not (isinstance(A, np.ndarray) and A.ndim == 3 and A.shape[0] >= 2 and A.shape[1:] == (d, d)
            and is_pose(A, d)):
        return f"fkine_all(q): expected (m >= 2, {d}, {d}) poses, got {type(A).__name__} {np.shape(A)}"
    base = A[0] if r.dim == 3 else rvc.lift_planar(A[0])
    if not np.allclose(base, r.base):
        return "fkine_all(q)[0]: expected the base frame"
    if np.shape(AQ) != (len(Q),) + A.shape or not np.allclose(AQ[0], r.fkine_all(Q[0])):
        return f"fkine_all(Q (N, n)): expected (N, {A.shape[0]}, {d}, {d}), got {np.shape(AQ)}"


def _joint_frames(r, q, Q):
    out = r.joint_frames(q)
    if not (isinstance(out, tuple) and len(out) == 2):
        return f"joint_frames(q): expected a pair (F, T), got {type(out).__name__}"
    F, T = out
    if not (isinstance(F, np.ndarray) and F.shape == (r.n, 4, 4) and is_pose(F, 4)):
        return f"joint_frames(q)[0]: expected ({r.n}, 4, 4) poses, got {np.shape(F)}"
    end = rvc.pose3d(r, q)
    if not (np.shape(T) == np.shape(end) == (4, 4) and np.allclose(T, end)):
        return f"joint_frames(q)[1]: expected the end pose fkine(q) in 3-D (4, 4), got {np.shape(T)}"
    FQ, TQ = r.joint_frames(Q)
    if np.shape(FQ) != (len(Q), r.n, 4, 4) or np.shape(TQ) != (len(Q), 4, 4):
        return f"joint_frames(Q (N, n)): expected (N, {r.n}, 4, 4) and (N, 4, 4), got {np.shape(FQ)}"


def _pose_member(name):
    def check(r, q, Q):
        T = getattr(r, name)
        if not (isinstance(T, np.ndarray) and T.shape == (4, 4) and is_pose(T, 4)):
            return f"{name}: expected a (4, 4) pose, got {type(T).__name__} {np.shape(T)}"
    return check


def _n(r, q, Q):
    if not (isinstance(r.n, int) and not isinstance(r.n, bool) and r.n >= 0):
        return f"n: expected an int >= 0, got {r.n!r}"


def _revolute(r, q, Q):
    v = r.revolute
    if not (isinstance(v, np.ndarray) and v.dtype == bool and v.shape == (r.n,)):
        return f"revolute: expected ({r.n},) booleans, got {type(v).__name__} {np.shape(v)}"


def _qlim(r, q, Q):
    L = r.qlim
    if not (isinstance(L, np.ndarray) and L.dtype.kind == "f" and L.shape == (2, r.n)
            and np.all(L[0] <= L[1])):
        return f"qlim: expected (2, {r.n}) floats, lower <= upper, got {type(L).__name__} {np.shape(L)}"


def _dim(r, q, Q):
    if r.dim not in (2, 3) or not isinstance(r.dim, int):
        return f"dim: expected 2 or 3, got {r.dim!r}"


CHAIN_CHECKS = {"n": _n, "revolute": _revolute, "qlim": _qlim, "base": _pose_member("base"),
                "tool": _pose_member("tool"), "dim": _dim, "fkine": _fkine, "fkine_all": _fkine_all,
                "joint_frames": _joint_frames}


def _link_member(name, shape):
    def check(L):
        v = getattr(L, name)
        if shape == ():
            return None if is_scalar(v) else f"{name}: expected a number, got {type(v).__name__}"
        if not (isinstance(v, np.ndarray) and v.shape == shape and v.dtype.kind == "f"):
            return f"{name}: expected {shape} floats, got {type(v).__name__} {np.shape(v)}"
    return check


LINK_CHECKS = {"m": _link_member("m", ()), "r": _link_member("r", (3,)), "I": _link_member("I", (3, 3)),
               "Jm": _link_member("Jm", ()), "B": _link_member("B", ()), "Tc": _link_member("Tc", (2,)),
               "G": _link_member("G", ())}


def chain_problems(r) -> list:
    """What is wrong with ``r`` as a Chain: missing members, then each member's type and shape."""
    missing = [m for m in protocol_members(Chain) if not hasattr(r, m)]
    if missing:
        return [f"{m}: missing" for m in missing]
    rng = np.random.default_rng(0)
    rev = np.asarray(r.revolute, dtype=bool)                # read leniently: its own check judges it
    q, Q = (rng.uniform(-1.2, 1.2, (N, int(r.n))) * np.where(rev, 1.0, 0.3) + np.where(rev, 0, 0.4)
            for N in (1, 3))
    q = q[0]
    out = []
    for name, check in CHAIN_CHECKS.items():
        try:
            problem = check(r, q, Q)
        except Exception as exc:                      # a member that raises is as wrong as a missing one
            problem = f"{name}: raised {type(exc).__name__}: {exc}"
        if problem:
            out.append(problem)
    return out


def link_problems(L) -> list:
    missing = [m for m in protocol_members(DynamicLink) if not hasattr(L, m)]
    return [f"{m}: missing" for m in missing] or [p for c in LINK_CHECKS.values() if (p := c(L))]


def dynamic_chain_problems(r) -> list:
    out = chain_problems(r)
    links = getattr(r, "links", None)
    if links is None:
        return out + ["links: missing"]
    if len(links) != r.n:
        out.append(f"links: expected {r.n} links, got {len(links)}")
    return out + [f"links[{j}].{p}" for j, L in enumerate(links) for p in link_problems(L)]


def test_the_checks_cover_every_member_and_every_member_is_documented():
    """A member added to a protocol needs its check here and its documentation there."""
    assert protocol_members(Chain) == list(CHAIN_CHECKS)
    assert protocol_members(DynamicLink) == list(LINK_CHECKS)
    assert protocol_members(DynamicChain) == list(CHAIN_CHECKS) + ["links"]
    for P in (Chain, DynamicLink, DynamicChain):
        for name in protocol_members(P):
            member = inspect.getattr_static(P, name)
            doc = (member.fget if isinstance(member, property) else member).__doc__
            assert doc and len(doc.split()) >= 4, f"{P.__name__}.{name} is not documented"


def test_every_library_builder_is_checked():
    from rvc.models import library

    assert set(library.__all__) - NOT_CHAIN_BUILDERS == {n.split()[1] for n in ALL_MODELS
                                                        if n.startswith("library ") and "(" not in n}


@pytest.mark.parametrize("name", ALL_MODELS)
def test_every_model_is_a_chain_member_by_member(name):
    r = ALL_MODELS[name]
    assert isinstance(r, Chain)
    assert chain_problems(r) == []


@pytest.mark.parametrize("name", [n for n, r in ALL_MODELS.items() if hasattr(r, "links")])
def test_every_model_with_links_is_a_dynamic_chain(name):
    r = ALL_MODELS[name]
    assert isinstance(r, DynamicChain) and all(isinstance(L, DynamicLink) for L in r.links)
    assert dynamic_chain_problems(r) == []


def test_which_models_carry_dynamics():
    """Every DH model (all the library's) is a DynamicChain; a sequence of terms is only a Chain."""
    dynamic = {n for n, r in ALL_MODELS.items() if isinstance(r, DynamicChain)}
    assert {n for n in ALL_MODELS if n.startswith("library")} <= dynamic
    assert not dynamic & {n for n in ALL_MODELS if n.startswith("ETS")}
    assert dynamic_chain_problems(MODELS["ETS3 puma"]) == ["links: missing"]


class Altered:
    """A model that forwards to ``robot``, but lacks the member ``drop`` and has ``override``s."""

    def __init__(self, robot, drop=None, **override):
        self._robot, self._drop = robot, drop
        # Real attributes: from Python 3.12 isinstance() checks a protocol with getattr_static,
        # which never calls __getattr__.
        members = [*CHAIN_CHECKS, "links", *protocol_members(DynamicLink)]
        for name in members:
            if name != drop and hasattr(robot, name):
                setattr(self, name, override.get(name, getattr(robot, name)))
        for name, value in override.items():
            setattr(self, name, value)

    def __getattr__(self, name):                   # only for what __init__ did not set
        if name in ("_robot", "_drop") or name == self._drop:
            raise AttributeError(name)
        return getattr(self._robot, name)


@pytest.mark.parametrize("member", list(CHAIN_CHECKS))
def test_the_check_fails_for_a_model_missing_a_member(member):
    bad = Altered(puma560(), drop=member)
    assert not isinstance(bad, Chain)
    assert chain_problems(bad) == [f"{member}: missing"]
    assert isinstance(Altered(puma560()), Chain) and chain_problems(Altered(puma560())) == []


def test_the_check_fails_for_a_member_of_the_wrong_type_or_shape():
    p560 = puma560()
    cases = {
        "n": dict(n=6.0),
        "revolute": dict(revolute=[True] * 6),
        "qlim": dict(qlim=p560.qlim.T),
        "base": dict(base=p560.base.tolist()),                         # a list, not an array
        "dim": dict(dim=3.0),
        "fkine": dict(fkine=lambda q, **kw: np.asarray(p560.fkine(q))[..., :3, :]),
        "fkine_all": dict(fkine_all=lambda q, **kw: p560.fkine_all(q)[..., 1:, :, :]),   # no base
        "joint_frames": dict(joint_frames=lambda q, **kw: p560.joint_frames(q)[0]),
    }
    for member, override in cases.items():
        problems = chain_problems(Altered(p560, **override))
        expected = [member, "joint_frames"] if member == "fkine" else [member]   # T is fkine's pose
        assert [p.split(":")[0].split("(")[0] for p in problems] == expected, (member, problems)
    link = Altered(p560.links[1], Tc=0.4)
    assert isinstance(link, DynamicLink) and link_problems(link) == ["Tc: expected (2,) floats, got float ()"]
    assert not isinstance(Altered(p560.links[1], drop="Jm"), DynamicLink)
    assert dynamic_chain_problems(Altered(p560, links=p560.links[:5])) == ["links: expected 6 links, got 5"]


def test_3d_drawings_of_a_planar_chain_say_what_to_call_instead():
    """plot_robot, animate_robot and plot_dh_schematic draw in space: a planar chain gets a ValueError
    naming the argument and the 2-D drawing to use (they once raised IndexError), and no figure."""
    import matplotlib.pyplot as plt

    E = MODELS["ETS2 planar RPR"]
    q = random_q(E, np.random.default_rng(3))
    plt.close("all")
    for draw, instead in ((rvc.plot_robot, "plot_planar"), (rvc.plot_dh_schematic, "plot_planar_schematic")):
        with pytest.raises(ValueError, match=rf"^robot: expected a chain in space \(dim 3\), got a planar "
                                             rf"chain \(dim 2\); draw it with {instead}\(robot, q\)$"):
            draw(E, q)
    with pytest.raises(ValueError, match="^robot: .* draw it with plot_planar"):
        rvc.animate_robot(E, np.stack([q, q]))
    assert plt.get_fignums() == []
    h = plot_planar(E, q)                                             # what the message points to works
    np.testing.assert_allclose(h.T, E.fkine(q), atol=1e-12)
    rvc.plot_planar_schematic(rvc.models.planar2(), [0.3, 0.4])
    plt.close("all")
