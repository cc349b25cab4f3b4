"""Chapters 8-10: each numeric checker refuses an answer just outside the tolerance its chapter DOCUMENTS.

``test_exercises_branches`` probes every checker just inside and just outside the tolerance the
checker itself carries, so a tolerance loosened in the code (a band 100x wider, an atol 10x) moves
that test's probes with it and passes.  Here the tolerances are the ones the documentation states
(the policy in ``rvc.exercises`` and the overrides each chapter's module docstring lists, quoted
below), written down independently of the code: an answer 1.1 tolerances off is refused, one 0.9
tolerances off is accepted.
"""

import numpy as np
import pytest

from rvc.exercises import ArrayAnswer, Numeric, exercises
from rvc.exercises import _resolve as resolve

POLICY_NUMBER = dict(rtol=1e-6, atol=1e-6)      # rvc.exercises: |v - x| <= max(atol, rtol |x|)
POLICY_ARRAY = dict(rtol=1e-5, atol=1e-6)       # rvc.exercises: |a - b| <= atol + rtol |b|

#: (rtol, atol) of each numeric exercise of chapters 8-10, from the chapters' docstrings
DOCUMENTED = {
    "8.2": dict(rtol=0, atol=2e-3),             # "8.2, 8.6 and 8.8 take 2e-3 rad"
    "8.3": dict(rtol=0, atol=1e-5),             # "8.3 takes 1e-5 rad"
    "8.4": dict(rtol=1e-4, atol=1e-6),          # "8.4 takes 1e-4 relative"
    "8.6": dict(rtol=0, atol=2e-3),
    "8.8": dict(rtol=0, atol=2e-3),
    "9.2": dict(rtol=1e-4, atol=1e-9),          # "a relative band (_BAND: 1e-4, ...)"
    "9.4": dict(rtol=0, atol=2e-3),             # "9.4 takes 2e-3 rad"
    "9.10": POLICY_NUMBER,                      # "9.10's answer is a whole number, compared by the policy"
    "10.2": dict(rtol=0, atol=1e-3),            # "10.2 and 10.3 take 1e-3 m and 2e-3 m"
    "10.3": dict(rtol=0, atol=2e-3),
    "10.5": dict(rtol=5e-3, atol=0),            # "10.5 takes 0.5 % relative"
}
#: "1e-3 or 2e-3 where the answer comes out of an integration or a search": at most 2e-3
SEARCHED_9 = ("9.1", "9.3", "9.5", "9.6", "9.7", "9.8", "9.9")
DOCUMENTED_ARRAYS = {
    "8.1": dict(rtol=0, atol=1e-6),             # "8.1 is absolute (rtol=0)"
    "8.5": POLICY_ARRAY,
    "8.7": POLICY_ARRAY,
    "10.1": POLICY_ARRAY,
    "10.4": dict(rtol=1e-8, atol=1e-8),         # "10.4 takes 1e-8 absolute and relative"
    "10.7": dict(rtol=5e-3, atol=0),            # "10.7 takes 0.5 % relative on both entries"
}

ALL = exercises()


def test_the_tables_cover_every_numeric_and_array_exercise_of_chapters_8_to_10():
    mine = {k for k, e in ALL.items() if k.split(".")[0] in ("8", "9", "10")
            and isinstance(e, (Numeric, ArrayAnswer))}
    assert mine == set(DOCUMENTED) | set(SEARCHED_9) | set(DOCUMENTED_ARRAYS)


@pytest.mark.parametrize("eid", sorted(DOCUMENTED))
def test_a_near_miss_just_outside_the_documented_tolerance_is_refused(eid):
    ex = ALL[eid]
    x = float(resolve(ex.expected))
    tol = max(DOCUMENTED[eid]["atol"], DOCUMENTED[eid]["rtol"] * abs(x))
    for sign in (1, -1):
        assert ex(x + sign * 1.1 * tol) is not None, f"{eid}: {x} {sign * 1.1 * tol:+g} accepted"
        assert ex(x + sign * 0.9 * tol) is None, f"{eid}: {x} {sign * 0.9 * tol:+g} refused"


@pytest.mark.parametrize("eid", SEARCHED_9)
def test_chapter_9_searched_answers_are_refused_beyond_2e_3_relative(eid):
    ex = ALL[eid]
    x = float(resolve(ex.expected))
    for sign in (1, -1):
        assert ex(x * (1 + sign * 2.2e-3)) is not None, f"{eid}: {x} x (1 {sign * 2.2e-3:+g}) accepted"
        assert ex(x * (1 + sign * 0.9e-3)) is None, f"{eid}: {x} x (1 {sign * 0.9e-3:+g}) refused"


@pytest.mark.parametrize("eid", sorted(DOCUMENTED_ARRAYS))
def test_an_array_entry_just_outside_the_documented_tolerance_is_refused(eid):
    ex = ALL[eid]
    b = np.asarray(resolve(ex.expected), dtype=float)
    i = int(np.argmax(np.abs(b)))
    tol = DOCUMENTED_ARRAYS[eid]["atol"] + DOCUMENTED_ARRAYS[eid]["rtol"] * abs(b.flat[i])
    for sign in (1, -1):
        out, inside = b.copy(), b.copy()
        out.flat[i] += sign * 1.1 * tol
        inside.flat[i] += sign * 0.9 * tol
        assert ex(out) is not None, f"{eid}: entry {i} moved {sign * 1.1 * tol:+g} accepted"
        assert ex(inside) is None, f"{eid}: entry {i} moved {sign * 0.9 * tol:+g} refused"
