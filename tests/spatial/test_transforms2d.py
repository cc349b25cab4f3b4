"""Tests for rvc.spatial.transforms2d (Chapter 2.1)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rvc import e2h, h2e, ishom2, isrot2, rot2, transl2, trot2

angles = st.floats(-10, 10, allow_nan=False)
coords = st.floats(-100, 100, allow_nan=False)
FAST = settings(max_examples=60, deadline=None)


def test_rot2_closed_form():
    c, s = np.cos(0.3), np.sin(0.3)
    np.testing.assert_allclose(rot2(0.3), [[c, -s], [s, c]])
    np.testing.assert_allclose(rot2(30, unit="deg"), rot2(np.pi / 6))


def test_rot2_batch():
    th = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
    R = rot2(th)
    assert R.shape == (2, 3, 2, 2)
    np.testing.assert_allclose(R[1, 2], rot2(0.6))


@FAST
@given(angles, angles)
def test_rot2_group(a, b):
    np.testing.assert_allclose(rot2(a) @ rot2(b), rot2(a + b), atol=1e-12)
    np.testing.assert_allclose(rot2(a).T @ rot2(a), np.eye(2), atol=1e-12)
    assert isrot2(rot2(a))


def test_notes_T1_T2_T3_T4():
    T1 = transl2(1, 2) @ trot2(30, unit="deg")
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    np.testing.assert_allclose(T1, [[c, -s, 1], [s, c, 2], [0, 0, 1]])
    T2 = transl2(2, 1)
    T3 = T1 @ T2
    T4 = T2 @ T1
    # T3: T2's translation is applied in frame 1, so its origin is not (3, 3); T4's is.
    assert not np.allclose(transl2(T3), [3, 3])
    np.testing.assert_allclose(transl2(T4), [3, 3])
    np.testing.assert_allclose(transl2(T3), [1 + 2 * c - s, 2 + 2 * s + c])


def test_notes_point_in_frame1():
    T1 = transl2(1, 2) @ trot2(30, unit="deg")
    P = np.array([3.0, 2.0])
    P1 = h2e(np.linalg.inv(T1) @ e2h(P))
    np.testing.assert_allclose(P1, [1.732051, -1.0], atol=1e-6)
    # batch of points as rows
    Ps = np.array([[3.0, 2.0], [1.0, 2.0]])
    np.testing.assert_allclose(h2e(e2h(Ps) @ np.linalg.inv(T1).T)[0], P1)


def test_notes_centre_of_rotation():
    X = transl2(2, 3)
    R = trot2(2)
    C = np.array([1.0, 2.0])
    RC = transl2(C) @ R @ transl2(-C)
    # RC leaves C fixed
    np.testing.assert_allclose(h2e(RC @ e2h(C)), C, atol=1e-12)
    # R*X rotates about the world origin, X*R about X's origin
    np.testing.assert_allclose(transl2(X @ R), [2, 3])
    np.testing.assert_allclose(np.linalg.norm(transl2(R @ X)), np.hypot(2, 3))


def test_trot2_translation_and_batch():
    T = trot2([0.1, 0.2], t=[1, 2])
    assert T.shape == (2, 3, 3)
    np.testing.assert_allclose(T[:, :2, 2], [[1, 2], [1, 2]])
    np.testing.assert_allclose(T[:, 2], [[0, 0, 1], [0, 0, 1]])


@FAST
@given(coords, coords)
def test_transl2_roundtrip(x, y):
    T = transl2(x, y)
    assert ishom2(T)
    np.testing.assert_allclose(transl2(T), [x, y])
    np.testing.assert_allclose(transl2([x, y]), T)


def test_transl2_batch_forms():
    T = transl2(np.array([1.0, 2.0, 3.0]), 0.0)
    assert T.shape == (3, 3, 3)
    np.testing.assert_allclose(transl2(T), [[1, 0], [2, 0], [3, 0]])
    assert transl2(np.zeros((4, 2))).shape == (4, 3, 3)


def test_e2h_h2e():
    np.testing.assert_allclose(e2h([1, 2]), [1, 2, 1])
    np.testing.assert_allclose(h2e([2, 4, 2]), [1, 2])
    P = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(h2e(e2h(P)), P)


def test_isrot2_ishom2():
    assert isrot2(rot2(1.0))
    assert not isrot2(np.diag([1.0, -1.0]))           # reflection
    assert not isrot2([[1, 0.1], [0, 1]])             # not orthonormal
    assert not isrot2(np.eye(3))                      # wrong shape
    assert not isrot2("R")
    assert isrot2([[1, 0.1], [0, 1]], check=False)
    assert ishom2(trot2(0.4, t=[1, 2]))
    assert not ishom2(np.ones((3, 3)))
    assert not ishom2([[1, 0, 0], [0, 1, 0], [0, 1, 1]])


@pytest.mark.parametrize("call, exc, words", [
    (lambda: rot2(0.1, unit="degrees"), ValueError, "unit"),
    (lambda: rot2(np.nan), ValueError, "theta"),
    (lambda: rot2(np.inf), ValueError, "finite"),
    (lambda: rot2("0.1"), TypeError, "theta"),
    (lambda: transl2([1, 2, 3]), ValueError, "x"),
    (lambda: transl2([1, 2], [1, 2, 3]), ValueError, "broadcastable"),
    (lambda: transl2(np.ones((3, 3))), ValueError, "bottom row"),
    (lambda: transl2([[1, 0, 0], [0, -1, 0], [0, 0, 1]]), ValueError, "reflection"),
    (lambda: trot2(0.1, t=[1, 2, 3]), ValueError, "t"),
    (lambda: h2e([1, 2, 0]), ValueError, "infinity"),
    (lambda: h2e([1]), ValueError, "p"),
    (lambda: e2h(1.0), ValueError, "p"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_h2e_refuses_a_point_at_infinity_anywhere_in_a_batch():
    """One point at infinity among finite ones is refused, wherever it is in the batch."""
    P = np.array([[2.0, 4.0, 2.0], [1.0, 1.0, 0.0], [3.0, 6.0, 3.0]])
    for rows in (P, P[::-1], P[None]):
        with pytest.raises(ValueError, match="infinity"):
            h2e(rows)
