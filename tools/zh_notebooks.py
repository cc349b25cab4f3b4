"""Write the Chinese notebooks, ``notebooks/zh/``, from the English ones and the book's catalogs.

    python tools/zh_notebooks.py            # write notebooks/zh/ for every notebook of _toc.yml
    python tools/zh_notebooks.py --check    # exit 1 if a Chinese notebook is stale (or missing)

Each markdown cell is cut into the same messages Sphinx's gettext builder cuts it into (a
paragraph, heading, list item or table cell, its line breaks read as spaces), by the same
markdown parser (MyST's), and every message is replaced by its translation from
``locale/zh_CN/LC_MESSAGES/notebooks/<name>.po`` (tools/i18n.py). A message without a
translation stays English and is reported. Code cells are copied unchanged, after one added cell
that sets the language of rvc's own text (``rvc.set_language("zh")``: check() feedback, rvc's
figure labels). So the notebooks a Chinese student runs and the Chinese web book come from the
same translations.

The outputs of a code cell are kept from the Chinese notebook when its source is unchanged
(they were made in Chinese); a new or changed code cell takes the English outputs, and
``tools/execute.py notebooks/zh/<name>.ipynb`` stores its Chinese ones (nbval tells which).
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import i18n  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks" / "zh"
LANGUAGE_CELL_ID = "set-language-zh"
LANGUAGE_CELL = ("# 中文版：rvc 的反馈 (check) 和图中的文字用中文。\n"
                 "import rvc\n"
                 "\n"
                 'rvc.set_language("zh")')
_EXTENSIONS = {"dollarmath", "amsmath", "colon_fence", "deflist"}
_DIRECTIVES_WITH_TEXT = {"note", "warning", "tip", "important", "hint", "seealso", "admonition",
                         "caution", "attention", "danger", "error", "dropdown", "margin", "sidebar"}


def _parser():
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    extensions = set(config.get("parse", {}).get("myst_enable_extensions", _EXTENSIONS))
    return create_md_parser(MdParserConfig(enable_extensions=extensions), RendererHTML)


_MD = None


def messages(source):
    """The translatable messages of markdown ``source``: (message, (first line, last line + 1),
    raw text); a message is an inline text with its line breaks read as spaces, as Sphinx's
    gettext builder reads it. The text of an admonition (``:::{note}``) is read too.

    >>> [m for m, span, raw in messages("# A title\\n\\nOne line\\nand two.\\n\\n- an item\\n")]
    ['A title', 'One line and two.', 'an item']
    """
    global _MD
    _MD = _MD or _parser()
    return _walk(source, 0)


def _walk(source, offset):
    found, span = [], None
    for token in _MD.parse(source):
        if token.map:
            span = (token.map[0] + offset, token.map[1] + offset)
        if token.type == "inline" and token.content.strip() and span:
            found.append((token.content.replace("\n", " ").strip(), span, token.content))
        elif token.type.startswith("math_block") or token.type == "amsmath":
            found.append((token.content, span, None))  # a maths block: its message is its text
        elif token.type in ("fence", "colon_fence") and token.map and token.info.strip().startswith("{"):
            name = token.info.strip()[1:].split("}")[0]
            if name in _DIRECTIVES_WITH_TEXT:
                found += _walk(token.content, token.map[0] + 1 + offset)
    return found


def translate_markdown(source, translations):
    """``source`` with each message that ``translations`` (msgid -> msgstr) has replaced.

    Returns the new source and the messages left untranslated.

    >>> zh = {"Poses": "位姿", "A pose is a frame.": "位姿是坐标系。"}
    >>> translate_markdown("## Poses\\n\\nA pose is\\na frame.\\n", zh)
    ('## 位姿\\n\\n位姿是坐标系。\\n', [])
    """
    lines = source.split("\n")
    missing, edits, maths, cursor = [], [], [], {}
    for message, (first, end), raw in messages(source):
        target = translations.get(message)
        if raw is None:                    # maths: changed only where a \\text{} was translated
            if target is None:
                missing.append(message)
            elif target != message:
                maths.append((message, target))
            continue
        if not target:
            missing.append(message)
            continue
        raw_lines = raw.split("\n")
        if len(raw_lines) == 1:            # a heading, a one-line paragraph or item, a table cell
            if not _replace_in_line(lines, range(first, end), raw, target, cursor):
                missing.append(message)
            continue
        # A paragraph over several lines: its first line keeps its prefix (list marker,
        # indentation, quote) and takes the whole translation; its other lines go.
        start = next((i for i in range(first, end) if raw_lines[0] in lines[i]), None)
        if start is None or start + len(raw_lines) > len(lines):
            missing.append(message)
            continue
        head = lines[start]
        edits.append((start, start + len(raw_lines),
                      [head[:head.index(raw_lines[0])] + target]))
    for begin, stop, new in sorted(edits, key=lambda e: -e[0]):
        lines[begin:stop] = new
    source = "\n".join(lines)
    for message, target in maths:
        if message in source:
            source = source.replace(message, target, 1)
        else:
            missing.append(message)
    return source, missing


def _replace_in_line(lines, candidates, raw, target, cursor):
    """Replace ``raw`` by ``target`` in the first of the ``candidates`` lines that has it as a
    whole (not inside a longer word), after what was replaced on that line before (the cells of
    a table row come left to right)."""
    left = r"(?<!\w)" if re.match(r"\w", raw) else ""
    right = r"(?!\w)" if re.search(r"\w$", raw) else ""
    pattern = re.compile(left + re.escape(raw) + right)
    for i in candidates:
        found = pattern.search(lines[i], cursor.get(i, 0))
        if found:
            lines[i] = lines[i][:found.start()] + target + lines[i][found.end():]
            cursor[i] = found.start() + len(target)
            return True
    return False


def catalog_translations(name):
    """msgid -> msgstr of the notebook ``name``'s catalog (translated, not fuzzy, entries only)."""
    path = i18n.CATALOGS / "notebooks" / f"{name}.po"
    if not path.exists():
        return {}
    return {m.id: m.string for m in i18n.read_catalog(path) if m.id and m.string and not m.fuzzy}


def chinese_notebook(english_path, previous=None):
    """The Chinese notebook of ``english_path`` (an nbformat node) and its untranslated messages.

    ``previous``: the Chinese notebook as it is, whose outputs are kept for unchanged code cells.
    """
    nb = nbformat.read(english_path, as_version=4)
    translations = catalog_translations(Path(english_path).stem)
    kept = {}
    if previous is not None:
        kept = {cell.get("id"): cell for cell in previous.cells if cell.cell_type == "code"}
    missing = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source, left = translate_markdown(cell.source, translations)
            missing += left
        elif cell.cell_type == "code":
            old = kept.get(cell.get("id"))
            if old is not None and old.source == cell.source:
                cell.outputs = copy.deepcopy(old.outputs)
                cell.execution_count = old.get("execution_count")
    language = nbformat.v4.new_code_cell(LANGUAGE_CELL, metadata={"tags": ["remove-cell"]})
    language.id = LANGUAGE_CELL_ID                   # in the web book, hidden like the install cell
    old = kept.get(LANGUAGE_CELL_ID)
    language.outputs = copy.deepcopy(old.outputs) if old is not None else []
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
    if first_code < len(nb.cells) and nb.cells[first_code].get("id") == "install-rvc":
        first_code += 1
    nb.cells.insert(first_code, language)
    nb.metadata["rvc_translation"] = {"language": "zh_CN", "source": f"../{Path(english_path).name}"}
    return nb, missing


def toc_notebooks():
    text = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    return [ROOT / (line.split("file:")[1].strip() + ".ipynb") for line in text.splitlines()
            if "file: notebooks/" in line]


def _same(a, b):
    strip = lambda nb: [(c.cell_type, c.source, c.metadata.get("tags")) for c in nb.cells]  # noqa: E731
    return strip(a) == strip(b) and a.metadata.get("rvc_translation") == b.metadata.get("rvc_translation")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a Chinese notebook is stale")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    stale = 0
    for english in toc_notebooks():
        target = OUT / english.name
        previous = nbformat.read(target, as_version=4) if target.exists() else None
        nb, missing = chinese_notebook(english, previous)
        up_to_date = previous is not None and _same(nb, previous)
        if args.check:
            if not up_to_date:
                stale += 1
                print(f"{target.relative_to(ROOT)} is stale: run python tools/zh_notebooks.py")
            continue
        if not up_to_date:
            nbformat.write(nb, target)
        print(f"{target.relative_to(ROOT)}: {len(missing)} messages untranslated"
              + ("" if up_to_date else " (written)"))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
