"""Checkers for the Chapter 2 exercises (``notebooks/02_pose.ipynb``).

Each checker computes the expected value with rvc, recognises the typical
mistakes (degrees for radians, the wrong order of multiplication, the other
branch of a non-unique answer...) and returns a hint that names the mistake
but never the expected numbers.  ``None`` means correct.

>>> from rvc.exercises import check
>>> from rvc import rotz, roty
>>> check("2.1", rotz(40, unit="deg") @ roty(25, unit="deg"))
Exercise 2.1: correct.
Feedback('2.1', ok=True)
>>> check("2.1", rotz(40) @ roty(25))
Exercise 2.1: not yet. Hint: angles must be radians: your 40 was taken as 40 radians, not degrees; say which unit you mean, or convert the angle
Feedback('2.1', ok=False)
"""

from __future__ import annotations

import numpy as np

from .. import (
    Twist2, Twist3, e2h, eul2r, h2e, q2r, qmul, qslerp, r2q, rotx, roty, rotz,
    rpy2r, rpy2tr, tr2angvec, tr2eul, transl, transl2, trexp, trinv, trlog, trot2, trotx, trotz,
)
from . import close, describe_shape, exercise

__all__: list[str] = []

_RADIANS = ("angles must be radians: your {n} was taken as {n} radians, not degrees; "
            "say which unit you mean, or convert the angle")
_ORDER = ("check the order of multiplication: a rotation about the new (moved) axes multiplies "
          "on the right")


def _array(answer):
    """``answer`` as a float array, or None if it is missing or not numeric."""
    if answer is None:
        return None
    try:
        return np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return None


def _compare(answer, expected, what):
    """The generic hint: what came (if nothing usable did), else :func:`close`."""
    if answer is None:
        return f"expected a {what}, got {describe_shape(None)}"
    return close(answer, expected, what=what)


def _same(a, b, atol: float = 1e-6) -> bool:
    """True if array ``a`` (possibly None) has the shape of ``b`` and equals it."""
    b = np.asarray(b, dtype=float)
    return a is not None and a.shape == b.shape and bool(np.allclose(a, b, atol=atol))


def _is_rotation(a) -> bool:
    return (a is not None and a.shape == (3, 3) and np.all(np.isfinite(a))
            and np.allclose(a.T @ a, np.eye(3), atol=1e-6) and np.linalg.det(a) > 0)


# --------------------------------------------------------------------- 2.1
def _expected_2_1():
    return rotz(40, unit="deg") @ roty(25, unit="deg")


@exercise("2.1")
def _(answer):
    a = _array(answer)
    expected = _expected_2_1()
    if _same(a, expected):
        return None
    if _same(a, rotz(40) @ roty(25)) or _same(a, roty(25) @ rotz(40)):
        return _RADIANS.format(n=40)
    if _same(a, roty(25, unit="deg") @ rotz(40, unit="deg")):
        return _ORDER
    if _same(a, expected.T):
        return "that is the inverse (transpose) of the rotation asked for"
    if a is not None and a.shape == (3, 3) and not _is_rotation(a):
        return "your matrix is not a rotation: R^T R should be the identity and det(R) = +1"
    return _compare(answer, expected, "rotation matrix")


# --------------------------------------------------------------------- 2.2
def _poses_2_2(unit="deg"):
    T1 = transl2(1, 2) @ trot2(30, unit=unit)
    T2 = transl2(2, 1)
    return T1 @ T2, T2 @ T1


def _expected_2_2():
    p = e2h([1.0, 0.0])
    T3, T4 = _poses_2_2()
    return np.array([h2e(T3 @ p), h2e(T4 @ p)])


@exercise("2.2")
def _(answer):
    a = _array(answer)
    expected = _expected_2_2()
    if _same(a, expected):
        return None
    p = np.array([1.0, 0.0])
    T3, T4 = _poses_2_2()
    if _same(a, expected[::-1]):
        return "the rows are swapped: check the order of multiplication (T1 @ T2 is frame 3)"
    if _same(a, np.array([T3[:2, :2] @ p, T4[:2, :2] @ p])):
        return ("remember the translation: a point is moved by the whole pose, rotation and "
                "translation, which the homogeneous coordinates of the point take care of")
    if _same(a, np.array([h2e(np.linalg.inv(T3) @ e2h(p)), h2e(np.linalg.inv(T4) @ e2h(p))])):
        return ("you converted world coordinates into the frames; here (1, 0) is given in the "
                "frame and you need its world coordinates (no inverse)")
    R3, R4 = _poses_2_2(unit="rad")
    if _same(a, np.array([h2e(R3 @ e2h(p)), h2e(R4 @ e2h(p))])):
        return _RADIANS.format(n=30)
    if a is not None and a.shape == (2, 3):
        return "give Euclidean coordinates: drop the homogeneous 1"
    return _compare(answer, expected, "array of points")


# --------------------------------------------------------------------- 2.3
def _R_2_3():
    return rpy2r(0.4, 0.3, 0.2)


@exercise("2.3")
def _(answer):
    a = _array(answer)
    R = _R_2_3()
    expected = tr2eul(R)
    if _same(a, expected):
        return None
    if _same(a, tr2eul(R, flip=True)):
        return ("that is a valid ZYZ solution, but with a negative theta; take the branch with "
                "theta >= 0 (as tr2eul returns by default)")
    if _same(a, tr2eul(R, unit="deg"), atol=1e-4):
        return "angles must be radians (tr2eul returns radians unless unit='deg')"
    if _same(a, [0.4, 0.3, 0.2]):
        return "those are the roll-pitch-yaw angles; the exercise asks for ZYZ Euler angles"
    if _same(a, expected[::-1]):
        return "check the order: (phi, theta, psi) with R = Rz(phi) Ry(theta) Rz(psi)"
    if a is not None and a.shape == (3,) and np.allclose(eul2r(a), R, atol=1e-6):
        return ("these angles do rebuild R, but they are not the standard triple: "
                "theta >= 0 and phi, psi in (-pi, pi]")
    return _compare(answer, expected, "angle triple")


# --------------------------------------------------------------------- 2.4
def _R_2_4():
    return rotx(60, unit="deg") @ roty(45, unit="deg")


@exercise("2.4")
def _(answer):
    if isinstance(answer, tuple) and len(answer) == 2:   # (theta, v) is fine too
        try:
            answer = np.r_[answer[0], answer[1]]
        except (TypeError, ValueError):
            pass
    a = _array(answer)
    theta, v = tr2angvec(_R_2_4())
    expected = np.r_[theta, v]
    if _same(a, expected):
        return None
    if a is None or a.shape != (4,):
        return f"answer should be the 4-array [theta, v1, v2, v3], got {describe_shape(answer)}"
    if _same(a, np.r_[theta, -v]):
        return ("the axis points the wrong way: with theta in [0, pi] only one sign of v "
                "rebuilds R: rotate about your axis by your angle and compare")
    if _same(a, np.r_[-theta, -v]):
        return "(-theta, -v) is the same rotation, but the exercise asks for theta in [0, pi]"
    if _same(a, np.r_[np.degrees(theta), v], atol=1e-4):
        return "angles must be radians: the argument of the eigenvalue already is one, no conversion needed"
    if not np.isclose(np.linalg.norm(a[1:]), 1.0, atol=1e-6):
        return "the axis v must be a unit vector"
    if _same(a[1:], v) or _same(a[1:], -v):
        return "the axis is right but the angle is not: it is the argument of the complex eigenvalues"
    return "the axis is not right: it is the direction the rotation leaves unchanged (eigenvalue 1)"


# --------------------------------------------------------------------- 2.5
def _qp_2_5():
    return r2q(rpy2r(0.1, 0.2, 0.3)), np.array([1.0, 2.0, 3.0])


@exercise("2.5")
def _(answer):
    a = _array(answer)
    q, p = _qp_2_5()
    expected = q2r(q) @ p
    if _same(a, expected):
        return None
    if _same(a, q2r(q).T @ p):
        return "you rotated by the inverse: the sandwich is q o p o q*, not q* o p o q"
    if a is not None and a.shape == (4,) and _same(a[1:], expected):
        return "return only the vector part (the 3 imaginary components); the scalar part is 0"
    if _same(a, qmul(q, np.r_[0, p])[1:]) or _same(a, qmul(q, np.r_[0, p])):
        return "a single product q o p is not a rotation: multiply by q* on the right as well"
    return _compare(answer, expected, "rotated vector")


# --------------------------------------------------------------------- 2.6
def _T_2_6(unit="deg"):
    return transl2(2, 1) @ trot2(60, unit=unit)


@exercise("2.6")
def _(answer):
    a = _array(answer)
    T = _T_2_6()
    expected = Twist2.from_T(T).pole
    if _same(a, expected):
        return None
    R, t = T[:2, :2], T[:2, 2]
    if _same(a, t):
        return "that is the translation of T; the pole is the point that T leaves where it is"
    if _same(a, np.linalg.solve(np.eye(2) - R.T, t)):
        return "check which matrix: the fixed-point equation R c + t = c gives (I - R) c = t"
    if _same(a, Twist2.from_T(_T_2_6(unit="rad")).pole):
        return _RADIANS.format(n=60)
    if a is not None and a.shape == (3,):
        return "give the pole as a 2-vector (Euclidean, not homogeneous)"
    return _compare(answer, expected, "pole")


# --------------------------------------------------------------------- 2.7
def _q_2_7():
    return (r2q(rpy2r(-20, 10, -150, unit="deg")), r2q(rpy2r(30, 20, 150, unit="deg")))


@exercise("2.7")
def _(answer):
    a = _array(answer)
    q0, q1 = _q_2_7()
    expected = q2r(qslerp(q0, q1, 0.25, shortest=True))
    if _same(a, expected):
        return None
    if _same(a, q2r(qslerp(q0, q1, 0.25))):
        return ("you went the long way round: q1 and -q1 are the same orientation, "
                "so take the shorter of the two arcs")
    if _same(a, q2r(qslerp(q0, q1, 0.75, shortest=True))):
        return "s measures the way from q0 (s = 0) to q1 (s = 1)"
    if a is not None and a.shape == (4,):
        return "answer should be a rotation matrix, not a quaternion"
    return _compare(answer, expected, "rotation matrix")


# --------------------------------------------------------------------- 2.8
def _T_2_8():
    return transl(0.5, -1, 2) @ rpy2tr(0.6, -0.2, 0.9)


def _screw_2_8():
    tw = Twist3.from_T(_T_2_8())
    return tw.w / tw.theta, tw.theta, tw.pitch, tw.pole


_KEYS = ("axis", "theta", "pitch", "point")


@exercise("2.8")
def _(answer):
    if not isinstance(answer, dict) or set(_KEYS) - set(answer):
        return ("answer should be a dict with keys 'axis', 'theta', 'pitch', 'point', got "
                + (f"a dict with keys {sorted(answer)}" if isinstance(answer, dict)
                   else describe_shape(answer)))
    w, theta, pitch, pole = _screw_2_8()
    axis = _array(answer["axis"])
    th = _array(answer["theta"])
    h = _array(answer["pitch"])
    c = _array(answer["point"])
    if axis is None or axis.shape != (3,):
        return f"axis: expected a 3-vector, got {describe_shape(answer['axis'])}"
    if not np.isclose(np.linalg.norm(axis), 1.0, atol=1e-6):
        return "axis: it must be a unit vector"
    if _same(axis, -w):
        return "axis: it points the wrong way for a rotation angle theta in (0, pi]"
    if not _same(axis, w):
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


# --------------------------------------------------------------------- 2.9
_C_2_9 = np.array([2.0, 3.0, 2.0])


def _X_2_9():
    return transl(3, 4, -4)


def _expected_2_9(unit="rad"):
    quarter = np.pi / 2 if unit == "rad" else 90.0         # 90 given to a radian function
    return transl(_C_2_9) @ trotz(quarter) @ transl(-_C_2_9) @ _X_2_9()


@exercise("2.9")
def _(answer):
    a = _array(answer)
    expected = _expected_2_9()
    if _same(a, expected):
        return None
    if a is None or a.shape != (4, 4):
        return f"answer should be the final pose, a 4x4 array, got {describe_shape(answer)}"
    X, R = _X_2_9(), trotz(np.pi / 2)
    if _same(a, X @ R):
        return ("that turns X about its own z-axis, through its own origin; the line is fixed in the "
                "world, so the rotation acts from the left")
    if _same(a, R @ X):
        return "that turns X about the world's vertical axis through the origin, not through C"
    if _same(a, transl(-_C_2_9) @ R @ transl(_C_2_9) @ X):
        return "check the order of the translations: first carry C to the origin, turn, then carry it back"
    if _same(a, _expected_2_9(unit="deg")):
        return _RADIANS.format(n=90)
    if _same(a, Twist3.R([0, 0, 1], _C_2_9, 0.5).exp(np.pi / 2) @ X):
        return "a pure rotation about the line: the twist has no pitch, no slide along the axis"
    if _same(a, trotz(-np.pi / 2) @ X) or _same(a, transl(_C_2_9) @ trotz(-np.pi / 2) @ transl(-_C_2_9) @ X):
        return "the turn goes the other way: +90 degrees is anticlockwise seen from above (+z)"
    return _compare(answer, expected, "pose")


# -------------------------------------------------------------------- 2.10
def _T_2_10():
    return transl(1, 0, 0), transl(0, 2, 1) @ trotz(np.pi / 2) @ trotx(0.4)


def _screw_2_10(s):
    T0, T1 = _T_2_10()
    return T0 @ trexp(s * trlog(trinv(T0) @ T1))


@exercise("2.10")
def _(answer):
    a = _array(answer)
    expected = _screw_2_10(1 / 3)
    if _same(a, expected):
        return None
    if a is None or a.shape != (4, 4):
        return f"answer should be the pose T(1/3), a 4x4 array, got {describe_shape(answer)}"
    T0, T1 = _T_2_10()
    if _same(a, _screw_2_10(2 / 3)):
        return "s measures the way from T0 (s = 0) to T1 (s = 1)"
    if _same(a, T0 + (T1 - T0) / 3):
        return ("interpolating the matrix entries does not give a pose (its rotation part is not a "
                "rotation); interpolate the twist of the relative motion instead")
    # (T1 T0^-1 on the left, exp(s log(T1 T0^-1)) T0, is the same screw and is accepted above)
    if _same(a, T0 @ trexp(trlog(T1 @ trinv(T0)) / 3)) or _same(a, trexp(trlog(trinv(T0) @ T1) / 3) @ T0):
        return ("the relative motion and the side it acts on must match: T0^-1 T1 is expressed in "
                "T0's frame, so it multiplies T0 on the right")
    if _same(a, T0 @ trexp(trlog(trinv(T0) @ T1)) / 3) or _same(a, trexp(trlog(T1) / 3)):
        return "scale the twist (the logarithm) by s, then take its exponential"
    R0, R1 = T0[:3, :3], T1[:3, :3]
    lin = np.eye(4)
    lin[:3, :3] = R0 @ trexp(trlog(R0.T @ R1) / 3)
    lin[:3, 3] = T0[:3, 3] + (T1[:3, 3] - T0[:3, 3]) / 3
    if _same(a, lin):
        return ("that slides the origin along a straight line while it turns; a screw motion turns "
                "about and slides along one fixed axis, so the origin moves on a helix")
    if not _is_rotation(a[:3, :3]) or not np.allclose(a[3], [0, 0, 0, 1], atol=1e-9):
        return "your matrix is not a pose: its rotation part must be orthonormal and its last row 0 0 0 1"
    return _compare(answer, expected, "pose")
