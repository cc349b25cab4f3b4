"""Issue 22, section 2: hosted kernels have no rvc, so each notebook's first code cell installs it
(tools/install_cell.py writes that cell from one template)."""

import io
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
import yaml

import rvc
from rvc.exercises.student import write_student_copies

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import install_cell  # noqa: E402

NOTEBOOKS = install_cell.notebooks()
#: pip asked for the PyPI project named rvc (an unrelated one), however spelled.
PIP_RVC = re.compile(r"pip\W+install\W+(?:-\S+\s+)*[\"']?rvc(?![\w-])", re.I)
URL = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
REQUIREMENT = f"rvc-course @ git+{URL}@v{rvc.__version__}"


def _first_code(nb):
    return next(c for c in nb.cells if c.cell_type == "code")


def test_the_template_installs_the_course_release_from_the_configured_repository():
    source = install_cell.cell_source()
    assert f'"{REQUIREMENT}"' in source
    assert install_cell.release_tag() == f"v{rvc.__version__}"
    assert not PIP_RVC.search(source) and not PIP_RVC.search(install_cell.TEMPLATE)
    compile(source, "install cell", "exec")                      # plain Python: no magics
    assert PIP_RVC.search('!pip install rvc') and PIP_RVC.search('pip install --quiet "rvc"')
    assert not PIP_RVC.search("pip install rvc-course")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_notebook_starts_with_the_install_cell(path):
    nb = nbformat.read(path, as_version=4)
    cell = _first_code(nb)
    assert cell.source == install_cell.cell_source(), "run: python tools/install_cell.py"
    assert "remove-cell" in cell.metadata.get("tags", [])
    assert cell.outputs == []                                    # it prints nothing where rvc is installed
    assert sum(install_cell.is_install_cell(c) for c in nb.cells) == 1
    assert not PIP_RVC.search(path.read_text())


def test_make_student_keeps_the_install_cell(tmp_path):
    write_student_copies(ROOT / "notebooks", tmp_path, out=io.StringIO())
    for path in NOTEBOOKS:
        copy = nbformat.read(tmp_path / path.name, as_version=4)
        cell = _first_code(copy)
        assert cell.source == install_cell.cell_source(), path.name
        assert "remove-cell" in cell.metadata.get("tags", []), path.name


def test_the_tool_is_idempotent_and_mends_a_moved_or_stale_cell():
    imports = nbformat.v4.new_code_cell("import rvc")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title"), imports])
    source = install_cell.cell_source()
    assert install_cell.update(nb, source) is True
    assert [c.cell_type for c in nb.cells] == ["markdown", "code", "code"] and nb.cells[1].source == source
    before = json.dumps(nb, sort_keys=True)
    assert install_cell.update(nb, source) is False and json.dumps(nb, sort_keys=True) == before
    stale = source.replace(f"v{rvc.__version__}", "v0.0.1")
    nb.cells[1].source = stale
    nb.cells.append(nbformat.v4.new_code_cell(source))           # a stray copy further down
    assert install_cell.update(nb, source) is True
    assert [c.source for c in nb.cells if c.cell_type == "code"] == [source, "import rvc"]
    nbformat.validate(nb)


def test_the_tool_names_a_bad_repository_url(tmp_path):
    (tmp_path / "_config.yml").write_text("repository:\n  url: git@github.com:x/y.git\n")
    with pytest.raises(ValueError, match=r"repository.url like https://github.com/owner/repo, got 'git@"):
        install_cell.repository_url(tmp_path)


RUN_CELL = """
import importlib.abc, json, subprocess, sys
MISSING = {missing!r}                      # the module the import reports missing, or None
calls = []

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if MISSING and (name == "rvc" or name.startswith("rvc.")):
            raise ModuleNotFoundError(f"No module named {{MISSING!r}}", name=MISSING)

def fake_pip(command, check):             # pip "installs": the finder lets rvc through
    global MISSING
    calls.append(command)
    MISSING = None

sys.meta_path.insert(0, NotInstalled())
subprocess.run = fake_pip
try:
    exec(compile(open(sys.argv[1]).read(), "cell", "exec"), {{}})
    outcome = "imported" if "rvc.exercises" in sys.modules else "not imported"
except ModuleNotFoundError as exc:
    outcome = f"raised {{exc.name}}"
print(json.dumps({{"calls": calls, "outcome": outcome, "python": sys.executable}}))
"""


@pytest.mark.parametrize("missing, installs, outcome", [
    (None, False, "imported"),                # the course's venv: nothing to do, nothing printed
    ("rvc", True, "imported"),                # a hosted kernel: pip, then the import succeeds
    ("rvc.exercises", True, "imported"),      # the unrelated PyPI project that is also imported as rvc
    ("scipy", False, "raised scipy"),         # rvc is there but broken: the real error, no install
])
def test_the_cell_installs_only_when_rvc_is_missing(tmp_path, missing, installs, outcome):
    (tmp_path / "cell.py").write_text(install_cell.cell_source())
    (tmp_path / "run.py").write_text(textwrap.dedent(RUN_CELL.format(missing=missing)))
    done = subprocess.run([sys.executable, "run.py", "cell.py"], cwd=tmp_path, capture_output=True, text=True,
                          check=True)
    *printed, last = done.stdout.splitlines()
    result = json.loads(last)
    assert printed == [] and done.stderr == ""
    assert result["outcome"] == outcome
    expected = [[result["python"], "-m", "pip", "install", "--quiet", REQUIREMENT]] if installs else []
    assert result["calls"] == expected
