"""rvc: robot arm modelling, from rotation matrices to elastic parallel manipulators.

The package mirrors the course's chapters.  Modules are listed here in the
order they build on each other; a module imports only from modules above it
(``tests/test_layers.py`` enforces this).  Every public name is re-exported
here, so ``from rvc import rotx, jtraj, ikine6s`` works as in the notes.
"""

from .checks import RVCWarning, SingularityWarning  # noqa: F401

# Chapter 2: representing pose
from .transforms2d import *  # noqa: F401,F403
from .transforms3d import *  # noqa: F401,F403
from .expmap import *  # noqa: F401,F403
from .quaternion import *  # noqa: F401,F403
from .twist import *  # noqa: F401,F403
from .dualquat import *  # noqa: F401,F403

# Chapter 3: time and motion
from .trajectory import *  # noqa: F401,F403
from .velocity import *  # noqa: F401,F403
from .rigidbody import *  # noqa: F401,F403

# Chapter 7: robot models and arm kinematics
from .ets import *  # noqa: F401,F403
from .robot import *  # noqa: F401,F403
from .dhfactor import *  # noqa: F401,F403
from . import models  # noqa: E402
from .jacobian import *  # noqa: F401,F403
from .ikine import *  # noqa: F401,F403

# Elastic parallel manipulators (the second source text)
from .parallel import *  # noqa: F401,F403

# Plotting and widgets (no maths here)
from .plotting import *  # noqa: F401,F403
from .widgets import *  # noqa: F401,F403
from .robotplot import *  # noqa: F401,F403
from .apps import *  # noqa: F401,F403

__version__ = "0.1.0"
