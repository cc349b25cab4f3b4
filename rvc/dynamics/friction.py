"""Joint friction (Chapters 9.1.2 and 9.2.4).

The toolbox's model lives on the motor side of each gearbox: viscous
friction ``B`` times the motor speed plus Coulomb friction ``Tc+`` or
``Tc-``.  Referred to the joint (the motor speed is ``G qd``, the torque is
multiplied by ``|G|``) the friction torque *acting on* joint j is

.. math::

    \\tau_{f,j} = -\\left( G_j^2 B_j \\dot q_j + |G_j| \\begin{cases}
        T_{c,j}^{+} & \\dot q_j > 0 \\\\ 0 & \\dot q_j = 0 \\\\ T_{c,j}^{-} & \\dot q_j < 0
    \\end{cases} \\right)

negative for a positive speed (it opposes the motion), as the toolboxes'
``friction``.  The rigid-body equation of the notes,
:math:`Q = M\\ddot q + C\\dot q + F(\\dot q) + G(q)`, has
:math:`F(\\dot q) = -\\tau_f`: the torque the motors must add to overcome it.
The branch follows the sign of the *joint* speed, and stiction is not
modelled, both as in the toolboxes.

>>> p560 = rvc.models.puma560()
>>> friction(p560, [1, 0, 0, 0, 0, 0]).round(4).tolist()
[-30.5332, -0.0, -0.0, -0.0, -0.0, -0.0]
"""

from __future__ import annotations

import copy

import numpy as np

from ..checks import getq
from ..shapes import JointVector
from .params import DynamicChain, DynParams, dynparams

__all__ = ["friction", "friction_torque", "nofriction"]


def friction(robot: DynamicChain, qd: JointVector) -> JointVector:
    """Friction torque on each joint at joint speed ``qd``, (..., n), batched.

    ``-(G^2 B qd + |G| Tc±)`` (see the module docstring): it opposes the
    motion.  Zero at ``qd = 0``.

    >>> p560 = rvc.models.puma560()
    >>> float(friction(p560, [0, -1, 0, 0, 0, 0])[1].round(4))      # positive: opposes qd < 0
    17.1517
    """
    P = dynparams(robot)
    return friction_torque(P, getq(qd, len(P.m), name="qd"))


def friction_torque(params: DynParams, qd: JointVector) -> JointVector:
    """The friction torque of :func:`friction` from a :class:`~rvc.dynamics.params.DynParams`.

    ``qd`` (..., n) is used as given (no checks): the form the dynamics
    algorithms call once they have the parameters.

    >>> P = dynparams(rvc.models.puma560())
    >>> friction_torque(P, np.ones(6)).round(4).tolist()
    [-30.5332, -23.0816, -11.0697, -1.2633, -1.0933, -0.5195]
    """
    coulomb = np.where(qd > 0, params.Tc[:, 0], np.where(qd < 0, params.Tc[:, 1], 0.0))
    return -(params.G**2 * params.B * qd + np.abs(params.G) * coulomb)


def nofriction(robot: DynamicChain, coulomb: bool = True, viscous: bool = False) -> DynamicChain:
    """A copy of ``robot`` without Coulomb (and, if ``viscous``, viscous) friction.

    As MATLAB's ``p560.nofriction()`` (Coulomb only, the default) and
    ``p560.nofriction('all')`` (``viscous=True`` too).  The original robot is
    unchanged; the copy's name gets the prefix ``NF/``.  Removing Coulomb
    friction, a discontinuous function of speed, makes simulation easier.

    >>> p560 = rvc.models.puma560()
    >>> nf = nofriction(p560, viscous=True)
    >>> nf.name, float(np.abs(friction(nf, np.ones(6))).max()), float(p560.links[0].B)
    ('NF/Puma 560', 0.0, 0.00148)
    """
    dynparams(robot)                     # a robot without dynamics has no friction to remove
    nf = copy.deepcopy(robot)
    for link in nf.links:
        if coulomb:
            link.Tc = (0.0, 0.0)
        if viscous:
            link.B = 0.0
    nf.name = f"NF/{robot.name}"
    return nf
