"""check() in Chinese: every hint the wrong answers reach is Chinese, names no code and hides the
answer, as the English ones do (test_exercise_feedback)."""

import re

import numpy as np

import rvc
from rvc.exercises import check, exercises
from test_exercise_feedback import CODE, wrong_answers

CJK = re.compile(r"[\u4e00-\u9fff]")


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


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def written_hints():
    """(exercise id, English hint) for every hint of the registry (test_exercise_registry.hints),
    a fallback's ``{close}`` filled with one of close()'s own hints."""
    from test_exercise_registry import EXERCISES

    sample = "the shape is right but 6 of 16 values are off"
    for exercise_id, ex in EXERCISES.items():
        for m in ex.mistakes:
            yield exercise_id, m.hint
        for text in (getattr(ex, "fallback", None), getattr(ex, "shape_hint", None)):
            if isinstance(text, str):
                yield exercise_id, text.replace("{close}", sample).replace("{got}", "an array of shape (2,)")
        yield from ((exercise_id, h) for h in getattr(ex, "wrong_shapes", {}).values())


def test_every_written_hint_in_chinese_passes_the_never_give_code_rule(chinese):
    from rvc.i18n import tr

    seen = 0
    for exercise_id, hint in written_hints():
        zh = tr(hint)
        assert CJK.search(zh), (exercise_id, hint)
        assert not CODE.search(zh), (exercise_id, zh)
        seen += 1
    assert seen > 150
    assert CODE.search("先调用 jtraj(q0, qf, t)")                  # the rule reads Chinese as well


def test_a_translation_neither_adds_nor_drops_a_number():
    """A Chinese hint can give away no value its English does not (the expected value included):
    every entry of rvc's catalog has the numbers of its English, no other."""
    from rvc.i18n import _catalog

    exact, _ = _catalog()
    wrong = [(en, zh) for en, zh in exact.items() if sorted(NUMBER.findall(en)) != sorted(NUMBER.findall(zh))]
    assert len(exact) > 300
    assert not wrong, wrong[:5]


def test_chinese_feedback_never_shows_the_expected_value(chinese, capsys):
    """What the chapter tests ask of the English feedback (exercise_leaks.assert_no_leak), asked of
    the Chinese for every wrong answer of chapters 2, 3 and 7 whose English passes it."""
    from exercise_leaks import leak_strings
    from test_exercise_feedback import RIGHT

    checked = 0
    for exercise_id, answer in wrong_answers():
        expected = RIGHT[exercise_id]()
        if not isinstance(expected, (int, float, np.ndarray, list, tuple)):
            continue
        try:
            secrets = leak_strings(expected, skip_whole=True)
        except (TypeError, ValueError):
            continue
        check(exercise_id, answer)
        zh = capsys.readouterr().out
        rvc.set_language("en")
        check(exercise_id, answer)
        en = capsys.readouterr().out
        rvc.set_language("zh")
        for s in secrets:
            pattern = rf"(?<![\d.]){re.escape(s)}(?!\d)"
            if not re.search(pattern, en):
                assert not re.search(pattern, zh), (exercise_id, s, zh)
        checked += 1
    assert checked > 50


def test_a_template_translates_a_formatted_hint_field_by_field(chinese):
    from rvc.i18n import tr

    assert tr("expected one number (a velocity in rad/s), got an array of shape (2,)") == \
        "应为一个数（一个以 rad/s 为单位的速度），得到的是一个形状为 (2,) 的数组"
    assert tr("expected one number (a velocity in rad/s), got a string") == \
        "应为一个数（一个以 rad/s 为单位的速度），得到的是一个字符串"      # the more specific entry wins
    assert tr("your robot has 7 joints; the string has a different number") == \
        "你的机器人有 7 个关节；字符串的关节数与此不同"
    assert tr("Exercise 3.1: not yet. Hint: expected numbers, got str") == \
        "练习 3.1：还不对。提示：应为数值，得到的是 str"
