"""Chapters 7 and 8, arm kinematics: forward kinematics, Jacobians, inverse kinematics.

Algorithms are functions of (model, q, ...).  They never import the robot
classes of :mod:`rvc.models`; they use the small *chain interface* every
model provides:

==================  ==========================================================
``n``               number of joints
``revolute``        (n,) booleans, true for revolute joints (``structure``: "RRP")
``qlim``            (2, n) joint limits, row 0 lower, row 1 upper
``base``, ``tool``  (4, 4) poses
``dim``             3, or 2 for a planar chain drawn in 2-D
``fkine(q)``        end pose, batched over leading dimensions of q
``fkine_all(q)``    frames whose origins outline the arm (for drawing)
``joint_frames(q)`` ``(F, T)``: the frame of each joint axis (joint j turns
                    about, or slides along, the z axis of ``F[..., j]``) and
                    the end pose, in 3-D
==================  ==========================================================

Modules, in the order they build on each other:

* :mod:`.dh` -- DH and modified-DH chains: ``dh_transform fkine_dh fkine_all``
* :mod:`.ets` -- elementary transform sequences: ``fkine_ets``
* :mod:`.poe` -- product of exponentials: ``joint_twists fkine_poe``
* :mod:`.analytical` -- analytical Jacobians: ``exp2jac jacob_analytical`` (8.1.3)
* :mod:`.jacobian` -- ``jacob0 jacob0_pose jacobe manipulability``
* :mod:`.ellipsoid` -- ellipsoids of linear maps (velocity, force, dynamics)
* :mod:`.poejac` -- the Jacobian from joint twists: ``jacobs_poe jacob0_poe`` (8.7.1)
* :mod:`.ikine` -- numerical IK: the search loop ``ik_search`` with the step rule
  ``LMStep``, ``ikine``, and the references ``ikine_lm_reference cholesky_solve_reference``
* :mod:`.ikine6s` -- closed-form IK of a 6-axis arm with a spherical wrist: ``ikine6s``
* :mod:`.ikine2link` -- the two-link planar arm: ``ikine_2link_sympy ikine_2link ikine_2link_numeric``
* :mod:`.velocity` -- manipulator velocity and force: ``jsingu resolve_rates nullproj
  vellipse fellipse wrench2tau pose_error`` (8.2-8.5)
* :mod:`.rrmc` -- resolved-rate motion control: ``rrmc rrmc2`` (8.3)
* :mod:`.jtranspose` -- inverse kinematics by the Jacobian transpose (8.6.1): the step rule
  ``TransposeStep`` in ``ik_search``
"""

from .dh import *  # noqa: F401,F403
from .ets import *  # noqa: F401,F403
from .poe import *  # noqa: F401,F403
from .analytical import *  # noqa: F401,F403
from .jacobian import *  # noqa: F401,F403
from .ellipsoid import *  # noqa: F401,F403
from .poejac import *  # noqa: F401,F403
from .ikine import *  # noqa: F401,F403
from .ikine6s import *  # noqa: F401,F403
from .ikine2link import *  # noqa: F401,F403
from .velocity import *  # noqa: F401,F403
from .rrmc import *  # noqa: F401,F403
from .jtranspose import *  # noqa: F401,F403
