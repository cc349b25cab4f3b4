"""Writing on a surface (notes 7.5.1): text to pen strokes to pen poses.

:func:`hershey_strokes` turns text into pen strokes with
the Hershey fonts of the ``Hershey-Fonts`` package (a dependency; no font
data is kept here), :func:`letter_path` turns strokes into via points with
pen-up moves, a Cartesian trajectory (``mstraj``) and end-effector poses
with the pen pointing down, ready for ``ikine6s``.

>>> strokes = hershey_strokes("B")
>>> len(strokes), strokes[0].shape
(3, (2, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from HersheyFonts import HersheyFonts

from ..checks import getarray, getscalar, getvector
from ..motion.trajectory import mstraj
from ..results import Result
from ..shapes import Vector2, Vector3
from ..spatial.transforms3d import oa2tr, transl

__all__ = ["hershey_strokes", "LetterPath", "letter_path", "ink_fraction"]

#: Hershey font names of the course (as in the MATLAB toolbox's ``hershey``
#: data, the Roman simplex font) mapped to the ``HersheyFonts`` names.
_FONTS = {"simplex": "rowmans", "duplex": "rowmand", "triplex": "rowmant"}


def hershey_strokes(text: str, font: str = "simplex", scale: float = 1.0) -> list[Vector2]:
    """Pen strokes of ``text`` in a Hershey font, y up, cap height ``scale``.

    The glyph coordinates of the ``HersheyFonts`` package (y down, cap line
    -12, base line 9) are mapped to :math:`x' = s\\,(x - x_{min})/h`,
    :math:`y' = s\\,(y_{base} - y)/h` with :math:`h = y_{base} - y_{cap}`:
    the text starts at x = 0 and sits on the base line y = 0 with capitals
    ``scale`` high.

    Parameters
    ----------
    text : str
        The text (a word or a letter).
    font : str
        ``"simplex"`` (Roman simplex, the notes' font), ``"duplex"``,
        ``"triplex"``, or any font name of ``HersheyFonts().default_font_names``.
    scale : float
        Height of a capital letter.

    Returns
    -------
    list of ndarray (M, 2)
        One polyline per pen-down stroke.

    >>> B = hershey_strokes("B")
    >>> B[0]                       # the vertical bar of the B
    array([[0., 1.],
           [0., 0.]])
    >>> [s.shape[0] for s in hershey_strokes("Hi")]
    [2, 2, 2, 5, 2]
    """
    if not isinstance(text, str) or not text:
        raise ValueError(f"text: expected a non-empty string, got {text!r}")
    scale = getscalar(scale, "scale")
    f = HersheyFonts()
    name = _FONTS.get(font, font)
    if name not in f.default_font_names:
        raise ValueError(f"font: expected one of {sorted(_FONTS)} or a HersheyFonts font name, got {font!r}")
    f.load_default_font(name)
    opts = f.render_options
    cap, base = float(opts["cap_line"]), float(opts["base_line"])
    h = base - cap
    strokes = [np.array(s, dtype=float) for s in f.strokes_for_text(text) if len(s) >= 2]
    if not strokes:
        raise ValueError(f"text: {text!r} has no strokes in font {font!r}")
    x0 = min(float(s[:, 0].min()) for s in strokes)
    return [np.column_stack([(s[:, 0] - x0) / h, (base - s[:, 1]) / h]) * scale for s in strokes]


@dataclass(frozen=True, repr=False, eq=False)
class LetterPath(Result):
    """A pen path on a surface and the pen's poses.

    Attributes
    ----------
    via : ndarray (K, 3)
        Via points (x, y, z) in the writing frame, pen down at ``z_down``,
        lifted to ``z_up`` between strokes.
    t : ndarray (M,)
        Sample times.
    xyz : ndarray (M, 3)
        The Cartesian trajectory through the via points (``mstraj``).
    T : ndarray (M, 4, 4)
        Pen poses in the world: ``transl(origin + xyz) @ oa2tr([0, 1, 0], [0, 0, -1])``
        (approach vector down, as the notes' ``SE3.oa``).
    strokes : list of ndarray (L, 2)
        The strokes drawn, in the writing frame.
    window : ndarray (S, 2)
        For each stroke, the time span in which the pen should draw it: from
        the start of the blend at its first point to the end of the blend at
        its last point.
    z_down : float
        The height of the surface.
    """

    unpack = ("via", "t", "xyz", "T")
    via: np.ndarray
    t: np.ndarray
    xyz: np.ndarray
    T: np.ndarray
    strokes: list
    window: np.ndarray
    z_down: float = 0.0

    def __repr__(self) -> str:
        return (f"LetterPath({len(self.via)} via points, {len(self.t)} samples, "
                f"{self.t[-1]:.2f} s)")


def letter_path(strokes: Sequence[Vector2], z_up: float = 0.2, z_down: float = 0.0, dt: float = 0.02, *,
                qdmax: float | Vector3 = (0.5, 0.5, 0.5), tacc: float = 0.2, origin: Vector3 = (0.6, 0.0, 0.0),
                settle: bool = True) -> LetterPath:
    """Via points, Cartesian trajectory and pen poses for drawing strokes (7.5.1).

    The pen draws each stroke at height ``z_down``; between strokes it
    lifts straight up to ``z_up``, moves across, and comes straight down.
    The via points are joined by ``mstraj(via[1:], qdmax, None, via[0], dt,
    tacc)`` as in the notes (``mstraj(path, [0.5 0.5 0.5], [], path(1,:),
    0.02, 0.2)``), and each sample becomes the pose
    ``transl(origin + p) @ oa2tr([0, 1, 0], [0, 0, -1])`` for the Puma.

    ``mstraj`` rounds every corner with a blend of ``tacc`` seconds centred
    on the via point, and in a blend the velocity is a mix of the velocities
    before and after it.  At the corner where the pen lands on the first
    point of a stroke, that mix is "still coming down" and "already
    writing": the pen moves along the stroke before it touches the surface,
    and likewise it lifts before the end of the stroke.  The notes' path
    (``settle=False``) therefore leaves the ends of every stroke unwritten.
    With ``settle=True`` (the default) the pen stays still on the surface
    for one blend after landing and before lifting (a via point repeated),
    so the landing and lifting blends are purely vertical and the stroke's
    blends lie in the surface: every stroke is drawn with the pen down over
    its whole length, at a cost of about ``2 tacc`` per stroke.
    :func:`ink_fraction` measures the difference.

    Parameters
    ----------
    strokes : list of array_like (M, 2)
        E.g. ``hershey_strokes("B", scale=0.25)``.
    z_up, z_down : float
        Pen heights (z up) while moving between strokes and while drawing.
    dt : float
        Sample interval (s).
    qdmax : array_like (3,)
        Maximum speed of x, y, z (m/s).
    tacc : float
        Blend time at the corners (s).
    origin : array_like (3,)
        Where the writing frame's origin is in the world.
    settle : bool
        Keep the pen still on the surface for one blend after it lands and
        before it lifts (default); ``False`` is the notes' path.

    >>> lp = letter_path(hershey_strokes("B", scale=0.25))
    >>> lp.via.shape, lp.T.shape[1:]
    ((29, 3), (4, 4))
    >>> bool(np.all(lp.T[:, 2, 2] == -1.0))       # the pen points down
    True
    >>> ink_fraction(lp)                           # every stroke drawn in full
    array([1., 1., 1.])
    """
    if len(strokes) == 0:
        raise ValueError("strokes: expected at least one stroke, got none")
    z_up = getscalar(z_up, "z_up")
    z_down = getscalar(z_down, "z_down")
    origin = getvector(origin, "origin", 3)
    clean = []
    for i, s in enumerate(strokes):
        s = getarray(s, f"strokes[{i}]", shape=(2,), batch=True)
        if s.ndim != 2:
            raise ValueError(f"strokes[{i}]: expected shape (M, 2), got shape {s.shape}")
        # mstraj moves through every via point: drop a point that repeats the one before
        keep = np.r_[True, np.any(np.abs(np.diff(s, axis=0)) > 1e-12, axis=1)]
        clean.append(s[keep])
    via, first, last = [], [], []
    for i, s in enumerate(clean):
        if i > 0:
            via.append([*s[0], z_up])                # across, pen up
        first.append(len(via))
        via.extend(np.column_stack([s, np.full(len(s), z_down)]).tolist())
        last.append(len(via) - 1)
        if i < len(clean) - 1:
            via.append([*s[-1], z_up])               # lift the pen
    via = np.array(via, dtype=float)
    first, last = np.array(first), np.array(last)
    if settle:
        # land, stay for a blend, then write; stop, stay for a blend, then lift
        extra = np.zeros(len(via), dtype=int)
        extra[first[1:]] += 1
        extra[last[:-1]] += 1
        shift = np.concatenate([[0], np.cumsum(extra)])
        first, last = first + shift[first], last + shift[last] + extra[last]
        via = np.repeat(via, 1 + extra, axis=0)
    tg = mstraj(via[1:], qdmax, None, via[0], dt, tacc)
    # nominal time at every via point, and the half blend around it
    h = 0.5 * tg.info["tacc"]
    arrive = np.concatenate([[h[0]], tg.info["arrive"]])
    window = np.column_stack([arrive[first] - h[first], arrive[last] + h[last]])
    xyz = np.asarray(tg.q)
    T = transl(origin + xyz) @ oa2tr([0, 1, 0], [0, 0, -1])
    return LetterPath(via, np.asarray(tg.t), xyz, T, clean, window, z_down)


def ink_fraction(lp: LetterPath, pen: Vector3 | None = None, z_tol: float = 1e-3) -> np.ndarray:
    """Fraction of each stroke's drawing motion made with the pen on the surface.

    For stroke k the pen's path during ``lp.window[k]`` (while it should be
    drawing that stroke) is cut into the pieces between consecutive samples;
    a piece leaves ink if the pen is within ``z_tol`` of the surface
    (:math:`z - z_{down} < z_{tol}`) at both its ends.  The ink fraction is
    the length (in x, y) of the inked pieces over the length of all pieces,
    :math:`\\sum_{inked} |\\Delta p_{xy}| / \\sum |\\Delta p_{xy}|`: 1 when the
    whole stroke is written, less when part of it is drawn in the air.
    (Where the stroke has corners the blends round them off, by at most
    :math:`\\tfrac{3}{32} t_{acc} |\\Delta v|`; that changes the shape, not the ink.)

    Parameters
    ----------
    lp : LetterPath
        The path (its strokes, windows and sample times).
    pen : array_like (M, 3), optional
        Pen positions in the writing frame at the times ``lp.t``; default
        ``lp.xyz``.  Pass the forward kinematics of the robot's joint path
        (minus the origin) to measure what the robot writes.
    z_tol : float
        How close to the surface the pen leaves ink (default 1 mm).

    Returns
    -------
    ndarray (S,)
        One fraction per stroke.

    >>> B = hershey_strokes("B", scale=0.25)
    >>> np.round(ink_fraction(letter_path(B, settle=False)), 3)    # the notes' path
    array([0.877, 0.857, 0.927])
    >>> np.round(ink_fraction(letter_path(B)), 3)
    array([1., 1., 1.])
    """
    if not isinstance(lp, LetterPath):
        raise ValueError(f"lp: expected a LetterPath (from letter_path), got {type(lp).__name__}")
    pen = lp.xyz if pen is None else getarray(pen, "pen", shape=(3,), batch=True)
    if pen.shape != lp.xyz.shape:
        raise ValueError(f"pen: expected shape {lp.xyz.shape} (one position per sample), got {pen.shape}")
    z_tol = getscalar(z_tol, "z_tol")
    down = pen[:, 2] - lp.z_down < z_tol
    inked = down[:-1] & down[1:]
    piece = np.linalg.norm(np.diff(pen[:, :2], axis=0), axis=1)
    tmid = 0.5 * (lp.t[:-1] + lp.t[1:])
    inside = (tmid[None, :] > lp.window[:, :1]) & (tmid[None, :] < lp.window[:, 1:])   # (S, M-1)
    return (inside * (piece * inked)).sum(axis=1) / (inside * piece).sum(axis=1)
