"""Block diagrams (rvc.plot.blocks): the boxes, sums and signals drawn carry the model's numbers."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch  # noqa: E402

from rvc import Motor, plot_drive, plot_position_loop, plot_velocity_loop  # noqa: E402
from rvc.models import puma560_motor2  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


MOTOR = Motor(Km=0.5, Jm=3e-4, B=2e-3, G=50.0, Ka=2.0)


def boxes(d):
    return [p for p in d.ax.patches if isinstance(p, FancyBboxPatch)]


def circles(d):
    return [p for p in d.ax.patches if isinstance(p, Circle)]


def test_the_velocity_loop_shows_the_motor_and_the_gains():
    d = plot_velocity_loop(MOTOR, Kv=0.7, J=1.25e-3)
    assert set(d.blocks) == {"controller", "amplifier", "motor"}
    assert "K_mK_a$ = 1\n" in d.blocks["amplifier"]                       # Km Ka = 0.5 * 2
    assert "J = 0.00125 kg" in d.blocks["motor"] and "B = 0.002 N" in d.blocks["motor"]
    assert d.blocks["controller"].startswith("P\n") and "0.7" in d.blocks["controller"]
    assert d.sums == {"error": "+-", "torque": "+-"}                      # negative feedback, disturbance
    assert {"demand", "omega", "feedback", "disturbance"} <= set(d.signals)
    assert len(boxes(d)) == 3 and len(circles(d)) == 2
    assert all(a.axes is d.ax for a in d.artists)


def test_an_integral_gain_makes_the_controller_pi_and_j_defaults_to_the_rotor():
    d = plot_velocity_loop(MOTOR, Kv=0.7, Ki=15)
    assert d.blocks["controller"].startswith("PI\n") and "K_i = 15" in d.blocks["controller"]
    assert "J = 0.0003 kg" in d.blocks["motor"]


def test_the_position_loop_wraps_the_velocity_loop_and_shows_the_feedforward_only_when_asked():
    plain = plot_position_loop(MOTOR, Kp=20, Kv=0.6)
    assert set(plain.blocks) == {"position", "velocity loop", "gearbox"}
    assert "G = 50" in plain.blocks["position"] and "K_p = 20" in plain.blocks["position"]
    assert set(plain.sums) == {"error"} and "speed_ff" not in plain.signals
    ff = plot_position_loop(MOTOR, Kp=20, Kv=0.6, velocity_ff=True)
    assert ff.sums["feedforward"] == "++" and "speed_ff" in ff.signals
    assert len(circles(ff)) == 2 == len(circles(plain)) + 1


def test_the_drive_prints_the_reflected_link_inertia():
    m = puma560_motor2()
    d = plot_drive(m, 2.11)
    assert set(d.blocks) == {"motor", "gearbox", "link", "felt"}
    assert f"G = {m.G:.4g}" in d.blocks["gearbox"]
    reflected = 2.11 / 107.815 ** 2                                      # J_l / G^2, by hand
    assert f"{reflected:.4g}" in d.blocks["felt"] and f"{m.Jm:.4g}" in d.blocks["felt"]
    assert "2.11 kg" in d.blocks["link"]


@pytest.mark.parametrize("bad", [dict(Kv=-1.0), dict(Kv=0.6, Ki=-2.0), dict(Kv=0.6, J=-1e-4)])
def test_negative_gains_and_inertias_are_refused(bad):
    with pytest.raises(ValueError, match="non-negative"):
        plot_velocity_loop(MOTOR, **bad)
