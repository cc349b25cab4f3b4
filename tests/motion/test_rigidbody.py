"""Tests of rvc.motion.rigidbody: Euler's equations, simulation invariants, wrenches, inertia."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rvc.motion.rigidbody import (accel_rotating_frame, euler_rhs, inertia_rotate, inertia_shift,
                           simulate_rigidbody, wrench_transform)
from rvc.spatial.transforms3d import rpy2r, transl, trinv
from rvc.spatial.twist import Ad

FAST = settings(max_examples=30, deadline=None)
vec3 = st.lists(st.floats(-3, 3), min_size=3, max_size=3).map(np.array)
ang3 = st.lists(st.floats(-3, 3), min_size=3, max_size=3).map(np.array)
BOX = np.diag([1.0, 2.0, 3.0])


def _pose(rpy, t):
    T = transl(t)
    T[:3, :3] = rpy2r(rpy)
    return T


# ------------------------------------------------------- Euler's equations ---

def test_euler_rhs_principal_axis_and_batch():
    assert np.allclose(euler_rhs(BOX, [0, 0, 5]), 0)
    W = np.random.default_rng(1).normal(size=(7, 3))
    batch = euler_rhs(BOX, W, tau=[0.1, 0, 0])
    assert batch.shape == (7, 3)
    assert np.allclose(batch[3], euler_rhs(BOX, W[3], [0.1, 0, 0]))
    # J w_dot + w x (J w) = tau
    tau = np.array([0.3, -0.2, 0.5])
    wd = euler_rhs(BOX, W[0], tau)
    assert np.allclose(BOX @ wd + np.cross(W[0], BOX @ W[0]), tau)


@pytest.mark.parametrize("w0", [[0.01, 1.0, 0.01], [1.0, 0.5, -0.3], [0.2, 0.1, 2.0]])
def test_torque_free_conserves_energy_and_world_momentum(w0):
    # tolerance: relative 1e-7 with rtol=1e-10 (a few hundred RK45 steps)
    R0 = rpy2r([0.3, -0.4, 1.0])
    sol = simulate_rigidbody(BOX, w0, R0, tf=20, n=401)
    E0, L0 = sol.E[0], sol.L[0]
    assert np.allclose(sol.E, E0, rtol=1e-7, atol=0)
    assert np.allclose(sol.L, L0, rtol=0, atol=1e-7 * np.linalg.norm(L0))
    assert np.allclose(np.swapaxes(sol.R, 1, 2) @ sol.R, np.eye(3), atol=1e-12)
    assert np.allclose(np.linalg.det(sol.R), 1)
    assert np.allclose(sol.R[0], R0) and np.allclose(sol.w[0], w0)
    # the body angular velocity obeys Euler's equations (finite differences)
    wd = np.gradient(sol.w, sol.t, axis=0)[1:-1]
    assert np.allclose(wd, euler_rhs(BOX, sol.w[1:-1]), atol=0.02 * np.abs(wd).max())


def test_intermediate_axis_flips_but_major_axis_is_stable():
    mid = simulate_rigidbody(BOX, [0.01, 1.0, 0.0], tf=30, n=601)
    assert mid.w[:, 1].min() < -0.9  # tumbles: the spin reverses relative to the body
    major = simulate_rigidbody(BOX, [0.01, 0.0, 1.0], tf=30, n=601)
    assert major.w[:, 2].min() > 0.99


def test_constant_and_callable_torque():
    # torque about a principal axis from rest: w = tau/J t, angle = tau/(2J) t^2
    sol = simulate_rigidbody(BOX, [0, 0, 0], tf=2, tau=[0, 0, 3.0], n=5)
    assert np.allclose(sol.w[-1], [0, 0, 2.0])
    th = 0.5 * 1.0 * 2**2
    assert np.allclose(sol.R[-1][:2, :2], [[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    damp = simulate_rigidbody(BOX, [0, 0, 1.0], tf=3, tau=lambda t, R, w: -BOX @ w, n=4)
    assert np.allclose(damp.w[-1, 2], np.exp(-3), rtol=1e-6)


def test_simulate_errors():
    with pytest.raises(ValueError, match="tf: expected a positive duration"):
        simulate_rigidbody(BOX, [0, 0, 1], tf=-1)
    with pytest.raises(ValueError, match="J: expected a symmetric"):
        simulate_rigidbody(BOX + np.triu(np.ones((3, 3)), 1), [0, 0, 1])
    with pytest.raises(ValueError, match="J: expected a positive"):
        euler_rhs(np.diag([1.0, -1, 1]), [0, 0, 1])
    with pytest.raises(ValueError, match="w0: expected a vector of 3"):
        simulate_rigidbody(BOX, [0, 1])
    with pytest.raises(ValueError, match="R0"):
        simulate_rigidbody(BOX, [0, 0, 1], R0=2 * np.eye(3))
    with pytest.raises(ValueError, match="w: expected finite"):
        euler_rhs(BOX, [0, np.nan, 1])
    with pytest.raises(ValueError, match="t: expected a strictly increasing"):
        simulate_rigidbody(BOX, [0, 0, 1], t=[0, 2, 1])


# ---------------------------------------------------------------- wrench ---

@FAST
@given(rpy=ang3, t=vec3, vB=st.lists(st.floats(-5, 5), min_size=6, max_size=6).map(np.array),
       wA=st.lists(st.floats(-5, 5), min_size=6, max_size=6).map(np.array))
def test_wrench_transform_preserves_power(rpy, t, vB, wA):
    T = _pose(rpy, t)  # ^A T_B
    vA = Ad(T) @ vB  # spatial velocity (v, w) of the body, from B to A
    wB = wrench_transform(T, wA)
    assert np.isclose(wA @ vA, wB @ vB, atol=1e-9 * (1 + np.abs(wA).sum() * np.abs(vA).sum()))
    assert np.allclose(wB, Ad(T).T @ wA)
    # and back again with the inverse pose
    assert np.allclose(wrench_transform(trinv(T), wB), wA)


def test_wrench_transform_moment_arm_and_batch():
    T = transl([0, 0, 1.0])
    # pushing along x at A's origin, felt at B (1 m above): moment -1 about y
    assert np.allclose(wrench_transform(T, [1, 0, 0, 0, 0, 0]), [1, 0, 0, 0, -1, 0])
    Ts = np.stack([transl([0, 0, 1.0]), transl([0, 2.0, 0])])
    out = wrench_transform(Ts, [0, 0, 1, 0, 0, 0])
    assert out.shape == (2, 6)
    assert np.allclose(out[1], [0, 0, 1, -2, 0, 0])
    with pytest.raises(ValueError, match="wrench: expected shape"):
        wrench_transform(T, [1, 2, 3])
    with pytest.raises(ValueError, match="T"):
        wrench_transform(np.ones((4, 4)), np.zeros(6))


# --------------------------------------------------------------- inertia ---

def test_inertia_shift_parallel_axes():
    # solid cube, side a, mass m: J_c = m a^2/6 I; about a corner edge axis 2/3 m a^2
    m, a = 2.0, 0.5
    Jc = m * a**2 / 6 * np.eye(3)
    Jp = inertia_shift(Jc, m, [a / 2, a / 2, 0])  # on the cube's edge along z
    assert np.isclose(Jp[2, 2], 2 / 3 * m * a**2)
    assert np.allclose(Jp, Jp.T)
    # batch, and shifting by zero does nothing
    r = np.array([[0, 0, 0], [1, 2, 3.0]])
    out = inertia_shift(Jc, m, r)
    assert out.shape == (2, 3, 3) and np.allclose(out[0], Jc)
    with pytest.raises(ValueError, match="m: expected a positive mass"):
        inertia_shift(Jc, -1, [0, 0, 1])
    with pytest.raises(ValueError, match="r: expected shape"):
        inertia_shift(Jc, 1, [0, 1])


@FAST
@given(rpy=ang3)
def test_inertia_rotate_keeps_principal_moments_and_energy(rpy):
    R = rpy2r(rpy)
    JA = inertia_rotate(BOX, R)
    assert np.allclose(np.linalg.eigvalsh(JA), [1, 2, 3])
    wB = np.array([0.3, -1.0, 0.5])
    wA = R @ wB
    assert np.isclose(wA @ JA @ wA, wB @ BOX @ wB)  # kinetic energy is frame-independent
    with pytest.raises(ValueError, match="R: expected an orthonormal"):
        inertia_rotate(BOX, 1.1 * R)


# --------------------------------------------------------- rotating frames ---

def test_accel_rotating_frame_matches_finite_differences():
    """Point moving in a frame with time-varying, non-parallel omega and alpha."""
    def R_of(t):
        return rpy2r([0.5 * t, 0.3 * t**2, np.sin(t)])

    def rB(t):
        return np.array([1 + 0.2 * t, np.cos(t), 0.1 * t**2])

    t0, h = 0.7, 1e-4
    ts = t0 + h * np.arange(-2, 3)
    Rs = np.array([R_of(t) for t in ts])
    p = np.einsum("nij,nj->ni", Rs, np.array([rB(t) for t in ts]))  # world position
    aA = (p[3] - 2 * p[2] + p[1]) / h**2
    # body-frame omega and alpha from R^T R_dot = [w]x
    def wB(k):
        S = Rs[k].T @ (Rs[k + 1] - Rs[k - 1]) / (2 * h)
        return np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]]) / 2
    w = wB(2)
    alpha = (wB(3) - wB(1)) / (2 * h)
    r = rB(t0)
    v = (rB(t0 + h) - rB(t0 - h)) / (2 * h)
    a = (rB(t0 + h) - 2 * r + rB(t0 - h)) / h**2
    acc = accel_rotating_frame(r, v, a, w, alpha)
    assert np.allclose(Rs[2] @ acc.inertial, aA, atol=1e-4)
    assert np.allclose(acc.inertial, acc.relative + acc.coriolis + acc.centripetal + acc.euler)
    assert np.allclose(acc.coriolis, 2 * np.cross(w, v))


def test_accel_rotating_frame_cases_and_errors():
    # carousel: walking outwards at 1 m/s on a platform spinning at 1 rad/s about z
    acc = accel_rotating_frame([2, 0, 0], [1, 0, 0], [0, 0, 0], [0, 0, 1], a0=[0, 0, -9.81])
    assert np.allclose(acc.coriolis, [0, 2, 0]) and np.allclose(acc.centripetal, [-2, 0, 0])
    assert np.allclose(acc.inertial, [-2, 2, -9.81])
    batch = accel_rotating_frame(np.eye(3), [0, 0, 0], [0, 0, 0], [0, 0, 1], alpha=[0, 0, 1])
    assert batch.inertial.shape == (3, 3) and np.allclose(batch.euler[0], [0, 1, 0])
    with pytest.raises(ValueError, match="omega: expected shape"):
        accel_rotating_frame([1, 0, 0], [0, 0, 0], [0, 0, 0], [0, 1])
    with pytest.raises(ValueError, match="expected shapes that broadcast"):
        accel_rotating_frame(np.zeros((2, 3)), np.zeros((3, 3)), [0, 0, 0], [0, 0, 1])
