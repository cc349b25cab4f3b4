"""The one style of every result object rvc returns.

A result is a frozen dataclass (fields read as attributes, never changed
after it is made) that also *unpacks* like MATLAB's multiple return values:
iterating over it yields the fields named in its ``unpack`` class attribute
(all fields when empty), so

    q, qd, qdd = jtraj(q0, qf, 50)        # Trajectory unpacks as q, qd, qdd
    sol = ikine(robot, T); sol.q          # or use the names

both work.  Its ``repr`` is a one-line summary: scalars by value, arrays
by shape.  Subclasses define fields and, where it helps, their own
``__repr__``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, repr=False, eq=False)
... class Pair(Result):
...     unpack = ("a", "b")
...     a: float
...     b: np.ndarray
...     note: str = ""
>>> p = Pair(1.0, np.zeros((2, 3)))
>>> a, b = p
>>> p
Pair(a=1.0, b=<array (2, 3)>, note='')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, ClassVar

import numpy as np

__all__ = ["Result"]


def _short(v: object) -> str:
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return repr(v.item())
        return f"<array {v.shape}>"
    if isinstance(v, (list, tuple)) and len(v) > 4:
        return f"<{type(v).__name__} of {len(v)}>"
    if isinstance(v, dict):
        return "{" + ", ".join(map(str, v)) + "}" if v else "{}"
    return repr(v)


@dataclass(frozen=True, repr=False, eq=False)
class Result:
    """Base class of rvc's result objects (see the module docstring)."""

    #: Names of the fields that unpacking yields, in order (all fields if empty).
    unpack: ClassVar[tuple] = ()

    def __iter__(self) -> Iterator[Any]:
        names = self.unpack or tuple(f.name for f in fields(self))
        return iter(tuple(getattr(self, k) for k in names))

    def __repr__(self) -> str:
        parts = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in fields(self))
        return f"{type(self).__name__}({parts})"
