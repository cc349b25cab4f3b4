"""Elastic parallel manipulators (the second source text).

Planar serial chains described as data, their dynamics derived once with
sympy (:mod:`~rvc.parallel.chain`); closed chains cut into a tree, the loop
constraints, W, the compact model, Lagrange's equations of the first kind,
the Lagrange-D'Alembert projection and the per-chain direct dynamics
(:mod:`~rvc.parallel.closed`); the elastic five-bar
(:mod:`~rvc.parallel.fivebar`).  Drawing lives in :mod:`~rvc.parallel.drawing`
(numbers in, no maths).
"""

from .chain import *  # noqa: F401,F403
from .chain import __all__ as _chain
from .closed import *  # noqa: F401,F403
from .closed import __all__ as _closed
from .fivebar import *  # noqa: F401,F403
from .fivebar import __all__ as _fivebar

__all__ = [*_chain, *_closed, *_fivebar]
from .simulation import *  # noqa: F401,F403
from .simulation import __all__ as _simulate

__all__ += _simulate

# Drawing (numbers in, no maths): exported here for now; it belongs to the plotting layer
# and moves there when the package is split into layers (the top-level names stay).
from .drawing import *  # noqa: F401,F403
from .drawing import __all__ as _drawing

__all__ += _drawing
