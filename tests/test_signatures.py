"""Public signatures carry type hints with named shapes (``rvc.shapes``), and the hints resolve.

The modules listed in ANNOTATED are annotated throughout: every parameter and the return of every
public function. A hint says what an array holds (``SO3``, ``SE3``, ``Jacobian`` ...), which a
bare ``np.ndarray`` does not.
"""

import inspect
import typing

import pytest

import rvc
from rvc import shapes
from rvc.kinematics import jacobian
from rvc.spatial import quaternion, transforms2d, transforms3d

ANNOTATED = [transforms2d, transforms3d, quaternion, jacobian]
NAMED = {getattr(shapes, n) for n in shapes.__all__ if n != "ArrayLike"}


def public_functions(module):
    return [getattr(module, n) for n in module.__all__ if inspect.isfunction(getattr(module, n))]


def missing_hints(fn) -> list:
    sig = inspect.signature(fn)
    out = [p.name for p in sig.parameters.values() if p.annotation is inspect.Parameter.empty]
    if sig.return_annotation is inspect.Signature.empty:
        out.append("return")
    return out


@pytest.mark.parametrize("module", ANNOTATED, ids=lambda m: m.__name__)
def test_every_public_function_is_annotated_and_its_hints_resolve(module):
    fns = public_functions(module)
    assert fns
    assert {f.__name__: missing_hints(f) for f in fns if missing_hints(f)} == {}
    for f in fns:
        typing.get_type_hints(f, include_extras=True)            # names resolve, on 3.10 too


def test_rotations_and_poses_say_so():
    hints = typing.get_type_hints(rvc.rotx, include_extras=True)
    assert hints["return"] is shapes.SO3 and hints["theta"] is shapes.Angle
    assert typing.get_type_hints(rvc.trinv, include_extras=True)["return"] is shapes.SE3
    assert typing.get_type_hints(rvc.jacob0, include_extras=True)["return"] is shapes.Jacobian
    assert "(..., 4, 4)" in typing.get_args(shapes.SE3)[1]


def test_the_check_can_fail():
    def f(x, y: int) -> int:
        return y
    assert missing_hints(f) == ["x"]
    assert missing_hints(lambda: 0) == ["return"]
