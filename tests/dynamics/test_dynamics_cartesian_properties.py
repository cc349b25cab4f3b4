"""rvc.dynamics.cartesian: Asada's measure in [0, 1], exactly 0 at a singularity, dimensionless."""

import copy
import warnings

import numpy as np
import pytest

from support import scaled_masses

from rvc import SingularityWarning, asada, inertia_x
from rvc.models import puma560


@pytest.fixture(scope="module")
def p560():
    return puma560()


@pytest.mark.parametrize("axes", ["all", "trans", "rot"])
@pytest.mark.parametrize("which", ["qr", "qz", "qn"])
def test_asada_is_in_zero_one(p560, axes, which):
    w = asada(p560, getattr(p560, which), axes)
    assert 0.0 <= w <= 1.0


def test_asada_is_exactly_zero_at_the_straight_up_singularity(p560):
    assert asada(p560, p560.qr) == 0.0
    assert asada(p560, p560.qz, "rot") == 0.0


def test_asada_is_the_eigenvalue_ratio_of_the_cartesian_inertia_where_it_exists(p560):
    """Second, independent route: the definition on inertia_x."""
    for q in (p560.qn, p560.qn + 0.3):
        for axes in ("all", "trans", "rot"):
            ev = np.linalg.eigvalsh(inertia_x(p560, q, axes))
            assert asada(p560, q, axes) == pytest.approx(ev[0] / ev[-1], rel=1e-9)


def test_asada_batched_equals_single(p560):
    Q = np.stack([p560.qn, p560.qr, p560.qz, p560.qn + 0.2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SingularityWarning)
        batch = asada(p560, Q, "all")
    assert batch.shape == (4,)
    for k, q in enumerate(Q):
        assert batch[k] == asada(p560, q, "all")


def test_asada_is_unchanged_when_every_mass_is_scaled(p560):
    heavy = scaled_masses(p560, 1000.0)
    for axes in ("all", "trans", "rot"):
        assert asada(heavy, p560.qn, axes) == pytest.approx(asada(p560, p560.qn, axes), rel=1e-9)
    assert asada(heavy, p560.qr) == 0.0                 # still singular at any scale


def test_cartesian_inertia_scales_with_the_masses(p560):
    heavy = scaled_masses(p560, 1000.0)
    np.testing.assert_allclose(inertia_x(heavy, p560.qn, "trans"), 1000 * inertia_x(p560, p560.qn, "trans"),
                               rtol=1e-9)


def test_bad_axes_named(p560):
    with pytest.raises(ValueError, match="^axes: "):
        asada(p560, p560.qn, "xyz")
    with pytest.raises(ValueError, match="^axes: "):
        asada(p560, p560.qn, [False] * 6)


def _in_mm(robot, k=1000.0):
    """The same arm with lengths in mm: a, d, r times k, inertias (kg m^2) times k^2."""
    r = copy.deepcopy(robot)
    for link in r.links:
        link.a, link.d, link.r = link.a * k, link.d * k, np.asarray(link.r) * k
        link.I = np.asarray(link.I) * k ** 2
        link.Jm = link.Jm * k ** 2
    return r


def test_asada_of_like_rows_does_not_depend_on_the_unit_of_length_but_all_six_does(p560):
    mm = _in_mm(p560)
    for axes in ("trans", "rot"):
        assert asada(mm, p560.qn, axes) == pytest.approx(asada(p560, p560.qn, axes), rel=1e-9)
    assert asada(mm, p560.qn, "all") != pytest.approx(asada(p560, p560.qn, "all"), rel=1e-3)
