"""Every exercise checker's branches, reached by iterating the exercise data (no exercise ids typed).

For every Numeric and ArrayAnswer exercise: an answer just inside its tolerance passes and
one just outside is refused (on each side, entry by entry for arrays); each Mistake with a
tolerance of its own is recognised just inside it and not just outside; each wrong shape
gets its own hint.  For every pick-from-a-grid exercise (its right answer an element of a
grid in the chapter's data) each grid neighbour of the right answer is refused.  And the
generic fallback hint counts the values off exactly.
"""

import functools
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from rvc.exercises import ArrayAnswer, Custom, Mistake, Numeric, close, exercises
from rvc.exercises import _resolve as resolve      # the checker's own way of evaluating a value

sys.path.insert(0, str(Path(__file__).parent))

ALL = exercises()
NUMERIC = sorted(k for k, e in ALL.items() if isinstance(e, Numeric))
ARRAYS = sorted(k for k, e in ALL.items() if isinstance(e, ArrayAnswer) and e.prepare is None)
CUSTOM = sorted(k for k, e in ALL.items() if isinstance(e, Custom))


def _tol_number(ex, x):
    return max(ex.atol, ex.rtol * abs(x))


def test_the_registry_has_exercises_of_every_kind():
    assert NUMERIC and ARRAYS and CUSTOM


@pytest.mark.parametrize("eid", NUMERIC)
def test_numeric_answers_just_inside_pass_and_just_outside_are_refused(eid):
    ex = ALL[eid]
    x = float(resolve(ex.expected))
    tol = _tol_number(ex, x)
    if tol == 0:                                        # an exact answer (a count): only x itself
        assert ex(x) is None
        for d in (-1.0, -0.5, 0.5, 1.0):
            assert ex(x + d) is not None, f"{eid}: {x + d} is not the exact answer"
        return
    for sign in (1, -1):
        assert ex(x + sign * 0.9 * tol) is None, f"{eid}: {x} + {sign * 0.9 * tol} is within tolerance"
        assert ex(x + sign * 1.1 * tol) is not None, f"{eid}: {x} + {sign * 1.1 * tol} is outside tolerance"


def _entries(b):
    """The entries of largest and smallest magnitude (where atol and rtol each dominate)."""
    order = np.argsort(np.abs(b).ravel())
    return sorted({int(order[-1]), int(order[0])})


@pytest.mark.parametrize("eid", ARRAYS)
def test_array_entries_just_inside_pass_and_just_outside_are_refused(eid):
    ex = ALL[eid]
    b = np.asarray(resolve(ex.expected), dtype=float)
    assert ex(b) is None
    for i in _entries(b):
        tol = ex.atol + ex.rtol * abs(b.ravel()[i])
        for sign in (1, -1):
            inside, outside = b.copy().ravel(), b.copy().ravel()
            inside[i] += sign * 0.9 * tol
            outside[i] += sign * 1.1 * tol
            assert ex(inside.reshape(b.shape)) is None, f"{eid}: entry {i} moved 0.9 tol"
            assert ex(outside.reshape(b.shape)) is not None, f"{eid}: entry {i} moved 1.1 tol"


def _mistakes_with_own_tolerance():
    for eid, ex in ALL.items():
        for k, m in enumerate(getattr(ex, "mistakes", ())):
            if isinstance(m, Mistake) and (m.atol is not None or m.rtol is not None):
                yield f"{eid}#{k}"


@pytest.mark.parametrize("key", list(_mistakes_with_own_tolerance()))
def test_a_mistake_with_its_own_tolerance_is_recognised_inside_it_only(key):
    eid, k = key.split("#")
    ex = ALL[eid]
    m = ex.mistakes[int(k)]
    rtol = ex.rtol if m.rtol is None else m.rtol
    atol = ex.atol if m.atol is None else m.atol
    v = resolve(m.value)
    if isinstance(ex, Numeric):
        v = float(v)
        tol = max(atol, rtol * abs(v))
        assert ex(v + 0.9 * tol) == m.hint
        assert ex(v + 1.1 * tol) != m.hint or any(x.hint == m.hint for x in ex.mistakes[int(k) + 1:])
    else:
        v = np.asarray(v, dtype=float)
        i = int(np.argmax(np.abs(v)))
        tol = atol + rtol * abs(v.ravel()[i])
        inside, outside = v.copy().ravel(), v.copy().ravel()
        inside[i] += 0.9 * tol
        outside[i] += 1.1 * tol
        assert ex(inside.reshape(v.shape)) == m.hint
        assert ex(outside.reshape(v.shape)) != m.hint


def _wrong_shapes():
    for eid in ARRAYS:
        for shape in ALL[eid].wrong_shapes:
            yield eid, shape


@pytest.mark.parametrize("eid, shape", list(_wrong_shapes()))
def test_each_wrong_shape_gets_its_own_hint(eid, shape):
    ex = ALL[eid]
    assert ex(np.full(shape, 0.123)) == ex.wrong_shapes[shape]


@pytest.mark.parametrize("eid", [e for e in ARRAYS if ALL[e].shape is not None])
def test_a_shape_neither_expected_nor_listed_is_refused_before_any_comparison(eid):
    ex = ALL[eid]
    shape = tuple(s + 1 for s in ex.shape)
    hint = ex(np.zeros(shape))
    assert hint is not None and hint not in ex.wrong_shapes.values()


# ------------------------------------------------------------------ picks from a grid

def _right_answers():
    right = {}
    for ch in ("02", "03", "07", "08", "09", "10"):
        try:
            mod = importlib.import_module(f"test_exercises_ch{ch}")
        except ImportError:
            continue
        right.update(getattr(mod, "RIGHT", {}))
    return right


def _grid_picks():
    right = _right_answers()
    for eid in CUSTOM:
        if eid not in right:
            continue
        try:
            v = float(right[eid]())
        except (TypeError, ValueError):
            continue
        chapter = importlib.import_module(f"rvc.exercises.ch{int(eid.split('.')[0]):02d}")
        for name, data in vars(chapter).items():
            if not isinstance(data, dict):
                continue
            for key, grid in data.items():
                g = np.asarray(grid) if isinstance(grid, (list, tuple, np.ndarray)) else None
                if g is None or g.ndim != 1 or g.size < 3 or not np.issubdtype(g.dtype, np.number):
                    continue
                hits = np.flatnonzero(np.isclose(g, v, rtol=1e-9, atol=0))
                if hits.size == 1:
                    yield eid, f"{name}[{key!r}]", g, int(hits[0])


@functools.cache
def grid_picks():
    """Found when a test asks (each right answer is an evaluation; 10.6's is five simulations),
    not when the tests are collected."""
    return list(_grid_picks())


def test_some_exercises_are_picks_from_a_grid():
    assert grid_picks()


def test_each_grid_neighbour_of_the_right_pick_is_refused():
    for eid, where, grid, k in grid_picks():
        ex = ALL[eid]
        assert ex(float(grid[k])) is None, f"{eid}: the right pick {grid[k]} of {where} was refused"
        for j in (k - 1, k + 1):
            if 0 <= j < len(grid):
                assert ex(float(grid[j])) is not None, f"{eid}: the neighbour {grid[j]} of {where} passed"


# ------------------------------------------------------------------ the generic hints

@pytest.mark.parametrize("off", [1, 2, 3])
def test_the_fallback_counts_exactly_the_values_beyond_the_tolerance(off):
    b = np.arange(1.0, 7.0)
    a = b.copy()
    a[:off] += 1.5e-6                                  # just beyond atol = 1e-6
    a[off:] += 0.5e-6                                  # just within
    verb = "is" if off == 1 else "are"
    assert close(a, b) == f"the shape is right but {off} of 6 values {verb} off"


def test_the_fallback_accepts_values_just_within():
    b = np.arange(1.0, 7.0)
    assert close(b + 0.9e-6, b) is None
