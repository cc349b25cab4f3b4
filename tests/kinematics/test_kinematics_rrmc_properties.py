"""rvc.kinematics.rrmc: the documented update asserted step by step, and the options combined.

q<k+1> = q<k> + dt qd<k>, with qd<k> = J^-1 v (open loop) or gain J^-1 Delta (closed
loop), rows selected by ``axes`` and a null-space motion ``qd_null``; every cell of a
small grid of (axes, qd_null, method, frame) must achieve the selected rows of v and
put exactly P qd_null into the null space.
"""

import itertools
import warnings

import numpy as np
import pytest
from support import with_base_tool

from rvc import RVCWarning, jacob0, jacobe, nullproj, pose_error, rrmc, rrmc2, transl
from rvc.models import puma560

V = np.array([0.02, -0.01, 0.03, 0.1, -0.05, 0.02])


@pytest.fixture(scope="module")
def arm():
    return with_base_tool(puma560())


def test_open_loop_steps_are_the_documented_update(arm):
    run = rrmc(arm, arm.qn, V, dt=0.05, steps=6)
    for k in range(5):
        qd = np.linalg.solve(jacob0(arm, run.q[k]), V)
        np.testing.assert_allclose(run.qd[k], qd, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(run.q[k + 1], run.q[k] + 0.05 * run.qd[k], rtol=0, atol=1e-14)
    np.testing.assert_allclose(run.t, 0.05 * np.arange(6), atol=0)


def test_closed_loop_steps_are_gain_times_the_pose_error(arm):
    goal = transl(0.02, -0.01, 0.03) @ arm.fkine(arm.qn)
    run = rrmc2(arm, arm.qn, goal, gain=4.0, dt=0.05, steps=5)
    for k in range(4):
        e = pose_error(arm.fkine(run.q[k]), goal)
        np.testing.assert_allclose(run.e[k], e, atol=1e-12)
        np.testing.assert_allclose(run.qd[k], 4.0 * np.linalg.solve(jacob0(arm, run.q[k]), e), rtol=1e-9,
                                   atol=1e-12)
        np.testing.assert_allclose(run.q[k + 1], run.q[k] + 0.05 * run.qd[k], atol=1e-14)


def test_closed_loop_error_shrinks_by_one_minus_gain_dt_per_step(arm):
    """A second, independent consequence of the same equation, to first order in the error."""
    goal = transl(1e-4, 0, 0) @ arm.fkine(arm.qn)
    run = rrmc2(arm, arm.qn, goal, gain=6.0, dt=0.05, steps=4)
    ratio = np.linalg.norm(run.e[1:], axis=1) / np.linalg.norm(run.e[:-1], axis=1)
    np.testing.assert_allclose(ratio, 1 - 6.0 * 0.05, rtol=1e-3)


AXES = {"all": np.arange(6), "trans": np.arange(3), "xy+wz": np.array([0, 1, 5])}
GRID = [cell for cell in itertools.product(["all", "trans", "xy+wz"], [False, True], [None, "pinv", "dls"],
                                          ["world", "tool"])
        if not (cell[0] == "all" and cell[1])]      # a full task on 6 joints has no null space


@pytest.mark.parametrize("axes, null, method, frame", GRID)
def test_every_combination_of_options_achieves_the_selected_rows(arm, axes, null, method, frame):
    rows = AXES[axes]
    mask = np.zeros(6, bool)
    mask[rows] = True
    ax = axes if axes in ("all", "trans") else mask
    damping = 1e-6 if method == "dls" else 0.0
    qd_null = np.array([0.3, -0.2, 0.1, 0.4, -0.1, 0.2]) if null else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = rrmc(arm, arm.qn, V, dt=0.02, steps=3, axes=ax, qd_null=qd_null, method=method,
                   damping=damping, frame=frame)
    for k in range(3):
        J = (jacob0 if frame == "world" else jacobe)(arm, run.q[k])[rows]
        achieved = J @ run.qd[k]
        np.testing.assert_allclose(achieved, V[rows], atol=1e-5 if method == "dls" else 1e-10)
        if null:
            P = nullproj(J)
            part = P @ run.qd[k]
            np.testing.assert_allclose(part, P @ qd_null, atol=1e-9)


@pytest.mark.parametrize("gain_dt, warns", [(1.999, False), (2.0, True), (2.001, True)])
def test_rrmc2_warns_exactly_from_gain_dt_two(arm, gain_dt, warns):
    goal = transl(0.01, 0, 0) @ arm.fkine(arm.qn)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        rrmc2(arm, arm.qn, goal, gain=gain_dt / 0.05, dt=0.05, steps=2)
    hit = [w for w in record if issubclass(w.category, RVCWarning) and "gain * dt" in str(w.message)]
    assert bool(hit) == warns


def test_batched_start_configurations_equal_single_runs(arm):
    Q0 = np.stack([arm.qn, arm.qn + 0.1, arm.qn - 0.15])
    many = rrmc(arm, Q0, V, dt=0.05, steps=4)
    for k, q0 in enumerate(Q0):
        one = rrmc(arm, q0, V, dt=0.05, steps=4)
        np.testing.assert_allclose(many.q[k], one.q, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(many.qd[k], one.qd, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kw, name", [({"dt": 0.0}, "dt"), ({"dt": -0.1}, "dt"), ({"steps": 2.7}, "steps"),
                                      ({"steps": 0}, "steps"), ({"frame": "base"}, "frame"),
                                      ({"method": "lu"}, "method")])
def test_bad_options_are_named(arm, kw, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        rrmc(arm, arm.qn, V, **kw)
