"""The two-link planar arm of notes 7.2.1, solved three ways.

:func:`ikine_2link_sympy` symbolically, :func:`ikine_2link` numerically in
closed form (batched), and :func:`ikine_2link_numeric` by
``fminsearch``-style optimisation.

>>> np.round(ikine_2link(1, 1, 0.6, 0.7, "down"), 4)
array([-0.2295,  2.1834])
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from ..checks import getarray, getoption, getscalar, getunit, getvector, putangle
from ..shapes import ArrayLike, JointVector

__all__ = ["ikine_2link_sympy", "ikine_2link", "ikine_2link_numeric"]


def ikine_2link_sympy() -> dict[str, tuple[sp.Expr, sp.Expr]]:
    r"""Closed-form IK of the 2-link planar arm, derived with sympy.

    From the forward kinematics :math:`x = a_1 c_1 + a_2 c_{12}`,
    :math:`y = a_1 s_1 + a_2 s_{12}`, sympy simplifies
    :math:`x^2 + y^2 = a_1^2 + a_2^2 + 2 a_1 a_2 \cos q_2`, which gives
    :math:`q_2 = \pm\cos^{-1}(\cdot)`, then
    :math:`q_1 = \operatorname{atan2}(y, x) - \operatorname{atan2}(a_2 \sin q_2, a_1 + a_2\cos q_2)`.

    Returns
    -------
    dict
        ``{"up": (q1, q2), "down": (q1, q2)}`` of sympy expressions in the
        real symbols ``a1 a2 x y``.  Elbow up has :math:`q_2 \le 0` (for a
        target on the positive x-axis the elbow is above the line from the
        base to the target), elbow down :math:`q_2 \ge 0`.  Each solution
        is checked: substituted into the forward kinematics it simplifies
        back to ``(x, y)``.

    >>> sol = ikine_2link_sympy()
    >>> sol["down"][1]
    acos((-a1**2 - a2**2 + x**2 + y**2)/(2*a1*a2))
    """
    a1, a2, x, y, q1, q2, c2 = sp.symbols("a1 a2 x y q1 q2 c2", real=True)
    fx = a1 * sp.cos(q1) + a2 * sp.cos(q1 + q2)
    fy = a1 * sp.sin(q1) + a2 * sp.sin(q1 + q2)
    r2 = sp.trigsimp(sp.expand(sp.expand_trig(fx ** 2 + fy ** 2)))  # a1^2 + a2^2 + 2 a1 a2 cos q2
    cos_q2 = sp.solve(sp.Eq(r2.subs(sp.cos(q2), c2), x ** 2 + y ** 2), c2)[0]
    out = {}
    for name, sgn in (("down", 1), ("up", -1)):
        q2s = sgn * sp.acos(cos_q2)
        q1s = sp.atan2(y, x) - sp.atan2(a2 * sp.sin(q2s), a1 + a2 * sp.cos(q2s))
        out[name] = (q1s, q2s)
    return out


def _check_2link(a1, a2, x, y):
    a1 = getscalar(a1, "a1")
    a2 = getscalar(a2, "a2")
    if a1 <= 0 or a2 <= 0:
        raise ValueError(f"a1, a2: expected positive link lengths, got {a1}, {a2}")
    x = getarray(x, "x")
    y = getarray(y, "y")
    x, y = np.broadcast_arrays(x, y)
    r = np.hypot(x, y)
    lo, hi = abs(a1 - a2), a1 + a2
    bad = (r > hi + 1e-12) | (r < lo - 1e-12)
    if np.any(bad):
        i = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
        raise ValueError(f"x, y: point ({float(x[i]):g}, {float(y[i]):g}) at distance {float(r[i]):g} "
                         f"is outside the reach {lo:g} <= r <= {hi:g} of the arm")
    return a1, a2, x, y


def ikine_2link(a1: float, a2: float, x: ArrayLike, y: ArrayLike, elbow: str = "up",
                unit: str = "rad") -> JointVector:
    r"""Closed-form IK of the 2-link planar arm (numeric, batched).

    .. math::

        \cos q_2 = \frac{x^2 + y^2 - a_1^2 - a_2^2}{2 a_1 a_2},\quad
        q_1 = \operatorname{atan2}(y, x) - \operatorname{atan2}(a_2 \sin q_2, a_1 + a_2 \cos q_2)

    with :math:`q_2 \le 0` for ``elbow="up"`` and :math:`q_2 \ge 0` for
    ``"down"`` (as :func:`ikine_2link_sympy`).

    Returns
    -------
    ndarray (..., 2)
        ``(q1, q2)`` for each point.  A point out of reach raises
        ``ValueError`` naming it and the reach.

    >>> np.round(ikine_2link(1, 1, 0.6, 0.7, "down"), 4)
    array([-0.2295,  2.1834])
    >>> np.round(ikine_2link(1, 1, 0.6, 0.7, "up"), 4)
    array([ 1.9539, -2.1834])
    """
    elbow = getoption(elbow, "elbow", ("up", "down"))
    a1, a2, x, y = _check_2link(a1, a2, x, y)
    c2 = np.clip((x ** 2 + y ** 2 - a1 ** 2 - a2 ** 2) / (2 * a1 * a2), -1.0, 1.0)
    q2 = np.arccos(c2) * (-1.0 if elbow == "up" else 1.0)
    q1 = np.arctan2(y, x) - np.arctan2(a2 * np.sin(q2), a1 + a2 * np.cos(q2))
    return putangle(np.stack([q1, q2], axis=-1), unit)


def ikine_2link_numeric(a1: float, a2: float, x: float, y: float, q0: JointVector = (0.0, 0.0), *,
                        tol: float = 1e-10, unit: str = "rad") -> JointVector:
    r"""Numerical IK of the 2-link planar arm, ``fminsearch``-style (7.2.1.2).

    Minimises :math:`E(q) = \| [\mathcal{K}(q)]_t - (x^*, y^*)^T \|` with
    the Nelder-Mead simplex method (``scipy.optimize.minimize``), as the
    notes do with MATLAB's ``fminsearch``.  Only one of the two solutions is
    found; the initial ``q0`` decides which.

    Returns
    -------
    ndarray (2,)
        ``(q1, q2)``.  A point out of reach raises ``ValueError``.

    >>> np.round(ikine_2link_numeric(1, 1, 0.6, 0.7), 3)
    array([-0.23 ,  2.183])
    """
    a1, a2, x, y = _check_2link(a1, a2, x, y)
    if x.ndim != 0:
        raise ValueError(f"x, y: expected one point, got shape {x.shape}; use ikine_2link for batches")
    q0 = getvector(q0, "q0", 2)
    if unit == "deg":
        q0 = np.deg2rad(q0)
    p = np.array([float(x), float(y)])

    def err(q):
        fk = np.array([a1 * np.cos(q[0]) + a2 * np.cos(q[0] + q[1]),
                       a1 * np.sin(q[0]) + a2 * np.sin(q[0] + q[1])])
        return np.linalg.norm(fk - p)

    res = minimize(err, q0, method="Nelder-Mead", options={"xatol": tol, "fatol": tol, "maxiter": 4000})
    return putangle(res.x, getunit(unit))
