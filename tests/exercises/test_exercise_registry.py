"""The exercises as data: every listed mistake is reachable, every hint names no code, and the
registry, its table of notebooks and the notebooks agree."""

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest

from rvc.exercises import (CHAPTERS, NOTEBOOKS, ArrayAnswer, Custom, Mistake, Numeric, When, exercises,
                           listing)
from test_exercise_feedback import CODE

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = exercises()
CHECK_CALL = re.compile(r"""check\(\s*["']([^"']+)["']""")


def _order(exercise_id):
    return [int(x) for x in exercise_id.split(".")]


def _value(v):
    return v() if callable(v) else v


def listed():
    """(exercise id, index, Mistake or When) for every listed mistake of every exercise."""
    for exercise_id in sorted(EXERCISES, key=_order):
        for k, m in enumerate(EXERCISES[exercise_id].mistakes):
            yield exercise_id, k, m


LISTED = list(listed())


def test_the_vocabulary_is_used_and_custom_is_the_exception():
    kinds = [ex.kind for ex in EXERCISES.values()]
    assert set(kinds) == {"number", "array", "custom"}
    assert kinds.count("custom") < len(kinds) / 3
    assert all(isinstance(ex, (Numeric, ArrayAnswer, Custom)) for ex in EXERCISES.values())
    assert all(ex.id == k for k, ex in EXERCISES.items())


@pytest.mark.parametrize("exercise_id, index, mistake", LISTED,
                         ids=[f"{e}-{k}" for e, k, _ in LISTED])
def test_every_mistake_is_reachable(exercise_id, index, mistake):
    """Its own value (a Mistake's, a When's example) gets exactly its hint: no earlier item
    shadows it, and it is not the right answer."""
    if isinstance(mistake, When):
        assert mistake.example is not None, f"{exercise_id}: a When without an example"
        answer = _value(mistake.example)
    else:
        answer = _value(mistake.value)
    assert EXERCISES[exercise_id](answer) == mistake.hint


def hints():
    """Every hint written in the data: mistakes, rules, fallbacks, shape hints."""
    for exercise_id, ex in EXERCISES.items():
        for m in ex.mistakes:
            yield exercise_id, m.hint
        for text in (getattr(ex, "fallback", None), getattr(ex, "shape_hint", None)):
            if isinstance(text, str):
                yield exercise_id, text.replace("{close}", "").replace("{got}", "")
        yield from ((exercise_id, h) for h in getattr(ex, "wrong_shapes", {}).values())


def test_every_hint_passes_the_never_give_code_rule():
    seen = 0
    for exercise_id, hint in hints():
        assert not CODE.search(hint), (exercise_id, hint)
        seen += 1
    assert seen > 150
    assert CODE.search("call jtraj(q0, qf, t) first")        # the rule can fail


def test_a_mistake_is_recognised_within_the_exercise_band_only():
    """The tolerance policy, as the module documents it, seen through one listed mistake."""
    ex = EXERCISES["3.4"]
    m = next(m for m in ex.mistakes if isinstance(m, Mistake) and not callable(m.value))
    wrong = np.array(m.value, dtype=float)
    assert ex(wrong + 0.9 * ex.atol) == m.hint
    assert ex(wrong + [2 * ex.atol, 0, 0]) != m.hint
    assert Numeric.near(1000.0 + 9e-4, 1000.0, Numeric.RTOL, Numeric.ATOL)
    assert not Numeric.near(1000.0 + 2e-3, 1000.0, Numeric.RTOL, Numeric.ATOL)
    assert Numeric.near(1e-7, 0.0, Numeric.RTOL, Numeric.ATOL)


def notebook_ids():
    """{notebook name: exercise ids its code cells pass to check}, read from the notebooks."""
    out = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        out[path.stem] = set(CHECK_CALL.findall(code))
    return out


def test_the_table_the_registry_and_the_notebooks_agree():
    found = notebook_ids()
    in_notebooks = {e for ids in found.values() for e in ids}
    assert in_notebooks == set(NOTEBOOKS) == set(EXERCISES)
    for exercise_id, notebook in NOTEBOOKS.items():
        text = (ROOT / "notebooks" / f"{notebook}.ipynb").read_text()
        assert f'check(\\"{exercise_id}\\"' in text, (exercise_id, notebook)
        assert exercise_id in found[notebook]


def test_the_listing_gives_id_kind_notebook_and_mistakes():
    rows = listing()
    assert [r["id"] for r in rows] == sorted(EXERCISES, key=_order)
    for r in rows:
        assert r["notebook"] == NOTEBOOKS[r["id"]]
        assert r["mistakes"] == [m.hint for m in EXERCISES[r["id"]].mistakes]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_checker_is_named_underscore(chapter):
    tree = ast.parse((ROOT / "rvc" / "exercises" / f"{chapter}.py").read_text())
    names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    assert "_" not in names
