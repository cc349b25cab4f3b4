"""parallel_singularity (type I and II) and parallel_singularity_map, and parallel_points, on every model.

The map assembles each grid point on home's branch (its q equals parallel_ikine's from home near home,
closes the loop and puts the end-effector on the grid point), its measures are parallel_singularity's
of its q, and a point out of reach is refused without an error.  The type-I measure vanishes at the
workspace's edge (the five-bar's chains stretched, where FiveBar's own type-I measure vanishes too)
and not where only the type-II measure does (the five-bar low down, the distal links near one line).
parallel_assemble batched over poses equals it pose by pose.
"""

import numpy as np
import pytest

from rvc.kinematics import lift_planar, pose3d
from rvc.models import delta_robot, fivebar_model, rrr3
from rvc.parallel import (FiveBar, parallel_assemble, parallel_fkine, parallel_h, parallel_ikine, parallel_points,
                          parallel_singularity, parallel_singularity_map)

BUILD = {"five-bar": fivebar_model, "3-RRR": rrr3, "Delta": delta_robot}


@pytest.fixture(scope="module", params=list(BUILD))
def case(request):
    model = BUILD[request.param]()
    home = parallel_fkine(model, model.q_home)
    step = np.zeros(model.n_x)
    step[0] = 0.02
    lateral = np.zeros(model.n_x)
    lateral[1] = 0.015
    i, j = np.arange(-3, 4), np.arange(-2, 3)
    grid = home + i[:, None, None] * step + j[None, :, None] * lateral       # (7, 5, n_x) around home
    return model, grid, parallel_singularity_map(model, grid)


def test_map_assembles_on_homes_branch(case):
    model, grid, smap = case
    assert smap.assembled.shape == grid.shape[:-1] and smap.assembled.all()
    q = smap.q[smap.assembled]
    assert np.abs(parallel_h(model, q)).max() < 1e-10
    np.testing.assert_allclose(parallel_fkine(model, q), grid[smap.assembled], atol=1e-10)
    for idx in [(3, 2), (4, 2), (3, 3), (0, 0), (6, 4)]:              # the same branch as from home
        np.testing.assert_allclose(smap.q[idx], parallel_ikine(model, grid[idx]), atol=1e-8)


def test_map_measures_are_the_pointwise_measures(case):
    model, grid, smap = case
    for kind, values in (("I", smap.type1), ("II", smap.type2)):
        ref = np.array([[parallel_singularity(model, q, kind=kind) for q in row] for row in smap.q])
        np.testing.assert_allclose(values, ref, rtol=1e-12)
        assert np.all((0 < values) & (values <= 1))
    assembled, t1, t2 = smap                                                 # unpacks like that
    assert t1 is smap.type1 and assembled is smap.assembled


def test_single_grid_axis_and_points_out_of_reach(case):
    model, grid, _ = case
    line = grid[:, 2].copy()
    line[-1, 0] += 5.0                                                       # metres away: out of reach
    smap = parallel_singularity_map(model, line)
    assert smap.assembled.tolist() == [True] * 6 + [False]
    assert np.isnan(smap.type1[-1]) and np.isnan(smap.type2[-1]) and np.isnan(smap.q[-1]).all()


def test_batched_measure_equals_single(case):
    model, _, smap = case
    q = smap.q[0]
    for kind in ("I", "II"):
        np.testing.assert_allclose(parallel_singularity(model, q, kind=kind),
                                   [parallel_singularity(model, qi, kind=kind) for qi in q], rtol=1e-13)


def test_type_one_vanishes_at_the_five_bars_edge_and_type_two_low_down():
    model, fb = fivebar_model(), FiveBar()
    ys = np.linspace(0.40, 0.80, 401)                                        # 1 mm steps up to beyond reach
    up = parallel_singularity_map(model, np.stack([np.zeros_like(ys), ys], -1))
    k = np.flatnonzero(up.assembled)[-1]
    assert 0.5 < ys[k] < 0.79 and not up.assembled[k + 1:].any()          # the edge was crossed once
    assert up.type1[k] < 0.1 * up.type1[0] and fb.singularity(up.q[k])[0] < 0.1 * fb.singularity(up.q[0])[0]
    assert up.type2[k] > 0.2 * up.type2[0]                                 # not a type-II singularity
    low = parallel_singularity_map(model, [[0.0, 0.40], [0.0, 0.03]])
    assert low.type2[1] < 0.1 * low.type2[0] and fb.singularity(low.q[1])[1] < 0.1 * fb.singularity(low.q[0])[1]
    assert low.type1[1] > 0.1 * low.type1[0] and low.type1[1] > 3 * up.type1[k]   # not a type-I singularity


def test_points_follow_the_chains_and_the_platform(case):
    model, _, smap = case
    q = smap.q[1, 1]
    chains, corners = parallel_points(model, q)
    assert len(chains) == len(model.chains)
    for c, s, p in zip(model.chains, model.slices, chains):
        assert p.shape == (c.n + 1, 3)
        base = np.asarray(c.base) if np.shape(c.base) == (4, 4) else lift_planar(c.base)
        np.testing.assert_allclose(p[0], base[:3, 3], atol=1e-15)             # base first, tip last
        np.testing.assert_allclose(p[-1], pose3d(c, q[s])[:3, 3], atol=1e-12)
    if corners is None:                                                       # the five-bar: tips meet
        np.testing.assert_allclose(chains[0][-1], chains[1][-1], atol=1e-10)
    else:
        for p, b in zip(chains, corners):
            np.testing.assert_allclose(p[-1], b, atol=1e-10)
    batched, _ = parallel_points(model, smap.q[1, :2])
    np.testing.assert_allclose(batched[0][1], chains[0], atol=1e-15)


def test_bad_arguments_name_them():
    model = rrr3()
    with pytest.raises(ValueError, match="grid: expected end-effector coordinates of shape"):
        parallel_singularity_map(model, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="grid: expected"):
        parallel_singularity_map(model, np.zeros((2, 2, 2, 3)))
    with pytest.raises(ValueError, match="kind: expected one of 'I', 'II', got 'III'"):
        parallel_singularity(model, model.q_home, kind="III")
    with pytest.raises(ValueError, match="qe: expected"):
        parallel_singularity_map(model, np.zeros((2, 3)), qe=[0.0])


def test_batched_assembly_equals_single(case):
    model, _, smap = case
    q = smap.q[2]                                                           # five assembled poses
    rng = np.random.default_rng(7)
    qe = rng.uniform(-0.01, 0.01, (len(q), len(model.ie)))
    batched = parallel_assemble(model, q[:, model.ia], qe, guess=q)
    assert batched.shape == q.shape
    for k in range(len(q)):
        np.testing.assert_allclose(batched[k], parallel_assemble(model, q[k, model.ia], qe[k], guess=q[k]),
                                   atol=1e-12)
    assert np.abs(parallel_h(model, batched)).max() < 1e-10
    np.testing.assert_allclose(batched[:, model.ie], qe, atol=0)
    with pytest.raises(ValueError, match="qa, qe, guess: expected leading dimensions that broadcast"):
        parallel_assemble(model, q[:2, model.ia], qe[:3], guess=q[0])


def test_a_grid_out_of_reach_near_home_is_an_error():
    model = rrr3()
    far = np.array([[5.0, 5.0, 0.0], [5.1, 5.0, 0.0]])
    with pytest.raises(ValueError, match="grid: expected grid points the mechanism reaches"):
        parallel_singularity_map(model, far)
