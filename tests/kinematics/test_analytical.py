"""Analytical Jacobians (8.1.3): jacob0(q, analytical=...) against finite differences of the angles."""

import warnings

import numpy as np
import pytest

import rvc
from rvc import (ANALYTICAL, DHRobot, ETS3, PrismaticDH, RevoluteDH, exp2jac, jacob0, jacob_analytical,
                 rpy2tr, tr2eul, tr2rpy, transl, trexp, trlog, trotx)
from rvc.models import baxter, puma560, puma560_mdh
from support import derivative


def angles(T, analytical):
    R = T[..., :3, :3]
    if analytical == "exp":
        return trlog(R, twist=True)
    if analytical == "eul":
        return tr2eul(R)
    return tr2rpy(R, order=analytical[4:])


def ets_arm():
    return (ETS3.Tz(0.3) * ETS3.Rz() * ETS3.Ry() * ETS3.Tx(0.4) * ETS3.Tz()
            * ETS3.Rx() * ETS3.Ty(0.1) * ETS3.Rz())


def prismatic_dh():
    r = DHRobot([RevoluteDH(d=0.3, alpha=np.pi / 2), PrismaticDH(theta=np.pi / 2, alpha=-np.pi / 2),
                 RevoluteDH(a=0.4, alpha=0.3), RevoluteDH(alpha=np.pi / 3)])
    r.base = transl(0.1, 0.2, 0.3) @ rpy2tr(0.2, -0.1, 0.4)
    r.tool = transl(0, 0, 0.1) @ trotx(0.5)
    return r


ROBOTS = {"puma560": puma560, "puma560_mdh": puma560_mdh, "baxter": baxter,
          "ets": ets_arm, "prismatic_dh+base+tool": prismatic_dh}


@pytest.mark.parametrize("analytical", ANALYTICAL)
@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_angle_rates_are_the_derivative_of_the_angles(name, analytical):
    robot = ROBOTS[name]()
    Q = np.random.default_rng(7).uniform(-1.2, 1.2, (3, robot.n))
    Ja = jacob0(robot, Q, analytical)
    J = jacob0(robot, Q)
    for k, q in enumerate(Q):
        num = np.column_stack([derivative(lambda x: angles(robot.fkine(x), analytical), q, e)
                               for e in np.eye(robot.n)])
        np.testing.assert_allclose(Ja[k, 3:], num, atol=1e-7)
        np.testing.assert_array_equal(Ja[k, :3], J[k, :3])        # translational rows untouched


def test_the_notes_rpy_xyz_rate_matrix():
    """8.1.3: omega = A(Gamma) Gamma_dot with A = [[s_p, 0, 1], [-c_p s_y, c_y, 0], [c_p c_y, s_y, 0]]."""
    r, p, y = 0.1, 0.2, 0.3                      # the notes' rpy2jac(0.1, 0.2, 0.3)
    A = np.array([[np.sin(p), 0, 1],
                  [-np.cos(p) * np.sin(y), np.cos(y), 0],
                  [np.cos(p) * np.cos(y), np.sin(y), 0]])
    np.testing.assert_allclose(rvc.rpy2jac([r, p, y], order="xyz"), A, atol=1e-15)
    # and the analytical Jacobian divides the angular rows by it
    J = np.random.default_rng(1).normal(size=(6, 4))
    T = rpy2tr([r, p, y], order="xyz")
    np.testing.assert_allclose(A @ jacob_analytical(J, T, "rpy/xyz")[3:], J[3:], atol=1e-12)


def test_exp2jac_is_the_rate_matrix():
    """omega from the derivative of exp([phi]): [omega]x = dR/dt R^T."""
    rng = np.random.default_rng(2)
    for phi in [rng.normal(size=3), [0.0, 0.0, 0.0], [1e-6, 0, 2e-6], [0, 3.1, 0]]:
        phi = np.asarray(phi, dtype=float)
        phid = rng.normal(size=3)
        dR = derivative(trexp, phi, phid)
        W = dR @ trexp(phi).T
        np.testing.assert_allclose(exp2jac(phi) @ phid, rvc.vex((W - W.T) / 2), atol=1e-8)
    assert exp2jac(np.zeros((4, 3))).shape == (4, 3, 3)


def _exp2jac_exact(phi):
    """A(phi) = I + a [phi]x + b [phi]x^2 with a, b in 50-digit arithmetic, rounded once."""
    import mpmath
    with mpmath.workdps(50):
        t = mpmath.sqrt(sum(mpmath.mpf(float(x)) ** 2 for x in phi))
        a = (1 - mpmath.cos(t)) / t ** 2
        b = (t - mpmath.sin(t)) / t ** 3
        K = mpmath.matrix([[0, -phi[2], phi[1]], [phi[2], 0, -phi[0]], [-phi[1], phi[0], 0]])
        A = mpmath.eye(3) + a * K + b * K * K
        return np.array(A.tolist(), dtype=float)


@pytest.mark.parametrize("theta", [1e-7, 0.5e-4, 1e-4 * (1 - 1e-9), 1e-4 * (1 + 1e-9), 2e-4, 1e-3,
                                   1e-2, 0.3, 2.0, 3.1])
def test_exp2jac_is_exact_on_both_sides_of_its_series_switch(theta):
    """Accuracy at the switch point (issue 20, list item 1): the series below |phi| = 1e-4 and the
    closed form above it both give A(phi) to a few ulp of a 50-digit reference, so neither a slip in
    the series nor the cancellation in 1 - cos(theta) just above the switch goes unseen."""
    axis = np.array([0.36, -0.48, 0.8])
    phi = theta * axis
    np.testing.assert_allclose(exp2jac(phi), _exp2jac_exact(phi), rtol=0, atol=4 * np.finfo(float).eps)
    # a batch gives exactly the single answers
    batch = np.stack([phi, -phi, 0.5 * phi])
    np.testing.assert_array_equal(exp2jac(batch), np.stack([exp2jac(p) for p in batch]))


def test_batched_and_degrees():
    p560 = puma560()
    Q = np.random.default_rng(3).uniform(-1, 1, (4, 6))
    Ja = jacob0(p560, Q, "eul")
    np.testing.assert_allclose(Ja[2], jacob0(p560, Q[2], "eul"), atol=1e-15)
    np.testing.assert_allclose(jacob0(p560, np.degrees(Q), "rpy/zyx", unit="deg"),
                               jacob0(p560, Q, "rpy/zyx"), atol=1e-13)
    np.testing.assert_allclose(p560.jacob0(Q[0], "exp"), jacob0(p560, Q[0], "exp"), atol=0)


def test_gimbal_lock_warns_and_returns_minimum_norm_rates():
    """At pitch = 90 deg the rpy/zyx rate matrix is singular: a warning, finite rows, no NaN."""
    robot = ETS3.Ry(np.pi / 2) * ETS3.Rx() * ETS3.Ry() * ETS3.Rz()
    q = np.zeros(3)
    with pytest.warns(rvc.SingularityWarning, match="tr2rpy: pitch is"):
        rpy = tr2rpy(robot.fkine(q))
    assert abs(rpy[1] - np.pi / 2) < 1e-12
    with pytest.warns(rvc.SingularityWarning, match="gimbal lock") as rec:
        Ja = jacob0(robot, q, "rpy/zyx")
    assert len(rec) == 1                                    # one warning, not one per helper
    assert np.all(np.isfinite(Ja))
    A = rvc.rpy2jac(rpy)
    np.testing.assert_allclose(Ja[3:], np.linalg.pinv(A) @ jacob0(robot, q)[3:], atol=1e-12)
    with warnings.catch_warnings():                         # exponential coordinates: no singularity
        warnings.simplefilter("error")
        jacob0(robot, q, "exp")


def test_bad_analytical():
    p560 = puma560()
    with pytest.raises(ValueError, match="analytical: expected one of 'rpy/xyz', 'rpy/zyx', 'eul', "
                                         "'exp', got 'rpy'"):
        jacob0(p560, p560.qn, "rpy")
    with pytest.raises(ValueError, match="J: expected a Jacobian of shape"):
        jacob_analytical(np.zeros((3, 2)), np.eye(4))
    with pytest.raises(ValueError, match="T"):
        jacob_analytical(np.zeros((6, 2)), np.ones((4, 4)))
    with pytest.raises(ValueError, match="q: expected 6 joint coordinates"):
        jacob0(p560, [0, 0], "eul")
