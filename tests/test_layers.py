"""The package's layers: a module imports only from modules above it.

The order is the order of the imports in ``rvc/__init__.py`` (checks first,
then the chapters as they build on each other, plotting and widgets last),
followed by the ``rvc.exercises`` sub-package.  Imports inside functions obey
the same rule, except that a robot model's thin methods (``p560.plot(q)``,
``p560.ikine6s(T)``, as the notes write them) may reach the algorithm and
plotting modules they call, by an import inside the method.
"""

import ast
import sys
from pathlib import Path

import pytest

RVC = Path(__file__).resolve().parents[1] / "rvc"
LAZY_OK = {"plotting", "robotplot", "widgets", "ikine", "jacobian"}


def layer_order():
    tree = ast.parse((RVC / "__init__.py").read_text())
    order = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                order.append(node.module.split(".")[0])
            else:
                order.extend(alias.name for alias in node.names)
    order.append("exercises")
    return list(dict.fromkeys(order))


def module_name(path: Path) -> str:
    rel = path.relative_to(RVC)
    return rel.parts[0].removesuffix(".py")


def rvc_imports(path: Path):
    """Yield (target top-level module, lineno, inside_function) for each rvc import."""
    tree = ast.parse(path.read_text())
    depth_of = {}

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom):
                if child.level == 0 and child.module and child.module.split(".")[0] == "rvc":
                    parts = child.module.split(".")[1:]
                    names = parts[:1] or [a.name for a in child.names]
                elif child.level >= 1:
                    pkg_depth = len(path.relative_to(RVC).parts) - 1  # 0 for rvc/x.py
                    up = child.level - 1
                    if up > pkg_depth:
                        continue
                    base = list(path.relative_to(RVC).parts[:-1])[: pkg_depth - up]
                    parts = base + (child.module.split(".") if child.module else [])
                    names = parts[:1] or [a.name for a in child.names]
                else:
                    names = []
                for name in names:
                    yield name, child.lineno, inside
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    parts = alias.name.split(".")
                    if parts[0] == "rvc" and len(parts) > 1:
                        yield parts[1], child.lineno, inside
            yield from visit(child, inside)

    yield from visit(tree, False)


def test_every_module_has_a_layer():
    order = layer_order()
    missing = sorted(
        {module_name(p) for p in RVC.rglob("*.py")} - set(order) - {"__init__", "__main__"}
    )
    assert not missing, f"modules not imported in rvc/__init__.py (so without a layer): {missing}"


@pytest.mark.parametrize("path", sorted(RVC.rglob("*.py")), ids=lambda p: str(p.relative_to(RVC)))
def test_imports_only_go_up(path):
    order = layer_order()
    me = module_name(path)
    if me == "__init__":
        return
    rank = order.index(me)
    for target, lineno, inside in rvc_imports(path):
        if target == me or target not in order:
            continue
        if inside and target in LAZY_OK:
            continue
        assert order.index(target) < rank, (
            f"{path.relative_to(RVC.parent)}:{lineno} imports rvc.{target}, "
            f"which is below rvc.{me} in the layer order {order}"
        )


def test_the_rule_can_fail(tmp_path, monkeypatch):
    """An upward module-level import in a chapter-2 module is caught."""
    fake = RVC / "transforms2d.py"
    imports = list(rvc_imports(fake))
    assert all(t != "ikine" for t, _, _ in imports)
    bad = tmp_path / "rvc"
    bad.mkdir()
    (bad / "mod.py").write_text("from .ikine import ikine\ndef f():\n    from rvc.robotplot import x\n")
    monkeypatch.setattr(sys.modules[__name__], "RVC", bad)
    assert list(rvc_imports(bad / "mod.py")) == [("ikine", 1, False), ("robotplot", 3, True)]
