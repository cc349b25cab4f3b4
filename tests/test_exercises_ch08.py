"""Chapter 8 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re

import numpy as np
import pytest
from scipy.linalg import null_space

import rvc
from rvc import rrmc2, transl, trotx
from rvc.exercises import check
from rvc.models import baxter, puma560


def _numbers(x):
    a = np.atleast_1d(np.asarray(x, dtype=float)).ravel()
    out = set()
    for v in a:
        if abs(v) > 1e-9:
            out |= {f"{v:.3f}", f"{v:.4f}", f"{v:.2f}"}
    return out


def feedback(capsys, exercise_id, answer):
    ok = check(exercise_id, answer)
    return ok, capsys.readouterr().out


def assert_no_leak(text, expected):
    for s in _numbers(expected):
        assert not re.search(rf"(?<![\d.]){re.escape(s)}(?!\d)", text), (s, text)


# ---------------------------------------------------------------- right answers, found other ways

def answer_81():
    """By hand: x = a1 c1 + a2 c12, y = a1 s1 + a2 s12, differentiated."""
    a1, a2, q1, q2 = 0.8, 0.5, 0.3, 0.9
    return np.array([[-a1 * np.sin(q1) - a2 * np.sin(q1 + q2), -a2 * np.sin(q1 + q2)],
                     [a1 * np.cos(q1) + a2 * np.cos(q1 + q2), a2 * np.cos(q1 + q2)]])


def answer_82():
    """Finite differences of tr2eul along the joint-rate direction."""
    p560 = puma560()
    qd = np.array([0.1, -0.2, 0.3, 0.1, 0.2, -0.1])
    h = 1e-6
    return (rvc.tr2eul(p560.fkine(p560.qn + h * qd)) - rvc.tr2eul(p560.fkine(p560.qn - h * qd))) / (2 * h)


def answer_83():
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(1.0)
    return np.linalg.solve(p560.jacob0(q), [0, 0, 0, 0.1, 0, 0])


def answer_84():
    p560 = puma560()
    return p560.jacobe(p560.qn).T @ np.array([0, 0, 10.0, 0, 0, 2.0])


def answer_85():
    left = baxter("left")
    J = left.jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    N = null_space(J)
    return np.linalg.pinv(J) @ [0, 0, 0.05, 0, 0, 0] + N @ np.linalg.pinv(N) @ [0.2, 0, 0, 0, 0, 0, 0]


def answer_86():
    """Force along y with |tau| = 1: 1 / |(J^T)(0, 1)| = 1 / sqrt((1 + c2)^2 + c2^2), largest at c2 = -1/2."""
    return 2 * np.pi / 3


def answer_87():
    p560 = puma560()
    goal = transl(0.1, -0.1, 0.05) @ p560.fkine(p560.qn) @ trotx(0.2)
    r = rrmc2(p560, p560.qn, goal, gain=2.0, dt=0.05, steps=80)
    k = np.flatnonzero(np.linalg.norm(r.e[:, :3], axis=1) < 1e-3)[0]
    return k * 0.05


ANSWERS = {"8.1": answer_81, "8.2": answer_82, "8.3": answer_83, "8.4": answer_84, "8.5": answer_85,
           "8.6": answer_86, "8.7": answer_87}


@pytest.mark.parametrize("exercise_id", sorted(ANSWERS))
def test_right_answers_pass(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, ANSWERS[exercise_id]())
    assert ok, text
    assert "correct" in text


# ---------------------------------------------------------------- typical mistakes

def test_81_hints(capsys):
    J = answer_81()
    full = np.zeros((6, 2))
    full[:2] = J
    for wrong, words in [(full, "6x2"), (J.T, "transposed"), (J[:, ::-1], "swapped"),
                         (J * 1.1, "link lengths")]:
        ok, text = feedback(capsys, "8.1", wrong)
        assert not ok and words in text, text
        assert_no_leak(text, J)


def test_82_hints(capsys):
    p560 = puma560()
    qd = np.array([0.1, -0.2, 0.3, 0.1, 0.2, -0.1])
    omega = (p560.jacob0(p560.qn) @ qd)[3:]
    ok, text = feedback(capsys, "8.2", omega)
    assert not ok and "angular velocity" in text
    with pytest.warns(rvc.SingularityWarning):                  # qn is at rpy gimbal lock
        rpy = (p560.jacob0(p560.qn, "rpy/xyz") @ qd)[3:]
    ok, text = feedback(capsys, "8.2", rpy)
    assert not ok and "roll-pitch-yaw" in text
    ok, text = feedback(capsys, "8.2", [1, 2])
    assert not ok and "shape (3,)" in text
    assert_no_leak(text, answer_82())


def test_83_hints(capsys):
    p560 = puma560()
    q = p560.qn
    q[4] = np.radians(1.0)
    J = p560.jacob0(q)
    ok, text = feedback(capsys, "8.3", np.linalg.solve(J, [0.1, 0, 0, 0, 0, 0]))
    assert not ok and "(linear, angular)" in text
    q[4] = 1.0                                                  # degrees taken as radians
    ok, text = feedback(capsys, "8.3", np.linalg.solve(p560.jacob0(q), [0, 0, 0, 0.1, 0, 0]))
    assert not ok and "radians" in text
    assert_no_leak(text, answer_83())


def test_84_hints(capsys):
    p560 = puma560()
    w = np.array([0, 0, 10.0, 0, 0, 2.0])
    ok, text = feedback(capsys, "8.4", p560.jacob0(p560.qn).T @ w)
    assert not ok and "tool's axes" in text
    ok, text = feedback(capsys, "8.4", -answer_84())
    assert not ok and "sign" in text
    assert_no_leak(text, answer_84())


def test_85_hints(capsys):
    left = baxter("left")
    J = left.jacob0([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])
    mn = np.linalg.pinv(J) @ [0, 0, 0.05, 0, 0, 0]
    ok, text = feedback(capsys, "8.5", mn)
    assert not ok and "null-space part" in text
    ok, text = feedback(capsys, "8.5", mn + np.array([0.2, 0, 0, 0, 0, 0, 0]))
    assert not ok and "projected" in text
    assert_no_leak(text, answer_85())


def test_86_hints(capsys):
    ok, text = feedback(capsys, "8.6", np.pi / 2)
    assert not ok and "manipulability" in text
    ok, text = feedback(capsys, "8.6", 120.0)
    assert not ok and "between 0 and pi" in text
    ok, text = feedback(capsys, "8.6", 1.0)
    assert not ok
    assert_no_leak(text, answer_86())
    assert "2.09" not in text and "120" not in text


def test_87_hints(capsys):
    t = answer_87()
    p560 = puma560()
    goal = transl(0.1, -0.1, 0.05) @ p560.fkine(p560.qn) @ trotx(0.2)
    r = rrmc2(p560, p560.qn, goal, gain=2.0, dt=0.05, steps=80)
    t_full = r.t[np.flatnonzero(np.linalg.norm(r.e, axis=1) < 1e-3)[0]]
    assert abs(t_full - t) > 0.05                               # the exercise separates the two
    ok, text = feedback(capsys, "8.7", t_full)
    assert not ok and "position error only" in text
    ok, text = feedback(capsys, "8.7", round(t / 0.05))
    assert not ok and "sample index" in text
    ok, text = feedback(capsys, "8.7", t + 0.05)
    assert not ok and "one sample off" in text
    assert_no_leak(text, t)


def test_malformed_answers_get_feedback_not_tracebacks(capsys):
    for eid in ANSWERS:
        for bad in (None, "x", [np.nan] * 6, np.ones((3, 3, 3))):
            ok, text = feedback(capsys, eid, bad)
            assert not ok and "not yet" in text
