r"""The dynamics recursions in link frames, on Python floats or on rows of a batch (Chapter 9.2).

:func:`~rvc.dynamics.rne.rne` (inverse dynamics), :func:`~rvc.dynamics.matrices.inertia`
(the inertia matrix) and :func:`~rvc.dynamics.fdyn.accel` (forward dynamics)
run the two recursions of this module, as the toolboxes do: the recursive
Newton-Euler algorithm (:func:`newton_euler`) and the composite-rigid-body
algorithm (:func:`composite_inertia`), written with 3-vectors in the frames
that move with the links.

**Joint frames.**  Both DH conventions are one chain of *joint frames*: frame
:math:`\{j\}` moves with link j, its z axis is joint j's axis, and

.. math:: {}^{j-1}A_j = T_x(a)\,R_x(\alpha)\,R_z(\theta_j)\,T_z(d_j), \qquad
          R_j = R_x(\alpha) R_z(\theta_j), \quad
          p_j = (a,\ -d_j\sin\alpha,\ d_j\cos\alpha),

a constant part, then the joint's motion (:math:`\theta_j = q_j + \text{offset}`
for a revolute joint, :math:`d_j = q_j + \text{offset}` for a prismatic one).
For modified DH links :math:`(a, \alpha)` are link j's own and the joint
frames are the link frames.  A standard DH link,
:math:`R_z(\theta_j) T_z(d_j)\, T_x(a_j) R_x(\alpha_j)`, splits into the joint's
motion and a constant part that starts the next link, so there
:math:`(a, \alpha) = (a_{j-1}, \alpha_{j-1})` (zero for the first link), and
link j's centre of mass and inertia are carried once from frame {j} into the
joint frame (:func:`link_table`); the last link's :math:`T_x(a_n) R_x(\alpha_n)`
joins the tool.  Frame {0} is the base frame.

**Floats or rows.**  Every step only multiplies and adds the components of
3-vectors, so the same code runs on Python floats (one configuration: a few
tens of microseconds for a 6-axis arm, no numpy call per step) and on numpy
rows of N values (a batch: each step one vectorised operation over N).
Steps whose constants are zero are skipped (:func:`link_table` makes the
zeros of :math:`\alpha = 0, \pm 90°` exact): for a typical arm, such as
the Puma 560, many of them are.  :func:`batch_rows` does the bookkeeping: it gives one configuration as lists
of floats, small batches one configuration at a time, and long batches as
rows, in blocks of :data:`BLOCK` so that the rows stay in the cache.

>>> p560 = rvc.models.puma560()
>>> table = link_table(p560)
>>> tau, _ = newton_euler(table, p560.qn.tolist(), [0.0] * 6, [0.0] * 6, (0.0, 0.0, 9.81))
>>> np.round(tau, 4).tolist()                    # the gravity load at qn, no friction terms
[0.0, 31.6399, 6.0351, 0.0, 0.0283, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import getarray
from ..results import Result
from ..kinematics.chain import Chain
from ..shapes import JointVector, Twist6, Vector3
from .params import DynamicChain, dynparams

__all__ = ["LinkTable", "link_table", "boundary_conditions", "joint_transforms", "newton_euler",
           "composite_inertia", "forward_dynamics", "batch_rows"]

#: Configurations computed together as rows (longer batches are split into blocks).
BLOCK = 4096
#: Batches of up to this many configurations are computed one at a time, in floats.
SMALL = 16


@dataclass(frozen=True, repr=False, eq=False)
class LinkTable(Result):
    """A robot's links as the recursions read them: flat tuples of floats, one per joint frame.

    * ``joints[j] = (revolute, offset, theta, d, a, ca, sa, shifts)``: the
      joint type, its offset, the constant ``theta`` (prismatic) or ``d``
      (revolute), the constant part ``a``, ``cos alpha``, ``sin alpha`` of
      :math:`{}^{j-1}A_j`, and whether the frame's origin can differ from
      the previous one's (``p`` not always zero);
    * ``bodies[j] = (m, r0, r1, r2, xx, yy, zz, xy, yz, xz, lever, euler)``:
      the link's mass, centre of mass ``r`` and inertia about the centre of
      mass, in joint-frame axes; ``lever`` whether ``m r`` is not zero, and
      ``euler = (zz - yy, xx - zz, yy - xx)`` when that inertia is diagonal
      (else None);
    * ``origins[j] = (m, h0, h1, h2, xx, yy, zz, xy, yz, xz)``: the mass,
      first moment ``h = m r`` and inertia about the frame's origin, the form
      in which rigid bodies add up;
    * ``motors[j] = (jm, b, tcp, tcm)``: ``G^2 Jm``, ``G^2 B``, ``|G| Tc+``,
      ``|G| Tc-``, the motor's inertia and friction seen at the joint.

    ``end`` (4, 4) is the transform from the last joint frame to the last
    link frame (the tool is not included).  Unpacks as ``joints, bodies``.
    """

    unpack = ("joints", "bodies")

    joints: tuple
    bodies: tuple
    origins: tuple
    motors: tuple
    end: np.ndarray


def _cos_sin(angle):
    """cos and sin of a constant angle, with the zeros of multiples of pi/2 exact."""
    c, s = math.cos(angle), math.sin(angle)
    return (0.0 if abs(c) < 1e-15 else c), (0.0 if abs(s) < 1e-15 else s)


def link_table(robot: DynamicChain) -> LinkTable:
    """The robot's links in joint frames (see :class:`LinkTable` and the module docstring).

    Read afresh at every call (the links are data that may change, e.g. by
    :func:`~rvc.dynamics.payload.payload`); a robot without dynamic
    parameters is refused, as by :func:`~rvc.dynamics.params.dynparams`.

    >>> table = link_table(rvc.models.twolink())
    >>> table.bodies[1][:4]                  # link 2's mass and centre of mass in frame {2}
    (1.0, 0.5, 0.0, 0.0)
    """
    links = getattr(robot, "links", None)
    if not links:
        dynparams(robot)                               # refuses it, saying why
    mdh = bool(links[0].mdh)
    joints, bodies, origins, motors = [], [], [], []
    a, ca, sa = 0.0, 1.0, 0.0                          # Tx(a) Rx(alpha) before the first joint
    moving = False
    for L in links:
        m, G, rev, d = L.m, L.G, L.sigma == 0, L.d
        (r0, r1, r2), ((xx, xy, xz), (_, yy, yz), (_, _, zz)) = L.r.tolist(), L.I.tolist()
        moving = moving or m != 0.0 or xx != 0.0 or yy != 0.0 or zz != 0.0 or L.Jm != 0.0
        c, s = _cos_sin(L.alpha)
        if mdh:
            a, ca, sa = L.a, c, s
        else:
            # link j's own frame {j} is its joint frame moved by Tx(a_j) Rx(alpha_j):
            # carry r and I (Rx I Rx^T) into the joint frame
            r0, r1, r2 = r0 + L.a, c * r1 - s * r2, s * r1 + c * r2
            cc, ss, cs = c * c, s * s, c * s
            yy, zz, yz = (cc * yy - 2.0 * cs * yz + ss * zz, ss * yy + 2.0 * cs * yz + cc * zz,
                          cs * (yy - zz) + (cc - ss) * yz)
            xy, xz = c * xy - s * xz, s * xy + c * xz
        joints.append((rev, L.offset, L.theta, d, a, ca, sa, a != 0.0 or d != 0.0 or not rev))
        rr = r0 * r0 + r1 * r1 + r2 * r2
        bodies.append((m, r0, r1, r2, xx, yy, zz, xy, yz, xz, m != 0.0 and rr != 0.0,
                       (zz - yy, xx - zz, yy - xx) if xy == yz == xz == 0.0 else None))
        # about the frame's origin: Io = Ic + m (|r|^2 E - r r^T)
        origins.append((m, m * r0, m * r1, m * r2, xx + m * (rr - r0 * r0),
                        yy + m * (rr - r1 * r1), zz + m * (rr - r2 * r2), xy - m * r0 * r1,
                        yz - m * r1 * r2, xz - m * r0 * r2))
        tcp, tcm = L.Tc.tolist()
        motors.append((G * G * L.Jm, G * G * L.B, abs(G) * tcp, abs(G) * tcm))
        if not mdh:
            a, ca, sa = L.a, c, s                      # the constant part starts the next link
    if not moving:
        dynparams(robot)                               # refuses it, saying why
    if mdh:
        a, ca, sa = 0.0, 1.0, 0.0
    end = np.array([[1.0, 0.0, 0.0, a], [0.0, ca, -sa, 0.0], [0.0, sa, ca, 0.0],
                    [0.0, 0.0, 0.0, 1.0]])
    return LinkTable(tuple(joints), tuple(bodies), tuple(origins), tuple(motors), end)


def boundary_conditions(robot: Chain, table: LinkTable, gravity: Vector3, fext: Twist6 | None = None
                        ) -> tuple[tuple[float, ...], Twist6 | None]:
    """The recursion's ends: the base's acceleration and the end-effector wrench, in joint frames.

    Gravity is a fictitious upward acceleration of the base,
    :math:`a_0 = -R_{base}^T g` (3 floats, base axes).  ``fext`` (..., 6),
    the wrench (force, moment) the end effector exerts on its surroundings
    in the end-effector frame with the moment about the tool point, is
    carried into the last joint frame through :math:`E = ` ``table.end @ robot.tool``:
    :math:`f = R_E f_e`, :math:`n = R_E n_e + p_E \\times f`.  Returns
    ``(a0, wrench)``, ``wrench`` (..., 6) or None.  ``gravity`` (3,) is
    checked by the caller (:func:`~rvc.dynamics.params.getgravity`), ``fext`` here.

    >>> tl = rvc.models.twolink()
    >>> a0, w = boundary_conditions(tl, link_table(tl), np.array([0, 0, -9.8]), [0, 0, 1, 0, 0, 0])
    >>> (np.round(a0, 4) + 0).tolist(), w.round(4).tolist()   # the base is turned by Rx(pi/2)
    ([0.0, 9.8, 0.0], [0.0, 0.0, 1.0, 0.0, -1.0, 0.0])
    """
    a0 = tuple((-(gravity @ robot.base[:3, :3])).tolist())
    if fext is None:
        return a0, None
    W = getarray(fext, "fext", shape=(6,))
    E = table.end @ robot.tool
    f = W[..., :3] @ E[:3, :3].T
    return a0, np.concatenate([f, W[..., 3:] @ E[:3, :3].T + np.cross(E[:3, 3], f)], axis=-1)


def joint_transforms(table: LinkTable, q: Sequence[Any]) -> list:
    """Each joint frame's :math:`{}^{j-1}A_j` at ``q`` as ``(ct, st, ca, sa, p0, p1, p2)``.

    ``q`` is a sequence of n joint values, floats or rows of a batch
    (numpy arrays): :math:`R_j = R_x(\\alpha) R_z(\\theta_j)` by its cosines
    and sines and :math:`p_j = (a, -d_j \\sin\\alpha, d_j \\cos\\alpha)`.

    >>> X = joint_transforms(link_table(rvc.models.twolink()), [0.0, 0.5])
    >>> [round(x, 4) + 0 for x in X[1]]
    [0.8776, 0.4794, 1.0, 0.0, 1.0, 0.0, 0.0]
    """
    X = []
    for (rev, offset, theta, d, a, ca, sa, _), qj in zip(table.joints, q):
        if rev:
            theta = qj + offset
        else:
            d = qj + offset
        if isinstance(theta, np.ndarray):
            X.append((np.cos(theta), np.sin(theta), ca, sa, a, -sa * d, ca * d))
        else:
            X.append((math.cos(theta), math.sin(theta), ca, sa, a, -sa * d, ca * d))
    return X


def newton_euler(table: LinkTable, q: Sequence[Any], qd: Sequence[Any] | None, qdd: Sequence[Any] | None,
                 a0: Sequence[Any], wrench: Sequence[Any] | None = None) -> tuple[list, tuple]:
    r"""The recursive Newton-Euler algorithm in joint frames: joint forces and the base's wrench.

    ``q``, ``qd``, ``qdd`` are sequences of n joint values (floats or rows),
    ``a0`` the base frame's acceleration (3 values in base axes; :math:`-g`
    puts gravity in), ``wrench`` the wrench ``(f, n)`` (6 values) that link
    n exerts on its surroundings, in the last joint frame's axes, moment
    about its origin (None: none).  Outwards from the base
    (:math:`\hat z = (0, 0, 1)`, :math:`R, p` of :math:`{}^{j-1}A_j`):

    .. math::

        \omega_j &= R^T\omega_{j-1} + \dot q_j \hat z, \qquad
        \dot\omega_j = R^T\dot\omega_{j-1} + (R^T\omega_{j-1}) \times \dot q_j \hat z + \ddot q_j \hat z, \\
        a_j &= R^T\big(a_{j-1} + \dot\omega_{j-1}\times p + \omega_{j-1}\times(\omega_{j-1}\times p)\big)

    for a revolute joint; a prismatic one leaves :math:`\omega, \dot\omega`
    turned only, and adds :math:`2\omega_j\times\dot q_j\hat z + \ddot q_j\hat z` to
    :math:`a_j`.  Link j needs the force and moment
    :math:`F_j = m_j(a_j + \dot\omega_j\times r_j + \omega_j\times(\omega_j\times r_j))`,
    :math:`N_j = I_j\dot\omega_j + \omega_j\times I_j\omega_j` (about its centre
    of mass :math:`r_j`; Euler's equations when :math:`I_j` is diagonal).
    Inwards from the tool, with :math:`(f_{n+1}, n_{n+1})` the end-effector wrench,

    .. math::

        f_j = R_{j+1} f_{j+1} + F_j, \qquad
        n_j = N_j + R_{j+1} n_{j+1} + r_j\times F_j + p_{j+1}\times R_{j+1} f_{j+1},

    and the joint force is :math:`Q_j = n_j\cdot\hat z` (revolute) or
    :math:`f_j\cdot\hat z` (prismatic), plus :math:`G_j^2 J_{m,j}\ddot q_j` and
    the friction :math:`G_j^2 B_j \dot q_j + |G_j| T_{c,j}^\pm` that the motor
    overcomes.  Terms whose constants are zero are skipped: a frame at the
    previous one's origin, a massless link, a link whose centre of mass is
    at its frame's origin, and the turn about x for :math:`\alpha = 0`
    (for :math:`\alpha = \pm 90°` it is a swap of y and z).  Returns ``(Q, (f, n))``:
    the n joint forces (a list) and the wrench the base exerts on link 1, in
    base axes, moment about the base frame's origin (6 values).

    >>> tl = rvc.models.twolink()
    >>> tau, wb = newton_euler(link_table(tl), [0.0, 0.0], [0.0, 0.0], [1.0, 0.0], (0.0, 0.0, 0.0))
    >>> [round(x, 4) for x in tau]                   # the first column of M(0)
    [2.5, 0.75]
    """
    X = joint_transforms(table, q)
    # outwards: each link's angular velocity w, angular acceleration wd and the linear
    # acceleration v of its frame's origin, then the force F and moment N it needs
    w0 = w1 = w2 = wd0 = wd1 = wd2 = 0.0
    v0, v1, v2 = a0
    FN = []
    for (rev, _, _, _, _, _, _, shifts), (m, r0, r1, r2, xx, yy, zz, xy, yz, xz, lever, euler), \
            (ct, st, ca, sa, p0, p1, p2), qdj, qddj in zip(table.joints, table.bodies, X, qd, qdd):
        if shifts:
            # frame j's origin is p away from frame j-1's: v + wd x p + w x (w x p)
            c0, c1, c2 = w1 * p2 - w2 * p1, w2 * p0 - w0 * p2, w0 * p1 - w1 * p0
            v0, v1, v2 = (v0 + wd1 * p2 - wd2 * p1 + w1 * c2 - w2 * c1,
                          v1 + wd2 * p0 - wd0 * p2 + w2 * c0 - w0 * c2,
                          v2 + wd0 * p1 - wd1 * p0 + w0 * c1 - w1 * c0)
        # into frame j's axes: R^T = Rz(-theta) Rx(-alpha), where the turn about x is
        # nothing for alpha = 0 and a swap of y and z for alpha = +-90 degrees (most arms)
        if not ca:
            w1, w2, wd1, wd2, v1, v2 = sa * w2, -sa * w1, sa * wd2, -sa * wd1, sa * v2, -sa * v1
        elif sa:
            w1, w2 = ca * w1 + sa * w2, ca * w2 - sa * w1
            wd1, wd2 = ca * wd1 + sa * wd2, ca * wd2 - sa * wd1
            v1, v2 = ca * v1 + sa * v2, ca * v2 - sa * v1
        w0, w1 = ct * w0 + st * w1, ct * w1 - st * w0
        wd0, wd1 = ct * wd0 + st * wd1, ct * wd1 - st * wd0
        v0, v1 = ct * v0 + st * v1, ct * v1 - st * v0
        # the joint's own motion
        if rev:
            wd0, wd1, wd2 = wd0 + w1 * qdj, wd1 - w0 * qdj, wd2 + qddj
            w2 = w2 + qdj
        else:
            v0, v1, v2 = v0 + 2.0 * w1 * qdj, v1 - 2.0 * w0 * qdj, v2 + qddj
        # F = m (v + wd x r + w x (w x r)), the acceleration of the centre of mass
        if lever:
            c0, c1, c2 = w1 * r2 - w2 * r1, w2 * r0 - w0 * r2, w0 * r1 - w1 * r0
            F = (m * (v0 + wd1 * r2 - wd2 * r1 + w1 * c2 - w2 * c1),
                 m * (v1 + wd2 * r0 - wd0 * r2 + w2 * c0 - w0 * c2),
                 m * (v2 + wd0 * r1 - wd1 * r0 + w0 * c1 - w1 * c0))
        elif m:
            F = (m * v0, m * v1, m * v2)
        else:
            F = None
        # N = I wd + w x (I w)
        if euler:
            N = (xx * wd0 + euler[0] * w1 * w2, yy * wd1 + euler[1] * w2 * w0,
                 zz * wd2 + euler[2] * w0 * w1)
        else:
            i0, i1, i2 = xx * w0 + xy * w1 + xz * w2, xy * w0 + yy * w1 + yz * w2, \
                xz * w0 + yz * w1 + zz * w2
            N = (xx * wd0 + xy * wd1 + xz * wd2 + w1 * i2 - w2 * i1,
                 xy * wd0 + yy * wd1 + yz * wd2 + w2 * i0 - w0 * i2,
                 xz * wd0 + yz * wd1 + zz * wd2 + w0 * i1 - w1 * i0)
        FN.append((F, N))

    # inwards: the wrench (f, n) each joint transmits to its link, in the link's joint
    # frame, moment about the frame's origin
    f0, f1, f2, n0, n1, n2 = (0.0,) * 6 if wrench is None else wrench
    x = (1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0)                             # the wrench is in frame n
    shifts = False
    n = len(X)
    tau = [0.0] * n
    for j in range(n - 1, -1, -1):
        f0, f1, f2, n0, n1, n2 = _wrench_back(x, shifts, f0, f1, f2, n0, n1, n2)
        rev, _, _, _, _, _, _, shifts = table.joints[j]
        _, r0, r1, r2, _, _, _, _, _, _, lever, _ = table.bodies[j]
        jm, b, tcp, tcm = table.motors[j]
        F, (N0, N1, N2) = FN[j]
        n0, n1, n2 = n0 + N0, n1 + N1, n2 + N2
        if F is not None:
            F0, F1, F2 = F
            f0, f1, f2 = f0 + F0, f1 + F1, f2 + F2
            if lever:
                n0, n1, n2 = n0 + r1 * F2 - r2 * F1, n1 + r2 * F0 - r0 * F2, n2 + r0 * F1 - r1 * F0
        t = (n2 if rev else f2) + jm * qdd[j] + b * qd[j]
        tau[j] = t + _coulomb(qd[j], tcp, tcm) if tcp or tcm else t
        x = X[j]
    # the base's wrench on link 1, in base axes, moment about the base frame's origin
    ct, st, ca, sa, p0, p1, p2 = x
    e1 = st * f0 + ct * f1
    f0, f1, f2 = ct * f0 - st * f1, ca * e1 - sa * f2, sa * e1 + ca * f2
    e1 = st * n0 + ct * n1
    n0, n1, n2 = ct * n0 - st * n1, ca * e1 - sa * n2, sa * e1 + ca * n2
    base = (f0, f1, f2, n0 + p1 * f2 - p2 * f1, n1 + p2 * f0 - p0 * f2, n2 + p0 * f1 - p1 * f0)
    return tau, base


def _wrench_back(x, shifts, f0, f1, f2, n0, n1, n2):
    """A wrench (f, n) in joint frame {j} expressed in frame {j-1}: R f and R n with
    R = Rx(alpha) Rz(theta) of ``x = X[j]``, and the moment moved by the lever p x R f
    (only when frame {j}'s origin can differ, ``shifts``).  Floats or rows alike."""
    ct, st, ca, sa, p0, p1, p2 = x
    f0, f1 = ct * f0 - st * f1, st * f0 + ct * f1
    n0, n1 = ct * n0 - st * n1, st * n0 + ct * n1
    if not ca:
        f1, f2, n1, n2 = -sa * f2, sa * f1, -sa * n2, sa * n1
    elif sa:
        f1, f2, n1, n2 = ca * f1 - sa * f2, sa * f1 + ca * f2, ca * n1 - sa * n2, sa * n1 + ca * n2
    if shifts:
        n0, n1, n2 = n0 + p1 * f2 - p2 * f1, n1 + p2 * f0 - p0 * f2, n2 + p0 * f1 - p1 * f0
    return f0, f1, f2, n0, n1, n2


def _coulomb(qd, plus, minus):
    """Coulomb friction the motor overcomes: ``plus`` for qd > 0, ``minus`` for qd < 0, else 0."""
    if isinstance(qd, np.ndarray):
        return np.where(qd > 0, plus, np.where(qd < 0, minus, 0.0))
    return plus if qd > 0 else minus if qd < 0 else 0.0


def composite_inertia(table: LinkTable, q: Sequence[Any]) -> list:
    r"""The joint-space inertia matrix by the composite-rigid-body algorithm, as nested lists.

    The links beyond joint j move as one rigid body when only joints up to
    j accelerate.  Inwards from the tool, its mass :math:`m`, first moment
    :math:`h = m c` and inertia :math:`\bar I` about joint frame j's origin add
    link j to the composite body of frame j+1 carried into frame j
    (:math:`R, p` of :math:`{}^{j}A_{j+1}`, :math:`u = R h`):

    .. math:: h \leftarrow h_j + u + m p, \qquad
              \bar I \leftarrow \bar I_j + R\bar I R^T + 2(u\cdot p)E - p u^T - u p^T
              + m\left((p\cdot p)E - p p^T\right).

    A unit acceleration of joint j needs the wrench :math:`(\hat z\times h,\ \bar I\hat z)`
    (revolute) or :math:`(m\hat z,\ h\times\hat z)` (prismatic); carried
    inwards (:math:`f \leftarrow R f`, :math:`n \leftarrow R n + p\times R f`) its
    :math:`\hat z` component at joint i is :math:`M_{ij}`.  The motor inertias
    :math:`G_j^2 J_{m,j}` add to the diagonal.  ``q`` as in :func:`joint_transforms`.

    >>> M = composite_inertia(link_table(rvc.models.twolink()), [0.0, 0.0])
    >>> [[round(x, 4) for x in row] for row in M]
    [[2.5, 0.75], [0.75, 0.25]]
    """
    X = joint_transforms(table, q)
    n = len(X)
    revolute = [J[0] for J in table.joints]
    shifts = [J[7] for J in table.joints]
    M = [[0.0] * n for _ in range(n)]
    m = h0 = h1 = h2 = xx = yy = zz = xy = yz = xz = 0.0
    for j in range(n - 1, -1, -1):
        if j < n - 1:
            # carry the composite body of frame j+1 into frame j: R I R^T and R h, turning
            # about z, then about x (nothing for alpha = 0, a swap of y and z for +-90 degrees)
            ct, st, ca, sa, p0, p1, p2 = X[j + 1]
            cc, ss, cs = ct * ct, st * st, ct * st
            xx, yy, xy = (cc * xx - 2.0 * cs * xy + ss * yy, ss * xx + 2.0 * cs * xy + cc * yy,
                          cs * (xx - yy) + (cc - ss) * xy)
            xz, yz = ct * xz - st * yz, st * xz + ct * yz
            h0, h1 = ct * h0 - st * h1, st * h0 + ct * h1
            if not ca:
                yy, zz, yz, xy, xz = zz, yy, -yz, -sa * xz, sa * xy
                h1, h2 = -sa * h2, sa * h1
            elif sa:
                cc, ss, cs = ca * ca, sa * sa, ca * sa
                yy, zz, yz = (cc * yy - 2.0 * cs * yz + ss * zz, ss * yy + 2.0 * cs * yz + cc * zz,
                              cs * (yy - zz) + (cc - ss) * yz)
                xy, xz = ca * xy - sa * xz, sa * xy + ca * xz
                h1, h2 = ca * h1 - sa * h2, sa * h1 + ca * h2
            if shifts[j + 1]:
                # the parallel-axis terms of the move by p
                up2 = 2.0 * (h0 * p0 + h1 * p1 + h2 * p2)
                pp = p0 * p0 + p1 * p1 + p2 * p2
                xx = xx + up2 - 2.0 * p0 * h0 + m * (pp - p0 * p0)
                yy = yy + up2 - 2.0 * p1 * h1 + m * (pp - p1 * p1)
                zz = zz + up2 - 2.0 * p2 * h2 + m * (pp - p2 * p2)
                xy = xy - p0 * h1 - h0 * p1 - m * p0 * p1
                yz = yz - p1 * h2 - h1 * p2 - m * p1 * p2
                xz = xz - p0 * h2 - h0 * p2 - m * p0 * p2
                h0, h1, h2 = h0 + m * p0, h1 + m * p1, h2 + m * p2
        mj, g0, g1, g2, ixx, iyy, izz, ixy, iyz, ixz = table.origins[j]
        m, h0, h1, h2 = m + mj, h0 + g0, h1 + g1, h2 + g2
        xx, yy, zz, xy, yz, xz = xx + ixx, yy + iyy, zz + izz, xy + ixy, yz + iyz, xz + ixz
        # the wrench that a unit acceleration of joint j needs, carried inwards
        if revolute[j]:
            f0, f1, f2, n0, n1, n2 = -h1, h0, 0.0, xz, yz, zz
        else:
            f0, f1, f2, n0, n1, n2 = 0.0, 0.0, m, h1, -h0, 0.0
        M[j][j] = (n2 if revolute[j] else f2) + table.motors[j][0]
        for i in range(j - 1, -1, -1):
            f0, f1, f2, n0, n1, n2 = _wrench_back(X[i + 1], shifts[i + 1], f0, f1, f2, n0, n1, n2)
            M[i][j] = M[j][i] = n2 if revolute[i] else f2
    return M


def forward_dynamics(table: LinkTable, q: Sequence[float], qd: Sequence[float], tau: Sequence[float],
                     a0: Sequence[float], wrench: Sequence[float] | None = None) -> JointVector:
    r"""Joint accelerations of one state, in floats: solve :math:`M(q)\ddot q = Q - h(q, \dot q)`.

    :math:`h` is :func:`newton_euler` with :math:`\ddot q = 0` (velocity,
    friction, gravity and end-effector terms), :math:`M` is
    :func:`composite_inertia`; ``q``, ``qd``, ``tau`` are sequences of n
    floats, ``a0`` and ``wrench`` as in :func:`newton_euler`.  No checks:
    the form a simulation calls at every step (:func:`~rvc.dynamics.fdyn.accel`
    checks its arguments, then calls this).  Returns an (n,) array; a
    singular :math:`M` raises ``numpy.linalg.LinAlgError``.

    >>> tl = rvc.models.twolink()
    >>> qdd = forward_dynamics(link_table(tl), [0.0, 0.0], [0.0, 0.0], [2.5, 0.75], (0.0, 0.0, 0.0))
    >>> qdd.round(9) + 0
    array([1., 0.])
    """
    h, _ = newton_euler(table, q, qd, [0.0] * len(q), a0, wrench)
    return np.linalg.solve(composite_inertia(table, q), [t - x for t, x in zip(tau, h)])


def batch_rows(arrays: Sequence[np.ndarray | None], run: Callable[..., Sequence[Any]], out_shape: tuple[int, ...]
               ) -> np.ndarray:
    """Run ``run(*columns)`` over the configurations of a batch: floats or rows, in blocks.

    ``arrays`` are the inputs, each an array (..., k) whose leading
    dimensions broadcast, or None (passed on as None).  ``run`` takes one
    list per input (k floats for one configuration, k rows for a block of
    the batch; an input without leading dimensions always comes as floats)
    and returns a flat sequence of results, each a float or a row.
    ``out_shape`` is the shape of one configuration's results.  Returns the
    results as an array ``batch + out_shape``.  Up to :data:`SMALL`
    configurations are run one at a time in floats (numpy's fixed cost per
    call would dominate), more as rows in blocks of :data:`BLOCK`.

    >>> batch_rows([np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([10.0, 20.0])],
    ...            lambda x, y: [x[0] + y[0], x[1] * y[1]], (2,))
    array([[11., 40.],
           [13., 80.]])
    """
    if all(a is None or a.ndim == 1 for a in arrays):            # one configuration
        return np.array(run(*(None if a is None else a.tolist() for a in arrays)),
                        dtype=float).reshape(out_shape)
    batch = np.broadcast_shapes(*(a.shape[:-1] for a in arrays if a is not None))
    N = math.prod(batch)
    # inputs with leading dimensions as (N, k); the others as floats, once
    flat = [None if a is None else
            (np.broadcast_to(a, batch + a.shape[-1:]).reshape(N, a.shape[-1]) if a.ndim > 1
             else a.tolist()) for a in arrays]
    if N <= SMALL:
        return np.array([run(*(a[k].tolist() if isinstance(a, np.ndarray) else a for a in flat))
                         for k in range(N)], dtype=float).reshape(batch + out_shape)
    out = np.empty((math.prod(out_shape), N))
    for start in range(0, N, BLOCK):
        stop = min(N, start + BLOCK)
        cols = [list(np.ascontiguousarray(a[start:stop].T)) if isinstance(a, np.ndarray) else a
                for a in flat]
        for k, value in enumerate(run(*cols)):
            out[k, start:stop] = value
    return out.T.reshape(batch + out_shape)
