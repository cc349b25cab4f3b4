"""Issue 20: one rule for physical parameters (rvc.checks.getphysical), in every model."""

import numpy as np
import pytest

import rvc
from rvc.checks import getcoulomb, getphysical
from rvc.dynamics.actuator import Motor, jointdynamics, ploop, sea, vloop
from rvc.models.link import Link, PrismaticDH, RevoluteDH, RevoluteMDH
from rvc.parallel.fivebar import FiveBar
from rvc.parallel.planar_chain import PlanarChain


def test_getphysical_rules():
    assert getphysical(0, "m", "mass", nonnegative=True) == 0.0
    assert getphysical(-2, "G", "gear ratio", nonzero=True) == -2.0
    assert getphysical(3, "L", "length", positive=True) == 3.0
    np.testing.assert_array_equal(getphysical(2, "m", nonnegative=True, n=3), [2.0, 2.0, 2.0])
    with pytest.raises(ValueError, match=r"^L: expected a positive length, got 0.0$"):
        getphysical(0, "L", "length", positive=True)
    with pytest.raises(ValueError, match=r"^m: expected a non-negative mass, got -1e-09$"):
        getphysical(-1e-9, "m", "mass", nonnegative=True)
    with pytest.raises(ValueError, match=r"^G: expected a non-zero gear ratio, got 0.0$"):
        getphysical(0.0, "G", "gear ratio", nonzero=True)
    with pytest.raises(ValueError, match=r"^m: expected non-negative values, got \[1.0, -1.0\]$"):
        getphysical([1, -1], "m", nonnegative=True, n=2)
    with pytest.raises(TypeError, match="m: expected a mass .*got None"):
        getphysical(None, "m", "mass", nonnegative=True)
    with pytest.raises(TypeError, match="m: expected a number"):
        getphysical("heavy", "m", "mass", nonnegative=True)
    with pytest.raises(ValueError, match="m: expected finite"):
        getphysical(np.nan, "m", "mass", nonnegative=True)


def test_getcoulomb_sign_rule():
    np.testing.assert_array_equal(getcoulomb(0.2), [0.2, -0.2])
    np.testing.assert_array_equal(getcoulomb([0.1, -0.3]), [0.1, -0.3])
    for bad in ([-0.1, -0.1], [0.1, 0.1], -0.2):
        with pytest.raises(ValueError, match=r"^Tc: expected .*Coulomb friction.*got"):
            getcoulomb(bad)


@pytest.mark.parametrize("factory", [Link, RevoluteDH, PrismaticDH, RevoluteMDH])
@pytest.mark.parametrize("key, value, what", [
    ("m", -5.0, "m: expected a non-negative mass, got -5.0"),
    ("Jm", -2e-4, "Jm: expected a non-negative motor inertia, got -0.0002"),
    ("B", -1e-3, "B: expected a non-negative viscous friction, got -0.001"),
    ("G", 0.0, "G: expected a non-zero gear ratio, got 0.0"),
    ("Tc", [-0.1, 0.1], "Tc: expected Coulomb friction"),
    ("Tc", -0.1, "Tc: expected a non-negative Coulomb friction"),
    ("I", [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], "I: expected a symmetric inertia tensor"),
    ("I", [1, -2, 3], "I: expected a positive semi-definite"),
])
def test_a_link_refuses_the_impossible_at_construction_and_on_assignment(factory, key, value, what):
    with pytest.raises(ValueError) as info:
        factory(**{key: value})
    assert str(info.value).startswith(what)
    link = factory(m=1.0, Jm=1e-4, B=1e-3, G=10.0, Tc=[0.1, -0.1])
    before = {k: np.copy(getattr(link, k)) for k in ("m", "Jm", "B", "G", "Tc", "I")}
    with pytest.raises(ValueError) as info:
        setattr(link, key, value)
    assert str(info.value).startswith(what)
    for k, v in before.items():                      # the refused value was not stored
        np.testing.assert_array_equal(getattr(link, k), v)


def test_a_negative_gear_ratio_is_allowed_and_a_link_still_takes_valid_values():
    link = RevoluteDH(G=-62.6)
    assert link.G == -62.6
    link.m = 0
    link.Tc = 0.3
    np.testing.assert_array_equal(link.Tc, [0.3, -0.3])


def test_a_robot_link_assigned_a_negative_mass_is_refused_before_gravload():
    p560 = rvc.models.puma560()
    with pytest.raises(ValueError, match="m: expected a non-negative mass"):
        p560.links[1].m = -17.4
    assert p560.links[1].m == 17.4
    with pytest.raises(ValueError, match="G: expected a non-zero gear ratio"):
        p560.links[2].G = 0
    jd = jointdynamics(p560, p560.qn)
    assert np.all(np.isfinite(jd.J)) and np.all(np.isfinite(jd.B))


GOOD = dict(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)


@pytest.mark.parametrize("key, value, what", [
    ("Km", 0.0, "Km: expected a positive torque constant, got 0.0"),
    ("Jm", -200e-6, "Jm: expected a non-negative rotor inertia"),
    ("B", -1.0, "B: expected a non-negative viscous friction, got -1.0"),
    ("G", 0, "G: expected a non-zero gear ratio, got 0.0"),
    ("Ka", -1.0, "Ka: expected a positive amplifier gain"),
    ("tau_max", 0.0, "tau_max: expected a positive torque limit"),
    ("qd_max", -3.0, "qd_max: expected a positive speed limit"),
    ("Tc", (-0.1, 0.1), "Tc: expected Coulomb friction"),
    ("Jm", np.nan, "Jm: expected finite"),
])
def test_motor_refuses_the_impossible(key, value, what):
    with pytest.raises(ValueError) as info:
        Motor(**{**GOOD, key: value})
    assert str(info.value).startswith(what)


def test_motor_refuses_a_wrong_type_naming_the_argument():
    with pytest.raises(TypeError, match="Jm: expected a number"):
        Motor(**{**GOOD, "Jm": "small"})
    with pytest.raises(TypeError, match="Km: expected a torque constant .*got None"):
        Motor(**{**GOOD, "Km": None})
    t = np.arange(0, 0.1, 1e-3)
    with pytest.raises(TypeError, match="motor: expected a Motor.*got str"):
        vloop("puma", 1.0, t, Kv=0.6)
    with pytest.raises(TypeError, match="motor: expected a Motor.*got dict"):
        ploop(GOOD, 0.5, t, Kp=20, Kv=0.6)


def test_a_valid_motor_keeps_its_values():
    m = Motor(**GOOD, Tc=(0.126, -0.071))
    assert (m.Km, m.Jm, m.B, m.G, m.tau_max, m.qd_max) == (0.228, 200e-6, 817e-6, 107.815, 0.9, np.inf)
    assert m.Tc == (0.126, -0.071)
    assert Motor(Km=1.0, Jm=0.0, B=0.0, G=-5.0).G == -5.0


@pytest.mark.parametrize("key, value, what", [
    ("m_motor", 0.0, "m_motor: expected a positive mass"),
    ("m_load", -0.5, "m_load: expected a positive mass"),
    ("b_motor", -1.0, "b_motor: expected a non-negative damping"),
    ("b", -1.0, "b: expected a non-negative spring damping"),
    ("k", 0.0, "k: expected a positive spring stiffness"),
])
def test_sea_refuses_impossible_parameters(key, value, what):
    kw = {"k": 1000.0, key: value}
    with pytest.raises(ValueError) as info:
        sea(np.arange(0, 0.1, 1e-3), 0.1, **kw)
    assert str(info.value).startswith(what)


@pytest.mark.parametrize("key, value, what", [
    ("m1", -0.5, "m1: expected a non-negative mass, got -0.5"),
    ("L2", 0.0, "L2: expected a positive length, got 0.0"),
    ("Jr", -1e-4, "Jr: expected a non-negative rotor inertia"),
    ("K", -1.0, "K: expected a non-negative stiffness"),
])
def test_the_five_bar_uses_the_same_rule(key, value, what):
    with pytest.raises(ValueError) as info:
        FiveBar(**{key: value})
    assert str(info.value).startswith(what)


def test_planar_chain_uses_the_same_rule():
    with pytest.raises(ValueError, match=r"^masses: expected non-negative values, got \[1.0, -1.0\]"):
        PlanarChain([0.5, 0.5], [1.0, -1.0])
    with pytest.raises(ValueError, match=r"^tip_mass: expected a non-negative mass, got -1.0"):
        PlanarChain([0.5, 0.5], [1.0, 1.0], tip_mass=-1)
    with pytest.raises(ValueError, match=r"^rotor: expected non-negative values"):
        PlanarChain([0.5, 0.5], [1.0, 1.0], rotor=-1e-4)
