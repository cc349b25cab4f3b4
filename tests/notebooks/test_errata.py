"""The errata page (book/errata.md) and the notebooks' remarks agree (no kernel, no build).

Where the course differs from the notes (a printed value, a command, a formula), the
notebook says so in a markdown paragraph marked with a MyST target, ``(errata-...)=`` on
the line before it, and book/errata.md lists it, chapter by chapter, with a
``{ref}`text <errata-...>``` link to that target.  A paragraph that reads like such a remark
(:data:`REMARK`) must carry a target; every target must have its entry and every entry
its target.  (The built book's link check, tests/book, resolves the links themselves.)
"""

import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
ERRATA = ROOT / "book" / "errata.md"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: Phrases that say the course and the notes (or the book, or MATLAB's printout) differ.
REMARK = re.compile(r"differs? from the notes|the notes (?:print|write)\b|the notes' print\b"
                    r"|does not reproduce (?:the )?(?:matrix|value|number|result)"
                    r"|not the numbers MATLAB prints|corrections? to the notes|\btypo\b|contradicts"
                    r"|counts? it twice|the book prints|cannot match the book", re.IGNORECASE)
TARGET = re.compile(r"^\((errata-[a-z0-9-]+)\)=$")
REF = re.compile(r"\{ref\}`[^`<]*<(errata-[a-z0-9-]+)>`")


def paragraphs(markdown: str) -> list:
    """The blocks of a markdown cell, split at blank lines."""
    return [p for p in re.split(r"\n\s*\n", markdown) if p.strip()]


def remarks_and_targets(cells) -> tuple:
    """(the remark paragraphs with no target, every target), over markdown ``cells``.

    >>> cells = [nbformat.v4.new_markdown_cell("Intro.\\n\\n(errata-x)=\\nThe notes print 2; it is 3."),
    ...          nbformat.v4.new_markdown_cell("Here the notes write $a$ for $b$.")]
    >>> unmarked, targets = remarks_and_targets(cells)
    >>> unmarked, targets
    (['Here the notes write $a$ for $b$.'], ['errata-x'])
    """
    unmarked, targets = [], []
    for cell in cells:
        if cell.cell_type != "markdown":
            continue
        for block in paragraphs(cell.source):
            first = block.strip().splitlines()[0].strip()
            target = TARGET.match(first)
            if target:
                targets.append(target.group(1))
            elif REMARK.search(block):
                unmarked.append(block.strip()[:160])
    return unmarked, targets


def notebook_targets() -> dict:
    """Every errata target of the notebooks -> the notebook it is in; fails on a remark without one."""
    found, unmarked = {}, []
    for path in NOTEBOOKS:
        missing, targets = remarks_and_targets(nbformat.read(path, as_version=4).cells)
        unmarked += [f"{path.name}: {text}" for text in missing]
        for name in targets:
            assert name not in found, f"{name} is in {found[name]} and in {path.name}"
            found[name] = path.name
    assert not unmarked, ("remarks where the course differs from the notes, with no (errata-...)= target "
                          "before them (add one, and an entry in book/errata.md):\n" + "\n".join(unmarked))
    return found


def test_every_remark_has_a_target_and_an_entry_and_every_entry_a_target():
    targets = notebook_targets()
    entries = REF.findall(ERRATA.read_text(encoding="utf-8"))
    assert len(entries) == len(set(entries)), "an errata entry is listed twice"
    assert sorted(set(targets) - set(entries)) == [], "remarks with no entry in book/errata.md"
    assert sorted(set(entries) - set(targets)) == [], "errata entries whose target no notebook has"


def test_the_errata_page_is_in_the_book_and_ordered_by_chapter():
    assert re.search(r"file:\s*book/errata\s*$", (ROOT / "_toc.yml").read_text(), re.MULTILINE)
    chapters = [int(n) for n in re.findall(r"^## Chapter (\d+)", ERRATA.read_text(encoding="utf-8"), re.M)]
    assert chapters == sorted(chapters) and chapters, chapters
    targets = notebook_targets()
    text = ERRATA.read_text(encoding="utf-8")
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        number = section.split(":")[0].replace("Chapter ", "").strip()
        for name in REF.findall(section):          # an entry sits under its notebook's chapter
            assert targets[name].startswith(number.zfill(2)), (name, targets[name], number)


def test_the_errata_check_can_fail():
    cells = [nbformat.v4.new_markdown_cell("(errata-a)=\nThis differs from the notes.\n\nSo does this: a typo.")]
    unmarked, targets = remarks_and_targets(cells)
    assert targets == ["errata-a"] and unmarked == ["So does this: a typo."]
    assert REF.findall("x {ref}`9.4.3 <errata-lambda-typo>` y") == ["errata-lambda-typo"]
