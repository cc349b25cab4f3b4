"""Chapters 7 and 8, arm kinematics: forward kinematics, Jacobians, inverse kinematics.

Algorithms are functions of (model, q, ...).  They never import the robot
classes of :mod:`rvc.models`; they read a model through the *chain
interface*, the protocol :class:`~rvc.kinematics.chain.Chain` (``n``,
``revolute``, ``qlim``, ``base``, ``tool``, ``dim``, ``fkine(q)``,
``fkine_all(q)``, ``joint_frames(q)``; each member's shapes and frames are
documented there).  Every model of the library satisfies it
(``tests/kinematics/test_chain_interface.py`` checks each member of each).

Modules, in the order they build on each other:

* :mod:`.chain` -- the :class:`Chain` protocol, and a chain's poses in 3-D: ``lift_planar
  planar_pose pose3d goal_pose axes_point``
* :mod:`.dh` -- DH and modified-DH chains: ``dh_transform fkine_dh fkine_all``
* :mod:`.ets_fkine` -- forward kinematics of elementary transform sequences: ``fkine_ets``
* :mod:`.poe` -- product of exponentials: ``joint_twists fkine_poe``
* :mod:`.analytical` -- analytical Jacobians: ``exp2jac jacob_analytical`` (8.1.3)
* :mod:`.jacobian` -- ``jacob0 jacob0_pose jacobe manipulability jacob_dot``
* :mod:`.ellipsoid` -- ellipsoids of linear maps (velocity, force, dynamics)
* :mod:`.poejac` -- the Jacobian from joint twists: ``jacobs_poe jacob0_poe`` (8.7.1)
* :mod:`.ikine` -- numerical IK: the search loop ``ik_search`` with the step rule
  ``LMStep``, ``ikine``, and the references ``ikine_lm_reference cholesky_solve_reference``
* :mod:`.ikine6s` -- closed-form IK of a 6-axis arm with a spherical wrist: ``ikine6s``
* :mod:`.ikine2link` -- the two-link planar arm: ``ikine_2link_sympy ikine_2link ikine_2link_numeric``
* :mod:`.rates` -- manipulator velocity and force: ``jsingu resolve_rates nullproj
  vellipse fellipse wrench2tau pose_error`` (8.2-8.5)
* :mod:`.rrmc` -- resolved-rate motion control: ``rrmc rrmc2`` (8.3)
* :mod:`.jtranspose` -- inverse kinematics by the Jacobian transpose (8.6.1): the step rule
  ``TransposeStep`` in ``ik_search``
"""

from .chain import *  # noqa: F401,F403
from .chain import __all__ as _chain
from .dh import *  # noqa: F401,F403
from .dh import __all__ as _dh
from .ets_fkine import *  # noqa: F401,F403
from .ets_fkine import __all__ as _ets_fkine
from .poe import *  # noqa: F401,F403
from .poe import __all__ as _poe
from .analytical import *  # noqa: F401,F403
from .analytical import __all__ as _analytical
from .jacobian import *  # noqa: F401,F403
from .jacobian import __all__ as _jacobian
from .ellipsoid import *  # noqa: F401,F403
from .ellipsoid import __all__ as _ellipsoid
from .poejac import *  # noqa: F401,F403
from .poejac import __all__ as _poejac
from .ikine import *  # noqa: F401,F403
from .ikine import __all__ as _ikine
from .ikine6s import *  # noqa: F401,F403
from .ikine6s import __all__ as _ikine6s
from .ikine2link import *  # noqa: F401,F403
from .ikine2link import __all__ as _ikine2link
from .rates import *  # noqa: F401,F403
from .rates import __all__ as _rates
from .rrmc import *  # noqa: F401,F403
from .rrmc import __all__ as _rrmc
from .jtranspose import *  # noqa: F401,F403
from .jtranspose import __all__ as _jtranspose

__all__ = [*_chain, *_dh, *_ets_fkine, *_poe, *_analytical, *_jacobian, *_ellipsoid, *_poejac, *_ikine,
           *_ikine6s, *_ikine2link, *_rates, *_rrmc, *_jtranspose]
