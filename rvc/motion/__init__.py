"""Chapter 3, time and motion: trajectories, velocity, rigid-body motion.

* :mod:`.trajectory` -- ``tpoly lspb mtraj jtraj mstraj trinterp ctraj``
* :mod:`.velocity` -- derivative of pose, velocity transforms, incremental
  motion, angle-rate Jacobians: ``dotR tr2jac delta2tr rpy2jac`` ...
* :mod:`.rigidbody` -- Euler's equations, wrenches, inertia, rotating frames
"""

from .trajectory import *  # noqa: F401,F403
from .trajectory import __all__ as _trajectory
from .velocity import *  # noqa: F401,F403
from .velocity import __all__ as _velocity
from .rigidbody import *  # noqa: F401,F403
from .rigidbody import __all__ as _rigidbody

__all__ = [*_trajectory, *_velocity, *_rigidbody]
