"""Robot models as data, with thin methods (Chapter 7), and the model library.

* :mod:`.display` -- printing models as the toolbox does
* :mod:`.link` -- :class:`Link` and the DH link constructors
* :mod:`.dhrobot` -- :class:`DHRobot`
* :mod:`.ets` -- :class:`ET`, :class:`ETS2`, :class:`ETS3`
* :mod:`.dhfactor` -- :class:`DHFactor`, from an ETS to DH parameters
* :mod:`.library` -- ``puma560()``, ``planar2()``, ``cobra600()`` ...
* :mod:`.parallel_robots` -- serial chains of parallel robots (``planar_arm``) and the parallel robots

A model holds parameters; its methods (``p560.fkine(q)``, ``p560.jacob0(q)``,
``p560.plot(q)``) call the algorithms of :mod:`rvc.kinematics` and the
drawings of :mod:`rvc.plot`, which never import these classes.

>>> p560 = puma560()
>>> p560.n, p560.structure
(6, 'RRRRRR')
"""

from . import display  # noqa: F401  (printing helpers, not exported)
from .link import *  # noqa: F401,F403
from .dhrobot import *  # noqa: F401,F403
from .ets import *  # noqa: F401,F403
from .dhfactor import *  # noqa: F401,F403
from .library import *  # noqa: F401,F403
from .parallel_robots import *  # noqa: F401,F403
from . import dhfactor, dhrobot, ets, library, link, parallel_robots  # noqa: E402

__all__ = (link.__all__ + dhrobot.__all__ + ets.__all__ + dhfactor.__all__ + library.__all__
           + parallel_robots.__all__)
