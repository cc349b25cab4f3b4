"""Elastic parallel manipulators (the second source text, Chapter 10).

* :mod:`~rvc.parallel.planar_chain` -- planar serial chains described by data, their
  dynamics derived once with sympy (Lagrange, second kind), lambdified, cached;
* :mod:`~rvc.parallel.closed` -- closed chains cut into a tree: loop closure,
  A, W and its derivative, the compact model, Lagrange's equations of the
  first kind, the Lagrange-D'Alembert projection, the per-chain direct
  dynamics, the Jacobian from the chains' Jacobians, operation counts;
* :mod:`~rvc.parallel.scdd` -- the source's own method: its U, its Jacobian
  from :math:`J_tW`, U and :math:`S^{-1}`, its SCDD in five steps (with an
  external end-effector force), its complexity claim;
* :mod:`~rvc.parallel.fivebar` -- the elastic five-bar of the worked example;
* :mod:`~rvc.parallel.simulation` -- simulation in compact or tree coordinates,
  a quintic plan with rigid feedforward and motor PD;
* :mod:`~rvc.parallel.linear_move` -- the same move, fast: the error dynamics linearised
  about the plan, integrated exactly per sample, refined by Picard sweeps;
* :mod:`~rvc.parallel.model` -- elastic parallel manipulators in general: any rvc serial
  chains, joint roles and a closure (tips meeting at a point, or a moving platform), with
  h, A, W, Wdot, assembly, both types of singularity measure and their maps over a grid of
  end-effector coordinates, the compact model, the inverse and forward dynamics (the tree
  evaluated once, then solved by the compact, KKT or per-chain method, whose operations are
  counted), deflection and modes as functions of (model, q, ...), the chains' dynamics from
  :mod:`rvc.dynamics`;

Drawings of the five-bar (numbers in, no maths) are in :mod:`rvc.plot.fivebar_drawing`.
"""

from .planar_chain import *  # noqa: F401,F403
from .planar_chain import __all__ as _chain
from .closed import *  # noqa: F401,F403
from .closed import __all__ as _closed
from .scdd import *  # noqa: F401,F403
from .scdd import __all__ as _scdd
from .fivebar import *  # noqa: F401,F403
from .fivebar import __all__ as _fivebar
from .simulation import *  # noqa: F401,F403
from .simulation import __all__ as _simulation
from .linear_move import *  # noqa: F401,F403
from .linear_move import __all__ as _linear_move
from .model import *  # noqa: F401,F403
from .model import __all__ as _model

__all__ = [*_chain, *_closed, *_scdd, *_fivebar, *_simulation, *_linear_move, *_model]
