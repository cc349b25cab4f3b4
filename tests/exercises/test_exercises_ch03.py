"""Chapter 3 exercise checkers: right answers pass, typical wrong ones get a hint, no answer leaks."""

import re

import numpy as np
import pytest

from rvc import (jtraj, lspb, mstraj, q2r, qangle, qslerp, r2q, roty, rotz, rpy2jac, rpy2tr, skew,
                 tpoly, tr2angvec, transl, trexp, trnorm, vex, wrench_transform)
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


R0_37, R1_37 = rotz(-1) @ roty(-1), rotz(1) @ roty(1)


def answer_3_7(n=801):
    """Peak |w| measured: sample the SLERP path under a quintic time law, w = vex(Rdot R^T)."""
    t = np.linspace(0, 2, n)
    R = q2r(qslerp(r2q(R0_37), r2q(R1_37), tpoly(0, 1, t).q))
    Rdot = np.gradient(R, t, axis=0)
    w = np.array([vex(Rd @ Rk.T, check=False) for Rd, Rk in zip(Rdot, R)])
    return np.linalg.norm(w, axis=1).max()


W_38 = np.array([0.3, -0.2, 0.9])


def answer_3_8():
    step = np.eye(3) + 0.01 * skew(W_38)
    exact = trexp(skew(W_38), 10.0)
    R = np.eye(3)
    for _ in range(1000):
        R = R @ step
    once = tr2angvec(trnorm(R).T @ exact)[0]
    R = np.eye(3)
    for _ in range(1000):
        R = trnorm(R @ step)
    return np.array([once, tr2angvec(R.T @ exact)[0]])


RIGHT = {"3.1": answer_3_1, "3.2": answer_3_2, "3.3": answer_3_3, "3.4": answer_3_4,
         "3.5": answer_3_5, "3.6": answer_3_6, "3.7": answer_3_7, "3.8": answer_3_8}


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
    "3.7": [qangle(r2q(R0_37), r2q(R1_37)) / 2,                            # the average rate
            qangle(r2q(R0_37), r2q(R1_37)) * 15 / 8,                       # ds/dt per unit time
            np.degrees(answer_3_7()), -1.0, [1.0, 2.0]],
    "3.8": [answer_3_8()[::-1], np.zeros(2), answer_3_8() * [1, 2], answer_3_8()[0], -answer_3_8()],
}


@pytest.mark.parametrize("exercise_id,index",
                         [(k, i) for k, v in sorted(WRONG.items()) for i in range(len(v))])
def test_wrong_answer_gets_a_hint_without_the_answer(capsys, exercise_id, index):
    wrong = WRONG[exercise_id][index]
    ok, out = feedback(capsys, exercise_id, wrong)
    assert not ok
    assert out.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    expected = RIGHT[exercise_id]()
    if exercise_id not in ("3.6", "3.8"):
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
        ("3.7", WRONG["3.7"][0], "average"),
        ("3.7", WRONG["3.7"][1], "units of 1/s"),
        ("3.7", WRONG["3.7"][2], "rad/s"),
        ("3.8", WRONG["3.8"][0], "swapped"),
        ("3.8", WRONG["3.8"][1], "first-order update"),
        ("3.8", WRONG["3.8"][2], "every step"),
        ("3.8", WRONG["3.8"][4], "never negative"),
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


def test_3_7_by_formula_and_by_measurement_agree():
    """The quintic's peak rate is 15/8 of the average: the measured peak of the SLERP path
    (finite differences) approaches the total angle times 15 / (8 T) as the sampling gets finer."""
    angle = qangle(r2q(R0_37), r2q(R1_37))
    assert abs(answer_3_7(3201) - angle * 15 / 16) < 1e-5
    assert abs(answer_3_7(201) - angle * 15 / 16) > abs(answer_3_7(3201) - angle * 15 / 16)


def test_3_8_normalising_often_keeps_the_error_small():
    once, every = answer_3_8()
    assert 0 < every < once < 0.05


def test_3_6_speed_limit_holds_in_both_directions(capsys):
    """Coming back too fast (negative velocity beyond the limit) is as wrong as going out too fast."""
    back_fast = mstraj(SQUARE, None, [2.4, 2.4, 1.8, 1.8], [0, 0], 0.02, 0.6)
    assert back_fast.qd.max() <= 0.5 and back_fast.qd.min() < -0.55      # the limit is 0.5 m/s
    assert not check("3.6", back_fast)
    assert "faster than the speed limit" in capsys.readouterr().out
