"""Tests for rvc.spatial.expmap: skew/vex, exp/log for SO(2), SO(3), SE(2), SE(3)."""

import numpy as np
import pytest
import scipy.linalg as sl
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rvc import (angvec2r, rot2, rotx, rotz, skew, skewa, transl, transl2, trexp, trlog, trot2,
                 trotx, vex, vexa)

FAST = settings(max_examples=60, deadline=None)
vec3 = hnp.arrays(float, 3, elements=st.floats(-5, 5, allow_nan=False))
vec6 = hnp.arrays(float, 6, elements=st.floats(-5, 5, allow_nan=False))


def test_skew_vex():
    S = skew([1, 2, 3])
    np.testing.assert_allclose(S, -S.T)
    np.testing.assert_allclose(S @ [4, 5, 6], np.cross([1, 2, 3], [4, 5, 6]))
    np.testing.assert_allclose(vex(S), [1, 2, 3])
    np.testing.assert_allclose(skew(0.5), [[0, -0.5], [0.5, 0]])
    np.testing.assert_allclose(vex(skew(0.5)), [0.5])
    assert skew(np.zeros((4, 3))).shape == (4, 3, 3)
    assert vex(skew(np.zeros((4, 3)))).shape == (4, 3)


def test_skewa_vexa():
    np.testing.assert_allclose(skewa([1, 2, 3]), [[0, -3, 1], [3, 0, 2], [0, 0, 0]])
    S = skewa([1, 2, 3, 4, 5, 6])
    np.testing.assert_allclose(S[:3, :3], skew([4, 5, 6]))
    np.testing.assert_allclose(S[:3, 3], [1, 2, 3])
    np.testing.assert_allclose(vexa(S), [1, 2, 3, 4, 5, 6])
    np.testing.assert_allclose(vexa(skewa([1, 2, 3])), [1, 2, 3])


def test_notes_rotx_logm_vex():
    R = rotx(0.3)
    S = trlog(R)
    np.testing.assert_allclose(S, sl.logm(R).real, atol=1e-12)
    np.testing.assert_allclose(S, [[0, 0, 0], [0, 0, -0.3], [0, 0.3, 0]], atol=1e-15)
    np.testing.assert_allclose(vex(S), [0.3, 0, 0], atol=1e-15)
    np.testing.assert_allclose(trexp(S), R)
    np.testing.assert_allclose(sl.expm(S), R)
    np.testing.assert_allclose(trexp(skew([1, 0, 0]) * 0.3), R)
    np.testing.assert_allclose(trlog(R, twist=True), [0.3, 0, 0], atol=1e-15)


def test_notes_so2():
    R = rot2(0.3)
    S = trlog(R)
    np.testing.assert_allclose(S, sl.logm(R).real, atol=1e-12)
    np.testing.assert_allclose(S, skew(0.3))
    np.testing.assert_allclose(vex(S), [0.3])
    np.testing.assert_allclose(trexp(S), R)
    np.testing.assert_allclose(trexp(0.3), R)
    np.testing.assert_allclose(trlog(R, twist=True), [0.3])


@FAST
@given(vec3)
def test_so3_roundtrip_and_logm(w):
    R = trexp(w)
    np.testing.assert_allclose(R, sl.expm(skew(w)), atol=1e-10)
    L = trlog(R)
    np.testing.assert_allclose(trexp(L), R, atol=1e-12)
    th = np.linalg.norm(w)
    if th < np.pi - 1e-6 and abs(th - 2 * np.pi) > 1e-3:
        np.testing.assert_allclose(L, sl.logm(R).real, atol=1e-8)
        if th < np.pi:
            np.testing.assert_allclose(vex(L), w, atol=1e-9)


@pytest.mark.parametrize("theta", [0.0, 1e-300, 1e-12, 1e-8, 1e-4, 0.5, np.pi / 2, 2.0,
                                   np.pi - 1e-4, np.pi - 1e-8, np.pi - 1e-12, np.pi])
@pytest.mark.parametrize("axis", [[1, 0, 0], [0, 0, -1], [1, 2, 3], [-1, 2, -0.5]])
def test_so3_log_theta_zero_and_pi(theta, axis):
    R = angvec2r(theta, axis)
    phi = trlog(R, twist=True)
    assert np.all(np.isfinite(phi))
    np.testing.assert_allclose(np.linalg.norm(phi), theta, atol=1e-12)
    np.testing.assert_allclose(trexp(phi), R, atol=1e-13)
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    if theta < np.pi - 1e-6:
        np.testing.assert_allclose(phi, theta * u, atol=1e-12)
    else:
        # near pi the sign may flip (both represent nearly the same rotation)
        assert min(np.abs(phi - theta * u).max(), np.abs(phi + theta * u).max()) < 1e-7


def test_so3_log_at_pi_exact():
    for R in (rotx(np.pi), np.diag([-1.0, 1, -1]), np.diag([-1.0, -1, 1])):
        L = trlog(R)
        np.testing.assert_allclose(trexp(L), R, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(vex(L)), np.pi)


@FAST
@given(vec6)
def test_se3_roundtrip_and_logm(S):
    T = trexp(S)
    np.testing.assert_allclose(T, sl.expm(skewa(S)), atol=1e-9)
    L = trlog(T)
    np.testing.assert_allclose(trexp(L), T, atol=1e-9)
    if np.linalg.norm(S[3:]) < np.pi - 1e-3:
        np.testing.assert_allclose(trlog(T, twist=True), S, atol=1e-8)
        np.testing.assert_allclose(L, sl.logm(T).real, atol=1e-7)


@pytest.mark.parametrize("theta", [0.0, 1e-10, 1e-4, 1.0, np.pi - 1e-9, np.pi])
def test_se3_log_edge(theta):
    T = transl(1, -2, 3) @ np.block([[angvec2r(theta, [1, 1, 0]), np.zeros((3, 1))],
                                     [np.zeros((1, 3)), np.ones((1, 1))]])
    S = trlog(T, twist=True)
    assert np.all(np.isfinite(S))
    np.testing.assert_allclose(trexp(S), T, atol=1e-12)


def test_se3_pure_translation():
    np.testing.assert_allclose(trlog(transl(1, 2, 3), twist=True), [1, 2, 3, 0, 0, 0])
    np.testing.assert_allclose(trexp([1, 2, 3, 0, 0, 0]), transl(1, 2, 3))


@FAST
@given(hnp.arrays(float, 3, elements=st.floats(-5, 5, allow_nan=False)))
def test_se2_roundtrip(S):
    S = S.copy()
    S[2] = np.clip(S[2], -np.pi + 1e-6, np.pi - 1e-6)
    T = trexp(skewa(S))
    np.testing.assert_allclose(T, sl.expm(skewa(S)), atol=1e-9)
    np.testing.assert_allclose(trlog(T, twist=True), S, atol=1e-9)
    np.testing.assert_allclose(trlog(T), sl.logm(T).real, atol=1e-7)


def test_se2_notes():
    T = transl2(2, 3) @ trot2(0.5)
    S = trlog(T, twist=True)
    np.testing.assert_allclose(trexp(skewa(S)), T, atol=1e-14)
    np.testing.assert_allclose(trlog(transl2(1, 2), twist=True), [1, 2, 0])
    # a planar rotation about z reads the same as SO(3) or SE(2)
    np.testing.assert_allclose(trlog(rotz(0.7), twist=True), [0, 0, 0.7], atol=1e-15)


def test_trexp_theta_and_batch():
    np.testing.assert_allclose(trexp(skew([0, 0, 1]), np.pi / 2), rotz(np.pi / 2), atol=1e-15)
    Ts = trexp([0, 0, 0, 1, 0, 0], np.linspace(0, 1, 5))
    assert Ts.shape == (5, 4, 4)
    np.testing.assert_allclose(Ts[2], trotx(0.5), atol=1e-15)
    np.testing.assert_allclose(trexp([1, 0, 0], 90, unit="deg"), rotx(np.pi / 2), atol=1e-15)
    S = np.random.default_rng(0).normal(size=(3, 4, 6))
    T = trexp(S)
    assert T.shape == (3, 4, 4, 4)
    np.testing.assert_allclose(trlog(T, twist=True)[1, 2], S[1, 2], atol=1e-9) \
        if np.linalg.norm(S[1, 2, 3:]) < np.pi else None
    assert trexp(skewa(np.zeros((2, 3)))).shape == (2, 3, 3)


@pytest.mark.parametrize("call, exc, words", [
    (lambda: vex(np.eye(3)), ValueError, "skew-symmetric"),
    (lambda: vex(np.ones((2, 2))), ValueError, "skew-symmetric"),
    (lambda: vex(np.zeros((4, 4))), ValueError, "shape"),
    (lambda: vexa(np.ones((4, 4))), ValueError, "bottom row"),
    (lambda: vexa(np.zeros((2, 2))), ValueError, "shape"),
    (lambda: skew([1, 2]), ValueError, "v: expected shape"),
    (lambda: skewa([1, 2, 3, 4]), ValueError, "S: expected shape"),
    (lambda: trexp(np.ones((3, 3))), ValueError, "skew"),
    (lambda: trexp([1, 2, 3, 4]), ValueError, "S: expected"),
    (lambda: trexp(np.zeros((4, 6)), theta=[1, 2]), ValueError, "theta"),
    (lambda: trexp([np.nan, 0, 0]), ValueError, "finite"),
    (lambda: trlog(np.diag([1.0, 1, -1])), ValueError, "reflection"),
    (lambda: trlog(np.ones((4, 4))), ValueError, "bottom row"),
    (lambda: trlog(np.eye(5)), ValueError, "shape"),
    (lambda: trlog(np.full((3, 3), np.inf)), ValueError, "finite"),
    (lambda: trlog([[1, 0.1, 0], [0, 1, 0], [0, 0, 2.0]]), ValueError, "orthonormal"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_vex_check_false():
    A = np.array([[0, -1.0], [3.0, 0]])
    np.testing.assert_allclose(vex(A, check=False), [2.0])


# ------------------------------- accuracy on both sides of every series/closed-form switch
# trexp/trlog of SE(3) switch from a Taylor series to the closed form at |omega theta| = 1e-3,
# and the rotation log switches formulas at theta = pi/2.  A wrong switch point or a truncated
# series shows up as errors of 1e-10..1e-8 that atol=1e-9 tests miss: compare with a 40-digit
# reference (mpmath) to 1e-13 on both sides of each switch and across the whole range.

SWITCH_THETAS = np.r_[1e-3 * (1 + np.array([-1e-6, 1e-6, -0.2, 0.2])),
                      np.pi / 2 + np.array([-1e-9, 1e-9, -1e-4, 1e-4]),
                      np.logspace(-8, np.log10(3.1), 23), np.pi - np.array([1e-4, 1e-7])]


def _expm_mp(M):
    import mpmath as mp
    with mp.workdps(40):
        return np.array(mp.expm(mp.matrix(M.tolist())).tolist(), dtype=float)


@pytest.mark.parametrize("seed", [0, 1])
def test_trexp_trlog_se3_accurate_across_switches(seed):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=3)
    w /= np.linalg.norm(w)
    v = 3 * rng.normal(size=3)                   # |v| of a few metres per radian
    for th in SWITCH_THETAS:
        S = np.r_[v, w] * th
        T_ref = _expm_mp(skewa(S))
        err = np.abs(trexp(S) - T_ref).max()
        assert err < 1e-13 * max(1.0, np.linalg.norm(v) * th), (th, err)
        err = np.abs(trlog(T_ref, twist=True) - S).max()
        assert err < 1e-13 * max(1.0, np.linalg.norm(v) * th), (th, err)
        # and the twist form of trexp (unit twist, theta) agrees with the vector form
        np.testing.assert_allclose(trexp(skewa(np.r_[v, w]), th), trexp(S), atol=1e-14, rtol=0)


def test_trexp_trlog_so3_accurate_across_switches():
    w = np.array([0.36, -0.48, 0.8])
    for th in SWITCH_THETAS:
        R_ref = _expm_mp(skew(w * th))
        assert np.abs(trexp(w * th) - R_ref).max() < 1e-13, th
        assert np.abs(trlog(R_ref, twist=True) - w * th).max() < 1e-13, th


def test_se3_small_angle_terms_are_not_truncated():
    """The second-order part of the translation, C [phi]^2 v with C = (th - sin th)/th^3, is what
    the small-angle series approximates; its relative error must stay tiny right at the switch."""
    import mpmath as mp

    v = np.array([1.0, 0.5, -0.3])
    w = np.array([0.0, 0.6, 0.8])
    for th in (9.99e-4, 1.001e-3, 3e-3, 3e-2):
        t = trexp(np.r_[v, w * th])[:3, 3]
        with mp.workdps(40):
            thm = mp.mpf(th)
            K = mp.matrix(skew(w).tolist()) * thm
            vm = mp.matrix(v.tolist())
            B = (1 - mp.cos(thm)) / thm ** 2
            C = (thm - mp.sin(thm)) / thm ** 3
            second = np.array((mp.matrix(t.tolist()) - vm - B * (K * vm)).tolist(), dtype=float)[:, 0]
            expected = np.array((C * (K * (K * vm))).tolist(), dtype=float)[:, 0]
        np.testing.assert_allclose(second, expected, rtol=2e-8, atol=0)
