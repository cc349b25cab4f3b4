"""Scale invariance of chapter 9's measures: masses x k over many decades, not only x 1000.

A tolerance written at unit scale (an absolute threshold where a relative one is meant) passes
every test at unit scale; these tests change the scale by up to twelve decades both ways.
"""

import warnings

import pytest

from support import scaled_masses

from rvc import SingularityWarning, asada
from rvc.models import puma560


@pytest.fixture(scope="module")
def p560():
    return puma560()


@pytest.mark.parametrize("k", [1e-12, 1e-6, 1e6, 1e12])
def test_asada_is_unchanged_by_any_mass_scale(p560, k):
    """w = mu_min / mu_max of J M^-1 J^T: M x k divides every mu by k, so w is exactly dimensionless."""
    scaled = scaled_masses(p560, k)
    for q in (p560.qn, p560.qn + 0.3):
        for axes in ("all", "trans", "rot"):
            assert asada(scaled, q, axes) == pytest.approx(asada(p560, q, axes), rel=1e-9)


@pytest.mark.parametrize("k", [1e-12, 1e-6, 1e6, 1e12])
def test_asada_stays_exactly_zero_at_a_singularity_at_any_mass_scale(p560, k):
    scaled = scaled_masses(p560, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularityWarning)
        assert asada(scaled, p560.qr) == 0.0
        assert asada(scaled, p560.qz, "rot") == 0.0
