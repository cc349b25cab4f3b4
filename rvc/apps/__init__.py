"""Applications of arm kinematics (notes 7.5): writing on a surface, a walking robot.

* :mod:`.writing` -- text to pen strokes to pen poses for the Puma
* :mod:`.walking` -- the gait and the four legs of the walker
"""

from .writing import *  # noqa: F401,F403
from .writing import __all__ as _writing
from .walking import *  # noqa: F401,F403
from .walking import __all__ as _walking

__all__ = [*_writing, *_walking]
