"""Plotting frames, points and animations (no maths here).

Matplotlib is imported inside the functions, so ``import rvc`` stays fast.
Drawing functions return a small handle whose ``set(T)`` moves the drawn
frame in place (for slider callbacks: create the figure once, update it).

* :func:`trplot2` / :func:`trplot`: a 2-D / 3-D coordinate frame.
* :func:`plot_point`: a labelled point.
* :func:`tranimate2` / :func:`tranimate`: a ``FuncAnimation`` of a moving
  frame; in a notebook show it with :func:`rvc.jshtml` (offline player).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> h = trplot2(np.eye(3), frame="0")
>>> h.set(transl2(1, 2))
>>> np.round(h.origin(), 6)
array([1., 2.])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import checks
from ..shapes import SE2, SE3, SO3, ArrayLike
from ..spatial.expmap import trexp, trlog

__all__ = ["trplot2", "trplot", "plot_point", "tranimate2", "tranimate", "FrameHandle"]

FIGSIZE = (4, 4)
_AXCOLORS = ("r", "g", "b")


def _plt():
    import matplotlib.pyplot as plt
    return plt


def _new_axes(dim, dpi=None):
    plt = _plt()
    fig = plt.figure(figsize=FIGSIZE, dpi=dpi)
    if dim == 3:
        return fig.add_subplot(111, projection="3d")
    ax = fig.add_subplot(111)
    ax.set_aspect("equal")
    return ax


class FrameHandle:
    """The artists of one drawn frame; ``set(T)`` redraws it at pose ``T``.

    Attributes: ``ax``, ``lines`` (one per axis), ``texts`` (axis labels and
    frame name), ``dim`` (2 or 3), ``length``.
    """

    def __init__(self, ax: Any, dim: int, length: float, lines: list, texts: list, labels: Any,
                 frame: Any) -> None:
        self.ax, self.dim, self.length = ax, dim, length
        self.lines, self.texts, self._labels, self._frame = lines, texts, labels, frame
        self._T = np.eye(dim + 1)

    def origin(self) -> np.ndarray:
        """Origin of the frame as last drawn."""
        return self._T[: self.dim, self.dim].copy()

    def set(self, T: SE2 | SE3) -> None:
        """Move the frame to pose ``T`` (updates line data in place)."""
        T = checks.getpose(T, "T", self.dim)
        if T.shape != (self.dim + 1, self.dim + 1):
            raise ValueError(f"T: expected a single pose of shape {(self.dim + 1,) * 2}, "
                             f"got shape {T.shape}")
        self._T = T
        d = self.dim
        o = T[:d, d]
        for i, line in enumerate(self.lines):
            e = o + self.length * T[:d, i]
            if d == 2:
                line.set_data([o[0], e[0]], [o[1], e[1]])
            else:
                line.set_data_3d([o[0], e[0]], [o[1], e[1]], [o[2], e[2]])
            if self.texts:
                p = o + 1.15 * self.length * T[:d, i]
                self._move_text(self.texts[i], p)
        if self._frame and self.texts:
            p = o - 0.12 * self.length * (T[:d, :d] @ np.ones(d))
            self._move_text(self.texts[-1], p)

    def _move_text(self, text, p):
        if self.dim == 2:
            text.set_position((p[0], p[1]))
        else:
            text.set_position((p[0], p[1]))
            text.set_3d_properties(p[2], None)

    @property
    def artists(self) -> list[Any]:
        """All artists (lines, then texts) e.g. for ``FuncAnimation(blit=True)``."""
        return list(self.lines) + list(self.texts)


def _trplot(T, dim, frame, color, ax, length, labels, text, linewidth):
    T = checks.getpose(T, "T", dim)
    if T.shape != (dim + 1, dim + 1):
        raise ValueError(f"T: expected a single pose of shape {(dim + 1,) * 2}, got shape {T.shape}")
    length = checks.getscalar(length, "length")
    if ax is None:
        ax = _new_axes(dim)
    if color is None:
        colors = _AXCOLORS[:dim]
    elif isinstance(color, str) or np.ndim(color) == 1 and len(color) in (3, 4) and dim != 3:
        colors = [color] * dim
    else:
        colors = list(color)
        if len(colors) != dim:
            raise ValueError(f"color: expected one colour or {dim} colours, got {len(colors)}")
    if labels is None:
        labels = "XYZ"[:dim]
    if len(labels) != dim:
        raise ValueError(f"labels: expected {dim} axis labels, got {len(labels)}")
    lines, texts = [], []
    for i in range(dim):
        if dim == 2:
            (line,) = ax.plot([0, 0], [0, 0], color=colors[i], linewidth=linewidth)
        else:
            (line,) = ax.plot([0, 0], [0, 0], [0, 0], color=colors[i], linewidth=linewidth)
        lines.append(line)
    if text:
        sub = f"{{{frame}}}" if frame else ""
        for i in range(dim):
            name = f"${labels[i]}_{sub}$" if frame else labels[i]
            if dim == 2:
                texts.append(ax.text(0, 0, name, color=colors[i], ha="center", va="center"))
            else:
                texts.append(ax.text(0, 0, 0, name, color=colors[i], ha="center", va="center"))
        if frame:
            if dim == 2:
                texts.append(ax.text(0, 0, f"{{{frame}}}", ha="center", va="center"))
            else:
                texts.append(ax.text(0, 0, 0, f"{{{frame}}}", ha="center", va="center"))
    h = FrameHandle(ax, dim, length, lines, texts, labels, frame)
    h.set(T)
    _include_in_view(ax, dim, T, length)
    return h


def _include_in_view(ax, dim, T, length):
    """Grow the axes' data limits to hold the frame (set_data alone does not)."""
    origin = T[:dim, dim]
    tips = origin + length * T[:dim, :dim].T
    pts = np.vstack([origin, tips])
    if dim == 2:
        ax.update_datalim(pts)
        ax.autoscale_view()
    else:
        ax.auto_scale_xyz(pts[:, 0], pts[:, 1], pts[:, 2], had_data=True)


def trplot2(T: SE2, frame: str | None = None, color: Any = None, ax: Any = None, length: float = 1.0,
            labels: Sequence[str] | None = None, text: bool = True, linewidth: float = 1.5) -> FrameHandle:
    """Draw a 2-D coordinate frame for the SE(2) pose ``T`` (3, 3).

    The x and y axes are arrows of ``length`` from the origin ``T[:2, 2]``
    along the columns of ``T[:2, :2]``, labelled ``X_{frame}``, ``Y_{frame}``.
    ``color`` is one colour or one per axis (default red, green).
    Creates a small figure if ``ax`` is None.  Returns a :class:`FrameHandle`.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> h = trplot2(transl2(1, 2), frame="1", color="b")
    >>> len(h.lines), len(h.texts)
    (2, 3)
    """
    return _trplot(T, 2, frame, color, ax, length, labels, text, linewidth)


def trplot(T: SE3 | SO3, frame: str | None = None, color: Any = None, ax: Any = None, length: float = 1.0,
           labels: Sequence[str] | None = None, text: bool = True, linewidth: float = 1.5) -> FrameHandle:
    """Draw a 3-D coordinate frame for the pose ``T`` (4, 4) or rotation (3, 3).

    Axes x, y, z from the origin along the columns of the rotation,
    coloured red, green, blue by default (or one ``color`` for all).
    Returns a :class:`FrameHandle`; ``handle.set(T2)`` moves the frame.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> h = trplot(np.eye(4), frame="A")
    >>> h.set(transl(1, 2, 3))
    >>> h.origin()
    array([1., 2., 3.])
    """
    a = checks.getarray(T, "T")
    if a.shape == (3, 3):
        a = np.block([[checks.getrotation(a, "T"), np.zeros((3, 1))], [np.zeros((1, 3)), np.ones((1, 1))]])
    return _trplot(a, 3, frame, color, ax, length, labels, text, linewidth)


def plot_point(p: ArrayLike, label: str | None = None, marker: str = "ko", ax: Any = None, **kwargs: Any) -> Any:
    """Plot point(s) ``p`` ((2,) or (N, 2); (3,) or (N, 3) on 3-D axes) with an optional label.

    Returns the ``Line2D`` of the markers.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> line = plot_point([3, 2], label="P")
    >>> line.get_xydata().tolist()
    [[3.0, 2.0]]
    """
    P = checks.getarray(p, "p")
    if P.ndim == 1:
        P = P[None, :]
    if P.ndim != 2 or P.shape[1] not in (2, 3):
        raise ValueError(f"p: expected shape (2,), (3,), (N, 2) or (N, 3), got shape {np.shape(p)}")
    if ax is None:
        ax = _new_axes(P.shape[1])
    if P.shape[1] == 2:
        (line,) = ax.plot(P[:, 0], P[:, 1], marker, **kwargs)
    else:
        (line,) = ax.plot(P[:, 0], P[:, 1], P[:, 2], marker, **kwargs)
    if label is not None:
        for row in P:
            ax.text(*(row + 0.05 * np.r_[1.0, 1.0, 0.0][: P.shape[1]]), f" {label}")
    return line


def _frames(T, nframes, dim):
    """A (N, n, n) stack of poses from an array, or by calling a function on theta."""
    if callable(T):
        seq = [np.asarray(T(th), dtype=float) for th in np.linspace(0, 1, nframes)]
        return checks.getpose(np.stack(seq), "T(theta)", dim)
    a = checks.getarray(T, "T")
    if dim == 3 and a.shape[-2:] == (3, 3):  # rotations: animate them as poses
        R = checks.getrotation(a, "T")
        a = np.zeros(R.shape[:-2] + (4, 4))
        a[..., :3, :3] = R
        a[..., 3, 3] = 1.0
    if a.ndim == 2:
        # a single target pose: the path exp(s log T), s in [0, 1], from the identity
        L = trlog(checks.getpose(a, "T", dim))
        return trexp(L[None] * np.linspace(0, 1, nframes)[:, None, None])
    return checks.getpose(a, "T", dim)


def _tranimate(T, dim, nframes, interval, frame, color, length, ax, lim, dpi):
    from matplotlib import animation
    plt = _plt()
    seq = _frames(T, nframes, dim)
    if ax is None:
        ax = _new_axes(dim, dpi)
    o = seq[:, :dim, dim]
    if lim is None:
        lo = min(float(o.min()) - length, -length)
        hi = max(float(o.max()) + length, length)
        lim = (lo, hi)
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    if dim == 3:
        ax.set_zlim(*lim)
        ax.set(xlabel="X", ylabel="Y", zlabel="Z")
    h = _trplot(seq[0], dim, frame, color, ax, length, None, True, 1.5)

    def update(i):
        h.set(seq[i])
        return h.artists

    anim = animation.FuncAnimation(ax.figure, update, frames=len(seq), interval=interval,
                                   blit=False, repeat=False)
    plt.close(ax.figure)
    anim.handle = h
    return anim


def tranimate(T: SE3 | SO3 | Callable[[float], SE3], nframes: int = 50, interval: float = 50,
              frame: str | None = None, color: Any = None, length: float = 1.0, ax: Any = None,
              lim: tuple[float, float] | None = None, dpi: float | None = None) -> Any:
    """Animate a 3-D frame; returns a ``matplotlib.animation.FuncAnimation``.

    ``T`` is an (N, 4, 4) sequence of poses (or (N, 3, 3) rotations), a single pose or rotation (animated from the
    identity along :math:`e^{s\\log T}`, :math:`s \\in [0, 1]`), or a
    callable ``f(s)`` returning a pose for ``s`` in [0, 1] (``nframes``
    samples).  ``interval`` is in ms; ``dpi`` sets the new figure's resolution
    (keep it low, ~70, for ``to_jshtml``).  The figure is closed, so only the
    animation shows: ``HTML(anim.to_jshtml())``.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> anim = tranimate(trotx(1.0), nframes=3)
    >>> type(anim).__name__, "<script" in anim.to_jshtml()
    ('FuncAnimation', True)
    """
    return _tranimate(T, 3, nframes, interval, frame, color, length, ax, lim, dpi)


#: Text glyphs for the icons of matplotlib's JavaScript animation player,
#: which would otherwise load Font Awesome from a CDN.
def tranimate2(T: SE2 | Callable[[float], SE2], nframes: int = 50, interval: float = 50,
               frame: str | None = None, color: Any = None, length: float = 1.0, ax: Any = None,
               lim: tuple[float, float] | None = None, dpi: float | None = None) -> Any:
    """Animate a 2-D frame (SE(2) poses); like :func:`tranimate`.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> anim = tranimate2(lambda s: transl2(s, 0), nframes=3)
    >>> type(anim).__name__, "<script" in anim.to_jshtml()
    ('FuncAnimation', True)
    """
    return _tranimate(T, 2, nframes, interval, frame, color, length, ax, lim, dpi)
