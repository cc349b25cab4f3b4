"""Cross-check rvc's Chapter 3 functions against roboticstoolbox-python and spatialmath.

The peers are oracles only (rvc never imports them).  Run in the peers' venv:
``python -m pytest tests/crosscheck/test_rtb_trajectory.py``.
"""

import warnings

import numpy as np
import pytest

rtb = pytest.importorskip("roboticstoolbox")
smb = pytest.importorskip("spatialmath.base")
from spatialmath import SE3  # noqa: E402

import rvc  # noqa: E402

RNG = np.random.default_rng(20240603)
CASES = 20


def random_pose(rng):
    return smb.rt2tr(smb.rpy2r(rng.uniform(-np.pi, np.pi, 3)), rng.uniform(-1, 1, 3))


@pytest.mark.parametrize("seed", range(CASES))
def test_tpoly_equals_quintic(seed):
    rng = np.random.default_rng(seed)
    q0, qf, qd0, qdf = rng.uniform(-3, 3, 4)
    t = np.linspace(0, rng.uniform(0.1, 10), int(rng.integers(2, 60)))
    a, b = rvc.tpoly(q0, qf, t, qd0, qdf), rtb.quintic(q0, qf, t, qd0, qdf)
    for x, y in ((a.q, b.q), (a.qd, b.qd), (a.qdd, b.qdd)):
        assert np.allclose(x, y, atol=1e-9 * (1 + np.abs(y).max()))
    n = int(rng.integers(2, 60))  # integer: steps
    assert np.allclose(rvc.tpoly(q0, qf, n).qd, rtb.quintic(q0, qf, n).qd)


@pytest.mark.parametrize("seed", range(CASES))
def test_lspb_equals_trapezoidal(seed):
    rng = np.random.default_rng(seed)
    q0, qf = rng.uniform(-3, 3, 2)
    t = np.linspace(0, rng.uniform(0.1, 10), int(rng.integers(2, 80)))
    T = t[-1]
    V = None if seed % 2 else rng.uniform(1.01, 2.0) * abs(qf - q0) / T
    a, b = rvc.lspb(q0, qf, t, V), rtb.trapezoidal(q0, qf, t, V)
    for x, y in ((a.q, b.q), (a.qd, b.qd), (a.qdd, b.qdd)):
        assert np.allclose(x, y, atol=1e-9 * (1 + np.abs(y).max()))
    assert np.isclose(a.info["tblend"], b.tblend)
    n = int(rng.integers(2, 60))
    assert np.allclose(rvc.lspb(q0, qf, n).q, rtb.trapezoidal(q0, qf, n).q)


def test_lspb_V_limits_agree():
    t = np.linspace(0, 2, 21)
    for V in (0.4, 1.2):  # |qf-q0|/T = 0.5: too slow, too fast
        with pytest.raises(ValueError):
            rvc.lspb(0, 1, t, V)
        with pytest.raises(ValueError):
            rtb.trapezoidal(0, 1, t, V)


@pytest.mark.parametrize("seed", range(CASES))
def test_mtraj_and_jtraj(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    q0, qf, qd0, qd1 = rng.uniform(-2, 2, (4, n))
    t = np.linspace(0, rng.uniform(0.5, 5), 40)
    a = rvc.mtraj(rvc.tpoly, q0, qf, t)
    b = rtb.mtraj(rtb.quintic, q0, qf, t)
    assert np.allclose(a.q, b.q) and np.allclose(a.qd, b.qd) and np.allclose(a.qdd, b.qdd)
    a, b = rvc.jtraj(q0, qf, t, qd0, qd1), rtb.jtraj(q0, qf, t, qd0, qd1)
    assert np.allclose(a.q, b.q) and np.allclose(a.qd, b.qd) and np.allclose(a.qdd, b.qdd)
    a, b = rvc.jtraj(q0, qf, 25), rtb.jtraj(q0, qf, 25)  # integer: normalised time
    assert np.allclose(a.q, b.q) and np.allclose(a.qd, b.qd) and np.allclose(a.qdd, b.qdd)


@pytest.mark.parametrize("seed", range(10))
def test_mstraj_without_blends_matches(seed):
    """With tacc = 0 the algorithms coincide; rtb omits the t = 0 sample."""
    rng = np.random.default_rng(seed)
    via = rng.uniform(-3, 3, (int(rng.integers(3, 6)), 2))
    dt = 0.05
    if seed % 2:
        qdmax = rng.uniform(0.5, 2, 2)
        a = rvc.mstraj(via, qdmax, None, None, dt, 0)
        b = rtb.mstraj(via, dt, 0, qdmax=qdmax)
    else:
        tseg = rng.integers(10, 40, len(via) - 1) * dt
        a = rvc.mstraj(via, None, tseg, None, dt, 0)
        b = rtb.mstraj(via, dt, 0, tsegment=tseg)
    assert a.q.shape[0] - 1 == b.q.shape[0]
    assert np.allclose(a.q[1:], b.q)
    assert np.allclose(a.info["arrive"], b.arrive)


@pytest.mark.parametrize("seed", range(6))
def test_mstraj_with_blends_same_ends_and_via_tolerance(seed):
    """Blended: different timing (documented), same start/end, both near each via point."""
    rng = np.random.default_rng(seed)
    via = rng.uniform(-3, 3, (4, 3))
    a = rvc.mstraj(via, 1.0, None, None, 0.02, 0.4)
    b = rtb.mstraj(via, 0.02, 0.4, qdmax=1.0)
    assert np.allclose(a.q[-1], b.q[-1]) and np.allclose(a.q[-1], via[-1])
    for p in via[1:-1]:
        da = np.linalg.norm(a.q - p, axis=1).min()
        db = np.linalg.norm(b.q - p, axis=1).min()
        assert da < 0.2 and db < 0.3


@pytest.mark.parametrize("seed", range(CASES))
def test_trinterp_and_ctraj(seed):
    rng = np.random.default_rng(seed)
    T0, T1 = random_pose(rng), random_pose(rng)
    s = np.sort(rng.uniform(0, 1, 7))
    a = rvc.trinterp(T0, T1, s)
    b = np.array([smb.trinterp(T0, T1, si) for si in s])
    assert np.allclose(a, b, atol=1e-10)
    assert np.allclose(rvc.trinterp(None, T1, 0.3), smb.trinterp(None, T1, 0.3))
    n = int(rng.integers(2, 40))
    a = rvc.ctraj(T0, T1, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = rtb.ctraj(SE3(T0, check=False), SE3(T1, check=False), n)
    assert np.allclose(a, np.array(b.A).reshape(-1, 4, 4), atol=1e-10)


@pytest.mark.parametrize("seed", range(CASES))
def test_spatialmath_velocity_functions(seed):
    rng = np.random.default_rng(seed)
    ang = rng.uniform(-np.pi, np.pi, 3)
    for order in ("zyx", "xyz", "yxz"):
        assert np.allclose(rvc.rpy2jac(ang, order=order), smb.rpy2jac(ang, order=order))
    assert np.allclose(rvc.eul2jac(ang), smb.eul2jac(ang))
    T0 = random_pose(rng)
    d = rng.uniform(-0.05, 0.05, 6)
    T1 = T0 @ smb.trnorm(smb.delta2tr(d))
    assert np.allclose(rvc.tr2delta(T0, T1), smb.tr2delta(T0, T1))
    assert np.allclose(rvc.tr2delta(T1), smb.tr2delta(T1))
    assert np.allclose(rvc.delta2tr(d), smb.delta2tr(d))
    assert np.allclose(rvc.tr2jac(T0), smb.tr2jac(T0))
