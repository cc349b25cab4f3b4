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
