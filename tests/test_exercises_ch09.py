"""Chapter 9 exercise checkers: right answers pass, typical wrong ones get a hint,
and no feedback ever contains the expected numbers."""

import re

import numpy as np
import pytest

from rvc import asada, coriolis, fdyn, gravload, inertia, nofriction, payload
from rvc.exercises import check
from rvc.models import puma560, twolink


def _numbers(x):
    a = np.atleast_1d(np.asarray(x, dtype=float)).ravel()
    out = set()
    for v in a:
        if abs(v) > 1e-9:
            out |= {f"{v:.3f}", f"{v:.4f}", f"{v:.2f}"}
    return out


def feedback(capsys, exercise_id, answer):
    ok = check(exercise_id, answer)
    return bool(ok), capsys.readouterr().out


def assert_no_leak(text, expected):
    for s in _numbers(expected):
        assert not re.search(rf"(?<![\d.]){re.escape(s)}(?!\d)", text), (s, text)


P = puma560()


def answer_91():
    return gravload(P, P.qs)


def answer_92():
    return inertia(P, P.qn)[0, 0] / P.links[0].G ** 2


def answer_93():
    qd = np.array([0, 0, 2.0, 0, 0, 0])
    return (coriolis(P, P.qn, qd) @ qd)[1]


def answer_94():
    arm = puma560()
    g0 = gravload(arm, arm.qs)[1]
    payload(arm, 1.0, [0, 0, 0.1])
    return (60.0 - g0) / (gravload(arm, arm.qs)[1] - g0)


def answer_95():
    tl = nofriction(twolink(), viscous=True)
    sim = fdyn(tl, 0.5, tl.qz, rtol=1e-9, atol=1e-9)
    return tl.energy(sim.q[-1], sim.qd[-1]).kinetic


def answer_96():
    return np.array([100.0, 20.0, 0.1 * 4 * np.exp(-3.0)])


def answer_97():
    return asada(P, np.array([0, 0.5, 2.5, 0, 0.8, 0]), "trans")


RIGHT = {"9.1": answer_91, "9.2": answer_92, "9.3": answer_93, "9.4": answer_94,
         "9.5": answer_95, "9.6": answer_96, "9.7": answer_97}


@pytest.mark.parametrize("exercise_id", sorted(RIGHT))
def test_right_answers_pass(capsys, exercise_id):
    ok, text = feedback(capsys, exercise_id, RIGHT[exercise_id]())
    assert ok, text
    assert "correct" in text


WRONG = {
    "9.1": [(lambda: -answer_91(), "sign"), (lambda: gravload(P, P.qn), "nominal"),
            (lambda: np.zeros(5), "shape")],
    "9.2": [(lambda: inertia(P, P.qn)[0, 0], "gearbox"),
            (lambda: inertia(P, P.qn)[0, 0] / abs(P.links[0].G), "squared"),
            (lambda: P.links[0].Jm + answer_92(), "twice"), (lambda: "x", "string")],
    "9.3": [(lambda: answer_93() / 4, "quadratic"), (lambda: -answer_93(), "sign"),
            (lambda: [1, 2], "one number")],
    "9.4": [(lambda: 60 / (answer_94() * 0 + gravload_loaded()), "own weight"),
            (lambda: answer_94() * 2, "above"), (lambda: -1.0, "negative")],
    "9.5": [(lambda: -answer_95(), "never negative"), (lambda: 1.0, "frictionless")],
    "9.6": [(lambda: [100, 10, 0.01], "damping"), (lambda: [10, 20, 0.01], "natural frequency"),
            (lambda: [100, 20, 0.1 * np.exp(-3)], "critically damped"), (lambda: [1, 2], "three")],
    "9.7": [(lambda: 2.0, "between 0 and 1"),
            (lambda: asada(P, np.array([0, 0.5, 2.5, 0, 0.8, 0]), "all"), "translational"),
            (lambda: asada(P, P.qn, "trans"), "nominal")],
}


def gravload_loaded():
    arm = puma560()
    payload(arm, 1.0, [0, 0, 0.1])
    return gravload(arm, arm.qs)[1]


@pytest.mark.parametrize("exercise_id,case", [(k, i) for k, v in WRONG.items()
                                              for i in range(len(v))])
def test_wrong_answers_get_a_hint_without_the_answer(capsys, exercise_id, case):
    make, word = WRONG[exercise_id][case]
    ok, text = feedback(capsys, exercise_id, make())
    assert not ok
    assert word in text.lower() or word in text, text
    assert_no_leak(text, RIGHT[exercise_id]())
