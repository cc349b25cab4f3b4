"""Applications of arm kinematics (notes 7.5): writing on a surface, walking.

Writing (7.5.1): :func:`hershey_strokes` turns text into pen strokes with
the Hershey fonts of the ``Hershey-Fonts`` package (a dependency; no font
data is kept here), :func:`letter_path` turns strokes into via points with
pen-up moves, a Cartesian trajectory (``mstraj``) and end-effector poses
with the pen pointing down, ready for ``ikine6s``.

Walking (7.5.2): :func:`walking_gait` is the foot's cyclic path
(``mstraj`` through a rectangle), :func:`gait` picks a leg's joint angles
at a step with a phase offset, and :func:`walking_legs` solves the leg's
inverse kinematics (position only) and assembles the four legs.

>>> strokes = hershey_strokes("B")
>>> len(strokes), strokes[0].shape
(3, (2, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .checks import getarray, getscalar, getvector
from .ikine import ikine
from .trajectory import mstraj
from .transforms3d import oa2tr, transl, trotz

__all__ = ["hershey_strokes", "LetterPath", "letter_path", "walking_gait", "gait", "WalkingLegs",
           "walking_legs"]

#: Hershey font names of the course (as in the MATLAB toolbox's ``hershey``
#: data, the Roman simplex font) mapped to the ``HersheyFonts`` names.
_FONTS = {"simplex": "rowmans", "duplex": "rowmand", "triplex": "rowmant"}


# ---------------------------------------------------------------------------
# writing on a surface


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
    from HersheyFonts import HersheyFonts

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


@dataclass
class LetterPath:
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


# ---------------------------------------------------------------------------
# walking robot


def walking_gait(xf: float = 0.05, xb: float = -0.05, y: float = 0.05, zu: float = 0.02,
                 zd: float = 0.05, *, tseg=(3.0, 0.25, 0.5, 0.25), dt: float = 0.01,
                 tacc: float = 0.1) -> np.ndarray:
    """One cycle of a foot's path in the leg's frame (z down), (N, 3).

    The foot goes round the rectangle of the notes (7.5.2): from ``(xf, y,
    zd)`` backwards on the ground to ``(xb, y, zd)`` in ``tseg[0]`` (the
    walking stroke), up to ``(xb, y, zu)``, forward to ``(xf, y, zu)`` and
    down again.  The path is made by ``mstraj`` through three laps with
    blends of ``tacc``; the middle lap, which starts and ends in steady
    motion, is returned, so repeating it is smooth.  Sample 0 is the nominal
    arrival at ``(xf, y, zd)``; with the defaults N = 400 (4 s at 0.01 s).

    During the walking stroke, away from the blends (the first
    ``tseg[0] - tacc/2`` s apart from the first ``tacc/2`` s), the foot is
    exactly on the ground, ``z = zd``, moving backwards at the constant speed
    ``(xf - xb) / tseg[0]``.

    >>> x = walking_gait()
    >>> x.shape
    (400, 3)
    >>> bool(np.all(x[5:295, 2] == 0.05))      # on the ground
    True
    """
    tseg = getvector(tseg, "tseg", 4)
    P = np.array([[xf, y, zd], [xb, y, zd], [xb, y, zu], [xf, y, zu]], dtype=float)
    via = np.vstack([P[1:], P, P, P[:1]])  # from P1: P2 P3 P4 | P1 P2 P3 P4 | P1 P2 P3 P4 | P1
    tg = mstraj(via, None, np.tile(tseg, 3), P[0], dt, tacc)
    n = int(round(float(np.sum(tseg)) / dt))
    k0 = int(round(float(tg.info["arrive"][3]) / dt))  # nominal arrival at P1 after the first lap
    return np.asarray(tg.q)[k0:k0 + n]


def gait(qcycle, k, offset: int = 0, flip: bool = False) -> np.ndarray:
    """Joint angles of a leg at step ``k`` with phase ``offset`` (the notes' ``gait``).

    ``qcycle[(k + offset) mod N]``, with the first joint negated when ``flip``
    (legs on the other side of the body, whose hips are turned by pi).
    ``k`` may be an array of steps.

    >>> qc = np.arange(12.0).reshape(4, 3)
    >>> gait(qc, 1, 2, flip=True)
    array([-9., 10., 11.])
    """
    qcycle = getarray(qcycle, "qcycle")
    if qcycle.ndim != 2:
        raise ValueError(f"qcycle: expected shape (N, n), got shape {qcycle.shape}")
    k = np.asarray(k)
    q = qcycle[(k + int(offset)) % len(qcycle)].copy()
    if flip:
        q[..., 0] = -q[..., 0]
    return q


@dataclass
class WalkingLegs:
    """Joint trajectories of the four legs of the walker.

    Attributes
    ----------
    q : ndarray (N, 4, n)
        Joint angles of each leg at each step.
    bases : ndarray (4, 4, 4)
        Hip poses in the body frame.
    qcycle : ndarray (N, n)
        One leg's joint angles around the gait cycle.
    xcycle : ndarray (N, 3)
        The foot path the IK solved.
    success : ndarray (N,) of bool
        IK success for each sample of the cycle.
    """

    q: np.ndarray
    bases: np.ndarray
    qcycle: np.ndarray
    xcycle: np.ndarray
    success: np.ndarray

    def feet(self, leg) -> np.ndarray:
        """Foot positions in the body frame, (N, 4, 3), from the leg's ``fkine``."""
        N = self.q.shape[0]
        T = np.asarray(leg.fkine(self.q.reshape(-1, self.q.shape[-1]))).reshape(N, 4, 4, 4)
        return (self.bases[None] @ T)[..., :3, 3]


def walking_legs(leg, xcycle=None, *, W: float = 0.1, L: float = 0.2, offsets=(0, 100, 200, 300),
                 flips=(False, False, True, True), tol: float = 1e-18) -> WalkingLegs:
    """Inverse kinematics of the walking cycle and the four legs (7.5.2).

    ``qcycle = ikine(leg, transl(xcycle), mask=[1, 1, 1, 0, 0, 0])`` (position
    only: a 3-joint leg cannot also choose the foot's orientation), solved
    along the cycle with warm starts; leg i at step k has
    ``gait(qcycle, k, offsets[i], flips[i])``.  The hips are at the corners
    of the W x L body: ``transl(0, 0, 0)``, ``transl(-L, 0, 0)``,
    ``transl(-L, -W, 0) @ trotz(pi)``, ``transl(0, -W, 0) @ trotz(pi)``.

    Parameters
    ----------
    leg : robot
        A 3-joint leg, e.g. ``rvc.models.leg()``.
    xcycle : array_like (N, 3), optional
        Foot path (default :func:`walking_gait`).
    tol : float
        IK tolerance on the squared position error (default 1e-18, i.e. the
        feet are placed to about 1e-9 m).

    With the default gait (``dt = 0.01``, ``tacc = 0.1``) three feet are on
    the ground 91% of the time: the blends make a foot leave the ground
    ``tacc/2`` before the end of its stroke and land ``tacc/2`` late, so for
    ``tacc`` of every second two feet are up, the second by at most about
    1.1 mm.

    >>> from rvc.models import leg
    >>> wl = walking_legs(leg(), walking_gait(dt=0.04), offsets=(0, 25, 50, 75))
    >>> wl.q.shape, bool(wl.success.all())
    ((100, 4, 3), True)
    """
    xcycle = walking_gait() if xcycle is None else getarray(xcycle, "xcycle", shape=(3,))
    if xcycle.ndim != 2:
        raise ValueError(f"xcycle: expected shape (N, 3), got shape {xcycle.shape}")
    if len(offsets) != 4 or len(flips) != 4:
        raise ValueError(f"offsets, flips: expected 4 of each, got {len(offsets)} and {len(flips)}")
    sol = ikine(leg, transl(xcycle), mask=[1, 1, 1, 0, 0, 0], tol=tol)
    qcycle = sol.q
    k = np.arange(len(xcycle))
    q = np.stack([gait(qcycle, k, o, f) for o, f in zip(offsets, flips)], axis=1)
    bases = np.stack([transl(0, 0, 0), transl(-L, 0, 0), transl(-L, -W, 0) @ trotz(np.pi),
                      transl(0, -W, 0) @ trotz(np.pi)])
    return WalkingLegs(q, bases, qcycle, xcycle, np.asarray(sol.success))
