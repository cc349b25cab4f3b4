"""Every section heading of the notes (chapters 2, 3, 7, 8, 9) has a home in a notebook.

``tests/data/notes_headings.txt`` lists the headings as the notes print them
(number, English title, often the Chinese title run on). A notebook heading
must carry the same number and the English title.
"""

import re
from collections import Counter
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOC = (ROOT / "_toc.yml").read_text()
NOTEBOOKS = [ROOT / f"{name}.ipynb" for name in re.findall(r"file:\s*(notebooks/\S+)", TOC)]
NOTES = [line.strip() for line in (ROOT / "tests/data/notes_headings.txt").read_text().splitlines()
         if line.strip()]


def words(text: str) -> list[str]:
    """Lower-case ASCII words of a title (drops Chinese, brackets, punctuation)."""
    text = re.sub(r"\[.*?\]", " ", text)  # e.g. "[examples/drawing.m]"
    return re.findall(r"[a-z0-9]+", text.lower())


def notebook_headings() -> dict:
    found = {}
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            for line in cell.source.splitlines():
                m = re.match(r"#+\s*(?:Chapter\s+)?(\d+(?:\.\d+)*)[:\s]+(.*)", line)
                if m:
                    found.setdefault(m.group(1), (path.name, m.group(2)))
    return found


HEADINGS = notebook_headings()


@pytest.mark.parametrize("heading", NOTES)
def test_heading_has_a_home(heading):
    number, title = heading.split(" ", 1)
    assert number in HEADINGS, f"no notebook heading numbered {number} ({title})"
    where, text = HEADINGS[number]
    wanted = [w for w in words(title) if len(w) > 1]
    have = set(words(text))
    missing = [w for w in wanted if w not in have]
    assert not missing, f"{where}: heading {number} {text!r} lacks {missing} of {title!r}"


def test_the_list_is_the_notes():
    """Spot-check the list against headings the notes are known to have, chapter by chapter."""
    chapters = Counter(h.split(".")[0] for h in NOTES)
    assert chapters["2"] + chapters["3"] + chapters["7"] == 71
    assert "2.2.1.3 Singularities and Gimbal Lock 奇异点现象和万向节锁" in NOTES
    assert "7.5.2 A Simple Walking Robot [examples/walking.m]" in NOTES
    assert chapters["8"] == 19                          # 8.1 to 8.7.1
    assert "8.2 Jacobian Condition and Manipulability雅克比条件和可操纵性" in NOTES
    assert "8.7.1 Computing the Manipulator Jacobian Using Twists" in NOTES


def test_chapter_9_is_listed():
    """The notes' chapter 9 has 24 headings, 9.1 to 9.5.1."""
    ch9 = [h for h in NOTES if h.startswith("9.")]
    assert len(ch9) == 24
    assert ch9[0] == "9.1 Independent Joint Control"
    assert ch9[-1].startswith("9.5.1 Series-Elastic Actuator (SEA)")
