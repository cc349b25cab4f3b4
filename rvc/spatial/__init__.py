"""Chapter 2, representing pose: rotations and poses in 2-D and 3-D.

Modules, in the order they build on each other (each imports only from
those above it and from :mod:`rvc.checks`):

* :mod:`.transforms2d` -- SO(2), SE(2): ``rot2 trot2 transl2`` ...
* :mod:`.transforms3d` -- SO(3), SE(3), Euler and roll-pitch-yaw angles,
  two-vector form: ``rotx eul2r tr2rpy oa2r trinv`` ...
* :mod:`.expmap` -- angle-axis, skew-symmetric matrices, exponential and
  logarithm: ``angvec2r skew vex trexp trlog`` ...
* :mod:`.quaternion` -- unit quaternions and vector-quaternion pairs
* :mod:`.twist` -- twists and the adjoint: ``Twist2 Twist3 Ad``
* :mod:`.dualquat` -- unit dual quaternions
"""

from .transforms2d import *  # noqa: F401,F403
from .transforms2d import __all__ as _transforms2d
from .transforms3d import *  # noqa: F401,F403
from .transforms3d import __all__ as _transforms3d
from .expmap import *  # noqa: F401,F403
from .expmap import __all__ as _expmap
from .quaternion import *  # noqa: F401,F403
from .quaternion import __all__ as _quaternion
from .twist import *  # noqa: F401,F403
from .twist import __all__ as _twist
from .dualquat import *  # noqa: F401,F403
from .dualquat import __all__ as _dualquat

__all__ = [*_transforms2d, *_transforms3d, *_expmap, *_quaternion, *_twist, *_dualquat]
