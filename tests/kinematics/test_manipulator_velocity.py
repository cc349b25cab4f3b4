"""Chapter 8.2-8.5: singularities, joint rates, null space, ellipsoids, wrenches, pose errors."""

import warnings

import numpy as np
import pytest
from scipy.linalg import null_space

import rvc
from rvc import (ETS2, ETS3, Ellipsoid, fellipse, jacob0, jacobe, jsingu, manipulability, nullproj,
                 pose_error, resolve_rates, rpy2tr, transl, trotx, troty, trotz, vellipse, wrench2tau)
from rvc.models import baxter, cobra600, planar2, puma560, puma560_mdh


def qns():
    """The notes' configuration near the wrist singularity: qr with q5 = 5 degrees."""
    q = puma560().qr
    q[4] = np.radians(5)
    return q


# ---------------------------------------------------------------- 8.2.1 singularities

def test_puma_at_qr_has_rank_5_and_q6_depends_on_q4():
    p560 = puma560()
    J = p560.jacob0(p560.qr)
    assert np.linalg.matrix_rank(J) == 5
    assert abs(np.linalg.det(J)) < 1e-15
    d = jsingu(J)
    assert (d.rank, d.dependent, d.independent) == (5, (5,), (0, 1, 2, 3, 4))
    np.testing.assert_allclose(d.coefficients[0], [0, 0, 0, 1, 0, 0], atol=1e-12)
    np.testing.assert_allclose(J[:, 5], J @ d.coefficients[0], atol=1e-12)
    rank, dependent = d                                      # unpacks as MATLAB-ish results
    assert rank == 5 and dependent == (5,)
    assert "q6 depends on: q4" in str(d)


def test_jsingu_finds_every_dependent_column():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(6, 4))
    J = np.column_stack([A[:, 0], A[:, 1], 2 * A[:, 0] - A[:, 1], A[:, 2], np.zeros(6), A[:, 3]])
    d = jsingu(J)
    assert d.rank == 4 and d.dependent == (2, 4)
    np.testing.assert_allclose(d.coefficients[0], [2, -1, 0, 0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(d.coefficients[1], 0, atol=1e-15)
    assert "q5 does not move the tool" in str(d)
    assert jsingu(puma560().jacob0(puma560().qn)).rank == 6


def test_near_the_singularity_the_notes_numbers():
    """8.2.1 at qns: det(J) = -1.5509e-05, cond(J) = 235.2498, huge rates for z, normal ones for wy."""
    J = puma560().jacob0(qns())
    assert np.linalg.det(J) == pytest.approx(-1.5509e-05, rel=1e-4)
    assert np.linalg.cond(J) == pytest.approx(235.2498, rel=1e-6)
    qd = resolve_rates(J, [0, 0, 0.1, 0, 0, 0], "inv")
    np.testing.assert_allclose(qd, [0, -4.9261, 9.8522, 0, -4.9261, 0], atol=1e-4)
    np.testing.assert_allclose(resolve_rates(J, [0, 0, 0, 0, 0.2, 0], "inv"),
                               [0, 0, 0, 0, -0.2, 0], atol=1e-9)


def test_manipulability_at_qn_and_qr():
    """8.2.2, the notes' maniplty: 0.0786 at qn (the published Puma model), 0 at qr."""
    p560 = puma560()
    assert manipulability(p560, p560.qn) == pytest.approx(0.0786, abs=5e-5)
    assert manipulability(p560, p560.qr) == pytest.approx(0, abs=1e-12)


# ---------------------------------------------------------------- joint rates

def test_resolve_rates_methods_agree_where_they_should():
    p560 = puma560()
    J = p560.jacob0(p560.qn)
    v = np.array([0.1, -0.2, 0.05, 0.3, 0.1, -0.2])
    qi = resolve_rates(J, v, "inv")
    np.testing.assert_allclose(J @ qi, v, atol=1e-12)
    np.testing.assert_allclose(resolve_rates(J, v, "pinv"), qi, atol=1e-10)
    np.testing.assert_allclose(resolve_rates(J, v, "dls", damping=1e-10), qi, atol=1e-6)
    # batched, broadcasting one v over many J
    Q = np.random.default_rng(1).uniform(-1, 1, (5, 6))
    JJ = p560.jacob0(Q)
    QD = resolve_rates(JJ, v, "inv")
    assert QD.shape == (5, 6)
    np.testing.assert_allclose(QD[3], resolve_rates(JJ[3], v, "inv"), atol=1e-12)


def test_damping_bounds_the_rates():
    """DLS gains sigma / (sigma^2 + lambda) <= 1 / (2 sqrt(lambda)): bounded however close to singular."""
    p560 = puma560()
    v = np.array([0, 0, 0.1, 0, 0, 0])
    for q5 in np.radians([5, 1, 0.1, 0.01]):
        q = p560.qr
        q[4] = q5
        J = p560.jacob0(q)
        for lam in (1e-4, 1e-2):
            qd = resolve_rates(J, v, "dls", damping=lam)
            assert np.linalg.norm(qd) <= np.linalg.norm(v) / (2 * np.sqrt(lam)) + 1e-12
    # while the inverse blows up like 1 / q5 for a rotation about x, which needs the wrist
    wx = [0, 0, 0, 0.1, 0, 0]
    big = [np.abs(resolve_rates(jacob0(p560, np.r_[p560.qr[:4], q5, 0]), wx, "inv")).max()
           for q5 in np.radians([5, 0.5, 0.05])]
    assert big[1] > 9 * big[0] and big[2] > 9 * big[1]


def test_singular_inverse_warns_and_falls_back_to_pinv():
    p560 = puma560()
    J = p560.jacob0(p560.qr)
    v = np.array([0, 0, 0, 0.1, 0, 0.0])                  # an angular velocity J cannot give
    with pytest.warns(rvc.SingularityWarning, match="only the part of v"):
        qd = resolve_rates(J, v, "inv")
    np.testing.assert_allclose(qd, np.linalg.pinv(J) @ v, atol=1e-12)
    with warnings.catch_warnings():                       # one it can give: no warning
        warnings.simplefilter("error")
        qd = resolve_rates(J, J @ np.arange(6.0), "inv")
    np.testing.assert_allclose(J @ qd, J @ np.arange(6.0), atol=1e-9)


def test_under_actuated_planar_arm():
    """8.4.1: pinv of the 6x2 Jacobian gives the wrong velocity; the 2x2 block Jxy the right one."""
    p2 = planar2()
    J = p2.jacob0([1, 1])
    v = np.array([0.1, 0, 0, 0, 0, 0])
    with pytest.warns(rvc.SingularityWarning):
        qd = resolve_rates(J, v, "pinv")
    assert not np.allclose(J @ qd, v, atol=1e-3)           # xd is not what was asked
    qd = resolve_rates(J[:2], v[:2], "inv")                # the notes' inv(Jxy)
    np.testing.assert_allclose((J @ qd)[:2], [0.1, 0], atol=1e-12)
    np.testing.assert_allclose(qd, np.linalg.solve(J[:2], [0.1, 0]), atol=1e-15)


def test_over_actuated_baxter():
    """8.4.2: J is 6x7 of rank 6, one null-space direction; null-space rates move no part of the tool."""
    left = baxter("left")
    sol = left.ikine(transl(0.8, 0.2, -0.2) @ troty(np.pi))
    J = left.jacob0(sol.q)
    assert J.shape == (6, 7) and np.linalg.matrix_rank(J) == 6
    xd = np.array([0.2, 0.2, 0.2, 0, 0, 0])
    qd = resolve_rates(J, xd)
    np.testing.assert_allclose(J @ qd, xd, atol=1e-12)
    N = null_space(J)
    assert N.shape == (7, 1) and np.linalg.norm(J @ N[:, 0]) < 1e-12
    P = nullproj(J)
    np.testing.assert_allclose(P, N @ np.linalg.pinv(N), atol=1e-12)   # the notes' N * pinv(N)
    qp = P @ np.array([0, 0, 0, 0, 1, 0, 0])
    assert np.linalg.norm(J @ qp) < 1e-9 and abs(qp[4]) > 0.01
    # the minimum-norm solution has no null-space part: qd is orthogonal to N
    assert abs(N[:, 0] @ qd) < 1e-12
    # adding null-space motion keeps the tool velocity
    np.testing.assert_allclose(J @ (qd + qp), xd, atol=1e-12)


def test_null_space_motion_leaves_the_tool_pose_unchanged():
    """Null-space rates move no part of the tool (to 1e-9 per unit rate, at any configuration);
    integrated over finite steps they drift only to second order, which the closed loop
    (rrmc2) holds below 1e-4 and removes once the null motion stops."""
    left = baxter("left")
    Q = np.random.default_rng(9).uniform(-1, 1, (20, 7))
    J = left.jacob0(Q)
    qd0 = np.random.default_rng(10).normal(size=(20, 7))
    v = (J @ nullproj(J) @ qd0[..., None])[..., 0]
    assert np.abs(v).max() < 1e-9
    q0 = left.qn
    T0 = left.fkine(q0)
    r = rvc.rrmc2(left, q0, T0, gain=19, dt=0.05, steps=30, qd_null=[0, 0, 0, 0, 1, 0, 0])
    assert abs(r.q[-1, 4] - q0[4]) > 0.5                     # the joints did move
    assert np.abs(r.e).max() < 1e-4                          # the tool barely did
    settle = rvc.rrmc2(left, r.q[-1], T0, gain=19, dt=0.05, steps=10)
    np.testing.assert_allclose(left.fkine(settle.q[-1]), T0, atol=1e-9)
    assert abs(settle.q[-1, 4] - q0[4]) > 0.5


# ---------------------------------------------------------------- ellipsoids

ROBOTS = {"puma560": puma560, "puma560_mdh": puma560_mdh, "baxter": baxter, "cobra600": cobra600,
          "ets3": lambda: ETS3.Rz() * ETS3.Tx(0.5) * ETS3.Ry() * ETS3.Tz() * ETS3.Rx() * ETS3.Tx(0.2)}


@pytest.mark.parametrize("axes", ["trans", "rot", "all", [1, 1, 0, 0, 0, 1]])
@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_vellipse_radii_are_singular_values_and_their_product_is_yoshikawa(name, axes):
    robot = ROBOTS[name]()
    Q = np.random.default_rng(2).uniform(-1, 1, (4, robot.n))
    E = vellipse(robot, Q, axes)
    rows = rvc.checks.getaxes(axes)
    J = jacob0(robot, Q)[:, rows]
    s = np.linalg.svd(J, compute_uv=False)
    k = rows.size
    sv = np.zeros((4, k))
    sv[:, :s.shape[1]] = s
    np.testing.assert_allclose(E.radii, sv, atol=1e-7)
    np.testing.assert_allclose(E.volume_factor, manipulability(robot, Q, axes=axes), atol=1e-7)
    # every point on the ellipsoid is the image of a unit joint rate: y = J u, |u| = 1
    for i in range(4):
        A = E.axes[i] * E.radii[i]
        y = A @ np.array([0.6, 0.8] + [0.0] * (k - 2))
        u = np.linalg.pinv(J[i]) @ y
        assert np.linalg.norm(u) == pytest.approx(1, abs=1e-6) or E.radii[i, 1] < 1e-9


def test_vellipse_centre_and_planar_arm():
    p2 = planar2()
    q = np.radians([30, 40])
    E = p2.vellipse(q, axes=[1, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(E.centre, p2.fkine(q)[:2, 3], atol=1e-15)
    J = p2.jacob0(q)[:2]
    np.testing.assert_allclose(E.radii, np.linalg.svd(J, compute_uv=False), atol=1e-12)
    assert np.prod(E.radii) == pytest.approx(abs(np.sin(q[1])), abs=1e-12)   # a1 a2 |sin q2|
    np.testing.assert_allclose(vellipse(p2, q, "rot", centre="tool").centre, 0)
    np.testing.assert_allclose(vellipse(p2, q, "trans", centre="origin").centre, 0)
    np.testing.assert_allclose(vellipse(p2, q, "trans", centre=[1, 2, 3]).centre, [1, 2, 3])
    np.testing.assert_allclose(vellipse(p2, np.degrees(q), [1, 1, 0, 0, 0, 0], unit="deg").radii,
                               E.radii, atol=1e-14)
    # an ETS2 arm: the same ellipse, centred at its tool in the plane
    E2 = (ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1)).vellipse(q, axes=[1, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(E2.radii, E.radii, atol=1e-12)
    np.testing.assert_allclose(E2.centre, E.centre, atol=1e-12)


def test_fellipse_is_the_dual_and_unbounded_at_a_singularity():
    p2 = planar2()
    q = [0.3, 1.1]
    V, F = vellipse(p2, q, [1, 1, 0, 0, 0, 0]), fellipse(p2, q, [1, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(F.radii, 1 / V.radii[::-1], atol=1e-12)
    np.testing.assert_allclose(np.abs(F.axes), np.abs(V.axes[:, ::-1]), atol=1e-12)
    # unit joint torques: tau = J^T w with w on the force ellipsoid has |tau| = 1
    J = p2.jacob0(q)[:2]
    w = F.axes[:, 0] * F.radii[0]
    assert np.linalg.norm(J.T @ w) == pytest.approx(1, abs=1e-12)
    with pytest.warns(rvc.SingularityWarning, match="unbounded"):
        Fs = fellipse(p2, [0.3, 0.0], [1, 1, 0, 0, 0, 0])              # arm stretched out
    assert np.isinf(Fs.radii[0]) and np.isfinite(Fs.radii[1])
    assert not np.any(np.isnan(Fs.radii))


def test_batched_ellipsoids():
    p560 = puma560()
    Q = np.random.default_rng(3).uniform(-1, 1, (5, 6))
    E = p560.vellipse(Q)
    assert isinstance(E, Ellipsoid) and E.radii.shape == (5, 3) and E.centre.shape == (5, 3)
    np.testing.assert_allclose(E.radii[2], p560.vellipse(Q[2]).radii, atol=1e-14)
    np.testing.assert_allclose(E.centre, p560.fkine(Q)[:, :3, 3], atol=1e-15)


# ---------------------------------------------------------------- 8.5.1 wrenches

def test_the_notes_wrenches_at_qn():
    """8.5.1: 20 N along world y turns only the waist; 20 N along x loads joints 1-3."""
    p560 = puma560()
    tau_y = wrench2tau(p560, p560.qn, [0, 20, 0, 0, 0, 0])
    np.testing.assert_allclose(tau_y, p560.jacob0(p560.qn).T @ [0, 20, 0, 0, 0, 0], atol=1e-14)
    np.testing.assert_allclose(tau_y[1:], 0, atol=1e-12)
    assert tau_y[0] == pytest.approx(20 * 0.5963, abs=1e-3)        # the lever arm is the reach
    tau_x = wrench2tau(p560, p560.qn, [20, 0, 0, 0, 0, 0])
    assert np.all(np.abs(tau_x[:3]) > 0.1) and np.allclose(tau_x[3:], 0, atol=1e-12)


@pytest.mark.parametrize("frame", ["world", "tool"])
def test_virtual_work(frame):
    """tau . qd = w . v for every joint rate: power in joint space = power at the tool."""
    robot = puma560()
    robot.tool = transl(0.01, 0.02, 0.1) @ trotx(0.3)
    rng = np.random.default_rng(4)
    Q = rng.uniform(-1, 1, (6, 6))
    W = rng.normal(size=(6, 6))
    QD = rng.normal(size=(6, 6))
    tau = wrench2tau(robot, Q, W, frame)
    J = (jacob0 if frame == "world" else jacobe)(robot, Q)
    v = (J @ QD[..., None])[..., 0]
    np.testing.assert_allclose(np.sum(tau * QD, axis=-1), np.sum(W * v, axis=-1), atol=1e-12)
    # the same wrench in world and tool axes gives the same torques
    T = robot.fkine(Q[0])
    R = T[:3, :3]
    w0 = W[0]
    we = np.r_[R.T @ w0[:3], R.T @ w0[3:]]
    np.testing.assert_allclose(wrench2tau(robot, Q[0], we, "tool"), wrench2tau(robot, Q[0], w0), atol=1e-12)


# ---------------------------------------------------------------- pose error

def test_pose_error():
    rng = np.random.default_rng(5)
    T = transl(0.3, -0.2, 0.5) @ rpy2tr(rng.normal(size=3))
    d = rng.normal(size=6) * 0.3
    Ts = T.copy()
    Ts[:3, :3] = rvc.trexp(d[3:]) @ T[:3, :3]                 # rotate about a world axis
    Ts[:3, 3] += d[:3]
    np.testing.assert_allclose(pose_error(T, Ts), d, atol=1e-12)
    e_tool = pose_error(T, Ts, "tool")
    R = T[:3, :3]
    np.testing.assert_allclose(e_tool, np.r_[R.T @ d[:3], R.T @ d[3:]], atol=1e-12)
    np.testing.assert_allclose(pose_error(T, T), 0, atol=1e-15)
    np.testing.assert_allclose(pose_error(np.stack([T, Ts]), Ts)[1], 0, atol=1e-15)
    # a half turn: the exact angle, not the small-angle sin(theta)
    assert pose_error(np.eye(4), trotz(3.0))[5] == pytest.approx(3.0, abs=1e-12)


# ---------------------------------------------------------------- bad input

def test_bad_input():
    p560 = puma560()
    with pytest.raises(ValueError, match="q: expected 6 joint coordinates"):
        vellipse(p560, [0, 0, 0])
    with pytest.raises(ValueError, match="q: expected finite numbers"):
        fellipse(p560, [0, 0, 0, np.nan, 0, 0])
    with pytest.raises(ValueError, match="axes: expected one of 'all', 'trans', 'rot'"):
        vellipse(p560, p560.qn, axes="xyz")
    with pytest.raises(ValueError, match="centre: expected one of 'tool', 'origin'"):
        vellipse(p560, p560.qn, centre="ee")
    with pytest.raises(ValueError, match="method: expected one of 'inv', 'pinv', 'dls', got 'lu'"):
        resolve_rates(np.eye(6), np.ones(6), "lu")
    with pytest.raises(ValueError, match="damping: expected lambda > 0"):
        resolve_rates(np.eye(6), np.ones(6), "dls")
    with pytest.raises(ValueError, match="damping: only method 'dls' uses damping"):
        resolve_rates(np.eye(6), np.ones(6), "pinv", damping=0.1)
    with pytest.raises(ValueError, match="J: method 'inv' needs a square Jacobian"):
        resolve_rates(np.ones((6, 7)), np.ones(6), "inv")
    with pytest.raises(ValueError, match="v: expected 6 components"):
        resolve_rates(np.eye(6), np.ones(3))
    with pytest.raises(ValueError, match="w: expected shape"):
        wrench2tau(p560, p560.qn, [1, 2, 3])
    with pytest.raises(ValueError, match="frame: expected one of 'world', 'tool'"):
        wrench2tau(p560, p560.qn, np.ones(6), "base")
    with pytest.raises(ValueError, match="Tstar"):
        pose_error(np.eye(4), np.ones((4, 4)))
    with pytest.raises(ValueError, match="J: expected one Jacobian"):
        jsingu(np.zeros((2, 6, 6)))


# ---------------------------------------------------------------- the notebook's derivations by hand

def test_symbolic_planar_jacobian_is_jacob0():
    """8.1.1 in the notebook: sympy's d(x, y)/dq of the two-link arm equals jacob0's first rows."""
    import sympy as sp

    q1, q2, a1, a2 = sp.symbols("q1 q2 a1 a2", real=True)
    p = sp.Matrix([a1 * sp.cos(q1) + a2 * sp.cos(q1 + q2), a1 * sp.sin(q1) + a2 * sp.sin(q1 + q2)])
    f = sp.lambdify((q1, q2, a1, a2), p.jacobian([q1, q2]))
    rng = np.random.default_rng(11)
    for _ in range(5):
        q, (l1, l2) = rng.uniform(-3, 3, 2), rng.uniform(0.2, 2, 2)
        np.testing.assert_allclose(planar2(l1, l2).jacob0(q)[:2], np.array(f(*q, l1, l2), dtype=float),
                                   atol=1e-12)


def test_twist_jacobian_by_hand_is_jacob0():
    """8.7.1 in the notebook: the loop of Ad(e^[S1]q1 ... ) S_j and the [I, -[t]x; 0, I] shift."""
    p560 = puma560()
    S, M = p560.twists()
    for q in np.random.default_rng(12).uniform(-2, 2, (4, 6)):
        G = np.eye(4)
        cols = []
        for j in range(6):
            cols.append(rvc.Ad(G) @ S[j])
            G = G @ rvc.trexp(S[j], q[j])
        Jv = np.column_stack(cols)
        te = (G @ M)[:3, 3]
        J = np.block([[np.eye(3), -rvc.skew(te)], [np.zeros((3, 3)), np.eye(3)]]) @ Jv
        np.testing.assert_allclose(J, p560.jacob0(q), atol=1e-12)
        np.testing.assert_allclose(rvc.Ad(rvc.trinv(p560.fkine(q))) @ Jv, p560.jacobe(q), atol=1e-12)


def test_damped_least_squares_formula():
    """8.3.1 in the notebook: J^T (J J^T + lambda I)^-1 v = (J^T J + lambda I)^-1 J^T v,
    gains sigma/(sigma^2+lambda)."""
    J = np.random.default_rng(13).normal(size=(6, 7))
    v = np.random.default_rng(14).normal(size=6)
    lam = 0.05
    qd = resolve_rates(J, v, "dls", damping=lam)
    np.testing.assert_allclose(qd, np.linalg.solve(J.T @ J + lam * np.eye(7), J.T @ v), atol=1e-12)
    U, s, Vt = np.linalg.svd(J, full_matrices=False)
    np.testing.assert_allclose(qd, Vt.T @ (s / (s**2 + lam) * (U.T @ v)), atol=1e-12)


def test_a_direction_below_the_rank_tolerance_is_lost_for_the_rates_and_the_warning_alike():
    """Singular values 1, 1e-12: the rank test calls J singular, so pinv must drop that
    direction too (not give a rate of 1e12) and say that only part of v is achieved."""
    U, _ = np.linalg.qr(np.random.default_rng(3).normal(size=(2, 2)))
    J = U @ np.diag([1.0, 1e-12]) @ U.T
    v = U @ [0.2, 0.1]
    for method in ("inv", "pinv"):
        with pytest.warns(rvc.SingularityWarning, match="only the part of v"):
            qd = rvc.resolve_rates(J, v, method)
        np.testing.assert_allclose(qd, U @ [0.2, 0.0], atol=1e-12)
    np.testing.assert_allclose(rvc.nullproj(J), np.outer(U[:, 1], U[:, 1]), atol=1e-12)
    # just above the tolerance the direction is kept: the rate is large, v is met, no warning
    J = U @ np.diag([1.0, 1e-8]) @ U.T
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        qd = rvc.resolve_rates(J, v, "pinv")
    np.testing.assert_allclose(J @ qd, v, atol=1e-12)
    np.testing.assert_allclose(rvc.nullproj(J), np.zeros((2, 2)), atol=1e-7)
