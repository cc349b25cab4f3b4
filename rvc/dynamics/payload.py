"""A payload at the end effector (Chapter 9.2.5).

A point mass :math:`m_p` at :math:`p` (in the last link's frame) merges
with the last link's mass :math:`m`, centre of mass :math:`r` and inertia
:math:`I` (about :math:`r`) into one rigid body:

.. math::

    m' = m + m_p, \\qquad r' = \\frac{m r + m_p p}{m'}, \\qquad
    I' = I + m\\,\\big(|d|^2 E - d d^T\\big) + m_p\\,\\big(|e|^2 E - e e^T\\big)

with :math:`d = r - r'`, :math:`e = p - r'` (the parallel-axis theorem; a
point mass has no inertia about itself).

>>> m, r, I = add_point_mass(1.0, [0, 0, 0], np.zeros((3, 3)), 1.0, [0, 0, 2])
>>> m, r, np.diag(I)
(2.0, array([0., 0., 1.]), array([2., 2., 0.]))
"""

from __future__ import annotations

import numpy as np

from ..checks import getinertia, getscalar, getvector
from ..shapes import ArrayLike, Inertia, Vector3
from .params import DynamicChain, dynparams

__all__ = ["add_point_mass", "payload"]


def add_point_mass(m: float, r: Vector3, I: Inertia, mp: float, p: Vector3) -> tuple[float, Vector3, Inertia]:
    """Mass, centre of mass and inertia of a body with a point mass ``mp`` added at ``p``.

    Returns ``(m', r', I')`` of the module docstring; ``mp = 0`` returns the
    body unchanged.  ``mp`` must be >= 0 and ``m + mp`` > 0.

    >>> add_point_mass(0.0, [0, 0, 0], np.zeros((3, 3)), -1.0, [0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: m: expected a payload mass >= 0, got -1
    """
    m = getscalar(m, "m (link)")
    r = getvector(r, "r", 3)
    I = getinertia(I, "I", triangle=False)
    mp = getscalar(mp, "m")
    if mp < 0:
        raise ValueError(f"m: expected a payload mass >= 0, got {mp:g}")
    p = getvector(p, "p", 3)
    if mp == 0:
        return m, r.copy(), I.copy()
    mc = m + mp
    rc = (m * r + mp * p) / mc
    E = np.eye(3)
    d, e = r - rc, p - rc
    Ic = I + m * (d @ d * E - np.outer(d, d)) + mp * (e @ e * E - np.outer(e, e))
    return mc, rc, Ic


def payload(robot: DynamicChain, m: float, p: Vector3 | ArrayLike = (0.0, 0.0, 0.0)) -> None:
    """Add a payload: a point mass ``m`` (kg) at ``p`` in the end-effector frame, in place.

    As the notes' ``p560.payload(2.5, [0 0 0.1])``.  ``p`` (metres) is in
    the end-effector frame, tool included; it is carried into the last
    link's frame {n} through ``robot.tool``, and the point mass is *added*
    to the last link (:func:`add_point_mass`): its mass, centre of mass and
    inertia all change.  The last link's own parameters are kept on the link
    (as ``link.unloaded``), so a second call *replaces* the first payload and
    ``payload(robot, 0)`` removes it.  (Change the link's ``m``, ``r``, ``I``
    by hand only without a payload.)

    How the toolboxes differ: MATLAB's ``SerialLink.payload`` *overwrites*
    the last link's mass and centre of mass with ``m`` and ``p`` (the
    link's own mass is lost, its inertia kept), which is what the notes ran;
    roboticstoolbox-python 1.5 combines the point mass with the link as rvc
    does, with ``p`` in the last link's frame (it ignores the tool).

    >>> p560 = rvc.models.puma560()
    >>> payload(p560, 2.5, [0, 0, 0.1])
    >>> float(p560.links[-1].m), p560.links[-1].r.round(4)
    (2.59, array([0.    , 0.    , 0.0977]))
    >>> payload(p560, 0); float(p560.links[-1].m)
    0.09
    >>> payload(p560, -1)
    Traceback (most recent call last):
    ...
    ValueError: m: expected a payload mass >= 0, got -1
    """
    dynparams(robot)
    mp = getscalar(m, "m")
    if mp < 0:
        raise ValueError(f"m: expected a payload mass >= 0, got {mp:g}")
    p = getvector(p, "p", 3)
    tool = np.asarray(robot.tool, dtype=float)
    p_link = tool[:3, :3] @ p + tool[:3, 3]
    last = robot.links[-1]
    own = getattr(last, "unloaded", None)
    if own is None:
        own = (float(last.m), last.r.copy(), last.I.copy())
    mc, rc, Ic = add_point_mass(*own, mp, p_link)
    last.m, last.r, last.I = mc, rc, Ic
    last.unloaded = own if mp > 0 else None
