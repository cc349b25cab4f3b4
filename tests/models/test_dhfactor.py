"""Tests of rvc.models.dhfactor: ETS string -> standard DH + base + tool."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rvc.models.dhfactor import DHFactor
from rvc.models.ets import ETS2

PUMA_S = "Tz(L1) Rz(q1) Ry(q2) Ty(L2) Tz(L3) Ry(q3) Tx(L4) Ty(L5) Tz(L6) Rz(q4) Ry(q5) Rz(q6)"
PUMA_L = dict(L1=0.3, L2=-0.2337, L3=0.4318, L4=0.0203, L5=0.0837, L6=0.4318)
LEG_S = "Rz(q1) Rx(q2) Ty(L1) Rx(q3) Tz(L2)"


def _roundtrip(dh, seed=0, N=40, atol=1e-12):
    Q = np.random.default_rng(seed).uniform(-np.pi, np.pi, (N, dh.n))
    np.testing.assert_allclose(dh.robot().fkine(Q), dh.ets.fkine(Q), atol=atol)


def test_puma_string():
    dh = DHFactor(PUMA_S, **PUMA_L)
    assert dh.n == 6 and dh.structure == "RRRRRR" and dh.dh.shape == (6, 4)
    _roundtrip(dh)
    np.testing.assert_allclose(dh.base, np.eye(4))  # Tz(L1) goes into d1
    assert dh.dh[0, 1] == pytest.approx(0.3)
    assert str(dh).startswith("DHFactor: Tz(L1)")
    # the generated command builds the same robot
    from rvc import DHRobot, PrismaticDH, RevoluteDH  # noqa: F401
    robot = eval(dh.command("puma"))
    np.testing.assert_allclose(robot.fkine(np.full(6, 0.3)), dh.robot().fkine(np.full(6, 0.3)))


def test_leg_string():
    dh = DHFactor(LEG_S, L1=0.1, L2=0.1)
    _roundtrip(dh)
    np.testing.assert_allclose(dh.dh, [[np.pi / 2, 0, 0, np.pi / 2], [0, 0, 0.1, 0],
                                       [-np.pi / 2, 0, -0.1, 0]], atol=1e-15)
    assert not np.allclose(dh.tool, np.eye(4))          # the foot's orientation
    np.testing.assert_allclose(dh.tool[:3, 3], 0, atol=1e-15)


@pytest.mark.parametrize("s", [
    "Rz(q1) Tx(1) Rz(q2) Tx(1)",
    "Rz(q1) Tx(1) Tx(q2)",
    "Rz(q1) Tx(1) Rz(q2) Tx(0.5) Rz(q3) Tx(0.2)",
    "Tx(0.3) Ty(0.1) Rz(q1) Ty(0.4) Rz(q2) Tx(1)",
    "Rz(q1) Tz(q2) Tx(0.2) Ry(0.3) Tx(q3)",
    "Rx(q1) Ty(0.2) Rz(0.4) Tx(0.1) Ry(q2) Ty(q3) Rz(q4)",
])
def test_simple_strings(s):
    _roundtrip(DHFactor(s))


def test_ets_input_and_planar():
    E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1)
    dh = DHFactor(E)
    np.testing.assert_allclose(dh.dh, [[0, 0, 1, 0], [0, 0, 1, 0]], atol=1e-15)
    np.testing.assert_allclose(dh.tool, np.eye(4), atol=1e-15)


_AXES = ["Rx", "Ry", "Rz", "Tx", "Ty", "Tz"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_AXES), st.booleans(),
                          st.floats(-2, 2).filter(lambda v: abs(v) > 1e-6)),
                min_size=1, max_size=10),
       st.integers(0, 1000))
def test_random_sequences_roundtrip(terms, seed):
    parts = []
    j = 0
    for axis, isjoint, v in terms:
        if isjoint:
            j += 1
            parts.append(f"{axis}(q{j})")
        else:
            parts.append(f"{axis}({v!r})")
    if j == 0:
        parts.append("Rz(q1)")
    _roundtrip(DHFactor(" ".join(parts)), seed, N=8, atol=1e-10)


def test_tiny_constants_stay_exact():
    _roundtrip(DHFactor("Rx(7.2e-12) Rz(q1)"))
    _roundtrip(DHFactor("Rz(q1) Rx(1e-11) Tx(0.3) Rz(q2)"), atol=1e-9)


def test_unfactorable_strings_name_the_term():
    with pytest.raises(ValueError, match=r"Rz\(2\*q2\)"):
        DHFactor("Rz(q1) Tx(1) Rz(2*q2)")
    with pytest.raises(ValueError, match=r"Rz\(q1\).*appears twice"):
        DHFactor("Rz(q1) Tx(1) Rz(q1)")
    with pytest.raises(ValueError, match=r"Tz\(L1\)"):
        DHFactor("Tz(L1) Rz(q1)")
    with pytest.raises(ValueError, match="joint variable"):
        DHFactor("Tz(1) Rx(0.2)")
    with pytest.raises(TypeError):
        DHFactor(3)
