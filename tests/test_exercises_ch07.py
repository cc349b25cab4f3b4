"""Chapter 7 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re
import warnings

import numpy as np
import pytest

from rvc import DHFactor, DHRobot, RevoluteDH, ctraj, ikine, ikine6s, transl, trotx, troty, trotz
from rvc.apps import hershey_strokes, letter_path
from rvc.exercises import check
from rvc.models import cobra600, puma560


def _numbers(x):
    """Ways an expected value could leak into feedback: 3- and 4-decimal renderings."""
    a = np.atleast_1d(np.asarray(x, dtype=float)).ravel()
    out = set()
    for v in a:
        if abs(v) > 1e-9:
            out |= {f"{v:.3f}", f"{v:.4f}", f"{v:.2f}"}
    return out


def feedback(capsys, exercise_id, answer):
    ok = check(exercise_id, answer)
    text = capsys.readouterr().out
    return ok, text


def assert_no_leak(text, expected):
    for s in _numbers(expected):
        # a leaked value appears as a number on its own, not as part of a longer one
        assert not re.search(rf"(?<![\d.]){re.escape(s)}(?!\d)", text), (s, text)


# ---------------------------------------------------------------- right answers

def answer_71():
    return DHRobot([RevoluteDH(a=0.8), RevoluteDH(a=0.5)]).fkine([0.3, 0.9])


def answer_72():
    a1 = a2 = 1.0
    x, y = 0.9, 1.1
    q2 = -np.arccos((x**2 + y**2 - a1**2 - a2**2) / (2 * a1 * a2))
    q1 = np.arctan2(y, x) - np.arctan2(a2 * np.sin(q2), a1 + a2 * np.cos(q2))
    return np.array([q1, q2])


def answer_73():
    p560 = puma560()
    T = transl(0.5, 0.2, 0.1) @ troty(np.pi / 2)
    lo, hi = p560.qlim
    n = 0
    for c in [a + b + w for a in "lr" for b in "ud" for w in "nf"]:
        sol = ikine6s(p560, T, c)
        sh = sol.q + 2 * np.pi * np.array([-1, 0, 1])[:, None]
        n += bool(sol.success and np.all(np.any((sh >= lo) & (sh <= hi), axis=0)))
    return n


def pose_74():
    return transl(0.4, -0.2, 0.2) @ trotz(-60, unit="deg") @ trotx(np.pi)


def answer_74():
    return ikine(cobra600(), pose_74(), mask=[1, 1, 1, 0, 0, 1], joint_limits=True,
                 search=True, seed=0).q


def elbow_other_74():
    """The other elbow solution: it reaches the pose but q1 is beyond its limit."""
    return ikine(cobra600(), pose_74(), q0=[0.5, 1, 0.1, 0], mask=[1, 1, 1, 0, 0, 1]).q


def traj_75():
    t = np.linspace(0, 3, 61)
    Ts = ctraj(transl(0.5, 0.4, 0.44) @ troty(np.pi / 2), transl(0.5, -0.2, 0.44) @ troty(np.pi / 2), t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = ikine6s(puma560(), Ts).q
    return t, q


def answer_75():
    t, q = traj_75()
    return float(t[np.argmin(np.abs(q[:, 4]))])


def answer_76():
    return DHFactor("Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", L1=0.3, L2=0.4, L3=0.25).robot("ex")


def answer_77():
    lp = letter_path(hershey_strokes("HI", scale=0.15), dt=0.02)
    return len(lp.t) * 0.02


RIGHT = {"7.1": answer_71, "7.2": answer_72, "7.3": answer_73, "7.4": answer_74,
         "7.5": answer_75, "7.6": answer_76, "7.7": answer_77}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answer_is_accepted(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert text.strip() == f"Exercise {exercise_id}: correct."


# ---------------------------------------------------------------- wrong answers

def wrong_answers():
    T71 = answer_71()
    q72 = answer_72()
    c600 = cobra600()
    q74 = answer_74()
    t75, q75 = traj_75()
    k75 = int(np.argmin(np.abs(q75[:, 4])))
    right73 = answer_73()
    yield "7.1", DHRobot([RevoluteDH(a=0.5), RevoluteDH(a=0.8)]).fkine([0.3, 0.9]), T71  # links swapped
    yield "7.1", DHRobot([RevoluteDH(a=0.8), RevoluteDH(a=0.5)]).fkine([0.3, 0.9], unit="deg"), T71
    yield "7.1", T71[np.ix_([0, 1, 3], [0, 1, 3])], T71  # SE(2) instead of SE(3)
    yield "7.1", None, T71
    yield "7.2", np.array([q72[0] + 2 * q72[1] * 0 - 0.2, q72[1]]), q72
    yield "7.2", np.array([np.arctan2(1.1, 0.9) - np.arctan2(np.sin(-q72[1]), 1 + np.cos(-q72[1])),
                           -q72[1]]), q72  # elbow down
    yield "7.2", -q72, q72
    yield "7.2", [1.0, 2.0, 3.0], q72
    yield "7.3", 8, right73
    yield "7.3", right73 + 1, right73
    yield "7.3", 2.5, right73
    yield "7.3", "three", right73
    yield "7.4", np.zeros(4), q74
    yield "7.4", ikine(c600, transl(0.4, -0.2, 0.2) @ trotz(60, unit="deg") @ trotx(np.pi),
                       mask=[1, 1, 1, 0, 0, 1], joint_limits=True, search=True, seed=0).q, q74  # wrong yaw
    yield "7.4", elbow_other_74(), q74                     # same pose, q1 out of its limits
    yield "7.4", q74[:3], q74
    yield "7.5", t75[k75] + 0.3, t75[k75]
    yield "7.5", float(k75), t75[k75]                         # a sample index, not a time
    yield "7.5", [t75[k75], 0.0], t75[k75]
    yield "7.6", DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2), RevoluteDH(a=0.4), RevoluteDH(a=0.25)]), None
    yield "7.6", DHFactor("Tz(L1) Rz(q1) Ry(q2) Tx(L2)", L1=0.3, L2=0.4).robot(), None
    yield "7.6", "Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", None
    lp = letter_path(hershey_strokes("HI", scale=0.15), dt=0.02)
    yield "7.7", float(len(lp.t)), len(lp.t) * 0.02               # samples, not seconds
    yield "7.7", len(letter_path(hershey_strokes("HI", scale=0.25), dt=0.02).t) * 0.02, len(lp.t) * 0.02


@pytest.mark.parametrize("exercise_id, answer, expected", list(wrong_answers()),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 6 else "")
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, exercise_id, answer, expected):
    ok, text = feedback(capsys, exercise_id, answer)
    assert not ok
    assert text.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    if expected is not None:
        assert_no_leak(text, expected)


def test_elbow_down_hint_names_the_branch(capsys):
    q = answer_72()
    x, y = 0.9, 1.1
    q2 = -q[1]
    q1 = np.arctan2(y, x) - np.arctan2(np.sin(q2), 1 + np.cos(q2))
    ok, text = feedback(capsys, "7.2", [q1, q2])
    assert not ok and "other side" in text


def test_joint_limit_hint(capsys):
    ok, text = feedback(capsys, "7.4", elbow_other_74())
    assert not ok and "q1" in text and "qlim" in text


def test_angle_shifted_by_two_pi_is_the_same_answer(capsys):
    ok, _ = feedback(capsys, "7.2", answer_72() + 2 * np.pi)
    assert ok
