"""Helpers of the exercise-checker tests (tests/exercises/test_exercises_chNN.py): run a checker and
make sure its feedback never gives the expected value away."""

import re

import numpy as np

from rvc.exercises import check


def leak_strings(x, skip_whole=False):
    """Ways an expected value could leak into feedback: its 2-, 3- and 4-decimal renderings.

    With ``skip_whole``, whole numbers (such as the identity rows of a matrix) are no secret."""
    out = set()
    for v in np.atleast_1d(np.asarray(x, dtype=float)).ravel():
        if abs(v) > 1e-9 and not (skip_whole and v == round(v)):
            out |= {f"{v:.3f}", f"{v:.4f}", f"{v:.2f}"}
    return out


def feedback(capsys, exercise_id, answer):
    """(accepted, printed feedback) of ``check(exercise_id, answer)``."""
    ok = check(exercise_id, answer)
    return bool(ok), capsys.readouterr().out


def assert_no_leak(text, expected, skip_whole=False):
    """No rendering of ``expected`` appears in ``text`` as a number on its own (not as part of
    a longer one)."""
    for s in leak_strings(expected, skip_whole):
        assert not re.search(rf"(?<![\d.]){re.escape(s)}(?!\d)", text), (s, text)
