"""Issue 20: settings that cannot work are refused; where a student may explore instability, a
warning names the limit."""

import warnings

import numpy as np
import pytest

from rvc.checks import RVCWarning
from rvc.dynamics.actuator import Motor, ploop, vloop, vloop_tf
from rvc.dynamics.control import computed_torque_law, feedforward_law, opspace_law, pd_law
from rvc.kinematics.jtranspose import ikine_transpose
from rvc.kinematics.rrmc import rrmc2
from rvc.models import puma560
from rvc.motion.trajectory import jtraj
from rvc.spatial.transforms3d import transl

MOTOR = Motor(Km=0.228, Jm=200e-6, B=817e-6, G=107.815, tau_max=0.9)
T = np.arange(0, 0.05, 1e-3)


@pytest.mark.parametrize("call, name", [
    (lambda: vloop(MOTOR, 1.0, T, Kv=-0.6), "Kv"),
    (lambda: vloop(MOTOR, 1.0, T, Kv=0.6, Ki=-1.0), "Ki"),
    (lambda: vloop_tf(MOTOR, Kv=-0.6), "Kv"),
    (lambda: ploop(MOTOR, 0.5, T, Kp=-20, Kv=0.6, J=580e-6), "Kp"),
    (lambda: ploop(MOTOR, 0.5, T, Kp=20, Kv=-0.6, J=580e-6), "Kv"),
])
def test_negative_loop_gains_are_refused(call, name):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert message.startswith(f"{name}: expected a non-negative gain") and "got -" in message


@pytest.mark.parametrize("law", [pd_law, feedforward_law, computed_torque_law])
@pytest.mark.parametrize("gains, name", [((-100, 20), "Kp"), ((100, -20), "Kv"),
                                         (([100, 100, -1, 100, 100, 100], 20), "Kp")])
def test_negative_joint_gains_are_refused(law, gains, name):
    p = puma560()
    traj = jtraj(p.qz, p.qr, np.linspace(0, 1, 11))
    with pytest.raises(ValueError) as info:
        law(p, traj, *gains)
    assert str(info.value).startswith(f"{name}: expected non-negative")


def test_opspace_law_refuses_negative_gains():
    p = puma560()
    T0 = p.fkine(p.qn)
    demand = lambda t: (T0, np.zeros(6), np.zeros(6))                 # noqa: E731
    with pytest.raises(ValueError, match="^Kp: expected non-negative"):
        opspace_law(p, demand, force=0.0, Kp=-100, Kv=20)
    with pytest.raises(ValueError, match="^Kf: expected a non-negative gain"):
        opspace_law(p, demand, force=0.0, Kp=100, Kv=20, Kf=-1)
    with pytest.raises(TypeError, match="^T_demand: expected a function"):
        opspace_law(p, T0, force=0.0, Kp=100, Kv=20)


def test_zero_gains_still_run():
    r = vloop(MOTOR, 1.0, T, Kv=0.0)
    assert np.all(r.y == 0)


@pytest.mark.parametrize("gain, dt", [(40, 0.05), (10, 0.25), (100, 0.05)])
def test_rrmc2_warns_outside_its_stable_range_naming_the_limit(gain, dt):
    p = puma560()
    goal = transl(0.05, 0, 0) @ p.fkine(p.qn)
    with pytest.warns(RVCWarning, match=r"gain \* dt = .* outside the stable range 0 < gain \* dt < 2"):
        r = rrmc2(p, p.qn, goal, gain=gain, dt=dt, steps=5)
    assert r.q.shape == (5, 6)                        # still runs: exploring instability is allowed


def test_rrmc2_inside_its_stable_range_does_not_warn():
    p = puma560()
    goal = transl(0.05, 0, 0) @ p.fkine(p.qn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RVCWarning)
        r = rrmc2(p, p.qn, goal, gain=39, dt=0.05, steps=5)       # gain * dt = 1.95
    assert r.q.shape == (5, 6)


def test_the_rrmc2_limit_is_where_the_error_stops_shrinking():
    # the warning's limit is the loop's: just inside it the error shrinks, just outside it grows
    p = puma560()
    goal = transl(0.01, 0, 0) @ p.fkine(p.qn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inside = rrmc2(p, p.qn, goal, gain=1.9 / 0.05, dt=0.05, steps=40)
        outside = rrmc2(p, p.qn, goal, gain=2.1 / 0.05, dt=0.05, steps=40)
    e_in, e_out = (np.linalg.norm(r.e, axis=1) for r in (inside, outside))
    assert e_in[-1] < e_in[0] < e_out[-1]


def test_ikine_transpose_with_too_large_a_step_says_it_diverged():
    p = puma560()
    T_goal = p.fkine(p.qn)
    sol = ikine_transpose(p, T_goal, q0=p.qn + 0.2, alpha=5.0, ilimit=300)
    assert not sol.success
    assert sol.reason.startswith("diverged: alpha = 5 is too large")
    assert "2 / sigma_max^2 = 0.594" in sol.reason and "rad from q0" in sol.reason
    good = ikine_transpose(p, T_goal, q0=p.qn + 0.2, alpha=0.5, ilimit=300)
    assert good.success and good.reason == ""
    slow = ikine_transpose(p, T_goal, q0=p.qn + 0.2, alpha=0.1, ilimit=50)
    assert not slow.success and slow.reason.startswith("iteration limit")     # slow, not diverged
