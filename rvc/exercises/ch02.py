"""The Chapter 2 exercises (``notebooks/02_pose.ipynb``), as data.

Each exercise computes its expected value with rvc and lists the typical
mistakes (degrees for radians, the wrong order of multiplication, the other
branch of a non-unique answer...) next to the hint each gets, a hint that
names the mistake but never the expected numbers.
All take the array policy of ``rvc.exercises``; an angle in degrees is
recognised within 1e-4 (``atol`` of those two mistakes).

>>> from rvc.exercises import check
>>> from rvc import rotz, roty
>>> check("2.1", rotz(40, unit="deg") @ roty(25, unit="deg"))
Exercise 2.1: correct.
Feedback('2.1', ok=True)
>>> check("2.1", rotz(40) @ roty(25))
Exercise 2.1: not yet. Hint: angles must be radians: your 40 was taken as 40 radians, not degrees; say which unit you
mean, or convert the angle
Feedback('2.1', ok=False)
"""

from __future__ import annotations

import numpy as np

from .. import (
    Twist2, Twist3, e2h, eul2r, h2e, q2r, qmul, qslerp, r2q, rotx, roty, rotz,
    rpy2r, rpy2tr, tr2angvec, tr2eul, transl, transl2, trexp, trinv, trlog, trot2, trotx, trotz,
)
from . import ArrayAnswer, Custom, Mistake, When, as_array, describe_shape, same

__all__: list[str] = []

DEG = {"unit": "deg"}
_RADIANS = ("angles must be radians: your {n} was taken as {n} radians, not degrees; "
            "say which unit you mean, or convert the angle")
_ORDER = ("check the order of multiplication: a rotation about the new (moved) axes multiplies "
          "on the right")


def _is_rotation(a) -> bool:
    return (a is not None and a.shape == (3, 3) and np.all(np.isfinite(a))
            and np.allclose(a.T @ a, np.eye(3), atol=1e-6) and np.linalg.det(a) > 0)


# --- the data of the exercise statements ---------------------------------------

def _R_2_1():
    return rotz(40, **DEG) @ roty(25, **DEG)


def _poses_2_2(unit="deg"):
    T1 = transl2(1, 2) @ trot2(30, unit=unit)
    T2 = transl2(2, 1)
    return T1 @ T2, T2 @ T1


def _points_2_2(poses, p=(1.0, 0.0)):
    """Where each pose of ``poses`` takes the point p (frame coordinates) in the world."""
    return np.array([h2e(T @ e2h(p)) for T in poses])


def _R_2_3():
    return rpy2r(0.4, 0.3, 0.2)


def _theta_v_2_4():
    return tr2angvec(rotx(60, **DEG) @ roty(45, **DEG))


def _theta_v(answer):
    """The accepted alternative form (theta, v) of 2.4, as the 4-array."""
    if isinstance(answer, tuple) and len(answer) == 2:
        try:
            return np.r_[answer[0], answer[1]]
        except (TypeError, ValueError):
            pass
    return answer


def _qp_2_5():
    return r2q(rpy2r(0.1, 0.2, 0.3)), np.array([1.0, 2.0, 3.0])


def _T_2_6(unit="deg"):
    return transl2(2, 1) @ trot2(60, unit=unit)


def _q_2_7():
    return (r2q(rpy2r(-20, 10, -150, **DEG)), r2q(rpy2r(30, 20, 150, **DEG)))


def _T_2_8():
    return transl(0.5, -1, 2) @ rpy2tr(0.6, -0.2, 0.9)


def _screw_2_8():
    tw = Twist3.from_T(_T_2_8())
    return tw.w / tw.theta, tw.theta, tw.pitch, tw.pole


_C_2_9 = np.array([2.0, 3.0, 2.0])
_X_2_9 = transl(3, 4, -4)


def _turn_2_9(quarter=np.pi / 2):
    """X turned by ``quarter`` about the vertical line through C (90 given to a radian function
    is the radians mistake)."""
    return transl(_C_2_9) @ trotz(quarter) @ transl(-_C_2_9) @ _X_2_9


_T0_2_10, _T1_2_10 = transl(1, 0, 0), transl(0, 2, 1) @ trotz(np.pi / 2) @ trotx(0.4)


_SIDE = ("the relative motion and the side it acts on must match: T0^-1 T1 is expressed in "
         "T0's frame, so it multiplies T0 on the right")


def _screw_2_10(s):
    T0, T1 = _T0_2_10, _T1_2_10
    return T0 @ trexp(s * trlog(trinv(T0) @ T1))


def _straight_2_10():
    """The origin on a straight line while the frame turns: not a screw."""
    T0, T1 = _T0_2_10, _T1_2_10
    R0, R1 = T0[:3, :3], T1[:3, :3]
    lin = np.eye(4)
    lin[:3, :3] = R0 @ trexp(trlog(R0.T @ R1) / 3)
    lin[:3, 3] = T0[:3, 3] + (T1[:3, 3] - T0[:3, 3]) / 3
    return lin


_KEYS = ("axis", "theta", "pitch", "point")


def _check_2_8(answer):
    """The screw of T: axis, angle, pitch, one point of the axis (any point on it)."""
    if not isinstance(answer, dict) or set(_KEYS) - set(answer):
        return ("answer should be a dict with keys 'axis', 'theta', 'pitch', 'point', got "
                + (f"a dict with keys {sorted(answer)}" if isinstance(answer, dict)
                   else describe_shape(answer)))
    w, theta, pitch, pole = _screw_2_8()
    axis = as_array(answer["axis"])
    th = as_array(answer["theta"])
    h = as_array(answer["pitch"])
    c = as_array(answer["point"])
    if axis is None or axis.shape != (3,):
        return f"axis: expected a 3-vector, got {describe_shape(answer['axis'])}"
    if not np.isclose(np.linalg.norm(axis), 1.0, atol=1e-6):
        return "axis: it must be a unit vector"
    if same(axis, -w):
        return "axis: it points the wrong way for a rotation angle theta in (0, pi]"
    if not same(axis, w):
        return "axis: not the screw axis direction; it is the rotation axis of R"
    if th is None or th.size != 1:
        return f"theta: expected a number, got {describe_shape(answer['theta'])}"
    if np.isclose(th.item(), np.degrees(theta), atol=1e-4):
        return "theta: angles must be radians"
    if not np.isclose(th.item(), theta, atol=1e-6):
        return "theta: not the rotation angle of R about the axis"
    if h is None or h.size != 1:
        return f"pitch: expected a number, got {describe_shape(answer['pitch'])}"
    if np.isclose(h.item(), pitch * theta, atol=1e-6):
        return ("pitch: that is the whole translation along the axis; the pitch is the "
                "translation per radian (divide by theta)")
    if not np.isclose(h.item(), pitch, atol=1e-6):
        return "pitch: the part of the translation along the axis, per radian turned"
    if c is None or c.shape != (3,):
        return f"point: expected a 3-vector, got {describe_shape(answer['point'])}"
    if np.linalg.norm(np.cross(c - pole, w)) > 1e-6:
        return ("point: it is not on the screw axis; a point of the axis is only slid along the axis, "
                "so it is a fixed point of the motion once the slide is taken out of t")
    return None



# --- the exercises ----------------------------------------------------------------

EXERCISES = [
    ArrayAnswer(
        "2.1", expected=_R_2_1, what="rotation matrix",
        mistakes=[
            Mistake(lambda: rotz(40) @ roty(25), _RADIANS.format(n=40)),
            Mistake(lambda: roty(25) @ rotz(40), _RADIANS.format(n=40)),
            Mistake(lambda: roty(25, **DEG) @ rotz(40, **DEG), _ORDER),
            Mistake(lambda: _R_2_1().T, "that is the inverse (transpose) of the rotation asked for"),
            When(lambda a: not _is_rotation(a), shape=(3, 3), example=np.ones((3, 3)),
                 hint="your matrix is not a rotation: R^T R should be the identity and det(R) = +1"),
        ]),
    ArrayAnswer(
        "2.2", expected=lambda: _points_2_2(_poses_2_2()), what="array of points",
        mistakes=[
            Mistake(lambda: _points_2_2(_poses_2_2())[::-1],
                    "the rows are swapped: check the order of multiplication (T1 @ T2 is frame 3)"),
            Mistake(lambda: np.array([T[:2, :2] @ [1.0, 0.0] for T in _poses_2_2()]),
                    "remember the translation: a point is moved by the whole pose, rotation and "
                    "translation, which the homogeneous coordinates of the point take care of"),
            Mistake(lambda: _points_2_2([np.linalg.inv(T) for T in _poses_2_2()]),
                    "you converted world coordinates into the frames; here (1, 0) is given in the "
                    "frame and you need its world coordinates (no inverse)"),
            Mistake(lambda: _points_2_2(_poses_2_2(unit="rad")), _RADIANS.format(n=30)),
            When(lambda a: True, "give Euclidean coordinates: drop the homogeneous 1", shape=(2, 3),
                 example=np.ones((2, 3))),
        ]),
    ArrayAnswer(
        "2.3", expected=lambda: tr2eul(_R_2_3()), what="angle triple",
        mistakes=[
            Mistake(lambda: tr2eul(_R_2_3(), flip=True),
                    "that is a valid ZYZ solution, but with a negative theta; take the branch with "
                    "theta >= 0 (as tr2eul returns by default)"),
            Mistake(lambda: tr2eul(_R_2_3(), **DEG),
                    "angles must be radians (tr2eul returns radians unless unit='deg')", atol=1e-4),
            Mistake([0.4, 0.3, 0.2],
                    "those are the roll-pitch-yaw angles; the exercise asks for ZYZ Euler angles"),
            Mistake(lambda: tr2eul(_R_2_3())[::-1],
                    "check the order: (phi, theta, psi) with R = Rz(phi) Ry(theta) Rz(psi)"),
            When(lambda a: np.allclose(eul2r(a), _R_2_3(), atol=1e-6), shape=(3,),
                 example=lambda: tr2eul(_R_2_3()) + [2 * np.pi, 0, 0],
                 hint="these angles do rebuild R, but they are not the standard triple: "
                      "theta >= 0 and phi, psi in (-pi, pi]"),
        ]),
    ArrayAnswer(
        "2.4", expected=lambda: np.r_[_theta_v_2_4()], what="angle and axis", prepare=_theta_v,
        shape=(4,), shape_hint="answer should be the 4-array [theta, v1, v2, v3], got {got}",
        mistakes=[
            Mistake(lambda: np.r_[_theta_v_2_4()[0], -_theta_v_2_4()[1]],
                    "the axis points the wrong way: with theta in [0, pi] only one sign of v "
                    "rebuilds R: rotate about your axis by your angle and compare"),
            Mistake(lambda: -np.r_[_theta_v_2_4()],
                    "(-theta, -v) is the same rotation, but the exercise asks for theta in [0, pi]"),
            Mistake(lambda: np.r_[np.degrees(_theta_v_2_4()[0]), _theta_v_2_4()[1]], atol=1e-4,
                    hint="angles must be radians: the argument of the eigenvalue already is one, "
                         "no conversion needed"),
            When(lambda a: not np.isclose(np.linalg.norm(a[1:]), 1.0, atol=1e-6),
                 "the axis v must be a unit vector", example=[0.5, 0.0, 0.0, 2.0]),
            When(lambda a: same(a[1:], _theta_v_2_4()[1]) or same(a[1:], -_theta_v_2_4()[1]),
                 "the axis is right but the angle is not: it is the argument of the complex eigenvalues",
                 example=lambda: np.r_[_theta_v_2_4()[0] / 2, _theta_v_2_4()[1]]),
        ],
        fallback="the axis is not right: it is the direction the rotation leaves unchanged (eigenvalue 1)"),
    ArrayAnswer(
        "2.5", expected=lambda: q2r(_qp_2_5()[0]) @ _qp_2_5()[1], what="rotated vector",
        mistakes=[
            Mistake(lambda: q2r(_qp_2_5()[0]).T @ _qp_2_5()[1],
                    "you rotated by the inverse: the sandwich is q o p o q*, not q* o p o q"),
            When(lambda a: same(a[1:], q2r(_qp_2_5()[0]) @ _qp_2_5()[1]), shape=(4,),
                 example=lambda: np.r_[0.0, q2r(_qp_2_5()[0]) @ _qp_2_5()[1]],
                 hint="return only the vector part (the 3 imaginary components); the scalar part is 0"),
            Mistake(lambda: qmul(_qp_2_5()[0], np.r_[0, _qp_2_5()[1]])[1:],
                    "a single product q o p is not a rotation: multiply by q* on the right as well"),
            Mistake(lambda: qmul(_qp_2_5()[0], np.r_[0, _qp_2_5()[1]]),
                    "a single product q o p is not a rotation: multiply by q* on the right as well"),
        ]),
    ArrayAnswer(
        "2.6", expected=lambda: Twist2.from_T(_T_2_6()).pole, what="pole",
        mistakes=[
            Mistake(lambda: _T_2_6()[:2, 2],
                    "that is the translation of T; the pole is the point that T leaves where it is"),
            Mistake(lambda: np.linalg.solve(np.eye(2) - _T_2_6()[:2, :2].T, _T_2_6()[:2, 2]),
                    "check which matrix: the fixed-point equation R c + t = c gives (I - R) c = t"),
            Mistake(lambda: Twist2.from_T(_T_2_6(unit="rad")).pole, _RADIANS.format(n=60)),
            When(lambda a: True, "give the pole as a 2-vector (Euclidean, not homogeneous)", shape=(3,),
                 example=[1.0, 2.0, 1.0]),
        ]),
    ArrayAnswer(
        "2.7", expected=lambda: q2r(qslerp(*_q_2_7(), 0.25, shortest=True)), what="rotation matrix",
        mistakes=[
            Mistake(lambda: q2r(qslerp(*_q_2_7(), 0.25)),
                    "you went the long way round: q1 and -q1 are the same orientation, "
                    "so take the shorter of the two arcs"),
            Mistake(lambda: q2r(qslerp(*_q_2_7(), 0.75, shortest=True)),
                    "s measures the way from q0 (s = 0) to q1 (s = 1)"),
            When(lambda a: True, "answer should be a rotation matrix, not a quaternion", shape=(4,),
                 example=[1.0, 0.0, 0.0, 0.0]),
        ]),
    Custom("2.8", _check_2_8),
    ArrayAnswer(
        "2.9", expected=_turn_2_9, what="pose",
        shape=(4, 4), shape_hint="answer should be the final pose, a 4x4 array, got {got}",
        mistakes=[
            Mistake(lambda: _X_2_9 @ trotz(np.pi / 2),
                    "that turns X about its own z-axis, through its own origin; the line is fixed in the "
                    "world, so the rotation acts from the left"),
            Mistake(lambda: trotz(np.pi / 2) @ _X_2_9,
                    "that turns X about the world's vertical axis through the origin, not through C"),
            Mistake(lambda: transl(-_C_2_9) @ trotz(np.pi / 2) @ transl(_C_2_9) @ _X_2_9,
                    "check the order of the translations: first carry C to the origin, turn, then "
                    "carry it back"),
            Mistake(lambda: _turn_2_9(90.0), _RADIANS.format(n=90)),
            Mistake(lambda: Twist3.R([0, 0, 1], _C_2_9, 0.5).exp(np.pi / 2) @ _X_2_9,
                    "a pure rotation about the line: the twist has no pitch, no slide along the axis"),
            Mistake(lambda: trotz(-np.pi / 2) @ _X_2_9,
                    "the turn goes the other way: +90 degrees is anticlockwise seen from above (+z)"),
            Mistake(lambda: _turn_2_9(-np.pi / 2),
                    "the turn goes the other way: +90 degrees is anticlockwise seen from above (+z)"),
        ]),
    ArrayAnswer(
        "2.10", expected=lambda: _screw_2_10(1 / 3), what="pose",
        shape=(4, 4), shape_hint="answer should be the pose T(1/3), a 4x4 array, got {got}",
        mistakes=[
            Mistake(lambda: _screw_2_10(2 / 3), "s measures the way from T0 (s = 0) to T1 (s = 1)"),
            Mistake(lambda: _T0_2_10 + (_T1_2_10 - _T0_2_10) / 3,
                    "interpolating the matrix entries does not give a pose (its rotation part is not a "
                    "rotation); interpolate the twist of the relative motion instead"),
            # (T1 T0^-1 on the left, exp(s log(T1 T0^-1)) T0, is the same screw and is accepted)
            Mistake(lambda: _T0_2_10 @ trexp(trlog(_T1_2_10 @ trinv(_T0_2_10)) / 3), _SIDE),
            Mistake(lambda: trexp(trlog(trinv(_T0_2_10) @ _T1_2_10) / 3) @ _T0_2_10, _SIDE),
            Mistake(lambda: _T0_2_10 @ trexp(trlog(trinv(_T0_2_10) @ _T1_2_10)) / 3,
                    "scale the twist (the logarithm) by s, then take its exponential"),
            Mistake(lambda: trexp(trlog(_T1_2_10) / 3),
                    "scale the twist (the logarithm) by s, then take its exponential"),
            Mistake(_straight_2_10,
                    "that slides the origin along a straight line while it turns; a screw motion turns "
                    "about and slides along one fixed axis, so the origin moves on a helix"),
            When(lambda a: not _is_rotation(a[:3, :3]) or not np.allclose(a[3], [0, 0, 0, 1], atol=1e-9),
                 "your matrix is not a pose: its rotation part must be orthonormal and its last row 0 0 0 1",
                 shape=(4, 4), example=np.ones((4, 4))),
        ]),
]


#: The sentences this chapter's own checkers write (templates: each ``{field}`` is what the
#: code puts there), for rvc/locale/zh_CN.po, beside the hints its exercises list as data.
MESSAGES = (
    "answer should be a dict with keys 'axis', 'theta', 'pitch', 'point', got {got}",
    "axis: expected a 3-vector, got {got}",
    "axis: it must be a unit vector",
    "axis: it points the wrong way for a rotation angle theta in (0, pi]",
    "axis: not the screw axis direction; it is the rotation axis of R",
    "theta: expected a number, got {got}",
    "theta: angles must be radians",
    "theta: not the rotation angle of R about the axis",
    "pitch: expected a number, got {got}",
    "pitch: that is the whole translation along the axis; the pitch is the translation per radian (divide"
    " by theta)",
    "pitch: the part of the translation along the axis, per radian turned",
    "point: expected a 3-vector, got {got}",
    "point: it is not on the screw axis; a point of the axis is only slid along the axis, so it is a "
    "fixed point of the motion once the slide is taken out of t",
)
