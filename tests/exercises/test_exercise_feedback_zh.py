"""check() in Chinese: every hint the wrong answers reach is Chinese, names no code and hides the
answer, as the English ones do (test_exercise_feedback)."""

import re

import pytest

import rvc
from rvc.exercises import check, exercises
from test_exercise_feedback import CODE, wrong_answers

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def chinese():
    rvc.set_language("zh")
    yield
    rvc.set_language("en")


def test_every_hint_a_wrong_answer_reaches_is_chinese_and_names_no_code(chinese, capsys):
    seen, english = 0, []
    for exercise_id, answer in wrong_answers():
        check(exercise_id, answer)
        out = capsys.readouterr().out
        assert out.startswith(f"练习 {exercise_id}：还不对。提示："), out
        hint = out.split("提示：", 1)[-1]
        assert not CODE.search(hint), (exercise_id, hint)
        if not CJK.search(hint):
            english.append((exercise_id, hint.strip()))
        seen += 1
    assert seen > 100
    assert not english, f"{len(english)} hints left in English: {english[:5]}"


def test_every_written_hint_has_its_chinese(chinese):
    from rvc.i18n import tr

    missing = []
    for exercise_id, ex in exercises().items():
        texts = [m.hint for m in ex.mistakes] + list(getattr(ex, "wrong_shapes", {}).values())
        texts += [t for t in (getattr(ex, "fallback", None),) if isinstance(t, str) and "{close}" not in t]
        missing += [(exercise_id, t) for t in texts if not CJK.search(tr(t))]
    assert not missing, missing[:10]


def test_a_right_answer_is_accepted_in_chinese(chinese, capsys):
    ex = exercises()["2.1"]
    assert check("2.1", ex.expected())
    assert capsys.readouterr().out == "练习 2.1：正确。\n"


def test_english_feedback_is_unchanged(capsys):
    ex = exercises()["2.1"]
    check("2.1", ex.expected())
    assert capsys.readouterr().out == "Exercise 2.1: correct.\n"
