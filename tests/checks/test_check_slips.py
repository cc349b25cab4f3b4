"""Issue 20: check() on a careless student's slips says what came, in a student's words."""

import pytest

from rvc.exercises import check, describe_shape, exercises

IDS = sorted(exercises(), key=lambda k: [int(x) for x in k.split(".")])


def hint_of(capsys, exercise_id, answer):
    assert not check(exercise_id, answer)
    out = capsys.readouterr().out.strip()
    prefix = f"Exercise {exercise_id}: not yet. Hint: "
    assert out.startswith(prefix), out
    return out[len(prefix):]


@pytest.mark.parametrize("exercise_id", IDS)
def test_an_answer_of_none_is_called_none_in_every_checker(capsys, exercise_id):
    hint = hint_of(capsys, exercise_id, None)
    assert "None" in hint and "return" in hint
    assert "NaN" not in hint and "shape ()" not in hint and "NoneType" not in hint


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_ragged_list_gets_a_plain_hint_in_every_checker(capsys, exercise_id):
    hint = hint_of(capsys, exercise_id, [[1.0, 2.0, 3.0], [4.0, 5.0]])
    assert "inhomogeneous" not in hint and "could not be checked" not in hint
    assert "setting an array element" not in hint


@pytest.mark.parametrize("answer, where", [((1.0, None, 2.0), "item 1"),
                                           ([None], "item 0"),
                                           ({"axis": None, "theta": 1.0}, "'axis'")])
def test_a_none_inside_the_answer_is_located(capsys, answer, where):
    hint = hint_of(capsys, "9.10", answer)
    assert where in hint and "None" in hint


def test_describe_shape_names_the_rows_of_a_ragged_list():
    text = describe_shape([[1, 2, 3], [4, 5]])
    assert "different lengths (3, 2)" in text
    assert describe_shape([[1, 2], [3, 4]]) == "an array of shape (2, 2)"


@pytest.mark.parametrize("bad, said", [(["2.3"], "check('2.3', answer)"), (2.3, "2.10 would read as 2.1"),
                                       (("2.3", "2.4"), "got tuple"), (None, "got NoneType"),
                                       (23, "got int")])
def test_an_exercise_id_that_is_not_a_string_gets_a_clear_answer(bad, said):
    with pytest.raises(ValueError) as info:
        check(bad, 1.0)
    message = str(info.value)
    assert message.startswith("exercise_id: expected the exercise number as a string") and said in message


def test_an_unknown_exercise_id_lists_the_known_ones_in_order():
    with pytest.raises(ValueError) as info:
        check("2.99", 1.0)
    message = str(info.value)
    assert message.startswith("exercise_id: expected one of 2.1, 2.2, 2.3") and "'2.99'" in message
