"""rvc: robot arm modelling, from rotation matrices to elastic parallel manipulators.

The package mirrors the course's chapters.  Its layers are listed here in
the order they build on each other; a module imports only from layers
above it, and inside a layer only from the modules its ``__init__`` lists
before it (``tests/project/test_layers.py`` enforces this):

============  ==============  ========================================================
layer         chapter         what it holds
============  ==============  ========================================================
checks,       --              argument validation, tolerances; the result style
results
spatial       2               rotations, poses, exp/log, quaternions, twists
motion        3               trajectories, velocity, rigid bodies
kinematics    7, 8            forward kinematics, Jacobians, inverse kinematics
dynamics      9               rigid-body dynamics, joint actuators, control
parallel      seed 2          elastic parallel manipulators (names in ``rvc.parallel``)
plot          all             frames, robots, animations, sliders (no maths)
models        7               robot classes as data with thin methods, the library
apps          7               writing with a pen, the walking robot
exercises     all             check helpers and the student-copy tool
============  ==============  ========================================================

Every public name is re-exported here, so ``from rvc import rotx, jtraj,
ikine6s`` works as in the notes, and ``rvc.models.puma560()`` builds a robot.
"""

import sys as _sys

try:                                                  # what every layer needs, said plainly
    import numpy as _numpy, scipy as _scipy, sympy as _sympy  # noqa: F401,E401
except ModuleNotFoundError as _exc:
    raise ModuleNotFoundError(
        f"rvc needs the package {_exc.name!r}, which this Python ({_sys.executable}) does not "
        "have. In the course's folder run: python -m pip install -r requirements.txt -c "
        "constraints.txt (and python -m rvc.doctor to check the rest)", name=_exc.name) from None

from .checks import RVCWarning, SingularityWarning  # noqa: F401
from .results import Result  # noqa: F401
from .i18n import get_language, set_language  # noqa: F401  (rvc's feedback and figure text: en, zh)
from . import shapes  # noqa: F401  (named array shapes for signatures: rvc.shapes.SE3 ...)

from .spatial import *  # noqa: F401,F403  (Chapter 2)
from .motion import *  # noqa: F401,F403  (Chapter 3)
from .kinematics import *  # noqa: F401,F403  (Chapters 7 and 8)
from .dynamics import *  # noqa: F401,F403  (Chapter 9)
from . import parallel  # noqa: F401  (the elastic parallel chapter: its names live in rvc.parallel)
from .plot import *  # noqa: F401,F403
from .models import *  # noqa: F401,F403  (Chapter 7)
from .apps import *  # noqa: F401,F403
from . import spatial, motion, kinematics, dynamics, plot, models, apps  # noqa: E402

#: Every public name: the checks' warnings, Result, and each star-imported subpackage's ``__all__``
#: (``rvc.parallel`` keeps its names; ``rvc.checks`` and ``rvc.results`` hold the rest of the base),
#: and the language of rvc's own text (``rvc.i18n``).
__all__ = ["RVCWarning", "SingularityWarning", "Result", "set_language", "get_language",
           *spatial.__all__, *motion.__all__, *kinematics.__all__, *dynamics.__all__, *plot.__all__,
           *models.__all__, *apps.__all__]

del _sys, _numpy, _scipy, _sympy

__version__ = "0.1.0"
