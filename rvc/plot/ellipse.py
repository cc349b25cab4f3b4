"""Drawing ellipses and ellipsoids: velocity and force ellipsoids of arms (Chapter 8; no maths here).

The ellipsoids themselves come from :mod:`rvc.kinematics`
(:func:`~rvc.kinematics.ellipsoid.ellipsoid`,
:func:`~rvc.kinematics.rates.vellipse`,
:func:`~rvc.kinematics.rates.fellipse`); this module only draws an
:class:`~rvc.kinematics.ellipsoid.Ellipsoid` -- a closed curve in 2-D, a
translucent surface in 3-D -- and, as every drawing in rvc, keeps its
artists so that ``.update(...)`` moves them for a slider instead of
drawing anew.

* :func:`plot_ellipse` -- one ellipse (2-D) or ellipsoid (3-D), from an
  ``Ellipsoid`` or a matrix ``S`` (the ellipsoid :math:`y^T S^{-1} y = 1`, the
  notes' ``plot_ellipse(J*J')``);
* :func:`plot_vellipse`, :func:`plot_fellipse` -- an arm's velocity or
  force ellipsoid at the tool; ``.update(q)`` follows the arm.

>>> import matplotlib; matplotlib.use("Agg")
>>> h = plot_ellipse(np.diag([4.0, 1.0]))
>>> h.points.shape, float(h.points[:, 0].max())
((101, 2), 2.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import getarray, getscalar
from ..kinematics.chain import Chain
from ..kinematics.ellipsoid import Ellipsoid, ellipsoid
from ..kinematics.rates import fellipse, vellipse
from ..shapes import ArrayLike, JointVector

__all__ = ["EllipsePlot", "ArmEllipsePlot", "plot_ellipse", "plot_vellipse", "plot_fellipse"]

#: A radius drawn for an unbounded (``inf``) direction, far outside any axes.
FAR = 1e6


def _getellipsoid(E, centre=None) -> Ellipsoid:
    if isinstance(E, Ellipsoid):
        if centre is not None:
            c = getarray(centre, "centre", shape=(E.centre.shape[-1],))
            return Ellipsoid(c, E.radii, E.axes)
        return E
    return ellipsoid(E, centre)


def _one(E: Ellipsoid) -> Ellipsoid:
    if E.radii.ndim != 1 or E.radii.shape[0] not in (2, 3):
        raise ValueError(f"E: expected one ellipse (2 radii) or ellipsoid (3 radii) to draw, got "
                         f"radii of shape {E.radii.shape}; choose 2 or 3 rows with axes=")
    return E


class EllipsePlot:
    """Artists of one ellipse (2-D line) or ellipsoid (3-D surface); :meth:`update` moves them.

    Attributes
    ----------
    ax, fig
        Where it is drawn.
    E : Ellipsoid
        What is drawn.
    points : ndarray
        The drawn points: (resolution + 1, 2) around an ellipse, or
        (rows, columns, 3) of the ellipsoid's mesh.
    artist
        The ``Line2D`` (2-D) or ``Poly3DCollection`` (3-D).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> h = plot_ellipse(np.eye(2))
    >>> float(h.update(np.diag([9.0, 1.0])).points[:, 0].max())     # same artist, new ellipse
    3.0
    """

    def __init__(self, E: Any, ax: Any, *, scale: float = 1.0, resolution: int = 100, color: Any = "tab:red",
                 alpha: float = 0.3, linewidth: float = 1.5, **kwargs: Any) -> None:
        self.ax = ax
        self.fig = ax.figure
        self.scale = getscalar(scale, "scale")
        self.resolution = int(resolution)
        E = _one(E)
        self.dim = E.radii.shape[0]
        if self.dim == 2:
            (self.artist,) = ax.plot([], [], "-", color=color, lw=linewidth, **kwargs)
        else:
            from mpl_toolkits.mplot3d.art3d import Poly3DCollection

            self.artist = Poly3DCollection([], facecolor=color, edgecolor=color, alpha=alpha,
                                           linewidth=0.2, **kwargs)
            ax.add_collection3d(self.artist)
        self.update(E)

    def _mesh(self, E):
        radii = np.where(np.isfinite(E.radii), E.radii, FAR) * self.scale
        M = E.axes * radii                                    # columns: semi-axes
        if self.dim == 2:
            u = np.linspace(0, 2 * np.pi, self.resolution + 1)
            return E.centre + np.stack([np.cos(u), np.sin(u)], axis=-1) @ M.T
        u = np.linspace(0, 2 * np.pi, 25)
        v = np.linspace(0, np.pi, 13)
        S = np.stack([np.outer(np.sin(v), np.cos(u)), np.outer(np.sin(v), np.sin(u)),
                      np.outer(np.cos(v), np.ones_like(u))], axis=-1)
        return E.centre + S @ M.T

    def update(self, E: Ellipsoid | ArrayLike) -> EllipsePlot:
        """Draw the ellipse or ellipsoid ``E`` (an ``Ellipsoid`` or a matrix ``S``); returns self."""
        E = _one(_getellipsoid(E))
        if E.radii.shape[0] != self.dim:
            raise ValueError(f"E: expected {self.dim} dimensions as drawn first, got {E.radii.shape[0]}")
        self.E = E
        P = self._mesh(E)
        self.points = P
        if self.dim == 2:
            self.artist.set_data(P[:, 0], P[:, 1])
        else:
            quads = np.stack([P[:-1, :-1], P[:-1, 1:], P[1:, 1:], P[1:, :-1]], axis=-2)
            self.artist.set_verts(list(quads.reshape(-1, 4, 3)))
        return self


def _new_axes(dim, figsize=(4, 4)):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize)
    if dim == 3:
        return fig.add_subplot(projection="3d")
    ax = fig.add_subplot()
    ax.set_aspect("equal")
    ax.grid(True)
    return ax


def _fit_view(ax, P, dim):
    lo, hi = P.reshape(-1, dim).min(axis=0), P.reshape(-1, dim).max(axis=0)
    mid, half = (lo + hi) / 2, 0.55 * max(float(np.max(hi - lo)), 1e-9)
    ax.set_xlim(mid[0] - half, mid[0] + half)
    ax.set_ylim(mid[1] - half, mid[1] + half)
    if dim == 3:
        ax.set_zlim(mid[2] - half, mid[2] + half)
        ax.set_box_aspect((1, 1, 1))


def plot_ellipse(E: Ellipsoid | ArrayLike, centre: ArrayLike | None = None, ax: Any = None, **kwargs: Any
                 ) -> EllipsePlot:
    """Draw an ellipse (2-D) or ellipsoid (3-D): the notes' ``plot_ellipse(J*J')``.

    ``E`` is an :class:`~rvc.kinematics.ellipsoid.Ellipsoid` with 2 or 3
    radii, or a symmetric positive semi-definite matrix ``S`` (2, 2) or
    (3, 3) standing for the ellipsoid :math:`(y - c)^T S^{-1} (y - c) = 1`
    (for ``S = J J^T`` the velocity ellipsoid).  ``centre`` overrides the
    centre.  A new figure is made (and fitted to the ellipse) unless ``ax``
    is given (then a 3-D ellipsoid needs 3-D axes).  Keyword arguments:
    ``scale`` (multiplies the radii), ``color``, ``alpha`` (3-D surface),
    ``linewidth``, ``resolution`` (points around a 2-D ellipse).  An
    infinite radius is drawn as a very long one.

    Returns an :class:`EllipsePlot`; ``.update(E)`` redraws in place.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> h = plot_ellipse(np.diag([4.0, 1.0, 0.25]))
    >>> h.points.shape, float(h.points[..., 2].max())
    ((13, 25, 3), 0.5)
    """
    E = _one(_getellipsoid(E, centre))
    dim = E.radii.shape[0]
    fresh = ax is None
    if fresh:
        ax = _new_axes(dim)
    h = EllipsePlot(E, ax, **kwargs)
    if fresh:
        _fit_view(ax, h.points, dim)
    return h


class ArmEllipsePlot(EllipsePlot):
    """An arm's velocity or force ellipsoid at the tool; :meth:`update` takes a configuration.

    Attributes as :class:`EllipsePlot`, plus ``robot``, ``q``, ``kind``
    (``"velocity"`` or ``"force"``) and ``axes_rows`` (the ``axes`` option).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> p560 = rvc.models.puma560()
    >>> h = plot_vellipse(p560, p560.qn, "rot")             # 3-D, angular velocity
    >>> h.update(p560.qr).E.radii.round(4) + 0              # at qr one radius is 0
    array([1.7321, 1.7321, 0.    ])
    """

    def __init__(self, robot: Chain, q: JointVector, kind: str, axes: Any, ax: Any, **kwargs: Any) -> None:
        self.robot, self.kind, self.axes_rows = robot, kind, axes
        self.q = None
        super().__init__(self._ellipsoid(q), ax, **kwargs)
        self.q = np.asarray(q, dtype=float)

    def _ellipsoid(self, q):
        f = vellipse if self.kind == "velocity" else fellipse
        E = f(self.robot, q, self.axes_rows)
        if E.radii.ndim != 1:
            raise ValueError(f"q: expected one configuration of {self.robot.n} joints, got "
                             f"shape {np.shape(q)}")
        return E

    def update(self, q: JointVector) -> ArmEllipsePlot:
        """Draw the ellipsoid at configuration ``q`` (or an ``Ellipsoid``); returns self."""
        if isinstance(q, Ellipsoid) or self.q is None:
            return super().update(q)
        self.q = np.asarray(q, dtype=float)
        return super().update(self._ellipsoid(q))


def _plot_arm_ellipse(robot, q, kind, axes, ax, kwargs):
    fresh = ax is None
    E = (vellipse if kind == "velocity" else fellipse)(robot, q, axes)
    dim = _one(E).radii.shape[0]
    if fresh:
        ax = _new_axes(dim)
    h = ArmEllipsePlot(robot, q, kind, axes, ax, **kwargs)
    if fresh:
        _fit_view(ax, h.points, dim)
    return h


def plot_vellipse(robot: Chain, q: JointVector, axes: str | ArrayLike = "trans", ax: Any = None, **kwargs: Any
                  ) -> ArmEllipsePlot:
    """Draw the arm's velocity ellipsoid at the tool (the notes' ``p2.vellipse(q)``).

    The ellipsoid is :func:`~rvc.kinematics.rates.vellipse` ``(robot, q,
    axes)``; choose 2 rows for an ellipse (``axes=[1, 1, 0, 0, 0, 0]`` for a
    planar arm in the xy-plane) or 3 for an ellipsoid (``"trans"``,
    ``"rot"``).  Other arguments as :func:`plot_ellipse` (``scale`` is
    useful: velocities per unit joint speed are not lengths).  Returns an
    :class:`ArmEllipsePlot`; ``.update(q)`` follows the arm.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> p2 = rvc.models.planar2()
    >>> h = plot_vellipse(p2, [0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0])
    >>> h.update([0.3, 1.0]).E.centre.round(4)
    array([1.2228, 1.2591])
    """
    return _plot_arm_ellipse(robot, q, "velocity", axes, ax, kwargs)


def plot_fellipse(robot: Chain, q: JointVector, axes: str | ArrayLike = "trans", ax: Any = None, **kwargs: Any
                  ) -> ArmEllipsePlot:
    """Draw the arm's force ellipsoid at the tool (the notes' ``p2.fellipse(q)``).

    As :func:`plot_vellipse` with :func:`~rvc.kinematics.rates.fellipse`.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> p2 = rvc.models.planar2()
    >>> h = plot_fellipse(p2, [0, np.pi / 2], axes=[1, 1, 0, 0, 0, 0])
    >>> h.E.radii.round(4)
    array([1.618, 0.618])
    """
    return _plot_arm_ellipse(robot, q, "force", axes, ax, kwargs)
