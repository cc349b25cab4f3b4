"""rvc.kinematics.jtranspose: a failed search says what happened, judged from the iteration itself."""

import numpy as np
import pytest

from rvc import ikine_transpose
from rvc.models import puma560


@pytest.fixture(scope="module")
def p560():
    return puma560()


def test_a_slow_but_monotone_search_is_not_called_diverged(p560):
    """alpha just above 2/sigma_max^2 at q0 still lowers E on every step: out of iterations, not diverged."""
    T = p560.fkine(p560.qn)
    sol = ikine_transpose(p560, T, q0=p560.qn + 0.1, alpha=0.6, ilimit=200)
    assert not sol.success
    assert np.all(np.diff(sol.history) <= 0)
    assert sol.reason.startswith("iteration limit 200 reached")
    assert "converging slowly" in sol.reason and "diverged" not in sol.reason


def test_a_search_whose_error_rises_says_diverged_with_counts(p560):
    T = p560.fkine(p560.qn)
    sol = ikine_transpose(p560, T, q0=p560.qn + 0.1, alpha=0.7, ilimit=200)
    rises = int(np.count_nonzero(np.diff(sol.history) > 0))
    assert rises > 0 and not sol.success
    assert sol.reason.startswith("diverged: alpha = 0.7")
    assert f"rose on {rises} of 200 steps" in sol.reason


def test_drift_is_reported_in_radians_from_q0(p560):
    T = p560.fkine(p560.qn)
    q0 = p560.qn + 0.1
    sol = ikine_transpose(p560, T, q0=q0, alpha=20.0, ilimit=100)
    drift = np.abs(sol.q - q0).max()
    assert drift > 2 * np.pi
    assert f"q moved {drift:.3g} rad from q0" in sol.reason


def test_success_has_an_empty_reason(p560):
    T = p560.fkine(p560.qn)
    sol = ikine_transpose(p560, T, q0=p560.qn + 0.1, alpha=0.4)
    assert sol.success and sol.reason == ""


@pytest.mark.parametrize("kw, name", [({"alpha": 0.0}, "alpha"), ({"alpha": -1.0}, "alpha"), ({"ilimit": 0}, "ilimit"),
                                      ({"tol": 0.0}, "tol"), ({"tol": -1e-6}, "tol")])
def test_bad_settings_name_the_argument(p560, kw, name):
    with pytest.raises(ValueError, match=f"^{name}: expected"):
        ikine_transpose(p560, p560.fkine(p560.qn), **kw)


def test_a_fractional_ilimit_is_refused_not_truncated(p560):
    with pytest.raises(ValueError, match="^ilimit: expected a whole number"):
        ikine_transpose(p560, p560.fkine(p560.qn), ilimit=2.7)


def test_one_step_is_alpha_j_transpose_w_e(p560):
    """The documented update, asserted on the first iterate: q1 = q0 + alpha J(q0)^T W e(q0)."""
    from rvc import jacob0, pose_error
    T = p560.fkine(p560.qn)
    q0 = p560.qn + 0.1
    W = np.array([1.0, 1.0, 1.0, 0.5, 0.0, 0.25])
    sol = ikine_transpose(p560, T, q0=q0, alpha=0.2, ilimit=1, mask=W)
    e = pose_error(p560.fkine(q0), T)
    np.testing.assert_allclose(sol.q, q0 + 0.2 * jacob0(p560, q0).T @ (W * e), rtol=1e-12, atol=1e-14)
    assert sol.history[0] == pytest.approx(e @ (W * e), rel=1e-12)
