"""Schematic drawings of arms, read off rvc's own models (no maths here).

The textbook explains kinematics with line drawings: a link with its
frames and its four Denavit-Hartenberg parameters, an arm with its link
lengths, a planar arm with its joint angles, a leg with its joint axes.
These functions draw such figures from a model, so the numbers on the
drawing are the model's numbers.  Everything drawn comes from the chain
interface (``joint_frames``, ``fkine_all``, ``fkine``) or, for the DH
figures, from a link's parameters (``d``, ``a``, ``alpha``, ``offset``) and
its transform ``A(q)``; the only computations here place arcs, arrows and
labels.

* :func:`plot_dh_link` -- one DH link: frames {j-1} and {j}, the path
  ``Rz(theta) Tz(d) Tx(a) Rx(alpha)`` between them, the four parameters;
* :func:`plot_dh_schematic` -- a standard-DH arm with each non-zero
  ``d_j`` and ``a_j`` drawn and labelled (the Puma with its link lengths);
* :func:`plot_planar_schematic` -- a planar arm with its joint angles and
  link lengths;
* :func:`plot_joint_axes` -- any arm with its joint axes and the lengths
  between joints (the walking robot's leg).

The DH-link and planar drawings return a handle whose ``update`` redraws
them in place, for slider demos.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from rvc.models import planar2
>>> h = plot_planar_schematic(planar2(), [0.4, 0.8])
>>> h.update([0.2, -0.6]) is h
True
>>> sorted(h.labels)
['a1', 'a2', 'q1', 'q2']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..checks import getdim, getq, getscalar
from ..kinematics.chain import Chain
from ..kinematics.dh import DHChain
from ..shapes import JointVector

__all__ = ["plot_dh_link", "DHLinkSketch", "plot_dh_schematic", "plot_planar_schematic",
           "PlanarSketch", "plot_joint_axes"]

_PARAM_COLORS = {"theta": "tab:purple", "d": "tab:orange", "a": "tab:green", "alpha": "tab:red"}


def _plt():
    import matplotlib.pyplot as plt
    return plt


def _axes3d(ax, figsize):
    if ax is None:
        fig = _plt().figure(figsize=figsize)
        ax = fig.add_subplot(projection="3d")
    return ax


def _axes2d(ax, figsize):
    if ax is None:
        _, ax = _plt().subplots(figsize=figsize)
    return ax


def _arc3(centre, u, v, angle, radius, n=24):
    """Points of the arc ``centre + radius (cos s u + sin s v)``, s from 0 to ``angle``."""
    s = np.linspace(0.0, angle, n)[:, None]
    return centre + radius * (np.cos(s) * u + np.sin(s) * v)


def _set3(line, P):
    line.set_data_3d(P[:, 0], P[:, 1], P[:, 2])


def _frame_lines(ax, color, lw=1.5):
    return [ax.plot([], [], [], "-", color=c if color is None else color, lw=lw)[0]
            for c in ("r", "g", "b")]


def _set_frame(lines, texts, T, length, name):
    o = T[:3, 3]
    for k, (line, txt) in enumerate(zip(lines, texts)):
        e = o + length * T[:3, k]
        _set3(line, np.array([o, e]))
        txt.set_position((e[0], e[1]))
        txt.set_3d_properties(e[2], None)
        txt.set_text(f"{'xyz'[k]}$_{{{name}}}$")


# ---------------------------------------------------------------------------
# one DH link


class DHLinkSketch:
    """The drawing of :func:`plot_dh_link`; ``update(q)`` redraws it for joint value ``q``.

    Attributes: ``ax``, ``link``, ``q``, ``T`` (the link transform drawn,
    ``link.A(q)``), ``values`` (the four parameters drawn, a dict),
    ``points`` (every point drawn, for the view limits).
    """

    def __init__(self, link: Any, q: float, ax: Any, length: float) -> None:
        self.link, self.ax, self.length = link, ax, float(length)
        self.fig = ax.figure
        self.frame0 = _frame_lines(ax, "0.6", lw=1.5)
        self.text0 = [ax.text(0, 0, 0, "", color="0.45", fontsize=8) for _ in range(3)]
        self.frame1 = _frame_lines(ax, "k", lw=1.8)
        self.text1 = [ax.text(0, 0, 0, "", color="k", fontsize=8) for _ in range(3)]
        (self.zaxis,) = ax.plot([], [], [], ":", color="0.5", lw=1)     # the joint axis z_{j-1}
        (self.xaxis,) = ax.plot([], [], [], ":", color="0.5", lw=1)     # the common normal x_j
        (self.zpar,) = ax.plot([], [], [], ":", color=_PARAM_COLORS["alpha"], lw=1)
        self.params = {k: ax.plot([], [], [], "-", color=c, lw=2.5)[0]
                       for k, c in _PARAM_COLORS.items()}
        self.labels = {k: ax.text(0, 0, 0, "", color=c, fontsize=9, va="center",
                               ha="right" if k == "d" else "center")
                       for k, c in _PARAM_COLORS.items()}
        self.update(q)

    def update(self, q: float) -> DHLinkSketch:
        """Redraw for the joint coordinate ``q``; returns self."""
        L, r = self.link, self.length
        self.q = getscalar(q, "q")
        if L.isrevolute:                                # theta = q + offset varies
            theta, d = self.q + L.offset, L.d
        else:                                           # d = q + offset varies
            theta, d = L.theta, self.q + L.offset
        T = np.asarray(L.A(self.q), dtype=float)
        self.T = T
        self.values = {"theta": theta, "d": d, "a": L.a, "alpha": L.alpha}
        ez, ex0 = np.array([0.0, 0, 1]), np.array([1.0, 0, 0])
        xj, oj = T[:3, 0], T[:3, 3]
        foot = d * ez                                   # after Rz(theta) Tz(d)
        _set_frame(self.frame0, self.text0, np.eye(4), r, "j-1")
        _set_frame(self.frame1, self.text1, T, r, "j")
        zline = np.array([[0, 0, min(d, 0.0) - 0.3 * r], [0, 0, max(d, 0.0) + 1.2 * r]])
        _set3(self.zaxis, zline)
        xline = np.array([foot, oj + 0.3 * r * xj])
        _set3(self.xaxis, xline)
        _set3(self.zpar, np.array([oj, oj + 0.8 * r * ez]))      # z_{j-1} carried to o_j
        # theta: about z_{j-1}, from x_{j-1} to x_j (drawn at the height d)
        arc_t = _arc3(foot, ex0, np.cross(ez, ex0), theta, 0.6 * r)
        _set3(self.params["theta"], arc_t)
        _set3(self.params["d"], np.array([np.zeros(3), foot]))
        _set3(self.params["a"], np.array([foot, oj]))
        # alpha: about x_j, from the direction of z_{j-1} to z_j (drawn at o_j)
        arc_al = _arc3(oj, ez, np.cross(xj, ez), L.alpha, 0.6 * r)
        _set3(self.params["alpha"], arc_al)
        side = np.cross(ez, xj)                         # sideways from the common normal
        spots = {"theta": arc_t[len(arc_t) // 2] + 0.25 * r * ez,
                 "d": foot / 2 - 0.1 * r * xj,
                 "a": (foot + oj) / 2 - 0.3 * r * ez,
                 "alpha": arc_al[-1] + 0.2 * r * side + 0.45 * r * ez}
        names = {"theta": r"$\theta$", "d": "$d$", "a": "$a$", "alpha": r"$\alpha$"}
        for k, txt in self.labels.items():
            p = spots[k]
            txt.set_position((p[0], p[1]))
            txt.set_3d_properties(p[2], None)
            txt.set_text(f"{names[k]} = {self.values[k]:.2f}")
        self.points = np.vstack([zline, xline, arc_t, arc_al, [oj + r * T[:3, k] for k in range(3)],
                                 np.eye(3) * r, list(spots.values())])
        return self


def plot_dh_link(link: Any, q: float = 0.0, ax: Any = None, *, length: float = 0.5,
                 figsize: tuple[float, float] = (4.5, 4), limits: float | None = None) -> DHLinkSketch:
    r"""Draw one standard-DH link: frames {j-1} and {j} and its four parameters.

    The link transform is :math:`{}^{j-1}A_j = R_z(\theta) T_z(d) T_x(a) R_x(\alpha)`
    (``link.A(q)``).  Frame {j-1} is grey, frame {j} black; the path from
    one to the other is drawn in the parameters' colours: the angle
    :math:`\theta` about :math:`z_{j-1}` (an arc from :math:`x_{j-1}` to
    :math:`x_j`), the offset :math:`d` along :math:`z_{j-1}`, the length
    :math:`a` along :math:`x_j` and the twist :math:`\alpha` about
    :math:`x_j` (an arc from the direction of :math:`z_{j-1}`, dotted red,
    to :math:`z_j`).  Each is labelled with its value.

    Parameters
    ----------
    link : link model
        A standard DH link (``RevoluteDH(...)``, ``PrismaticDH(...)``, or
        ``robot.links[j]``): its ``d``, ``a``, ``alpha``, ``offset`` and
        ``A(q)`` are drawn.
    q : float
        The joint coordinate.
    ax : Axes3D, optional
    length : float
        Length of the frame axes drawn.
    limits : float, optional
        Half-width of the (cubic) view; default: just what this drawing needs
        (give a fixed value for a slider whose parameters change).

    Returns
    -------
    DHLinkSketch
        ``.update(q)`` redraws in place (for a slider).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> h = plot_dh_link(RevoluteDH(d=0.3, a=0.8, alpha=0.6), 0.5)
    >>> {k: round(float(v), 2) for k, v in h.values.items()}
    {'theta': 0.5, 'd': 0.3, 'a': 0.8, 'alpha': 0.6}
    >>> bool(np.allclose(h.update(1.0).T, RevoluteDH(d=0.3, a=0.8, alpha=0.6).A(1.0)))
    True
    """
    ax = _axes3d(ax, figsize)
    h = DHLinkSketch(link, q, ax, getscalar(length, "length"))
    lo, hi = h.points.min(axis=0), h.points.max(axis=0)
    c = (lo + hi) / 2
    half = 0.5 * float(np.max(hi - lo)) if limits is None else getscalar(limits, "limits")
    ax.set(xlim=(c[0] - half, c[0] + half), ylim=(c[1] - half, c[1] + half),
           zlim=(c[2] - half, c[2] + half))
    ax.set_box_aspect((1, 1, 1), zoom=1.25)
    ax.set_axis_off()
    ax.view_init(elev=22, azim=-55)
    return h


# ---------------------------------------------------------------------------
# a DH arm with its link lengths


def plot_dh_schematic(robot: DHChain, q: JointVector | None = None, ax: Any = None, *,
                      view: str | None = None, figsize: tuple[float, float] = (5, 4.5),
                      decimals: int = 5, axis_length: float | None = None) -> Any:
    r"""Draw a standard-DH arm with its link offsets and lengths labelled.

    Link j moves the frame by :math:`d_j` along :math:`z_{j-1}`, then by
    :math:`a_j` along :math:`x_j` (``robot.fkine_all(q)`` gives the frames).
    Every non-zero :math:`d_j` is drawn as an orange segment, every
    non-zero :math:`a_j` as a green one, each labelled with its name and
    value (``d3 = 0.15005``); the joint axes are drawn as short grey arrows
    labelled :math:`q_j`.  For a prismatic joint the drawn :math:`d_j`
    includes the joint coordinate.

    Parameters
    ----------
    robot : DH robot
        Standard DH (``robot.mdh`` false); its ``links`` give the parameters.
        A chain in space: a planar chain (``robot.dim == 2``) is refused with a
        ``ValueError`` that points to :func:`plot_planar_schematic`.
    q : array_like (n,), optional
        Configuration (default zeros).
    ax : Axes or Axes3D, optional
    view : {None, "xz", "xy", "yz"}
        ``None`` draws in 3-D; a pair of axis names draws the orthographic
        projection on that plane (an engineering drawing: a side view
        ``"xz"``, a top view ``"xy"``) on 2-D axes.  A segment or a joint
        axis seen end-on is left out of a projection.
    decimals : int
        Significant digits of the labels.
    axis_length : float, optional
        Length of the joint-axis arrows (default an eighth of the arm's size).

    Returns
    -------
    Axes or Axes3D

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rvc.models import puma560
    >>> p560 = puma560()
    >>> ax = plot_dh_schematic(p560, p560.qz)
    >>> sorted(t.get_text() for t in ax.texts if "=" in t.get_text())
    ['a2 = 0.4318', 'a3 = 0.0203', 'd3 = 0.15005', 'd4 = 0.4318']
    """
    getdim(robot, 3, "draw it with plot_planar_schematic(robot, q)")
    if getattr(robot, "mdh", False):
        raise ValueError("robot: expected standard DH links, got modified DH "
                         "(draw it with plot_joint_axes)")
    if view not in (None, "xz", "xy", "yz", "zx", "yx", "zy"):
        raise ValueError(f"view: expected None, 'xz', 'xy' or 'yz', got {view!r}")
    q = getq(np.zeros(robot.n) if q is None else q, robot.n, robot.revolute, name="q")
    F = np.asarray(robot.fkine_all(q), dtype=float)      # base, then frame {j} of each link
    O = F[:, :3, 3]
    size = max(float(np.ptp(O, axis=0).max()), 1e-3)
    la = 0.125 * size if axis_length is None else float(axis_length)
    if view is None:
        ax = _axes3d(ax, figsize)
        pick = [0, 1, 2]
    else:
        ax = _axes2d(ax, figsize)
        pick = ["xyz".index(c) for c in view]

    def P(*pts):                                        # the drawn coordinates of points
        return np.array(pts)[:, pick]

    ax.plot(*P(*O).T, "-", color="0.82", lw=7, solid_capstyle="round", zorder=0)
    ax.plot(*P(*O).T, "o", color="k", ms=4, zorder=3)
    drawn = [P(*O)]
    for j, L in enumerate(robot.links):
        prev, cur = F[j], F[j + 1]
        d = L.d if robot.revolute[j] else q[j] + L.offset
        foot = prev[:3, 3] + d * prev[:3, 2]
        z = prev[:3, 2]
        ends = P(prev[:3, 3] - 0.5 * la * z, prev[:3, 3] + 0.5 * la * z)
        if np.linalg.norm(ends[1] - ends[0]) > 0.2 * la:          # not seen end-on
            if view is None:
                ax.quiver(*ends[0], *(ends[1] - ends[0]), color="0.45", arrow_length_ratio=0.25, lw=1)
            else:
                ax.annotate("", xy=ends[1], xytext=ends[0],
                            arrowprops=dict(arrowstyle="-|>", color="0.45", lw=1))
            ax.text(*(ends[0] + 1.15 * (ends[1] - ends[0])), f"$q_{j + 1}$", color="0.3", fontsize=9)
        else:                                                     # an axis out of the page
            o = P(prev[:3, 3])[0]
            ax.plot(*o, "o", ms=11, mfc="none", mec="0.45", zorder=4)
            ax.annotate(f"$q_{j + 1}$", xy=o, xytext=(-7, 7), textcoords="offset points",
                        color="0.3", fontsize=9, ha="right")
        for k, (name, value, seg, col) in enumerate(
                (("d", d, (prev[:3, 3], foot), _PARAM_COLORS["d"]),
                 ("a", L.a, (foot, cur[:3, 3]), _PARAM_COLORS["a"]))):
            seg = P(*seg)
            if abs(value) < 1e-12 or np.linalg.norm(seg[1] - seg[0]) < 1e-9:
                continue
            ax.plot(*seg.T, "-", color=col, lw=2.5, zorder=2)
            drawn.append(seg)
            mid = seg.mean(axis=0)
            if view is None:
                ax.text(*(mid + 0.03 * size), f"{name}{j + 1} = {value:.{decimals}g}", color=col, fontsize=8)
            else:
                u = (seg[1] - seg[0]) / np.linalg.norm(seg[1] - seg[0])
                nrm = np.array([-u[1], u[0]]) * (1 if k == 0 else -1)
                ax.annotate(f"{name}{j + 1} = {value:.{decimals}g}", xy=mid, xytext=8 * nrm,
                            textcoords="offset points", color=col, fontsize=8,
                            ha="left" if nrm[0] > 0.3 else "right" if nrm[0] < -0.3 else "center",
                            va="bottom" if nrm[1] > 0.3 else "top" if nrm[1] < -0.3 else "center")
    pts = np.vstack(drawn)
    c = (pts.min(axis=0) + pts.max(axis=0)) / 2
    half = 0.5 * float(np.ptp(pts, axis=0).max()) + 1.5 * la
    if view is None:
        ax.set(xlim=(c[0] - half, c[0] + half), ylim=(c[1] - half, c[1] + half),
               zlim=(c[2] - half, c[2] + half), xlabel="x", ylabel="y", zlabel="z")
        ax.set_box_aspect((1, 1, 1))
    else:
        ax.set(xlim=(c[0] - half, c[0] + half), ylim=(c[1] - half, c[1] + half),
               xlabel=f"{view[0]} (m)", ylabel=f"{view[1]} (m)", aspect="equal")
    return ax


# ---------------------------------------------------------------------------
# a planar arm with its angles


class PlanarSketch:
    """The drawing of :func:`plot_planar_schematic`; ``update(q)`` redraws it.

    Attributes: ``ax``, ``robot``, ``q``, ``points`` (joint origins and the
    tool point drawn, (n + 1, 2)), ``labels`` (name -> text artist).
    """

    def __init__(self, robot: Chain, q: JointVector, ax: Any, names: Any) -> None:
        self.robot, self.ax = robot, ax
        self.fig = ax.figure
        n = robot.n
        self.names = list(names) if names is not None else [f"a{j + 1}" for j in range(n)]
        (self.links,) = ax.plot([], [], "-", color="tab:blue", lw=5, solid_capstyle="round")
        (self.joints,) = ax.plot([], [], "o", color="k", ms=6, zorder=3)
        self.ext = [ax.plot([], [], "--", color="0.6", lw=1)[0] for _ in range(n)]
        self.arcs = [ax.plot([], [], "-", color=_PARAM_COLORS["theta"], lw=1.8)[0] for _ in range(n)]
        self.labels = {f"q{j + 1}": ax.text(0, 0, "", color=_PARAM_COLORS["theta"], fontsize=10)
                       for j in range(n)}
        self.labels.update({nm: ax.text(0, 0, "", color=_PARAM_COLORS["a"], fontsize=10)
                            for nm in self.names})
        self.update(q)

    def update(self, q: JointVector) -> PlanarSketch:
        """Redraw at configuration ``q``; returns self."""
        robot = self.robot
        self.q = getq(q, robot.n, robot.revolute, name="q")
        F, T = robot.joint_frames(self.q)
        P = np.vstack([np.asarray(F)[:, :2, 3], np.asarray(T)[:2, -1]])
        self.points = P
        self.links.set_data(P[:, 0], P[:, 1])
        self.joints.set_data(P[:-1, 0], P[:-1, 1])
        span = max(float(np.linalg.norm(np.diff(P, axis=0), axis=1).sum()), 1e-3)
        r = 0.18 * span
        heading = 0.0                                   # direction before joint 1: the x-axis
        for j in range(robot.n):
            o = P[j]
            if j > 0:
                v = P[j] - P[j - 1]
                if np.hypot(*v) > 1e-12:
                    heading = float(np.arctan2(v[1], v[0]))
            u = np.array([np.cos(heading), np.sin(heading)])
            self.ext[j].set_data([o[0], o[0] + 1.4 * r * u[0]], [o[1], o[1] + 1.4 * r * u[1]])
            if not robot.revolute[j]:                   # a slide: its length is a link label
                self.arcs[j].set_data([], [])
                self.labels[f"q{j + 1}"].set_text("")
                continue
            sweep = self.q[j]
            s = heading + np.linspace(0.0, sweep, 24)
            self.arcs[j].set_data(o[0] + r * np.cos(s), o[1] + r * np.sin(s))
            m = heading + sweep / 2
            self.labels[f"q{j + 1}"].set_position((o[0] + 1.25 * r * np.cos(m), o[1] + 1.25 * r * np.sin(m)))
            self.labels[f"q{j + 1}"].set_text(f"$q_{j + 1}$ = {self.q[j]:.2f}")
        for j, nm in enumerate(self.names):
            a, b = P[j], P[j + 1]
            v = b - a
            nrm = np.array([-v[1], v[0]]) / max(np.hypot(*v), 1e-12)   # to the left of the link
            if self.q[j] < 0:                           # the angle's arc is on the left: go right
                nrm = -nrm
            mid = (a + b) / 2 + 0.04 * span * nrm
            self.labels[nm].set_position(tuple(mid))
            self.labels[nm].set(ha="left" if nrm[0] > 0.3 else "right" if nrm[0] < -0.3 else "center",
                                va="bottom" if nrm[1] > 0.3 else "top" if nrm[1] < -0.3 else "center")
            self.labels[nm].set_text(f"{nm} = {np.hypot(*v):.3g}")
        return self


def plot_planar_schematic(robot: Chain, q: JointVector, ax: Any = None, *, names: Sequence[str] | None = None,
                          figsize: tuple[float, float] = (4, 4)) -> PlanarSketch:
    r"""Draw a planar arm with its joint angles and link lengths.

    The joints are the origins of ``robot.joint_frames(q)``, the tip is the
    end pose's origin.  Each joint angle :math:`q_j` is drawn as an arc
    from the direction of the previous link (dashed; the x-axis for joint
    1) to the next link, the angle the notes measure; each link is labelled
    with its name and length.

    Parameters
    ----------
    robot : planar chain
        E.g. ``ETS2.Rz('q1') * ETS2.Tx(1) * ETS2.Rz('q2') * ETS2.Tx(1)`` or
        ``rvc.models.planar2()`` (any chain whose joints turn about z in the
        plane z = 0).
    q : array_like (n,)
    ax : Axes, optional
    names : list of str, optional
        Names of the links (default ``a1, a2, ...``).

    Returns
    -------
    PlanarSketch
        ``.update(q)`` redraws in place (for a slider).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> E = ETS2.Rz("q1") * ETS2.Tx(1) * ETS2.Rz("q2") * ETS2.Tx(0.5)
    >>> h = plot_planar_schematic(E, [0.3, 0.4])
    >>> h.labels["a2"].get_text(), h.labels["q1"].get_text()
    ('a2 = 0.5', '$q_1$ = 0.30')
    """
    ax = _axes2d(ax, figsize)
    h = PlanarSketch(robot, q, ax, names)
    reach = 1.15 * float(np.linalg.norm(np.diff(h.points, axis=0), axis=1).sum())
    ax.set(xlim=(-reach, reach), ylim=(-reach, reach), aspect="equal", xlabel="x", ylabel="y")
    ax.axhline(0, color="0.85", lw=0.8, zorder=0)
    ax.axvline(0, color="0.85", lw=0.8, zorder=0)
    return h


# ---------------------------------------------------------------------------
# any arm with its joint axes


def plot_joint_axes(robot: Chain, q: JointVector | None = None, ax: Any = None, *, names: Sequence[str] | None = None,
                    figsize: tuple[float, float] = (4.5, 4), axis_length: float | None = None,
                    decimals: int = 3) -> Any:
    r"""Draw an arm as joints, joint axes and the lengths between them.

    The joint origins and axes are those of ``robot.joint_frames(q)`` (the
    axis of joint j is the z-axis of its frame), the tip is the end pose's
    origin.  Each axis is drawn as an arrow labelled :math:`q_j`; each
    segment between distinct points is drawn and labelled with its length,
    named by ``names`` in order (default: the length only).

    Parameters
    ----------
    robot : chain model
        Any model with ``joint_frames`` (DH, modified DH, ETS).
    q : array_like (n,), optional
        Configuration (default zeros).
    ax : Axes3D, optional
    names : list of str, optional
        Names of the segments, e.g. ``["L1", "L2"]``.
    axis_length : float, optional
        Length of the axis arrows (default a third of the shortest segment).

    Returns
    -------
    Axes3D

    >>> import matplotlib; matplotlib.use("Agg")
    >>> from rvc.models import leg
    >>> ax = plot_joint_axes(leg(), names=["L1", "L2"])
    >>> sorted(t.get_text() for t in ax.texts)
    ['$q_1$', '$q_2$', '$q_3$', 'L1 = 0.1', 'L2 = 0.1']
    """
    q = getq(np.zeros(robot.n) if q is None else q, robot.n, robot.revolute, name="q")
    ax = _axes3d(ax, figsize)
    F, T = robot.joint_frames(q)
    F, T = np.asarray(F), np.asarray(T)
    d = F.shape[-1] - 1
    O = np.zeros((len(F) + 1, 3))
    O[:-1, :d] = F[:, :d, d]
    O[-1, :d] = T[:d, d]
    keep = np.r_[True, np.linalg.norm(np.diff(O, axis=0), axis=1) > 1e-9]
    P = O[keep]
    seg = np.linalg.norm(np.diff(P, axis=0), axis=1)
    size = max(float(np.ptp(P, axis=0).max()), 1e-3)
    la = (0.6 * min(seg) if len(seg) else 0.1) if axis_length is None else float(axis_length)
    ax.plot(*P.T, "-", color="tab:blue", lw=5, solid_capstyle="round")
    ax.plot(*O[:-1].T, "o", color="k", ms=5)
    ax.plot(*O[-1], "s", color="k", ms=5)
    seen = {}
    for j in range(robot.n):
        o = O[j]
        k = seen.get(tuple(np.round(o, 9)), 0)          # several axes through one point
        seen[tuple(np.round(o, 9))] = k + 1
        z = np.zeros(3)
        z[:d] = F[j, :d, 2] if d == 3 else 0.0
        if d == 2:
            z = np.array([0.0, 0.0, 1.0])
        a0 = o - 0.5 * la * z
        ax.quiver(*a0, *(la * z), color="tab:purple", arrow_length_ratio=0.2, lw=1.5)
        tip = o + (0.6 + 0.25 * k) * la * z
        ax.text(*tip, f"$q_{j + 1}$", color="tab:purple", fontsize=9)
    centre = P.mean(axis=0)
    for i, (a, b) in enumerate(zip(P[:-1], P[1:])):
        out = (a + b) / 2 - centre                      # label away from the middle of the arm
        mid = (a + b) / 2 + 0.25 * size * out / max(np.linalg.norm(out), 1e-12)
        label = f"{np.linalg.norm(b - a):.{decimals}g}"
        if names is not None and i < len(names):
            label = f"{names[i]} = {label}"
        ax.text(*mid, label, color="tab:green", fontsize=9)
    c = P.mean(axis=0)
    half = 0.6 * size + la
    ax.set(xlim=(c[0] - half, c[0] + half), ylim=(c[1] - half, c[1] + half),
           zlim=(c[2] - half, c[2] + half), xlabel="x", ylabel="y", zlabel="z")
    ax.set_box_aspect((1, 1, 1))
    return ax
