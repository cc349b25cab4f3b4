"""Tests for rvc.spatial.dualquat (unit dual quaternions)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rvc import (dq2tr, dqconj, dqmul, dqnorm, dqunit, dqvmul, e2h, h2e, qmul, r2q, rpy2tr,
                 tr2dq, transl, trinv, trotx)

FAST = settings(max_examples=50, deadline=None)
vec3 = hnp.arrays(float, 3, elements=st.floats(-5, 5, allow_nan=False))


def pose(t, rpy):
    return transl(t) @ rpy2tr(rpy)


def test_construction():
    T = transl(1, 2, 3) @ trotx(0.3)
    dq = tr2dq(T)
    qr = r2q(T[:3, :3])
    np.testing.assert_allclose(dq[:4], qr)
    np.testing.assert_allclose(dq[4:], 0.5 * qmul([0, 1, 2, 3], qr))
    np.testing.assert_allclose(np.dot(dq[:4], dq[4:]), 0, atol=1e-15)
    np.testing.assert_allclose(dqnorm(dq), 1)
    np.testing.assert_allclose(dq2tr(dq), T, atol=1e-15)


@FAST
@given(vec3, vec3, vec3, vec3, vec3)
def test_identities(t1, r1, t2, r2, p):
    T1, T2 = pose(t1, r1), pose(t2, r2)
    d1, d2 = tr2dq(T1), tr2dq(T2)
    np.testing.assert_allclose(dq2tr(d1), T1, atol=1e-12)
    np.testing.assert_allclose(dq2tr(dqmul(d1, d2)), T1 @ T2, atol=1e-10)
    np.testing.assert_allclose(dq2tr(dqconj(d1)), trinv(T1), atol=1e-10)
    np.testing.assert_allclose(dqvmul(d1, p), h2e(T1 @ e2h(p)), atol=1e-10)


def test_batch_and_unit():
    T = trotx(np.linspace(0, 1, 4), t=[1, 2, 3])
    dq = tr2dq(T)
    assert dq.shape == (4, 8)
    np.testing.assert_allclose(dq2tr(dq), T, atol=1e-14)
    assert dqvmul(dq[1], np.zeros((5, 3))).shape == (5, 3)
    bad = tr2dq(T[2]) * 3 + np.r_[np.zeros(4), 0.01 * tr2dq(T[2])[:4]]
    fixed = dqunit(bad)
    np.testing.assert_allclose(dq2tr(fixed), T[2], atol=1e-12)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: dq2tr([2, 0, 0, 0, 0, 0, 0, 0]), ValueError, "unit quaternion"),
    (lambda: dq2tr([1, 0, 0, 0, 1, 0, 0, 0]), ValueError, "q_r . q_d = 0"),
    (lambda: dq2tr([1, 0, 0, 0]), ValueError, "dq: expected shape"),
    (lambda: dqunit(np.zeros(8)), ValueError, "non-zero"),
    (lambda: dqmul(np.zeros(8), np.zeros(7)), ValueError, "dq2"),
    (lambda: dqvmul(tr2dq(np.eye(4)), [1, 2]), ValueError, "v"),
    (lambda: tr2dq(np.ones((4, 4))), ValueError, "bottom row"),
    (lambda: tr2dq(np.full((4, 4), np.nan)), ValueError, "finite"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
