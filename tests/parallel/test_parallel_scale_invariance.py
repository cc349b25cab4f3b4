"""rvc.parallel at another scale: the five-bar in millimetres behaves exactly as in metres.

Every tolerance of the closed chains is meant relative to the mechanism's size (the closure test
to its reach, the singular tests to the matrices' scale); at unit scale an absolute one passes
every test.  In millimetres the angles, W and the singularity measures (dimensionless) are the
same, the end-effector Jacobian is 1000 times larger, and a configuration that closes the loop to
round-off is accepted.
"""

import numpy as np
import pytest

from rvc.parallel import FiveBar

MM = 1000.0


@pytest.fixture(scope="module")
def pair():
    metres = FiveBar()
    mm = FiveBar(B1=(-0.10 * MM, 0.0), B2=(0.10 * MM, 0.0), L1=0.25 * MM, L2=0.35 * MM,
                 home=(0.0, 0.40 * MM))
    return metres, mm


def _poses(robot, scale):
    xs = [(0.0, 0.40), (0.06, 0.34), (-0.10, 0.30), (0.10, 0.45)]
    return [robot.assemble(robot.ikine_rigid(np.array(x) * scale), np.array([0.01, -0.02]))
            for x in xs]


def test_the_same_angles_in_millimetres(pair):
    metres, mm = pair
    for qm, qmm in zip(_poses(metres, 1.0), _poses(mm, MM)):
        np.testing.assert_allclose(qmm, qm, atol=1e-12)


def test_a_configuration_on_the_loop_is_accepted_in_millimetres(pair):
    """A residual of about 6e-9 of the reach (far below any real error) is on the loop at any scale."""
    metres, mm = pair
    for robot in (metres, mm):
        q = robot.q_home.copy()
        q[2] += 1e-8                      # the passive angle nudged: |h| about 6e-9 of the reach
        assert np.abs(robot.h(q)).max() < 1e-8 * robot.reach
        np.testing.assert_allclose(robot.W(q), metres.W(metres.q_home), atol=1e-6)
        robot.inverse_dynamics(q, np.zeros(robot.n_compact), np.zeros(robot.n_compact))


def test_an_open_loop_is_refused_at_both_scales(pair):
    for robot in pair:
        q = robot.q_home.copy()
        q[2] += 1e-3                      # |h| about 3.5e-4 of the reach: not on the loop
        with pytest.raises(ValueError, match="^q: "):
            robot.W(q)


def test_w_and_the_singularity_measures_are_dimensionless(pair):
    metres, mm = pair
    for qm, qmm in zip(_poses(metres, 1.0), _poses(mm, MM)):
        np.testing.assert_allclose(mm.W(qmm), metres.W(qm), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(mm.singularity(qmm), metres.singularity(qm), rtol=1e-9)
        t1, t2 = mm.singularity(qmm)
        assert 0 <= t1 <= 1 and 0 <= t2 <= 1


def test_the_end_effector_jacobian_scales_with_the_length(pair):
    metres, mm = pair
    for qm, qmm in zip(_poses(metres, 1.0), _poses(mm, MM)):
        for route in ("static", "w"):
            np.testing.assert_allclose(mm.jacobian(qmm, route), MM * metres.jacobian(qm, route),
                                       rtol=1e-9)


@pytest.mark.parametrize("scale", [1e-6, 1e-3, 1.0, 1e3, 1e6])
def test_singular_solve_judges_a_matrix_alike_at_any_scale_one_at_a_time_or_batched(scale):
    """Scale invariance (issue 20, list item 2): a regular matrix is solved without a word at any
    scale, a rank-deficient one stays rank-deficient (warned, least-norm answer) at any scale, and
    the single-matrix path of the simulations' inner loop decides as the batched one."""
    import warnings

    from rvc import SingularityWarning
    from rvc.parallel.closed import singular_solve
    rng = np.random.default_rng(7)
    regular = rng.normal(size=(3, 3)) + 3 * np.eye(3)
    u, v = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
    deficient = u.T @ v                              # rank 2, its determinant round-off, not 0
    B = rng.normal(size=(3, 2))
    X = scale * regular
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(singular_solve(X, B, "X"), np.linalg.solve(X, B), rtol=1e-12)
        np.testing.assert_allclose(singular_solve(np.stack([X, X]), B, "X")[1], np.linalg.solve(X, B),
                                   rtol=1e-12)
    S = scale * deficient
    for arg in (S, np.stack([X, S])):
        with pytest.warns(SingularityWarning, match="X is singular"):
            x = singular_solve(arg, B, "X")
        np.testing.assert_allclose(x[-1] if arg.ndim == 3 else x, np.linalg.pinv(S) @ B,
                                   rtol=1e-9, atol=1e-12 / scale)
