"""Chapter 8 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re
import warnings

import numpy as np
import pytest
from scipy.linalg import null_space

import rvc
from rvc import DHRobot, RevoluteDH, manipulability, rrmc2
from exercise_leaks import assert_no_leak, feedback
from support import frozen_cache
from rvc.models import baxter, puma560


# ---------------------------------------------------------------- right answers, found other ways

def answer_81():
    """By hand: x = a1 c1 + a2 c12, y = a1 s1 + a2 s12, differentiated."""
    a1, a2, q1, q2 = 0.8, 0.5, 0.3, 0.9
    return np.array([[-a1 * np.sin(q1) - a2 * np.sin(q1 + q2), -a2 * np.sin(q1 + q2)],
                     [a1 * np.cos(q1) + a2 * np.cos(q1 + q2), a2 * np.cos(q1 + q2)]])


@frozen_cache
def answer_82():
    """Scan the wrist over its joint range: where is the ZYZ angle theta (tool z from world z) 0 or pi?"""
    p560 = puma560()
    q5s = np.arange(p560.qlim[0, 4], p560.qlim[1, 4], 1e-4)
    Q = np.tile(p560.qn, (q5s.size, 1))
    Q[:, 4] = q5s
    theta = rvc.tr2eul(p560.fkine(Q))[:, 1]
    return q5s[np.argmin(np.abs(np.sin(theta)))]


def rates_83(q5, v=(0, 0, 0, 0.1, 0, 0)):
    p560 = puma560()
    q = p560.qn
    q[4] = q5
    return np.linalg.solve(p560.jacob0(q), v)


def bisect(f, lo, hi, n=60):
    """The root of f, true at lo and false at hi."""
    for _ in range(n):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) else (lo, mid)
    return (lo + hi) / 2


def answer_83():
    """Bisection on the wrist angle: too fast at 0.1 deg, slow enough at 20 deg."""
    return bisect(lambda s: np.abs(rates_83(s)).max() > 2.0, np.radians(0.1), np.radians(20))


TAU_MAX_84 = np.array([50.0, 80.0, 40.0, 10.0, 10.0, 10.0])


def per_joint_84(J):
    """The force (N, straight down) at which each joint reaches its limit; inf for a joint it spares."""
    tau = np.abs(J.T @ [0, 0, -1.0, 0, 0, 0])
    with np.errstate(divide="ignore"):
        return np.where(tau > 1e-9, TAU_MAX_84 / tau, np.inf)


def answer_84():
    p560 = puma560()
    return per_joint_84(p560.jacob0(p560.qn)).min()


def answer_85():
    left = baxter("left")
    J = left.jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    N = null_space(J)
    return np.linalg.pinv(J) @ [0, 0, 0.05, 0, 0, 0] + N @ np.linalg.pinv(N) @ [0.2, 0, 0, 0, 0, 0, 0]


def answer_86():
    """Force along y with |tau| = 1: 1 / |(J^T)(0, 1)| = 1 / sqrt((1 + c2)^2 + c2^2), largest at c2 = -1/2."""
    return 2 * np.pi / 3


def answer_87():
    """Joint 1 is still: the other six joints alone must give the velocity (a square system)."""
    J = baxter("left").jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    return np.r_[0.0, np.linalg.solve(J[:, 1:], [0, 0, 0.05, 0, 0, 0])]


def answer_88():
    """The tool point is over the waist axis: its reach a2 cos q2 + a3 cos(q2 + q3) is zero."""
    a2, a3, q3 = 0.4, 0.3, np.pi / 3
    return np.arctan2(a2 + a3 * np.cos(q3), a3 * np.sin(q3))


def elbow_arm():
    return DHRobot([RevoluteDH(d=0.5, alpha=np.pi / 2), RevoluteDH(a=0.4), RevoluteDH(a=0.3)])


def runs_89(lams, method="dls"):
    """Closed-loop RRMC from qn with q5 = 1 deg to the tool turned 0.3 rad about world x, in place."""
    return _runs_89(tuple(float(lam) for lam in np.atleast_1d(lams)), method)


@frozen_cache
def _runs_89(lams, method):
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(1.0)
    T = p560.fkine(q)
    goal = np.eye(4)
    goal[:3, :3] = rvc.rotx(0.3) @ T[:3, :3]
    goal[:3, 3] = T[:3, 3]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [rrmc2(p560, q, goal, gain=2.0, dt=0.05, steps=60, method=method, damping=lam)
                for lam in lams]


LAMS_89 = 10.0 ** np.arange(-5, -0.99, 0.25)


def peaks_89():
    return np.array([np.abs(r.qd).max() for r in runs_89(LAMS_89)])


def answer_89():
    peak = peaks_89()
    return LAMS_89[np.flatnonzero(peak < 4.0)[0]]


RIGHT = {"8.1": answer_81, "8.2": answer_82, "8.3": answer_83, "8.4": answer_84, "8.5": answer_85,
         "8.6": answer_86, "8.7": answer_87, "8.8": answer_88, "8.9": answer_89}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answers_pass(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert "correct" in text


# ---------------------------------------------------------------- typical mistakes

def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


def wrong_answers():
    """(exercise id, a typical wrong answer, the right answer, words the hint must contain)."""
    J = answer_81()
    full = np.zeros((6, 2))
    full[:2] = J
    yield "8.1", full, J, "6x2"
    yield "8.1", J.T, J, "transposed"
    yield "8.1", J[:, ::-1], J, "swapped"
    yield "8.1", J * 1.1, J, "link lengths"

    p560 = puma560()
    q5 = answer_82()
    yield "8.2", np.degrees(q5), q5, "radians"
    yield "8.2", 0.0, q5, "own wrist singularity"
    yield "8.2", p560.qn[4], q5, "roll-pitch-yaw"
    yield "8.2", q5 + np.pi, q5, "joint limits"
    yield "8.2", 0.5, q5, "ZYZ angles themselves"
    yield "8.2", [1, 2], q5, "one number"

    s = answer_83()
    yield "8.3", -s, s, "positive"
    yield "8.3", np.degrees(s), s, "radians"
    yield "8.3", bisect(lambda x: np.linalg.norm(rates_83(x)) > 2.0, 1e-3, 0.3), s, "length of the whole"
    yield "8.3", 0.8 * s, s, "faster than the limit"
    yield "8.3", 1.5 * s, s, "a smaller one does too"

    F = answer_84()
    J = p560.jacob0(p560.qn)
    yield "8.4", 1 / np.linalg.norm(J.T @ [0, 0, -1.0, 0, 0, 0] / TAU_MAX_84), F, "ellipsoid"
    yield "8.4", per_joint_84(J)[np.isfinite(per_joint_84(J))].max(), F, "weakest joint"
    yield "8.4", per_joint_84(p560.jacobe(p560.qn)).min(), F, "world axes"
    yield "8.4", -F, F, "positive"
    yield "8.4", 1.2 * F, F, "its own limit"

    left = baxter("left")
    Jb = left.jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    mn = np.linalg.pinv(Jb) @ [0, 0, 0.05, 0, 0, 0]
    yield "8.5", mn, answer_85(), "null-space part"
    yield "8.5", mn + np.array([0.2, 0, 0, 0, 0, 0, 0]), answer_85(), "projected"

    q2 = answer_86()
    yield "8.6", np.pi / 2, q2, "manipulability"
    yield "8.6", 120.0, q2, "between 0 and pi"
    yield "8.6", 1.0, q2, ""

    right = answer_87()
    Jb = baxter("left").jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    mn = np.linalg.pinv(Jb) @ [0, 0, 0.05, 0, 0, 0]
    n = null_space(Jb)[:, 0]
    yield "8.7", mn, right, "minimum-norm"
    yield "8.7", mn - n * n[0] * mn[0], right, "only shrinks it"            # the projection of qd_1
    yield "8.7", mn + 0.05 * n, right, "stand still"
    yield "8.7", right + 0.01, right, "tool velocity"
    yield "8.7", right[1:], right, "seven rates"

    q2 = answer_88()
    yield "8.8", np.degrees(q2), q2, "radians"
    yield "8.8", q2 - np.pi, q2, "reaching backwards"
    yield "8.8", np.pi - q2, q2, "elbow bent the other way"                # q3 = -pi/3
    yield "8.8", np.arctan2(0.3 + 0.4 * np.cos(np.pi / 3), 0.4 * np.sin(np.pi / 3)), q2, "DH table"
    yield "8.8", np.pi / 2, q2, "translational rows"
    yield "8.8", -0.5, q2, "between 0 and pi"

    lam = answer_89()
    k = int(np.flatnonzero(np.isclose(LAMS_89, lam))[0])
    yield "8.9", LAMS_89[k - 1], lam, "faster than 4 rad/s"
    yield "8.9", LAMS_89[k + 2], lam, "smaller one on the grid"
    yield "8.9", np.log10(lam), lam, "logarithm"
    yield "8.9", 2 * lam, lam, "grid"
    yield "8.9", LAMS_89[k + 1], lam, "length of the whole joint-rate vector"  # peak of |qd|, see below


@pytest.fixture(scope="module")
def cases():
    return list(wrong_answers())


N_CASES = 41        # built when the tests run, not when they are collected


def test_every_exercise_has_wrong_answers(cases):
    assert len(cases) == N_CASES
    assert {c[0] for c in cases} == set(RIGHT)


@pytest.mark.parametrize("case", range(N_CASES))
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, cases, case):
    exercise_id, answer, expected, words = cases[case]
    ok, text = feedback(capsys, exercise_id, answer)
    assert not ok
    assert text.startswith(f"Exercise {exercise_id}: not yet. Hint: "), text
    assert words in text, text
    assert_no_leak(text, expected)
    hint = text.split("Hint:", 1)[1]
    # the idea or the mistake, never the code: no calls, attributes, indexing, numpy, flags
    assert not re.search(r"\b[A-Za-z_]\w*\(|\b[a-z_]\w+\.[a-z_]\w+|\[:|\bnp\.|=True|=False", hint), hint


def test_qn_is_at_rpy_gimbal_lock():
    """Why 8.2's roll-pitch-yaw mistake is a mistake: qn is at gimbal lock for RPY, not for ZYZ."""
    p560 = puma560()
    with pytest.warns(rvc.SingularityWarning):
        p560.jacob0(p560.qn, "rpy/xyz")
    assert abs(np.linalg.det(p560.jacob0(p560.qn, "eul"))) > 1e-3


def test_82_the_analytical_jacobian_alone_is_singular_there():
    p560 = puma560()
    q = p560.qn
    q[4] = answer_82()
    assert abs(np.linalg.det(p560.jacob0(q))) > 1e-3                    # the robot is not singular
    q[4] += 0.01
    near = np.abs(p560.jacob0(q, "eul")).max()
    q[4] += 0.2
    assert near > 10 * np.abs(p560.jacob0(q, "eul")).max()              # the angle rates blow up


def test_83_the_rates_grow_as_one_over_the_wrist_angle():
    s = answer_83()
    assert np.abs(rates_83(s / 2)).max() == pytest.approx(2 * np.abs(rates_83(s)).max(), rel=1e-2)


def test_84_two_joints_nearly_tie_and_the_ball_is_far_below():
    J = puma560().jacob0(puma560().qn)
    each = np.sort(per_joint_84(J)[np.isfinite(per_joint_84(J))])
    assert each[1] / each[0] < 1.05                                      # the weakest is not obvious
    assert 1 / np.linalg.norm(J.T @ [0, 0, -1.0, 0, 0, 0] / TAU_MAX_84) < 0.8 * each[0]


def test_87_the_answer_moves_the_tool_and_keeps_joint_1_still():
    right = answer_87()
    J = baxter("left").jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    assert J @ right == pytest.approx([0, 0, 0.05, 0, 0, 0], abs=1e-12) and right[0] == 0


NEAR_MISS = {"8.2": 2e-3, "8.3": 1e-5, "8.4": 1e-4 * answer_84()}


@pytest.mark.parametrize("exercise_id", sorted(NEAR_MISS))
def test_near_misses_just_outside_the_band_are_refused(capsys, exercise_id):
    right, band = RIGHT[exercise_id](), NEAR_MISS[exercise_id]
    assert feedback(capsys, exercise_id, right + 0.5 * band)[0]
    assert not feedback(capsys, exercise_id, right + 1.5 * band)[0]
    assert not feedback(capsys, exercise_id, right - 1.5 * band)[0]


def test_87_near_miss_is_refused(capsys):
    right = answer_87()
    assert not feedback(capsys, "8.7", right + [0, 1e-4, 0, 0, 0, 0, 0])[0]


def test_86_hint_names_no_angle(capsys):
    ok, text = feedback(capsys, "8.6", 1.0)
    assert not ok
    assert "2.09" not in text and "120" not in text


def test_88_the_answer_is_where_the_translational_jacobian_loses_rank():
    arm, q2 = elbow_arm(), answer_88()
    q = [0.0, q2, np.pi / 3]
    assert arm.fkine(q)[:2, 3] == pytest.approx([0, 0], abs=1e-12)      # over the waist axis
    assert abs(np.linalg.det(arm.jacob0(q)[:3])) < 1e-12
    assert np.linalg.matrix_rank(arm.jacob0(q)) == 3                     # the full J does not show it
    assert rvc.jsingu(arm.jacob0(q)[:3]).dependent == (0,)               # the waist is lost
    near = manipulability(arm, [[0.0, q2 + d, np.pi / 3] for d in (-0.1, 0.1)], axes="trans")
    assert np.all(near > 1e-3)


def test_89_the_search_matters_and_the_mistakes_differ():
    peak = peaks_89()
    plain = runs_89([0.0], method="inv")[0]
    assert np.abs(plain.qd).max() > 20                          # the undamped arm whirls
    k = int(np.flatnonzero(peak < 4.0)[0])
    assert 0 < k < len(LAMS_89) - 2
    assert np.all(peak[k:] < 4.0)                               # monotone beyond the answer
    norms = np.array([np.linalg.norm(r.qd, axis=1).max() for r in runs_89(LAMS_89)])
    assert int(np.flatnonzero(norms < 4.0)[0]) == k + 1         # the 2-norm mistake lands next door
    stray = [np.linalg.norm(r.e[:, :3], axis=1).max() for r in runs_89(LAMS_89[[0, k, -1]])]
    assert stray[0] < stray[1] < stray[2]                       # damping costs accuracy


def test_malformed_answers_get_feedback_not_tracebacks(capsys):
    for eid in RIGHT:
        for bad in (None, "x", [np.nan] * 6, np.ones((3, 3, 3))):
            ok, text = feedback(capsys, eid, bad)
            assert not ok and "not yet" in text
