"""Chapter 3, time and motion: trajectories, velocity, rigid-body motion.

* :mod:`.trajectory` -- ``tpoly lspb mtraj jtraj mstraj trinterp ctraj``
* :mod:`.velocity` -- derivative of pose, velocity transforms, incremental
  motion, angle-rate Jacobians: ``dotR tr2jac delta2tr rpy2jac`` ...
* :mod:`.rigidbody` -- Euler's equations, wrenches, inertia, rotating frames
"""

from .trajectory import *  # noqa: F401,F403
from .velocity import *  # noqa: F401,F403
from .rigidbody import *  # noqa: F401,F403
