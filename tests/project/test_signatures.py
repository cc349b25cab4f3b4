"""Public signatures carry type hints with named shapes (``rvc.shapes``), and the hints resolve.

The modules listed in ANNOTATED are annotated throughout: every parameter and the return of every
public function. The classes in ANNOTATED_CLASSES are too: every public method (inherited ones
included), class method and property. A hint says what an array holds (``SO3``, ``SE3``,
``Jacobian`` ...), which a bare ``np.ndarray`` does not.
"""

import importlib
import inspect
import typing

import pytest

import rvc
from rvc import shapes

ANNOTATED = [importlib.import_module(f"rvc.{name}") for name in (
    "spatial.transforms2d", "spatial.transforms3d", "spatial.quaternion", "spatial.expmap", "spatial.twist",
    "spatial.dualquat",
    "motion.trajectory", "motion.velocity", "motion.rigidbody",
    "kinematics.jacobian", "kinematics.chain", "kinematics.dh", "kinematics.ets_fkine", "kinematics.poe",
    "kinematics.poejac", "kinematics.analytical", "kinematics.ikine2link", "kinematics.ikine6s",
    "models.link", "models.library", "models.display", "models.parallel_robots",
    "dynamics.params", "dynamics.friction", "dynamics.payload", "dynamics.recursion", "dynamics.rne",
    "dynamics.matrices", "dynamics.fdyn", "dynamics.symbolic", "dynamics.actuator", "dynamics.control",
    "kinematics.ikine", "kinematics.rates", "kinematics.ellipsoid", "kinematics.rrmc",
    "plot.ellipse", "plot.frames", "plot.schematic",
    "plot.animation", "plot.robot", "plot.fivebar_drawing", "plot.blocks",
    "apps.walking", "apps.writing", "doctor",
    "exercises", "exercises.student",
    "parallel.scdd", "parallel.simulation", "parallel.linear_move", "parallel.closed", "parallel.model",
    "checks", "dynamics.cartesian", "kinematics.jtranspose",
)]
ANNOTATED_CLASSES = [rvc.DHRobot, rvc.Link, rvc.ET, rvc.ETS3, rvc.ETS2, rvc.DHFactor, rvc.Twist3, rvc.Twist2,
                     rvc.kinematics.chain.Chain, rvc.WalkingLegs, rvc.doctor.Finding,
                     rvc.DynamicLink, rvc.DynamicChain, rvc.DynParams, rvc.Energy, rvc.SymDynamics, rvc.JointDynamics,
                     rvc.LoopResponse, rvc.Tracking, rvc.LMStep, rvc.Ellipsoid, rvc.EllipsePlot, rvc.ArmEllipsePlot,
                     rvc.FrameHandle, rvc.DHLinkSketch, rvc.PlanarSketch, rvc.SliderDemo,
                     rvc.RobotPlot, rvc.Teach, rvc.plot.robot.PlanarPlot, rvc.FiveBarDrawing, rvc.BlockDiagram,
                     rvc.exercises.Mistake, rvc.exercises.When, rvc.exercises.Numeric, rvc.exercises.ArrayAnswer,
                     rvc.parallel.PlanarChain, rvc.parallel.Move, rvc.parallel.ClosedChain, rvc.parallel.FiveBar,
                     rvc.parallel.ParallelModel, rvc.parallel.Closure,
                     rvc.kinematics.jtranspose.TransposeStep]
NAMED = {getattr(shapes, n) for n in shapes.__all__ if n != "ArrayLike"}


def public_functions(module):
    return [getattr(module, n) for n in module.__all__ if inspect.isfunction(getattr(module, n))]


def public_methods(cls, package: str = "rvc"):
    """(name, function) for each public method, class method and property getter of ``cls`` and its
    bases defined in ``package`` (not those of ``tuple`` or ``object``)."""
    out = []
    for name, attr in inspect.getmembers(cls):
        if name.startswith("_") and name != "__init__":          # the constructor is public too
            continue
        fn = attr.fget if isinstance(attr, property) else attr
        fn = getattr(fn, "__func__", fn)                      # a class method, bound to the class
        if inspect.isfunction(fn) and fn.__module__.startswith(package):
            out.append((name, fn))
    return out


def missing_hints(fn, method: bool = False) -> list:
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1 if method else 0:]   # self or cls
    out = [p.name for p in params if p.annotation is inspect.Parameter.empty]
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


@pytest.mark.parametrize("cls", ANNOTATED_CLASSES, ids=lambda c: c.__name__)
def test_every_public_method_of_the_model_classes_is_annotated_and_its_hints_resolve(cls):
    methods = public_methods(cls)
    assert methods
    assert {n: missing_hints(f, method=True) for n, f in methods if missing_hints(f, method=True)} == {}
    for _, f in methods:
        typing.get_type_hints(f, include_extras=True)


def test_models_say_what_their_arrays_hold():
    hints = typing.get_type_hints(rvc.DHRobot.fkine, include_extras=True)
    assert hints["q"] is shapes.JointVector and hints["return"] is shapes.SE3
    assert typing.get_type_hints(rvc.DHRobot.jacob0, include_extras=True)["return"] is shapes.Jacobian
    trexp = typing.get_type_hints(rvc.trexp, include_extras=True)["return"]
    assert trexp == shapes.SO2 | shapes.SO3 | shapes.SE2 | shapes.SE3
    assert typing.get_type_hints(rvc.tr2dq, include_extras=True)["return"] is shapes.DualQuaternion
    assert typing.get_type_hints(rvc.mstraj, include_extras=True)["viapoints"] is shapes.JointPath
    for name in shapes.__all__[1:]:                           # every shape is documented in the table
        assert f"``{name}``" in shapes.__doc__


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

    class C:
        def m(self, x: int):
            return x

        @property
        def p(self):
            return 0
    assert dict(public_methods(C, package=__name__)) == {"m": C.m, "p": C.p.fget}
    assert missing_hints(C.m, method=True) == ["return"]
