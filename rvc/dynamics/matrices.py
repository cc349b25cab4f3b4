r"""The terms of the equation of motion: M, C, G (Chapters 9.2.1-9.2.3).

.. math:: Q = M(q)\ddot q + C(q, \dot q)\dot q + F(\dot q) + G(q) + J(q)^T W

* :func:`gravload` -- :math:`G(q)`, the torques that hold the arm still;
* :func:`inertia` -- :math:`M(q)`, symmetric positive definite, by the
  composite-rigid-body algorithm, motor inertias :math:`G_j^2 J_{m,j}` on the
  diagonal;
* :func:`coriolis` -- :math:`C(q, \dot q)` built from Christoffel symbols, the
  choice for which :math:`\dot M - 2C` is skew-symmetric;
* :func:`itorque` -- :math:`M(q)\ddot q`, the inertial torque;
* :func:`energy` -- kinetic and potential energy, which a frictionless,
  unforced arm conserves.

>>> p560 = rvc.models.puma560()
>>> np.diag(inertia(p560, p560.qn)).round(4)
array([3.6594, 4.4137, 0.9378, 0.1925, 0.1713, 0.1941])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import getq
from ..results import Result
from .friction import friction
from ..shapes import JointVector, Vector3
from .params import DynamicChain, getgravity
from .recursion import batch_rows, composite_inertia, link_table
from .rne import link_spatial, rne

__all__ = ["inertia", "gravload", "itorque", "coriolis", "Energy", "energy"]


def inertia(robot: DynamicChain, q: JointVector) -> np.ndarray:
    r"""Joint-space inertia matrix :math:`M(q)`, (..., n, n), by the composite-rigid-body algorithm.

    The links beyond joint j move as one rigid body when only joints up to j
    accelerate; its spatial inertia is the sum :math:`I^c_j = \sum_{k \ge j} I_k`
    (each carried into a common frame).  With :math:`S_j` the unit joint twists,

    .. math:: M_{ij} = S_i^T I^c_{\max(i, j)} S_j + \delta_{ij}\, G_j^2 J_{m,j} ,

    the torque at joint i that a unit acceleration of joint j needs.  rvc
    adds up the composite bodies in link frames
    (:func:`~rvc.dynamics.recursion.composite_inertia`: Python floats for one
    configuration, rows for a batch).  It equals the columns
    ``rne(q, 0, e_j, gravity=0)`` of the notes' definition, without n calls.
    Batched over leading dimensions of ``q``.

    >>> M = inertia(rvc.models.puma560(), np.zeros((4, 6)))
    >>> M.shape, bool(np.allclose(M, np.swapaxes(M, -1, -2)))
    ((4, 6, 6), True)
    """
    n = robot.n
    q = getq(q, n)
    table = link_table(robot)
    return batch_rows([q], lambda q: [x for row in composite_inertia(table, q) for x in row],
                      (n, n))


def gravload(robot: DynamicChain, q: JointVector, gravity: Vector3 | None = None) -> JointVector:
    """Gravity load :math:`G(q)`: the joint torques that hold the arm still at ``q``, (..., n).

    ``rne(q, 0, 0)``, as the notes' ``p560.gravload(qn)``; ``gravity``
    defaults to ``robot.gravity``.

    >>> gravload(rvc.models.puma560(), [0, 0, -np.pi / 2, 0, 0, 0]).round(4).tolist()
    [0.0, 46.0069, 8.7722, 0.0, 0.0283, 0.0]
    """
    return rne(robot, q, None, None, gravity=getgravity(gravity, robot))


def itorque(robot: DynamicChain, q: JointVector, qdd: JointVector) -> JointVector:
    """Inertial torque :math:`M(q)\\ddot q`, (..., n): ``rne(q, 0, qdd)`` without gravity.

    >>> p560 = rvc.models.puma560()
    >>> bool(np.allclose(itorque(p560, p560.qn, np.eye(6)[1]), inertia(p560, p560.qn)[:, 1]))
    True
    """
    qa = getq(q, robot.n, robot.revolute)
    qdd = getq(qdd, robot.n, name="qdd")
    return rne(robot, qa, None, qdd, gravity=np.zeros(3))


def _velocity_torque(robot, q, qd):
    """C(q, qd) qd: rne with no gravity and no acceleration, friction added back."""
    return rne(robot, q, qd, None, gravity=np.zeros(3)) + friction(robot, qd)


def coriolis(robot: DynamicChain, q: JointVector, qd: JointVector) -> np.ndarray:
    r"""Coriolis and centripetal matrix :math:`C(q, \dot q)`, (..., n, n).

    The velocity torques :math:`h(\dot q) = C\dot q` are a quadratic form,
    :math:`h_i = \sum_{j,k} c_{ijk}\dot q_j \dot q_k` with :math:`c_{ijk} = c_{ikj}`;
    rvc finds every :math:`c_{ijk}` from :func:`~rvc.dynamics.rne.rne` at unit
    speeds (no gravity, no friction): :math:`c_{ijj} = h_i(e_j)` and
    :math:`2c_{ijk} = h_i(e_j + e_k) - h_i(e_j) - h_i(e_k)`, in one batched
    call, and returns

    .. math:: C_{ij} = \sum_k c_{ijk}\, \dot q_k .

    These :math:`c_{ijk}` are the Christoffel symbols of :math:`M`, so
    :math:`\dot M - 2C` is skew-symmetric (a test checks it).  This is the
    matrix roboticstoolbox-python's ``coriolis`` returns.  The matrix the
    notes print for ``p560.coriolis(qn, [0 0 1 0 0 0])`` does not reproduce:
    its :math:`C\dot q` is not the velocity torque of the published model
    (notebook 09-2 shows both matrices and why).

    >>> p560 = rvc.models.puma560()
    >>> C = coriolis(p560, p560.qn, [0, 0, 1, 0, 0, 0])
    >>> C[1, 1:3].round(4).tolist()
    [0.3858, 0.3858]
    """
    n = robot.n
    qa = getq(q, n, robot.revolute)
    qd = getq(qd, n, name="qd")
    jj, kk = np.triu_indices(n)
    E = np.zeros((len(jj), n))
    E[np.arange(len(jj)), jj] = 1.0
    E[np.arange(len(jj)), kk] = 1.0                     # e_j (j == k) or e_j + e_k
    h = _velocity_torque(robot, qa[..., None, :], E)      # (..., pairs, n)
    hsq = h[..., jj == kk, :]                             # h(e_j), j = 0..n-1
    c = np.zeros(h.shape[:-2] + (n, n, n))                # c[..., i, j, k]
    sym = h - np.where((jj == kk)[:, None], 0.0, hsq[..., jj, :] + hsq[..., kk, :])
    sym = np.where((jj == kk)[:, None], sym, 0.5 * sym)
    c[..., :, jj, kk] = np.swapaxes(sym, -1, -2)
    c[..., :, kk, jj] = np.swapaxes(sym, -1, -2)
    return np.einsum("...ijk,...k->...ij", c, qd)


@dataclass(frozen=True, repr=False, eq=False)
class Energy(Result):
    """Kinetic, potential and total energy (J) of an arm; unpacks as ``kinetic, potential``."""

    unpack = ("kinetic", "potential")

    kinetic: np.ndarray
    potential: np.ndarray

    @property
    def total(self) -> np.ndarray:
        """``kinetic + potential``."""
        return self.kinetic + self.potential


def energy(robot: DynamicChain, q: JointVector, qd: JointVector, gravity: Vector3 | None = None) -> Energy:
    r"""Kinetic energy :math:`\tfrac12 \dot q^T M(q) \dot q` and potential energy :math:`-\sum_j m_j g^T c_j(q)`.

    :math:`c_j` is link j's centre of mass in the world frame and ``g`` the
    gravity vector (default ``robot.gravity``), so the potential is zero at
    the world origin's height.  The kinetic energy includes the motors'
    :math:`\tfrac12 G_j^2 J_{m,j}\dot q_j^2`.  Batched over leading dimensions.

    >>> p560 = rvc.models.puma560()
    >>> e = energy(p560, p560.qz, [1, 0, 0, 0, 0, 0])
    >>> round(float(e.kinetic), 4) == round(float(inertia(p560, p560.qz)[0, 0]) / 2, 4)
    True
    """
    n = robot.n
    qa = getq(q, n, robot.revolute)
    qd = getq(qd, n, name="qd")
    g = getgravity(gravity, robot)
    chain = link_spatial(robot, qa)
    M = inertia(robot, qa)
    kinetic = 0.5 * np.einsum("...i,...ij,...j->...", qd, M, qd)
    potential = -np.sum(chain.params.m * (chain.com @ g), axis=-1)
    return Energy(np.asarray(kinetic), np.asarray(potential))
