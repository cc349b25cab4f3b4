"""Tests for rvc.spatial.quaternion (unit quaternions and the vector-quaternion pose)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rvc import (angvec2r, q2r, qangle, qconj, qinv, qmul, qnorm, qslerp, qunit, qvmul, r2q,
                 rotx, rotz, rpy2r, rpy2tr, transl, tr2vq, trexp, trinv, vq2tr, vqinv, vqmul,
                 vqvmul)

FAST = settings(max_examples=60, deadline=None)
quat = hnp.arrays(float, 4, elements=st.floats(-1, 1, allow_nan=False)).filter(
    lambda q: np.linalg.norm(q) > 1e-3).map(lambda q: q / np.linalg.norm(q))
vec3 = hnp.arrays(float, 3, elements=st.floats(-10, 10, allow_nan=False))


def same_rotation(q1, q2, atol=1e-12):
    return min(np.abs(q1 - q2).max(), np.abs(q1 + q2).max()) < atol


def test_notes_quaternion():
    q = r2q(rpy2tr(0.1, 0.2, 0.3))
    np.testing.assert_allclose(q, [0.9833, 0.0343, 0.1060, 0.1436], atol=1e-4)
    np.testing.assert_allclose(qmul(q, qinv(q)), [1, 0, 0, 0], atol=1e-15)
    np.testing.assert_allclose(q2r(q), rpy2r(0.1, 0.2, 0.3), atol=1e-15)
    np.testing.assert_allclose(qvmul(q, [1, 0, 0]), rpy2r(0.1, 0.2, 0.3)[:, 0], atol=1e-15)


def test_closed_form():
    th, u = 0.7, np.array([1.0, 2, 2]) / 3
    q = r2q(angvec2r(th, u))
    np.testing.assert_allclose(q, np.r_[np.cos(th / 2), np.sin(th / 2) * u], atol=1e-15)
    np.testing.assert_allclose(qmul([0, 1, 0, 0], [0, 0, 1, 0]), [0, 0, 0, 1])   # ij = k
    np.testing.assert_allclose(qmul([0, 1, 0, 0], [0, 1, 0, 0]), [-1, 0, 0, 0])  # i^2 = -1


@FAST
@given(quat)
def test_r2q_q2r_roundtrip(q):
    R = q2r(q)
    q2 = r2q(R)
    assert q2[0] >= 0
    assert same_rotation(q, q2, 1e-12)
    np.testing.assert_allclose(q2r(q2), R, atol=1e-14)


@pytest.mark.parametrize("axis", [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, -1, 1], [1, 2, 3]])
@pytest.mark.parametrize("theta", [0, 1e-9, np.pi - 1e-9, np.pi])
def test_r2q_near_pi_and_zero(axis, theta):
    R = angvec2r(theta, axis)
    q = r2q(R)
    assert q[0] >= 0 and np.isclose(np.linalg.norm(q), 1)
    np.testing.assert_allclose(q2r(q), R, atol=1e-14)


def test_r2q_batch():
    R = trexp(np.random.default_rng(0).normal(size=(5, 2, 3)))
    q = r2q(R)
    assert q.shape == (5, 2, 4)
    assert np.all(q[..., 0] >= 0)
    np.testing.assert_allclose(q2r(q), R, atol=1e-14)


@FAST
@given(quat, quat, vec3)
def test_products(q1, q2, v):
    np.testing.assert_allclose(q2r(qmul(q1, q2)), q2r(q1) @ q2r(q2), atol=1e-12)
    np.testing.assert_allclose(qvmul(q1, v), q2r(q1) @ v, atol=1e-11)
    np.testing.assert_allclose(qmul(q1, qconj(q1)), [1, 0, 0, 0], atol=1e-14)
    np.testing.assert_allclose(qnorm(qmul(q1, q2)), 1, atol=1e-14)


def test_norm_unit_inv():
    q = np.array([1.0, 2, 2, 4])
    assert qnorm(q) == 5
    np.testing.assert_allclose(qunit(q), q / 5)
    np.testing.assert_allclose(qunit(-q), q / 5)
    np.testing.assert_allclose(qmul(q, qinv(q)), [1, 0, 0, 0], atol=1e-15)
    assert qnorm(np.ones((3, 4))).shape == (3,)


def test_qslerp():
    q0, q1 = r2q(np.eye(3)), r2q(rotz(1.0))
    q = qslerp(q0, q1, np.linspace(0, 1, 5))
    assert q.shape == (5, 4)
    for s, qs in zip(np.linspace(0, 1, 5), q):
        np.testing.assert_allclose(q2r(qs), rotz(s), atol=1e-14)
    assert qslerp(q0, q1, 0.3).shape == (4,)
    np.testing.assert_allclose(qslerp(q0, q0, 0.3), q0)
    # shortest: -q1 is the same rotation; without shortest the long way round
    qa = qslerp(q0, -q1, 0.5)
    qb = qslerp(q0, -q1, 0.5, shortest=True)
    assert same_rotation(qb, r2q(rotz(0.5)))
    assert not same_rotation(qa, r2q(rotz(0.5)), 1e-6)


@FAST
@given(quat, quat, st.floats(0, 1))
def test_qslerp_properties(q0, q1, s):
    q = qslerp(q0, q1, s, shortest=True)
    np.testing.assert_allclose(np.linalg.norm(q), 1, atol=1e-12)
    # the angle travelled is a fraction s of the total
    total = qangle(q0, q1)
    np.testing.assert_allclose(qangle(q0, q), s * total, atol=1e-6)
    np.testing.assert_allclose(qangle(q, q1), (1 - s) * total, atol=1e-6)


def test_qangle():
    np.testing.assert_allclose(qangle(r2q(rotx(0.3)), r2q(rotx(-0.2))), 0.5)
    np.testing.assert_allclose(qangle(r2q(rotx(0.3)), -r2q(rotx(0.3))), 0, atol=1e-7)
    np.testing.assert_allclose(qangle(r2q(np.eye(3)), r2q(rotx(np.pi))), np.pi)
    np.testing.assert_allclose(qangle(r2q(np.eye(3)), r2q(rotx(0.5)), unit="deg"),
                               np.rad2deg(0.5))


@FAST
@given(quat, vec3, quat, vec3, vec3)
def test_vector_quaternion_pose(q1, t1, q2, t2, p):
    T1, T2 = vq2tr(t1, q1), vq2tr(t2, q2)
    t, q = vqmul((t1, q1), (t2, q2))
    np.testing.assert_allclose(vq2tr(t, q), T1 @ T2, atol=1e-10)
    ti, qi = vqinv((t1, q1))
    np.testing.assert_allclose(vq2tr(ti, qi), trinv(T1), atol=1e-10)
    np.testing.assert_allclose(vqvmul((t1, q1), p), T1[:3, :3] @ p + T1[:3, 3], atol=1e-10)
    tt, qq = tr2vq(T1)
    np.testing.assert_allclose(tt, t1)
    assert same_rotation(qq, q1, 1e-12)


def test_vq_batch():
    T = transl(np.arange(6.0).reshape(2, 3)) @ rpy2tr(np.ones((2, 3)) * 0.2)
    t, q = tr2vq(T)
    assert t.shape == (2, 3) and q.shape == (2, 4)
    np.testing.assert_allclose(vq2tr(t, q), T, atol=1e-14)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: qunit([0, 0, 0, 0]), ValueError, "non-zero quaternion"),
    (lambda: qinv([0, 0, 0, 0]), ValueError, "non-zero quaternion"),
    (lambda: q2r([0, 0, 0, 0]), ValueError, "non-zero quaternion"),
    (lambda: q2r([1, 1, 0, 0]), ValueError, "unit quaternion"),
    (lambda: qvmul([2, 0, 0, 0], [1, 0, 0]), ValueError, "unit quaternion"),
    (lambda: qmul([1, 0, 0], [1, 0, 0, 0]), ValueError, "q1: expected shape"),
    (lambda: qvmul([1, 0, 0, 0], [1, 0]), ValueError, "v: expected shape"),
    (lambda: q2r([np.nan, 0, 0, 0]), ValueError, "finite"),
    (lambda: r2q(np.diag([1.0, 1, -1])), ValueError, "reflection"),
    (lambda: r2q(np.ones((3, 3))), ValueError, "orthonormal"),
    (lambda: qslerp([1, 0, 0, 0], [0, 1, 0, 0], 1.5), ValueError, "s: expected values in"),
    (lambda: qslerp([1, 0, 0, 0], [-1, 0, 0, 0], 0.5), ValueError, "antipodal"),
    (lambda: qslerp(np.ones((2, 4)) / 2, [1, 0, 0, 0], 0.5), ValueError, "single"),
    (lambda: qangle([1, 0, 0, 0], [0, 0, 0, 0]), ValueError, "q2"),
    (lambda: vqmul(([0, 0, 0],), ([0, 0, 0], [1, 0, 0, 0])), TypeError, "vq1"),
    (lambda: tr2vq(np.ones((4, 4))), ValueError, "bottom row"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_check_false():
    R = q2r([2.0, 0, 0, 0], check=False)
    assert R.shape == (3, 3)
