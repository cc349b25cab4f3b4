"""Cross-check rvc's Jacobians and manipulability against roboticstoolbox-python.

The peer is an oracle only (rvc never imports it).  Run in the peers' venv:
``python -m pytest tests/crosscheck/test_rtb_jacobian.py``.

The Puma: rtb puts a 26.45 inch pedestal into d1; rvc and the notes have
d1 = 0, so rvc's Puma gets it as a base transform (as in test_rtb_ikine.py).
Other rtb DH models (prismatic joints, modified DH, base and tool) are
copied link by link into an rvc DHRobot.
"""

import warnings

import numpy as np
import pytest

rtb = pytest.importorskip("roboticstoolbox")
from spatialmath import SE3  # noqa: E402

from rvc.kinematics.jacobian import jacob0, jacobe, manipulability  # noqa: E402
from rvc.models import puma560  # noqa: E402
from rvc import DHRobot, Link  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
N = 20


def _puma_pair():
    theirs = rtb.models.DH.Puma560()
    ours = puma560()
    ours.base = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, theirs.links[0].d], [0, 0, 0, 1.0]])
    return ours, theirs


def _puma_tool_pair():
    ours, theirs = _puma_pair()
    tool = SE3(0.02, -0.03, 0.15) * SE3.Rx(0.4) * SE3.Rz(-0.2)
    theirs.tool = tool
    ours.tool = tool.A
    return ours, theirs


def _copy(name):
    def make():
        theirs = getattr(rtb.models.DH, name)()
        links = [Link(L.theta, L.d, L.a, L.alpha, sigma=int(L.sigma), mdh=bool(L.mdh),
                      offset=L.offset) for L in theirs.links]
        ours = DHRobot(links, name=name, base=theirs.base.A, tool=theirs.tool.A)
        return ours, theirs
    return make


PAIRS = {
    "puma560": _puma_pair,
    "puma560+tool": _puma_tool_pair,
    "stanford (prismatic)": _copy("Stanford"),
    "cobra600 (prismatic)": _copy("Cobra600"),
    "p8 (2 prismatic)": _copy("P8"),
    "panda (modified DH, tool)": _copy("Panda"),
    "baxter (base)": _copy("Baxter"),
}


def _random_q(robot, seed):
    lo, hi = robot.qlim
    lo = np.where(np.isfinite(lo), lo, -0.5)
    hi = np.where(np.isfinite(hi), hi, 0.5)
    return np.random.default_rng(seed).uniform(lo, hi, (N, robot.n))


@pytest.fixture(scope="module", params=sorted(PAIRS))
def pair(request):
    ours, theirs = PAIRS[request.param]()
    Q = _random_q(ours, 3)
    # the same model: same forward kinematics
    for q in Q[:5]:
        np.testing.assert_allclose(ours.fkine(q), theirs.fkine(q).A, atol=1e-12)
    return ours, theirs, Q


def test_jacob0(pair):
    ours, theirs, Q = pair
    J = jacob0(ours, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], theirs.jacob0(q), atol=1e-12)


def test_jacobe(pair):
    ours, theirs, Q = pair
    J = jacobe(ours, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], theirs.jacobe(q), atol=1e-12)


@pytest.mark.parametrize("method", ["yoshikawa", "invcondition", "minsingular"])
@pytest.mark.parametrize("axes", ["all", "trans", "rot"])
def test_manipulability(pair, method, axes):
    ours, theirs, Q = pair
    m = manipulability(ours, Q, method, axes)
    ref = np.array([theirs.manipulability(q, method=method, axes=axes) for q in Q])
    if method == "yoshikawa" and ours.n < (6 if axes == "all" else 3):
        ref = np.nan_to_num(ref)              # rtb: sqrt(det) of a singular J J^T, ~0 or NaN
    np.testing.assert_allclose(m, ref, rtol=1e-7, atol=1e-10)


def test_puma_notes_configurations():
    ours, theirs = _puma_pair()
    for name in ("qz", "qr", "qs", "qn"):
        q = getattr(ours, name)
        np.testing.assert_allclose(ours.jacob0(q), theirs.jacob0(q), atol=1e-12)
        np.testing.assert_allclose(ours.manipulability(q), theirs.manipulability(q), atol=1e-12)
    np.testing.assert_allclose(ours.manipulability(ours.qn), 0.0786, atol=5e-5)
