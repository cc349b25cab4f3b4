"""rvc.parallel.closed at a type-II singularity: the documented least-norm answer, one answer for all methods.

At q_sing (elbows straight out, distal links in line) A_p is singular.  The
inverse dynamics must then return the least-norm multipliers
lambda = pinv(A_p^T) l_p, torques equal across 'lagrange', 'lda' and 'compact',
and a SingularityWarning that says what is lost.
"""

import warnings

import numpy as np
import pytest

from rvc import SingularityWarning
from rvc.parallel import FiveBar

Q_SING = np.array([np.pi, 0.0, -np.pi, 0.0, 0.0, np.pi])


@pytest.fixture(scope="module")
def robot():
    return FiveBar()


def _quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularityWarning)
        return f(*args, **kw)


def _motion(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=4), rng.normal(size=4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_three_inverse_dynamics_agree_at_a_type_two_singularity(robot, seed):
    qd, qdd = _motion(seed)
    taus = [_quiet(robot.inverse_dynamics, Q_SING, qd, qdd, m) for m in ("lagrange", "lda", "compact")]
    np.testing.assert_allclose(taus[0], taus[1], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(taus[2], taus[1], rtol=1e-9, atol=1e-9)


def test_the_multipliers_are_the_least_norm_least_squares_solution(robot):
    """An oracle that shares no code with the method: lstsq on the passive rows of the tree's equations."""
    qd, qdd = _motion(3)
    tau, lam = _quiet(robot.inverse_dynamics, Q_SING, qd, qdd, "lagrange", multipliers=True)
    W = _quiet(robot.W, Q_SING)
    Wd = _quiet(robot.Wdot, Q_SING, qd)
    qd_t, qdd_t = W @ qd, W @ qdd + Wd @ qd
    lhs = np.concatenate([c.rne(Q_SING[s], qd_t[s], qdd_t[s]) for c, s in zip(robot.chains, robot.slices)])
    A = robot.A(Q_SING)
    ref, *_ = np.linalg.lstsq(A[:, robot.ip].T, lhs[robot.ip], rcond=None)
    np.testing.assert_allclose(lam, ref, rtol=1e-8, atol=1e-8)
    assert np.abs(lam).max() < 1e3                     # not the 1e16 of a solve on a singular matrix
    np.testing.assert_allclose(tau, lhs[robot.ic] - A[:, robot.ic].T @ lam, rtol=1e-10, atol=1e-10)


def test_the_warning_says_what_is_lost(robot):
    qd, qdd = _motion(4)
    with pytest.warns(SingularityWarning) as record:
        robot.inverse_dynamics(Q_SING, qd, qdd, "lagrange")
    text = " | ".join(str(w.message) for w in record)
    assert "A_p^T is singular" in text and "cut force along the singular direction" in text
    assert "least-norm multiplier" in text
    assert "cannot be balanced by any finite cut force" in text      # a generic motion: l_p off A_p^T's range


def test_a_balanced_motion_at_the_singularity_warns_only_of_the_undetermined_force(robot):
    """At rest with no gravity l_p = 0 is in the range of A_p^T: no 'cannot be balanced' warning."""
    still = FiveBar(g=0.0)
    with pytest.warns(SingularityWarning) as record:
        tau, lam = still.inverse_dynamics(Q_SING, np.zeros(4), np.zeros(4), "lagrange", multipliers=True)
    assert not any("cannot be balanced" in str(w.message) for w in record)
    np.testing.assert_allclose(lam, 0.0, atol=1e-12)


def test_away_from_the_singularity_lagrange_stays_silent_and_exact(robot):
    qd, qdd = _motion(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tau, lam = robot.inverse_dynamics(robot.q_home, qd, qdd, "lagrange", multipliers=True)
        np.testing.assert_allclose(tau, robot.inverse_dynamics(robot.q_home, qd, qdd, "lda"), rtol=1e-10,
                                   atol=1e-10)
    q = robot.q_home
    qd_t = robot.velocities(q, qd)
    qdd_t = robot.accelerations(q, qd, qdd)
    lhs = np.concatenate([c.rne(q[s], qd_t[s], qdd_t[s]) for c, s in zip(robot.chains, robot.slices)])
    A = robot.A(q)
    np.testing.assert_allclose(A[:, robot.ip].T @ lam, lhs[robot.ip], rtol=1e-10, atol=1e-10)
