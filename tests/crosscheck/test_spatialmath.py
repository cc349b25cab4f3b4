"""Cross-check rvc's Chapter 2 spatial maths against spatialmath-python.

The peer is an oracle only (rvc never imports it).  Run in the peers' venv:
``python -m pytest tests/crosscheck/test_spatialmath.py``.

Known, documented differences (not tested as equal):
* ``Twist3.pole`` / ``Twist2.pole``: rvc divides by |w|^2 (the true closest
  point for non-unit twists); spatialmath divides by |w|.  Equal for unit twists.
* ``qangle``: rvc returns the rotation angle in [0, pi] (q and -q identified);
  spatialmath's can reach 2 pi.  Equal when q1 . q2 >= 0.
* Quaternions of 180 degree rotations have s = 0 and either sign is valid.
* Peer bugs found (comparisons restricted or dropped): spatialmath 1.1.18
  ``trlog2``/``Twist2(SE2)`` are wrong for |theta| > pi/2 (rvc agrees with
  ``scipy.linalg.logm``); ``Twist3.unit()`` has its rotational/prismatic
  branches swapped.
"""

import warnings

import numpy as np
import pytest
import scipy.linalg

smb = pytest.importorskip("spatialmath.base")
from spatialmath import SE2, SE3, Twist2, Twist3, UnitQuaternion  # noqa: E402

import rvc  # noqa: E402

N = 25
SEEDS = range(N)


def rng_for(seed):
    return np.random.default_rng(1000 + seed)


def rand_rot(rng):
    return smb.angvec2r(rng.uniform(0, np.pi), rng.normal(size=3))


def rand_pose(rng):
    return smb.rt2tr(rand_rot(rng), rng.uniform(-3, 3, 3))


def same_q(a, b, atol=1e-10):
    return min(np.abs(a - b).max(), np.abs(a + b).max()) < atol


@pytest.mark.parametrize("seed", SEEDS)
def test_elementary_and_transl(seed):
    rng = rng_for(seed)
    th = rng.uniform(-np.pi, np.pi)
    for ours, peer in [(rvc.rotx, smb.rotx), (rvc.roty, smb.roty), (rvc.rotz, smb.rotz),
                       (rvc.trotx, smb.trotx), (rvc.troty, smb.troty), (rvc.trotz, smb.trotz),
                       (rvc.rot2, smb.rot2), (rvc.trot2, smb.trot2)]:
        np.testing.assert_allclose(ours(th), peer(th), atol=1e-14)
        np.testing.assert_allclose(ours(np.rad2deg(th), unit="deg"), peer(th), atol=1e-12)
    t = rng.normal(size=3)
    np.testing.assert_allclose(rvc.transl(*t), smb.transl(*t))
    np.testing.assert_allclose(rvc.transl2(*t[:2]), smb.transl2(*t[:2]))
    T = rand_pose(rng)
    np.testing.assert_allclose(rvc.transl(T), smb.transl(T))
    np.testing.assert_allclose(rvc.trinv(T), smb.trinv(T), atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_euler(seed):
    rng = rng_for(seed)
    ang = rng.uniform(-np.pi, np.pi, 3)
    np.testing.assert_allclose(rvc.eul2r(ang), smb.eul2r(ang), atol=1e-14)
    np.testing.assert_allclose(rvc.eul2tr(*ang), smb.eul2tr(ang), atol=1e-14)
    R = rand_rot(rng)
    np.testing.assert_allclose(rvc.tr2eul(R), smb.tr2eul(R), atol=1e-10)
    np.testing.assert_allclose(rvc.tr2eul(R, flip=True), smb.tr2eul(R, flip=True), atol=1e-10)


@pytest.mark.parametrize("order", ["zyx", "xyz", "yxz"])
@pytest.mark.parametrize("seed", range(10))
def test_rpy(order, seed):
    rng = rng_for(seed)
    ang = rng.uniform(-np.pi, np.pi, 3)
    np.testing.assert_allclose(rvc.rpy2r(ang, order=order), smb.rpy2r(ang, order=order),
                               atol=1e-14)
    np.testing.assert_allclose(rvc.rpy2tr(ang, order=order), smb.rpy2tr(ang, order=order),
                               atol=1e-14)
    R = rand_rot(rng)
    np.testing.assert_allclose(rvc.tr2rpy(R, order=order), smb.tr2rpy(R, order=order),
                               atol=1e-10)


@pytest.mark.parametrize("order", ["zyx", "xyz", "yxz"])
@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2])
def test_rpy_gimbal_lock_same_convention(order, pitch):
    R = rvc.rpy2r(0.3, pitch, 0.7, order=order)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = rvc.tr2rpy(R, order=order)
    peer = smb.tr2rpy(R, order=order)
    np.testing.assert_allclose(ours, peer, atol=1e-9)


@pytest.mark.parametrize("theta", [0.0, np.pi])
def test_eul_gimbal_lock_same_convention(theta):
    R = rvc.eul2r(0.3, theta, 0.7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = rvc.tr2eul(R)
    np.testing.assert_allclose(ours, smb.tr2eul(R), atol=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_angvec_oa(seed):
    rng = rng_for(seed)
    th, v = rng.uniform(-4, 4), rng.normal(size=3)
    np.testing.assert_allclose(rvc.angvec2r(th, v), smb.angvec2r(th, v), atol=1e-13)
    np.testing.assert_allclose(rvc.angvec2tr(th, v), smb.angvec2tr(th, v), atol=1e-13)
    R = rand_rot(rng)
    t1, v1 = rvc.tr2angvec(R)
    t2, v2 = smb.tr2angvec(R)
    np.testing.assert_allclose(t1, t2, atol=1e-10)
    np.testing.assert_allclose(v1, v2, atol=1e-9)
    o, a = rng.normal(size=3), rng.normal(size=3)
    np.testing.assert_allclose(rvc.oa2r(o, a), smb.oa2r(o, a), atol=1e-12)
    np.testing.assert_allclose(rvc.oa2tr(o, a), smb.oa2tr(o, a), atol=1e-12)


def test_angvec_identity():
    t, v = rvc.tr2angvec(np.eye(3))
    t2, v2 = smb.tr2angvec(np.eye(3))
    assert t == t2 == 0
    np.testing.assert_array_equal(v, v2)


@pytest.mark.parametrize("seed", SEEDS)
def test_trnorm(seed):
    rng = rng_for(seed)
    T = rand_pose(rng) + np.vstack([1e-4 * rng.normal(size=(3, 4)), np.zeros((1, 4))])
    np.testing.assert_allclose(rvc.trnorm(T), smb.trnorm(T), atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_skew_exp_log(seed):
    rng = rng_for(seed)
    w = rng.normal(size=3)
    np.testing.assert_allclose(rvc.skew(w), smb.skew(w))
    np.testing.assert_allclose(rvc.vex(smb.skew(w)), w)
    S = rng.normal(size=6)
    np.testing.assert_allclose(rvc.skewa(S), smb.skewa(S))
    np.testing.assert_allclose(rvc.vexa(smb.skewa(S)), smb.vexa(smb.skewa(S)))
    np.testing.assert_allclose(rvc.trexp(w), smb.trexp(w), atol=1e-12)
    np.testing.assert_allclose(rvc.trexp(S), smb.trexp(S), atol=1e-10)
    S2 = rng.normal(size=3)
    np.testing.assert_allclose(rvc.trexp(rvc.skewa(S2)), smb.trexp2(S2), atol=1e-12)
    R, T = rand_rot(rng), rand_pose(rng)
    np.testing.assert_allclose(rvc.trlog(R), smb.trlog(R), atol=1e-9)
    np.testing.assert_allclose(rvc.trlog(R, twist=True), smb.trlog(R, twist=True), atol=1e-9)
    np.testing.assert_allclose(rvc.trlog(T), smb.trlog(T), atol=1e-9)
    np.testing.assert_allclose(rvc.trlog(T, twist=True), smb.trlog(T, twist=True), atol=1e-9)
    # spatialmath 1.1.18's trlog2 is wrong for |theta| > pi/2 (checked against scipy's
    # logm below), so compare with it only inside that range
    T2 = smb.transl2(*rng.normal(size=2)) @ smb.trot2(rng.uniform(-1.5, 1.5))
    np.testing.assert_allclose(rvc.trlog(T2), smb.trlog2(T2), atol=1e-9)
    T2 = smb.transl2(*rng.normal(size=2)) @ smb.trot2(rng.uniform(-3, 3))
    np.testing.assert_allclose(rvc.trlog(T2), scipy.linalg.logm(T2).real, atol=1e-8)


@pytest.mark.parametrize("seed", SEEDS)
def test_quaternions(seed):
    rng = rng_for(seed)
    R = rand_rot(rng)
    q = rvc.r2q(R)
    assert same_q(q, smb.r2q(R))
    assert q[0] >= 0
    np.testing.assert_allclose(rvc.q2r(q), smb.q2r(q), atol=1e-14)
    q1, q2 = smb.r2q(rand_rot(rng)), smb.r2q(rand_rot(rng))
    np.testing.assert_allclose(rvc.qmul(q1, q2), smb.qqmul(q1, q2), atol=1e-14)
    np.testing.assert_allclose(rvc.qconj(q1), smb.qconj(q1))
    np.testing.assert_allclose(rvc.qinv(q1), smb.qconj(q1), atol=1e-14)
    v = rng.normal(size=3)
    np.testing.assert_allclose(rvc.qvmul(q1, v), smb.qvmul(q1, v), atol=1e-12)
    np.testing.assert_allclose(rvc.qvmul(q1, v), UnitQuaternion(q1) * v, atol=1e-12)
    s = rng.uniform(0, 1)
    for shortest in (False, True):
        # spatialmath may return -q (same rotation); rvc's path is continuous from q1
        assert same_q(rvc.qslerp(q1, q2, s, shortest=shortest),
                      smb.qslerp(q1, q2, s, shortest=shortest))
    if np.dot(q1, q2) >= 0:
        np.testing.assert_allclose(rvc.qangle(q1, q2), smb.qangle(q1, q2), atol=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_adjoint(seed):
    T = rand_pose(rng_for(seed))
    np.testing.assert_allclose(rvc.Ad(T), SE3(T, check=False).Ad(), atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_twist3(seed):
    rng = rng_for(seed)
    a, p, pitch = rng.normal(size=3), rng.normal(size=3), rng.normal()
    ours = rvc.Twist3.R(a, p, pitch)
    peer = Twist3.UnitRevolute(a, p, pitch)
    np.testing.assert_allclose(ours.S, peer.S, atol=1e-14)
    np.testing.assert_allclose(ours.pitch, peer.pitch, atol=1e-12)
    np.testing.assert_allclose(ours.pole, peer.pole, atol=1e-12)   # unit twist: same
    th = rng.uniform(-5, 5)
    np.testing.assert_allclose(ours.exp(th), peer.exp(th).A, atol=1e-12)
    d = rng.normal(size=3)
    np.testing.assert_allclose(rvc.Twist3.T(d).S, Twist3.UnitPrismatic(d).S, atol=1e-14)
    T = rand_pose(rng)
    ours, peer = rvc.Twist3.from_T(T), Twist3(SE3(T, check=False))
    np.testing.assert_allclose(ours.S, peer.S, atol=1e-9)
    np.testing.assert_allclose(ours.theta, peer.theta, atol=1e-9)
    np.testing.assert_allclose(ours.pitch, peer.pitch, atol=1e-9)
    np.testing.assert_allclose(ours.se(), peer.skewa(), atol=1e-12)


def test_twist3_notes_example():
    ours = rvc.Twist3.R([0, 0, 1], [2, 3, 2], 0.5)
    peer = Twist3.UnitRevolute([0, 0, 1], [2, 3, 2], 0.5)
    np.testing.assert_allclose(ours.S, peer.S)
    T = smb.transl(1, 2, 3) @ smb.eul2tr(0.3, 0.4, 0.5)
    np.testing.assert_allclose(rvc.Twist3.from_T(T).S, Twist3(SE3(T)).S, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_twist2(seed):
    rng = rng_for(seed)
    C = rng.normal(size=2)
    ours, peer = rvc.Twist2.R(C), Twist2.UnitRevolute(C)
    np.testing.assert_allclose(ours.S, peer.S, atol=1e-14)
    np.testing.assert_allclose(ours.pole, peer.pole, atol=1e-12)
    th = rng.uniform(-5, 5)
    np.testing.assert_allclose(ours.exp(th), peer.exp(th).A, atol=1e-12)
    d = rng.normal(size=2)
    np.testing.assert_allclose(rvc.Twist2.T(d).S, Twist2.UnitPrismatic(d).S, atol=1e-14)
    # |theta| < pi/2: see the trlog2 note in test_skew_exp_log
    T = smb.transl2(*rng.normal(size=2)) @ smb.trot2(rng.uniform(-1.5, 1.5))
    np.testing.assert_allclose(rvc.Twist2.from_T(T).S, Twist2(SE2(T, check=False)).S, atol=1e-9)


@pytest.mark.parametrize("seed", range(10))
def test_batched_equals_loop(seed):
    """rvc's batches agree with spatialmath called element by element."""
    rng = rng_for(seed)
    R = np.stack([rand_rot(rng) for _ in range(6)])
    np.testing.assert_allclose(rvc.tr2rpy(R), [smb.tr2rpy(r) for r in R], atol=1e-10)
    np.testing.assert_allclose(rvc.tr2eul(R), [smb.tr2eul(r) for r in R], atol=1e-10)
    qs = rvc.r2q(R)
    assert all(same_q(q, smb.r2q(r)) for q, r in zip(qs, R))
