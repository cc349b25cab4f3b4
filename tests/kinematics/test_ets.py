"""Tests of rvc.models.ets: elementary transform sequences (Chapter 7.1)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from rvc.models.ets import ET, ETS2, ETS3

PUMA_S = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"
PUMA_L = dict(L1=0, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)


def test_planar_two_link_closed_form():
    a1, a2 = 1.0, 1.0
    E = ETS2.Rz("q1") * ETS2.Tx(a1) * ETS2.Rz("q2") * ETS2.Tx(a2)
    q1, q2 = np.deg2rad([30, 40])
    T = E.fkine([30, 40], unit="deg")
    assert T.shape == (3, 3)
    np.testing.assert_allclose(T[:2, 2], [a1 * np.cos(q1) + a2 * np.cos(q1 + q2),
                                          a1 * np.sin(q1) + a2 * np.sin(q1 + q2)])
    assert E.structure == "RR" and E.n == 2
    assert str(E) == "Rz(q1) ⊕ Tx(1) ⊕ Rz(q2) ⊕ Tx(1)"


def test_structure_rp_and_prismatic():
    E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Tx("q2")
    assert E.structure == "RP"
    # degrees apply only to the revolute joint
    np.testing.assert_allclose(E.fkine([90, 0.5], unit="deg")[:2, 2], [0, 1.5], atol=1e-12)


def test_notes_puma_string_at_zero():
    E3 = ETS3.from_string(PUMA_S, **PUMA_L)
    assert E3.n == 6 and E3.structure == "RRRRRR"
    T = E3.fkine(np.zeros(6))
    np.testing.assert_allclose(T[:3, :3], np.eye(3))
    np.testing.assert_allclose(T[:3, 3], [0.0203, -0.15, 0.8636], atol=1e-12)
    assert str(E3) == PUMA_S.replace(" ", " ⊕ ").replace("⊕ ⊕", "⊕")


def test_composition_equals_string():
    L = PUMA_L
    E = (ETS3.Tz(L["L1"]) * ETS3.Rz() * ETS3.Ry() * ETS3.Ty(L["L2"]) * ETS3.Tz(L["L3"])
         * ETS3.Ry() * ETS3.Tx(L["L4"]) * ETS3.Ty(L["L5"]) * ETS3.Tz(L["L6"])
         * ETS3.Rz() * ETS3.Ry() * ETS3.Rz())
    q = np.random.default_rng(1).uniform(-np.pi, np.pi, (7, 6))
    np.testing.assert_allclose(E.fkine(q), ETS3.from_string(PUMA_S, **PUMA_L).fkine(q))


def test_elementary_terms():
    c, s = np.cos(0.3), np.sin(0.3)
    np.testing.assert_allclose(ETS3.Rx(0.3).fkine()[1:3, 1:3], [[c, -s], [s, c]])
    np.testing.assert_allclose(ETS3.Ry(0.3).fkine()[[0, 2]][:, [0, 2]], [[c, s], [-s, c]])
    np.testing.assert_allclose(ETS3.Rz("q").fkine([0.3])[:2, :2], [[c, -s], [s, c]])
    for ax, k in (("Tx", 0), ("Ty", 1), ("Tz", 2)):
        T = getattr(ETS3, ax)().fkine([0.7])
        assert T[k, 3] == pytest.approx(0.7)
    np.testing.assert_allclose(ETS3.Rz(90, unit="deg").fkine()[:2, :2], [[0, -1], [1, 0]],
                               atol=1e-15)


def test_string_expressions_and_units():
    E = ETS3.from_string("Rz(pi/2) Tx(2*L) Rz(q1)", L=0.5)
    np.testing.assert_allclose(E.fkine([0])[:3, 3], [0, 1, 0], atol=1e-15)
    E = ETS3.from_string("Rz(90) * Tx(1) * Rz(q1)", unit="deg")
    np.testing.assert_allclose(E.fkine([0])[:3, 3], [0, 1, 0], atol=1e-15)


@settings(max_examples=25, deadline=None)
@given(arrays(float, (5, 3), elements=st.floats(-4, 4)))
def test_batched_equals_per_configuration(Q):
    E = ETS3.from_string("Rz(q1) Rx(q2) Ty(0.1) Tx(q3) Tz(0.2)")
    T = E.fkine(Q)
    assert T.shape == (5, 4, 4)
    for k in range(5):
        np.testing.assert_allclose(T[k], E.fkine(Q[k]), atol=1e-12)


def test_bad_input():
    E = ETS3.Rz() * ETS3.Tx(1) * ETS3.Rz()
    with pytest.raises(ValueError, match=r"q: expected 2 joint coordinates.*got shape \(3,\)"):
        E.fkine([1, 2, 3])
    with pytest.raises(ValueError, match="no value for the constant 'L1'"):
        ETS3.from_string("Tz(L1) Rz(q1)")
    with pytest.raises(ValueError, match=r"Rw\(q1\)|cannot read"):
        ETS3.from_string("Rw(q1) Tx(1)")
    with pytest.raises(ValueError, match=r"Rx\(q1\).*ETS2"):
        ETS2.from_string("Rx(q1)")
    with pytest.raises(ValueError, match="appears twice"):
        ETS3.from_string("Rz(q1) Tx(1) Rz(q1)")
    with pytest.raises(ValueError, match="whole argument"):
        ETS3.from_string("Rz(q1 + 1)")
    with pytest.raises(TypeError):
        ETS3.Rz() * ETS2.Rz()
    with pytest.raises(ValueError, match="unit"):
        E.fkine([0, 0], unit="degrees")


def test_terms_are_data():
    E = ETS3.from_string("Tz(L1) Rz(q1)", L1=0.5)
    assert E.terms == (ET("Tz", 0.5, None, "L1"), ET("Rz", None, 0, "q1"))
    assert len(E) == 2 and E[1].structure == "R"


def test_fkine_all_ends_at_fkine_and_places_each_joint():
    """fkine_all: origin first, fkine(q) last, joint j's frame is the prefix before its term."""
    E = ETS3.from_string("Tz(0.3) Rz(q1) Ry(q2) Ty(-0.2) Tz(0.4) Ry(q3) Tx(0.1) Tz(q4)")
    Q = np.random.default_rng(3).uniform(-1, 1, (7, 4))
    F = E.fkine_all(Q)
    assert F.shape == (7, 6, 4, 4)
    np.testing.assert_allclose(F[:, 0], np.broadcast_to(np.eye(4), (7, 4, 4)))
    np.testing.assert_allclose(F[:, -1], E.fkine(Q), atol=1e-12)
    # joint 3 (Ry(q3)) sits where the prefix "Tz Rz Ry Ty Tz" puts it
    prefix = E[:5]
    np.testing.assert_allclose(F[:, 3], prefix.fkine(Q[:, :2]), atol=1e-12)


def test_slips_building_a_sequence_get_a_clear_error():
    with pytest.raises(TypeError, match=r"terms: .*string 'Rz\(q1\) Tx\(1\)'.*from_string"):
        ETS3("Rz(q1) Tx(1)")
    with pytest.raises(TypeError, match=r"terms: expected ET terms .* got \('Rz',\)"):
        ETS3([("Rz",)])
    E = ETS3.Rz() * ETS3.Tx(1)
    with pytest.raises(AttributeError, match="no base of its own.*first constant terms"):
        E.base = np.eye(4)
    with pytest.raises(AttributeError, match="no tool of its own.*last constant terms"):
        E.tool = np.eye(4)
    np.testing.assert_array_equal(E.base, np.eye(4))
