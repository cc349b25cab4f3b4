"""Cross-check rvc's robot models and forward kinematics against roboticstoolbox-python.

The peer is an oracle only (rvc never imports it).  Run in the peers' venv:
``python -m pytest tests/crosscheck/test_rtb_kinematics.py``.

rtb's Puma560 has a 26.45 inch pedestal in d1; rvc follows the notes and
MATLAB (d1 = 0), so the rtb model's d1 is set to 0 here.
"""

import warnings

import numpy as np
import pytest

rtb = pytest.importorskip("roboticstoolbox")

from rvc import models  # noqa: E402
from rvc import fkine_poe  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)


def _rtb_puma():
    p = rtb.models.DH.Puma560()
    p.links[0].d = 0.0
    return p


PAIRS = {
    "puma560": (models.puma560, _rtb_puma),
    "cobra600": (models.cobra600, lambda: rtb.models.DH.Cobra600()),
    "baxter-left": (lambda: models.baxter("left"), lambda: rtb.models.DH.Baxter("left")),
    "baxter-right": (lambda: models.baxter("right"), lambda: rtb.models.DH.Baxter("right")),
    "twolink": (models.twolink, lambda: rtb.models.DH.TwoLink()),
    "planar2": (models.planar2, lambda: rtb.models.DH.Planar2()),
}


def _random_q(robot, rng, N):
    lo, hi = robot.qlim
    lo = np.where(np.isfinite(lo), lo, -1.0)
    hi = np.where(np.isfinite(hi), hi, 1.0)
    return rng.uniform(lo, hi, (N, robot.n))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_fkine(name):
    mine, theirs = PAIRS[name][0](), PAIRS[name][1]()
    Q = _random_q(mine, np.random.default_rng(1), 25)
    T = mine.fkine(Q)
    for k in range(len(Q)):
        np.testing.assert_allclose(T[k], theirs.fkine(Q[k]).A, atol=1e-12)
    S, M = mine.twists()
    np.testing.assert_allclose(fkine_poe(S, M, Q), T, atol=1e-12)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_fkine_all(name):
    mine, theirs = PAIRS[name][0](), PAIRS[name][1]()
    Q = _random_q(mine, np.random.default_rng(2), 5)
    F = mine.fkine_all(Q)
    for k in range(len(Q)):
        Ft = theirs.fkine_all(Q[k])
        assert len(Ft) == mine.n + 1
        np.testing.assert_allclose(F[k], np.array([X.A for X in Ft]), atol=1e-12)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_named_configurations_and_limits(name):
    mine, theirs = PAIRS[name][0](), PAIRS[name][1]()
    for c in ("qz", "qr", "qs", "qn"):
        if c in mine.configurations and hasattr(theirs, c):
            np.testing.assert_allclose(mine.fkine(getattr(mine, c)),
                                       theirs.fkine(getattr(theirs, c)).A, atol=1e-12)
    if all(L.qlim is not None for L in theirs.links):
        np.testing.assert_allclose(mine.qlim, theirs.qlim)


def test_puma_dynamic_parameters_identical():
    mine, theirs = models.puma560(), _rtb_puma()
    for Lm, Lt in zip(mine, theirs.links):
        assert Lm.m == Lt.m and Lm.Jm == Lt.Jm and Lm.B == Lt.B and Lm.G == Lt.G
        np.testing.assert_array_equal(Lm.r, Lt.r)
        np.testing.assert_array_equal(Lm.I, Lt.I)
        np.testing.assert_array_equal(Lm.Tc, Lt.Tc)
    np.testing.assert_allclose(theirs.inertia(mine.qn).diagonal(),
                               [3.6594, 4.4137, 0.9378, 0.1925, 0.1713, 0.1941], atol=1e-4)


def test_puma_mdh_and_link_transforms():
    mine, theirs = models.puma560_mdh(), _rtb_puma()
    Q = np.random.default_rng(3).uniform(-3, 3, (10, 6))
    for q in Q:
        np.testing.assert_allclose(mine.fkine(q), theirs.fkine(q).A, atol=1e-12)
        np.testing.assert_allclose(models.puma560().A([0, 2], q), theirs.A([0, 2], q).A,
                                   atol=1e-12)
