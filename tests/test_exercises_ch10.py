"""Chapter 10 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re
from functools import cache

import numpy as np
import pytest

from exercise_leaks import assert_no_leak, feedback
from rvc.parallel import FiveBar, rigid_plan, simulate_move


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

def answer_101(robot=None):
    robot = robot or default_robot()
    q = undeflected(robot, (0.05, 0.35))
    A = robot.A(q)
    W = np.zeros((6, 4))
    W[robot.ic] = np.eye(4)
    W[robot.ip] = -np.linalg.solve(A[:, robot.ip], A[:, robot.ic])
    return W


def answer_102(robot=None):
    robot = robot or default_robot()
    q = undeflected(robot, (0.08, 0.30))
    eta = robot.tree_gravload(q)
    A = robot.A(q)
    return np.linalg.solve(A[:, robot.ip].T, eta[robot.ip])


def plan_103(robot=None):
    robot = robot or default_robot()
    return rigid_plan(robot, (0.0, 0.40), (0.10, 0.35), 0.25, np.linspace(0, 0.25, 251))


def answer_103(robot=None):
    robot = robot or default_robot()
    return float(np.abs(plan_103(robot).tau[:, robot.ce]).max())


def answer_104(robot=None):
    robot = robot or default_robot()
    f1 = robot.modes().frequency[0]
    return 500.0 * (40.0 / f1) ** 2


def answer_105(robot=None):
    robot = robot or default_robot()
    return robot.static_deflection((0.10, 0.30)).displacement


def answer_106(robot=None):
    robot = robot or default_robot()
    y = np.linspace(0.10, 0.55, 4501)
    q = robot.assemble(robot.ikine_rigid(np.stack([np.zeros_like(y), y], -1)), np.zeros((len(y), 2)))
    return float(y[np.argmax(robot.singularity(q)[1])])


def state_107(robot=None):
    robot = robot or default_robot()
    q = robot.assemble(robot.ikine_rigid((0.05, 0.38)), (0.01, -0.005))
    return q, np.array([0.5, -2.0, 0.3, 1.0]), np.array([0.8, -0.4])


def answer_107(robot=None):
    """SCDD by hand from the chains' own methods."""
    robot = robot or default_robot()
    q, qd, tau = state_107(robot)
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


POSES_108 = [(-0.10, 0.35), (0.0, 0.40), (0.10, 0.30)]


def sags_108(K, part=None):
    """Sag at the three poses: the length of the displacement (or one of its components)."""
    d = [FiveBar(K=K).static_deflection(x).displacement for x in POSES_108]
    return np.array([np.hypot(*v) if part is None else abs(v[part]) for v in d])


def answer_108(robot=None):
    """Bisection on each requirement: the frequency 35 Hz, the sag 0.2 mm at the worst pose."""
    def smallest(ok, lo=100.0, hi=20000.0):
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        return hi
    k_freq = smallest(lambda K: FiveBar(K=K).modes().frequency[0] >= 35.0)
    k_sag = smallest(lambda K: sags_108(K).max() <= 2e-4)
    return max(k_freq, k_sag)


DURATIONS_109 = np.arange(0.20, 0.41, 0.05)                 # 0.39999999999999997 and all


@cache
def vibrations_109():
    out = []
    for T in DURATIONS_109:
        move = simulate_move(default_robot(), (-0.12, 0.36), (0.12, 0.36), T, t_end=T + 0.15, dt=0.005)
        after = move.t >= T
        out.append(np.ptp(move.x[after], axis=0).max() / 2)     # half the peak-to-peak, by hand
    return np.array(out)


def answer_109(robot=None):
    vib = vibrations_109()
    k = int(np.flatnonzero(vib < 1e-4)[0])
    return DURATIONS_109[k], vib[k]


RIGHT = {"10.1": answer_101, "10.2": answer_102, "10.3": answer_103, "10.4": answer_104,
         "10.5": answer_105, "10.6": answer_106, "10.7": answer_107, "10.8": answer_108,
         "10.9": answer_109}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answer_is_accepted(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert text.strip() == f"Exercise {exercise_id}: correct."


def test_the_hand_scdd_is_the_rvc_one(robot):
    q, qd, tau = state_107(robot)
    np.testing.assert_allclose(answer_107(robot), robot.forward_dynamics(q, qd, tau, "scdd"),
                               rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------- wrong answers

def wrong_answers(robot=None):
    robot = robot or default_robot()
    W = answer_101(robot)
    flipped = W.copy()
    flipped[robot.ip] *= -1
    yield "10.1", W.T, W, "transposed"
    yield "10.1", flipped, W, "sign"
    yield "10.1", np.concatenate([W[robot.ic], W[robot.ip]]), W, "tree order"
    yield "10.1", np.eye(6, 4), W, None
    lam = answer_102(robot)
    yield "10.2", -lam, lam, "chain 2"
    yield "10.2", lam + [0.0, 1.0], lam, None
    yield "10.2", [1.0, 2.0, 3.0], lam, None
    plan = plan_103(robot)
    spring = answer_103(robot)
    yield "10.3", float(np.abs(plan.tau[:, robot.ca]).max()), spring, "motor"
    yield "10.3", float(np.abs(plan.tau[:, robot.ce]).max(axis=0).min()), spring, "both springs"
    yield "10.3", -spring, spring, "magnitude"
    yield "10.3", "big", spring, None
    K = answer_104(robot)
    yield "10.4", 2 * K, K, "too high"
    yield "10.4", K / 2, K, "too low"
    yield "10.4", 500.0 * (40.0 / robot.modes().frequency[1]) ** 2, K, "second mode"
    yield "10.4", -K, K, "positive"
    d = answer_105(robot)
    s = robot.static_deflection((0.10, 0.30))
    yield "10.5", d * 1e3, d, "millimetres"
    yield "10.5", s.deflection, d, "spring deflections"
    yield "10.5", -d, d, "sign"
    yield "10.5", robot.static_deflection((0.0, 0.40)).displacement, d, None
    y = answer_106(robot)
    yield "10.6", 0.30, y, "|det S|"
    yield "10.6", 0.9, y, "range"
    qdd = answer_107(robot)
    q, qd, tau = state_107(robot)
    qd_t = robot.velocities(q, qd)
    free = np.concatenate([c.accel(q[s], qd_t[s], [tau[k], 0, 0])
                           for k, (c, s) in enumerate(zip(robot.chains, robot.slices))])
    yield "10.7", free, qdd, "free accelerations"
    yield "10.7", qdd[robot.ic], qdd, "all six"
    yield "10.7", qdd + 0.1, qdd, None
    K = answer_108()
    k_freq = 500.0 * (35.0 / robot.modes().frequency[0]) ** 2
    yield "10.8", k_freq, K, "more than 0.2 mm"                  # the frequency alone
    yield "10.8", 0.9 * k_freq, K, "below 35 Hz"
    yield "10.8", 500.0 * sags_108(500.0)[1] / 2e-4, K, "at home"
    yield "10.8", 500.0 * sags_108(500.0, part=1).max() / 2e-4, K, "x and y parts"
    yield "10.8", 1.05 * K, K, "smaller one"
    yield "10.8", 0.97 * K, K, "more than 0.2 mm"
    yield "10.8", -K, K, "positive"
    T, vib = answer_109()
    durations = list(np.round(DURATIONS_109, 2))
    k = durations.index(round(T, 2))
    yield "10.9", (durations[k - 1], vibrations_109()[k - 1]), (T, vib), "more than 0.1 mm"
    yield "10.9", (durations[k + 1], vibrations_109()[k + 1]), (T, vib), "shorter one"
    yield "10.9", (T, 1e3 * vib), (T, vib), "millimetres"
    yield "10.9", (T, 2 * vib), (T, vib), "half the largest peak-to-peak"
    yield "10.9", (T, 1.2 * vib), (T, vib), "does not match"
    yield "10.9", (0.33, vib), (T, vib), "five the exercise lists"
    yield "10.9", T, (T, vib), "pair"


@pytest.fixture(scope="module")
def cases(robot):
    return list(wrong_answers(robot))


N_CASES = 38


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


def test_108_the_requirements_pull_apart(robot):
    """The sag at the worst pose decides, and each mistake the hints name gives another K."""
    K = answer_108()
    k_freq = 500.0 * (35.0 / robot.modes().frequency[0]) ** 2
    k_home = 500.0 * sags_108(500.0)[1] / 2e-4
    k_dy = 500.0 * sags_108(500.0, part=1).max() / 2e-4
    for other in (k_freq, k_home, k_dy):
        assert abs(other - K) > 0.01 * K
    assert np.argmax(sags_108(K)) == 2                             # the pose (0.10, 0.30)
    assert FiveBar(K=K).modes().frequency[0] > 35.0


def test_109_a_longer_move_is_not_always_quieter():
    """The durations straddle the bound, and the method's amplitude is the one by hand."""
    vib = vibrations_109()
    T, v = answer_109()
    assert 0.2 < T < 0.4 and vib[0] > 1e-4 > vib[-1]
    move = simulate_move(default_robot(), (-0.12, 0.36), (0.12, 0.36), T, t_end=T + 0.15, dt=0.005)
    assert move.residual_vibration() == pytest.approx(v, rel=1e-12)
