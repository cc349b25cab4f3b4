"""The package's layers, enforced on dotted module names.

The layers are the subpackages in the order ``rvc/__init__.py`` imports them
(checks and results first, then the chapters as they build on each other,
plotting, the models, the applications), followed by ``rvc.exercises``.
Inside a subpackage the order is the order its ``__init__.py`` imports its
modules.  A module may import only what ranks below it -- an earlier layer,
or an earlier module of its own layer -- with no exception for imports
inside functions, so no import circle can exist.  Besides:

* a package's ``__init__`` may import its own modules (it re-exports them);
* only ``rvc.exercises`` may import from the ``rvc`` package itself;
* no module imports another module's private (``_name``) helpers, nor
  reaches them as ``module._name``;
* no two modules export (``__all__``) the same name;
* algorithms and drawings never name the robot classes: they work through
  the chain interface (``n``, ``revolute``, ``qlim``, ``base``, ``tool``,
  ``dim``, ``fkine``, ``fkine_all``, ``joint_frames``).
"""

import ast
from collections import Counter
from pathlib import Path

import pytest

RVC = Path(__file__).resolve().parents[1] / "rvc"
MODEL_CLASSES = {"DHRobot", "ETS2", "ETS3", "Link", "ET"}
MODEL_LAYERS = {"models", "apps", "exercises"}


def dotted(path: Path, root: Path = RVC) -> str:
    """'spatial.expmap' for rvc/spatial/expmap.py, 'spatial' for its __init__, '' for rvc."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def exists(name: str, root: Path) -> bool:
    p = root.joinpath(*name.split(".")) if name else root
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def imports(path: Path, root: Path = RVC):
    """Yield (target dotted name, imported names, lineno) for every rvc import, anywhere in the file."""
    me = dotted(path, root)
    package = me if is_package(path) else me.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(base + (node.module.split(".") if node.module else []))
            elif node.module and node.module.split(".")[0] == root.name:
                mod = ".".join(node.module.split(".")[1:])
            else:
                continue
            names = [a.name for a in node.names]
            subs = [n for n in names if exists(f"{mod}.{n}".strip("."), root)]
            for n in subs:
                yield f"{mod}.{n}".strip("."), [], node.lineno
            rest = [n for n in names if n not in subs]
            if rest:
                yield mod, rest, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == root.name:
                    yield ".".join(parts[1:]), [], node.lineno


def listed(init: Path):
    """Modules an __init__ imports, in order (``from .x import *``, ``from . import x``)."""
    out = []
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.append(node.module.split(".")[0])
            else:
                out.extend(a.name for a in node.names)
    return list(dict.fromkeys(out))


def ranks(root: Path = RVC):
    """Rank of every module: (layer index, index inside its layer); a package's __init__ is -1."""
    layers = listed(root / "__init__.py")
    for last in ("exercises", "doctor"):          # not imported by rvc: run on their own
        if exists(last, root) and last not in layers:
            layers.append(last)
    rank = {}
    for i, layer in enumerate(layers):
        rank[layer] = (i, -1)
        init = root / layer / "__init__.py"
        if init.is_file():
            inner = listed(init)
            others = sorted(p.stem for p in (root / layer).glob("*.py")
                            if p.stem != "__init__" and p.stem not in inner)
            for j, m in enumerate(inner + others):    # modules an __init__ loads lazily come last
                rank[f"{layer}.{m}"] = (i, j)
    return rank, layers


def modules(root: Path = RVC):
    return sorted(root.rglob("*.py"))


def violations(root: Path = RVC):
    """Every broken layer rule in the tree under ``root``, as messages."""
    rank, _ = ranks(root)
    out = []
    for path in modules(root):
        me = dotted(path, root)
        if me == "":
            continue
        where = path.relative_to(root.parent)
        if me not in rank:
            out.append(f"{where}: module has no layer (not listed in its package's __init__)")
            continue
        for target, names, line in imports(path, root):
            for n in names:
                if n.startswith("_") and not n.startswith("__"):
                    out.append(f"{where}:{line} imports the private name {n} from rvc.{target}")
            if target == "":
                if not me.startswith("exercises"):
                    out.append(f"{where}:{line} imports from the rvc package itself")
                continue
            if is_package(path) and target.startswith(me + "."):
                continue                                  # a package re-exports its modules
            if target not in rank:
                out.append(f"{where}:{line} imports rvc.{target}, which has no layer")
            elif not rank[target] < rank[me]:
                out.append(f"{where}:{line} imports rvc.{target}, which does not rank below "
                           f"rvc.{me}")
    return out


def test_every_module_has_a_layer_and_imports_only_below_it():
    assert violations() == []


def test_no_private_attribute_of_another_module():
    bad = []
    for path in modules():
        tree = ast.parse(path.read_text())
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                aliases |= {a.asname or a.name for a in node.names
                            if exists(f"{dotted(path)}.{a.name}".strip("."), RVC)
                            or exists(a.name, RVC)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                bad.append(f"{path.relative_to(RVC.parent)}:{node.lineno} {node.value.id}.{node.attr}")
    assert bad == []


def test_exported_names_do_not_collide():
    owners = Counter()
    where = {}
    for path in modules():
        if is_package(path):
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                for name in ast.literal_eval(node.value):
                    owners[name] += 1
                    where.setdefault(name, []).append(dotted(path))
    assert {n: where[n] for n, c in owners.items() if c > 1} == {}


@pytest.mark.parametrize("path", [p for p in modules() if dotted(p).split(".")[0] not in MODEL_LAYERS],
                         ids=lambda p: dotted(p) or "rvc")
def test_algorithms_never_name_the_robot_classes(path):
    """Below the models layer, code (not prose) never names DHRobot, ETS2, ETS3, Link, ET."""
    tree = ast.parse(path.read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
              for a in n.names}
    assert not names & MODEL_CLASSES, f"{dotted(path)} names {sorted(names & MODEL_CLASSES)}"


def test_the_rules_can_fail(tmp_path):
    """A fake package with an upward import, a private import and a root import is caught."""
    root = tmp_path / "rvc"
    (root / "low").mkdir(parents=True)
    (root / "high").mkdir()
    (root / "__init__.py").write_text("from .low import *\nfrom .high import *\n")
    (root / "low" / "__init__.py").write_text("from .a import *\n")
    (root / "low" / "a.py").write_text("def f():\n    from ..high.b import g\n")
    (root / "high" / "__init__.py").write_text("from .b import *\n")
    (root / "high" / "b.py").write_text("from ..low.a import _private\nfrom .. import f\n")
    found = "\n".join(violations(root))
    assert "low/a.py:2 imports rvc.high.b, which does not rank below rvc.low.a" in found
    assert "imports the private name _private" in found
    assert "high/b.py:2 imports from the rvc package itself" in found
    assert len(violations(root)) == 3
