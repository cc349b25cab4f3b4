"""Chapter 9, dynamics and control: from joint torques to motion and back.

Algorithms are functions of (robot, q, ...) that read the links' dynamic
parameters (``m r I Jm B Tc G``) as data through ``robot.links`` and the
kinematics through the chain interface (``fkine``, ``fkine_all``,
``joint_frames``); they never import the robot classes.  The robot methods
(``p560.rne(q)``, ``p560.inertia(q)`` ... as the notes write them) call them.

Modules, in the order they build on each other:

* :mod:`.params` -- the links' dynamic parameters as arrays, gravity
* :mod:`.friction` -- ``friction nofriction``
* :mod:`.payload` -- ``payload`` (a point mass added to the last link)
* :mod:`.recursion` -- the Newton-Euler and composite-rigid-body recursions in link frames
* :mod:`.rne` -- the recursive Newton-Euler algorithm ``rne``, spatial vectors
* :mod:`.lagrange` -- ``inertia gravload coriolis itorque energy``
* :mod:`.fdyn` -- forward dynamics ``accel fdyn``
* :mod:`.cartesian` -- ``inertia_x asada accel_ellipsoid jacob_dot``
* :mod:`.symbolic` -- M, C, g with sympy by Lagrange's equations (``twolink_sym``)
* :mod:`.actuator` -- motors, ``jointdynamics``, velocity and position loops, the series-elastic actuator
* :mod:`.control` -- feedforward, computed-torque and operational-space control, simulated
"""

from .params import *  # noqa: F401,F403
from .friction import *  # noqa: F401,F403
from .payload import *  # noqa: F401,F403
from .recursion import *  # noqa: F401,F403
from .rne import *  # noqa: F401,F403
from .lagrange import *  # noqa: F401,F403
from .fdyn import *  # noqa: F401,F403
from .cartesian import *  # noqa: F401,F403
from .symbolic import *  # noqa: F401,F403
from .actuator import *  # noqa: F401,F403
from .control import *  # noqa: F401,F403
