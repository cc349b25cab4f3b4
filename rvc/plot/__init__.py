"""Drawing and interaction, for every chapter (no maths here).

Everything here draws what lower layers compute and reads robots only
through the chain interface, :class:`rvc.kinematics.chain.Chain` (never by class).
Matplotlib, ipywidgets and IPython are imported inside the functions that
draw, so ``import rvc`` stays light and never picks a plotting backend.

* :mod:`.frames` -- coordinate frames and points, their animations
* :mod:`.animation` -- :func:`jshtml`, an offline animation player
* :mod:`.widgets` -- :class:`SliderDemo`, the slider pattern of every chapter, and
  :class:`LiveCanvas`, which repaints a panel's figure drawing only what moved
* :mod:`.robot` -- stick figures of arms, their animations, teach panels
* :mod:`.fivebar_drawing` -- the elastic five-bar of :mod:`rvc.parallel`, its modes, its motion
* :mod:`.ellipse` -- ellipses and ellipsoids, an arm's velocity and force ellipsoids
* :mod:`.schematic` -- line drawings of links and arms with their parameters
* :mod:`.blocks` -- block diagrams of a joint's drive and its control loops
"""

from .frames import *  # noqa: F401,F403
from .frames import __all__ as _frames
from .animation import *  # noqa: F401,F403
from .animation import __all__ as _animation
from .widgets import *  # noqa: F401,F403
from .widgets import __all__ as _widgets
from .robot import *  # noqa: F401,F403
from .robot import __all__ as _robot
from .fivebar_drawing import *  # noqa: F401,F403
from .fivebar_drawing import __all__ as _fivebar_drawing
from .ellipse import *  # noqa: F401,F403
from .ellipse import __all__ as _ellipse
from .schematic import *  # noqa: F401,F403
from .schematic import __all__ as _schematic
from .blocks import *  # noqa: F401,F403
from .blocks import __all__ as _blocks

__all__ = [*_frames, *_animation, *_widgets, *_robot, *_fivebar_drawing, *_ellipse, *_schematic, *_blocks]
