"""rvc.kinematics.jacobian against oracles that share none of its code.

Base and tool non-identity on every chain kind, batched equal to single over the
whole joint range, the manipulability measures against numpy's SVD, scale
invariance (the same arm in millimetres), and J-dot against the derivative of J.
"""

import copy

import numpy as np
import pytest
from support import derivative, fd_jacobian, prismatic_dh, prismatic_mdh, puma_ets, with_base_tool

from rvc import jacob0, jacob_dot, jacobe, manipulability
from rvc.models import puma560

RNG = np.random.default_rng(820)


def _zoo():
    return {"puma+base+tool": with_base_tool(puma560()), "RPRP dh+base+tool": with_base_tool(prismatic_dh()),
            "RPRP mdh+base+tool": with_base_tool(prismatic_mdh()), "puma ets (tool as a term)": puma_ets(0.3)}


ZOO = _zoo()


def _random_q(robot, n=1):
    qlim = np.asarray(robot.qlim, dtype=float)
    lo, hi = np.maximum(qlim[0], -np.pi), np.minimum(qlim[1], np.pi)
    return RNG.uniform(lo, hi, (n, robot.n))


def _in_mm(robot, k=1000.0):
    r = copy.deepcopy(robot)
    for L in r.links:
        L.a, L.d = L.a * k, L.d * k
    for name in ("base", "tool"):
        T = np.array(getattr(r, name), dtype=float)
        T[:3, 3] *= k
        setattr(r, name, T)
    return r


@pytest.mark.parametrize("name", list(ZOO))
def test_jacob0_with_base_and_tool_equals_finite_differences_of_fkine(name):
    robot = ZOO[name]
    for q in _random_q(robot, 3):
        np.testing.assert_allclose(jacob0(robot, q), fd_jacobian(robot, q), atol=2e-8)


@pytest.mark.parametrize("name", list(ZOO))
def test_jacobe_is_the_world_jacobian_in_tool_axes(name):
    """v_tool = R^T v_world for both halves: checked against finite differences of R^T dT."""
    robot = ZOO[name]
    q = _random_q(robot)[0]
    R = robot.fkine(q)[:3, :3]
    Jfd = fd_jacobian(robot, q)
    np.testing.assert_allclose(jacobe(robot, q), np.vstack([R.T @ Jfd[:3], R.T @ Jfd[3:]]), atol=2e-8)


@pytest.mark.parametrize("name", list(ZOO))
def test_batched_jacobians_equal_single_calls_over_the_whole_range(name):
    robot = ZOO[name]
    Q = _random_q(robot, 40)
    J0, Je = jacob0(robot, Q), jacobe(robot, Q)
    for k, q in enumerate(Q):
        np.testing.assert_allclose(J0[k], jacob0(robot, q), rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(Je[k], jacobe(robot, q), rtol=1e-13, atol=1e-14)


def test_manipulability_measures_against_numpys_svd():
    robot = ZOO["puma+base+tool"]
    Q = _random_q(robot, 10)
    for axes, rows in (("all", slice(0, 6)), ("trans", slice(0, 3)), ("rot", slice(3, 6))):
        s = np.linalg.svd(fd_jacobian(robot, Q[0])[rows], compute_uv=False)
        assert manipulability(robot, Q[0], "yoshikawa", axes) == pytest.approx(np.prod(s), rel=1e-6, abs=1e-12)
        assert manipulability(robot, Q[0], "invcondition", axes) == pytest.approx(s[-1] / s[0], rel=1e-6)
        assert manipulability(robot, Q[0], "minsingular", axes) == pytest.approx(s[-1], rel=1e-6, abs=1e-12)


def test_yoshikawa_is_the_square_root_of_det_j_jt():
    """A second, independent identity for the default measure."""
    robot = ZOO["puma+base+tool"]
    q = _random_q(robot)[0]
    J = jacob0(robot, q)
    assert manipulability(robot, q) == pytest.approx(np.sqrt(np.linalg.det(J @ J.T)), rel=1e-9)


def test_manipulability_batched_equals_single():
    robot = ZOO["puma+base+tool"]
    Q = _random_q(robot, 20)
    for method in ("yoshikawa", "invcondition", "minsingular"):
        many = manipulability(robot, Q, method)
        assert many.shape == (20,)
        for k, q in enumerate(Q):
            assert many[k] == pytest.approx(manipulability(robot, q, method), rel=1e-12, abs=1e-15)


def test_the_same_arm_in_millimetres_scales_the_translational_rows_only():
    robot = ZOO["puma+base+tool"]
    mm = _in_mm(robot)
    q = _random_q(robot)[0]
    J, Jmm = jacob0(robot, q), jacob0(mm, q)
    np.testing.assert_allclose(Jmm[:3], 1000 * J[:3], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(Jmm[3:], J[3:], rtol=1e-10, atol=1e-13)
    assert manipulability(mm, q, axes="trans") == pytest.approx(1e9 * manipulability(robot, q, axes="trans"),
                                                                rel=1e-9)
    assert manipulability(mm, q, "invcondition", "trans") == pytest.approx(
        manipulability(robot, q, "invcondition", "trans"), rel=1e-9)


@pytest.mark.parametrize("k", [1e-3, 1.0, 1e3])
def test_rank_deficient_stays_rank_deficient_at_any_scale(k):
    """At the Puma's qz (wrist and arm singular) the measures are 0 and no exception, in any unit."""
    p = _in_mm(puma560(), k)
    assert manipulability(p, p.qz) == 0.0 or manipulability(p, p.qz) < 1e-15 * k ** 3
    assert manipulability(p, p.qz, "invcondition") < 1e-12


@pytest.mark.parametrize("name", list(ZOO))
def test_jacob_dot_is_the_time_derivative_of_j_times_qd(name):
    """Jdot qd = d/ds J(q + s qd) qd at s = 0: finite differences of jacob0 along qd."""
    robot = ZOO[name]
    q = _random_q(robot)[0]
    qd = RNG.normal(size=robot.n)
    ref = derivative(lambda x: jacob0(robot, x), q, qd) @ qd
    np.testing.assert_allclose(jacob_dot(robot, q, qd), ref, atol=1e-7)


def test_jacob_dot_of_a_spinning_link_is_centripetal():
    """Second, independent check: a planar two-link arm turning rigidly at w about the base has
    acceleration -w^2 p at its tip, whatever its shape."""
    from rvc.models import twolink
    tl = twolink()
    for q in ([0.3, 0.7], [-1.0, 2.0]):
        w = 1.7
        p = tl.fkine(q)[:3, 3]
        np.testing.assert_allclose(jacob_dot(tl, q, [w, 0.0])[:3], -w ** 2 * p, atol=1e-12)


def test_jacob_dot_batched_equals_single():
    robot = ZOO["puma+base+tool"]
    Q = _random_q(robot, 12)
    QD = RNG.normal(size=Q.shape)
    many = jacob_dot(robot, Q, QD)
    for k in range(len(Q)):
        np.testing.assert_allclose(many[k], jacob_dot(robot, Q[k], QD[k]), rtol=1e-12, atol=1e-13)
