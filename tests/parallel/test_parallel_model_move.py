"""A fast move on every ParallelModel: parallel_rigid_plan, simulate_move and linear_move on the 3-RRR and the Delta.

The general plan equals FiveBar's rigid_plan on fivebar_model() (to 1e-12); on the 3-RRR and the Delta it
follows the quintic (fkine of its q, the Jacobian times its rates) and its compact forces drive the rigid
motion it plans (parallel_fdyn returns its accelerations); standing still from the static start stays
still; and the fast linearised move (linear_move) holds the full simulation's (simulate_move)
end-effector error and deflections within 2 % of their peaks and its residual vibration within 5 %, as
for the five-bar in test_linear_move.py.
"""

import numpy as np
import pytest

from rvc.models import delta_robot, fivebar_model, rrr3
from rvc.parallel import (FiveBar, linear_move, parallel_fdyn, parallel_fkine, parallel_jacobian,
                          parallel_rigid_plan, rigid_plan, simulate_move)

MOVES = {"3-RRR": (rrr3, (-0.03, 0.0, 0.0), (0.03, 0.0, 0.0)),
         "Delta": (delta_robot, (-0.05, 0.0, -0.35), (0.05, 0.0, -0.35))}


@pytest.fixture(scope="module", params=list(MOVES))
def case(request):
    build, x0, x1 = MOVES[request.param]
    return build(), x0, x1


def test_plan_of_the_five_bar_model_is_fivebars():
    t = np.linspace(0.0, 0.3, 31)
    a = rigid_plan(FiveBar(), (-0.12, 0.36), (0.12, 0.36), 0.2, t)
    b = rigid_plan(fivebar_model(), (-0.12, 0.36), (0.12, 0.36), 0.2, t)      # the hook: parallel_rigid_plan
    for key in ("x", "xd", "xdd", "q", "qd", "qdd", "tau"):
        ref = getattr(a, key)
        np.testing.assert_allclose(getattr(b, key), ref, rtol=0, atol=1e-12 * max(1.0, np.abs(ref).max()))


def test_plan_follows_the_quintic_and_its_forces_make_it(case):
    model, x0, x1 = case
    plan = parallel_rigid_plan(model, x0, x1, 0.2, np.linspace(0.0, 0.25, 26))
    np.testing.assert_allclose(parallel_fkine(model, plan.q), plan.x, atol=1e-12)
    np.testing.assert_allclose(np.einsum("tij,tj->ti", parallel_jacobian(model, plan.q), plan.qd), plan.xd,
                               atol=1e-10)
    assert np.all(plan.q[:, model.ie] == 0) and np.all(plan.qd[:, model.ce] == 0)
    qdd = parallel_fdyn(model, plan.q, plan.qd, plan.tau)[:, model.ic]         # all compact forces applied
    np.testing.assert_allclose(qdd, plan.qdd, atol=1e-8 * np.abs(plan.qdd).max())
    assert np.abs(plan.qdd[:, model.ca]).max() > 1.0                          # it does accelerate


def test_plan_outside_the_workspace_is_refused():
    with pytest.raises(ValueError, match="x0, x1: expected a straight move the mechanism can follow"):
        parallel_rigid_plan(rrr3(), (0.0, 0.0, 0.0), (0.5, 0.0, 0.0), 0.2, np.linspace(0.0, 0.2, 11))
    with pytest.raises(ValueError, match="x1"):
        parallel_rigid_plan(rrr3(), (0.0, 0.0, 0.0), (0.5, 0.0), 0.2, [0.0])


def test_standing_still_stays_still(case):
    model, x0, _ = case
    still = linear_move(model, x0, x0, 0.1, t_end=0.2)
    assert still.residual_vibration() < 1e-9
    assert np.abs(still.deflection).max() > 1e-4                 # sagged under gravity, held there


@pytest.mark.slow
def test_linear_move_equals_the_full_simulation(case):
    model, x0, x1 = case
    fast = linear_move(model, x0, x1, 0.2, t_end=0.4)
    full = simulate_move(model, x0, x1, 0.2, t_end=0.4)
    np.testing.assert_array_equal(fast.t, full.t)
    e_fast, e_full = fast.x - fast.plan.x, full.x - full.plan.x
    assert np.abs(e_full).max() > 1e-4                           # the move bends the springs: 0.4 mm
    assert np.abs(e_fast - e_full).max() <= 0.02 * np.abs(e_full).max()
    assert np.abs(fast.deflection - full.deflection).max() <= 0.02 * np.abs(full.deflection).max()
    assert full.residual_vibration() > 1e-5
    assert abs(fast.residual_vibration() - full.residual_vibration()) <= 0.05 * full.residual_vibration()
    assert np.abs(fast.tau - full.tau).max() <= 0.02 * np.abs(full.tau).max()
