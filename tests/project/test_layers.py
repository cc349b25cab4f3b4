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
  ``dim``, ``fkine``, ``fkine_all``, ``joint_frames``: the protocol
  ``rvc.kinematics.chain.Chain``).

And the namespace carries names, not modules: every subpackage's ``__all__``
is the union of its modules' ``__all__``; ``dir(rvc)`` binds no module but
the layers, ``dir(rvc.<layer>)`` none but the layer's own; no module name is
in two layers; and every name exported before (``tests/data/public_names.txt``)
or used by a notebook is still exported.
"""

import ast
import types
from collections import Counter
from pathlib import Path

import pytest

RVC = Path(__file__).resolve().parents[2] / "rvc"
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


# ---------------------------------------------------------------------------
# the namespace: names, not modules


def star_imported(init: Path):
    """The modules an __init__ star-imports (``from .x import *``), in order."""
    return [n.module for n in ast.parse(init.read_text()).body
            if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module
            and any(a.name == "*" for a in n.names)]


def stray_modules(package, allowed) -> list:
    """Names in ``dir(package)`` bound to a module object, but ``allowed`` ones."""
    return sorted(n for n in dir(package)
                  if isinstance(getattr(package, n), types.ModuleType) and n not in allowed)


def subpackages(root: Path = RVC):
    return [layer for layer in ranks(root)[1] if (root / layer / "__init__.py").is_file()]


def test_rvc_exposes_no_module_but_its_layers():
    """``import rvc`` binds modules only to its layers (subpackages, checks, results), never a
    submodule that a star import carried (``rvc.velocity`` once hid Chapter 3's module)."""
    import rvc

    _, layers = ranks()
    assert {"checks", "results", "spatial", "kinematics", "models", "exercises"} <= set(layers)
    assert stray_modules(rvc, layers) == []
    fake = types.SimpleNamespace(velocity=types.ModuleType("rvc.kinematics.rates"), rotx=print)
    assert stray_modules(fake, layers) == ["velocity"]                # the check can fail


@pytest.mark.parametrize("layer", subpackages())
def test_a_subpackage_exposes_only_its_own_modules(layer):
    """``dir(rvc.<layer>)`` holds no module but the layer's own (``rvc.<layer>.<name>``).

    ``rvc.exercises`` is a module with code (``check``) as well as a package: the modules its
    code imports (``numpy`` as ``np`` ...) are its own business, but no other rvc module."""
    import importlib

    package = importlib.import_module(f"rvc.{layer}")
    own = {p.stem for p in (RVC / layer).glob("*.py")}
    if layer == "exercises":
        own |= {n for n in dir(package) if isinstance(getattr(package, n), types.ModuleType)
                and not getattr(package, n).__name__.startswith("rvc.")}
    assert stray_modules(package, own) == []
    for name in dir(package):
        obj = getattr(package, name)
        if isinstance(obj, types.ModuleType) and obj.__name__.startswith("rvc."):
            assert obj.__name__ == f"rvc.{layer}.{name}"


@pytest.mark.parametrize("layer", [layer for layer in subpackages() if star_imported(RVC / layer / "__init__.py")])
def test_a_subpackage_all_is_the_union_of_its_modules_all(layer):
    """Each subpackage lists its names in ``__all__``: those of the modules it star-imports."""
    import importlib

    package = importlib.import_module(f"rvc.{layer}")
    names = [n for m in star_imported(RVC / layer / "__init__.py")
             for n in importlib.import_module(f"rvc.{layer}.{m}").__all__]
    assert sorted(package.__all__) == sorted(names)
    assert all(not isinstance(getattr(package, n), types.ModuleType) for n in package.__all__)


def test_rvc_all_is_every_star_imported_layer_name():
    import importlib

    import rvc

    names = [n for layer in star_imported(RVC / "__init__.py")
             for n in importlib.import_module(f"rvc.{layer}").__all__]
    assert sorted(rvc.__all__) == sorted(["RVCWarning", "SingularityWarning", "Result", "set_language",
                                          "get_language", *names])


def test_every_name_exported_before_is_still_exported():
    """tests/data/public_names.txt: the names rvc and its layers exported before the namespace was
    cleaned (issue 18), each still reachable where it was (jacob_dot moved to rvc.kinematics)."""
    import importlib

    rows = [line.split() for line in (RVC.parent / "tests/data/public_names.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    assert len(rows) > 500
    missing = [f"{p}.{n}" for p, n in rows if not hasattr(importlib.import_module(p), n)]
    assert missing == []


def notebook_names():
    """(package, name) for every ``from rvc... import name`` and ``rvc.name`` in the notebooks' code."""
    import json
    import re

    found = set()
    for nb in sorted((RVC.parent / "notebooks").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            src = "\n".join(line for line in src.splitlines() if not line.lstrip().startswith(("%", "!")))
            try:
                tree = ast.parse(src)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "rvc":
                    found |= {(node.module, a.name) for a in node.names}
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "rvc"):
                    found.add(("rvc", node.attr))
            found |= {("rvc", m) for m in re.findall(r"^\s*import rvc\.(\w+)", src, re.M)}
    return found


def test_every_name_a_notebook_uses_is_exported():
    import importlib

    used = notebook_names()
    assert ("rvc", "jshtml") in used and ("rvc.models", "puma560") in used
    missing = []
    for package, name in sorted(used):
        module = importlib.import_module(package)
        if not hasattr(module, name):
            try:
                importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError:
                missing.append(f"{package}.{name}")
    assert missing == []


def module_stems(root: Path = RVC):
    """{stem: [layers]} of the modules of every subpackage."""
    out = {}
    for path in sorted(root.glob("*/*.py")):
        if path.stem != "__init__":
            out.setdefault(path.stem, []).append(path.parent.name)
    return out


def test_no_module_name_is_in_two_layers():
    """A module's name says what it holds, once: no stem in two subpackages (``ets``, ``velocity``,
    ``fivebar``, ``chain`` once were), so ``rvc.kinematics.rates`` cannot be mistaken for
    ``rvc.motion.velocity``."""
    assert {s: layers for s, layers in module_stems().items() if len(layers) > 1} == {}


def test_the_namespace_rules_can_fail(tmp_path):
    for layer in ("kinematics", "motion"):
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "velocity.py").write_text("")
    assert module_stems(tmp_path) == {"velocity": ["kinematics", "motion"]}
