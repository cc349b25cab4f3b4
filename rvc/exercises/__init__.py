"""Exercise feedback: ``check(exercise_id, answer)``, and the exercises as data.

Each chapter lists its exercises in a module ``rvc.exercises.chNN``, as
``EXERCISES``, in a small vocabulary:

* :class:`Numeric`: the answer is one number;
* :class:`ArrayAnswer`: the answer is an array (a vector, a matrix, a pose);
* :class:`Custom`: the few answers a comparison cannot judge (a trajectory,
  a robot, a dict of parts, a choice from a grid), checked by a function.

A numeric or array exercise names its expected value (a function of no
arguments that computes it with rvc, called at check time, never a typed-in
number), then its typical mistakes in the order they are tried, each next to
its hint: a :class:`Mistake` is a wrong value (computed the same way) that is
recognised within the exercise's tolerance, a :class:`When` is a rule on the
answer.  Then a fallback hint.  A hint says what is wrong *without* revealing
the expected value.  :func:`check` prints one line of feedback and returns a
:class:`Feedback`, true when the answer was accepted, which shows nothing
when a notebook cell ends with it (the printed line is the feedback).

The tolerance policy, one per kind (an exercise may override it, and says why):

* a number ``v`` matches ``x`` when ``|v - x| <= max(atol, rtol |x|)``, with
  ``rtol = atol = 1e-6`` (:data:`Numeric.RTOL`, :data:`Numeric.ATOL`):
  relative for large numbers, absolute near zero;
* an array ``a`` matches ``b`` when it has ``b``'s shape and every entry has
  ``|a - b| <= atol + rtol |b|`` (numpy's ``allclose`` rule), with
  ``atol = 1e-6`` on the scale of the entries and ``rtol = 1e-5``
  (:data:`ArrayAnswer.ATOL`, :data:`ArrayAnswer.RTOL`).

A mistake is recognised with the exercise's tolerance around the mistake's own
value unless it states its own.

>>> from rvc.exercises import Mistake, Numeric, When, check_with
>>> fingers = Numeric("0.1", expected=lambda: 4, what="a count of fingers",
...                   mistakes=[Mistake(5, "count the fingers on one hand again, without the thumb"),
...                             When(lambda v: v < 0, "a count is never negative")],
...                   fallback="count again")
>>> bool(check_with(fingers, 4))
Exercise 0.1: correct.
True
>>> bool(check_with(fingers, 5))
Exercise 0.1: not yet. Hint: count the fingers on one hand again, without the thumb
False
>>> fingers(-1), fingers(7)
('a count is never negative', 'count again')
"""

from __future__ import annotations

import dataclasses
import importlib
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..i18n import tr

from ..shapes import ArrayLike

__all__ = ["check", "check_with", "close", "describe_shape", "read_number", "read_array", "nonfinite",
           "Feedback", "CHAPTERS", "Mistake", "When", "Numeric", "ArrayAnswer", "Custom", "NOTEBOOKS",
           "exercises", "listing", "same", "as_array"]

#: Chapter modules holding the exercises (their ``EXERCISES`` lists), loaded on first use.
CHAPTERS = ("ch02", "ch03", "ch07", "ch08", "ch09", "ch10")

#: The table of exercise id -> the notebook (in ``notebooks/``, without ``.ipynb``) whose
#: exercise cell calls ``check("<id>", ...)``: read by the student-copy and feedback tests,
#: and checked against the notebooks by ``tests/exercises/test_exercise_registry.py``.
NOTEBOOKS: dict[str, str] = {
    f"{chapter}.{k}": notebook
    for notebook, chapter, first, last in (
        ("02_pose", 2, 1, 10),
        ("03_time_motion", 3, 1, 8),
        ("07-1_forward_kinematics", 7, 1, 3),
        ("07-2_inverse_kinematics", 7, 4, 7),
        ("07-3_trajectories_applications", 7, 8, 11),
        ("08_manipulator_velocity", 8, 1, 9),
        ("09-1_joint_control", 9, 1, 3),
        ("09-2_rigid_body_dynamics", 9, 4, 8),
        ("09-3_model_based_control", 9, 9, 11),
        ("10_elastic_parallel", 10, 1, 7),
    )
    for k in range(first, last + 1)
}

_REGISTRY: dict[str, Exercise] = {}
_loaded = False


def _load_chapters():
    """Import the chapter modules and register the exercises each lists in ``EXERCISES``."""
    global _loaded
    if _loaded:
        return
    found = {}
    for name in CHAPTERS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        for ex in module.EXERCISES:
            if ex.id in found:
                raise ValueError(f"exercise {ex.id!r} is listed twice")
            found[ex.id] = ex
    _REGISTRY.update(found)
    _loaded = True


def exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id (the chapters loaded on first use)."""
    _load_chapters()
    return dict(_REGISTRY)


def listing() -> list[dict]:
    """The registry as rows: id, kind, notebook and the hints of its listed mistakes.

    >>> row = next(r for r in listing() if r["id"] == "2.3")
    >>> row["kind"], row["notebook"], len(row["mistakes"]) > 2
    ('array', '02_pose', True)
    """
    def order(k):
        return [int(x) for x in k.split(".")]

    return [dict(id=k, kind=ex.kind, notebook=NOTEBOOKS.get(k), mistakes=[m.hint for m in ex.mistakes])
            for k, ex in sorted(exercises().items(), key=lambda kv: order(kv[0]))]


#: What an answer of None means, in a student's words.
NONE_HINT = ("None (did the cell assign `answer`? a function that ends without `return` "
             "gives None)")


def _ragged(answer) -> bool:
    """True for a list or tuple of rows of different lengths (numpy cannot make an array of it)."""
    if not isinstance(answer, (list, tuple)) or not answer:
        return False
    lengths = {len(x) if isinstance(x, (list, tuple, np.ndarray)) else None for x in answer}
    return len(lengths) > 1


def describe_shape(answer: Any) -> str:
    """A neutral description of what came, for hints: type and shape.

    >>> describe_shape([[1, 2, 3], [4, 5]])
    'a list whose rows have different lengths (3, 2): give every row the same number of values'
    """
    if answer is None:
        return NONE_HINT
    if _ragged(answer):
        lengths = ", ".join(str(len(x)) if isinstance(x, (list, tuple, np.ndarray)) else "1"
                            for x in answer)
        return (f"a {type(answer).__name__} whose rows have different lengths ({lengths}): "
                f"give every row the same number of values")
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return type(answer).__name__
    return f"an array of shape {a.shape}" if a.ndim else "a number"


def read_number(answer: Any, what: str) -> tuple[float | None, str | None]:
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


def read_array(answer: Any, shape: tuple, what: str) -> tuple[np.ndarray | None, str | None]:
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


def close(answer: Any, expected: ArrayLike, *, atol: float = 1e-6, what: str = "answer") -> str | None:
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


def nonfinite(answer: Any, _depth: int = 0) -> bool:
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



# ------------------------------------------------------------------ the vocabulary

def _resolve(value):
    """A lazily given value: call it if it is a function, else take it as it is."""
    return value() if callable(value) else value


def as_array(answer: Any) -> np.ndarray | None:
    """``answer`` as a float array, or None if it is missing or not numeric.

    >>> as_array([1, 2]), as_array(None), as_array("two")
    (array([1., 2.]), None, None)
    """
    if answer is None:
        return None
    try:
        return np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None


def same(a: ArrayLike | None, b: ArrayLike, *, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """True if ``a`` (an array, or None) has the shape of ``b`` and matches it by the array
    policy, ``|a - b| <= atol + rtol |b|``: for the tests of :class:`When` rules.

    >>> same(np.array([1.0, 2.0]), [1.0, 2.0 + 1e-7]), same(np.array([1.0]), [1.0, 2.0]), same(None, 1.0)
    (True, False, False)
    """
    if a is None:
        return False
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=rtol, atol=atol))


class Mistake:
    """A typical wrong answer and its hint.

    ``value`` is the wrong answer, or a function of no arguments computing it
    (called at check time).  It is recognised with the exercise's tolerance
    around it, unless ``rtol``/``atol`` override that for this mistake.
    """

    __slots__ = ("value", "hint", "rtol", "atol")

    def __init__(self, value: Any, hint: str, *, rtol: float | None = None, atol: float | None = None) -> None:
        if not isinstance(hint, str) or not hint:
            raise ValueError(f"hint: expected a non-empty string, got {hint!r}")
        self.value, self.hint, self.rtol, self.atol = value, hint, rtol, atol

    def __repr__(self) -> str:
        return f"Mistake({self.hint!r})"

    def match(self, a: Any, exercise: Exercise) -> str | None:
        rtol = exercise.rtol if self.rtol is None else self.rtol
        atol = exercise.atol if self.atol is None else self.atol
        return self.hint if exercise.near(a, _resolve(self.value), rtol, atol) else None


class When:
    """A rule on the answer: ``hint`` when ``test(answer)`` is true.

    The test receives the answer as read (a float for :class:`Numeric`, a
    float array or None for :class:`ArrayAnswer`).  With ``shape`` it applies
    only to an array answer of that shape.  ``example`` is an answer that
    reaches this hint (the tests feed it, as they feed a mistake's value).
    """

    __slots__ = ("test", "hint", "shape", "example")

    def __init__(self, test: Callable, hint: str, *, shape: tuple | None = None, example: Any = None) -> None:
        if not isinstance(hint, str) or not hint:
            raise ValueError(f"hint: expected a non-empty string, got {hint!r}")
        self.test, self.hint, self.example = test, hint, example
        self.shape = None if shape is None else tuple(shape)

    def __repr__(self) -> str:
        return f"When({self.hint!r})"

    def match(self, a: Any, exercise: Exercise) -> str | None:
        if self.shape is not None and (a is None or a.shape != self.shape):
            return None
        return self.hint if self.test(a) else None


class Exercise:
    """What every kind has: an id, a kind, the mistakes it lists; calling it checks an answer
    and returns ``None`` (right) or a hint."""

    kind = "exercise"
    mistakes: tuple = ()

    def __init__(self, exercise_id: str) -> None:
        if not isinstance(exercise_id, str) or not exercise_id:
            raise ValueError(f"exercise_id: expected a string such as '2.3', got {exercise_id!r}")
        self.id = exercise_id

    def __call__(self, answer) -> str | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"


class _Compared(Exercise):
    """An answer compared with an expected value, then with the listed mistakes in order."""

    RTOL = ATOL = 0.0

    def __init__(self, exercise_id: str, *, expected: Callable, what: str, mistakes: Sequence = (),
                 fallback: str | None = None, rtol: float | None = None, atol: float | None = None) -> None:
        super().__init__(exercise_id)
        for m in mistakes:
            if not isinstance(m, (Mistake, When)):
                raise ValueError(f"mistakes: expected Mistake or When items, got {m!r}")
        self.expected, self.what, self.mistakes = expected, what, tuple(mistakes)
        self.fallback = fallback
        self.rtol = self.RTOL if rtol is None else float(rtol)
        self.atol = self.ATOL if atol is None else float(atol)

    def _judge(self, a, answer) -> str | None:
        expected = _resolve(self.expected)
        if self.near(a, expected, self.rtol, self.atol):
            return None
        for m in self.mistakes:
            hint = m.match(a, self)
            if hint:
                return hint
        if callable(self.fallback):
            return self.fallback(a)
        if self.fallback is not None and "{close}" not in self.fallback:
            return self.fallback
        generic = self._generic(answer, expected)
        return generic if self.fallback is None else self.fallback.replace("{close}", generic)


class Numeric(_Compared):
    """An exercise whose answer is one number.

    ``what`` names the number in hints ("a time in seconds"); ``fallback`` is
    the hint when no mistake matches (a callable receives the number).

    >>> half = Numeric("0.2", expected=lambda: 0.5, what="a fraction",
    ...                mistakes=[Mistake(50, "a fraction, not a percentage")], fallback="not half")
    >>> half(0.5 + 1e-7) is None, half(50.0), half([1, 2])
    (True, 'a fraction, not a percentage', 'expected one number (a fraction), got an array of shape (2,)')
    """

    kind = "number"
    #: the policy: |v - x| <= max(ATOL, RTOL |x|)
    RTOL = 1e-6
    ATOL = 1e-6

    def __init__(self, exercise_id: str, *, expected: Callable, what: str, mistakes: Sequence = (),
                 fallback: str | None = None, rtol: float | None = None, atol: float | None = None) -> None:
        super().__init__(exercise_id, expected=expected, what=what, mistakes=mistakes,
                         fallback=fallback if fallback is not None else f"not the {what} asked for",
                         rtol=rtol, atol=atol)

    @staticmethod
    def near(v: float, x: float, rtol: float, atol: float) -> bool:
        return abs(v - float(x)) <= max(atol, rtol * abs(float(x)))

    def _generic(self, answer, expected) -> str:
        return f"not the {self.what} asked for"

    def __call__(self, answer):
        if answer is None:
            return f"expected one number ({self.what}), got {describe_shape(None)}"
        v, hint = read_number(answer, self.what)
        return hint or self._judge(v, answer)


class ArrayAnswer(_Compared):
    """An exercise whose answer is an array.

    With ``shape``, an answer of another shape is refused first, with
    ``shape_hint`` (``{got}`` says what came) or the hint of
    :func:`read_array`; ``wrong_shapes`` maps a shape to its own hint (a
    transposed matrix, the compact instead of the full vector).  Without
    ``shape``, mistakes and rules see answers of any shape, and the default
    fallback is :func:`close`'s (``{close}`` in a fallback string inserts it).
    ``prepare`` turns an accepted alternative form (a tuple of parts) into the
    array.

    >>> turn = ArrayAnswer("0.3", expected=lambda: [0.0, 1.0], what="unit vector",
    ...                    mistakes=[Mistake([1.0, 0.0], "turn the other way")])
    >>> turn([0, 1]) is None, turn([1, 0]), turn([1, 1]), turn([1])
    (True, 'turn the other way', 'the shape is right but 1 of 2 values is off', \
'your unit vector has shape (1,); the expected unit vector has shape (2,)')
    """

    kind = "array"
    #: the policy: |a - b| <= ATOL + RTOL |b| entry by entry, shapes equal
    RTOL = 1e-5
    ATOL = 1e-6

    def __init__(self, exercise_id: str, *, expected: Callable, what: str, shape: tuple | None = None,
                 shape_hint: str | None = None, wrong_shapes: dict | None = None, mistakes: Sequence = (),
                 fallback: str | None = None, rtol: float | None = None, atol: float | None = None,
                 prepare: Callable | None = None) -> None:
        super().__init__(exercise_id, expected=expected, what=what, mistakes=mistakes, fallback=fallback,
                         rtol=rtol, atol=atol)
        self.shape = None if shape is None else tuple(shape)
        self.shape_hint, self.wrong_shapes, self.prepare = shape_hint, dict(wrong_shapes or {}), prepare

    @staticmethod
    def near(a: np.ndarray | None, b: ArrayLike, rtol: float, atol: float) -> bool:
        return same(a, b, rtol=rtol, atol=atol)

    def _generic(self, answer, expected) -> str:
        if answer is None:
            article = "an" if self.what[:1].lower() in "aeiou" else "a"
            return f"expected {article} {self.what}, got {describe_shape(None)}"
        return close(answer, expected, atol=self.atol, what=self.what)

    def __call__(self, answer):
        if self.prepare is not None:
            answer = self.prepare(answer)
        a = as_array(answer)
        if self.shape is not None and (a is None or a.shape != self.shape):
            if a is not None and a.shape in self.wrong_shapes:
                return self.wrong_shapes[a.shape]
            got = describe_shape(answer)
            if self.shape_hint:
                return self.shape_hint.replace("{got}", got)
            return f"expected {self.what} of shape {self.shape}, got {got}"
        return self._judge(a, answer)


class Custom(Exercise):
    """An exercise checked by a function ``fn(answer) -> None or hint``, for the few that
    a comparison with an expected value cannot judge (a trajectory against its limits, a
    robot against a string, one right answer among many)."""

    kind = "custom"

    def __init__(self, exercise_id: str, fn: Callable) -> None:
        super().__init__(exercise_id)
        self.fn = fn

    def __call__(self, answer):
        return self.fn(answer)


class Feedback:
    """The result of :func:`check`: true when the answer was accepted.

    It displays as nothing in a notebook, so an exercise cell ending with
    ``check(...)`` shows only the printed feedback line.
    """

    __slots__ = ("exercise_id", "ok")

    def __init__(self, exercise_id: str, ok: bool) -> None:
        self.exercise_id, self.ok = exercise_id, bool(ok)

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"Feedback({self.exercise_id!r}, ok={self.ok})"

    def _ipython_display_(self):
        pass


def check(exercise_id: str, answer: Any) -> Feedback:
    """Print feedback on ``answer`` for exercise ``exercise_id``; truthy if right.

    The feedback never contains the expected answer.
    """
    _load_chapters()
    if not isinstance(exercise_id, str):
        example = "check('2.3', answer)"
        if isinstance(exercise_id, (list, tuple)) and len(exercise_id) == 1 \
                and isinstance(exercise_id[0], str):
            example = f"check({exercise_id[0]!r}, answer)"
        raise ValueError(f"exercise_id: expected the exercise number as a string in quotes, "
                         f"such as {example}, got {type(exercise_id).__name__} {exercise_id!r}"
                         + ("; as a number 2.10 would read as 2.1"
                            if isinstance(exercise_id, numbers.Number) else ""))
    if exercise_id not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY, key=lambda k: [int(x) if x.isdigit() else x
                                                           for x in k.split(".")])) or "none"
        raise ValueError(f"exercise_id: expected one of {known}, got {exercise_id!r}")
    return check_with(_REGISTRY[exercise_id], answer)


def _none_inside(answer) -> str | None:
    """Where a None sits in an answer (the answer itself, or an item of a tuple, list or dict)."""
    if answer is None:
        return f"your answer is {NONE_HINT}"
    if isinstance(answer, (list, tuple)):
        for k, item in enumerate(answer):
            if item is None:
                return (f"item {k} of your answer is None (a variable that was never set, or a "
                        f"function without `return`?)")
    if isinstance(answer, dict):
        for key, item in answer.items():
            if item is None:
                return (f"your answer's {key!r} is None (a variable that was never set, or a "
                        f"function without `return`?)")
    return None


def check_with(exercise: Exercise, answer: Any) -> Feedback:
    """What :func:`check` does, with the exercise itself rather than its id."""
    exercise_id = exercise.id
    try:
        hint = _none_inside(answer)
        if hint is not None:
            pass
        elif nonfinite(answer):
            hint = ("your answer contains NaN or inf: look for a division by zero, an arccos or "
                    "arcsin of a value beyond +-1, or a variable that was never set")
        else:
            hint = exercise(answer)
    except Exception as exc:  # a malformed answer must give feedback, not a traceback
        if _ragged(answer):
            hint = f"your answer is {describe_shape(answer)}"
        else:
            hint = f"your answer could not be checked ({type(exc).__name__}: {exc})"
    if hint is None:
        print(tr(f"Exercise {exercise_id}: correct."))
        return Feedback(exercise_id, True)
    print(tr(f"Exercise {exercise_id}: not yet. Hint: {hint}"))
    return Feedback(exercise_id, False)


#: The feedback's own sentences, as templates: each ``{field}`` stands for the text the code puts
#: there. rvc/locale/zh_CN.po translates them (rvc.i18n.tr matches a template against the
#: printed line and translates what each field matched in turn), beside every exercise's hints.
MESSAGES = (
    "Exercise {id}: correct.",
    "Exercise {id}: not yet. Hint: {hint}",
    "your answer is {what}",
    "item {k} of your answer is None (a variable that was never set, or a function without `return`?)",
    "your answer's {key} is None (a variable that was never set, or a function without `return`?)",
    "your answer contains NaN or inf: look for a division by zero, an arccos or arcsin of a value "
    "beyond +-1, or a variable that was never set",
    "your answer could not be checked ({error})",
    "a {kind} whose rows have different lengths ({lengths}): give every row the same number of values",
    "an array of shape {shape}",
    "a number",
    "expected one number ({what}), got a string",
    "expected one number ({what}), got {got}",
    "your {what} is NaN or inf",
    "expected {what} of shape {shape}, got {got}",
    "your {what} contains NaN or inf",
    "expected numbers, got {got}",
    "your {what} has shape {shape}; the expected {what2} has shape {shape2}",
    "the shape is right but {wrong} of {size} values is off",
    "the shape is right but {wrong} of {size} values are off",
    "not the {what} asked for",
    "expected an {what}, got {got}",
    "expected a {what}, got {got}",
    "a dict with keys {keys}",
    NONE_HINT,
)
