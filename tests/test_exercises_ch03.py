"""Chapter 3 exercise checkers: right answers pass, typical wrong ones get a hint, no answer leaks."""

import re

import numpy as np
import pytest

from rvc import jtraj, lspb, mstraj, rpy2jac, rpy2tr, tpoly, transl, wrench_transform
from rvc.exercises import check


# ------------------------------------------------------------ right answers
def answer_3_1():
    return tpoly(0.2, 1.4, np.linspace(0, 2, 101), qd0=0.5, qdf=0).qd[50]


def answer_3_2():
    return lspb(0, 1, np.linspace(0, 2, 201), V=0.7).info["tblend"]


def answer_3_3():
    return np.abs(jtraj([0, 0.5, -1], [1, -0.5, 2], np.linspace(0, 3, 301)).qd).max(axis=0)


RPY, RATES = np.array([0.1, 0.2, 0.3]), np.array([0.5, -0.2, 0.1])


def answer_3_4():
    return rpy2jac(RPY) @ RATES


T_0B = transl(0.5, 0.1, 0.3) @ rpy2tr(0, np.pi / 2, 0)
P, F = np.array([0.6, 0.1, 0.2]), np.array([0.0, 0.0, 10.0])
W_0 = np.concatenate([F, np.cross(P, F)])


def answer_3_5():
    return wrench_transform(T_0B, W_0)


SQUARE = np.array([[1, 0], [1, 1], [0, 1], [0, 0]], dtype=float)


def answer_3_6(tacc=0.6, via=SQUARE, qdmax=0.5, dt=0.02):
    return mstraj(via, qdmax, None, [0, 0], dt, tacc)


RIGHT = {"3.1": answer_3_1, "3.2": answer_3_2, "3.3": answer_3_3, "3.4": answer_3_4,
         "3.5": answer_3_5, "3.6": answer_3_6}


def numbers_in(value):
    """Decimal renderings of the expected value(s) that must not appear in feedback."""
    a = np.atleast_1d(np.asarray(value, dtype=float)).ravel()
    out = set()
    for x in a:
        if abs(x) < 1e-3:  # zero and near-zero components are not informative
            continue
        for digits in (2, 3, 4, 6):
            out.add(f"{x:.{digits}f}")
        out.add(repr(float(x)))
    return out


def feedback(capsys, exercise_id, answer):
    ok = check(exercise_id, answer)
    return ok, capsys.readouterr().out


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answer_is_accepted(capsys, exercise_id):
    ok, out = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, out
    assert out.strip() == f"Exercise {exercise_id}: correct."


# ------------------------------------------------------------ wrong answers
WRONG = {
    "3.1": [tpoly(0.2, 1.4, np.linspace(0, 2, 101)).qd[50],          # forgot qd0
            tpoly(0.2, 1.4, 101, qd0=0.5).qd[50],                     # integer samples
            answer_3_1() + 0.01, [answer_3_1(), 0.0], None, "fast"],
    "3.2": [1 / 0.7, 2 / 3, answer_3_2() + 1e-3, 1.5, -0.2, np.array([answer_3_2()] * 2)],
    "3.3": [np.abs(np.subtract([1, -0.5, 2], [0, 0.5, -1])) / 3,      # average speeds
            -answer_3_3(),                                             # signed / negated
            np.abs(jtraj([0, 0.5, -1], [1, -0.5, 2], 301).qd).max(axis=0),  # normalised time
            answer_3_3()[:2], answer_3_3() * 1.01],
    "3.4": [RATES, rpy2jac(RPY).T @ RATES, np.linalg.solve(rpy2jac(RPY), RATES),
            answer_3_4() + [0, 0, 1e-3], answer_3_4()[:2]],
    "3.5": [W_0,                                                         # world frame
            np.concatenate([answer_3_5()[:3], np.zeros(3)]),             # moment forgotten
            np.concatenate([answer_3_5()[:3], T_0B[:3, :3].T @ W_0[3:]]),  # moment not shifted
            np.concatenate([F, answer_3_5()[3:]]),                       # force not rotated
            wrench_transform(np.linalg.inv(T_0B), W_0),                  # wrong direction
            answer_3_5()[:3]],
    "3.6": [answer_3_6(tacc=0.0),                                         # sharp corners: accel
            answer_3_6(tacc=0.2),                                         # too short blends
            answer_3_6(tacc=1.2),                                         # cuts the corners
            answer_3_6(via=SQUARE[:3]),                                   # does not return
            answer_3_6(via=SQUARE[[1, 0, 2, 3]]),                         # wrong order
            answer_3_6(qdmax=0.55, tacc=0.5),                             # too fast
            answer_3_6(qdmax=0.25),                                       # too slow overall
            answer_3_6(dt=0.05),                                          # coarse samples
            answer_3_6().q, "square"],
}


@pytest.mark.parametrize("exercise_id,index",
                         [(k, i) for k, v in sorted(WRONG.items()) for i in range(len(v))])
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, exercise_id, index):
    wrong = WRONG[exercise_id][index]
    ok, out = feedback(capsys, exercise_id, wrong)
    assert not ok
    assert out.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    expected = RIGHT[exercise_id]()
    if exercise_id != "3.6":
        for text in numbers_in(expected):
            assert text not in out, f"feedback reveals {text}: {out}"


def test_specific_hints(capsys):
    """The typical mistakes get the hint written for them."""
    cases = [
        ("3.1", WRONG["3.1"][0], "initial velocity"),
        ("3.1", WRONG["3.1"][1], "time vector"),
        ("3.2", 1 / 0.7, "cruise velocity"),
        ("3.3", WRONG["3.3"][0], "average speeds"),
        ("3.3", WRONG["3.3"][1], "absolute values"),
        ("3.3", WRONG["3.3"][2], "normalised time"),
        ("3.4", RATES, "Jacobian"),
        ("3.4", WRONG["3.4"][1], "transpose or inverse"),
        ("3.5", W_0, "world frame"),
        ("3.5", WRONG["3.5"][1], "also produces"),
        ("3.5", WRONG["3.5"][2], "moment is not"),
        ("3.6", WRONG["3.6"][0], "accelerates harder"),
        ("3.6", WRONG["3.6"][2], "too far"),
        ("3.6", WRONG["3.6"][3], "return exactly"),
        ("3.6", WRONG["3.6"][5], "faster than the speed limit"),
        ("3.6", WRONG["3.6"][6], "takes too long"),
        ("3.6", WRONG["3.6"][7], "0.02 s"),
    ]
    for exercise_id, wrong, phrase in cases:
        ok, out = feedback(capsys, exercise_id, wrong)
        assert not ok and phrase in out, (exercise_id, out)


def test_project_hints_do_not_state_limits_beyond_the_task(capsys):
    """3.6 feedback names constraints from the task, never the measured values."""
    for wrong in WRONG["3.6"]:
        _, out = feedback(capsys, "3.6", wrong)
        numbers = re.findall(r"\d+\.\d+", out.split("Hint:", 1)[-1])
        assert set(numbers) <= {"0.02"}, out
