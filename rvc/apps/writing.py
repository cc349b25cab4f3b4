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

from dataclasses import dataclass

import numpy as np
from HersheyFonts import HersheyFonts

from ..checks import getarray, getscalar, getvector
from ..motion.trajectory import mstraj
from ..results import Result
from ..spatial.transforms3d import oa2tr, transl

__all__ = ["hershey_strokes", "LetterPath", "letter_path"]

#: Hershey font names of the course (as in the MATLAB toolbox's ``hershey``
#: data, the Roman simplex font) mapped to the ``HersheyFonts`` names.
_FONTS = {"simplex": "rowmans", "duplex": "rowmand", "triplex": "rowmant"}


def hershey_strokes(text: str, font: str = "simplex", scale: float = 1.0) -> list:
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
    """

    via: np.ndarray
    t: np.ndarray
    xyz: np.ndarray
    T: np.ndarray

    def __repr__(self) -> str:
        return (f"LetterPath({len(self.via)} via points, {len(self.t)} samples, "
                f"{self.t[-1]:.2f} s)")


def letter_path(strokes, z_up: float = 0.2, z_down: float = 0.0, dt: float = 0.02, *,
                qdmax=(0.5, 0.5, 0.5), tacc: float = 0.2, origin=(0.6, 0.0, 0.0)) -> LetterPath:
    """Via points, Cartesian trajectory and pen poses for drawing strokes (7.5.1).

    The pen draws each stroke at height ``z_down``; between strokes it
    lifts straight up to ``z_up``, moves across, and comes straight down.
    The via points are joined by ``mstraj(via[1:], qdmax, None, via[0], dt,
    tacc)`` as in the notes (``mstraj(path, [0.5 0.5 0.5], [], path(1,:),
    0.02, 0.2)``), and each sample becomes the pose
    ``transl(origin + p) @ oa2tr([0, 1, 0], [0, 0, -1])`` for the Puma.

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

    >>> lp = letter_path(hershey_strokes("B", scale=0.25))
    >>> lp.via.shape, lp.T.shape[1:]
    ((25, 3), (4, 4))
    >>> bool(np.all(lp.T[:, 2, 2] == -1.0))       # the pen points down
    True
    """
    if len(strokes) == 0:
        raise ValueError("strokes: expected at least one stroke, got none")
    z_up = getscalar(z_up, "z_up")
    z_down = getscalar(z_down, "z_down")
    origin = getvector(origin, "origin", 3)
    via = []
    for i, s in enumerate(strokes):
        s = getarray(s, f"strokes[{i}]", shape=(2,), batch=True)
        if s.ndim != 2:
            raise ValueError(f"strokes[{i}]: expected shape (M, 2), got shape {s.shape}")
        if i > 0:
            via.append([*s[0], z_up])           # across, pen up
        via.extend(np.column_stack([s, np.full(len(s), z_down)]).tolist())
        if i < len(strokes) - 1:
            via.append([*s[-1], z_up])          # lift the pen
    via = np.array(via, dtype=float)
    # mstraj needs every segment to move: drop repeated points
    keep = np.r_[True, np.any(np.abs(np.diff(via, axis=0)) > 1e-12, axis=1)]
    via = via[keep]
    tg = mstraj(via[1:], qdmax, None, via[0], dt, tacc)
    xyz = np.asarray(tg.q)
    T = transl(origin + xyz) @ oa2tr([0, 1, 0], [0, 0, -1])
    return LetterPath(via, np.asarray(tg.t), xyz, T)
