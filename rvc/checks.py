"""Argument checks shared by every rvc function.

Validation lives here, in one place.  Each helper takes the value, the
argument's name as the caller sees it, and what is expected, and either
returns a clean float array or raises ``ValueError`` (``TypeError`` for a
wrong type) whose message names the argument, what was expected and what
came.  Nothing here does any robotics.

>>> getarray([1, 2, 3], "v", shape=(3,))
array([1., 2., 3.])
>>> getarray([1, 2], "v", shape=(3,))
Traceback (most recent call last):
...
ValueError: v: expected shape (..., 3), got shape (2,)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "getroles",
    "RVCWarning",
    "SingularityWarning",
    "ORTHO_TOL",
    "UNIT_TOL",
    "SYM_TOL",
    "ZERO_TOL",
    "getarray",
    "getvector",
    "getscalar",
    "getunit",
    "getangle",
    "putangle",
    "getoption",
    "getdim",
    "getaxes",
    "getrotation",
    "getpose",
    "getq",
    "getquaternion",
    "getunitquaternion",
    "getinertia",
    "getphysical",
    "getint",
    "getcallable",
    "getfields",
    "gettolerance",
    "getivp",
    "getcoulomb",
    "getnonzero",
    "getunitvector",
    "warn_singular",
    "NumericalWarning",
    "warn_nonfinite",
    "passes",
]

#: Tolerance on ``max |R^T R - I|`` and ``|det R - 1|`` for a matrix to be
#: accepted as a rotation.  Products of a few hundred rotations stay well
#: inside it; a hand-typed matrix with 4 significant figures does not.
ORTHO_TOL = 1e-6

#: Tolerance on ``| |q| - 1 |`` for a quaternion to be accepted as unit.
UNIT_TOL = 1e-6

#: Relative tolerance on ``max |J - J^T|`` for an inertia tensor to be
#: accepted as symmetric, and on the triangle inequality of its moments.
SYM_TOL = 1e-9

#: Below this norm a vector or quaternion counts as zero (no direction).
ZERO_TOL = 1e-12


#: Identity matrices, for the checks (read only).
_EYE = {k: np.eye(k) for k in (2, 3, 4)}
for _I in _EYE.values():
    _I.flags.writeable = False


class RVCWarning(UserWarning):
    """Base class of the warnings rvc raises."""


class SingularityWarning(RVCWarning):
    """A representation is singular here and information was lost."""


def _describe(a) -> str:
    a = np.asarray(a)
    return f"shape {a.shape}"


def _shape_text(shape, batch: bool) -> str:
    inner = ", ".join(str(s) for s in shape)
    if batch:
        return f"(..., {inner})" if shape else "(...)"
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


def getarray(value: Any, name: str, shape: tuple | None = None, *, batch: bool = True,
             finite: bool = True, dtype: type = float) -> np.ndarray:
    """Return ``value`` as a float array after checking it.

    Parameters
    ----------
    value : array_like
        What the caller passed.
    name : str
        The argument's name, used in error messages.
    shape : tuple of int or None, optional
        Required trailing shape; ``None`` accepts any shape.
    batch : bool, optional
        If true (default) any number of leading batch dimensions may
        precede ``shape``; if false the shape must match exactly.
    finite : bool, optional
        Reject NaN and infinity (default true).

    >>> getarray(np.zeros((5, 3, 3)), "R", shape=(3, 3)).shape
    (5, 3, 3)
    >>> getarray([1.0, float("nan")], "q")
    Traceback (most recent call last):
    ...
    ValueError: q: expected finite numbers, got NaN or inf at index (1,)
    """
    if isinstance(value, str):
        raise TypeError(f"{name}: expected a number or array of numbers, got str {value!r}")
    if value is None:
        raise TypeError(f"{name}: expected a number or array of numbers, got None "
                        f"(a function without 'return' gives None)")
    try:
        a = value if type(value) is np.ndarray else np.asarray(value)
    except (TypeError, ValueError) as exc:
        ragged = isinstance(value, (list, tuple)) and "inhomogeneous" in str(exc)
        raise TypeError(
            f"{name}: expected a number or array of numbers, got {type(value).__name__}"
            + (" with rows of different lengths (a ragged list); give every row the same "
               "number of elements" if ragged else "")
        ) from exc
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: expected real numbers, got complex numbers; take .real if the "
                        f"imaginary parts are meant to be zero")
    if a.dtype.kind == "O":
        none = [i for i, v in np.ndenumerate(a) if v is None]
        if none:
            raise TypeError(f"{name}: expected a number or array of numbers, got None at index "
                            f"{tuple(int(i) for i in none[0])}")
    try:
        a = a.astype(dtype, copy=False) if dtype is not None else a
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name}: expected a number or array of numbers, got {type(value).__name__}"
        ) from exc
    if shape is not None:
        shape = tuple(shape)
        n = len(shape)
        ok = (a.ndim >= n if batch else a.ndim == n) and a.shape[a.ndim - n:] == shape
        if not ok:
            raise ValueError(
                f"{name}: expected shape {_shape_text(shape, batch)}, got {_describe(a)}"
            )
    if finite and not np.isfinite(a).all():
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
        raise ValueError(f"{name}: expected finite numbers, got NaN or inf at index {bad}")
    return a


def getvector(value: Any, name: str, n: int | None = None) -> np.ndarray:
    """Return a 1-D float vector, of length ``n`` if given.

    Accepts lists, tuples, 1-D arrays and (n, 1) or (1, n) column/row arrays.

    >>> getvector([[1], [2]], "C", 2)
    array([1., 2.])
    """
    a = getarray(value, name)
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1 or (n is not None and a.size != n):
        want = f"a vector of {n} elements" if n is not None else "a vector"
        raise ValueError(f"{name}: expected {want}, got {_describe(a)}")
    return a


def getscalar(value: Any, name: str) -> float:
    """Return a finite Python float.

    >>> getscalar(np.array(2), "d")
    2.0
    """
    if type(value) in (int, float) and math.isfinite(value):     # the common case, quickly
        return float(value)
    a = getarray(value, name)
    if a.size != 1:
        raise ValueError(f"{name}: expected a scalar, got {_describe(a)}")
    return float(a.reshape(()))


def getunit(unit: Any) -> str:
    """Check an angle unit: ``"rad"`` or ``"deg"``.

    >>> getunit("deg")
    'deg'
    >>> getunit("degrees")
    Traceback (most recent call last):
    ...
    ValueError: unit: expected 'rad' or 'deg', got 'degrees'
    """
    if unit not in ("rad", "deg"):
        raise ValueError(f"unit: expected 'rad' or 'deg', got {unit!r}")
    return unit


def getangle(value: Any, name: str = "theta", unit: str = "rad") -> np.ndarray:
    """Return angles in radians as a float array (any shape).

    Angles are radians unless ``unit="deg"``; rvc never guesses.

    >>> float(getangle(90, unit="deg"))
    1.5707963267948966
    """
    a = getarray(value, name)
    return np.asarray(np.deg2rad(a)) if getunit(unit) == "deg" else a


def putangle(value: Any, unit: str = "rad") -> Any:
    """Convert radians to the caller's unit on the way out."""
    return np.rad2deg(value) if getunit(unit) == "deg" else value


def getoption(value: Any, name: str, allowed: Sequence[str]) -> str:
    """Check a string option against the allowed values.

    >>> getoption("xyz", "order", ("zyx", "xyz", "yxz"))
    'xyz'
    >>> getoption("zxz", "order", ("zyx", "xyz", "yxz"))
    Traceback (most recent call last):
    ...
    ValueError: order: expected one of 'zyx', 'xyz', 'yxz', got 'zxz'
    """
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name}: expected one of {choices}, got {value!r}")
    return value


def getdim(robot: Any, dim: int, instead: str = "", name: str = "robot") -> Any:
    """Check that the chain ``robot`` works in ``dim`` dimensions (its ``dim``: 3, or 2 for a planar
    chain; 3 when it has none) and return it; ``instead`` says what to use for the other kind.

    >>> getdim(ETS2.Rz() * ETS2.Tx(1), 3, "draw it with plot_planar")
    Traceback (most recent call last):
    ...
    ValueError: robot: expected a chain in space (dim 3), got a planar chain (dim 2); draw it with plot_planar
    """
    have = getattr(robot, "dim", 3)
    if have != dim:
        kind = {2: "a planar chain", 3: "a chain in space"}
        raise ValueError(f"{name}: expected {kind.get(dim, dim)} (dim {dim}), got "
                         f"{kind.get(have, 'a chain')} (dim {have})" + (f"; {instead}" if instead else ""))
    return robot


#: Rows of a spatial velocity (vx vy vz wx wy wz) that the named ``axes`` select.
AXES = {"all": (0, 1, 2, 3, 4, 5), "trans": (0, 1, 2), "rot": (3, 4, 5)}


def getaxes(value: Any, name: str = "axes") -> np.ndarray:
    """Rows of a Jacobian or spatial velocity selected by ``axes``: a name or a 6-element mask.

    ``"all"`` (every row), ``"trans"`` (vx vy vz), ``"rot"`` (wx wy wz), or
    a mask of 6 zeros and ones in the order (vx, vy, vz, wx, wy, wz), not
    all zero, e.g. ``[1, 1, 0, 0, 0, 1]`` for a planar arm.  Returns the
    selected row indices.

    >>> getaxes("rot")
    array([3, 4, 5])
    >>> getaxes([1, 1, 0, 0, 0, 0])
    array([0, 1])
    >>> getaxes("xyz")
    Traceback (most recent call last):
    ...
    ValueError: axes: expected one of 'all', 'trans', 'rot' or a mask of 6 booleans (vx vy vz wx wy wz, not all
    false), got 'xyz'
    """
    if isinstance(value, str):
        if value in AXES:
            return np.array(AXES[value])
    else:
        try:
            mask = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            mask = np.zeros(0)
        if mask.shape == (6,) and np.all((mask == 0) | (mask == 1)) and mask.any():
            return np.flatnonzero(mask)
    raise ValueError(f"{name}: expected one of 'all', 'trans', 'rot' or a mask of 6 booleans "
                     f"(vx vy vz wx wy wz, not all false), got {value!r}")


def getrotation(value: Any, name: str = "R", dim: int = 3, *, check: bool = True,
                tol: float = ORTHO_TOL, allow_pose: bool = False) -> np.ndarray:
    """Return a (..., dim, dim) rotation matrix array after checking it.

    A rotation is orthonormal, ``R^T R = I``, with ``det R = +1``.  Both
    are checked to ``tol`` (default :data:`ORTHO_TOL`) unless ``check`` is
    false.  With ``allow_pose`` a (..., dim+1, dim+1) pose is accepted too
    and its rotation part returned.

    >>> getrotation(np.eye(4), allow_pose=True).shape
    (3, 3)

    >>> getrotation(np.eye(3)).shape
    (3, 3)
    >>> getrotation(np.diag([1.0, 1.0, -1.0]))
    Traceback (most recent call last):
    ...
    ValueError: R: expected a rotation matrix (det = +1), got det = -1 (a reflection)
    """
    if allow_pose:
        a = getarray(value, name)
        if a.ndim >= 2 and a.shape[-2:] == (dim + 1, dim + 1):
            return getpose(a, name, dim, check=check, tol=tol)[..., :dim, :dim]
        if a.ndim < 2 or a.shape[-2:] != (dim, dim):
            raise ValueError(f"{name}: expected shape (..., {dim}, {dim}) or "
                             f"(..., {dim + 1}, {dim + 1}), got {_describe(a)}")
    R = getarray(value, name, shape=(dim, dim))
    if check:
        RtR = np.swapaxes(R, -1, -2) @ R
        err = np.abs(RtR - _EYE[dim]).max(axis=(-2, -1))
        if (err > tol).any():
            worst = float(np.max(err))
            raise ValueError(
                f"{name}: expected an orthonormal matrix (max |R^T R - I| <= {tol:g}), "
                f"got {worst:.3g}; use trnorm() to repair accumulated round-off"
            )
        det = np.linalg.det(R)
        if (np.abs(det - 1) > tol).any():
            d = float(np.reshape(det, -1)[np.argmax(np.abs(np.reshape(det, -1) - 1))])
            raise ValueError(
                f"{name}: expected a rotation matrix (det = +1), got det = {d:.3g}"
                + (" (a reflection)" if d < 0 else "")
            )
    return R


def getpose(value: Any, name: str = "T", dim: int = 3, *, check: bool = True,
            tol: float = ORTHO_TOL) -> np.ndarray:
    """Return a (..., dim+1, dim+1) homogeneous transform after checking it.

    The bottom row must be ``[0 ... 0 1]`` and the top-left block a rotation.

    >>> getpose(np.eye(4)).shape
    (4, 4)
    >>> getpose(np.ones((4, 4)))
    Traceback (most recent call last):
    ...
    ValueError: T: expected a homogeneous transform with bottom row [0, 0, 0, 1], got [1.0, 1.0, 1.0, 1.0]
    """
    n = dim + 1
    T = getarray(value, name, shape=(n, n))
    if check:
        bottom = T[..., dim, :]
        want = _EYE[n][-1]
        bad = np.abs(bottom - want).max(axis=-1)
        if (bad > tol).any():
            row = np.reshape(bottom, (-1, n))[int(np.argmax(np.reshape(bad, -1)))]
            raise ValueError(
                f"{name}: expected a homogeneous transform with bottom row "
                f"{[int(x) for x in want]}, got {[float(x) for x in row]}"
            )
        getrotation(T[..., :dim, :dim], f"{name} (rotation part)", dim, tol=tol)
    return T


def getq(q: Any, n: int, revolute: Any = None, unit: str = "rad", name: str = "q") -> np.ndarray:
    """Joint coordinates as a float array of shape (..., n), radians for revolute joints.

    The one joint-vector check of every kinematic and dynamic function:
    ``q`` is one configuration (n,) or a batch (N, n) (any leading
    dimensions); a robot with one joint also takes a scalar.  With
    ``unit="deg"`` the revolute joints (``revolute``, a boolean sequence of
    length n; all joints if None) are converted to radians, prismatic ones
    are left alone.

    >>> getq([90, 0.5], 2, [True, False], unit="deg")
    array([1.57079633, 0.5       ])
    >>> getq([1, 2, 3], 2)
    Traceback (most recent call last):
    ...
    ValueError: q: expected 2 joint coordinates, shape (2,) or (N, 2), got shape (3,)
    """
    getunit(unit)
    a = getarray(q, name)
    if a.ndim == 0 and n == 1:
        a = a.reshape(1)
    if a.ndim == 0 or a.shape[-1] != n:
        raise ValueError(
            f"{name}: expected {n} joint coordinates, shape ({n},) or (N, {n}), "
            f"got shape {a.shape}"
        )
    if unit == "deg":
        rev = np.ones(n, dtype=bool) if revolute is None else np.asarray(revolute, dtype=bool)
        a = np.where(rev, np.deg2rad(a), a)
    return a


def getquaternion(value: Any, name: str = "q") -> np.ndarray:
    """Return quaternions ``[s, vx, vy, vz]`` as a (..., 4) float array.

    >>> getquaternion([1, 0, 0, 0])
    array([1., 0., 0., 0.])
    """
    return getarray(value, name, shape=(4,))


def getunitquaternion(value: Any, name: str = "q", check: bool = True,
                      tol: float = UNIT_TOL) -> np.ndarray:
    """Return unit quaternions (..., 4) after checking ``| |q| - 1 | <= tol``.

    A zero quaternion is always refused; with ``check=False`` the norm is
    not checked otherwise.

    >>> getunitquaternion([0, 0, 0, 2])
    Traceback (most recent call last):
    ...
    ValueError: q: expected a unit quaternion (| |q| - 1 | <= 1e-06), got | |q| - 1 | = 1; use qunit() to normalise
    """
    q = getquaternion(value, name)
    n = np.linalg.norm(q, axis=-1)
    if np.any(n <= ZERO_TOL):
        raise ValueError(f"{name}: expected a non-zero quaternion, got norm {float(np.min(n)):.3g}")
    if check:
        err = float(np.max(np.abs(n - 1.0)))
        if err > tol:
            raise ValueError(f"{name}: expected a unit quaternion (| |q| - 1 | <= {tol:g}), "
                             f"got | |q| - 1 | = {err:.3g}; use qunit() to normalise")
    return q


def getinertia(value: Any, name: str = "I", *, triangle: bool = True) -> np.ndarray:
    r"""Return a (3, 3) inertia tensor after checking it is physically possible.

    Accepts a (3, 3) matrix, a 3-vector (the diagonal) or the toolbox's
    6-vector ``[Ixx, Iyy, Izz, Ixy, Iyz, Ixz]``.  The one rule for every
    inertia in rvc:

    * symmetric, :math:`J = J^T` (to :data:`SYM_TOL` relative);
    * positive semi-definite: principal moments :math:`\lambda_i \ge 0`;
    * the triangle inequality :math:`\lambda_i + \lambda_j \ge \lambda_k`
      that every real body satisfies (since
      :math:`\lambda_i + \lambda_j - \lambda_k = 2\int r_k^2\,dm \ge 0`).

    ``triangle=False`` skips the last test, for lumped parameters such as
    the published Puma 560 link inertias, which keep only the moments that
    matter about the joint axes (its links 1 and 3 fail the inequality).

    >>> getinertia([1, 2, 3])
    array([[1., 0., 0.],
           [0., 2., 0.],
           [0., 0., 3.]])
    >>> getinertia([1, 1, 3])
    Traceback (most recent call last):
    ...
    ValueError: I: expected principal moments that satisfy the triangle inequality (a real body), got 1, 1, 3
    >>> getinertia([-1, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: I: expected a positive semi-definite inertia tensor, got smallest principal moment -1
    """
    a = getarray(value, name)
    if a.shape == (3, 3):
        J = a.copy()
    elif a.shape == (3,):
        J = np.diag(a)
    elif a.shape == (6,):
        xx, yy, zz, xy, yz, xz = a
        J = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    else:
        raise ValueError(f"{name}: expected a 3x3 matrix, a 3-vector (diagonal) or a 6-vector "
                         f"[Ixx, Iyy, Izz, Ixy, Iyz, Ixz], got {_describe(a)}")
    scale = max(float(np.abs(J).max()), 1e-300)
    asym = float(np.abs(J - J.T).max())
    if asym > SYM_TOL * scale:
        raise ValueError(f"{name}: expected a symmetric inertia tensor, got max |J - J^T| = "
                         f"{asym:.3g}")
    ev = np.linalg.eigvalsh(0.5 * (J + J.T))
    if ev[0] < -SYM_TOL * scale:
        raise ValueError(f"{name}: expected a positive semi-definite inertia tensor, got "
                         f"smallest principal moment {ev[0]:.3g}")
    if triangle and ev[0] + ev[1] < ev[2] - SYM_TOL * scale:
        raise ValueError(f"{name}: expected principal moments that satisfy the triangle "
                         f"inequality (a real body), got {ev[0]:.4g}, {ev[1]:.4g}, {ev[2]:.4g}")
    return J


def getphysical(value: Any, name: str, what: str = "value", *, positive: bool = False,
                nonnegative: bool = False, nonzero: bool = False, n: int | None = None) -> float | np.ndarray:
    """A physical parameter: a finite float (or, with ``n``, a vector of ``n``; a scalar is
    repeated) that satisfies its sign rule.

    The one rule for every model's physical parameters (masses, lengths,
    inertias, friction, stiffness, gear ratios): ``positive`` (> 0, a
    length, a time), ``nonnegative`` (>= 0, a mass, a rotor inertia, a
    viscous friction) or ``nonzero`` (a gear ratio, which may be negative).
    ``what`` names the quantity in the message.

    >>> getphysical(2, "m", "mass", nonnegative=True)
    2.0
    >>> getphysical(-5, "m", "mass", nonnegative=True)
    Traceback (most recent call last):
    ...
    ValueError: m: expected a non-negative mass, got -5.0
    >>> getphysical(0, "G", "gear ratio", nonzero=True)
    Traceback (most recent call last):
    ...
    ValueError: G: expected a non-zero gear ratio, got 0.0
    >>> getphysical([1, -1], "lengths", positive=True, n=2)
    Traceback (most recent call last):
    ...
    ValueError: lengths: expected positive values, got [1.0, -1.0]
    """
    if value is None:
        raise TypeError(f"{name}: expected a {what} (a number), got None")
    if n is None:
        v = getscalar(value, name)
        a = np.array([v])
    else:
        a = getarray(value, name)
        if a.ndim == 0:
            a = np.full(n, float(a))
        a = getvector(a, name, n)
    if positive:
        bad, rule = a <= 0, "positive"
    elif nonnegative:
        bad, rule = a < 0, "non-negative"
    elif nonzero:
        bad, rule = a == 0, "non-zero"
    else:
        bad, rule = np.zeros(a.shape, bool), ""
    if np.any(bad):
        if n is None:
            raise ValueError(f"{name}: expected a {rule} {what}, got {float(a[0])}")
        raise ValueError(f"{name}: expected {rule} values, got {a.tolist()}")
    return float(a[0]) if n is None else a


def getint(value: Any, name: str, minimum: int | None = None) -> int:
    """A whole number (an int, or a float with no fraction such as ``3.0``), at least ``minimum``.

    ``steps=2.7`` is refused rather than becoming 2; ``True`` is not a number here.

    >>> getint(3.0, "steps", 1)
    3
    >>> getint(2.7, "steps", 1)
    Traceback (most recent call last):
    ...
    ValueError: steps: expected a whole number, got 2.7
    >>> getint(0, "npoints", 2)
    Traceback (most recent call last):
    ...
    ValueError: npoints: expected at least 2 (a whole number), got 0
    """
    if isinstance(value, (bool, np.bool_)) or value is None:
        raise TypeError(f"{name}: expected a whole number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        k = int(value)
    else:
        v = getscalar(value, name)
        if v != int(v):
            raise ValueError(f"{name}: expected a whole number, got {v:g}")
        k = int(v)
    if minimum is not None and k < minimum:
        raise ValueError(f"{name}: expected at least {minimum} (a whole number), got {k}")
    return k


def gettext(value: Any, name: str) -> str:
    """A piece of text that says something: a string with more than white space in it, stripped.

    >>> gettext("  the tool point's path  ", "alt")
    "the tool point's path"
    >>> gettext("", "alt")
    Traceback (most recent call last):
    ...
    ValueError: alt: expected some text, got ''
    >>> gettext(None, "alt")
    Traceback (most recent call last):
    ...
    TypeError: alt: expected a string, got NoneType
    """
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a string, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name}: expected some text, got {value!r}")
    return value.strip()


def getcallable(value: Any, name: str, what: str = "a function") -> Callable:
    """Check that ``value`` can be called; ``what`` says what kind of function is expected.

    >>> getcallable("computed_torque", "law", "a control law law(t, q, qd) -> tau")
    Traceback (most recent call last):
    ...
    TypeError: law: expected a control law law(t, q, qd) -> tau, got str 'computed_torque'
    """
    if not callable(value):
        got = f"{type(value).__name__} {value!r}" if isinstance(value, str) else type(value).__name__
        raise TypeError(f"{name}: expected {what}, got {got}")
    return value


def getfields(value: Any, name: str, fields: Sequence[str], what: str) -> Any:
    """Check that ``value`` has the attributes ``fields`` (a result object such as a trajectory).

    >>> getfields(np.zeros((5, 2)), "traj", ("t", "q"), "a Trajectory, e.g. jtraj(q0, q1, t)")
    Traceback (most recent call last):
    ...
    TypeError: traj: expected a Trajectory, e.g. jtraj(q0, q1, t) (with t, q), got ndarray; pass the trajectory
    itself, not one of its arrays
    """
    missing = [f for f in fields if not hasattr(value, f)]
    if missing:
        hint = ("; pass the trajectory itself, not one of its arrays"
                if isinstance(value, (np.ndarray, list, tuple)) else "")
        raise TypeError(f"{name}: expected {what} (with {', '.join(fields)}), got "
                        f"{type(value).__name__}{hint}")
    return value


#: The integrators of :func:`scipy.integrate.solve_ivp`.
IVP_METHODS = ("RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA")


def gettolerance(value: Any, name: str) -> float:
    """A positive finite tolerance (``rtol``, ``atol``, ``tol``): refused rather than clamped.

    >>> gettolerance(-1e-6, "rtol")
    Traceback (most recent call last):
    ...
    ValueError: rtol: expected a positive tolerance, got -1e-06
    """
    v = getscalar(value, name)
    if v <= 0:
        raise ValueError(f"{name}: expected a positive tolerance, got {v:g}")
    return v


def getivp(method: Any, rtol: Any, atol: Any) -> dict:
    """The integrator options of :func:`scipy.integrate.solve_ivp`, checked before scipy sees them:
    ``method`` one of :data:`IVP_METHODS` (or an ``OdeSolver`` class), ``rtol`` and ``atol``
    positive (scipy would clamp a tiny or negative ``rtol`` without a word).

    >>> getivp("RK45", 1e-6, 1e-8)
    {'method': 'RK45', 'rtol': 1e-06, 'atol': 1e-08}
    >>> getivp("rk4", 1e-6, 1e-8)
    Traceback (most recent call last):
    ...
    ValueError: method: expected one of 'RK45', 'RK23', 'DOP853', 'Radau', 'BDF', 'LSODA', got 'rk4'
    """
    if not isinstance(method, type):
        getoption(method, "method", IVP_METHODS)
    return {"method": method, "rtol": gettolerance(rtol, "rtol"),
            "atol": gettolerance(atol, "atol")}


def getcoulomb(value: Any, name: str = "Tc") -> np.ndarray:
    """Coulomb friction ``[Tc+, Tc-]`` (for positive and negative speed), ``Tc+ >= 0 >= Tc-``;
    a scalar ``c >= 0`` means ``[c, -c]``.

    >>> getcoulomb(0.1)
    array([ 0.1, -0.1])
    >>> getcoulomb([-0.1, 0.1])
    Traceback (most recent call last):
    ...
    ValueError: Tc: expected Coulomb friction [Tc+, Tc-] with Tc+ >= 0 >= Tc- (friction opposes motion), got [-0.1, 0.1]
    """
    if value is None:
        raise TypeError(f"{name}: expected Coulomb friction [Tc+, Tc-], got None")
    a = getarray(value, name)
    if a.size == 1:
        c = getphysical(a, name, "Coulomb friction", nonnegative=True)
        return np.array([c, -c])
    a = getvector(a, name, 2)
    if a[0] < 0 or a[1] > 0:
        raise ValueError(f"{name}: expected Coulomb friction [Tc+, Tc-] with Tc+ >= 0 >= Tc- "
                         f"(friction opposes motion), got {a.tolist()}")
    return a


def getnonzero(value: Any, name: str, n: int | None = None, tol: float = ZERO_TOL) -> np.ndarray:
    """Return a vector after checking that it is not (numerically) zero.

    >>> getnonzero([0, 0, 0], "v", 3)
    Traceback (most recent call last):
    ...
    ValueError: v: expected a non-zero vector, got norm 0
    """
    v = getvector(value, name, n)
    nrm = float(np.linalg.norm(v))
    if nrm <= tol:
        raise ValueError(f"{name}: expected a non-zero vector, got norm {nrm:.3g}")
    return v


def getunitvector(value: Any, name: str, n: int | None = None) -> np.ndarray:
    """Return ``value / |value|`` after checking it is non-zero.

    >>> getunitvector([0, 0, 2], "a", 3)
    array([0., 0., 1.])
    """
    v = getnonzero(value, name, n)
    return v / np.linalg.norm(v)


class NumericalWarning(RVCWarning):
    """The floating-point range was exceeded: the result holds NaN or inf."""


def warn_nonfinite(value: Any, what: str, cause: str, stacklevel: int = 3) -> bool:
    """Warn (:class:`NumericalWarning`) when ``value`` holds NaN or inf; return True if it does.

    ``what`` names the result, ``cause`` says what the caller can change.  For
    overflow that is not the caller's typing error (the result of valid inputs
    exceeded the float range), so a warning rather than an exception.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_nonfinite(np.array([1.0, np.inf]), "tau", "the rates are too large")
    ...     print(w[0].message)
    True
    tau: the result overflowed the floating-point range (NaN or inf at index (1,)); the rates are too large
    """
    a = np.asarray(value, dtype=float)
    bad = ~np.isfinite(a)
    if not bad.any():
        return False
    where = tuple(int(i) for i in np.argwhere(bad)[0])
    warnings.warn(f"{what}: the result overflowed the floating-point range (NaN or inf at index "
                  f"{where}); {cause}", NumericalWarning, stacklevel=stacklevel)
    return True


def getroles(value: Any, sizes: Sequence[int], name: str = "roles") -> tuple[str, ...]:
    """Joint roles of a parallel mechanism's chains: one string per chain, one letter per joint.

    ``a`` actuated, ``e`` elastic (a spring-damper), ``p`` passive.  ``value``
    is a sequence of strings (or one string for all chains, split by ``sizes``).

    >>> getroles(["aep", "aep"], [3, 3])
    ('aep', 'aep')
    >>> getroles("aepaep", [3, 3])
    ('aep', 'aep')
    >>> getroles(["aep", "ax"], [3, 2])
    Traceback (most recent call last):
    ...
    ValueError: roles: expected for chain 2 a string of 2 letters from 'a', 'e', 'p', got 'ax'
    """
    sizes = [int(n) for n in sizes]
    if isinstance(value, str):
        if len(value) != sum(sizes):
            raise ValueError(f"{name}: expected {sum(sizes)} letters (one per joint), got {value!r}")
        starts = np.cumsum([0] + sizes)
        value = [value[a:b] for a, b in zip(starts[:-1], starts[1:])]
    value = list(value) if isinstance(value, (list, tuple)) else value
    if not isinstance(value, list) or len(value) != len(sizes):
        raise ValueError(f"{name}: expected {len(sizes)} strings (one per chain), got {value!r}")
    for i, (r, n) in enumerate(zip(value, sizes)):
        if not isinstance(r, str) or len(r) != n or set(r) - set("aep"):
            raise ValueError(f"{name}: expected for chain {i + 1} a string of {n} letters from "
                             f"'a', 'e', 'p', got {r!r}")
    return tuple(value)


def warn_singular(message: str, stacklevel: int = 3) -> None:
    """Issue a :class:`SingularityWarning` (information was lost)."""
    warnings.warn(message, SingularityWarning, stacklevel=stacklevel)


def passes(getter: Callable, value: Any, shape: Any, check: bool = True) -> bool:
    """True when ``value`` has trailing ``shape`` and ``getter(array)`` accepts it.

    The predicate behind ``isrot``/``ishom``: a boolean answer instead of an
    error.  With ``check=False`` only the shape is tested.

    >>> passes(lambda a: getrotation(a, "R"), np.eye(3), (3, 3))
    True
    >>> passes(lambda a: getrotation(a, "R"), 2 * np.eye(3), (3, 3))
    False
    """
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    if a.ndim < 2 or a.shape[-2:] != tuple(shape):
        return False
    if not check:
        return True
    try:
        getter(a)
    except ValueError:
        return False
    return True
