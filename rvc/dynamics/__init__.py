"""Chapter 9, dynamics and control: from joint torques to motion and back.

Algorithms are functions of (robot, q, ...) on a
:class:`~rvc.dynamics.params.DynamicChain`: they read the links' dynamic
parameters (``m r I Jm B Tc G``, the protocol
:class:`~rvc.dynamics.params.DynamicLink`) as data through ``robot.links``
and the kinematics through the chain interface
(:class:`~rvc.kinematics.chain.Chain`: ``fkine``, ``fkine_all``,
``joint_frames``); they never import the robot classes.  The robot methods
(``p560.rne(q)``, ``p560.inertia(q)`` ... as the notes write them) call them.

Modules, in the order they build on each other:

* :mod:`.params` -- the protocols ``DynamicLink DynamicChain``, the links' dynamic parameters as
  arrays, gravity
* :mod:`.friction` -- ``friction nofriction``
* :mod:`.payload` -- ``payload`` (a point mass added to the last link)
* :mod:`.recursion` -- the Newton-Euler and composite-rigid-body recursions in link frames
* :mod:`.rne` -- the recursive Newton-Euler algorithm ``rne``, spatial vectors
* :mod:`.matrices` -- the terms M, C, G of the equation of motion: ``inertia gravload
  coriolis itorque energy``
* :mod:`.fdyn` -- forward dynamics ``accel fdyn``
* :mod:`.cartesian` -- ``inertia_x asada accel_ellipsoid`` (``jacob_dot`` is in :mod:`rvc.kinematics.jacobian`)
* :mod:`.symbolic` -- M, C, g with sympy by Lagrange's equations (``twolink_sym``)
* :mod:`.actuator` -- motors, ``jointdynamics``, velocity and position loops, the series-elastic actuator
* :mod:`.control` -- feedforward, computed-torque and operational-space control, simulated
"""

from .params import *  # noqa: F401,F403
from .params import __all__ as _params
from .friction import *  # noqa: F401,F403
from .friction import __all__ as _friction
from .payload import *  # noqa: F401,F403
from .payload import __all__ as _payload
from .recursion import *  # noqa: F401,F403
from .recursion import __all__ as _recursion
from .rne import *  # noqa: F401,F403
from .rne import __all__ as _rne
from .matrices import *  # noqa: F401,F403
from .matrices import __all__ as _matrices
from .fdyn import *  # noqa: F401,F403
from .fdyn import __all__ as _fdyn
from .cartesian import *  # noqa: F401,F403
from .cartesian import __all__ as _cartesian
from .symbolic import *  # noqa: F401,F403
from .symbolic import __all__ as _symbolic
from .actuator import *  # noqa: F401,F403
from .actuator import __all__ as _actuator
from .control import *  # noqa: F401,F403
from .control import __all__ as _control

__all__ = [*_params, *_friction, *_payload, *_recursion, *_rne, *_matrices, *_fdyn, *_cartesian,
           *_symbolic, *_actuator, *_control]
