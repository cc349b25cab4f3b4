"""Exercise feedback: ``check(exercise_id, answer)``.

Each chapter registers its checkers in a module ``rvc.exercises.chNN``.
A checker receives the student's answer and returns ``None`` when it is
right, or a hint (a string) saying what is wrong *without* revealing the
expected value.  :func:`check` prints one line of feedback and returns a
:class:`Feedback`, true when the answer was accepted, which shows nothing
when a notebook cell ends with it (the printed line is the feedback).

>>> from rvc.exercises import exercise, check
>>> @exercise("0.1")
... def _(answer):
...     return None if answer == 4 else "count the fingers on one hand again, without the thumb"
>>> bool(check("0.1", 4))
Exercise 0.1: correct.
True
>>> bool(check("0.1", 5))
Exercise 0.1: not yet. Hint: count the fingers on one hand again, without the thumb
False
"""

from __future__ import annotations

import dataclasses
import importlib
import numbers
from typing import Callable

import numpy as np

__all__ = ["exercise", "check", "close", "describe_shape", "read_number", "read_array", "nonfinite",
           "Feedback", "CHAPTERS"]

#: Chapter modules holding checkers, loaded on first use.
CHAPTERS = ("ch02", "ch03", "ch07", "ch08", "ch09", "ch10")

_REGISTRY: dict[str, Callable] = {}
_loaded = False


def exercise(exercise_id: str):
    """Decorator registering a checker for ``exercise_id`` (e.g. ``"2.3"``)."""

    def register(fn):
        _REGISTRY[exercise_id] = fn
        return fn

    return register


def _load_chapters():
    global _loaded
    if _loaded:
        return
    for name in CHAPTERS:
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    _loaded = True


def describe_shape(answer) -> str:
    """A neutral description of what came, for hints: type and shape."""
    if answer is None:
        return "None (did the cell assign `answer`?)"
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return type(answer).__name__
    return f"an array of shape {a.shape}" if a.ndim else "a number"


def read_number(answer, what: str):
    """``(value, None)`` for one finite number, else ``(None, hint)`` saying what came instead.

    >>> read_number(2, "the gain")
    (2.0, None)
    >>> read_number([1, 2], "the gain")
    (None, 'expected one number (the gain), got an array of shape (2,)')
    >>> read_number(float("nan"), "the gain")
    (None, 'your the gain is NaN or inf')
    """
    if isinstance(answer, (str, bytes)):
        return None, f"expected one number ({what}), got a string"
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    if a.size != 1:
        return None, f"expected one number ({what}), got {describe_shape(answer)}"
    v = float(a.reshape(()))
    if not np.isfinite(v):
        return None, f"your {what} is NaN or inf"
    return v, None


def read_array(answer, shape: tuple, what: str):
    """``(array, None)`` for a finite float array of ``shape``, else ``(None, hint)``.

    >>> read_array([1, 2], (3,), "the twist")
    (None, 'expected the twist of shape (3,), got an array of shape (2,)')
    >>> read_array([1, float("inf")], (2,), "q")
    (None, 'your q contains NaN or inf')
    """
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None, f"expected {what} of shape {shape}, got {describe_shape(answer)}"
    if a.shape != shape:
        return None, f"expected {what} of shape {shape}, got {describe_shape(answer)}"
    if not np.all(np.isfinite(a)):
        return None, f"your {what} contains NaN or inf"
    return a, None


def close(answer, expected, *, atol: float = 1e-6, what: str = "answer") -> str | None:
    """Compare numerically; return ``None`` or a hint that hides ``expected``.

    The hint says whether the shape or how many values are off, never the
    expected values nor the size of the error (which would give them away).

    >>> close([1.0, 2.0], [1.0, 2.0]) is None
    True
    >>> close([1.0], [1.0, 2.0])
    'your answer has shape (1,); the expected answer has shape (2,)'
    >>> close([1.0, 2.5], [1.0, 2.0])
    'the shape is right but 1 of 2 values is off'
    """
    expected = np.asarray(expected, dtype=float)
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return f"expected numbers, got {describe_shape(answer)}"
    if a.shape != expected.shape:
        return f"your {what} has shape {a.shape}; the expected {what} has shape {expected.shape}"
    if not np.all(np.isfinite(a)):
        return f"your {what} contains NaN or inf"
    wrong = int(np.count_nonzero(np.abs(a - expected) > atol))
    if wrong:
        verb = "is" if wrong == 1 else "are"
        return f"the shape is right but {wrong} of {a.size} values {verb} off"
    return None


def nonfinite(answer, _depth: int = 0) -> bool:
    """True if a number anywhere in ``answer`` is NaN or infinite.

    Looks inside numbers, arrays, lists, tuples, dict values and the fields
    of result objects (dataclasses), a few levels deep.

    >>> nonfinite([1.0, 2.0]), nonfinite({"a": 1, "b": [0.0, float("nan")]}), nonfinite(np.inf)
    (False, True, True)
    """
    if _depth > 4 or answer is None or isinstance(answer, (str, bytes, bool)):
        return False
    if isinstance(answer, numbers.Number):
        return isinstance(answer, numbers.Complex) and not np.isfinite(complex(answer))
    if isinstance(answer, np.ndarray):
        if answer.dtype.kind in "fc":
            return not bool(np.all(np.isfinite(answer)))
        if answer.dtype.kind == "O":
            return any(nonfinite(x, _depth + 1) for x in answer.flat)
        return False
    if isinstance(answer, dict):
        return any(nonfinite(v, _depth + 1) for v in answer.values())
    if isinstance(answer, (list, tuple)):
        return any(nonfinite(v, _depth + 1) for v in answer)
    if dataclasses.is_dataclass(answer) and not isinstance(answer, type):
        return any(nonfinite(getattr(answer, f.name), _depth + 1) for f in dataclasses.fields(answer))
    return False


class Feedback:
    """The result of :func:`check`: true when the answer was accepted.

    It displays as nothing in a notebook, so an exercise cell ending with
    ``check(...)`` shows only the printed feedback line.
    """

    __slots__ = ("exercise_id", "ok")

    def __init__(self, exercise_id: str, ok: bool):
        self.exercise_id, self.ok = exercise_id, bool(ok)

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"Feedback({self.exercise_id!r}, ok={self.ok})"

    def _ipython_display_(self):
        pass


def check(exercise_id: str, answer) -> Feedback:
    """Print feedback on ``answer`` for exercise ``exercise_id``; truthy if right.

    The feedback never contains the expected answer.
    """
    _load_chapters()
    if exercise_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise ValueError(f"exercise_id: expected one of {known}, got {exercise_id!r}")
    try:
        if nonfinite(answer):
            hint = ("your answer contains NaN or inf: look for a division by zero, an arccos or "
                    "arcsin of a value beyond +-1, or a variable that was never set")
        else:
            hint = _REGISTRY[exercise_id](answer)
    except Exception as exc:  # a malformed answer must give feedback, not a traceback
        hint = f"your answer could not be checked ({type(exc).__name__}: {exc})"
    if hint is None:
        print(f"Exercise {exercise_id}: correct.")
        return Feedback(exercise_id, True)
    print(f"Exercise {exercise_id}: not yet. Hint: {hint}")
    return Feedback(exercise_id, False)
