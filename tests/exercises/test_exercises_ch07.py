"""Chapter 7 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import warnings

import numpy as np
import pytest

from rvc import (DHFactor, DHRobot, RevoluteDH, ctraj, hershey_strokes, ikine, ikine6s, ink_fraction,
                 letter_path, manipulability, transl, trotx, troty, trotz)
from exercise_leaks import assert_no_leak, feedback
from rvc.exercises.ch07 import PIVOT_Q
from rvc.models import cobra600, puma560


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


# ---------------------------------------------------------------- right answers
# (each written the way a student would, independently of the checker's code)

def answer_71():
    return DHRobot([RevoluteDH(a=0.8), RevoluteDH(a=0.5)]).fkine([0.3, 0.9])


def answer_72():
    # each joint turns about z through (x_j, 0, 0), x = 0, 1, 2: v = -w x q = (0, -x_j, 0)
    return np.array([[0, -x, 0, 0, 0, 1] for x in (0.0, 1.0, 2.0)], dtype=float)


def answer_73():
    # pivot calibration: R_i t - p = -t_i for every configuration, least squares in (t, p)
    T = puma560().fkine(PIVOT_Q)
    A = np.vstack([np.hstack([Ti[:3, :3], -np.eye(3)]) for Ti in T])
    b = np.concatenate([-Ti[:3, 3] for Ti in T])
    return np.linalg.lstsq(A, b, rcond=None)[0][:3]


def answer_74():
    a1 = a2 = 1.0
    x, y = 0.9, 1.1
    q2 = -np.arccos((x**2 + y**2 - a1**2 - a2**2) / (2 * a1 * a2))
    q1 = np.arctan2(y, x) - np.arctan2(a2 * np.sin(q2), a1 + a2 * np.cos(q2))
    return np.array([q1, q2])


def answer_75():
    p560 = puma560()
    T = transl(0.5, 0.2, 0.1) @ troty(np.pi / 2)
    lo, hi = p560.qlim
    n = 0
    for c in [a + b + w for a in "lr" for b in "ud" for w in "nf"]:
        sol = quiet(ikine6s, p560, T, c)
        sh = sol.q + 2 * np.pi * np.array([-1, 0, 1])[:, None]
        n += bool(sol.success and np.all(np.any((sh >= lo) & (sh <= hi), axis=0)))
    return n


def pose_76():
    return transl(0.4, -0.2, 0.2) @ trotz(30, unit="deg") @ trotx(np.pi)


def answer_76():
    return ikine(cobra600(), pose_76(), mask=[1, 1, 1, 0, 0, 1], joint_limits=True,
                 search=True, seed=0).q


def plain_76():
    """The plain masked solution from q0 = 0: it reaches the pose with q1 beyond its limit."""
    return ikine(cobra600(), pose_76(), mask=[1, 1, 1, 0, 0, 1]).q


def pose_77():
    return transl(0.5, -0.3, 0.2) @ troty(np.pi / 2)


def usable_77():
    """(largest joint motion from qr, q) of each usable configuration, each angle shifted nearest qr."""
    p560 = puma560()
    lo, hi = p560.qlim
    out = []
    for c in [a + b + w for a in "lr" for b in "ud" for w in "nf"]:
        sol = quiet(ikine6s, p560, pose_77(), c)
        q = sol.q.copy()
        ok = sol.success
        for j in range(6):
            options = [q[j] + 2 * np.pi * k for k in (-1, 0, 1) if lo[j] <= q[j] + 2 * np.pi * k <= hi[j]]
            if not options:
                ok = False
                break
            q[j] = min(options, key=lambda v: abs(v - p560.qr[j]))
        if ok:
            out.append((float(np.abs(q - p560.qr).max()), q))
    return sorted(out, key=lambda v: v[0])


def answer_77():
    return usable_77()[0][1]


def traj_78():
    t = np.linspace(0, 3, 61)
    Ts = ctraj(transl(0.5, 0.4, 0.44) @ troty(np.pi / 2), transl(0.5, -0.2, 0.44) @ troty(np.pi / 2), t)
    return t, quiet(ikine6s, puma560(), Ts).q


def answer_78():
    t, q = traj_78()
    return float(t[np.argmin(np.abs(q[:, 4]))])


def answer_79():
    return DHFactor("Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", L1=0.3, L2=0.4, L3=0.25).robot("ex")


def arm_710():
    return DHRobot([RevoluteDH(d=0.4, alpha=np.pi / 2), RevoluteDH(a=0.5), RevoluteDH(a=0.4)])


def answer_710():
    # scan the elbow angle at a few shoulder angles; keep the angles singular at all of them
    arm = arm_710()
    q3 = np.linspace(-np.pi, np.pi, 721)[1:]
    m = np.array([manipulability(arm, np.column_stack([np.zeros_like(q3), np.full_like(q3, q2), q3]),
                                 axes="trans") for q2 in (0.3, 1.1, -2.0)])
    return q3[np.all(m < 1e-9, axis=0)]


def word_711(text="RV", settle=True):
    strokes = hershey_strokes(text, scale=0.08)
    P = np.vstack(strokes)
    origin = np.array([0.5 - P[:, 0].max() / 2, 0.0 - P[:, 1].max() / 2, 0.0])
    lp = letter_path(strokes, z_up=0.05, dt=0.02, origin=origin, settle=settle)
    sol = quiet(ikine6s, puma560(), lp.T)
    pen = puma560().fkine(sol.q)[:, :3, 3] - origin
    return lp, sol, pen


def answer_711():
    lp, sol, pen = word_711()
    assert np.all(sol.success)
    return {"text": "RV", "duration": float(lp.t[-1]), "ink": float(ink_fraction(lp, pen=pen).min())}


RIGHT = {"7.1": answer_71, "7.2": answer_72, "7.3": answer_73, "7.4": answer_74, "7.5": answer_75,
         "7.6": answer_76, "7.7": answer_77, "7.8": answer_78, "7.9": answer_79, "7.10": answer_710,
         "7.11": answer_711}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answer_is_accepted(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert text.strip() == f"Exercise {exercise_id}: correct."


def test_every_chapter_7_exercise_has_a_right_answer_here():
    from rvc.exercises import exercises
    assert {k for k in exercises() if k.startswith("7.")} == set(RIGHT)


# ---------------------------------------------------------------- wrong answers

def wrong_answers():
    T71 = answer_71()
    S72 = answer_72()
    t73 = answer_73()
    q74 = answer_74()
    right75 = answer_75()
    q76 = answer_76()
    q77 = answer_77()
    t78, q78 = traj_78()
    k78 = int(np.argmin(np.abs(q78[:, 4])))
    yield "7.1", DHRobot([RevoluteDH(a=0.5), RevoluteDH(a=0.8)]).fkine([0.3, 0.9]), T71  # links swapped
    yield "7.1", DHRobot([RevoluteDH(a=0.8), RevoluteDH(a=0.5)]).fkine([0.3, 0.9], unit="deg"), T71
    yield "7.1", T71[np.ix_([0, 1, 3], [0, 1, 3])], T71  # SE(2) instead of SE(3)
    yield "7.1", None, T71
    yield "7.2", -S72 * [1, 1, 1, -1, -1, -1], S72             # v with the wrong sign
    yield "7.2", S72[:, [3, 4, 5, 0, 1, 2]], S72               # (w, v) order
    yield "7.2", np.array([[0, -x, 0, 0, 0, 1] for x in (0.0, 1.0, 1.5)]), S72   # wrong point
    yield "7.2", S72[:2], S72
    yield "7.3", np.array([0.5, 0.05, -0.1]), t73              # the touched point
    yield "7.3", -t73, t73
    yield "7.3", puma560().fkine(PIVOT_Q[0])[:3, :3] @ t73, t73   # world axes
    yield "7.3", t73 + [0.01, 0, 0], t73
    yield "7.4", np.array([q74[0] - 0.2, q74[1]]), q74
    yield "7.4", np.array([np.arctan2(1.1, 0.9) - np.arctan2(np.sin(-q74[1]), 1 + np.cos(-q74[1])),
                           -q74[1]]), q74  # elbow down
    yield "7.4", -q74, q74
    yield "7.4", [1.0, 2.0, 3.0], q74
    yield "7.5", 8, right75
    yield "7.5", right75 + 1, right75
    yield "7.5", 2.5, right75
    yield "7.5", "three", right75
    yield "7.6", np.zeros(4), q76
    yield "7.6", plain_76(), q76                                 # reaches, q1 out of its limits
    yield "7.6", ikine(cobra600(), transl(0.4, -0.2, 0.2) @ trotz(-30, unit="deg") @ trotx(np.pi),
                       mask=[1, 1, 1, 0, 0, 1], joint_limits=True, search=True, seed=0).q, q76  # wrong yaw
    yield "7.6", q76[:3], q76
    yield "7.7", usable_77()[1][1], q77                          # usable, but moves more
    yield "7.7", quiet(ikine6s, puma560(), pose_77(), "ldn").q, q77
    yield "7.7", puma560().qr, q77
    yield "7.8", t78[k78] + 0.3, t78[k78]
    yield "7.8", float(k78), t78[k78]                            # a sample index, not a time
    yield "7.8", [t78[k78], 0.0], t78[k78]
    yield "7.9", DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2), RevoluteDH(a=0.4), RevoluteDH(a=0.25)]), None
    yield "7.9", DHFactor("Tz(L1) Rz(q1) Ry(q2) Tx(L2)", L1=0.3, L2=0.4).robot(), None
    yield "7.9", "Tz(L1) Rz(q1) Ry(q2) Tx(L2) Ry(q3) Tx(L3)", None
    yield "7.10", [0.0], None                                     # only the stretched arm
    yield "7.10", [0.0, np.pi / 2], None
    yield "7.10", [0.0, np.pi, -np.pi], None
    yield "7.10", [], None
    right = answer_711()
    yield "7.11", {**right, "duration": right["duration"] / 0.02}, right["duration"]
    lp0, _, pen0 = word_711(settle=False)
    yield "7.11", {**right, "ink": float(ink_fraction(lp0, pen=pen0).min())}, right["ink"]
    yield "7.11", {**right, "text": "rv"}, None
    yield "7.11", {**right, "text": "RVCX"}, None
    yield "7.11", {k: v for k, v in right.items() if k != "ink"}, None


@pytest.mark.parametrize("exercise_id, answer, expected", list(wrong_answers()),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 6 else "")
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, exercise_id, answer, expected):
    ok, text = feedback(capsys, exercise_id, answer)
    assert not ok
    assert text.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    if expected is not None:
        assert_no_leak(text, expected)


def test_elbow_down_hint_names_the_branch(capsys):
    q = answer_74()
    x, y = 0.9, 1.1
    q2 = -q[1]
    q1 = np.arctan2(y, x) - np.arctan2(np.sin(q2), 1 + np.cos(q2))
    ok, text = feedback(capsys, "7.4", [q1, q2])
    assert not ok and "other side" in text


def test_joint_limit_hint_and_the_plain_solution_really_violates_it(capsys):
    # the exercise tests the limits: the plain masked solve lands outside them
    c600 = cobra600()
    q = plain_76()
    assert np.allclose(c600.fkine(q), pose_76(), atol=1e-6)
    lo, hi = c600.qlim
    assert not np.all((q >= lo) & (q <= hi))
    ok, text = feedback(capsys, "7.6", q)
    assert not ok and "q1" in text and "limits" in text


def test_configuration_that_moves_least_is_unique():
    usable = usable_77()
    assert len(usable) >= 4 and usable[1][0] - usable[0][0] > 0.3


def test_angle_shifted_by_two_pi_is_the_same_answer(capsys):
    ok, _ = feedback(capsys, "7.4", answer_74() + 2 * np.pi)
    assert ok


def test_singular_angles_of_7_10_are_where_the_position_jacobian_drops_rank():
    # independently of manipulability: the 3x3 position Jacobian by finite differences
    arm = arm_710()
    for q3 in answer_710():
        for q2 in (0.4, -1.3):
            q = np.array([0.2, q2, q3])
            J = np.column_stack([(arm.fkine(q + h)[:3, 3] - arm.fkine(q - h)[:3, 3]) / 2e-6
                                 for h in np.eye(3) * 1e-6])
            assert abs(np.linalg.det(J)) < 1e-8
