"""Tests for rvc.spatial.transforms3d (Chapter 2.2)."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rvc import (SingularityWarning, angvec2r, angvec2tr, eul2r, eul2tr, ishom, isrot, oa2r,
                 oa2tr, r2t, roty, rotx, rotz, rpy2r, rpy2tr, rt2tr, t2r, tr2angvec, tr2eul,
                 tr2rpy, tr2rt, transl, trinv, trnorm, trotx, troty, trotz)

FAST = settings(max_examples=60, deadline=None)
ang = st.floats(-np.pi, np.pi, allow_nan=False)
vec3 = hnp.arrays(float, 3, elements=st.floats(-10, 10, allow_nan=False))


def unit_axis():
    return vec3.filter(lambda v: np.linalg.norm(v) > 1e-3)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularityWarning)
        return fn(*a, **k)


# ------------------------------------------------------------- elementary
def test_elementary_closed_forms():
    c, s = np.cos(0.3), np.sin(0.3)
    np.testing.assert_allclose(rotx(0.3), [[1, 0, 0], [0, c, -s], [0, s, c]])
    np.testing.assert_allclose(roty(0.3), [[c, 0, s], [0, 1, 0], [-s, 0, c]])
    np.testing.assert_allclose(rotz(0.3), [[c, -s, 0], [s, c, 0], [0, 0, 1]])
    np.testing.assert_allclose(rotx(90, unit="deg"), rotx(np.pi / 2))


def test_elementary_batch():
    R = rotx(np.array([0.1, 0.2]))
    assert R.shape == (2, 3, 3)
    np.testing.assert_allclose(R[1], rotx(0.2))
    assert trotz(np.zeros((2, 5))).shape == (2, 5, 4, 4)
    np.testing.assert_allclose(troty(0.4, t=[1, 2, 3])[:3, 3], [1, 2, 3])
    np.testing.assert_allclose(trotx(0.4)[:3, :3], rotx(0.4))


def test_notes_pose_example():
    T = transl(1, 0, 0) @ trotx(np.pi / 2) @ transl(0, 1, 0)
    np.testing.assert_allclose(t2r(T), rotx(np.pi / 2))
    np.testing.assert_allclose(transl(T), [1, 0, 1], atol=1e-15)


def test_transl_forms():
    np.testing.assert_allclose(transl(1, 2, 3), transl([1, 2, 3]))
    T = transl(np.array([1.0, 2.0]), 0, 0)
    assert T.shape == (2, 4, 4)
    np.testing.assert_allclose(transl(T), [[1, 0, 0], [2, 0, 0]])


def test_t2r_r2t_rt2tr_tr2rt():
    R = rpy2r(0.1, 0.2, 0.3)
    T = rt2tr(R, [1, 2, 3])
    R2, t = tr2rt(T)
    np.testing.assert_allclose(R2, R)
    np.testing.assert_allclose(t, [1, 2, 3])
    np.testing.assert_allclose(t2r(r2t(R)), R)
    assert r2t(np.eye(2)).shape == (3, 3)
    assert rt2tr(rotx([0.1, 0.2]), [1, 2, 3]).shape == (2, 4, 4)


# ------------------------------------------------------------------ ZYZ Euler
def test_eul_notes():
    R = eul2r(0.1, 0.2, 0.3)
    np.testing.assert_allclose(R, rotz(0.1) @ roty(0.2) @ rotz(0.3))
    np.testing.assert_allclose(tr2eul(R), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(eul2r([0.1, 0.2, 0.3]), R)
    np.testing.assert_allclose(eul2tr(0.1, 0.2, 0.3)[:3, :3], R)
    np.testing.assert_allclose(tr2eul(eul2tr(0.1, 0.2, 0.3)), [0.1, 0.2, 0.3])
    # negative theta: a different triple with theta > 0 is returned
    g = tr2eul(eul2r(0.1, -0.2, 0.3))
    assert g[1] > 0
    np.testing.assert_allclose(eul2r(g), eul2r(0.1, -0.2, 0.3), atol=1e-12)
    np.testing.assert_allclose(tr2eul(eul2r(0.1, -0.2, 0.3), flip=True), [0.1, -0.2, 0.3])
    np.testing.assert_allclose(tr2eul(eul2r(10, 20, 30, unit="deg"), unit="deg"), [10, 20, 30])


@FAST
@given(ang, st.floats(0, np.pi), ang)
def test_eul_roundtrip(phi, theta, psi):
    R = eul2r(phi, theta, psi)
    for flip in (False, True):
        g = quiet(tr2eul, R, flip=flip)
        assert (g[1] <= 0) if flip else (g[1] >= 0)
        np.testing.assert_allclose(eul2r(g), R, atol=5e-8)


@FAST
@given(ang, ang, st.sampled_from([0.0, np.pi]),
       st.sampled_from([0.0, 1e-14, 1e-10, 1e-9, 5e-9, 2e-8, 1e-7]))
def test_eul_near_singularity(phi, psi, base, d):
    R = eul2r(phi, abs(base - d), psi)
    g = quiet(tr2eul, R)
    np.testing.assert_allclose(eul2r(g), R, atol=5e-8)
    assert np.all(np.isfinite(g))


def test_eul_gimbal_lock_warns():
    with pytest.warns(SingularityWarning, match="set to zero"):
        g = tr2eul(rotz(0.3))
    np.testing.assert_allclose(g, [0, 0, 0.3])
    with pytest.warns(SingularityWarning):
        g = tr2eul(eul2r(0.4, np.pi, 0.2))
    assert g[0] == 0
    np.testing.assert_allclose(eul2r(g), eul2r(0.4, np.pi, 0.2), atol=1e-12)


def test_eul_batch():
    a = np.random.default_rng(0).uniform(-3, 3, (7, 3))
    a[:, 1] = np.abs(a[:, 1])
    R = eul2r(a)
    assert R.shape == (7, 3, 3)
    np.testing.assert_allclose(tr2eul(R), a, atol=1e-12)
    # one singular element in a batch: warns once, others unaffected
    R[3] = rotz(0.5)
    with pytest.warns(SingularityWarning):
        g = tr2eul(R)
    np.testing.assert_allclose(g[[0, 1, 2, 4, 5, 6]], a[[0, 1, 2, 4, 5, 6]], atol=1e-12)
    np.testing.assert_allclose(g[3], [0, 0, 0.5])


# ------------------------------------------------------------- roll-pitch-yaw
def test_rpy_conventions():
    r, p, y = 0.1, 0.2, 0.3
    np.testing.assert_allclose(rpy2r(r, p, y), rotz(y) @ roty(p) @ rotx(r))
    np.testing.assert_allclose(rpy2r(r, p, y, order="xyz"), rotx(y) @ roty(p) @ rotz(r))
    np.testing.assert_allclose(rpy2r(r, p, y, order="yxz"), roty(y) @ rotx(p) @ rotz(r))
    np.testing.assert_allclose(rpy2tr([r, p, y])[:3, :3], rpy2r(r, p, y))
    for order in ("zyx", "xyz", "yxz"):
        np.testing.assert_allclose(tr2rpy(rpy2r(r, p, y, order=order), order=order), [r, p, y])
    np.testing.assert_allclose(tr2rpy(rpy2r(10, 20, 30, unit="deg"), unit="deg"), [10, 20, 30])


@FAST
@given(ang, st.floats(-np.pi / 2, np.pi / 2), ang, st.sampled_from(["zyx", "xyz", "yxz"]))
def test_rpy_roundtrip(r, p, y, order):
    R = rpy2r(r, p, y, order=order)
    g = quiet(tr2rpy, R, order=order)
    assert -np.pi / 2 <= g[1] <= np.pi / 2
    np.testing.assert_allclose(rpy2r(g, order=order), R, atol=5e-8)


@FAST
@given(ang, ang, st.sampled_from([1.0, -1.0]),
       st.sampled_from([0.0, 1e-13, 1e-10, 1e-9, 1e-8, 3e-8, 1e-6]),
       st.sampled_from(["zyx", "xyz", "yxz"]))
def test_rpy_near_gimbal_lock(r, y, sgn, d, order):
    R = rpy2r(r, sgn * (np.pi / 2 - d), y, order=order)
    g = quiet(tr2rpy, R, order=order)
    np.testing.assert_allclose(rpy2r(g, order=order), R, atol=5e-8)


@pytest.mark.parametrize("order", ["zyx", "xyz", "yxz"])
def test_rpy_gimbal_lock_warns(order):
    R = rpy2r(0.2, np.pi / 2, 0.5, order=order)
    with pytest.warns(SingularityWarning, match="roll was set to zero"):
        g = tr2rpy(R, order=order)
    assert g[0] == 0
    np.testing.assert_allclose(g[1], np.pi / 2)
    np.testing.assert_allclose(rpy2r(g, order=order), R, atol=1e-12)


def test_rpy_batch():
    a = np.random.default_rng(1).uniform(-1.5, 1.5, (2, 5, 3))
    R = rpy2r(a, order="xyz")
    assert R.shape == (2, 5, 3, 3)
    g = tr2rpy(R, order="xyz")
    assert g.shape == (2, 5, 3)
    np.testing.assert_allclose(g, a, atol=1e-12)
    assert rpy2r(a[..., 0], a[..., 1], 0.0).shape == (2, 5, 3, 3)


# --------------------------------------------------------------- angle-axis
def test_angvec_notes():
    np.testing.assert_allclose(angvec2r(np.pi / 2, [1, 0, 0]), rotx(np.pi / 2), atol=1e-15)
    R = rpy2r(0.1, 0.2, 0.3)
    theta, v = tr2angvec(R)
    np.testing.assert_allclose(angvec2r(theta, v), R, atol=1e-14)
    # theta from the complex eigenvalues, axis = eigenvector of eigenvalue 1
    e, x = np.linalg.eig(R)
    np.testing.assert_allclose(np.max(np.abs(np.angle(e))), theta)
    k = np.argmin(np.abs(e - 1))
    np.testing.assert_allclose(np.abs(x[:, k].real @ v), 1, atol=1e-12)
    np.testing.assert_allclose(angvec2tr(0.3, [0, 0, 5]), trotz(0.3), atol=1e-15)


def test_tr2angvec_zero_and_pi():
    th, v = tr2angvec(np.eye(3))
    assert th == 0 and np.array_equal(v, [0, 0, 0])
    th, v = tr2angvec(rotx(np.pi))
    np.testing.assert_allclose(th, np.pi)
    np.testing.assert_allclose(v, [1, 0, 0])
    th, v = tr2angvec(angvec2r(np.pi, [0, -1, 1]))
    np.testing.assert_allclose(np.abs(v), [0, 1 / np.sqrt(2), 1 / np.sqrt(2)])
    np.testing.assert_allclose(angvec2r(th, v), angvec2r(np.pi, [0, -1, 1]), atol=1e-14)
    th, v = tr2angvec(rotx(0.3), unit="deg")
    np.testing.assert_allclose(th, np.rad2deg(0.3))


@FAST
@given(st.floats(0, np.pi), unit_axis())
def test_angvec_roundtrip(theta, axis):
    R = angvec2r(theta, axis)
    assert isrot(R)
    th, v = tr2angvec(R)
    np.testing.assert_allclose(angvec2r(th, v) if th > 0 else np.eye(3), R, atol=1e-12)
    assert 0 <= th <= np.pi + 1e-15
    if 1e-6 < theta < np.pi - 1e-6:
        np.testing.assert_allclose(th, theta, atol=1e-9)
        np.testing.assert_allclose(v, axis / np.linalg.norm(axis), atol=1e-8)


def test_angvec_batch():
    th = np.array([0.0, 0.5, np.pi])
    R = angvec2r(th, [0, 0, 1])
    assert R.shape == (3, 3, 3)
    t, v = tr2angvec(R)
    np.testing.assert_allclose(t, th)
    np.testing.assert_allclose(v, [[0, 0, 0], [0, 0, 1], [0, 0, 1]], atol=1e-15)


# ----------------------------------------------------------- two vectors
def test_oa2r():
    R = oa2r([0, 1, 0], [1, 0, 0])
    assert isrot(R)
    np.testing.assert_allclose(R[:, 2], [1, 0, 0])
    np.testing.assert_allclose(R[:, 1], [0, 1, 0])
    np.testing.assert_allclose(oa2tr([0, 1, 0], [0, 0, 1]), np.eye(4))


@FAST
@given(unit_axis(), unit_axis())
def test_oa2r_nonorthogonal(o, a):
    n = np.cross(o, a)
    if np.linalg.norm(n) < 1e-3 * np.linalg.norm(o) * np.linalg.norm(a):
        return
    R = oa2r(o, a)
    assert isrot(R)
    np.testing.assert_allclose(R[:, 2], a / np.linalg.norm(a), atol=1e-12)
    # o' lies in the plane of o and a, on o's side
    assert abs(np.dot(R[:, 1], n)) < 1e-9 * np.linalg.norm(n)
    assert np.dot(R[:, 1], o) > 0


# ------------------------------------------------------------- repair, tests
def test_trnorm():
    R = rotx(0.3) @ roty(0.2)
    Rb = R + 1e-5 * np.random.default_rng(2).normal(size=(3, 3))
    assert not isrot(Rb)
    Rn = trnorm(Rb)
    assert isrot(Rn, tol=1e-12)
    np.testing.assert_allclose(Rn, R, atol=1e-4)
    T = rt2tr(R, [1, 2, 3])
    Tb = T.copy()
    Tb[:3, :3] = Rb
    Tn = trnorm(Tb)
    assert ishom(Tn, tol=1e-12)
    np.testing.assert_allclose(Tn[:3, 3], [1, 2, 3])
    # accumulated round-off of many products is repaired
    A = np.eye(3)
    for _ in range(1000):
        A = A @ rpy2r(0.1, 0.2, 0.3) + 1e-9
    assert isrot(trnorm(A), tol=1e-12)
    assert trnorm(np.stack([Rb, Rb])).shape == (2, 3, 3)


def test_isrot_ishom():
    assert isrot(rotx(1)) and not isrot(np.diag([1.0, 1, -1]))
    assert not isrot(np.eye(4)) and not isrot([[1, 2], [3, 4]])
    assert not isrot(np.full((3, 3), np.nan))
    assert isrot(2 * np.eye(3), check=False)
    assert ishom(transl(1, 2, 3)) and not ishom(np.ones((4, 4)))
    assert isrot(rotx([0.1, 0.2]))


@FAST
@given(vec3, ang, ang, ang)
def test_trinv(t, r, p, y):
    T = rt2tr(rpy2r(r, p, y), t)
    np.testing.assert_allclose(trinv(T), np.linalg.inv(T), atol=1e-9)
    np.testing.assert_allclose(trinv(T) @ T, np.eye(4), atol=1e-12)


def test_trinv_2d_and_batch():
    from rvc import transl2, trot2
    T2 = transl2(1, 2) @ trot2(0.3)
    np.testing.assert_allclose(trinv(T2), np.linalg.inv(T2))
    Ts = trotx([0.1, 0.2, 0.3], t=[1, 2, 3])
    np.testing.assert_allclose(trinv(Ts), np.linalg.inv(Ts), atol=1e-12)


# ------------------------------------------------------------- bad input
REFLECT = np.diag([1.0, 1.0, -1.0])
SHEAR = np.array([[1, 0.1, 0], [0, 1, 0], [0, 0, 1.0]])
BADROW = np.eye(4)
BADROW[3, 0] = 0.5


@pytest.mark.parametrize("call, exc, words", [
    (lambda: rotx(0.1, unit="grad"), ValueError, "unit"),
    (lambda: roty(np.nan), ValueError, "finite"),
    (lambda: rotz("a"), TypeError, "theta"),
    (lambda: tr2eul(REFLECT), ValueError, "reflection"),
    (lambda: tr2eul(SHEAR), ValueError, "orthonormal"),
    (lambda: tr2rpy(REFLECT), ValueError, "reflection"),
    (lambda: tr2rpy(rotx(0.1), order="zxz"), ValueError, "order"),
    (lambda: rpy2r(0.1, 0.2, 0.3, order="ZYX"), ValueError, "order"),
    (lambda: rpy2r(0.1, 0.2), TypeError, "three angles"),
    (lambda: eul2r([0.1, 0.2]), ValueError, "angles"),
    (lambda: eul2r([0.1, 0.2, np.inf]), ValueError, "finite"),
    (lambda: tr2angvec(SHEAR), ValueError, "orthonormal"),
    (lambda: tr2angvec(np.eye(2)), ValueError, "shape"),
    (lambda: angvec2r(0.3, [0, 0, 0]), ValueError, "v: expected a non-zero"),
    (lambda: angvec2r(0.3, [0, 1]), ValueError, "v"),
    (lambda: oa2r([1, 0, 0], [2, 0, 0]), ValueError, "parallel"),
    (lambda: oa2r([1, 0, 0], [-1, 1e-12, 0]), ValueError, "parallel"),
    (lambda: oa2r([0, 0, 0], [1, 0, 0]), ValueError, "o: expected a non-zero"),
    (lambda: transl(BADROW), ValueError, "bottom row"),
    (lambda: transl(1, 2), TypeError, "x, y"),
    (lambda: transl([1, 2]), ValueError, "x"),
    (lambda: t2r(BADROW), ValueError, "bottom row"),
    (lambda: t2r(np.eye(5)), ValueError, "shape"),
    (lambda: trinv(BADROW), ValueError, "bottom row"),
    (lambda: rt2tr(REFLECT, [1, 2, 3]), ValueError, "reflection"),
    (lambda: rt2tr(np.eye(3), [1, 2]), ValueError, "t"),
    (lambda: trnorm(np.eye(2)), ValueError, "shape"),
    (lambda: trnorm(np.full((3, 3), np.nan)), ValueError, "finite"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_check_false_skips():
    # a slightly non-orthonormal matrix is accepted without the check
    g = tr2rpy(SHEAR, check=False)
    assert np.all(np.isfinite(g))
    assert t2r(BADROW, check=False).shape == (3, 3)


# ----------------------------------------- fixed examples of every singular branch
# (hypothesis draws theta = pi only by luck: each branch gets its own examples here)

def _warned(fn, *a, **k):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*a, **k)
    return out, [w for w in caught if issubclass(w.category, SingularityWarning)]


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("phi, psi", [(0.4, 0.2), (-2.5, 1.9), (3.0, 3.0)])
def test_tr2eul_theta_zero_each_branch(phi, psi, flip):
    # theta = 0: R = Rz(phi + psi); phi is set to 0 and psi carries the sum (wrapped)
    R = rotz(phi) @ rotz(psi)
    g, w = _warned(tr2eul, R, flip=flip)
    assert len(w) == 1
    assert g[0] == 0 and abs(g[1]) == 0
    np.testing.assert_allclose(g[2], np.angle(np.exp(1j * (phi + psi))), atol=1e-12)
    np.testing.assert_allclose(eul2r(g), R, atol=1e-12)


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("phi, psi", [(0.4, 0.2), (-2.5, 1.9), (1.0, -2.0)])
def test_tr2eul_theta_pi_each_branch(phi, psi, flip):
    # theta = pi: Rz(phi) Ry(pi) Rz(psi) = Ry(pi) Rz(psi - phi); phi = 0, psi = psi - phi,
    # theta = +pi (or -pi with flip, the same rotation)
    R = rotz(phi) @ roty(np.pi) @ rotz(psi)
    g, w = _warned(tr2eul, R, flip=flip)
    assert len(w) == 1
    assert g[0] == 0
    assert g[1] == (-np.pi if flip else np.pi)
    np.testing.assert_allclose(g[2], np.angle(np.exp(1j * (psi - phi))), atol=1e-12)
    np.testing.assert_allclose(eul2r(g), R, atol=1e-12)


@pytest.mark.parametrize("flip", [False, True])
def test_tr2eul_just_off_the_singularity_does_not_warn(flip):
    # sin(theta) a hundred times the tolerance: the regular formulas, no warning, exact angles
    for theta in (1e-6, np.pi - 1e-6):
        R = eul2r(0.4, theta, 0.2)
        g, w = _warned(tr2eul, R, flip=flip)
        assert not w
        expected = [0.4, theta, 0.2] if not flip else [0.4 - np.pi, -theta, 0.2 - np.pi]
        np.testing.assert_allclose(g, expected, atol=1e-9)


def _lock_axis_sign(order, pitch):
    """+1 if R_j(pitch) turns the roll axis k onto +i (yaw - roll survives), -1 if onto -i."""
    axes = {"x": 0, "y": 1, "z": 2}
    i, j, k = (axes[c] for c in order)
    rot = {0: rotx, 1: roty, 2: rotz}[j](pitch)
    return float(np.round(rot[:, k] @ np.eye(3)[i]))


@pytest.mark.parametrize("order", ["zyx", "xyz", "yxz"])
@pytest.mark.parametrize("sgn", [1.0, -1.0])
@pytest.mark.parametrize("roll, yaw", [(0.3, 0.5), (-2.0, 2.5)])
def test_tr2rpy_gimbal_lock_each_branch(order, sgn, roll, yaw):
    # at pitch = +-pi/2, R_i(yaw) R_j(pitch) R_k(roll) = R_i(yaw + s roll) R_j(pitch) with
    # s = +-1 from where R_j(pitch) sends the roll axis: roll is set to 0, yaw carries the rest
    R = rpy2r(roll, sgn * np.pi / 2, yaw, order=order)
    g, w = _warned(tr2rpy, R, order=order)
    assert len(w) == 1
    s = _lock_axis_sign(order, sgn * np.pi / 2)
    assert g[0] == 0
    np.testing.assert_allclose(g[1], sgn * np.pi / 2, atol=1e-12)
    np.testing.assert_allclose(g[2], np.angle(np.exp(1j * (yaw + s * roll))), atol=1e-12)
    np.testing.assert_allclose(rpy2r(g, order=order), R, atol=1e-12)
