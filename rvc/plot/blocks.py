"""Block diagrams of a joint's drive and its control loops, labelled with a motor's numbers.

The notes draw the velocity loop (9.1.6) and the position loop (9.1.7) as
Simulink models, and the motor, gearbox and link (9.1.3-9.1.4) as a
picture.  These functions draw the same figures from a
:class:`~rvc.dynamics.actuator.Motor` (read by its attributes ``Km``,
``Ka``, ``Jm``, ``B``, ``G``) and the gains, so the numbers on the drawing
are the model's numbers.  The only arithmetic here is the reflected
inertia :math:`J_l/G^2` printed on the drive (``plot_drive``).

* :func:`plot_velocity_loop` -- :math:`\\omega^* \\to K_v + K_i/s \\to K_mK_a
  \\to 1/(J s + B) \\to \\omega`, the disturbance :math:`\\tau_d/G` and the
  speed fed back;
* :func:`plot_position_loop` -- :math:`q^* \\to K_p G \\to` the velocity loop
  :math:`\\to 1/(G s) \\to q`, optionally the velocity feedforward
  :math:`G\\dot q^*`;
* :func:`plot_drive` -- motor (:math:`J_m, B`), gearbox (:math:`G`) and link
  (:math:`J_l`), with the inertia the motor feels,
  :math:`J' = J_m + J_l/G^2`.

Each returns a :class:`BlockDiagram`: its ``blocks`` (name -> the text in
the box), ``signals`` (name -> the text on the arrow), ``sums`` (name -> the
signs of a summing junction) and ``artists``, so a test (or a reader) can
check what is drawn.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from rvc.models import puma560_motor2
>>> d = plot_velocity_loop(puma560_motor2(), Kv=0.6)
>>> sorted(d.blocks)
['amplifier', 'controller', 'motor']
>>> d.sums["error"]
'+-'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..checks import getphysical
from ..i18n import figure_text
from ..dynamics.actuator import Motor
from ..shapes import ArrayLike

__all__ = ["BlockDiagram", "plot_velocity_loop", "plot_position_loop", "plot_drive"]


def _axes(ax, figsize):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize)
    ax.set_axis_off()
    ax.set_aspect("equal")
    return ax


def _num(x) -> str:
    """A parameter as printed on a drawing: 4 significant digits."""
    return f"{float(x):.4g}"


class BlockDiagram:
    """What a block diagram drew: ``blocks``, ``signals``, ``sums`` (dicts of texts), ``artists``,
    and the axes ``ax`` and figure ``fig``; its methods draw one box, junction or arrow each.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> d = BlockDiagram(plt.subplots()[1])
    >>> d.block("plant", 2.0, 0.0, "1/s")           # the box's left and right edges
    (1.2, 2.8)
    >>> d.arrow("u", [(0.0, 0.0), (1.2, 0.0)], "u").signals
    {'u': 'u'}
    """

    def __init__(self, ax: Any) -> None:
        self.ax, self.fig = ax, ax.figure
        self.blocks: dict[str, str] = {}
        self.signals: dict[str, str] = {}
        self.sums: dict[str, str] = {}
        self.artists: list = []

    def __repr__(self) -> str:
        return f"BlockDiagram(blocks={sorted(self.blocks)}, signals={sorted(self.signals)})"

    def block(self, name: str, x: float, y: float, text: str, *, w: float = 1.6, h: float = 0.8,
              color: str = "tab:blue") -> tuple[float, float]:
        """A box centred at (x, y) holding ``text``; returns its (left, right) x."""
        from matplotlib.patches import FancyBboxPatch

        box = FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02",
                             facecolor="white", edgecolor=color, lw=1.5)
        self.ax.add_patch(box)
        self.artists += [box, self.ax.text(x, y, _words(text), ha="center", va="center", fontsize=8)]
        self.blocks[name] = text
        return x - w / 2, x + w / 2

    def sum(self, name: str, x: float, y: float, signs: str, *, r: float = 0.2,
            above: bool = False) -> tuple[float, float]:
        """A summing junction at (x, y); ``signs`` for the inputs from the left and from below (or,
        with ``above``, from above)."""
        from matplotlib.patches import Circle

        c = Circle((x, y), r, facecolor="white", edgecolor="k", lw=1.2)
        self.ax.add_patch(c)
        self.artists += [c,
                         self.ax.text(x - 1.6 * r, y + 1.2 * r, signs[0], fontsize=9, ha="center"),
                         self.ax.text(x + 1.2 * r, y + (1.2 if above else -1.8) * r, signs[1], fontsize=9,
                                      ha="center")]
        self.sums[name] = signs
        return x - r, x + r

    def arrow(self, name: str, points: Sequence[tuple[float, float]] | ArrayLike, text: str = "", *,
              where: float = 0.5, dy: float = 0.15, dx: float = 0.0) -> BlockDiagram:
        """A signal along the polyline ``points`` (arrow head at the end), ``text`` on segment ``where``."""
        P = np.asarray(points, dtype=float)
        for a, b in zip(P[:-2], P[1:-1]):
            self.artists += self.ax.plot([a[0], b[0]], [a[1], b[1]], "k-", lw=1.2)
        self.artists.append(self.ax.annotate("", xy=P[-1], xytext=P[-2],
                                             arrowprops=dict(arrowstyle="-|>", color="k", lw=1.2)))
        if text:
            k = min(int(where * (len(P) - 1)), len(P) - 2)
            m = (P[k] + P[k + 1]) / 2
            self.artists.append(self.ax.text(m[0] + dx, m[1] + dy, _words(text), ha="right" if dx < 0 else "center",
                                             va="bottom", fontsize=8))
        self.signals[name] = text
        return self

    def fit(self, x0: float, x1: float, y0: float, y1: float) -> BlockDiagram:
        self.ax.set_xlim(x0, x1)
        self.ax.set_ylim(y0, y1)
        return self


#: The words the diagrams write, line by line (the numbers on a line are fields), for the
#: catalog of rvc's own text (rvc/locale/zh_CN.po): drawn in the language of rvc.set_language.
FIGURE_TEXT = ("amplifier", "motor $1/(Js + B)$", "velocity loop (9.1.6)", "speed to angle",
               "speed measured", "angle measured", "motor", "gearbox", "link",
               "the motor feels $J' = J_m + J_l/G^2$")


def _words(text):
    """``text`` with each of its lines in the current language (rvc.i18n.figure_text)."""
    return "\n".join(figure_text(line) for line in text.split("\n"))


def _controller_text(Kp_name, Kv, Ki):
    if Ki:
        return f"PI\n${Kp_name} = {_num(Kv)}$, $K_i = {_num(Ki)}$\n$K_v + K_i/s$"
    return f"P\n${Kp_name} = {_num(Kv)}$"


def _velocity_loop_gains(motor, Kv, Ki, J):
    """The velocity loop's gains and inertia, checked (``J`` defaults to the motor's own)."""
    Kv = getphysical(Kv, "Kv", "velocity gain", nonnegative=True)
    Ki = getphysical(Ki, "Ki", "integral gain", nonnegative=True)
    J = motor.Jm if J is None else getphysical(J, "J", "inertia", nonnegative=True)
    return Kv, Ki, J


def plot_velocity_loop(motor: Motor, Kv: float, Ki: float = 0.0, *, J: float | None = None, ax: Any = None,
                       figsize: tuple[float, float] = (9, 2.6)) -> BlockDiagram:
    r"""The velocity loop of 9.1.6 as a block diagram, with the motor's numbers.

    .. math:: \Omega = \frac{1}{Js + B}\Big(K_mK_a\,(K_v + K_i/s)(\Omega^* - \Omega) - \tau_d/G\Big)

    ``J`` is the inertia on the motor shaft (default the rotor's ``Jm``).
    Blocks: ``controller`` (P, or PI when ``Ki``), ``amplifier``
    (:math:`K_mK_a`), ``motor`` (:math:`1/(Js + B)`); sums ``error``
    (``"+-"``: the speed fed back) and ``torque`` (``"+-"``: the
    disturbance); signals ``demand``, ``u``, ``tau_m``, ``disturbance``,
    ``omega``, ``feedback``.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rvc.models import puma560_motor2
    >>> d = plot_velocity_loop(puma560_motor2(), Kv=0.6, Ki=20, J=381.5e-6)
    >>> print(d.blocks["motor"])
    motor $1/(Js + B)$
    J = 0.0003815 kg m$^2$
    B = 0.000817 N m s
    >>> d.blocks["controller"].splitlines()[0]
    'PI'
    """
    Kv, Ki, J = _velocity_loop_gains(motor, Kv, Ki, J)
    d = BlockDiagram(_axes(ax, figsize))
    y = 0.0
    e0, e1 = d.sum("error", 1.2, y, "+-")
    c0, c1 = d.block("controller", 3.2, y, _controller_text("K_v", Kv, Ki), w=2.0, h=1.0)
    a0, a1 = d.block("amplifier", 5.6, y, f"amplifier\n$K_mK_a$ = {_num(motor.Km * motor.Ka)}\nN m/V",
                     w=1.6, h=1.0, color="tab:orange")
    t0, t1 = d.sum("torque", 7.2, y, "+-", above=True)
    m0, m1 = d.block("motor", 9.5, y, f"motor $1/(Js + B)$\nJ = {_num(J)} kg m$^2$\nB = {_num(motor.B)} N m s",
                     w=2.9, h=1.0, color="tab:green")
    d.arrow("demand", [(0.0, y), (e0, y)], r"$\omega^*$")
    d.arrow("u", [(e1, y), (c0, y)], "e")
    d.arrow("control", [(c1, y), (a0, y)], "u (V)")
    d.arrow("tau_m", [(a1, y), (t0, y)], r"$\tau_m$")
    d.arrow("disturbance", [(7.2, 1.4), (7.2, 0.2)], r"$\tau_d/G$", dx=-0.1, dy=-0.1)
    d.arrow("motor_torque", [(t1, y), (m0, y)])
    d.arrow("omega", [(m1, y), (12.8, y)], r"$\omega$ (rad/s)", where=0.99)
    d.arrow("feedback", [(11.6, y), (11.6, -1.0), (1.2, -1.0), (1.2, -0.2)], "speed measured", where=0.5,
            dy=-0.4)
    return d.fit(-0.2, 13.0, -1.7, 1.6)


def plot_position_loop(motor: Motor, Kp: float, Kv: float, Ki: float = 0.0, *, J: float | None = None,
                       velocity_ff: bool = False, ax: Any = None,
                       figsize: tuple[float, float] = (9, 2.8)) -> BlockDiagram:
    r"""The position loop of 9.1.7 around the velocity loop, as a block diagram.

    .. math:: \omega^* = K_pG\,(q^* - q) \;[+\; G\dot q^*], \qquad q = \frac{1}{Gs}\,\omega

    Blocks: ``position`` (:math:`K_pG`), ``velocity loop`` (the loop of
    :func:`plot_velocity_loop`, summarised with its gains and ``J``),
    ``gearbox`` (:math:`1/(Gs)`); sums ``error`` (``"+-"``) and, with
    ``velocity_ff``, ``feedforward`` (``"++"``, the demanded speed
    :math:`G\dot q^*` added).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rvc.models import puma560_motor2
    >>> d = plot_position_loop(puma560_motor2(), Kp=20, Kv=0.6, velocity_ff=True)
    >>> sorted(d.sums), d.sums["feedforward"]
    (['error', 'feedforward'], '++')
    >>> "G = 107.8" in d.blocks["position"]
    True
    """
    Kp = getphysical(Kp, "Kp", "position gain", nonnegative=True)
    Kv, Ki, J = _velocity_loop_gains(motor, Kv, Ki, J)
    d = BlockDiagram(_axes(ax, figsize))
    y = 0.0
    e0, e1 = d.sum("error", 1.2, y, "+-")
    p0, p1 = d.block("position", 3.1, y, f"$K_pG$\n$K_p = {_num(Kp)}$\nG = {_num(motor.G)}", w=1.8, h=1.0,
                     color="tab:purple")
    x = p1 + 0.3
    if velocity_ff:
        f0, f1 = d.sum("feedforward", x + 0.5, y, "++")
        d.arrow("speed_ff", [(x + 0.5, 1.4), (x + 0.5, 0.2)], r"$G\dot q^*$", dx=-0.1, dy=-0.1)
        d.arrow("omega_fb", [(p1, y), (f0, y)])
        x = f1 + 0.1
    v0, v1 = d.block("velocity loop", x + 1.6, y,
                     "velocity loop (9.1.6)\n" + _controller_text("K_v", Kv, Ki).replace("\n", ", ")
                     + f"\nJ = {_num(J)}", w=2.8, h=1.0, color="tab:green")
    g0, g1 = d.block("gearbox", v1 + 1.5, y, "$1/(Gs)$\nspeed to angle", w=1.6, h=1.0, color="tab:orange")
    d.arrow("demand", [(0.0, y), (e0, y)], "$q^*$")
    d.arrow("error_signal", [(e1, y), (p0, y)], "e")
    if velocity_ff:
        d.arrow("omega_demand", [(f1, y), (v0, y)], r"$\omega^*$")
    else:
        d.arrow("omega_demand", [(p1, y), (v0, y)], r"$\omega^*$")
    d.arrow("omega", [(v1, y), (g0, y)], r"$\omega$")
    d.arrow("q", [(g1, y), (g1 + 1.3, y)], "q (rad)", where=0.99)
    d.arrow("feedback", [(g1 + 0.6, y), (g1 + 0.6, -1.0), (1.2, -1.0), (1.2, -0.2)], "angle measured",
            dy=-0.4)
    return d.fit(-0.2, g1 + 1.5, -1.7, 1.8 if velocity_ff else 1.0)


def plot_drive(motor: Motor, J_link: float, *, ax: Any = None, figsize: tuple[float, float] = (7, 2.6)) -> BlockDiagram:
    r"""Motor, gearbox and link (9.1.3-9.1.4), with the inertia the motor feels.

    .. math:: J' = J_m + \frac{J_l}{G^2}, \qquad \tau_{joint} = G\,\tau_m, \quad \dot q = \omega / G

    ``J_link`` is the link's own inertia about the joint (without the
    rotor).  Blocks: ``motor`` (:math:`J_m, B, K_m`), ``gearbox``
    (:math:`G`), ``link`` (:math:`J_l`) and ``felt`` (the inertia on the
    motor shaft, :math:`J' = J_m + J_l/G^2`, with each part); signals
    ``shaft`` and ``joint`` (speed and torque on either side of the gearbox).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rvc.models import puma560_motor2
    >>> d = plot_drive(puma560_motor2(), 2.11)
    >>> print(d.blocks["felt"])
    the motor feels $J' = J_m + J_l/G^2$
    = 0.0002 + 0.0001815 kg m$^2$
    """
    J_link = getphysical(J_link, "J_link", "link inertia", nonnegative=True)
    d = BlockDiagram(_axes(ax, figsize))
    m0, m1 = d.block("motor", 1.2, 0.0, f"motor\n$J_m$ = {_num(motor.Jm)}\nB = {_num(motor.B)}, "
                     f"$K_m$ = {_num(motor.Km)}", w=2.2, h=1.1, color="tab:green")
    g0, g1 = d.block("gearbox", 4.0, 0.0, f"gearbox\nG = {_num(motor.G)}", w=1.4, h=1.1, color="tab:orange")
    l0, l1 = d.block("link", 6.8, 0.0, f"link\n$J_l$ = {_num(J_link)} kg m$^2$", w=2.2, h=1.1,
                     color="tab:purple")
    d.arrow("shaft", [(m1, 0.0), (g0, 0.0)], r"$\omega,\ \tau_m$")
    d.arrow("joint", [(g1, 0.0), (l0, 0.0)], r"$\omega/G,\ G\tau_m$")
    d.block("felt", 4.0, -1.4, f"the motor feels $J' = J_m + J_l/G^2$\n= {_num(motor.Jm)} + "
            f"{_num(J_link / motor.G ** 2)} kg m$^2$", w=5.6, h=0.9, color="0.5")
    return d.fit(-0.1, 8.1, -2.0, 0.8)
