"""rvc.kinematics.rates.jsingu and rrmc's condition numbers: rank decisions that do not depend on units."""

import warnings

import numpy as np
import pytest

from rvc import jsingu, rrmc
from rvc.models import puma560


@pytest.mark.parametrize("k", [1e-12, 1e-6, 1e-3, 1.0, 1e3, 1e6, 1e12])
def test_jsingu_finds_the_same_dependence_at_any_scale(k):
    p = puma560()
    J = p.jacob0(p.qz)
    d = jsingu(k * J)
    ref = jsingu(J)
    assert (d.rank, d.dependent) == (ref.rank, ref.dependent)
    assert d.rank < 6


@pytest.mark.parametrize("k", [1e-12, 1e-6, 1.0, 1e6, 1e12])
def test_jsingu_finds_full_rank_at_any_scale(k):
    p = puma560()
    assert jsingu(k * p.jacob0(p.qn)).rank == 6


def test_rrmc_reports_an_infinite_condition_number_where_rank_is_exactly_lost():
    from rvc.models import planar2
    p2 = planar2()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run = rrmc(p2, [0.0, 0.0], [0, 0.1, 0, 0, 0, 0], steps=1, axes=[1, 1, 0, 0, 0, 0], method="pinv")
    s = np.linalg.svd(p2.jacob0([0.0, 0.0])[:2], compute_uv=False)
    assert s[-1] == 0.0 and np.isinf(run.cond[0])


def test_rrmc_condition_number_is_sigma_max_over_sigma_min():
    p = puma560()
    good = rrmc(p, p.qn, [0, 0, 0, 0, 0, 0], steps=2)
    s = np.linalg.svd(p.jacob0(p.qn), compute_uv=False)
    np.testing.assert_allclose(good.cond, s[0] / s[-1], rtol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rrmc(p, p.qz, np.zeros(6), steps=1, method="pinv").cond[0] > 1e12
