"""Issue 22, section 2: the book's launch buttons open the student branch of the project's own
repository, and Binder builds it with Python 3.11 within the course's pins."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())


def test_the_launch_buttons_open_the_student_branch_of_this_repository():
    repo = CONFIG["repository"]
    assert repo["branch"] == "student"
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", repo["url"])
    assert "executablebooks" not in repo["url"] and "jupyter-book" not in repo["url"]
    buttons = CONFIG["launch_buttons"]
    assert buttons["binderhub_url"] == "https://mybinder.org"
    assert buttons["colab_url"] == "https://colab.research.google.com"
    assert buttons["jupyterhub_url"].startswith("https://")
    assert buttons["thebe"] is False                        # links only: no kernel from the book


def test_binder_uses_python_311_and_the_course_pins():
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.11"
    lines = [x.split("#")[0].strip() for x in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    lines = [x for x in lines if x]
    assert lines[0] == "-c ../constraints.txt" and (ROOT / "binder" / "../constraints.txt").exists()
    pinned = {re.split(r"[=<>; ]", x)[0].lower() for x in (ROOT / "constraints.txt").read_text().splitlines()
              if x and not x.startswith("#")}
    wanted = {re.split(r"[=<>; ]", x)[0].lower() for x in lines[1:]}
    assert wanted and wanted <= pinned, wanted - pinned
    course = {re.split(r"[=<>; ]", x.split("#")[0].strip())[0].lower()
              for x in (ROOT / "requirements.txt").read_text().splitlines() if x.split("#")[0].strip()}
    assert {"numpy", "scipy", "sympy", "matplotlib", "ipywidgets", "ipykernel"} <= wanted <= course
    assert "pip install --no-deps -e ." in (ROOT / "binder" / "postBuild").read_text()


def test_the_student_branch_is_written_by_make_student_and_published_by_the_workflow():
    script = (ROOT / ".ci" / "student-branch").read_text()
    assert "rvc.exercises.student notebooks" in script and "git branch -f student" in script
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "student.yml").read_text())
    steps = [s.get("run", "") for s in workflow["jobs"]["publish"]["steps"]]
    assert any(".ci/student-branch" in s for s in steps) and any("git push --force origin student" in s
                                                                for s in steps)
    assert workflow["permissions"] == {"contents": "write"}
