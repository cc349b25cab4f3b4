"""The grader's answers as data (rvc.exercises.answers) and its judge (rvc.exercises.grade.judge),
without a kernel: every right answer survives the trip through JSON, and what cannot travel or
be judged gives a reason, never a crash."""

import json

import numpy as np
import pytest
from test_exercise_feedback import RIGHT

from rvc.exercises import check
from rvc.exercises.answers import MAX_VALUES, Opaque, capture_source, decode, encode
from rvc.exercises.grade import Outcome, instrument, judge, write_reports


def trip(value):
    """``value`` as the judge sees it: encoded in the kernel, sent as JSON, decoded."""
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize("exercise_id", sorted(RIGHT, key=lambda k: [int(x) for x in k.split(".")]))
def test_every_right_answer_is_still_accepted_after_the_trip(exercise_id):
    outcome = judge(exercise_id, {"answer": json.loads(json.dumps(encode(RIGHT[exercise_id]())))})
    assert outcome == Outcome("accepted"), outcome


def test_values_survive_the_trip_with_their_types():
    value = {"a": (1, 2.5, None, True), 3: [np.float64(np.nan), np.inf, -np.inf], "s": "text",
             "m": np.arange(6, dtype=np.int16).reshape(2, 3), "c": 1 + 2j, "big": 2 ** 70,
             "z": np.array([1 + 1j, 2]), "e": np.zeros((0, 3))}
    back = trip(value)
    assert back.keys() == value.keys() and back["a"] == (1, 2.5, None, True) and back["s"] == "text"
    assert np.isnan(back[3][0]) and back[3][1:] == [np.inf, -np.inf]
    assert back["m"].dtype == np.int16 and np.array_equal(back["m"], value["m"])
    assert back["c"] == 1 + 2j and back["big"] == 2 ** 70 and np.array_equal(back["z"], value["z"])
    assert back["e"].shape == (0, 3)


def test_rvc_objects_are_rebuilt_without_their_code_and_other_objects_are_not():
    from rvc import DHRobot, RevoluteDH, jtraj

    robot = trip(DHRobot([RevoluteDH(a=1.0), RevoluteDH(a=0.5)], name="arm"))
    assert type(robot) is DHRobot and np.allclose(robot.fkine([0.1, 0.2]),
                                                  DHRobot([RevoluteDH(a=1.0), RevoluteDH(a=0.5)]).fkine([0.1, 0.2]))
    traj = jtraj([0, 0], [1, 2], 5)
    assert np.array_equal(trip(traj).q, traj.q)

    class Mine:
        pass
    assert trip(Mine()) == Opaque("a Mine, which the grader cannot collect as data")
    assert trip(lambda: 1).what.startswith("a function")
    assert decode({"object": "subprocess:Popen", "state": {}}).what.endswith("not one of rvc")
    assert decode({"object": "rvc:rotx", "state": {}}).what.endswith("not a class of rvc")
    assert isinstance(decode({"nonsense": 1}), Opaque) and isinstance(decode({}), Opaque)


def test_an_answer_too_large_or_too_deep_does_not_travel():
    assert "too large" in trip(np.zeros((10_000, 10_000))).what
    assert "too large" in trip([0.0] * (MAX_VALUES + 1)).what
    deep = []
    for _ in range(50):
        deep = [deep]
    assert "levels deep" in str(trip(deep))


BAD = [({"answer": "a string"}, "hint"), ({"answer": None}, "hint"), ({"answer": {"float": "nan"}}, "hint"),
       ({"answer": {"opaque": "a function, which the grader cannot collect as data"}}, "unjudged"),
       ({"answer": {"array": [1, 2], "dtype": "no-such-type", "shape": [2]}}, "unjudged"),
       ({"answer": [[1, 2], [3]]}, "hint"), ({"missing": True}, "unjudged"),
       ({"missing": True, "error": "ZeroDivisionError: division by zero"}, "unjudged"),
       ({"reason": "the notebook could not be read (it is not JSON)"}, "unjudged")]


@pytest.mark.parametrize("exercise_id", ["2.3", "3.6", "7.9", "7.11", "9.11"])
@pytest.mark.parametrize("collected, status", BAD)
def test_anything_collected_gives_an_outcome_with_a_reason(exercise_id, collected, status):
    outcome = judge(exercise_id, collected)
    assert outcome.status == status and outcome.text and outcome.mark == 0


def test_the_reasons_say_what_happened():
    assert judge("2.3", {"missing": True}).text == "the cell did not set `answer`"
    assert judge("2.3", {"missing": True, "error": "NameError: name 'answer' is not defined"}).text == \
        "the cell did not set `answer`"
    assert judge("2.3", {"missing": True, "error": "ZeroDivisionError: division by zero"}).text == \
        "the cell raised ZeroDivisionError: division by zero before `answer` was set"
    assert judge("2.3", {"answer": {"opaque": "an X"}}).text == "your answer is an X"


def test_a_slow_check_is_stopped(monkeypatch):
    import time

    from rvc.exercises import Custom
    slow = Custom("0.9", lambda a: time.sleep(5))
    monkeypatch.setattr("rvc.exercises.grade.exercises", lambda: {"0.9": slow})
    assert "longer than 0.2 s" in judge("0.9", {"answer": 1}, seconds=0.2).text


def test_the_judge_gives_the_hint_check_prints(capsys):
    wrong = np.eye(3)
    check("2.1", wrong)
    printed = capsys.readouterr().out.split("Hint: ", 1)[1].strip()
    assert judge("2.1", {"answer": encode(wrong)}) == Outcome("hint", printed)


def test_the_capture_cell_follows_each_exercise_cell_and_forgets_answer():
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("check('7.1', answer)"),          # not code: not an exercise cell
        nbformat.v4.new_code_cell("answer = 1\ncheck('7.1', answer)"),
        nbformat.v4.new_code_cell("answer = 2\ncheck('9.9', answer)"),   # not this notebook's
        nbformat.v4.new_code_cell("answer = 3\ncheck(\"7.2\", answer)")])
    cells, where = instrument(nb, ["7.1", "7.2"], "tok")
    assert [c.source for c in cells][1] == capture_source("7.1", "tok") and where == {"7.1": 0, "7.2": 3}
    namespace, shown = {"answer": np.eye(2)}, []
    import IPython.display
    original = IPython.display.display
    IPython.display.display = lambda data, raw: shown.append(data)
    try:
        exec(capture_source("7.1", "tok"), namespace)
        exec(capture_source("7.1", "tok"), namespace)
    finally:
        IPython.display.display = original
    (first,), (second,) = (list(d.values()) for d in shown)
    assert decode(first["answer"]).shape == (2, 2) and first["token"] == "tok"
    assert second == {"id": "7.1", "token": "tok", "missing": True} and "answer" not in namespace


def test_reports(tmp_path):
    rows = {"ann": {"7.1": Outcome("accepted"), "7.2": Outcome("hint", "a | b"), "7.3": Outcome("unjudged", "x")},
            "ben": {"7.1": Outcome("hint", "a | b"), "7.2": Outcome("hint", "a | b"), "7.3": Outcome("accepted")}}
    write_reports(tmp_path, ["ann", "ben"], ["7.1", "7.2", "7.3"], rows, ["stray.txt"])
    assert (tmp_path / "grades.csv").read_text().splitlines() == \
        ["student,7.1,7.2,7.3,total", "ann,1,0,0,1", "ben,0,0,1,1"]
    summary = (tmp_path / "summary.md").read_text()
    assert "| 7.2 | 0 of 2 | a \\| b (2) |  |" in summary and "stray.txt" in summary
    ann = (tmp_path / "feedback" / "ann.md").read_text()
    assert "- **Exercise 7.2**: not accepted. Hint: a | b" in ann and "- **Exercise 7.3**: not judged: x" in ann


def test_of_two_cells_for_one_exercise_the_last_is_judged():
    """A student who answers an exercise again in a later cell is judged on that later answer."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("answer = 1\ncheck('7.1', answer)"),
                                         nbformat.v4.new_code_cell("x = 0"),
                                         nbformat.v4.new_code_cell("answer = 2\ncheck('7.1', answer)")])
    cells, where = instrument(nb, ["7.1"], "tok")
    assert where == {"7.1": 3} and cells[3].source.startswith("answer = 2")
    assert cells[4].source == capture_source("7.1", "tok")


def test_hidden_folders_of_the_submissions_are_not_students(tmp_path):
    """Jupyter's .ipynb_checkpoints and a .git folder beside the students' folders are skipped."""
    from rvc.exercises.grade import find_submissions

    for name in ("ann", "bob", ".ipynb_checkpoints", ".git"):
        (tmp_path / name).mkdir()
    (tmp_path / ".ipynb_checkpoints" / "07-1_forward_kinematics.ipynb").write_text("{}")
    students, found, ignored = find_submissions(tmp_path)
    assert students == ["ann", "bob"] and set(found) == {"ann", "bob"} and ignored == []
