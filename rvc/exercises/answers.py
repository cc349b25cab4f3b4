"""A student's answers as data: what the grader's kernel sends out, and the judge reads back.

The grader (:mod:`rvc.exercises.grade`) runs a returned notebook in its own kernel and, after
each exercise cell, runs a cell that turns the value of ``answer`` into plain JSON data
(:func:`encode`) and displays it under the MIME type :data:`MIME`.  The judge, a clean process
that never runs the student's code, turns that data back into a value (:func:`decode`) and gives
it to the exercise's checker.

What travels: ``None``, booleans, numbers (NaN and inf too), strings, lists, tuples, dicts,
numpy arrays and scalars, and the objects of rvc's own classes (a ``DHRobot``, a ``Trajectory``:
their attributes, rebuilt in the judge without running any of their code).  Anything else (a
function, a class of the student's own) arrives as a stand-in, :class:`Opaque`, that says what
it was.  An answer bigger than :data:`MAX_VALUES` numbers or :data:`MAX_DEPTH` levels deep
arrives as an :class:`Opaque` too, so a 10,000 x 10,000 array never crosses.

>>> decode(encode({"axis": np.array([0.0, 0.0, 1.0]), "theta": np.float64(0.5), "ok": (1, None)}))
{'axis': array([0., 0., 1.]), 'theta': 0.5, 'ok': (1, None)}
>>> decode(encode(np.zeros((10_000, 10_000), dtype=np.uint8)))
Opaque('an array of shape (10000, 10000), too large to collect (more than 1000000 numbers)')
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from typing import Any

import numpy as np

__all__ = ["MIME", "MAX_VALUES", "MAX_DEPTH", "Opaque", "encode", "decode", "capture_source"]

#: The MIME type under which the grader's capture cell displays an answer.
MIME = "application/vnd.rvc.answer+json"
#: The most numbers an answer may hold (all its arrays and lists together).
MAX_VALUES = 1_000_000
#: The deepest nesting of containers and objects an answer may have.
MAX_DEPTH = 12


class Opaque:
    """Stands in for an answer that cannot travel as data; ``what`` says what it was."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = str(what)

    def __repr__(self) -> str:
        return f"Opaque({self.what!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.what == self.what

    __hash__ = None


class _TooLarge(Exception):
    pass


def _rvc_class(cls: type) -> bool:
    return getattr(cls, "__module__", "").split(".")[0] == "rvc"


def encode(value: Any) -> Any:
    """``value`` as JSON-ready data (dicts, lists, strings, numbers), tagged so that
    :func:`decode` restores tuples, arrays, dicts with any keys and rvc objects.

    >>> encode((1, np.array([1.5, 2.0])))
    {'tuple': [1, {'array': [1.5, 2.0], 'dtype': 'float64', 'shape': [2]}]}
    >>> encode(print)
    {'opaque': 'a builtin_function_or_method, which the grader cannot collect as data'}
    """
    budget = [MAX_VALUES]
    try:
        return _encode(value, 0, budget)
    except _TooLarge as exc:
        return {"opaque": f"{exc}, too large to collect (more than {MAX_VALUES} numbers)"}
    except RecursionError:
        return {"opaque": f"a {type(value).__name__} nested too deeply to collect"}


def _spend(budget: list, n: int, what: str) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise _TooLarge(what)


def _encode(v: Any, depth: int, budget: list) -> Any:
    if depth > MAX_DEPTH:
        return {"opaque": f"a {type(v).__name__} nested more than {MAX_DEPTH} levels deep"}
    if v is None or isinstance(v, (bool, str)):
        if isinstance(v, str):
            _spend(budget, len(v) // 8 + 1, "a string")
        return v
    if isinstance(v, (int, np.integer)) and not isinstance(v, np.bool_):
        v = int(v)
        _spend(budget, 1, "a number")
        return v if abs(v) < 2 ** 63 else {"int": str(v)}
    if isinstance(v, (float, np.floating)):
        _spend(budget, 1, "a number")
        v = float(v)
        return v if math.isfinite(v) else {"float": repr(v)}
    if isinstance(v, (complex, np.complexfloating)):
        _spend(budget, 2, "a number")
        return {"complex": [repr(float(v.real)), repr(float(v.imag))]}
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.ndarray):
        _spend(budget, int(v.size), f"an array of shape {v.shape}")
        if v.dtype.kind in "biuf":
            flat = v.astype(float).ravel() if v.dtype.kind == "f" else v.ravel()
            data = [x if math.isfinite(x) else {"float": repr(x)} for x in flat.tolist()] \
                if v.dtype.kind == "f" else flat.tolist()
            return {"array": data, "dtype": str(v.dtype), "shape": list(v.shape)}
        if v.dtype.kind == "c":
            return {"array": [_encode(x, depth + 1, budget) for x in v.ravel().tolist()],
                    "dtype": str(v.dtype), "shape": list(v.shape)}
        return {"array": [_encode(x, depth + 1, budget) for x in v.ravel().tolist()],
                "dtype": "object", "shape": list(v.shape)}
    if isinstance(v, (list, tuple)) and type(v) in (list, tuple) or _is_namedtuple(v):
        _spend(budget, len(v), f"a {type(v).__name__} of {len(v)} items")
        items = [_encode(x, depth + 1, budget) for x in v]
        return items if type(v) is list else {"tuple": items}
    if type(v) is dict:
        _spend(budget, len(v), f"a dict of {len(v)} items")
        return {"dict": [[_encode(k, depth + 1, budget), _encode(x, depth + 1, budget)]
                         for k, x in v.items()]}
    cls = type(v)
    if _rvc_class(cls) and not isinstance(v, type):
        state = _state(v)
        if state is not None:
            return {"object": f"{cls.__module__}:{cls.__qualname__}",
                    "state": {k: _encode(x, depth + 1, budget) for k, x in state.items()}}
    return {"opaque": f"a {cls.__name__}, which the grader cannot collect as data"}


def _is_namedtuple(v: Any) -> bool:
    return isinstance(v, tuple) and hasattr(v, "_fields")


def _state(v: Any) -> dict | None:
    """The attributes of an rvc object: its ``__dict__`` and its slots."""
    state = {}
    if dataclasses.is_dataclass(v):
        state.update({f.name: getattr(v, f.name) for f in dataclasses.fields(v)})
    state.update(getattr(v, "__dict__", {}))
    for klass in type(v).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("__dict__", "__weakref__") and hasattr(v, name):
                state[name] = getattr(v, name)
    return state if all(isinstance(k, str) for k in state) else None


def decode(data: Any) -> Any:
    """The value :func:`encode` made ``data`` of; an rvc object is rebuilt from its attributes
    without calling its constructor, and only classes of rvc itself are rebuilt.

    >>> decode({"tuple": [1, {"float": "nan"}]})
    (1, nan)
    >>> decode({"object": "os:system", "state": {}})
    Opaque('an object of os:system, which is not one of rvc')
    """
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(x) for x in data]
    if not isinstance(data, dict) or len(data) == 0:
        return Opaque("something the grader could not read")
    if "float" in data:
        return float(data["float"])
    if "int" in data:
        return int(data["int"])
    if "complex" in data:
        re, im = data["complex"]
        return complex(float(re), float(im))
    if "tuple" in data:
        return tuple(decode(x) for x in data["tuple"])
    if "dict" in data:
        out = {}
        for k, v in data["dict"]:
            k = decode(k)
            out[k if isinstance(k, (str, int, float, bool, tuple, type(None))) else repr(k)] = decode(v)
        return out
    if "array" in data:
        shape = tuple(int(n) for n in data["shape"])
        items = data["array"]
        if data["dtype"] == "object" or data["dtype"].startswith("complex"):
            a = np.empty(len(items), dtype=object if data["dtype"] == "object" else data["dtype"])
            for k, x in enumerate(items):
                a[k] = decode(x)
            return a.reshape(shape)
        items = [float(x["float"]) if isinstance(x, dict) else x for x in items]
        return np.array(items, dtype=np.dtype(data["dtype"])).reshape(shape)
    if "object" in data:
        return _rebuild(str(data["object"]), data.get("state", {}))
    if "opaque" in data:
        return Opaque(str(data["opaque"]))
    return Opaque("something the grader could not read")


def _rebuild(name: str, state: dict) -> Any:
    module_name, _, qualname = name.partition(":")
    if module_name.split(".")[0] != "rvc":
        return Opaque(f"an object of {name}, which is not one of rvc")
    try:
        obj = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return Opaque(f"an object of {name}, which rvc does not have")
    if not isinstance(obj, type) or not _rvc_class(obj):
        return Opaque(f"an object of {name}, which is not a class of rvc")
    instance = object.__new__(obj)
    for key, value in state.items():
        object.__setattr__(instance, str(key), decode(value))
    return instance


#: The capture cell: the value of ``answer`` as data, then ``answer`` is forgotten, so that the
#: next exercise cell starts without it.  Private names only; imports its helpers itself.
_CAPTURE = '''\
def __rvc_grade_capture():
    import IPython.display as _d
    import rvc.exercises.answers as _a
    _g = globals()
    if "answer" in _g:
        _data = {{"id": {id!r}, "token": {token!r}, "answer": _a.encode(_g.pop("answer"))}}
    else:
        _data = {{"id": {id!r}, "token": {token!r}, "missing": True}}
    _d.display({{_a.MIME: _data}}, raw=True)
__rvc_grade_capture()
del __rvc_grade_capture'''


def capture_source(exercise_id: str, token: str) -> str:
    """The source of the cell the grader runs after exercise ``exercise_id``'s cell: it displays
    ``answer`` as data under :data:`MIME`, tagged with the run's ``token``, and deletes ``answer``.

    >>> print(capture_source("2.3", "t0k3n").splitlines()[5])
            _data = {"id": '2.3', "token": 't0k3n', "answer": _a.encode(_g.pop("answer"))}
    """
    return _CAPTURE.format(id=str(exercise_id), token=str(token))
