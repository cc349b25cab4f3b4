"""Chapter 2 exercise checkers: right answers pass, typical mistakes get their hint, hints hide the answer."""

import numpy as np
import pytest

from rvc import (
    Twist2, Twist3, e2h, eul2r, h2e, q2r, qmul, qslerp, r2q, rotx, roty, rotz, rpy2r, rpy2tr,
    skewa, tr2angvec, tr2eul, tr2rt, transl, transl2, trexp, trinv, trlog, trot2, trotx, trotz,
)
from rvc.exercises import check

DEG = {"unit": "deg"}


def _2_2(T1, T2, p=(1.0, 0.0)):
    p = e2h(p)
    return np.array([h2e(T1 @ T2 @ p), h2e(T2 @ T1 @ p)])


# ---------------------------------------------------------------- expected values
R21 = rotz(40, **DEG) @ roty(25, **DEG)
T1_22, T2_22 = transl2(1, 2) @ trot2(30, **DEG), transl2(2, 1)
A22 = _2_2(T1_22, T2_22)
R23 = rpy2r(0.4, 0.3, 0.2)
E23 = tr2eul(R23)
R24 = rotx(60, **DEG) @ roty(45, **DEG)
TH24, V24 = tr2angvec(R24)
A24 = np.r_[TH24, V24]
Q25, P25 = r2q(rpy2r(0.1, 0.2, 0.3)), np.array([1.0, 2.0, 3.0])
A25 = q2r(Q25) @ P25
T26 = transl2(2, 1) @ trot2(60, **DEG)
A26 = Twist2.from_T(T26).pole
Q0, Q1 = r2q(rpy2r(-20, 10, -150, **DEG)), r2q(rpy2r(30, 20, 150, **DEG))
A27 = q2r(qslerp(Q0, Q1, 0.25, shortest=True))
T28 = transl(0.5, -1, 2) @ rpy2tr(0.6, -0.2, 0.9)
TW28 = Twist3.from_T(T28)
W28 = TW28.w / TW28.theta
A28 = {"axis": W28, "theta": TW28.theta, "pitch": TW28.pitch, "point": TW28.pole}

# 2.9: X turned by 90 degrees about the vertical line through C (three routes agree)
C29, X29 = np.array([2.0, 3.0, 2.0]), transl(3, 4, -4)
A29 = transl(C29) @ trotz(np.pi / 2) @ transl(-C29) @ X29
# 2.10: a third of the screw motion from T0 to T1
T0_210, T1_210 = transl(1, 0, 0), transl(0, 2, 1) @ trotz(np.pi / 2) @ trotx(0.4)
A210 = T0_210 @ trexp(trlog(trinv(T0_210) @ T1_210) / 3)

EXPECTED = {"2.1": R21, "2.2": A22, "2.3": E23, "2.4": A24, "2.5": A25, "2.6": A26,
            "2.7": A27, "2.8": A28, "2.9": A29, "2.10": A210}


def _by_hand_2_8():
    """The notebook's route (tr2angvec + lstsq), which lands on a different point of the axis."""
    R, t = tr2rt(T28)
    theta, w = tr2angvec(R)
    d = w @ t
    c = np.linalg.lstsq(np.eye(3) - R, t - d * w, rcond=None)[0]
    return {"axis": w, "theta": theta, "pitch": d / theta, "point": c}


RIGHT = [
    ("2.1", R21),
    ("2.2", A22),
    ("2.3", E23),
    ("2.4", A24),
    ("2.4", (TH24, V24)),
    ("2.5", A25),
    ("2.6", A26),
    ("2.7", A27),
    ("2.8", A28),
    ("2.8", _by_hand_2_8()),
    ("2.8", {**A28, "point": TW28.pole + 2.5 * W28}),
    ("2.9", A29),
    ("2.9", Twist3.R([0, 0, 1], C29).exp(np.pi / 2) @ X29),
    ("2.9", trexp(skewa(Twist3.R([0, 0, 1], C29).S) * np.pi / 2) @ X29),
    ("2.10", A210),
    ("2.10", trexp(trlog(T1_210 @ trinv(T0_210)) / 3) @ T0_210),     # the same screw, world frame
]

# (exercise, wrong answer, a fragment the hint must contain)
WRONG = [
    ("2.1", rotz(40) @ roty(25), "radians"),
    ("2.1", roty(25, **DEG) @ rotz(40, **DEG), "order of multiplication"),
    ("2.1", R21.T, "inverse"),
    ("2.1", np.ones((3, 3)), "not a rotation"),
    ("2.1", rotz(40, **DEG), "values"),
    ("2.1", None, "None"),
    ("2.1", np.eye(2), "shape"),
    ("2.2", A22[::-1], "order of multiplication"),
    ("2.2", np.array([t2r @ [1.0, 0.0] for t2r in ((T1_22 @ T2_22)[:2, :2], (T2_22 @ T1_22)[:2, :2])]),
     "translation"),
    ("2.2", np.array([h2e(np.linalg.inv(T) @ e2h([1.0, 0.0])) for T in (T1_22 @ T2_22, T2_22 @ T1_22)]),
     "world coordinates"),
    ("2.2", _2_2(transl2(1, 2) @ trot2(30), T2_22), "radians"),
    ("2.2", e2h(A22), "homogeneous 1"),
    ("2.3", tr2eul(R23, flip=True), "negative theta"),
    ("2.3", tr2eul(R23, unit="deg"), "radians"),
    ("2.3", np.array([0.4, 0.3, 0.2]), "roll-pitch-yaw"),
    ("2.3", E23[::-1], "order"),
    ("2.3", E23 + [2 * np.pi, 0, 0], "standard triple"),
    ("2.4", np.r_[TH24, -V24], "wrong way"),
    ("2.4", np.r_[-TH24, -V24], "[0, pi]"),
    ("2.4", np.r_[np.degrees(TH24), V24], "radians"),
    ("2.4", np.r_[TH24, 2 * V24], "unit vector"),
    ("2.4", np.r_[TH24 / 2, V24], "angle"),
    ("2.4", np.r_[TH24, 0.0, 0.0, 1.0], "eigenvalue 1"),
    ("2.4", V24, "4-array"),
    ("2.5", q2r(Q25).T @ P25, "inverse"),
    ("2.5", np.r_[0.0, A25], "vector part"),
    ("2.5", qmul(Q25, np.r_[0, P25])[1:], "single product"),
    ("2.5", A25 + 0.1, "values"),
    ("2.6", T26[:2, 2], "translation"),
    ("2.6", np.linalg.solve(np.eye(2) - T26[:2, :2].T, T26[:2, 2]), "which matrix"),
    ("2.6", Twist2.from_T(transl2(2, 1) @ trot2(60)).pole, "radians"),
    ("2.6", e2h(A26), "2-vector"),
    ("2.7", q2r(qslerp(Q0, Q1, 0.25)), "long way"),
    ("2.7", q2r(qslerp(Q0, Q1, 0.75, shortest=True)), "q0"),
    ("2.7", qslerp(Q0, Q1, 0.25, shortest=True), "not a quaternion"),
    ("2.7", q2r(qslerp(Q0, Q1, 0.5, shortest=True)), "values"),
    ("2.8", [W28, TW28.theta], "dict"),
    ("2.8", {"axis": W28}, "keys"),
    ("2.8", {**A28, "axis": -W28}, "wrong way"),
    ("2.8", {**A28, "axis": 2 * W28}, "unit"),
    ("2.8", {**A28, "axis": np.array([0.0, 0.0, 1.0])}, "rotation axis of R"),
    ("2.8", {**A28, "theta": np.degrees(TW28.theta)}, "radians"),
    ("2.8", {**A28, "theta": TW28.theta / 2}, "theta"),
    ("2.8", {**A28, "pitch": TW28.pitch * TW28.theta}, "per radian"),
    ("2.8", {**A28, "pitch": 0.0}, "pitch"),
    ("2.8", {**A28, "point": TW28.pole + [0.3, 0.0, 0.0]}, "not on the screw axis"),
    ("2.8", {**A28, "point": [1.0, 2.0]}, "3-vector"),
    ("2.9", X29 @ trotz(np.pi / 2), "its own origin"),
    ("2.9", trotz(np.pi / 2) @ X29, "not through C"),
    ("2.9", transl(-C29) @ trotz(np.pi / 2) @ transl(C29) @ X29, "order of the translations"),
    ("2.9", transl(C29) @ trotz(90) @ transl(-C29) @ X29, "radians"),
    ("2.9", Twist3.R([0, 0, 1], C29, 0.5).exp(np.pi / 2) @ X29, "no pitch"),
    ("2.9", transl(C29) @ trotz(-np.pi / 2) @ transl(-C29) @ X29, "other way"),
    ("2.9", A29[:3, :3], "4x4"),
    ("2.10", T0_210 @ trexp(2 * trlog(trinv(T0_210) @ T1_210) / 3), "s measures"),
    ("2.10", T0_210 + (T1_210 - T0_210) / 3, "matrix entries"),
    ("2.10", T0_210 @ trexp(trlog(T1_210 @ trinv(T0_210)) / 3), "multiplies T0 on the right"),
    ("2.10", T0_210 @ trexp(trlog(trinv(T0_210) @ T1_210)) / 3, "scale the twist"),
    ("2.10", np.eye(4), "values"),
]


@pytest.mark.parametrize("exercise_id, answer", RIGHT)
def test_right_answer_is_accepted(exercise_id, answer, capsys):
    assert check(exercise_id, answer)
    assert capsys.readouterr().out.strip() == f"Exercise {exercise_id}: correct."


@pytest.mark.parametrize("exercise_id, answer, fragment", WRONG)
def test_typical_mistake_gets_its_hint(exercise_id, answer, fragment, capsys):
    assert not check(exercise_id, answer)
    out = capsys.readouterr().out
    assert out.startswith(f"Exercise {exercise_id}: not yet. Hint: ")
    assert fragment in out
    assert "could not be checked" not in out          # no checker crashed on it


def _numbers(value):
    if isinstance(value, dict):
        return np.concatenate([_numbers(v) for v in value.values()])
    return np.ravel(np.asarray(value, dtype=float))


def _renderings(value):
    """The expected numbers as a student might recognise them in printed feedback."""
    out = set()
    for x in _numbers(value):
        if abs(x) < 1e-9:
            continue
        for fmt in ("{:.2f}", "{:.3f}", "{:.4f}", "{:.6f}"):
            out.add(fmt.format(x))
        out.add(repr(float(x)))
        if x != round(x):              # a whole number such as 4 would match any digit 4
            out.add(f"{x:.4g}")
            out.add(str(np.round(x, 4)))
    return out


@pytest.mark.parametrize("exercise_id", sorted(EXPECTED))
def test_hints_never_contain_the_expected_numbers(exercise_id, capsys):
    answers = [a for e, a, _ in WRONG if e == exercise_id]
    answers += [np.zeros_like(_numbers(EXPECTED[exercise_id])), "nonsense", 3.0]
    for answer in answers:
        check(exercise_id, answer)
    printed = capsys.readouterr().out
    assert printed.count("not yet") == len(answers)
    leaked = [s for s in _renderings(EXPECTED[exercise_id]) if s in printed]
    assert not leaked, f"hints for {exercise_id} reveal {leaked}"


def test_every_chapter_2_exercise_has_a_checker():
    for exercise_id in EXPECTED:
        check(exercise_id, EXPECTED[exercise_id])  # raises ValueError if unknown


def test_rebuilt_values_agree_with_the_notes_equations():
    # the expected answers are what the notebook's hand routes compute
    assert np.allclose(eul2r(E23), R23)
    assert np.allclose(h2e(T26 @ e2h(A26)), A26)
    hand = _by_hand_2_8()
    assert np.isclose(hand["pitch"], A28["pitch"]) and np.isclose(hand["theta"], A28["theta"])
    # 2.9: the point C does not move, nor does any point of the line; X's origin keeps its height
    M29 = A29 @ trinv(X29)                              # the motion alone
    for height in (-2.0, 0.0, 5.0):
        assert np.allclose(h2e(M29 @ e2h(C29 + [0, 0, height])), C29 + [0, 0, height])
    assert np.isclose(A29[2, 3], X29[2, 3])
    # 2.10: three thirds make the whole screw, and every third is the same relative motion
    step = trinv(T0_210) @ A210
    assert np.allclose(T0_210 @ step @ step @ step, T1_210)


@pytest.mark.parametrize("exercise_id, answer",
                         [(i, a) for i, a in RIGHT if isinstance(a, np.ndarray)])
def test_a_right_answer_off_by_a_thousandth_is_refused(exercise_id, answer, capsys):
    """The checkers compare to about 1e-6: one value off by 1e-3 is not accepted."""
    wrong = np.array(answer, dtype=float)
    wrong.flat[np.argmax(np.abs(wrong))] += 1e-3
    assert not check(exercise_id, wrong)
    assert "not yet" in capsys.readouterr().out
