"""Tests for rvc.spatial.twist: Ad, Twist3, Twist2 (notes examples and identities)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rvc import (Ad, Twist2, Twist3, eul2tr, rpy2tr, skewa, transl, transl2, trexp, trinv, trot2,
                 trotx, vexa)

FAST = settings(max_examples=50, deadline=None)
vec3 = hnp.arrays(float, 3, elements=st.floats(-5, 5, allow_nan=False))
axis3 = vec3.filter(lambda v: np.linalg.norm(v) > 1e-2)


def test_notes_twist2_rotation():
    C = np.array([1.0, 2.0])
    tw = Twist2.R(C)
    np.testing.assert_allclose(tw.exp(2), transl2(C) @ trot2(2) @ transl2(-C), atol=1e-14)
    np.testing.assert_allclose(tw.pole, C)
    np.testing.assert_allclose(tw.S, [2, -1, 1])


def test_notes_twist2_translation_and_general():
    tw = Twist2.T([1, 1])
    np.testing.assert_allclose(tw.exp(np.sqrt(2)), transl2(1, 1), atol=1e-15)
    T = transl2(2, 3) @ trot2(0.5)
    tw = Twist2.from_T(T)
    np.testing.assert_allclose(tw.exp(), T, atol=1e-14)
    np.testing.assert_allclose(tw.w, 0.5)
    # the pole is fixed by T
    np.testing.assert_allclose((T @ np.r_[tw.pole, 1])[:2], tw.pole, atol=1e-14)
    assert tw.exp(np.linspace(0, 1, 7)).shape == (7, 3, 3)
    np.testing.assert_allclose(tw.se(), skewa(tw.S))
    assert tw.unit().theta == 1
    assert Twist2.T([0, 2]).unit().S.tolist() == [0, 1, 0]


def test_notes_twist3():
    tw = Twist3.R([1, 0, 0], [0, 0, 0])
    np.testing.assert_allclose(tw.exp(0.3), trotx(0.3), atol=1e-15)
    tw = Twist3.T([0, 1, 0])
    np.testing.assert_allclose(tw.exp(2), transl(0, 2, 0))
    tw = Twist3.R([0, 0, 1], [2, 3, 2], 0.5)
    np.testing.assert_allclose(tw.S, [3, -2, 0.5, 0, 0, 1])
    assert tw.pitch == 0.5
    np.testing.assert_allclose(tw.pole, [2, 3, 0])
    p, d = tw.line()
    np.testing.assert_allclose(d, [0, 0, 1])
    # the screw: rotate theta about the vertical line through (2, 3), rise 0.5 theta
    X = transl(3, 4, -4)
    angles = np.arange(0, 15, 0.3)
    Ts = tw.exp(angles) @ X
    assert Ts.shape == (len(angles), 4, 4)
    np.testing.assert_allclose(Ts[:, 2, 3], -4 + 0.5 * angles, atol=1e-12)
    np.testing.assert_allclose(np.hypot(Ts[:, 0, 3] - 2, Ts[:, 1, 3] - 3), np.sqrt(2), atol=1e-12)
    assert repr(tw) == "Twist3([3, -2, 0.5, 0, 0, 1])"


def test_notes_twist3_general_pose():
    T = transl(1, 2, 3) @ eul2tr(0.3, 0.4, 0.5)
    tw = Twist3.from_T(T)
    np.testing.assert_allclose(tw.exp(), T, atol=1e-14)
    np.testing.assert_allclose(tw.theta, np.linalg.norm(tw.w))
    # the pitch: translation along the axis per radian of rotation about it
    u = tw.w / tw.theta
    np.testing.assert_allclose(tw.pitch, np.dot(tw.w, tw.v) / tw.theta ** 2)
    # the pole lies on the axis: T maps the axis to itself, shifted along u
    p = tw.pole
    q = T[:3, :3] @ p + T[:3, 3]
    np.testing.assert_allclose(np.cross(q - p, u), 0, atol=1e-12)
    np.testing.assert_allclose(np.dot(p, u), 0, atol=1e-12)   # closest to the origin
    r = repr(tw)
    assert r.startswith("Twist3([") and "1.12" in r


@FAST
@given(axis3, vec3, st.floats(-2, 2), st.floats(-6, 6))
def test_revolute_screw(axis, point, pitch, theta):
    tw = Twist3.R(axis, point, pitch)
    u = axis / np.linalg.norm(axis)
    T = tw.exp(theta)
    # points on the axis move along it by pitch * theta
    q = T[:3, :3] @ point + T[:3, 3]
    np.testing.assert_allclose(q, point + pitch * theta * u, atol=1e-9)
    np.testing.assert_allclose(tw.theta, 1)
    np.testing.assert_allclose(tw.pitch, pitch, atol=1e-12)
    p, d = tw.line()
    np.testing.assert_allclose(np.cross(p - point, u), 0, atol=1e-9)
    np.testing.assert_allclose(d, u)


@FAST
@given(vec3, vec3)
def test_from_T_roundtrip(t, phi):
    if np.linalg.norm(phi) >= np.pi:
        phi = phi / np.linalg.norm(phi) * 3.0
    T = transl(t) @ np.block([[trexp(phi), np.zeros((3, 1))], [np.zeros((1, 3)), np.ones((1, 1))]])
    tw = Twist3.from_T(T)
    np.testing.assert_allclose(tw.exp(), T, atol=1e-10)
    np.testing.assert_allclose(Twist3(tw.S).exp(0.5) @ tw.exp(0.5), T, atol=1e-10)
    if tw.theta > 1e-6:
        np.testing.assert_allclose(tw.unit().exp(tw.theta), T, atol=1e-10)


def test_pure_translation_twist():
    tw = Twist3.T([0, 0, 2])
    np.testing.assert_allclose(tw.S, [0, 0, 1, 0, 0, 0])
    assert tw.pitch == 0 and tw.theta == 0
    np.testing.assert_allclose(tw.pole, [0, 0, 0])
    p, d = tw.line()
    np.testing.assert_allclose(d, [0, 0, 1])
    np.testing.assert_allclose(Twist3.from_T(transl(0, 0, 4)).unit().S, tw.S)
    np.testing.assert_allclose(tw.se(), skewa(tw.S))
    np.testing.assert_allclose(Twist3([1, 2, 3, 0, 0, 0]).v, [1, 2, 3])


@FAST
@given(vec3, vec3, hnp.arrays(float, 6, elements=st.floats(-3, 3, allow_nan=False)))
def test_adjoint(t, rpy, S):
    T = transl(t) @ rpy2tr(rpy)
    A = Ad(T)
    np.testing.assert_allclose(skewa(A @ S), T @ skewa(S) @ trinv(T), atol=1e-9)
    np.testing.assert_allclose(Ad(trinv(T)), np.linalg.inv(A), atol=1e-9)
    np.testing.assert_allclose(trexp(A @ S), T @ trexp(S) @ trinv(T), atol=1e-8)
    np.testing.assert_allclose(vexa(T @ skewa(S) @ trinv(T)), A @ S, atol=1e-9)


def test_adjoint_batch():
    Ts = trotx(np.linspace(0, 1, 4), t=[1, 2, 3])
    A = Ad(Ts)
    assert A.shape == (4, 6, 6)
    np.testing.assert_allclose(A[2], Ad(Ts[2]))


def test_equality_and_repr():
    assert Twist2.R([1, 2]) == Twist2([2, -1, 1])
    assert Twist3.T([1, 0, 0]) != Twist3.T([0, 1, 0])
    assert repr(Twist2.R([1, 2])) == "Twist2([2, -1, 1])"
    assert repr(Twist3([1e-20, -0.0, 1 / 3, 0, 0, 12345.678])) == \
        "Twist3([0, 0, 0.3333, 0, 0, 1.235e+04])"


@pytest.mark.parametrize("call, exc, words", [
    (lambda: Twist3([1, 2, 3]), ValueError, "S: expected shape"),
    (lambda: Twist3(np.zeros((2, 6))), ValueError, "S: expected shape"),
    (lambda: Twist3.R([0, 0, 0], [1, 2, 3]), ValueError, "axis: expected a non-zero"),
    (lambda: Twist3.R([0, 0, 1], [1, 2]), ValueError, "point"),
    (lambda: Twist3.R([0, 0, 1], [1, 2, 3], pitch=np.nan), ValueError, "pitch"),
    (lambda: Twist3.T([0, 0, 0]), ValueError, "direction: expected a non-zero"),
    (lambda: Twist3.from_T(np.ones((4, 4))), ValueError, "bottom row"),
    (lambda: Twist3.from_T(trotx([0.1, 0.2])), ValueError, "shape"),
    (lambda: Twist3.R([0, 0, 1], [0, 0, 0]).exp(1, unit="deg2"), ValueError, "unit"),
    (lambda: Twist3([0] * 6).unit(), ValueError, "non-zero"),
    (lambda: Twist2.R([1, 2, 3]), ValueError, "point"),
    (lambda: Twist2.T([0, 0]), ValueError, "direction"),
    (lambda: Twist2.from_T(np.eye(4)), ValueError, "shape"),
    (lambda: Twist2([0, 0, 0]).unit(), ValueError, "non-zero"),
    (lambda: Ad(np.diag([1.0, 1, -1, 1])), ValueError, "reflection"),
    (lambda: Ad(np.eye(3)), ValueError, "shape"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
