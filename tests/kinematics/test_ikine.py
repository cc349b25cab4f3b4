"""Inverse kinematics: ikine6s (closed form), ikine (LM), the 2-link arm."""


import numpy as np
import pytest

from rvc.checks import SingularityWarning
from rvc.kinematics.ikine import IKSolution, _lm_step, _pose_error, ikine
from rvc.kinematics.ikine2link import ikine_2link, ikine_2link_numeric, ikine_2link_sympy
from rvc.kinematics.ikine6s import ikine6s
from rvc.kinematics.jacobian import jacob0
from rvc.models import baxter, cobra600, puma560
from rvc.spatial.transforms3d import rpy2tr, transl, troty

CONFIGS = ["lun", "luf", "ldn", "ldf", "run", "ruf", "rdn", "rdf"]


@pytest.fixture(scope="module")
def p560():
    return puma560()


@pytest.fixture(scope="module")
def c600():
    return cobra600()


@pytest.fixture(scope="module")
def left():
    return baxter("left")


def random_q(robot, n, seed=0, shrink=1.0):
    rng = np.random.default_rng(seed)
    qlim = np.asarray(robot.qlim, dtype=float)
    if qlim.shape == (robot.n, 2):
        qlim = qlim.T
    lo, hi = qlim
    mid = (lo + hi) / 2
    return rng.uniform(mid + shrink * (lo - mid), mid + shrink * (hi - mid), (n, robot.n))


def assert_reaches(robot, q, T, atol=1e-9):
    np.testing.assert_allclose(np.asarray(robot.fkine(q)), T, atol=atol)


# ---------------------------------------------------------------- ikine6s ---

def test_ikine6s_notes_qn(p560):
    T = p560.fkine(p560.qn)
    sol = ikine6s(p560, T, "ru")
    assert isinstance(sol, IKSolution) and sol.success and sol.reason == ""
    np.testing.assert_allclose(sol.q, p560.qn, atol=1e-9)
    # the default solution of the notes: 2.6486 -3.9270 0.0940 2.5326 0.9743 0.3734
    q = ikine6s(p560, T).q
    np.testing.assert_allclose(q, [2.6486, -3.9270 + 2 * np.pi, 0.0940, 2.5326, 0.9743, 0.3734], atol=1e-4)


def test_ikine6s_all_configurations_round_trip(p560):
    Q = random_q(p560, 25, seed=1)
    T = p560.fkine(Q)
    sols = {}
    for c in CONFIGS:
        sol = ikine6s(p560, T, c)
        assert sol.q.shape == (25, 6) and sol.success.shape == (25,)
        assert sol.success.all(), (c, sol.reason)
        assert np.all(sol.residual < 1e-20)
        assert_reaches(p560, sol.q, T)
        sols[c] = sol.q
    # the eight solutions of a generic pose are distinct
    for k in range(25):
        qs = np.array([sols[c][k] for c in CONFIGS])
        d = np.abs(np.angle(np.exp(1j * (qs[:, None] - qs[None]))))
        assert np.all(d.max(axis=-1)[~np.eye(8, dtype=bool)] > 1e-6)
    # and one of them is the q the pose came from
    for k in range(25):
        best = min(np.abs(np.angle(np.exp(1j * (sols[c][k] - Q[k])))).max() for c in CONFIGS)
        assert best < 1e-8


def test_ikine6s_letters(p560):
    T = p560.fkine(p560.qn)
    assert ikine6s(p560, T, "run").q[4] >= 0 and ikine6s(p560, T, "ruf").q[4] <= 0
    np.testing.assert_allclose(ikine6s(p560, T, "").q, ikine6s(p560, T, "lun").q)
    np.testing.assert_allclose(ikine6s(p560, T, "ru", unit="deg").q, np.rad2deg(p560.qn), atol=1e-7)


def test_ikine6s_base_and_tool():
    r = puma560()
    r.base = transl(0, 0, 30 * 0.0254)
    r.tool = transl(0, 0, 0.2)
    Q = random_q(r, 5, seed=2)
    T = r.fkine(Q)
    for c in ("lun", "rdf"):
        sol = ikine6s(r, T, c)
        assert sol.success.all()
        assert_reaches(r, sol.q, T)


def test_ikine6s_unreachable(p560):
    T = transl(3, 0, 0)
    sol = ikine6s(p560, T)
    assert sol.success is False
    assert "unreachable" in sol.reason
    assert np.all(np.isfinite(sol.q)) and np.all(sol.q == 0)
    assert sol.residual == np.inf
    with pytest.raises(ValueError, match="T: pose is unreachable"):
        ikine6s(p560, T, strict=True)
    # inside the shoulder offset cylinder
    assert not ikine6s(p560, transl(0, 0, 0.3)).success
    # a batch with one bad pose: the others are solved
    Ts = np.stack([p560.fkine(p560.qn), T, p560.fkine(p560.qr)])
    with pytest.warns(SingularityWarning):       # qr has q5 = 0
        sol = ikine6s(p560, Ts, "ru")
    assert sol.success.tolist() == [True, False, True]
    assert sol.reason[0] == "" and "unreachable" in sol.reason[1]
    assert np.all(np.isfinite(sol.q))


def test_ikine6s_singular(p560):
    q = np.array([0, np.pi / 4, np.pi, 0.1, 0, 0.2])
    T = p560.fkine(q)
    with pytest.warns(SingularityWarning, match="q4 = 0"):
        sol = ikine6s(p560, T, "ru")
    assert sol.success
    assert sol.q[3] == 0
    assert sol.q[5] == pytest.approx(q[3] + q[5])   # q4 + q6 is what is determined
    assert_reaches(p560, sol.q, T)


@pytest.mark.parametrize("q5", [1e-3, 1e-5, 1e-7])
def test_ikine6s_near_the_wrist_singularity_is_exact(p560, q5):
    """Close to q5 = 0 but not on it, the closed form still reaches the pose exactly and does
    not call it singular (only q5 = 0 itself loses information)."""
    import warnings

    q = np.array([0.3, 0.7, 2.8, 0.4, q5, -0.2])
    T = p560.fkine(q)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SingularityWarning)
        sol = ikine6s(p560, T, "ru")
    assert sol.success
    np.testing.assert_allclose(p560.fkine(sol.q), T, atol=1e-10)


def test_ikine6s_bad_input(p560, c600):
    T = p560.fkine(p560.qn)
    with pytest.raises(ValueError, match="config"):
        ikine6s(p560, T, "lux")
    with pytest.raises(ValueError, match="config"):
        ikine6s(p560, T, "lr")
    with pytest.raises(ValueError, match="robot"):
        ikine6s(c600, T)
    with pytest.raises(ValueError, match="T"):
        ikine6s(p560, np.ones((4, 4)))


# ------------------------------------------------------------------ ikine ---

def test_ikine_notes_puma(p560):
    T = p560.fkine(p560.qn)
    sol = ikine(p560, T)
    assert sol.success and sol.residual < 1e-10 and sol.iterations > 0
    assert_reaches(p560, sol.q, T, atol=1e-5)
    # the notes' answer from q0 = 0: [0 -0.8335 0.0940 0 -0.8312 0]
    np.testing.assert_allclose(sol.q, [0, -0.8335, 0.0940, 0, -0.8312, 0], atol=2e-3)
    sol = ikine(p560, T, q0=[0, 0, 3, 0, 0, 0])
    assert sol.success


def test_ikine_puma_random(p560):
    Q = random_q(p560, 20, seed=3)
    T = p560.fkine(Q)
    plain = [ikine(p560, T[k]) for k in range(20)]
    searched = [ikine(p560, T[k], search=True, seed=0) for k in range(20)]
    rate_plain = np.mean([s.success for s in plain])
    rate_search = np.mean([s.success for s in searched])
    assert rate_plain >= 0.8
    assert rate_search >= 0.9
    for k, s in enumerate(plain + searched):
        e = _pose_error(np.asarray(p560.fkine(s.q)), T[k % 20])
        E = float(e @ e)
        assert E == pytest.approx(s.residual, rel=1e-6, abs=1e-18)
        # issue 12: success means the pose is reached, position and rotation errors within tol = 1e-9
        # (it meant E < 1e-10, a squared error, before)
        reached = np.linalg.norm(e[:3]) <= 1e-9 and np.linalg.norm(e[3:]) <= 1e-9
        assert s.success == reached
        assert (s.position_error, s.rotation_error) == pytest.approx(
            (np.linalg.norm(e[:3]), np.linalg.norm(e[3:])), rel=1e-6, abs=1e-15)


def test_ikine_cobra_masked(c600):
    Q = random_q(c600, 20, seed=4, shrink=0.9)
    T = c600.fkine(Q)
    mask = [1, 1, 1, 0, 0, 1]
    sols = [ikine(c600, T[k], mask=mask, search=True, seed=0) for k in range(20)]
    assert np.mean([s.success for s in sols]) >= 0.9
    for k, s in enumerate(sols):
        if s.success:
            assert_reaches(c600, s.q, T[k], atol=1e-5)


def test_ikine_cobra_notes_example(c600):
    T = transl(0.4, -0.3, 0.2) @ rpy2tr(30, 40, 160, unit="deg")
    sol = ikine(c600, T, mask=[1, 1, 1, 0, 0, 1])
    assert sol.success
    Ta = np.asarray(c600.fkine(sol.q))
    np.testing.assert_allclose(Ta[:3, 3], [0.4, -0.3, 0.2], atol=1e-5)
    assert abs(abs(Ta[2, 2]) - 1) < 1e-9          # the tool's z-axis stays vertical
    # without the mask the pose is over-constrained: no false success
    sol = ikine(c600, T)
    assert not sol.success and sol.reason and sol.residual >= 1e-10


def test_ikine_baxter_min_norm(left):
    Q = random_q(left, 10, seed=5, shrink=0.8)
    T = left.fkine(Q)
    sols = [ikine(left, T[k]) for k in range(10)]
    assert np.mean([s.success for s in sols]) >= 0.9
    for k, s in enumerate(sols):
        if s.success:
            assert_reaches(left, s.q, T[k], atol=1e-5)
    # the LM step is the damped minimum-norm step: it tends to pinv(J) e
    rng = np.random.default_rng(6)
    q = Q[0]
    J = jacob0(left, q)
    e = rng.normal(size=6)
    step = _lm_step(J, e, np.ones(6), 1e-9)
    # lambda = 1e-9 makes J^T J + lambda I nearly singular: round-off of order
    # 1e-16 * cond ~ 1e-6 relative to the step is expected, so compare to that.
    np.testing.assert_allclose(step, np.linalg.pinv(J) @ e, atol=1e-5 * np.linalg.norm(step))
    null = np.linalg.svd(J)[2][-1]               # J @ null = 0
    assert abs(step @ null) < 1e-6 * np.linalg.norm(step)
    # the notes' example
    sol = ikine(left, transl(0.8, 0.2, -0.2) @ troty(np.pi))
    assert sol.success


def test_ikine_jacobian(p560):
    q = random_q(p560, 1, seed=7)[0]
    J = jacob0(p560, q)
    dq = 1e-7 * np.random.default_rng(8).normal(size=6)
    e = _pose_error(np.asarray(p560.fkine(q)), np.asarray(p560.fkine(q + dq)))
    np.testing.assert_allclose(J @ dq, e, atol=1e-12)


def test_ikine_trajectory_warm_start(p560):
    from rvc.motion.trajectory import ctraj

    T1 = transl(0.4, 0.2, 0) @ rpy2tr(np.pi, 0, 0)
    T2 = transl(0.4, -0.2, 0) @ rpy2tr(np.pi / 2, 0, 0)
    Ts = ctraj(T1, T2, 15)
    sol = ikine(p560, Ts)
    assert sol.q.shape == (15, 6) and sol.success.all() and len(sol.reason) == 15
    assert np.all(sol.residual < 1e-10)
    assert np.abs(np.diff(sol.q, axis=0)).max() < 0.5      # a continuous path
    assert sol.iterations[1:].mean() < sol.iterations[0]    # warm starts pay off
    assert_reaches(p560, sol.q, Ts, atol=1e-5)


def test_ikine_unreachable(p560):
    sol = ikine(p560, transl(3, 0, 0), search=True, slimit=3, seed=0)
    assert not sol.success and sol.residual > 1e-10 and sol.reason
    assert np.all(np.isfinite(sol.q))
    sol = ikine(p560, np.stack([transl(3, 0, 0), p560.fkine(p560.qn)]))
    assert sol.success.tolist() == [False, True]


def test_ikine_joint_limits(p560):
    Q = random_q(p560, 5, seed=9, shrink=0.8)
    qlim = np.asarray(p560.qlim, dtype=float)
    qlim = qlim.T if qlim.shape == (6, 2) else qlim
    for k in range(5):
        sol = ikine(p560, p560.fkine(Q[k]), joint_limits=True, search=True, seed=1)
        assert sol.success
        assert np.all(sol.q >= qlim[0] - 1e-12) and np.all(sol.q <= qlim[1] + 1e-12)


def test_ikine_joint_limits_when_every_solution_is_outside():
    """A target whose two solutions (elbow up and down) both need q2 outside qlim: with
    joint_limits=True ikine must say it failed, with or without a random search."""
    from rvc import DHRobot, RevoluteDH

    arm = DHRobot([RevoluteDH(a=1, qlim=[-np.pi, np.pi]), RevoluteDH(a=1, qlim=[-0.5, 0.5])])
    x, y = 0.6, 0.7
    both = np.array([ikine_2link(1, 1, x, y, elbow=e) for e in ("up", "down")])
    assert np.all(np.abs(both[:, 1]) > 0.5)                 # both outside [-0.5, 0.5]
    T = transl(x, y, 0)
    plain = ikine(arm, T, mask=[1, 1, 0, 0, 0, 0])
    assert plain.success and np.abs(plain.q[1]) > 0.5        # found, but outside the limits
    for search in (False, True):
        sol = ikine(arm, T, mask=[1, 1, 0, 0, 0, 0], joint_limits=True, search=search, slimit=20 if search else 0,
                    seed=3)
        assert not sol.success
        assert "limit" in sol.reason
    # a reachable target inside the limits still succeeds, inside the limits
    T_ok = arm.fkine([0.3, 0.4])
    sol = ikine(arm, T_ok, mask=[1, 1, 0, 0, 0, 0], joint_limits=True, search=True, seed=3)
    assert sol.success and abs(sol.q[1]) <= 0.5 + 1e-12


def test_ikine_seeded_search_is_reproducible(p560):
    T = p560.fkine(random_q(p560, 1, seed=10)[0])
    a = ikine(p560, T, q0=[0, 3, -3, 0, 0, 0], search=True, seed=42, ilimit=5)
    b = ikine(p560, T, q0=[0, 3, -3, 0, 0, 0], search=True, seed=42, ilimit=5)
    np.testing.assert_array_equal(a.q, b.q)
    assert a.searches == b.searches


def test_ikine_bad_input(p560):
    T = p560.fkine(p560.qn)
    with pytest.raises(ValueError, match="q0"):
        ikine(p560, T, q0=[0, 0, 0])
    with pytest.raises(ValueError, match="mask"):
        ikine(p560, T, mask=[1, 1, 1])
    with pytest.raises(ValueError, match="mask"):
        ikine(p560, T, mask=[0] * 6)
    with pytest.raises(ValueError, match="T"):
        ikine(p560, np.eye(3))
    with pytest.raises(ValueError, match="T"):
        ikine(p560, 2 * np.eye(4))
    with pytest.raises(TypeError):
        ikine(p560, T, bogus=1)


# ------------------------------------------------------------ 2-link arm ---

def test_2link_sympy_numeric_agree():
    import sympy as sp

    sol = ikine_2link_sympy()
    a1, a2, x, y = sp.symbols("a1 a2 x y", real=True)
    pts = [(0.6, 0.7), (1.2, -0.3), (-0.5, 1.1)]
    for px, py in pts:
        for elbow in ("up", "down"):
            q_sym = [float(e.subs({a1: 1, a2: 1, x: px, y: py})) for e in sol[elbow]]
            q_num = ikine_2link(1, 1, px, py, elbow)
            np.testing.assert_allclose(q_sym, q_num, atol=1e-12)
            fk = [np.cos(q_num[0]) + np.cos(q_num.sum()), np.sin(q_num[0]) + np.sin(q_num.sum())]
            np.testing.assert_allclose(fk, [px, py], atol=1e-12)
        assert ikine_2link(1, 1, px, py, "up")[1] <= 0 <= ikine_2link(1, 1, px, py, "down")[1]
        q_nm = ikine_2link_numeric(1, 1, px, py)
        fk = [np.cos(q_nm[0]) + np.cos(q_nm.sum()), np.sin(q_nm[0]) + np.sin(q_nm.sum())]
        np.testing.assert_allclose(fk, [px, py], atol=1e-6)
        # it finds one of the two closed-form solutions
        d = min(np.abs(np.angle(np.exp(1j * (q_nm - ikine_2link(1, 1, px, py, e))))).max()
                for e in ("up", "down"))
        assert d < 1e-5


def test_2link_batched_and_errors():
    x = np.array([0.6, 1.2, 0.0])
    y = np.array([0.7, -0.3, 1.5])
    Q = ikine_2link(1, 0.8, x, y, "down")
    assert Q.shape == (3, 2)
    for k in range(3):
        np.testing.assert_allclose(Q[k], ikine_2link(1, 0.8, x[k], y[k], "down"))
    np.testing.assert_allclose(ikine_2link(1, 1, 0.6, 0.7, unit="deg"),
                               np.rad2deg(ikine_2link(1, 1, 0.6, 0.7)))
    with pytest.raises(ValueError, match=r"\(3, 0\).*reach"):
        ikine_2link(1, 1, 3, 0)
    with pytest.raises(ValueError, match="reach"):
        ikine_2link(1, 0.5, 0.1, 0)
    with pytest.raises(ValueError, match="reach"):
        ikine_2link_numeric(1, 1, 0, 2.5)
    with pytest.raises(ValueError, match="elbow"):
        ikine_2link(1, 1, 0.6, 0.7, "sideways")


# ------------------------------------- ikine: batches, restarts, success ---
# (issue 12) independent poses solved together, a pose counted as reached only
# within 1e-9 m and rad, seeded random restarts when an attempt stalls

def rotation_angle(T1, T2):
    """Angle of R1 R2^T, from trlog (the reference for the pose error)."""
    from rvc import trlog

    return np.linalg.norm(trlog(T1[..., :3, :3] @ np.swapaxes(T2[..., :3, :3], -1, -2),
                                twist=True, check=False), axis=-1)


def test_pose_error_is_trlog():
    """The inline rotation log of the solver equals trlog, also past pi/2 and near pi."""
    from rvc import angvec2tr, trlog

    rng = np.random.default_rng(20)
    axes = rng.normal(size=(400, 3))
    angles = np.concatenate([rng.uniform(0, np.pi, 300), np.pi - np.logspace(-12, -1, 50),
                             np.logspace(-12, -1, 49), [0.0]])
    R = angvec2tr(angles, axes)
    T0 = transl(0.1, 0.2, 0.3) @ rpy2tr(0.3, -0.2, 1.0)
    Ts = R @ T0                                   # R* R0^T = R
    e = _pose_error(np.broadcast_to(T0, Ts.shape), Ts)
    ref = trlog(R[..., :3, :3], twist=True, check=False)
    np.testing.assert_allclose(e[:, 3:], ref, atol=1e-12)
    np.testing.assert_allclose(e[:, :3], Ts[:, :3, 3] - T0[:3, 3], atol=1e-15)
    for k in range(len(Ts)):                      # one pose at a time (floats)
        np.testing.assert_allclose(_pose_error(T0, Ts[k]), e[k], atol=1e-12)


def test_ikine_success_means_the_pose_is_reached(p560):
    Q = random_q(p560, 40, seed=21)
    T = p560.fkine(Q)
    sol = ikine(p560, T, np.zeros((40, 6)))
    assert sol.success.all()
    Ta = p560.fkine(sol.q)
    et = np.linalg.norm(Ta[:, :3, 3] - T[:, :3, 3], axis=-1)
    er = rotation_angle(T, Ta)
    assert et.max() <= 1e-9 and er.max() <= 1e-9
    np.testing.assert_allclose(sol.position_error, et, atol=1e-15)
    np.testing.assert_allclose(sol.rotation_error, er, atol=1e-15)
    assert np.all(sol.residual < 2e-18)
    # a looser tol stops earlier, and says so
    loose = ikine(p560, T, np.zeros((40, 6)), tol=1e-4)
    assert loose.success.all() and loose.iterations.sum() < sol.iterations.sum()
    assert np.all((loose.position_error <= 1e-4) & (loose.rotation_error <= 1e-4))


@pytest.mark.parametrize("mask", [None, [1, 1, 1, 0, 0, 0]])
def test_ikine_batch_equals_one_pose_at_a_time(p560, mask):
    """Each pose of a batch takes the steps it would take alone (restarts included)."""
    Q = random_q(p560, 30, seed=22)
    T = p560.fkine(Q)
    Q0 = random_q(p560, 30, seed=23)
    Q0[:5] = 0.0                                  # a few singular starts
    batch = ikine(p560, T, Q0, mask=mask, ilimit=15, slimit=4)
    assert batch.q.shape == (30, 6) and batch.success.shape == (30,) and len(batch.reason) == 30
    alone = [ikine(p560, T[k], Q0[k], mask=mask, ilimit=15, slimit=4) for k in range(30)]
    assert batch.success.tolist() == [s.success for s in alone]
    assert batch.iterations.tolist() == [s.iterations for s in alone]
    assert batch.searches.tolist() == [s.searches for s in alone]
    assert batch.searches.any()                   # ilimit = 15 makes some poses restart
    np.testing.assert_allclose(batch.q, [s.q for s in alone], atol=1e-8)
    assert batch.reason == [s.reason for s in alone]


def test_ikine_batch_numpy_and_float_evaluation_agree(p560, monkeypatch):
    """A batch evaluates few rows one at a time: the same steps as all in numpy."""
    from rvc.kinematics import ikine as _  # noqa: F401  (the function shadows the module name)
    import importlib

    module = importlib.import_module("rvc.kinematics.ikine")
    Q = random_q(p560, 12, seed=24)
    T = p560.fkine(Q)
    a = ikine(p560, T, np.zeros((12, 6)))
    monkeypatch.setattr(module, "_FEW", 0)
    b = ikine(p560, T, np.zeros((12, 6)))
    assert a.iterations.tolist() == b.iterations.tolist()
    np.testing.assert_allclose(a.q, b.q, atol=1e-8)


def test_ikine_restarts_find_the_pose_from_a_bad_start(p560):
    """A start that stalls is rescued by seeded random restarts; the result is reproducible."""
    Q = random_q(p560, 60, seed=25)
    T = p560.fkine(Q)
    Q0 = np.tile(p560.qr, (60, 1))                # arm straight up: a singular start
    once = ikine(p560, T, Q0, search=False, ilimit=20)
    searched = ikine(p560, T, Q0, ilimit=20)
    assert not once.success.all() and searched.success.all()
    assert np.all(searched.searches[once.success] == 0) and searched.searches.max() >= 1
    again = ikine(p560, T, Q0, ilimit=20)
    np.testing.assert_array_equal(again.q, searched.q)
    other = ikine(p560, T, Q0, ilimit=20, seed=1)
    assert other.success.all()


def test_ikine_cobra_masked_from_zero(c600):
    """The Cobra 600 from q0 = 0 with the SCARA mask reaches every reachable pose (issue 12)."""
    rng = np.random.default_rng(26)
    Q = rng.uniform(*c600.qlim, (15, 4))
    T = c600.fkine(Q)
    mask = [1, 1, 1, 0, 0, 1]
    sol = ikine(c600, T, np.zeros((15, 4)), mask=mask)
    assert sol.success.all()
    assert_reaches(c600, sol.q, T, atol=1e-9)
    assert all(ikine(c600, T[k], mask=mask).success for k in range(15))


def test_ikine_batch_joint_limits_and_degrees(p560):
    Q = random_q(p560, 10, seed=27, shrink=0.8)
    T = p560.fkine(Q)
    lo, hi = p560.qlim
    sol = ikine(p560, T, np.zeros((10, 6)), joint_limits=True)
    assert sol.success.all()
    assert np.all(sol.q >= lo - 1e-12) and np.all(sol.q <= hi + 1e-12)
    deg = ikine(p560, T, np.zeros((10, 6)), joint_limits=True, unit="deg")
    np.testing.assert_allclose(deg.q, np.rad2deg(sol.q), atol=1e-9)


def test_ikine_one_pose_many_starts_and_unreachable(p560):
    T = p560.fkine(p560.qn)
    sol = ikine(p560, T, random_q(p560, 5, seed=28))
    assert sol.q.shape == (5, 6) and sol.success.all()
    assert_reaches(p560, sol.q, np.broadcast_to(T, (5, 4, 4)), atol=1e-9)
    far = np.stack([transl(3, 0, 0), T])
    sol = ikine(p560, far, np.zeros((2, 6)), slimit=2)
    assert sol.success.tolist() == [False, True]
    assert "pose error" in sol.reason[0] and "2 random restarts" in sol.reason[0] and sol.reason[1] == ""
    assert sol.position_error[0] > 1 and np.all(np.isfinite(sol.q))
    with pytest.raises(ValueError, match="q0"):
        ikine(p560, far, np.zeros((3, 6)))
    assert "2 poses, 1 solved" in repr(sol)


def test_cholesky_solve_of_a_long_batch():
    """The batched Cholesky solver of the LM step equals numpy's solve."""
    import importlib

    module = importlib.import_module("rvc.kinematics.ikine")
    rng = np.random.default_rng(29)
    J = rng.normal(size=(300, 6, 7))
    e = rng.normal(size=(300, 6))
    W = np.array([1, 1, 1, 0.5, 0.5, 0])
    lam = rng.uniform(1e-6, 1.0, 300)
    H = np.swapaxes(J, -1, -2) * W @ J + lam[:, None, None] * np.eye(7)
    g = (np.swapaxes(J, -1, -2) * W @ e[..., None])[..., 0]
    np.testing.assert_allclose(module._cholesky_solve(H, g), np.linalg.solve(H, g[..., None])[..., 0],
                               rtol=1e-7, atol=1e-9)
    step = _lm_step(J, e, W, lam)               # a long batch takes the Cholesky path
    np.testing.assert_allclose(step, [_lm_step(J[k], e[k], W, lam[k]) for k in range(300)], rtol=1e-7,
                               atol=1e-9)


@pytest.mark.parametrize("qlim1, q1", [((0.0, 2 * np.pi), -1.2), ((-2 * np.pi, 0.0), 1.2)])
def test_ikine_joint_limits_turns_a_solution_into_the_limits(qlim1, q1):
    """A solution outside qlim by less than a turn is shifted by 2 pi into the limits (from
    below and from above) and reported as a success."""
    from rvc import DHRobot, RevoluteDH

    arm = DHRobot([RevoluteDH(a=1, qlim=qlim1), RevoluteDH(a=0.7, qlim=[-np.pi, np.pi])])
    q = np.array([q1, 0.8])
    T = arm.fkine(q)
    sol = ikine(arm, T, q + 0.05, mask=[1, 1, 0, 0, 0, 1], joint_limits=True, search=False)
    assert sol.success, sol.reason
    np.testing.assert_allclose(sol.q, [q1 - np.sign(q1) * 2 * np.pi, 0.8], atol=1e-8)
    assert qlim1[0] <= sol.q[0] <= qlim1[1]


def test_ikine_long_batch_solves_every_pose():
    """300 poses at once: the long-batch linear solver (Cholesky over the batch) gives steps
    that reach every pose, as checked by forward kinematics."""
    from rvc import DHRobot, RevoluteDH

    arm = DHRobot([RevoluteDH(a=1), RevoluteDH(a=0.7)])
    rng = np.random.default_rng(5)
    Q = np.column_stack([rng.uniform(-3, 3, 300), rng.uniform(0.3, 2.8, 300)])   # elbow away from 0
    T = arm.fkine(Q)
    sol = ikine(arm, T, Q + 0.2, mask=[1, 1, 0, 0, 0, 1], search=False)
    assert np.all(sol.success)
    np.testing.assert_allclose(arm.fkine(sol.q), T, atol=1e-8)


@pytest.mark.parametrize("solver", ["ikine", "ikine_transpose"])
def test_tol_is_the_pose_error_in_metres_and_radians(solver):
    """One meaning of tol: a pose counts as reached when the position error is at most tol metres
    and the rotation error at most tol radians.  A target 0.5 m beyond a planar arm's reach (and a
    tilt of 0.3 rad it cannot make) leaves an error it cannot remove: a tol just above the error
    the solver gets to succeeds, just below fails."""
    from rvc import ikine_transpose, trotx
    from rvc.models import planar2
    p2 = planar2()                                               # two links of 1 m
    if solver == "ikine":
        def solve(*a, **k):
            return ikine(*a, search=False, **k)
    else:
        def solve(*a, **k):
            return ikine_transpose(*a, alpha=0.3, **k)
    for T, mask, err in ((transl(2.5, 0, 0), [1, 1, 0, 0, 0, 0], 0.5),
                         (trotx(0.3), [0, 0, 0, 1, 1, 0], 0.3)):
        kw = dict(q0=[0.2, 0.3], mask=mask, ilimit=300)
        closest = solve(p2, T, tol=0.9 * err, **kw)
        least = max(closest.position_error, closest.rotation_error)
        assert not closest.success and least == pytest.approx(err, rel=2e-2)
        assert solve(p2, T, tol=least * (1 + 1e-9), **kw).success
        assert not solve(p2, T, tol=least * (1 - 1e-9), **kw).success


def test_ikine6s_tol_is_the_pose_error_too():
    """ikine6s checks its closed-form answer with the same measure: with tol below the round-off
    of the forward kinematics nothing counts as reached, and the reason names the pose error."""
    p560 = puma560()
    T = p560.fkine(p560.qn)
    sol = ikine6s(p560, T, "ru")
    assert sol.success and max(sol.position_error, sol.rotation_error) < 1e-12
    tight = ikine6s(p560, T, "ru", tol=0.5 * max(sol.position_error, sol.rotation_error))
    assert not tight.success and "pose error" in tight.reason and "tol" in tight.reason
    loose = ikine6s(p560, T, "ru", tol=2 * max(sol.position_error, sol.rotation_error))
    assert loose.success


def test_search_and_slimit_are_one_option():
    """search=False is slimit=0; a contradictory pair is refused rather than one of them ignored."""
    p560 = puma560()
    far = transl(3, 0, 0)
    assert ikine(p560, far, search=False).searches == 0
    assert ikine(p560, far, slimit=0).searches == 0
    assert ikine(p560, far, slimit=2).searches == 2
    assert ikine(p560, far).searches == 10                        # the default
    with pytest.raises(ValueError, match="search, slimit: search=False makes no restarts"):
        ikine(p560, far, search=False, slimit=3)
    with pytest.raises(ValueError, match="search, slimit: search=True asks for restarts"):
        ikine(p560, far, search=True, slimit=0)


def test_ikine_transpose_runs_the_ikine_loop():
    """ikine_transpose is ik_search with the transpose step rule: the same loop as ikine."""
    from rvc import TransposeStep, ik_search, ikine_transpose
    p560 = puma560()
    T = p560.fkine(p560.qn)
    q0 = p560.qn + 0.1
    jt = ikine_transpose(p560, T, q0=q0, alpha=0.4)
    loop = ik_search(p560, T[None], q0[None], TransposeStep(0.4), tol=7e-6, ilimit=2000)
    assert loop.iterations[0] == jt.iterations and np.array_equal(loop.q[0], jt.q)
    # the batched loop (two rows) takes the same steps as the loop on floats (one row)
    both = ik_search(p560, np.stack([T, T]), np.stack([q0, q0 + 0.05]), TransposeStep(0.4), tol=7e-6,
                     ilimit=2000)
    assert both.iterations[0] == jt.iterations
    np.testing.assert_allclose(both.q[0], jt.q, atol=1e-12)


def _ik_robots():
    from rvc import DHRobot, PrismaticDH, RevoluteDH, RevoluteMDH, PrismaticMDH, rpy2tr, trotx
    from rvc.models import puma560_mdh
    base = transl(0.1, -0.2, 0.7) @ rpy2tr(0.3, -0.4, 1.1)
    tool = transl(0.02, 0.05, 0.2) @ trotx(0.6)
    rprrrr = DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2), PrismaticDH(theta=np.pi / 2, alpha=-np.pi / 2, offset=0.4),
                      RevoluteDH(a=0.4, alpha=np.pi / 2), RevoluteDH(alpha=-np.pi / 2, d=0.2),
                      RevoluteDH(alpha=np.pi / 2), RevoluteDH(d=0.1)], base=base, tool=tool)
    mdh = DHRobot([RevoluteMDH(d=0.3), RevoluteMDH(alpha=np.pi / 2, a=0.1), PrismaticMDH(a=0.3, offset=0.2),
                   RevoluteMDH(alpha=-np.pi / 2, d=0.2), RevoluteMDH(alpha=np.pi / 2), RevoluteMDH(alpha=-np.pi / 2)],
                  base=base, tool=tool)
    return {"puma560": puma560(), "puma560_mdh": puma560_mdh(), "RPRRRR base tool": rprrrr,
            "MDH RRPRRR base tool": mdh}


@pytest.mark.parametrize("name", ["puma560", "puma560_mdh", "RPRRRR base tool", "MDH RRPRRR base tool"])
def test_ikine_equals_the_plain_lm_loop(name):
    """ikine (search=False; one pose on floats, and a batch in rows) takes the steps of
    ikine_lm_reference, the textbook loop beside it."""
    from rvc import ikine_lm_reference
    robot = _ik_robots()[name]
    rng = np.random.default_rng(5)
    Q = rng.uniform(-1, 1, (12, 6))
    Q[:, ~np.asarray(robot.revolute)] = rng.uniform(0.1, 0.5, (12, int(np.sum(~np.asarray(robot.revolute)))))
    T = robot.fkine(Q)
    Q0 = Q + rng.uniform(-0.3, 0.3, Q.shape)
    batch = ikine(robot, T, Q0, search=False)
    for k in range(12):
        q, ok, it = ikine_lm_reference(robot, T[k], Q0[k])
        one = ikine(robot, T[k], Q0[k], search=False)
        assert (one.success, one.iterations) == (ok, it) == (batch.success[k], batch.iterations[k])
        np.testing.assert_allclose(one.q, q, atol=1e-8)
        np.testing.assert_allclose(batch.q[k], q, atol=1e-8)
    far = robot.base @ transl(5, 0, 0)                        # out of reach: both stall alike
    q, ok, it = ikine_lm_reference(robot, far, Q0[0])
    one = ikine(robot, far, Q0[0], search=False)
    assert not ok and (one.success, one.iterations) == (ok, it) and one.reason
    np.testing.assert_allclose(one.q, q, atol=1e-6)


def test_cholesky_solve_equals_the_reference():
    """The entry-by-entry batched Cholesky of the LM step equals cholesky_solve_reference."""
    import importlib

    from rvc import cholesky_solve_reference
    module = importlib.import_module("rvc.kinematics.ikine")
    rng = np.random.default_rng(31)
    for n in (1, 2, 6, 7):
        A = rng.normal(size=(300, n, n + 2))
        H = A @ np.swapaxes(A, -1, -2) + 1e-3 * np.eye(n)
        g = rng.normal(size=(300, n))
        ref = cholesky_solve_reference(H, g)
        np.testing.assert_allclose(module._cholesky_solve(H, g), ref, rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(H @ ref[..., None], g[..., None], atol=1e-9)
