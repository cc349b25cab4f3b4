"""Chapter 10 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re
from functools import cache

import numpy as np
import pytest

from exercise_leaks import assert_no_leak, feedback
from support import frozen_cache
from scipy.optimize import fsolve

from rvc.models import delta_robot
from rvc.parallel import FiveBar, parallel_ikine, parallel_modes, scdd_forward, simulate_move


@cache
def default_robot():
    return FiveBar()


@pytest.fixture(scope="module")
def robot():
    return default_robot()


def undeflected(robot, x):
    return robot.assemble(robot.ikine_rigid(x), np.zeros(2))


# ---------------------------------------------------------------- right answers
# Each as a student would write it, by a route other than the checker's where one exists.

@frozen_cache
def answer_101(robot=None, down=True):
    """The four unknowns (two deflections, two torques) from the five-step SCDD at rest."""
    robot = robot or default_robot()
    f_ext = np.array([0.0, -0.3 * 9.81 if down else 0.3 * 9.81])
    qa = robot.ikine_rigid((0.06, 0.34))

    def at_rest(u):
        q = robot.assemble(qa, u[:2])
        return scdd_forward(robot, q, np.zeros(4), u[2:], f_ext)[robot.ic]

    u = fsolve(at_rest, np.zeros(4), xtol=1e-13)
    assert np.abs(at_rest(u)).max() < 1e-9
    return u[2:]


def cut_force_102(robot, y):
    """|lambda| at rest on x = 0, springs undeflected, by the passive rows: A_p^T lambda = eta_p."""
    y = np.atleast_1d(y)
    q = robot.assemble(robot.ikine_rigid(np.stack([np.zeros_like(y), y], -1)), np.zeros((len(y), 2)))
    A = robot.A(q)
    eta = robot.tree_gravload(q)
    lam = np.linalg.solve(np.swapaxes(A[..., :, robot.ip], -1, -2), eta[..., robot.ip, None])[..., 0]
    return lam


@frozen_cache
def answer_102(robot=None):
    robot = robot or default_robot()
    y = np.linspace(0.02, 0.40, 38001)                          # every 0.01 mm
    size = np.linalg.norm(cut_force_102(robot, y), axis=-1)
    home = np.linalg.norm(cut_force_102(robot, 0.40)[0])
    return float(y[np.argmin(np.abs(size - 10 * home))])


@frozen_cache
def answer_103(robot=None):
    robot = robot or default_robot()
    y = np.linspace(0.10, 0.55, 4501)
    q = robot.assemble(robot.ikine_rigid(np.stack([np.zeros_like(y), y], -1)), np.zeros((len(y), 2)))
    return float(y[np.argmax(robot.singularity(q)[1])])


def state_104(robot=None):
    robot = robot or default_robot()
    q = robot.assemble(robot.ikine_rigid((0.05, 0.38)), (0.01, -0.005))
    return q, np.array([0.5, -2.0, 0.3, 1.0]), np.array([0.8, -0.4])


def answer_104(robot=None):
    """SCDD by hand from the chains' own methods."""
    robot = robot or default_robot()
    q, qd, tau = state_104(robot)
    qd_t = robot.velocities(q, qd)
    free, resp, schur, rhs = [], [], np.zeros((2, 2)), np.zeros(2)
    for k, (c, s, sign) in enumerate(zip(robot.chains, robot.slices, (1.0, -1.0))):
        M = c.inertia(q[s])
        b = c.rne(q[s], qd_t[s], np.zeros(c.n))           # C qd + eta + K q + D qd
        t = np.zeros(c.n)
        t[0] = tau[k]
        Ai = sign * c.jacob0(q[s])
        q0 = np.linalg.solve(M, t - b)
        Y = np.linalg.solve(M, Ai.T)
        schur += Ai @ Y
        rhs -= Ai @ q0 + sign * c.jacob_dot(q[s], qd_t[s]) @ qd_t[s]
        free.append(q0)
        resp.append(Y)
    lam = np.linalg.solve(schur, rhs)
    return np.concatenate([q0 + Y @ lam for q0, Y in zip(free, resp)])


POSES_105 = [(-0.10, 0.35), (0.0, 0.40), (0.10, 0.30)]


def sags_105(K, part=None):
    """Sag at the three poses: the length of the displacement (or one of its components)."""
    d = [FiveBar(K=K).static_deflection(x).displacement for x in POSES_105]
    return np.array([np.hypot(*v) if part is None else abs(v[part]) for v in d])


@frozen_cache
def answer_105(robot=None):
    """Bisection on each requirement: the frequency 35 Hz, the sag 0.2 mm at the worst pose."""
    def smallest(ok, lo=100.0, hi=20000.0):
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        return hi
    k_freq = smallest(lambda K: FiveBar(K=K).modes().frequency[0] >= 35.0)
    k_sag = smallest(lambda K: sags_105(K).max() <= 2e-4)
    return max(k_freq, k_sag)


DURATIONS_106 = np.arange(0.20, 0.41, 0.05)                 # 0.39999999999999997 and all


@cache
def vibrations_106():
    out = []
    for T in DURATIONS_106:
        move = simulate_move(default_robot(), (-0.12, 0.36), (0.12, 0.36), T, t_end=T + 0.15, dt=0.005)
        after = move.t >= T
        out.append(np.ptp(move.x[after], axis=0).max() / 2)     # half the peak-to-peak, by hand
    return np.array(out)


def answer_106(robot=None):
    vib = vibrations_106()
    k = int(np.flatnonzero(vib < 1e-4)[0])
    return DURATIONS_106[k], vib[k]


@cache
def delta():
    return delta_robot()


@frozen_cache
def scan_107(sign=1.0, step=5e-4):
    """Walk the Delta's platform along sign * x (y = 0, z = -0.35) until inverse kinematics fails."""
    xs, qs, q = [0.0], [delta().q_home], delta().q_home
    while True:
        x = xs[-1] + step
        try:
            q = parallel_ikine(delta(), (sign * x, 0.0, -0.35), guess=q)
        except ValueError:
            return np.array(xs), np.array(qs)
        xs.append(x)
        qs.append(q)


def answer_107(robot=None, sign=1.0, mode=0):
    xs, qs = scan_107(sign)
    reach = xs[-1]
    x = 0.9 * reach
    near = int(np.argmin(np.abs(xs - x)))
    return np.array([reach, parallel_modes(delta(), (sign * x, 0.0, -0.35), guess=qs[near]).frequency[mode]])


RIGHT = {"10.1": answer_101, "10.2": answer_102, "10.3": answer_103, "10.4": answer_104,
         "10.5": answer_105, "10.6": answer_106, "10.7": answer_107}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answer_is_accepted(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert text.strip() == f"Exercise {exercise_id}: correct."


def test_the_hand_scdd_is_the_rvc_one(robot):
    q, qd, tau = state_104(robot)
    np.testing.assert_allclose(answer_104(robot), robot.forward_dynamics(q, qd, tau, "scdd"),
                               rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------- wrong answers

def wrong_answers(robot=None):
    robot = robot or default_robot()
    tau = answer_101(robot)
    f_ext = np.array([0.0, -0.3 * 9.81])
    q0 = undeflected(robot, (0.06, 0.34))
    eta0 = robot.W(q0).T @ robot.tree_gravload(q0)
    G0 = robot.jacobian(q0)
    yield "10.1", (eta0 - G0.T @ f_ext)[robot.ca], tau, "undeflected"
    sag = robot.static_deflection((0.06, 0.34)).q                 # no payload: the gravity sag alone
    yield "10.1", (robot.W(sag).T @ robot.tree_gravload(sag))[robot.ca], tau, "without its payload"
    yield "10.1", (-G0.T @ f_ext)[robot.ca], tau, "not only on the payload"
    yield "10.1", answer_101(robot, down=False), tau, "points down"
    yield "10.1", -tau, tau, "sign"
    yield "10.1", tau + [0.05, 0.0], tau, None
    yield "10.1", [1.0, 2.0, 3.0], tau, None
    y = answer_102(robot)
    home = cut_force_102(robot, 0.40)[0]
    ys = np.linspace(0.02, 0.40, 38001)
    lam_x = np.abs(cut_force_102(robot, ys)[:, 0])
    yield "10.2", float(ys[np.argmin(np.abs(lam_x - 10 * abs(home[0])))]), y, "both of its components"
    det_s = robot.singularity(robot.assemble(robot.ikine_rigid(np.stack([np.zeros_like(ys), ys], -1)),
                                             np.zeros((len(ys), 2))))[1]
    yield "10.2", float(ys[np.argmin(np.abs(det_s - det_s[-1] / 10))]), y, "type-II measure"
    yield "10.2", 0.5, y, "range"
    yield "10.2", 0.2, y, None
    y = answer_103(robot)
    yield "10.3", 0.30, y, "|det S|"
    yield "10.3", 0.9, y, "range"
    qdd = answer_104(robot)
    q, qd, tau = state_104(robot)
    qd_t = robot.velocities(q, qd)
    free = np.concatenate([c.accel(q[s], qd_t[s], [tau[k], 0, 0])
                           for k, (c, s) in enumerate(zip(robot.chains, robot.slices))])
    yield "10.4", free, qdd, "free accelerations"
    yield "10.4", qdd[robot.ic], qdd, "all six"
    yield "10.4", qdd + 0.1, qdd, None
    K = answer_105()
    k_freq = 500.0 * (35.0 / robot.modes().frequency[0]) ** 2
    yield "10.5", k_freq, K, "more than 0.2 mm"                  # the frequency alone
    yield "10.5", 0.9 * k_freq, K, "below 35 Hz"
    yield "10.5", 500.0 * sags_105(500.0)[1] / 2e-4, K, "at home"
    yield "10.5", 500.0 * sags_105(500.0, part=1).max() / 2e-4, K, "x and y parts"
    yield "10.5", 1.05 * K, K, "smaller one"
    yield "10.5", 0.97 * K, K, "more than 0.2 mm"
    yield "10.5", -K, K, "positive"
    T, vib = answer_106()
    durations = list(np.round(DURATIONS_106, 2))
    k = durations.index(round(T, 2))
    yield "10.6", (durations[k - 1], vibrations_106()[k - 1]), (T, vib), "more than 0.1 mm"
    yield "10.6", (durations[k + 1], vibrations_106()[k + 1]), (T, vib), "shorter one"
    yield "10.6", (T, 1e3 * vib), (T, vib), "millimetres"
    yield "10.6", (T, 2 * vib), (T, vib), "half the largest peak-to-peak"
    yield "10.6", (T, 1.2 * vib), (T, vib), "does not match"
    yield "10.6", (0.33, vib), (T, vib), "five the exercise lists"
    yield "10.6", T, (T, vib), "pair"
    a = answer_107()
    yield "10.7", a * [1e3, 1.0], a, "metres"
    yield "10.7", a * [-1.0, 1.0], a, "positive"
    yield "10.7", answer_107(sign=-1.0), a, "the other way"
    yield "10.7", [a[0], parallel_modes(delta()).frequency[0]], a, "at home"
    yield "10.7", a * [1.0, 2 * np.pi], a, "rad/s"
    yield "10.7", [a[0], answer_107(mode=2)[1]], a, "highest"
    yield "10.7", a + [3e-3, 0.0], a, "still assembles"             # near misses, outside 0.5 %
    yield "10.7", a * [1.0, 1.01], a, "of 2 values"
    yield "10.7", a[:1], a, None


@pytest.fixture(scope="module")
def cases(robot):
    return list(wrong_answers(robot))


N_CASES = 39


def test_all_wrong_answers_are_tried(cases):
    assert len(cases) == N_CASES
    assert {c[0] for c in cases} == set(RIGHT)


@pytest.mark.parametrize("case", range(N_CASES))
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, cases, case):
    exercise_id, answer, expected, phrase = cases[case]
    ok, text = feedback(capsys, exercise_id, answer)
    assert not ok
    assert text.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    assert_no_leak(text, expected, skip_whole=True)
    if phrase:
        assert phrase in text, text
    hint = text.split("Hint:", 1)[1]
    # the idea or the mistake, never the code: no calls, attributes, indexing, numpy, flags
    assert not re.search(r"\b[A-Za-z_]\w*\(|\b[a-z_]\w+\.[a-z_]\w+|\[:|\bnp\.|=True|=False", hint), hint


def test_105_the_requirements_pull_apart(robot):
    """The sag at the worst pose decides, and each mistake the hints name gives another K."""
    K = answer_105()
    k_freq = 500.0 * (35.0 / robot.modes().frequency[0]) ** 2
    k_home = 500.0 * sags_105(500.0)[1] / 2e-4
    k_dy = 500.0 * sags_105(500.0, part=1).max() / 2e-4
    for other in (k_freq, k_home, k_dy):
        assert abs(other - K) > 0.01 * K
    assert np.argmax(sags_105(K)) == 2                             # the pose (0.10, 0.30)
    assert FiveBar(K=K).modes().frequency[0] > 35.0


def test_107_the_mistakes_pull_apart():
    """The reach either way differs by more than the tolerance, and so do the modes the hints name."""
    a, other = answer_107(), answer_107(sign=-1.0)
    assert abs(a[0] - other[0]) > 0.005 * a[0] and abs(a[1] - other[1]) > 0.005 * a[1]
    assert a[1] < 0.6 * parallel_modes(delta()).frequency[0]        # softer near the edge than at home
    xs, qs = scan_107()
    assert np.abs(delta().h(qs[-1])).max() < 1e-10 and 0.3 < xs[-1] < 0.5


def test_106_a_longer_move_is_not_always_quieter():
    """The durations straddle the bound, and the method's amplitude is the one by hand."""
    vib = vibrations_106()
    T, v = answer_106()
    assert 0.2 < T < 0.4 and vib[0] > 1e-4 > vib[-1]
    move = simulate_move(default_robot(), (-0.12, 0.36), (0.12, 0.36), T, t_end=T + 0.15, dt=0.005)
    assert move.residual_vibration() == pytest.approx(v, rel=1e-12)
