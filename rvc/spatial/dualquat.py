"""Unit dual quaternions for pose (Chapter 2.3.4).

A dual quaternion :math:`\\sigma = q_r + \\varepsilon q_d`
(:math:`\\varepsilon^2 = 0`) is stored as an (8,) array: the real part
:math:`q_r` then the dual part :math:`q_d`, each ``[s, vx, vy, vz]``.
A pose with rotation :math:`q_r` (a unit quaternion) and translation
:math:`t` is the *unit* dual quaternion

.. math:: q_r,\\qquad q_d = \\tfrac12\\, (0, t)\\, q_r ,

which satisfies :math:`|q_r| = 1` and :math:`q_r\\cdot q_d = 0`; conversely
:math:`(0, t) = 2 q_d q_r^*`.  Products of unit dual quaternions compose
poses, :math:`(a_r + \\varepsilon a_d)(b_r + \\varepsilon b_d) = a_r b_r +
\\varepsilon (a_r b_d + a_d b_r)`, and the inverse of a unit dual quaternion
is its (quaternion) conjugate :math:`q_r^* + \\varepsilon q_d^*`.

>>> T = transl(1, 2, 3) @ trotx(0.3)
>>> dq = tr2dq(T)
>>> np.allclose(dq2tr(dq), T)
True
>>> np.allclose(dq2tr(dqmul(dq, dqconj(dq))), np.eye(4))
True
"""

from __future__ import annotations

import numpy as np

from .. import checks
from .quaternion import q2r, qconj, qmul, qvmul, r2q
from .transforms3d import rt2tr
from ..shapes import SE3, DualQuaternion, Vector3

__all__ = ["tr2dq", "dq2tr", "dqmul", "dqconj", "dqnorm", "dqunit", "dqvmul"]


def _getdq(dq, name="dq"):
    return checks.getarray(dq, name, shape=(8,))


def _checkunit(dq, name, check):
    qr = checks.getunitquaternion(dq[..., :4], f"{name} (real part)", check)
    if check:
        err = float(np.max(np.abs(np.sum(qr * dq[..., 4:], axis=-1))))
        if err > 1e-6:
            raise ValueError(f"{name}: expected a unit dual quaternion (q_r . q_d = 0), "
                             f"got q_r . q_d = {err:.3g}; use dqunit()")
    return dq


def tr2dq(T: SE3, check: bool = True) -> DualQuaternion:
    """Unit dual quaternion of a pose: :math:`(q_r, \\tfrac12 (0, t) q_r)`, :math:`q_r` = ``r2q(R)``.

    (..., 4, 4) gives (..., 8).

    >>> tr2dq(transl(2, 0, 0))
    array([1., 0., 0., 0., 0., 1., 0., 0.])
    """
    T = checks.getpose(T, "T", 3, check=check)
    qr = r2q(T[..., :3, :3], check=False)
    tq = np.concatenate([np.zeros(T.shape[:-2] + (1,)), T[..., :3, 3]], axis=-1)
    return np.concatenate([qr, 0.5 * qmul(tq, qr)], axis=-1)


def dq2tr(dq: DualQuaternion, check: bool = True) -> SE3:
    """Pose of a unit dual quaternion: :math:`R = R(q_r)`, :math:`(0, t) = 2 q_d q_r^*`.

    >>> dq2tr([1, 0, 0, 0, 0, 1, 0, 0])[:3, 3]
    array([2., 0., 0.])
    """
    dq = _checkunit(_getdq(dq), "dq", check)
    qr, qd = dq[..., :4], dq[..., 4:]
    t = 2 * qmul(qd, qconj(qr))[..., 1:]
    return rt2tr(q2r(qr, check=False), t, check=False)


def dqmul(dq1: DualQuaternion, dq2: DualQuaternion) -> DualQuaternion:
    """Product :math:`(a_r + \\varepsilon a_d)(b_r + \\varepsilon b_d) = a_r b_r + \\varepsilon(a_r b_d + a_d b_r)`.

    For unit dual quaternions this composes poses like ``T1 @ T2``.

    >>> np.allclose(dq2tr(dqmul(tr2dq(transl(1, 0, 0)), tr2dq(trotx(1)))),
    ...             transl(1, 0, 0) @ trotx(1))
    True
    """
    a = _getdq(dq1, "dq1")
    b = _getdq(dq2, "dq2")
    return np.concatenate([qmul(a[..., :4], b[..., :4]),
                           qmul(a[..., :4], b[..., 4:]) + qmul(a[..., 4:], b[..., :4])], axis=-1)


def dqconj(dq: DualQuaternion) -> DualQuaternion:
    """Quaternion conjugate of both parts, :math:`q_r^* + \\varepsilon q_d^*`.

    For a unit dual quaternion this is the inverse (the pose ``trinv(T)``).

    >>> dqconj([1, 0, 0, 0, 0, 1, 0, 0])
    array([ 1., -0., -0., -0.,  0., -1., -0., -0.])
    """
    dq = _getdq(dq)
    return np.concatenate([qconj(dq[..., :4]), qconj(dq[..., 4:])], axis=-1)


def dqnorm(dq: DualQuaternion) -> np.ndarray:
    """Norm of the real part :math:`|q_r|` (1 for a unit dual quaternion); (..., 8) gives (...).

    >>> float(dqnorm([2, 0, 0, 0, 0, 1, 0, 0]))
    2.0
    """
    return np.linalg.norm(_getdq(dq)[..., :4], axis=-1)


def dqunit(dq: DualQuaternion) -> DualQuaternion:
    """Normalise to a unit dual quaternion.

    Divides both parts by :math:`|q_r|`, then removes the component of
    :math:`q_d` along :math:`q_r` so that :math:`q_r\\cdot q_d = 0`.  A zero
    real part is a ValueError.

    >>> dqunit([2, 0, 0, 0, 0.1, 2, 0, 0])
    array([1., 0., 0., 0., 0., 1., 0., 0.])
    """
    dq = _getdq(dq)
    qr = checks.getunitquaternion(dq[..., :4], "dq (real part)", check=False)
    n = np.linalg.norm(qr, axis=-1, keepdims=True)
    qr = qr / n
    qd = dq[..., 4:] / n
    qd = qd - np.sum(qr * qd, axis=-1, keepdims=True) * qr
    return np.concatenate([qr, qd], axis=-1)


def dqvmul(dq: DualQuaternion, p: Vector3, check: bool = True) -> Vector3:
    """Transform point(s) ``p`` (..., 3) by a unit dual quaternion: :math:`p' = q_r p q_r^* + t`.

    Equivalent to :math:`\\sigma (1 + \\varepsilon p) \\bar\\sigma^*` and to ``h2e(T @ e2h(p))``.

    >>> np.round(dqvmul(tr2dq(transl(1, 0, 0) @ trotx(np.pi / 2)), [0, 1, 0]), 6) + 0
    array([1., 0., 1.])
    """
    dq = _checkunit(_getdq(dq), "dq", check)
    qr, qd = dq[..., :4], dq[..., 4:]
    t = 2 * qmul(qd, qconj(qr))[..., 1:]
    return qvmul(qr, p, check=False) + t
