"""The Chinese edition's catalogs (locale/zh_CN) against the English source, and the Chinese notebooks.

Every translation keeps its markup, uses the glossary's terms and is Chinese; the merge marks an
edited message fuzzy; the Chinese notebooks are what tools/zh_notebooks.py writes from the English
notebooks and the catalogs. (That every message of the English book as it is now has a current
translation is checked with the book's own toolchain: tests/book/test_translations_current.py.)
"""

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import i18n  # noqa: E402
import zh_notebooks  # noqa: E402

FIX = "run `python tools/i18n.py update`, translate what `python tools/i18n.py check` reports"


def test_every_translation_keeps_its_markup_and_the_glossary_terms():
    problems = []
    for po in sorted(i18n.CATALOGS.rglob("*.po")):
        for message in i18n.read_catalog(po):
            if message.id and message.string:
                problems += [f"{po.name}: {message.id[:60]!r}: {p}"
                             for p in i18n.message_problems(message.id, message.string, str(po))]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_a_changed_english_paragraph_makes_its_translation_fuzzy(tmp_path):
    """The merge the project uses (sphinx-intl update) marks the translation of an edited
    message fuzzy, which the tests above then report, until a translator mends it."""
    pot, locale = tmp_path / "pot", tmp_path / "locale"
    (pot).mkdir()
    template = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                'msgid "A rotation matrix is orthonormal."\nmsgstr ""\n')
    (pot / "page.pot").write_text(template, encoding="utf-8")
    run = [str(Path(sys.executable).parent / "sphinx-intl"), "update", "-p", str(pot), "-d", str(locale),
           "-l", "zh_CN", "-w", "0"]
    subprocess.run(run, check=True, capture_output=True)
    po = locale / "zh_CN" / "LC_MESSAGES" / "page.po"
    catalog = i18n.read_catalog(po)
    catalog.get("A rotation matrix is orthonormal.").string = "旋转矩阵是正交的。"
    i18n.write_catalog(catalog, po)
    (pot / "page.pot").write_text(template.replace("is orthonormal.", "is always orthonormal."), encoding="utf-8")
    subprocess.run(run, check=True, capture_output=True)
    entry = i18n.read_catalog(po).get("A rotation matrix is always orthonormal.")
    assert entry is not None and entry.fuzzy and entry.string == "旋转矩阵是正交的。"


def test_the_translation_checks_can_fail():
    problems = i18n.message_problems
    assert problems("Use `rotx` here.", "在这里使用 `rotz`。")[0].startswith("markup changed")
    assert problems("See $R^T$.", "见 $R$。")[0].startswith("markup changed")
    assert problems("Go to [7.2](07-2_inverse_kinematics.ipynb).", "见 [7.2](x.ipynb)。")[0].startswith("markup")
    assert problems("The Jacobian is singular.", "雅可比行列式是奇异的。") == [
        "glossary term jacobian: 雅可比矩阵"]
    assert problems("Twists are screws.", "旋量是螺旋。") == ["glossary term twist: 运动旋量"]
    assert problems("A sentence left in English here.", "A sentence left in English here.") == [
        "no Chinese in the translation"]
    assert problems("Corke, P. Robotics, Vision and Control.", "Corke, P. Robotics, Vision and Control.",
                    "book/references.po") == []
    assert problems("Anything", "") == ["not translated"]


def test_a_glossary_term_translated_two_ways_is_flagged():
    """Each English term of the glossary has one Chinese term; a message that renders it
    another way is reported, singular or plural, British or American spelling."""
    assert i18n.term_problems("Rotation matrices and their centres of rotation",
                              "旋转矩阵及其旋转中心") == []
    assert i18n.term_problems("the centre of rotation", "转动的中心") == ["center of rotation: 旋转中心"]
    assert i18n.term_problems("Jacobian singularities", "雅可比矩阵的奇异点") == []
    assert i18n.term_problems("Jacobian singularities", "雅可比矩阵的奇点") == ["singularity: 奇异点"]
    assert i18n.term_problems("`twist` is a function", "`twist` 是一个函数") == []   # code is not prose


def test_the_glossary_pairs_every_english_term_with_chinese():
    terms = i18n.glossary_terms()
    assert len(terms) >= 60
    assert all(chinese and all(i18n._CJK.search(c) for c in chinese) for _, chinese in terms), terms


def test_the_chinese_notebooks_are_written_from_the_catalogs():
    assert zh_notebooks.main(["--check"]) == 0, "run python tools/zh_notebooks.py, then make execute"


@pytest.mark.parametrize("english", zh_notebooks.toc_notebooks(), ids=lambda p: p.stem)
def test_a_chinese_notebook_is_the_english_one_translated(english):
    """Every markdown message is translated; the code is the English code, after the one cell
    that sets the language."""
    chinese = nbformat.read(zh_notebooks.OUT / english.name, as_version=4)
    _, missing = zh_notebooks.chinese_notebook(english)
    assert not missing, f"{len(missing)} messages left in English, e.g. {missing[:3]}"
    code = [c.source for c in nbformat.read(english, as_version=4).cells if c.cell_type == "code"]
    zh_code = [c for c in chinese.cells if c.cell_type == "code"]
    assert [c.source for c in zh_code if c.get("id") != zh_notebooks.LANGUAGE_CELL_ID] == code
    assert sum(c.get("id") == zh_notebooks.LANGUAGE_CELL_ID for c in zh_code) == 1
    markdown = "".join(c.source for c in chinese.cells if c.cell_type == "markdown")
    assert len(i18n._CJK.findall(markdown)) > 0.5 * len(markdown.split()), "too little Chinese"


def test_the_notebook_translator_keeps_the_markdown_structure():
    source = ("# 2.1 Poses\n\nA pose is\na frame.\n\n- one item\n  over two lines\n- `code` item\n\n"
              "| a | b |\n|---|---|\n| left | right |\n\n$$\nx = 1 \\quad \\text{here}\n$$\n")
    translations = {"2.1 Poses": "2.1 位姿", "A pose is a frame.": "位姿是坐标系。",
                    "one item over two lines": "跨两行的一项", "`code` item": "`code` 项", "a": "甲",
                    "b": "乙", "left": "左", "right": "右",
                    "\nx = 1 \\quad \\text{here}\n": "\nx = 1 \\quad \\text{此处}\n"}
    out, missing = zh_notebooks.translate_markdown(source, translations)
    assert missing == []
    assert out == ("# 2.1 位姿\n\n位姿是坐标系。\n\n- 跨两行的一项\n- `code` 项\n\n"
                   "| 甲 | 乙 |\n|---|---|\n| 左 | 右 |\n\n$$\nx = 1 \\quad \\text{此处}\n$$\n")
    _, missing = zh_notebooks.translate_markdown(source, {})
    assert "A pose is a frame." in missing


def test_the_chinese_student_copies_are_written(tmp_path):
    """make student writes the Chinese notebooks' student copies too (student/zh)."""
    from rvc.exercises.student import write_student_copies

    status = write_student_copies(zh_notebooks.OUT, tmp_path / "zh", out=open("/dev/null", "w"))
    assert set(status) == {p.name for p in zh_notebooks.toc_notebooks()}
    assert set(status.values()) == {"written"}
    shutil.rmtree(tmp_path / "zh")


def test_the_navigation_captions_are_translated():
    import zh_book

    captions = zh_book.toc_captions((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    chinese = zh_book.toc_captions(zh_book.chinese_toc())
    assert len(captions) == len(chinese) >= 3
    assert all(i18n._CJK.search(c) for c in chinese), chinese
