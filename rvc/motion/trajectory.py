"""Chapter 3.3: trajectories in time, for one axis, many axes, and poses.

Every generator returns a :class:`Trajectory`: plain arrays ``t`` (time),
``q`` (position), ``qd`` (velocity) and ``qdd`` (acceleration).  Unpacking it
gives ``q, qd, qdd`` as MATLAB's ``[q, qd, qdd] = tpoly(...)`` does::

    q, qd, qdd = tpoly(0, 1, 50)       # arrays
    tg = tpoly(0, 1, 50); tg.t, tg.q   # or by name

Time
----
The argument ``t`` is either a **time vector** (strictly increasing; the
duration is ``t[-1] - t[0]``, and velocities are per unit of ``t``) or an
**integer number of samples** ``N``.  For an integer the toolbox's
conventions are kept:

* ``tpoly``, ``lspb`` and ``mtraj``: ``t = 0, 1, ..., N-1`` (velocity per
  *step*, acceleration per step squared);
* ``jtraj`` and ``ctraj``: ``t = linspace(0, 1, N)`` (normalised time).

No function loops over time steps; ``mstraj`` loops over its segments only.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..checks import getarray, getpose, getrotation, getscalar, getvector
from ..results import Result
from ..spatial.quaternion import q2r, qslerp, r2q
from ..shapes import SE3, SO3, ArrayLike, JointPath, JointVector, TimeVector

__all__ = ["Trajectory", "tpoly", "lspb", "mtraj", "jtraj", "mstraj", "trinterp", "ctraj"]


@dataclass(frozen=True, repr=False, eq=False)
class Trajectory(Result):
    """A sampled trajectory: time ``t`` (N,) and ``q``, ``qd``, ``qdd``.

    For a scalar trajectory ``q``, ``qd``, ``qdd`` have shape (N,); for a
    multi-axis one (N, n).  ``info`` holds extras (``tblend`` for
    :func:`lspb`; ``arrive``, ``tseg``, ``tacc``, ``via`` for :func:`mstraj`).

    Iterating yields ``q, qd, qdd`` (not ``t``), so
    ``q, qd, qdd = jtraj(q0, qf, 50)`` works as in MATLAB.

    >>> tg = tpoly(0, 1, 5)
    >>> tg
    Trajectory(tpoly, 5 samples, 1 axis, t in [0, 4])
    >>> q, qd, qdd = tg
    >>> q
    array([0.        , 0.10351562, 0.5       , 0.89648438, 1.        ])
    """

    unpack = ("q", "qd", "qdd")

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    name: str = "trajectory"
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        n = 1 if self.q.ndim == 1 else self.q.shape[1]
        return (f"Trajectory({self.name}, {len(self.t)} samples, {n} axis{'' if n == 1 else 'es'}, "
                f"t in [{self.t[0]:g}, {self.t[-1]:g}])")


# ---------------------------------------------------------------- helpers ---

def _time(t, name: str = "t", integer: str = "steps") -> tuple[np.ndarray, bool]:
    """Time vector from ``t`` (vector or integer N); returns (t, is_time)."""
    if isinstance(t, (bool, np.bool_)):
        raise TypeError(f"{name}: expected an integer number of samples or a time vector, got bool")
    if isinstance(t, numbers.Integral):
        n = int(t)
        if n < 2:
            raise ValueError(f"{name}: expected at least 2 samples, got {n}")
        if integer == "steps":
            return np.arange(n, dtype=float), False
        return np.linspace(0.0, 1.0, n), False
    tv = getarray(t, name)
    if tv.ndim == 0:
        raise ValueError(
            f"{name}: expected an integer number of samples or a time vector, got the scalar {float(tv)!r}"
        )
    tv = getvector(tv, name)
    if tv.size < 2:
        raise ValueError(f"{name}: expected a time vector of at least 2 samples, got {tv.size}")
    d = np.diff(tv)
    if np.any(d <= 0):
        k = int(np.argmax(d <= 0))
        raise ValueError(
            f"{name}: expected a strictly increasing time vector, got t[{k + 1}] = {tv[k + 1]:g} "
            f"<= t[{k}] = {tv[k]:g}"
        )
    return tv, True


def _quintic(q0, qf, v0, vf, tau, T):
    """Quintic with zero end accelerations in normalised time ``tau``.

    Hermite form: q = q0 H0 + qf H3 + v0 T H1 + vf T H2 with
    H3 = 10τ³ - 15τ⁴ + 6τ⁵, H0 = 1 - H3, H1 = τ - 6τ³ + 8τ⁴ - 3τ⁵,
    H2 = -4τ³ + 7τ⁴ - 3τ⁵.  Evaluated so that τ = 0 and τ = 1 give the
    boundary values exactly.  Broadcasts ``tau`` (N, 1) against (n,).
    """
    r = 1.0 - tau
    h3 = tau**3 * (10.0 + tau * (-15.0 + 6.0 * tau))
    h1 = tau * r**3 * (1.0 + 3.0 * tau)
    h2 = -(tau**3) * r * (4.0 - 3.0 * tau)
    d = qf - q0
    q = q0 * (1.0 - h3) + qf * h3 + v0 * T * h1 + vf * T * h2
    qd = 30.0 * tau**2 * r**2 * d / T + v0 * r**2 * (1.0 + 2.0 * tau - 15.0 * tau**2) \
        + vf * tau**2 * (-12.0 + tau * (28.0 - 15.0 * tau))
    qdd = 12.0 * tau * r * (5.0 * (1.0 - 2.0 * tau) * d / T - v0 * (3.0 - 5.0 * tau)
                            - vf * (2.0 - 5.0 * tau)) / T
    return q, qd, qdd


# ------------------------------------------------------- scalar profiles ---

def tpoly(q0: float, qf: float, t: int | TimeVector, qd0: float = 0.0, qdf: float = 0.0) -> Trajectory:
    r"""Scalar quintic trajectory from ``q0`` to ``qf``.

    .. math:: q(t) = A t^5 + B t^4 + C t^3 + D t^2 + E t + F

    with :math:`q(0)=q_0,\ q(T)=q_f,\ \dot q(0)=\dot q_0,\ \dot q(T)=\dot q_f`
    and zero acceleration at both ends; :math:`T = t_{N-1} - t_0`.  It is
    evaluated in normalised time :math:`\tau = (t - t_0)/T` (Hermite basis),
    which stays accurate for very short or long durations.

    ``t`` is a time vector or an integer N (then ``t = 0..N-1`` and velocity
    is per step, as in the toolbox).

    >>> tg = tpoly(0, 1, np.linspace(0, 2, 5))
    >>> tg.q
    array([0.        , 0.10351562, 0.5       , 0.89648438, 1.        ])
    >>> tg.qd[[0, 2, 4]]        # zero at the ends, peak 15/8 (qf-q0)/T mid-way
    array([0.    , 0.9375, 0.    ])
    """
    q0 = getscalar(q0, "q0")
    qf = getscalar(qf, "qf")
    qd0 = getscalar(qd0, "qd0")
    qdf = getscalar(qdf, "qdf")
    tv, _ = _time(t)
    T = tv[-1] - tv[0]
    q, qd, qdd = _quintic(q0, qf, qd0, qdf, (tv - tv[0]) / T, T)
    return Trajectory(tv, q, qd, qdd, "tpoly")


def lspb(q0: float, qf: float, t: int | TimeVector, V: float | None = None) -> Trajectory:
    r"""Linear segment with parabolic blends (trapezoidal velocity profile).

    Accelerate at constant :math:`a` for :math:`t_b`, cruise at :math:`V`,
    decelerate for :math:`t_b`:

    .. math::
        t_b = T - \frac{q_f - q_0}{V}, \qquad a = V / t_b,\qquad
        q(t) = \begin{cases} q_0 + \tfrac12 a t^2 & t \le t_b \\
        \tfrac12(q_0 + q_f - VT) + V t & t_b < t \le T - t_b \\
        q_f - \tfrac12 a (T - t)^2 & t > T - t_b \end{cases}

    ``V`` defaults to :math:`1.5 (q_f - q_0)/T` (so :math:`t_b = T/3`); its sign
    is ignored (the motion goes towards ``qf``).  A solution exists only for
    :math:`|q_f - q_0|/T < |V| \le 2|q_f - q_0|/T`: slower cannot reach ``qf``
    in time, faster would need blends longer than half the motion.  Outside
    that range ``ValueError`` names ``V`` and the range.  If ``q0 == qf`` the
    trajectory is constant and ``V`` is ignored.  ``info["tblend"]`` is
    :math:`t_b`.

    >>> tg = lspb(0, 1, np.linspace(0, 3, 7))
    >>> tg.q
    array([0.   , 0.0625, 0.25  , 0.5   , 0.75  , 0.9375, 1.    ])
    >>> tg.qd                    # cruise at V = 1.5 / 3 = 0.5
    array([0.  , 0.25, 0.5 , 0.5 , 0.5 , 0.25, 0.  ])
    >>> lspb(0, 1, np.linspace(0, 1, 5), V=0.9)
    Traceback (most recent call last):
    ...
    ValueError: V: expected 1 < |V| <= 2 (|qf-q0|/tf < |V| <= 2|qf-q0|/tf), got V=0.9: too slow to reach qf=1 in tf=1
    """
    q0 = getscalar(q0, "q0")
    qf = getscalar(qf, "qf")
    tv, _ = _time(t)
    T = tv[-1] - tv[0]
    s = tv - tv[0]
    D = qf - q0
    if D == 0:
        z = np.zeros_like(s)
        return Trajectory(tv, np.full_like(s, q0), z, z.copy(), "lspb", {"tblend": np.inf})
    if V is None:
        Vs = 1.5 * D / T
    else:
        V = getscalar(V, "V")
        Vm = abs(V)
        lo, hi = abs(D) / T, 2 * abs(D) / T
        rng = f"expected {lo:g} < |V| <= {hi:g} (|qf-q0|/tf < |V| <= 2|qf-q0|/tf), got V={V:g}"
        if Vm <= lo:
            raise ValueError(f"V: {rng}: too slow to reach qf={qf:g} in tf={T:g}")
        if Vm > hi * (1 + 1e-12):
            raise ValueError(f"V: {rng}: too fast, the blends would overlap")
        Vs = np.copysign(min(Vm, hi), D)
    tb = T - D / Vs
    a = Vs / tb
    q = np.select(
        [s <= tb, s <= T - tb],
        [q0 + 0.5 * a * s**2, 0.5 * (q0 + qf - Vs * T) + Vs * s],
        qf - 0.5 * a * (T - s) ** 2,
    )
    qd = np.select([s <= tb, s <= T - tb], [a * s, np.full_like(s, Vs)], a * (T - s))
    qdd = np.select([s <= tb, s <= T - tb], [np.full_like(s, a), np.zeros_like(s)],
                    np.full_like(s, -a))
    return Trajectory(tv, q, qd, qdd, "lspb", {"tblend": float(tb), "V": float(Vs)})


# ----------------------------------------------------------- multi-axis ---

def mtraj(tfunc: Callable[[float, float, int | TimeVector], Trajectory], q0: JointVector, qf: JointVector,
          t: int | TimeVector) -> Trajectory:
    """Multi-axis trajectory: the scalar ``tfunc`` applied to each axis.

    ``tfunc(q0[j], qf[j], t)`` must return ``q, qd, qdd`` (a
    :class:`Trajectory` does); typically :func:`tpoly` or :func:`lspb`.
    Results are (N, n).  As MATLAB's ``mtraj(@lspb, [0 2], [1 -1], 50)``:

    >>> tg = mtraj(lspb, [0, 2], [1, -1], 50)
    >>> tg.q.shape
    (50, 2)
    >>> tg.q[[0, -1]]
    array([[ 0.,  2.],
           [ 1., -1.]])
    """
    if not callable(tfunc):
        raise TypeError(f"tfunc: expected a scalar trajectory function such as tpoly, got "
                        f"{type(tfunc).__name__}")
    q0 = getvector(q0, "q0")
    qf = getvector(qf, "qf")
    if q0.size != qf.size:
        raise ValueError(f"qf: expected {q0.size} elements like q0, got {qf.size}")
    tv, _ = _time(t)
    cols = []
    for j in range(q0.size):  # loop over axes, not time
        res = tuple(np.asarray(x, dtype=float) for x in tfunc(q0[j], qf[j], t))
        if len(res) != 3 or any(x.shape != tv.shape for x in res):
            raise ValueError(f"tfunc: expected it to return q, qd, qdd of shape {tv.shape}")
        cols.append(res)
    q, qd, qdd = (np.stack([c[i] for c in cols], axis=1) for i in range(3))
    return Trajectory(tv, q, qd, qdd, "mtraj")


def jtraj(q0: JointVector, qf: JointVector, t: int | TimeVector, qd0: JointVector | None = None,
          qd1: JointVector | None = None) -> Trajectory:
    r"""Joint-space quintic trajectory from ``q0`` to ``qf`` (all axes together).

    Each axis follows the quintic of :func:`tpoly` with boundary velocities
    ``qd0``, ``qd1`` (default zero) and zero boundary accelerations.  ``t`` is
    a time vector or an integer N, which (as in the toolbox's ``jtraj``) means
    N samples of normalised time ``linspace(0, 1, N)``.  Returns a
    :class:`Trajectory` whose ``q, qd, qdd`` are (N, n).

    >>> q, qd, qdd = jtraj([0, 0], [1, 2], 5)
    >>> q
    array([[0.        , 0.        ],
           [0.10351562, 0.20703125],
           [0.5       , 1.        ],
           [0.89648438, 1.79296875],
           [1.        , 2.        ]])
    """
    q0 = getvector(q0, "q0")
    n = q0.size
    qf = getvector(qf, "qf", n)
    qd0 = np.zeros(n) if qd0 is None else getvector(qd0, "qd0", n)
    qd1 = np.zeros(n) if qd1 is None else getvector(qd1, "qd1", n)
    tv, _ = _time(t, integer="normalised")
    T = tv[-1] - tv[0]
    tau = ((tv - tv[0]) / T)[:, None]
    q, qd, qdd = _quintic(q0, qf, qd0, qd1, tau, T)
    return Trajectory(tv, q, qd, qdd, "jtraj")


def mstraj(viapoints: JointPath, qdmax: float | JointVector | None, tseg: ArrayLike | None, q0: JointVector | None,
           dt: float, tacc: float | ArrayLike, qd0: JointVector | None = None,
           qdf: JointVector | None = None) -> Trajectory:
    r"""Multi-segment multi-axis trajectory through via points (MATLAB argument order).

    ``mstraj(viapoints, qdmax, tseg, q0, dt, tacc)`` moves all n axes from
    ``q0`` through each row of ``viapoints`` (M, n) in turn, as MATLAB's
    ``mstraj(WP, QDMAX, TSEG, Q0, DT, TACC)``:

    * exactly one of ``qdmax`` (scalar or (n,), the maximum speed of each
      axis) and ``tseg`` ((M,), the duration of each segment) is given, the
      other is ``None``.  With ``qdmax`` a segment lasts as long as its slowest
      axis needs, :math:`\max_j |\Delta q_j| / \dot q_{max,j}`, so that axis
      cruises at (nearly) its maximum speed and all axes arrive together;
    * ``q0`` is the start; ``None`` means the first row of ``viapoints`` (as
      in the Python toolbox);
    * ``dt`` is the sample interval;
    * ``tacc`` is the acceleration (blend) time, a scalar or one per segment
      (the blend at the segment's start; the final blend uses the last).

    The path is the piecewise-linear motion through the via points, each
    corner replaced by a quintic blend of duration ``tacc`` centred on the
    time the linear motion would reach the via point.  In the blend the
    velocity is a convex combination of the two segment velocities, so
    :math:`|\dot q_j| \le \dot q_{max,j}` throughout (when ``qd0 = qdf = 0``),
    and the via point is missed by at most
    :math:`\tfrac{3}{32} t_{acc} |\dot q_{k+1} - \dot q_k|` per axis.  The
    first blend starts at ``q0`` with velocity ``qd0`` and the last ends exactly
    at the last via point with velocity ``qdf`` (default zero).  ``tacc`` is
    rounded up to a multiple of ``2 dt`` and segment times to a multiple of
    ``dt``, so every nominal arrival time is a sample time; a given ``tseg``
    shorter than its blends need raises ``ValueError``.

    Returns a :class:`Trajectory` sampled at ``t = 0, dt, ...`` (the first
    sample is ``q0``) with ``info``: ``arrive`` (nominal arrival time at each
    via point), ``tseg``, ``tacc`` (per blend, M+1) and ``via`` ((M+1, n),
    with the start).

    Differences from the toolboxes: the Python toolbox's keyword form is
    ``mstraj(viapoints, dt, tacc, qdmax=..., tsegment=..., q0=...)``; both
    toolboxes omit the initial sample, make the first and last blends half
    as long, which lets the speed there exceed ``qdmax`` by up to about 44%,
    and with ``qdmax`` lengthen each segment by ``tacc``.  With ``tacc = 0``
    the three agree exactly.

    >>> via = np.array([[4, 1], [4, 4], [5, 2], [2, 5]])
    >>> tg = mstraj(via[1:], [2, 1], None, via[0], 0.05, 1)
    >>> tg.q[0], tg.q[-1]
    (array([4., 1.]), array([2., 5.]))
    >>> tg.info["arrive"]            # nominal times at the 3 via points
    array([3.5, 5.5, 8.5])
    >>> float(np.abs(tg.qd).max(axis=0)[1])    # axis 1 never exceeds qdmax = 1
    1.0
    """
    P = getarray(viapoints, "viapoints")
    if P.ndim != 2:
        raise ValueError(f"viapoints: expected a (M, n) array, one via point per row, got shape {P.shape}")
    n = P.shape[1]
    if q0 is None:
        q0 = P[0]
        P = P[1:]
    else:
        q0 = getvector(q0, "q0", n)
    M = P.shape[0]
    if M < 1:
        raise ValueError("viapoints: expected at least one via point after the start, got none")
    W = np.vstack([q0, P])
    dq = np.diff(W, axis=0)
    dt = getscalar(dt, "dt")
    if dt <= 0:
        raise ValueError(f"dt: expected a positive sample interval, got {dt:g}")
    qd0 = np.zeros(n) if qd0 is None else getvector(qd0, "qd0", n)
    qdf = np.zeros(n) if qdf is None else getvector(qdf, "qdf", n)

    def up(x, step):  # round up to a multiple of step, forgiving round-off
        return np.ceil(np.asarray(x) / step - 1e-9) * step

    ta = getvector(tacc, "tacc")
    if ta.size == 1:
        ta = np.full(M, ta[0])
    elif ta.size != M:
        raise ValueError(f"tacc: expected a scalar or {M} values (one per segment), got {ta.size}")
    if np.any(ta < 0):
        raise ValueError(f"tacc: expected acceleration times >= 0, got {ta.min():g}")
    ta = up(np.append(ta, ta[-1]), 2 * dt)  # one per via point incl. start and end
    h = ta / 2
    need = h[:-1] + h[1:]  # each segment must hold the half-blends at its ends

    if (qdmax is None) == (tseg is None):
        raise ValueError("qdmax, tseg: expected exactly one of them to be given, the other None, "
                         f"got {'both' if qdmax is not None else 'neither'}")
    if tseg is not None:
        ts = getvector(tseg, "tseg")
        if ts.size != M:
            raise ValueError(f"tseg: expected {M} segment times (one per via point), got {ts.size}")
        if np.any(ts <= 0):
            raise ValueError(f"tseg: expected positive segment times, got {ts.min():g}")
        ts = up(ts, dt)
        short = ts < need - 1e-9
        if np.any(short):
            k = int(np.argmax(short))
            raise ValueError(f"tseg: segment {k} lasts {ts[k]:g} s but its blends need {need[k]:g} s; "
                             "lengthen tseg or shorten tacc")
    else:
        qm = getvector(qdmax, "qdmax")
        if qm.size == 1:
            qm = np.full(n, qm[0])
        elif qm.size != n:
            raise ValueError(f"qdmax: expected a scalar or {n} values (one per axis), got {qm.size}")
        if np.any(qm <= 0):
            raise ValueError(f"qdmax: expected positive speeds, got {qm.min():g}")
        ts = np.maximum(up(np.max(np.abs(dq) / qm, axis=1), dt), need)
        ts = np.where(ts > 0, ts, dt)

    v = dq / ts[:, None]  # (M, n) cruise velocities
    vin = np.vstack([qd0, v])  # velocity into via point k
    vout = np.vstack([v, qdf])  # velocity out of via point k
    arrive = h[0] + np.concatenate([[0.0], np.cumsum(ts)])  # (M+1,)
    total = arrive[-1] + h[-1]
    N = int(round(total / dt)) + 1
    t = np.arange(N) * dt

    # linear segments everywhere, then the blends over them
    k = np.clip(np.searchsorted(arrive, t, side="right"), 1, M)  # segment index 1..M
    q = W[k - 1] + v[k - 1] * (t - arrive[k - 1])[:, None]
    qd = v[k - 1].copy()
    qdd = np.zeros_like(q)
    for j in range(M + 1):  # one blend per via point
        if ta[j] == 0:
            continue
        m = np.abs(t - arrive[j]) <= h[j] + 1e-9 * dt
        a = W[0] if j == 0 else W[j] - vin[j] * h[j]
        b = W[M] if j == M else W[j] + vout[j] * h[j]
        tau = np.clip((t[m] - arrive[j] + h[j]) / ta[j], 0.0, 1.0)[:, None]
        q[m], qd[m], qdd[m] = _quintic(a, b, vin[j], vout[j], tau, ta[j])
    if ta[-1] == 0:  # a corner: velocities are right-continuous, qdf after the end
        qd[-1] = qdf
    info = {"arrive": arrive[1:], "tseg": ts, "tacc": ta, "via": W}
    return Trajectory(t, q, qd, qdd, "mstraj", info)


# ------------------------------------------------ orientation and pose ---

def _interp_s(s):
    if isinstance(s, numbers.Integral) and not isinstance(s, (bool, np.bool_)):
        if s < 2:
            raise ValueError(f"s: expected at least 2 samples, got {int(s)}")
        return np.linspace(0.0, 1.0, int(s))
    s = getarray(s, "s")
    if s.ndim > 1:
        raise ValueError(f"s: expected a scalar or a vector of path fractions, got shape {s.shape}")
    if np.any((s < 0) | (s > 1)):
        bad = float(np.reshape(s, -1)[np.argmax(np.reshape((s < 0) | (s > 1), -1))])
        raise ValueError(f"s: expected path fractions in [0, 1], got {bad:g}")
    return s


def trinterp(T0: SE3 | SO3 | None, T1: SE3 | SO3, s: float | ArrayLike, shortest: bool = True) -> SE3 | SO3:
    r"""Interpolate between two poses (or rotations) for path fractions ``s``.

    .. math::
        T(s) = \begin{pmatrix} R(\mathrm{slerp}(q_0, q_1, s)) & (1-s)\,t_0 + s\,t_1 \\
        0 & 1 \end{pmatrix}

    Rotation by quaternion SLERP (constant angular speed about one fixed
    axis), translation linearly.  ``T0 = None`` means the identity (MATLAB's
    ``trinterp(T, s)``).  ``T0``, ``T1`` are both (4, 4) or both (3, 3).
    ``s`` is a scalar (returns one matrix), a vector in [0, 1] (returns
    (N, 4, 4)) or an integer N (``linspace(0, 1, N)``).  ``shortest``
    (default true, as spatialmath's ``trinterp``) takes the shorter of the
    two ways round.  ``s = 0`` and ``s = 1`` return ``T0`` and ``T1`` exactly.

    >>> T1 = np.array([[0., -1, 0, 1], [1, 0, 0, 2], [0, 0, 1, 3], [0, 0, 0, 1]])
    >>> np.round(trinterp(None, T1, 0.5), 4)
    array([[ 0.7071, -0.7071,  0.    ,  0.5   ],
           [ 0.7071,  0.7071,  0.    ,  1.    ],
           [ 0.    ,  0.    ,  1.    ,  1.5   ],
           [ 0.    ,  0.    ,  0.    ,  1.    ]])
    >>> trinterp(None, T1, [0, 0.5, 1]).shape
    (3, 4, 4)
    """
    T1a = getarray(T1, "T1")
    if T1a.shape == (3, 3):
        R1, p1, pose = getrotation(T1a, "T1"), np.zeros(3), False
    else:
        T1a = getpose(T1a, "T1")
        if T1a.shape != (4, 4):
            raise ValueError(f"T1: expected shape (4, 4) or (3, 3), got shape {T1a.shape}")
        R1, p1, pose = T1a[:3, :3], T1a[:3, 3], True
    if T0 is None:
        T0a = np.eye(4 if pose else 3)
    else:
        T0a = getarray(T0, "T0")
        if T0a.shape != T1a.shape:
            raise ValueError(f"T0: expected shape {T1a.shape} like T1, got shape {T0a.shape}")
        T0a = getpose(T0a, "T0") if pose else getrotation(T0a, "T0")
    R0 = T0a[:3, :3]
    p0 = T0a[:3, 3] if pose else np.zeros(3)
    sv = _interp_s(s)
    flat = np.atleast_1d(sv)
    q = qslerp(r2q(R0), r2q(R1), flat, shortest=shortest)
    R = q2r(q)
    R = np.asarray(R).reshape(flat.shape + (3, 3))
    # exact end points
    R = np.where((flat == 0)[:, None, None], R0, R)
    R = np.where((flat == 1)[:, None, None], R1, R)
    if pose:
        out = np.zeros(flat.shape + (4, 4))
        out[:, :3, :3] = R
        out[:, :3, 3] = (1 - flat)[:, None] * p0 + flat[:, None] * p1
        out[:, 3, 3] = 1.0
    else:
        out = R
    return out[0] if np.ndim(sv) == 0 else out


def ctraj(T0: SE3, T1: SE3, t: int | TimeVector) -> SE3:
    r"""Cartesian trajectory from pose ``T0`` to ``T1`` with an lspb time law.

    .. math:: T(t) = \mathrm{trinterp}(T_0, T_1, s(t)),\qquad s = \mathrm{lspb}(0, 1, t)

    so the pose starts and stops smoothly (zero velocity at both ends) and
    moves along the same straight-line/fixed-axis path as :func:`trinterp`.
    ``t`` is an integer N or a time vector (the duration is
    ``t[-1] - t[0]``).  Returns (N, 4, 4); the first and last are exactly
    ``T0`` and ``T1``.  MATLAB's ``ctraj(T0, T1, 50)``.

    >>> T1 = np.array([[1., 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    >>> Ts = ctraj(np.eye(4), T1, 7)
    >>> Ts.shape
    (7, 4, 4)
    >>> Ts[:, 0, 3]
    array([0.    , 0.0625, 0.25  , 0.5   , 0.75  , 0.9375, 1.    ])
    """
    tv, _ = _time(t)
    s = lspb(0.0, 1.0, tv).q
    s = np.clip(s, 0.0, 1.0)
    s[0], s[-1] = 0.0, 1.0
    return trinterp(T0, T1, s)
