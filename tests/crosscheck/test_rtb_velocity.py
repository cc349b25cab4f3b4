"""Cross-check Chapter 8 against roboticstoolbox-python: analytical Jacobians, the twist route,
ellipsoid volumes, the pose error and closed-loop resolved-rate control.

The peer is an oracle only (rvc never imports it).  Every robot is one that rtb ships,
rebuilt in rvc link by link from its DH table (standard and modified DH, prismatic joints,
base and tool).

Not compared: rtb 1.5's vellipse/fellipse drawings.  Its EllipsePlot draws
x^T (J J^T) x = 1 for the *velocity* ellipse (radii 1/sigma, the force ellipsoid of the
notes' 8.5.2) and inverts for the force one, so it is no oracle for the notes' formulas
v^T (J J^T)^-1 v = 1 (8.2.2) and w^T (J J^T) w = 1 (8.5.2).  Their volumes are checked
through rtb's manipulability instead.
"""

import warnings

import numpy as np
import pytest

rtb = pytest.importorskip("roboticstoolbox")
from roboticstoolbox.tools.p_servo import angle_axis_python  # noqa: E402

from rvc import DHRobot, Link, jacob0_poe, pose_error, rrmc2, transl, trotx, troty  # noqa: E402
from rvc.kinematics.jacobian import jacob0, manipulability  # noqa: E402
from rvc.kinematics.rates import fellipse, vellipse  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
N = 12


def _copy(name):
    theirs = getattr(rtb.models.DH, name)()
    links = [Link(L.theta, L.d, L.a, L.alpha, sigma=int(L.sigma), mdh=bool(L.mdh), offset=L.offset)
             for L in theirs.links]
    ours = DHRobot(links, name=name, base=theirs.base.A, tool=theirs.tool.A)
    return ours, theirs


ROBOTS = ["Puma560", "Stanford", "Panda", "Baxter", "Cobra600", "UR5", "IRB140"]


def _random_q(robot, seed):
    lo, hi = robot.qlim
    lo = np.where(np.isfinite(lo), lo, -0.5)
    hi = np.where(np.isfinite(hi), hi, 0.5)
    return np.random.default_rng(seed).uniform(lo, hi, (N, robot.n))


@pytest.fixture(scope="module", params=ROBOTS)
def pair(request):
    ours, theirs = _copy(request.param)
    Q = _random_q(ours, 11)
    for q in Q[:3]:
        np.testing.assert_allclose(ours.fkine(q), theirs.fkine(q).A, atol=1e-12)
    return ours, theirs, Q


@pytest.mark.parametrize("analytical", ["rpy/xyz", "rpy/zyx", "eul", "exp"])
def test_analytical_jacobian(pair, analytical):
    ours, theirs, Q = pair
    if ours.name == "Cobra600" and analytical in ("eul", "exp"):
        pytest.skip("a SCARA's tool always points down: ZYZ Euler angles are at their singularity "
                    "(theta = pi) and the rotation vector at its half-turn sign ambiguity")
    J = jacob0(ours, Q, analytical)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], theirs.jacob0_analytical(q, analytical), atol=1e-9)


def test_twist_route(pair):
    ours, theirs, Q = pair
    S, M = ours.twists()
    J = jacob0_poe(S, M, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J[k], theirs.jacob0(q), atol=1e-12)


@pytest.mark.parametrize("axes", ["trans", "rot"])
def test_ellipsoid_volume_is_rtb_manipulability(pair, axes):
    """The product of the velocity ellipsoid's semi-axes is the Yoshikawa measure, and the
    force ellipsoid's is its reciprocal."""
    ours, theirs, Q = pair
    ref = np.array([theirs.manipulability(q, axes=axes) for q in Q])
    ref = np.nan_to_num(ref)
    np.testing.assert_allclose(vellipse(ours, Q, axes).volume_factor, ref, rtol=1e-7, atol=1e-10)
    ok = ref > 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        F = fellipse(ours, Q[ok], axes)
    np.testing.assert_allclose(F.volume_factor, 1 / ref[ok], rtol=1e-6)


def test_pose_error_is_rtb_angle_axis_error():
    rng = np.random.default_rng(3)
    for _ in range(20):
        A = transl(*rng.normal(size=3)) @ trotx(rng.uniform(-3, 3)) @ troty(rng.uniform(-3, 3))
        B = transl(*rng.normal(size=3)) @ trotx(rng.uniform(-3, 3)) @ troty(rng.uniform(-1, 1))
        np.testing.assert_allclose(pose_error(A, B), angle_axis_python(A, B), atol=1e-10)


@pytest.mark.parametrize("name", ["Puma560", "Panda"])
def test_closed_loop_rrmc_equals_a_loop_built_from_rtb(name):
    """rrmc2 with the pseudo-inverse, step by step, equals q += dt K pinv(J) e written with
    rtb's jacob0 and its angle-axis servo error."""
    ours, theirs = _copy(name)
    q0 = _random_q(ours, 5)[0]
    goal = ours.fkine(q0 + 0.15)
    dt, K, steps = 0.05, 4.0, 40
    r = rrmc2(ours, q0, goal, gain=K, dt=dt, steps=steps, method="pinv")
    q = q0.copy()
    for k in range(steps):
        np.testing.assert_allclose(r.q[k], q, atol=1e-9)
        e = angle_axis_python(theirs.fkine(q).A, goal)
        q = q + dt * np.linalg.pinv(theirs.jacob0(q)) @ (K * e)
    assert np.linalg.norm(r.e[-1]) < 1e-3 * np.linalg.norm(r.e[0])      # (1 - K dt)^39 = 1.7e-4


def test_manipulability_at_the_notes_configurations():
    ours, theirs = _copy("Puma560")
    for name in ("qz", "qr", "qn"):
        q = getattr(theirs, name)
        assert vellipse(ours, q, "all").volume_factor == pytest.approx(
            np.nan_to_num(theirs.manipulability(q)), abs=1e-12)
    assert manipulability(ours, theirs.qn) == pytest.approx(0.0786, abs=5e-5)
