"""Every public function states its formula or behaviour and shows it in a doctest."""

import inspect

import pytest

import rvc
from rvc import models, parallel

#: Classes that only hold drawings, warnings or widgets: a docstring suffices
#: (as it does for results, the subclasses of rvc.Result).
HANDLE_CLASSES = {
    "FrameHandle", "RVCWarning", "RobotPlot", "SingularityWarning", "SliderDemo", "Teach",
    "DHLinkSketch", "PlanarSketch",
}


def public():
    for module in (rvc, models, parallel):
        for name in getattr(module, "__all__", None) or dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if getattr(obj, "__module__", "").startswith("rvc"):
                yield f"{module.__name__}.{name}", obj


@pytest.mark.parametrize("name, obj", sorted(public(), key=lambda p: p[0]),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_public_api_has_docstring_and_doctest(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert doc.strip(), f"{name} has no docstring"
    is_result = inspect.isclass(obj) and issubclass(obj, rvc.Result)
    if name.split(".")[-1] not in HANDLE_CLASSES and not is_result:
        assert ">>>" in doc, f"{name} has no doctest"
