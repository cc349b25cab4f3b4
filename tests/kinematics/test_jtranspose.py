"""Inverse kinematics by the Jacobian transpose (8.6.1), beside Levenberg-Marquardt."""

import numpy as np
import pytest

from rvc import IKHistory, ikine, ikine_transpose, jacob0, pose_error, transl
from rvc.models import baxter, planar2, puma560


def test_converges_to_the_pose_and_the_residual_falls():
    p560 = puma560()
    T = p560.fkine(p560.qn)
    sol = ikine_transpose(p560, T, q0=p560.qn + 0.1, alpha=0.4)
    assert isinstance(sol, IKHistory) and sol.success and sol.reason == ""
    np.testing.assert_allclose(p560.fkine(sol.q), T, atol=1e-5)
    h = sol.history
    assert h.shape == (sol.iterations + 1,) and h[-1] == sol.residual < 1e-10
    assert np.all(np.diff(h) < 0)                     # small enough alpha: every step helps


def test_one_step_is_alpha_J_transpose_e():
    """The update is the notes' spring-and-damper step, q + alpha J^T Delta."""
    p560 = puma560()
    T = transl(0.05, 0, 0) @ p560.fkine(p560.qn)
    q0 = p560.qn
    sol = ikine_transpose(p560, T, q0=q0, alpha=0.3, ilimit=1)
    step = 0.3 * jacob0(p560, q0).T @ pose_error(p560.fkine(q0), T)
    np.testing.assert_allclose(sol.q, q0 + step, atol=1e-15)
    assert not sol.success and "iteration limit 1" in sol.reason


def test_slower_than_levenberg_marquardt():
    """The comparison of 8.6.1: the same tolerance on the same residual, many more iterations."""
    p560 = puma560()
    T = p560.fkine(p560.qn)
    q0 = p560.qn + 0.2
    jt = ikine_transpose(p560, T, q0=q0)
    lm = ikine(p560, T, q0=q0)
    assert jt.success and lm.success
    assert jt.iterations > 20 * lm.iterations


def test_works_where_J_is_not_square():
    """No inverse: an under-actuated arm (mask) and a redundant one are fine."""
    p2 = planar2()
    sol = ikine_transpose(p2, transl(0.6, 0.7, 0), q0=[0.5, 0.5], mask=[1, 1, 0, 0, 0, 0], alpha=0.5)
    assert sol.success
    np.testing.assert_allclose(p2.fkine(sol.q)[:2, 3], [0.6, 0.7], atol=1e-5)
    left = baxter("left")
    qg = np.array([0.3, -0.5, 0.2, 1.2, -0.3, 0.8, 0.1])        # away from singularities
    sol = ikine_transpose(left, left.fkine(qg), q0=qg + 0.1, alpha=0.45, tol=1e-6)
    assert sol.success and sol.residual < 1e-6


def test_too_large_a_step_fails_honestly():
    p560 = puma560()
    sol = ikine_transpose(p560, p560.fkine(p560.qn), q0=p560.qn + 0.2, alpha=1.5, ilimit=300)
    assert not sol.success and sol.reason
    assert np.all(np.isfinite(sol.q))


def test_degrees():
    p560 = puma560()
    T = p560.fkine(p560.qn)
    a = ikine_transpose(p560, T, q0=p560.qn + 0.1, ilimit=5)
    b = ikine_transpose(p560, T, q0=np.degrees(p560.qn + 0.1), ilimit=5, unit="deg")
    np.testing.assert_allclose(b.q, np.degrees(a.q), atol=1e-10)


def test_bad_input():
    p560 = puma560()
    T = p560.fkine(p560.qn)
    with pytest.raises(ValueError, match="T: expected one pose"):
        ikine_transpose(p560, np.stack([T, T]))
    with pytest.raises(ValueError, match="T"):
        ikine_transpose(p560, np.ones((4, 4)))
    with pytest.raises(ValueError, match="q0: expected a vector of 6"):
        ikine_transpose(p560, T, q0=[0, 0])
    with pytest.raises(ValueError, match="alpha, ilimit, tol"):
        ikine_transpose(p560, T, alpha=0)
    with pytest.raises(ValueError, match="mask: expected 6 non-negative"):
        ikine_transpose(p560, T, mask=[0] * 6)
