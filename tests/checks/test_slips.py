"""Issue 20: ordinary slips get an error that names the argument the caller passed."""

import numpy as np
import pytest

import rvc
from rvc.checks import getarray, getint, getq, getscalar, getvector
from rvc.dynamics.control import computed_torque_law, pd_law, simulate
from rvc.dynamics.fdyn import fdyn
from rvc.kinematics.rrmc import rrmc
from rvc.models import puma560, twolink
from rvc.motion.trajectory import jtraj
from rvc.parallel import FiveBar
from rvc.parallel.simulation import rigid_plan, simulate_closed, simulate_move


def raises(kind, name, call, *args, **kw):
    """``call`` raises ``kind`` whose message starts with the argument's ``name``."""
    with pytest.raises(kind) as info:
        call(*args, **kw)
    message = str(info.value)
    assert message.startswith(f"{name}: expected"), message
    return message


# ---- the checks layer: None, complex, ragged, whole numbers -----------------------------------

@pytest.mark.parametrize("getter", [lambda v: getarray(v, "q"), lambda v: getvector(v, "q"),
                                    lambda v: getscalar(v, "q"), lambda v: getq(v, 2, name="q")])
def test_none_is_reported_as_none_not_nan(getter):
    message = raises(TypeError, "q", getter, None)
    assert "got None" in message and "NaN" not in message


def test_none_inside_a_list_is_reported_with_its_index():
    message = raises(TypeError, "q", getarray, [0.1, None, 0.3], "q")
    assert "None at index (1,)" in message


def test_complex_numbers_are_refused_not_truncated():
    message = raises(TypeError, "q", getarray, np.array([1 + 2j, 0]), "q")
    assert "complex" in message
    raises(TypeError, "q", getarray, [0.5j, 0.0], "q")
    raises(TypeError, "d", getscalar, 1 + 0j, "d")


def test_a_ragged_list_gets_a_plain_hint():
    message = raises(TypeError, "q", getarray, [[1, 2], [3]], "q")
    assert "rows of different lengths" in message


def test_whole_numbers():
    assert getint(4, "steps") == 4 and getint(np.int64(4), "steps") == 4 and getint(4.0, "steps") == 4
    raises(ValueError, "steps", getint, 2.7, "steps")
    raises(ValueError, "steps", getint, 0, "steps", 1)
    raises(TypeError, "steps", getint, True, "steps")
    raises(TypeError, "steps", getint, None, "steps")
    raises(TypeError, "steps", getint, "10", "steps")


def test_arrays_and_inputs_are_not_modified():
    q = np.array([0.1, 0.2])
    out = getarray(q, "q")
    assert out is q or np.shares_memory(out, q) or np.array_equal(out, q)
    q_list = [1, 2]
    getarray(q_list, "q")
    assert q_list == [1, 2]


# ---- the sites -------------------------------------------------------------------------------

def test_kinematics_refuse_none_and_complex_q():
    p = puma560()
    raises(TypeError, "q", p.fkine, None)
    raises(TypeError, "q", p.fkine, p.qn + 0.1j)
    raises(TypeError, "q", rvc.jacob0, p, [0, 0, None, 0, 0, 0])


def test_rrmc_steps_must_be_whole():
    p = puma560()
    raises(ValueError, "steps", rrmc, p, p.qn, np.zeros(6), dt=0.05, steps=2.7)
    assert len(rrmc(p, p.qn, np.zeros(6), dt=0.05, steps=3.0).q) == len(
        rrmc(p, p.qn, np.zeros(6), dt=0.05, steps=3).q)


def test_control_laws_refuse_an_array_where_a_trajectory_goes():
    p = puma560()
    traj = jtraj(p.qz, p.qr, np.linspace(0, 1, 11))
    for law in (pd_law, computed_torque_law):
        message = raises(TypeError, "traj", law, p, traj.q, 100, 20)
        assert "Trajectory" in message and "ndarray" in message and "not one of its arrays" in message


def test_simulate_refuses_a_law_that_is_not_a_function():
    p = twolink()
    message = raises(TypeError, "law", simulate, p, "computed_torque", p.qz, T=0.1, dt=0.05)
    assert "'computed_torque'" in message and "law(t, q, qd)" in message
    raises(TypeError, "contact", simulate, p, lambda t, q, qd: np.zeros(2), p.qz, T=0.1, dt=0.05,
           contact=0.3)


@pytest.mark.parametrize("kw, name, kind", [
    ({"npoints": 0}, "npoints", ValueError), ({"npoints": 1}, "npoints", ValueError),
    ({"npoints": 10.5}, "npoints", ValueError), ({"npoints": None}, "npoints", TypeError),
    ({"method": "rk4"}, "method", ValueError), ({"method": 45}, "method", ValueError),
    ({"rtol": -1e-6}, "rtol", ValueError), ({"atol": 0.0}, "atol", ValueError),
    ({"rtol": "tight"}, "rtol", TypeError),
])
def test_fdyn_options_are_checked_before_scipy(kw, name, kind):
    raises(kind, name, fdyn, twolink(), 0.1, [0, 0], **kw)


def test_fdyn_whole_valued_npoints_still_works():
    assert len(fdyn(twolink(), 0.1, [0, 0], npoints=3.0).t) == 3


@pytest.fixture(scope="module")
def fivebar():
    return FiveBar()


@pytest.mark.parametrize("kw, name", [({"dt": 0}, "dt"), ({"dt": -0.01}, "dt"),
                                      ({"t_end": -1.0}, "t_end"), ({"t_end": 0.0}, "t_end"),
                                      ({"rate": 0}, "rate"), ({"method": "euler"}, "method"),
                                      ({"rtol": -1e-4}, "rtol"), ({"kp": -10.0}, "kp"),
                                      ({"kd": -1.0}, "kd")])
def test_simulate_move_names_the_bad_setting(fivebar, kw, name):
    raises(ValueError, name, simulate_move, fivebar, (0.0, 0.40), (0.05, 0.38), 0.2, **kw)


def test_the_plan_blames_the_point_the_caller_typed(fivebar):
    t = np.linspace(0, 0.5, 6)
    raises(ValueError, "x1", rigid_plan, fivebar, (0.0, 0.40), (0.0, 0.90), 0.5, t)
    raises(ValueError, "x0", rigid_plan, fivebar, (0.0, 0.90), (0.0, 0.40), 0.5, t)
    raises(ValueError, "x0", rigid_plan, fivebar, (0.0, 0.40, 0.0), (0.0, 0.40), 0.5, t)
    raises(ValueError, "x1", rigid_plan, fivebar, (0.0, 0.40), (0.0, 0.40, 0.0), 0.5, t)
    raises(ValueError, "x1", simulate_move, fivebar, (0.0, 0.40), (0.0, 0.90), 0.2, dt=0.05)


def test_a_straight_move_that_leaves_the_workspace_says_so(fivebar):
    # both ends reachable, the straight line between them passes too close to the bases
    x0, x1 = (-0.30, 0.05), (0.30, 0.05)
    assert fivebar.reachable([x0, x1]).all()
    mid = np.linspace(x0, x1, 101)
    assert not fivebar.reachable(mid).all()
    message = raises(ValueError, "x0, x1", rigid_plan, fivebar, x0, x1, 0.5, np.linspace(0, 0.5, 101))
    assert "leaves" in message


def test_five_bar_home_out_of_reach_blames_home():
    message = raises(ValueError, "home", FiveBar, home=(0.0, 0.9))
    assert "[0.  0.9]" in message


def test_simulate_closed_solver_options(fivebar):
    t = np.linspace(0, 0.01, 3)
    raises(ValueError, "method", simulate_closed, fivebar, fivebar.q_home, np.zeros(4), t, method="RK4")
    raises(ValueError, "rtol", simulate_closed, fivebar, fivebar.q_home, np.zeros(4), t, rtol=-1.0)
    raises(ValueError, "alpha", simulate_closed, fivebar, fivebar.q_home, np.zeros(4), t,
           coords="tree", stabilise="baumgarte", alpha=-5.0)


def test_rigid_body_simulation_tolerances_are_checked_before_scipy():
    from rvc.motion.rigidbody import simulate_rigidbody
    raises(ValueError, "rtol", simulate_rigidbody, np.diag([1.0, 2.0, 3.0]), [0, 0, 1], tf=1.0,
           rtol=-1e-6)
    raises(ValueError, "n", simulate_rigidbody, np.diag([1.0, 2.0, 3.0]), [0, 0, 1], tf=1.0, n=2.5)
