"""Drawing serial robots: stick figures, animations, teach panels (no maths here).

Everything here draws what ``robot.fkine_all(q)`` and ``robot.fkine(q)``
compute; the pattern is the one of :mod:`rvc.plot.widgets`: create the figure
and its artists once, then *update* them.

* :func:`plot_robot` -- 3-D stick drawing; returns a :class:`RobotPlot`
  whose ``.update(q)`` moves the artists in place;
* :func:`animate_robot` -- a ``FuncAnimation`` over a joint trajectory,
  optionally with a trail of the tool point (``.to_jshtml()`` for the book);
* :func:`teach` -- one slider per joint (limits from ``qlim``) driving the
  drawing and showing the tool pose (xyz and roll-pitch-yaw);
* :func:`plot_planar` -- the 2-D version for planar arms;
* :func:`animate_walking` -- the four-legged walker of 7.5.2.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from rvc.models import puma560
>>> p560 = puma560()
>>> h = plot_robot(p560, p560.qz)
>>> h.update(p560.qn) is h
True
>>> h.points.shape
(8, 3)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..checks import getarray, getdim, getq
from ..kinematics.chain import Chain
from ..shapes import SE3, ArrayLike, JointPath, JointVector
from ..spatial.transforms3d import tr2rpy
from .widgets import SliderDemo

__all__ = ["RobotPlot", "plot_robot", "animate_robot", "Teach", "teach", "plot_planar",
           "animate_walking"]


# ---------------------------------------------------------------------------
# geometry read off the model (fkine calls only)


def _getq(robot, q, name="q"):
    """One configuration (n,) of ``robot``."""
    q = getq(q, robot.n, robot.revolute, name=name)
    if q.ndim != 1:
        raise ValueError(f"{name}: expected one configuration of {robot.n} joint coordinates, "
                         f"got shape {q.shape}")
    return q


def _points(robot, q):
    """Points of the drawing (m, 3) and the end pose, read off the chain interface.

    The origins of ``robot.fkine_all(q)`` (the base, then the link or joint
    frames) followed by the tool point, the origin of ``robot.fkine(q)``; a
    planar chain (``robot.dim == 2``) is drawn in the plane z = 0.
    """
    F = robot.fkine_all(q)
    T = robot.fkine(q)
    d = robot.dim
    P = np.zeros((F.shape[0] + 1, 3))
    P[:-1, :d] = F[:, :d, d]
    P[-1, :d] = T[:d, d]
    return P, T


def _reach(robot) -> float:
    """A generous radius for the axes: the length of the arm drawn at q = 0,
    plus the travel of each prismatic joint (its upper limit, 1 if none)."""
    P, _ = _points(robot, np.zeros(robot.n))
    r = float(np.sum(np.linalg.norm(np.diff(P, axis=0), axis=1)))
    hi = np.asarray(robot.qlim, dtype=float)[1]
    travel = np.where(np.isfinite(hi), np.abs(hi), 1.0)
    r += float(np.sum(np.where(np.asarray(robot.revolute, dtype=bool), 0.0, travel)))
    return max(r, 1e-3)


# ---------------------------------------------------------------------------
# 3-D stick figure


class RobotPlot:
    """Artists of one robot drawing; :meth:`update` moves them in place.

    Attributes
    ----------
    robot, ax, fig
        The model and where it is drawn.
    q : ndarray
        The configuration drawn.
    points : ndarray (n + 2, 3)
        Base, joint-frame origins and tool point as drawn.
    T : ndarray (4, 4)
        The tool pose drawn.
    """

    def __init__(self, robot: Chain, q: JointVector, ax: Any, *, color: Any = "tab:blue", linewidth: float = 4,
                 frame_length: float | None = None, shadow: bool = True, trail: bool = False, name: bool = True,
                 limits: Any = None) -> None:
        self.robot = robot
        self.ax = ax
        self.fig = ax.figure
        self.trail_enabled = bool(trail)
        self._trail = []
        r = _reach(robot)
        self.frame_length = 0.15 * r if frame_length is None else float(frame_length)
        self.q = _getq(robot, q)
        P, T = _points(robot, self.q)
        base = robot.base[:3, 3]
        if limits is None:
            limits = [(base[i] - r, base[i] + r) for i in range(3)]
        (self.links,) = ax.plot(*P.T, "-", color=color, lw=linewidth, solid_capstyle="round")
        (self.joints,) = ax.plot(*P[:-1].T, "o", color="k", ms=linewidth + 1)
        self.shadow = None
        self._floor = limits[2][0]
        if shadow:
            (self.shadow,) = ax.plot(P[:, 0], P[:, 1], np.full(len(P), self._floor), "-",
                                     color="0.6", lw=linewidth / 2)
        self.frame = [ax.plot([], [], [], "-", color=c, lw=2)[0] for c in ("r", "g", "b")]
        self.trail = ax.plot([], [], [], "-", color="tab:red", lw=1.5)[0] if trail else None
        self.text = None
        if name:
            self.text = ax.text2D(0.02, 0.95, str(getattr(robot, "name", "")), transform=ax.transAxes)
        ax.set_xlim(*limits[0])
        ax.set_ylim(*limits[1])
        ax.set_zlim(*limits[2])
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_zlabel("z (m)")
        ax.set_box_aspect((1, 1, 1))
        self.update(self.q)

    def update(self, q: JointVector) -> RobotPlot:
        """Draw configuration ``q`` by moving the existing artists; returns self."""
        self.q = _getq(self.robot, q)
        P, T = _points(self.robot, self.q)
        self.points, self.T = P, T
        self.links.set_data_3d(P[:, 0], P[:, 1], P[:, 2])
        self.joints.set_data_3d(P[:-1, 0], P[:-1, 1], P[:-1, 2])
        if self.shadow is not None:
            self.shadow.set_data_3d(P[:, 0], P[:, 1], np.full(len(P), self._floor))
        o = T[:3, 3]
        for k, line in enumerate(self.frame):
            e = o + self.frame_length * T[:3, k]
            line.set_data_3d([o[0], e[0]], [o[1], e[1]], [o[2], e[2]])
        if self.trail is not None:
            self._trail.append(o.copy())
            tr = np.array(self._trail)
            self.trail.set_data_3d(tr[:, 0], tr[:, 1], tr[:, 2])
        return self

    def clear_trail(self) -> None:
        """Forget the tool-point trail."""
        self._trail = []
        if self.trail is not None:
            self.trail.set_data_3d([], [], [])

    @property
    def artists(self) -> list:
        """Every artist the drawing updates (for blitting)."""
        out = [self.links, self.joints, *self.frame]
        if self.shadow is not None:
            out.append(self.shadow)
        if self.trail is not None:
            out.append(self.trail)
        return out


def _new_axes3d(figsize=(5, 5)):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize)
    return fig.add_subplot(projection="3d")


def plot_robot(robot: Chain, q: JointVector, ax: Any = None, **kwargs: Any) -> RobotPlot:
    """Draw a serial robot as a 3-D stick figure.

    Links are drawn between the origins of successive frames (base, the n
    link frames from ``robot.fkine_all(q)``, the tool point), with joints as
    dots, the tool frame as red/green/blue x/y/z axes and the shadow of the
    arm on the floor of the axes.

    Parameters
    ----------
    robot : DHRobot
        Needs ``.n``, ``.links``, ``.fkine(q)`` and ``.fkine_all(q)``.
    q : array_like (n,)
        Joint coordinates.
    ax : Axes3D, optional
        Where to draw (a new figure if omitted).
    **kwargs
        ``color``, ``linewidth``, ``frame_length``, ``shadow`` (bool),
        ``trail`` (bool, keep a trail of the tool point), ``name`` (bool),
        ``limits`` ([(xmin, xmax), (ymin, ymax), (zmin, zmax)]).

    Returns
    -------
    RobotPlot
        Call ``.update(q)`` to redraw at another configuration without
        creating any figure.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> h = plot_robot(p560, p560.qz)
    >>> lines = len(h.ax.lines)
    >>> h = h.update(p560.qn)   # returns itself
    >>> len(h.ax.lines) == lines, bool(np.allclose(h.T, p560.fkine(p560.qn)))
    (True, True)

    A planar chain (``robot.dim == 2``) is drawn in 2-D by :func:`plot_planar`
    (as ``robot.plot(q)`` and :func:`teach` do); here it is refused:

    >>> plot_robot(ETS2.Rz() * ETS2.Tx(1), [0.3])
    Traceback (most recent call last):
    ...
    ValueError: robot: expected a chain in space (dim 3), got a planar chain (dim 2); draw it with plot_planar(robot, q)
    """
    getdim(robot, 3, "draw it with plot_planar(robot, q)")
    if ax is None:
        ax = _new_axes3d()
    return RobotPlot(robot, q, ax, **kwargs)


def _motion_limits(robot, Q, margin=0.15):
    """A cube around the base and every point the arm passes through in ``Q`` (plus ``margin`` of
    its size): the view of an animation, so that the arm fills the frame."""
    P = np.vstack([robot.base[:3, 3]] + [_points(robot, q)[0] for q in Q])
    lo, hi = P.min(axis=0), P.max(axis=0)
    centre, half = (lo + hi) / 2, max(float((hi - lo).max()) / 2, 0.05 * _reach(robot)) * (1 + margin)
    return [(c - half, c + half) for c in centre]


def animate_robot(robot: Chain, Q: JointPath, *, trail: bool = False, interval: int = 50, ax: Any = None,
                  step: int = 1, dpi: int = 72, figsize: tuple[float, float] = (4, 4),
                  ghost: JointPath | None = None, **kwargs: Any) -> Any:
    """Animate a joint trajectory as a ``matplotlib.animation.FuncAnimation``.

    Parameters
    ----------
    Q : array_like (N, n)
        Joint coordinates, one row per frame; every ``step``-th row is used.
    trail : bool
        Draw the path of the tool point.
    interval : int
        Milliseconds between frames.
    dpi, figsize
        Kept modest so ``anim.to_jshtml()`` stays small in the static book.
        On the figure it creates, the view is a cube around the base and the
        motion (unless ``limits`` is given) and the axes fill the figure, so the
        arm fills the frame.
    ghost : array_like (N, n), optional
        A second trajectory drawn as a pale arm behind the first -- e.g. the
        demand a controller tracks, so the lag shows.

    The figure is closed from pyplot (so ``%matplotlib inline`` does not show
    a still copy); display it with :func:`rvc.jshtml` (offline player).
    The drawing handles are ``anim.robotplot`` (and ``anim.ghostplot``).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> Q = jtraj(p560.qz, p560.qr, 5).q
    >>> anim = animate_robot(p560, Q, trail=True, ghost=Q[::-1])
    >>> type(anim).__name__, "<img" in anim.to_jshtml()
    ('FuncAnimation', True)
    >>> bool(np.allclose(anim.ghostplot.q, p560.qz))      # the last frame drawn
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    getdim(robot, 3, "draw it with plot_planar(robot, q) and move it with its update(q)")
    n = int(robot.n)
    Q = getarray(Q, "Q", shape=(n,)).reshape(-1, n)[:: max(int(step), 1)]
    G = None
    if ghost is not None:
        G = getarray(ghost, "ghost", shape=(n,)).reshape(-1, n)[:: max(int(step), 1)]
        if len(G) != len(Q):
            raise ValueError(f"ghost: expected {len(Q)} configurations, one per frame of Q, "
                             f"got {len(G)}")
    fresh = ax is None
    if fresh:
        fig = plt.figure(figsize=figsize, dpi=dpi)
        ax = fig.add_subplot(projection="3d")
        fig.subplots_adjust(left=0.0, right=0.95, bottom=0.05, top=1.0)
        if kwargs.get("limits") is None:         # the view fits the motion, not the whole reach
            kwargs["limits"] = _motion_limits(robot, Q if G is None else np.vstack([Q, G]))
    g = None
    if G is not None:
        g = RobotPlot(robot, G[0], ax, color="0.75", linewidth=3, shadow=False, name=False,
                      frame_length=0.0)
    h = RobotPlot(robot, Q[0], ax, trail=trail, **kwargs)
    h.clear_trail()
    if fresh:
        ax.set_box_aspect((1, 1, 1), zoom=0.95)
        for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
            axis.label.set_fontsize(7)
        ax.tick_params(labelsize=6, pad=0)

    def frame(k):
        if k == 0:
            h.clear_trail()
        if g is not None:
            g.update(G[k])
        h.update(Q[k])
        return h.artists + (g.artists if g is not None else [])

    anim = FuncAnimation(ax.figure, frame, frames=len(Q), interval=interval, blit=False)
    anim.robotplot = h
    anim.ghostplot = g
    plt.close(ax.figure)
    return anim


# ---------------------------------------------------------------------------
# teach panel


def _pose_text(T) -> str:
    if T.shape == (3, 3):  # a planar pose: x, y and the angle of the x-axis
        theta = np.degrees(np.arctan2(T[1, 0], T[0, 0]))
        return f"x = {T[0, 2]:+.3f}  y = {T[1, 2]:+.3f}  |  theta = {theta:+.1f}\u00b0"
    t = T[:3, 3]
    with warnings.catch_warnings():  # gimbal lock is shown, not warned about
        warnings.simplefilter("ignore")
        rpy = tr2rpy(T[:3, :3], unit="deg", order="xyz", check=False)
    return (f"x = {t[0]:+.3f}  y = {t[1]:+.3f}  z = {t[2]:+.3f}  |  "
            f"roll = {rpy[0]:+.1f}\u00b0  pitch = {rpy[1]:+.1f}\u00b0  yaw = {rpy[2]:+.1f}\u00b0 (xyz)")


class Teach:
    """A teach panel: one slider per joint, the drawing and the tool pose.

    Attributes
    ----------
    panel : ipywidgets.VBox
        The widget to display (displaying the object displays it).
    sliders : list of ipywidgets.FloatSlider
        One per joint, limits from ``robot.qlim`` (+-pi where missing).
    plot : RobotPlot
        The drawing.
    pose : ipywidgets.HTML
        Shows the tool position and roll-pitch-yaw angles (xyz order, deg).
    demo : SliderDemo
        The sliders, the drawing's callback and the output area (which shows
        a traceback instead of the figure if a redraw fails).

    ``update(q)`` sets the sliders and redraws: a notebook cell calls it so
    the static book shows the same figure; it returns the figure.
    """

    def __init__(self, robot: Chain, q: JointVector | None = None) -> None:
        import ipywidgets as widgets

        self.robot = robot
        n = int(robot.n)
        q = np.zeros(n) if q is None else _getq(robot, q)
        qlim = np.asarray(robot.qlim, dtype=float)
        self.sliders = []
        for j in range(n):
            lo, hi = -np.pi, np.pi
            if np.all(np.isfinite(qlim[:, j])):
                lo, hi = float(qlim[0, j]), float(qlim[1, j])
            self.sliders.append(widgets.FloatSlider(
                value=float(np.clip(q[j], lo, hi)), min=lo, max=hi, step=(hi - lo) / 200,
                description=f"q{j + 1}", continuous_update=True, readout_format=".3f"))
        draw = plot_planar if robot.dim == 2 else plot_robot
        self.plot = draw(robot, [s.value for s in self.sliders])
        self.fig = self.plot.fig
        self.pose = widgets.HTML()
        # the slider pattern of every chapter: one callback updates the artists;
        # SliderDemo redraws the figure and shows the traceback if it fails
        self.demo = SliderDemo(self.fig, self._show,
                               **{s.description: s for s in self.sliders})
        self.output = self.demo.output
        self.panel = widgets.VBox([widgets.VBox(self.sliders), self.pose, self.output])

    @property
    def q(self) -> np.ndarray:
        """The configuration the sliders show."""
        return np.array([s.value for s in self.sliders])

    def _show(self, **values):
        q = np.array([values[s.description] for s in self.sliders])
        self.plot.update(q)
        self.pose.value = f"<code>{_pose_text(self.plot.T)}</code>"

    def update(self, q: JointVector) -> Any:
        """Move the sliders to ``q``, redraw once, return the figure.

        A joint value outside its slider is first shifted by a multiple of
        2 pi (when the slider spans at most 2 pi), then clipped to the limits.
        """
        q = _getq(self.robot, q)
        values = {}
        for s, v in zip(self.sliders, q):
            # an angle outside the slider may fit after adding +-2 pi
            if not s.min <= v <= s.max and s.max - s.min <= 2 * np.pi + 1e-9:
                v = s.min + (v - s.min) % (2 * np.pi)
            values[s.description] = float(np.clip(v, s.min, s.max))
        return self.demo.set(**values)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.panel)


def teach(robot: Chain, q: JointVector | None = None) -> Teach:
    """A slider panel driving a drawing of ``robot`` (see :class:`Teach`).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> t = teach(p560)
    >>> len(t.sliders)
    6
    >>> fig = t.update(p560.qn)
    >>> print(t.pose.value)
    <code>x = +0.596  y = -0.150  z = -0.014  |  roll = ...
    """
    return Teach(robot, q)


# ---------------------------------------------------------------------------
# 2-D


class PlanarPlot:
    """Artists of a 2-D robot drawing; :meth:`update` moves them in place."""

    def __init__(self, robot: Chain, q: JointVector, ax: Any, color: Any = "tab:blue", linewidth: float = 4,
                 limits: Any = None, trail: bool = False) -> None:
        self.robot = robot
        self.ax = ax
        self.fig = ax.figure
        self.q = _getq(robot, q)
        P, _ = _points(robot, self.q)
        r = _reach(robot)
        b = robot.base[:2, 3]
        if limits is None:
            limits = [(b[0] - 1.1 * r, b[0] + 1.1 * r), (b[1] - 1.1 * r, b[1] + 1.1 * r)]
        (self.links,) = ax.plot(P[:, 0], P[:, 1], "-", color=color, lw=linewidth, solid_capstyle="round")
        (self.joints,) = ax.plot(P[:-1, 0], P[:-1, 1], "o", color="k", ms=linewidth + 2)
        (self.tool,) = ax.plot(P[-1:, 0], P[-1:, 1], "s", color="tab:red", ms=linewidth + 2)
        self.trail = ax.plot([], [], "-", color="tab:red", lw=1)[0] if trail else None
        self._trail = []
        ax.set_xlim(*limits[0])
        ax.set_ylim(*limits[1])
        ax.set_aspect("equal")
        ax.grid(True)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        self.update(self.q)

    def update(self, q: JointVector) -> PlanarPlot:
        """Draw configuration ``q``; returns self."""
        self.q = _getq(self.robot, q)
        P, T = _points(self.robot, self.q)
        self.points, self.T = P, T
        self.links.set_data(P[:, 0], P[:, 1])
        self.joints.set_data(P[:-1, 0], P[:-1, 1])
        self.tool.set_data(P[-1:, 0], P[-1:, 1])
        if self.trail is not None:
            self._trail.append(P[-1, :2].copy())
            tr = np.array(self._trail)
            self.trail.set_data(tr[:, 0], tr[:, 1])
        return self


def plot_planar(robot: Chain, q: JointVector, ax: Any = None, **kwargs: Any) -> PlanarPlot:
    """Draw a planar arm (links in the xy-plane) in 2-D.

    ``robot`` is a planar robot model or an :class:`~rvc.models.ETS2` (the
    notes' ``E.plot(q)`` is ``E.plot(q)`` here too).  Returns a
    :class:`PlanarPlot` with ``.update(q)``.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rvc.models import planar2
    >>> h = plot_planar(planar2(), [0.3, 0.4])
    >>> h.points[-1, :2].round(4)
    array([1.7202, 0.9397])
    >>> E = ETS2.Rz() * ETS2.Tx(1) * ETS2.Rz() * ETS2.Tx(1)
    >>> bool(np.allclose(plot_planar(E, [0.3, 0.4]).points[-1, :2], h.points[-1, :2]))
    True
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(4, 4))
    return PlanarPlot(robot, q, ax, **kwargs)


# ---------------------------------------------------------------------------
# the walking robot (7.5.2)


def animate_walking(leg: Chain, Q: ArrayLike, bases: SE3, *, W: float = 0.1, L: float = 0.2, interval: int = 40,
                    step: int = 4, dpi: int = 72, figsize: tuple[float, float] = (4.5, 4),
                    zdown: bool = True) -> Any:
    """Animate the four-legged walker: ``Q`` (N, 4, 3) joint angles of the legs.

    ``leg`` is one leg model (``rvc.models.leg()``); ``bases`` the four (4, 4)
    transforms of the hips in the body frame (see
    :func:`rvc.apps.walking_legs`).  The body is the rectangle
    ``[0, -L] x [0, -W]``; z points down as in the notes (``zdown``).
    Returns a ``FuncAnimation`` (figure closed from pyplot).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rvc.models import leg
    >>> bases = transl(np.array([[0, 0, 0], [-0.2, 0, 0], [-0.2, -0.1, 0], [0, -0.1, 0]]))
    >>> anim = animate_walking(leg(), np.zeros((8, 4, 3)), bases, step=4)
    >>> type(anim).__name__
    'FuncAnimation'
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    Q = getarray(Q, "Q", shape=(4, int(leg.n)))
    Q = Q.reshape(-1, 4, int(leg.n))[:: max(int(step), 1)]
    bases = getarray(bases, "bases", shape=(4, 4, 4), batch=False)
    fig = plt.figure(figsize=figsize, dpi=dpi)
    ax = fig.add_subplot(projection="3d")
    ax.plot([0, -L, -L, 0, 0], [0, 0, -W, -W, 0], [0, 0, 0, 0, 0], "-", color="tab:red", lw=2)
    lines = [ax.plot([], [], [], "-o", lw=3, ms=3)[0] for _ in range(4)]

    # every leg's points in every frame, in the body frame: (N, 4, m, 3)
    Qf = Q.reshape(-1, int(leg.n))
    F = leg.fkine_all(Qf)
    ends = leg.fkine(Qf)[:, None]
    P = np.concatenate([F, ends], axis=1)[..., :, 3]               # (N*4, m, 4) homogeneous
    P = np.einsum("lij,nlmj->nlmi", bases, P.reshape(len(Q), 4, -1, 4))[..., :3]

    def frame(k):
        for i in range(4):
            lines[i].set_data_3d(P[k, i, :, 0], P[k, i, :, 1], P[k, i, :, 2])
        return lines

    body = np.array([[0, 0, 0], [-L, -W, 0]])
    lo = np.minimum(P.reshape(-1, 3).min(axis=0), body.min(axis=0))
    hi = np.maximum(P.reshape(-1, 3).max(axis=0), body.max(axis=0))
    mid, half = (lo + hi) / 2, 0.55 * float(np.max(hi - lo))     # equal scales, a margin
    ax.set_xlim(mid[0] - half, mid[0] + half)
    ax.set_ylim(mid[1] - half, mid[1] + half)
    ax.set_zlim(mid[2] - half, mid[2] + half)
    if zdown:
        ax.invert_zaxis()
    ax.view_init(elev=25, azim=-130)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")
    frame(0)
    anim = FuncAnimation(fig, frame, frames=len(Q), interval=interval, blit=False)
    plt.close(fig)
    return anim
