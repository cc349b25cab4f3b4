"""Drawing closed planar chains: links, motors, springs, passive joints (no maths here).

Everything here takes numbers -- joint positions computed by
:meth:`rvc.parallel.ClosedChain.points` and the chains' role strings -- and
draws them with matplotlib.  A drawing is made once and then *updated*
(``drawing.update(points)``), as sliders and animations need.

>>> import matplotlib; matplotlib.use("Agg")
>>> pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
...        np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
>>> drawing = plot_fivebar(pts, ["aep", "aep"])
>>> drawing.update(pts)
>>> len(drawing.springs)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..i18n import figure_text
from ..shapes import ArrayLike, TimeVector

__all__ = ["FiveBarDrawing", "plot_fivebar", "plot_modes", "plot_cut_tree", "animate_fivebar"]

LINK_COLORS = ("#1f4e79", "#7f7f7f")      # proximal (motor side), distal


def _spiral(center, angle, radius, turns=2.0, n=60):
    """Points of a flat spiral about ``center`` starting along ``angle`` (a spring symbol)."""
    phi = np.linspace(0.0, 2 * np.pi * turns, n)
    r = radius * (0.25 + 0.75 * phi / phi[-1])
    return center + np.stack([r * np.cos(angle + phi), r * np.sin(angle + phi)], axis=-1)


class FiveBarDrawing:
    """The artists of a planar closed chain, created once and updated in place.

    Parameters
    ----------
    ax : matplotlib Axes
    points : list of (n_i + 1, 2) arrays
        Base, joints and tip of each chain.
    roles : list of str
        Each chain's joint roles (``a`` motor, ``e`` spring, ``p`` passive).
    spring_radius : float
        Size of the spring symbols (m).
    color, alpha, lw : optional
        One colour for every link (default: proximal dark blue, distal grey),
        transparency and line width.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> pts = [np.array([[0.0, 0], [0, 0.1], [0, 0.2], [0.1, 0.3]])]
    >>> d = FiveBarDrawing(ax, pts, ["aep"])
    >>> [len(d.links), len(d.springs)]
    [2, 1]
    """

    def __init__(self, ax: Any, points: Sequence, roles: Sequence, *, spring_radius: float = 0.02,
                 color: Any = None, alpha: float = 1.0, lw: float = 3.0, zorder: int = 2) -> None:
        self.ax = ax
        self.roles = list(roles)
        self.spring_radius = spring_radius
        self.links, self.springs, self.motors, self.passive = [], [], [], []
        z = zorder
        for pts, roles in zip(points, self.roles):
            jp = roles.index("p") if "p" in roles else len(roles)
            for part, c in ((slice(0, jp + 1), LINK_COLORS[0]), (slice(jp, None), LINK_COLORS[1])):
                (line,) = ax.plot(*pts[part].T, "-", color=color or c, lw=lw, alpha=alpha,
                                  solid_capstyle="round", zorder=z)
                self.links.append((line, part))
            for j, r in enumerate(roles):
                if r == "e":
                    (s,) = ax.plot(*_spiral(pts[j], 0.0, spring_radius).T, "-", color="#c00000",
                                   lw=1.2, alpha=alpha, zorder=z + 1)
                    self.springs.append((s, j))
            ia = [j for j, r in enumerate(roles) if r == "a"]
            ip = [j for j, r in enumerate(roles) if r == "p"]
            (m,) = ax.plot(*pts[ia].T, "s", ms=9, color="k", alpha=alpha, zorder=z + 2)
            (p,) = ax.plot(*pts[ip].T, "o", ms=6, mfc="w", mec="k", alpha=alpha, zorder=z + 2)
            self.motors.append((m, ia))
            self.passive.append((p, ip))
        (self.effector,) = ax.plot(*points[0][-1], "o", ms=10, color="#d62728", alpha=alpha,
                                   zorder=z + 3)
        self.update(points)

    def update(self, points: Sequence[ArrayLike]) -> None:
        """Move every artist to the joint positions ``points`` (one (n_i + 1, 2) array per chain)."""
        k = 0
        for i, pts in enumerate(points):
            for _ in range(2):
                line, part = self.links[k]
                line.set_data(*pts[part].T)
                k += 1
            self.motors[i][0].set_data(*pts[self.motors[i][1]].T)
            self.passive[i][0].set_data(*pts[self.passive[i][1]].T)
        chain_of = np.repeat(np.arange(len(points)), [r.count("e") for r in self.roles])
        for (s, j), i in zip(self.springs, chain_of):
            pts = points[i]
            d = pts[j + 1] - pts[j]
            s.set_data(*_spiral(pts[j], np.arctan2(d[1], d[0]), self.spring_radius).T)
        self.effector.set_data([points[0][-1][0]], [points[0][-1][1]])

    def artists(self) -> list:
        """Every artist of the drawing (for animation blitting)."""
        return ([line for line, _ in self.links] + [s for s, _ in self.springs]
                + [m for m, _ in self.motors] + [p for p, _ in self.passive] + [self.effector])


def plot_fivebar(points: Sequence[ArrayLike], roles: Sequence[str], ax: Any = None, *, base: bool = True,
                 lim: ArrayLike | None = None, figsize: tuple[float, float] = (4, 3),
                 **kwargs: Any) -> FiveBarDrawing:
    """Draw a closed planar chain from joint positions; returns its :class:`FiveBarDrawing`.

    ``base`` draws the ground line under the motors; ``lim`` is
    ((xmin, xmax), (ymin, ymax)) or None for automatic limits.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
    ...        np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
    >>> plot_fivebar(pts, ["aep", "aep"]).ax.get_aspect()
    1.0
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    drawing = FiveBarDrawing(ax, points, roles, **kwargs)
    if base:
        b = np.array([p[0] for p in points])
        pad = 0.05
        ax.plot([b[:, 0].min() - pad, b[:, 0].max() + pad], [b[:, 1].min()] * 2, "k-", lw=1.5,
                zorder=1)
        ax.fill_between([b[:, 0].min() - pad, b[:, 0].max() + pad], b[:, 1].min() - 0.02,
                        b[:, 1].min(), color="0.85", zorder=0, lw=0)
    ax.set_aspect("equal")
    if lim is not None:
        ax.set_xlim(*lim[0])
        ax.set_ylim(*lim[1])
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    return drawing


def plot_modes(rest: Sequence[ArrayLike], shapes: Sequence[tuple[Sequence[ArrayLike], Sequence[ArrayLike]]],
               roles: Sequence[str], *, labels: Sequence[str] | None = None,
               figsize: tuple[float, float] = (8, 3), lim: ArrayLike | None = None) -> Any:
    """Mode shapes: for each mode, the rest configuration and the two extremes of its swing.

    ``rest`` the undeformed joint positions (list per chain); ``shapes`` a
    list (one per mode) of pairs (plus, minus) of deformed joint positions;
    ``labels`` one title per mode.  Returns the figure.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
    ...        np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
    >>> fig = plot_modes(pts, [(pts, pts)], ["aep", "aep"], labels=["mode 1"])
    >>> len(fig.axes)
    1
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(shapes), figsize=figsize, squeeze=False)
    for k, (ax, (plus, minus)) in enumerate(zip(axes[0], shapes)):
        plot_fivebar(rest, roles, ax=ax, color="0.8", alpha=0.9, lw=2, zorder=1, lim=lim)
        FiveBarDrawing(ax, plus, roles, color="#1f77b4", alpha=0.9, lw=2, zorder=3)
        FiveBarDrawing(ax, minus, roles, color="#ff7f0e", alpha=0.9, lw=2, zorder=3)
        if labels is not None:
            ax.set_title(labels[k], fontsize=9)
    fig.tight_layout()
    return fig


def plot_cut_tree(points: Sequence[ArrayLike], roles: Sequence[str], cut_forces: ArrayLike,
                  branch_forces: ArrayLike, *, gap: float = 0.03, scale: float | None = None, ax: Any = None,
                  figsize: tuple[float, float] = (5, 3.6), lim: ArrayLike | None = None) -> Any:
    """The closed chain cut open at the end-effector into a tree, with the forces at the cut tips.

    ``points`` and ``roles`` as for :func:`plot_fivebar`; ``cut_forces``
    (m, 2) the force on each chain's tip from the cut (for two chains
    :math:`\\lambda` and :math:`-\\lambda`), ``branch_forces`` (m, 2) each
    chain's branch force :math:`s_i f_{B,i}` (the columns of S times the
    branch-force magnitudes), in N.  Each chain's last link is drawn
    ``gap`` (m) short of the cut so the tree's tips stand apart; arrows start
    at the tips, ``scale`` m per N (default: the largest force drawn 0.12 m
    long).  Returns the axes.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
    ...        np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
    >>> ax = plot_cut_tree(pts, ["aep", "aep"], [[1.0, 0.5], [-1.0, -0.5]], [[0.8, 1.2], [-0.8, 1.2]])
    >>> len(ax.patches)                     # two cut forces, two branch forces
    4
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch

    points = [np.array(p, dtype=float) for p in points]
    cut = np.asarray(cut_forces, dtype=float)
    branch = np.asarray(branch_forces, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    opened = []
    for p in points:
        q = p.copy()
        d = q[-1] - q[-2]
        q[-1] = q[-1] - gap * d / np.linalg.norm(d)
        opened.append(q)
    drawing = plot_fivebar(opened, roles, ax=ax, lim=lim)
    drawing.effector.set_visible(False)
    tip = points[0][-1]
    ax.plot(*tip, "x", color="#d62728", ms=9, mew=2, zorder=6)
    ax.annotate(figure_text("cut"), tip, xytext=(0, 9), textcoords="offset points", ha="center", fontsize=8,
                color="#d62728")
    if scale is None:
        top = max(np.abs(cut).max(initial=0.0), np.abs(branch).max(initial=0.0))
        scale = 0.12 / top if top > 0 else 1.0
    for i, q in enumerate(opened):
        for f, color, style, name in ((cut[i], "#d62728", "-", "\\lambda" if i == 0 else "-\\lambda"),
                                      (branch[i], "#2ca02c", "--", f"s_{i + 1} f_{{B{i + 1}}}")):
            ax.add_patch(FancyArrowPatch(q[-1], q[-1] + scale * f, arrowstyle="-|>", mutation_scale=12,
                                         color=color, lw=1.6, ls=style, shrinkA=0, shrinkB=0, zorder=5))
            end = q[-1] + scale * f
            ax.text(*(end + 0.03 * f / max(np.linalg.norm(f), 1e-300)), f"${name}$", color=color,
                    fontsize=9, ha="center", va="center")
    ax.margins(y=0.15)
    ax.set_title(figure_text("the tree: the loop cut at the end-effector"), fontsize=10)
    return ax


def animate_fivebar(frames: Sequence[Sequence[ArrayLike]], roles: Sequence[str], t: TimeVector, *,
                    trace: ArrayLike | None = None, trace_t: TimeVector | None = None, trace_label: str = "",
                    labels: Sequence[str] | None = None, path: ArrayLike | None = None, title: str = "",
                    lim: ArrayLike | None = None, figsize: tuple[float, float] = (7, 3), dpi: int = 70,
                    interval: int = 50) -> Any:
    """An animation of a closed chain: the mechanism (left) and a signal against time (right).

    ``frames`` a list of (n_i + 1, 2) arrays per frame, i.e. ``frames[k][i]``
    is chain i at frame k; ``t`` the frame times (T,); ``trace`` (S,) or
    (S, c) plotted on the right against ``trace_t`` (S,) (default ``t``)
    with a cursor that follows the frames (``trace_label`` its axis label,
    ``labels`` a legend); ``path`` (P, 2) a reference path drawn dashed.  Returns a
    ``matplotlib.animation.FuncAnimation`` (show it with ``rvc.jshtml``).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
    ...        np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
    >>> anim = animate_fivebar([pts, pts], ["aep", "aep"], [0.0, 0.1], trace=[0.0, 1.0])
    >>> type(anim).__name__, "<script" in anim.to_jshtml()
    ('FuncAnimation', True)
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    t = np.asarray(t, dtype=float)
    ncols = 2 if trace is not None else 1
    fig, axes = plt.subplots(1, ncols, figsize=figsize, dpi=dpi, squeeze=False,
                             gridspec_kw={"width_ratios": [1.2, 1][:ncols]})
    ax = axes[0, 0]
    if path is not None:
        ax.plot(*np.asarray(path).T, "--", color="#d62728", lw=1, zorder=1)
    drawing = plot_fivebar(frames[0], roles, ax=ax, lim=lim)
    stamp = ax.text(0.02, 0.95, "", transform=ax.transAxes, fontsize=8, va="top")
    if title:
        ax.set_title(title, fontsize=9)
    cursor = None
    if trace is not None:
        tr = axes[0, 1]
        tr.plot(t if trace_t is None else trace_t, trace, lw=1.2, label=labels)
        if labels is not None:
            tr.legend(fontsize=7)
        tr.set_xlabel("t (s)")
        tr.set_ylabel(trace_label)
        tr.grid(True, alpha=0.3)
        cursor = tr.axvline(t[0], color="k", lw=0.8)
    fig.tight_layout()

    def frame(k):
        drawing.update(frames[k])
        stamp.set_text(f"t = {t[k]:.2f} s")
        if cursor is not None:
            cursor.set_xdata([t[k], t[k]])
        return drawing.artists() + [stamp]

    plt.close(fig)
    return FuncAnimation(fig, frame, frames=len(frames), interval=interval, blit=False)
