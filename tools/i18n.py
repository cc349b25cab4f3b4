"""The Chinese edition's translation catalogs: one source for the web book, the PDF and the notebooks.

The English text is the source. Sphinx's gettext builder cuts every page of the book (the
``book/*.md`` pages and the notebooks' markdown cells) into messages, one per paragraph, heading,
list item or table cell; ``sphinx-intl`` merges them into one catalog per page under
``locale/zh_CN/LC_MESSAGES/`` (``notebooks/02_pose.po`` ...), where each message has its Chinese
translation. When an English paragraph changes, the merge marks its translation *fuzzy* (or leaves
a new paragraph untranslated), and ``tests/book/test_translations.py`` fails until it is mended.

    python tools/i18n.py update      # extract the messages and merge them into locale/ (and
                                     # rvc's own, rvc/locale/zh_CN.po: hints, figure text)
    python tools/i18n.py status      # per catalog: messages, translated, fuzzy, empty
    python tools/i18n.py check [PO]  # every problem: untranslated, fuzzy, markup or a term changed
    python tools/i18n.py notebooks   # write notebooks/zh/ from notebooks/ and the catalogs

A message with no words in it (a formula, a number, a code name) needs no translator: ``update``
fills its translation with the message itself.
"""

import argparse
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
LANGUAGE = "zh_CN"
CATALOGS = LOCALE / LANGUAGE / "LC_MESSAGES"
GETTEXT_OUT = ROOT / "_build" / "gettext"
BIN = Path(sys.executable).parent


def book_config(path, *, title=None, execute=None, **sphinx_config):
    """Write the book's ``_config.yml`` to ``path``, with the local extensions' folders made
    absolute (the file may be anywhere), ``title`` and ``execute`` (a dict of the ``execute:``
    options) in place of the book's, and ``sphinx_config`` merged into ``sphinx.config``."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    if title is not None:
        config["title"] = title
    config.setdefault("execute", {}).update(execute or {})
    sphinx = config.setdefault("sphinx", {})
    sphinx["local_extensions"] = {name: str((ROOT / folder).resolve())
                                  for name, folder in (sphinx.get("local_extensions") or {}).items()}
    sphinx.setdefault("config", {}).update(sphinx_config)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def extract(out=GETTEXT_OUT):
    """Cut the English book into message templates (``.pot``), one per page, under ``out``.

    The notebooks are not executed: only their markdown is translated.
    """
    config = book_config(ROOT / "_build" / "gettext-config.yml", execute={"execute_notebooks": "off"},
                         gettext_compact=False, gettext_uuid=False, gettext_location=False,
                         gettext_last_translator="rvc")
    build = out.parent / "gettext-build"
    shutil.rmtree(build, ignore_errors=True)
    subprocess.run([str(BIN / "jupyter-book"), "build", str(ROOT), "--config", str(config),
                    "--builder", "custom", "--custom-builder", "gettext", "--path-output", str(build),
                    "--warningiserror", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(build / "_build" / "gettext", out)
    return out


_NO_WORDS = [
    re.compile(r"\$\$.*?\$\$", re.S),   # display maths
    re.compile(r"\$[^$]*\$"),           # inline maths
    re.compile(r"`[^`]*`"),             # code
    re.compile(r"\\[A-Za-z]+"),         # TeX commands in a maths block
    re.compile(r"\b[0-9.eE+\-x×%]+\b"),  # numbers
]


def needs_translator(msgid):
    r"""Whether a message has words in it (else its translation is the message itself).

    A maths block (a message with a TeX command or a leading line break and no ``$`` or code:
    the text of a ``$$ ... $$`` or ``amsmath`` block) has words only in its ``\text{...}``.

    >>> needs_translator("$R^T R = I$"), needs_translator("`rotx`"), needs_translator("The rotation")
    (False, False, True)
    >>> needs_translator("\nR = \\begin{pmatrix} a & b \\end{pmatrix}\n")
    False
    >>> needs_translator("\nu = 0 \\quad \\text{at the home pose}\n")
    True
    >>> needs_translator("u = K_v(\\omega^* - \\omega) + \\frac{\\tau_{max}}{K_m}")
    False
    """
    if "$" not in msgid and "`" not in msgid and re.search(r"\\[A-Za-z]+|^\n", msgid):
        return any(re.search(r"[A-Za-z]{2,}", text) for text in re.findall(r"\\text\{([^}]*)\}", msgid))
    text = msgid
    for pattern in _NO_WORDS:
        text = pattern.sub(" ", text)
    return re.search(r"[A-Za-z]{2,}", text) is not None


def read_catalog(path):
    from babel.messages.pofile import read_po

    with open(path, "rb") as f:
        return read_po(f)


def write_catalog(catalog, path):
    from babel.messages.pofile import write_po

    with open(path, "wb") as f:
        write_po(f, catalog, width=0, include_previous=True)


def update():
    """Extract the English messages and merge them into the catalogs (``sphinx-intl update``);
    fill the translation of every message that has no words."""
    extract()
    subprocess.run([str(BIN / "sphinx-intl"), "update", "-p", str(GETTEXT_OUT), "-d", str(LOCALE),
                    "-l", LANGUAGE, "-w", "0", "-j", "1"], check=True, stdout=subprocess.DEVNULL)
    for path in sorted(CATALOGS.rglob("*.po")):
        template = GETTEXT_OUT / path.relative_to(CATALOGS).with_suffix(".pot")
        if path.name == "toc.po":           # the navigation's captions (tools/zh_book.py)
            continue
        if not template.exists():           # a page that left the book: its catalog goes too
            path.unlink()
            continue
        catalog = read_catalog(path)
        changed = False
        for message in catalog:
            if message.id and not message.string and not needs_translator(message.id):
                message.string = message.id
                changed = True
        if changed:
            write_catalog(catalog, path)
    for path in sorted(CATALOGS.rglob("*.mo")):
        path.unlink()
    update_rvc()
    status()


_ROLE = re.compile(r"\{[a-z:-]+\}`[^`]*`")
_CODE = re.compile(r"``.+?``|`[^`]+`")
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)
_LINK = re.compile(r"\]\(([^)]*)\)")
_CJK = re.compile(r"[\u3400-\u9fff]")


def markup(text, fields=False):
    """What a translation must keep of its message: code, maths, link and cross-reference
    targets (a role's own text, before ``<target>``, may be translated); with ``fields``, the
    ``{name}`` fields of rvc's own messages.

    >>> markup("See {ref}`the poses <poses>`, `rotx(0.3)` and $R^T$ [here](a.ipynb).")
    [('code', '`rotx(0.3)`'), ('link', 'a.ipynb'), ('math', '$R^T$'), ('role', '{ref}<poses>')]
    """
    found = []
    for role in _ROLE.findall(text):
        name, body = role.split("}", 1)
        target = re.search(r"<([^>]*)>`$", body)
        found.append(("role", name + "}" + (f"<{target.group(1)}>" if target else body.strip("`"))))
    text = _ROLE.sub(" ", text)
    found += [("code", code) for code in _CODE.findall(text)]
    text = _CODE.sub(" ", text)
    found += [("math", re.sub(r"\s+", " ", math)) for math in _MATH.findall(text)]
    text = _MATH.sub(" ", text)
    found += [("link", link) for link in _LINK.findall(text)]
    if fields:                                      # rvc's own catalog: its {name} fields
        found += [("field", field) for field in re.findall(r"\{\w+\}", text)]
    return sorted(found)


def prose(text):
    """The message without its code, maths, roles and link targets."""
    for pattern in (_ROLE, _CODE, _MATH, _LINK):
        text = pattern.sub(" ", text)
    return text


def glossary_terms(path=ROOT / "book" / "glossary.md"):
    """The course's terminology list: (English term, accepted Chinese terms) from the glossary's
    entries ``English, English (中文, 中文)``; when both sides list as many terms, they pair up."""
    text = path.read_text(encoding="utf-8")
    block = text[text.index("```{glossary}"):]
    terms = []
    for line in block.splitlines()[1:]:
        entry = re.fullmatch(r"(\S[^(]*?) \((.+)\)", line)
        if not entry:
            continue
        english = [t.strip() for t in entry.group(1).split(",")]
        chinese = [t.strip() for t in entry.group(2).split(",")]
        for i, term in enumerate(english):
            terms.append((term, [chinese[i]] if len(chinese) == len(english) else chinese))
    return terms


def _term_pattern(term):
    words = [re.escape(w) for w in re.split(r"[\s-]+", term.lower())]
    last = words[-1]
    if last.endswith("ix"):
        last = last[:-2] + "(?:ix|ices)"
    elif last.endswith("y"):
        last = last[:-1] + "(?:y|ies)"
    else:
        last += "(?:s|es)?"
    words[-1] = last
    words = [w.replace("center", "cent(?:er|re)") for w in words]
    return re.compile(r"\b" + r"[\s-]+".join(words) + r"\b")


_TERMS = None

#: Phrases where a glossary term's English word means something else, so its Chinese term is
#: not asked for: a D-H "link twist" (or a "pure twist" of a link) is an angle (连杆扭角), not a
#: twist (运动旋量).
NOT_THE_TERM = {"twist": ["link twist", "pure twist"]}


def term_problems(msgid, msgstr):
    """Glossary terms of ``msgid`` whose Chinese term ``msgstr`` does not use.

    >>> term_problems("The Jacobian at a singularity", "奇异点处的雅可比矩阵")
    []
    >>> term_problems("Two twists", "两个旋量")
    ['twist: 运动旋量']
    >>> term_problems("a link twist of 90 degrees", "连杆扭角为 90 度")
    []
    """
    global _TERMS
    if _TERMS is None:
        _TERMS = [(term, _term_pattern(term), chinese) for term, chinese in glossary_terms()]
    text = prose(msgid).lower()
    problems = []
    for term, pattern, chinese in _TERMS:
        used = text
        for phrase in NOT_THE_TERM.get(term.lower(), []):
            used = _term_pattern(phrase).sub(" ", used)
        if pattern.search(used) and not any(c in msgstr for c in chinese):
            problems.append(f"{term.lower()}: {' or '.join(chinese)}")
    return problems


def message_problems(msgid, msgstr, catalog=""):
    """What is wrong with one translation: empty, markup changed, a glossary term not used,
    or prose of four words or more left without a Chinese character (the references, whose
    titles stay as they are, excepted from both)."""
    if not msgstr:
        return ["not translated"]
    problems = []
    fields = Path(catalog).name == RVC_CATALOG.name and "rvc" in Path(catalog).parts
    if markup(msgid, fields) != markup(msgstr, fields):
        lost = sorted(set(markup(msgid, fields)) - set(markup(msgstr, fields)))
        added = sorted(set(markup(msgstr, fields)) - set(markup(msgid, fields)))
        problems.append(f"markup changed: lost {lost}, added {added}")
    if "references" not in catalog:          # titles of books and papers stay as they are
        problems += [f"glossary term {t}" for t in term_problems(msgid, msgstr)]
    if (needs_translator(msgid) and len(re.findall(r"[A-Za-z]{2,}", prose(msgid))) >= 4
            and not _CJK.search(msgstr) and "references" not in catalog):
        problems.append("no Chinese in the translation")
    return problems


def check(paths=None):
    """Print every problem of the catalogs (or of ``paths``); return how many there are."""
    count = 0
    for path in sorted(paths or [*CATALOGS.rglob("*.po"), RVC_CATALOG]):
        path = Path(path)
        for message in read_catalog(path):
            if not message.id:
                continue
            problems = message_problems(message.id, message.string, str(path))
            if message.fuzzy:
                problems.insert(0, "fuzzy: the English changed since it was translated")
            for problem in problems:
                count += 1
                print(f"{path.name}: {message.id[:60]!r}: {problem}")
    print(f"{count} problems")
    return count


RVC_CATALOG = ROOT / "rvc" / "locale" / "zh_CN.po"


def rvc_messages():
    """What rvc itself says, for its own catalog (rvc/locale/zh_CN.po): the feedback's templates
    (``rvc.exercises.MESSAGES`` and each chapter's ``MESSAGES``), every exercise's words (what
    the answer is, each mistake's and rule's hint, the fallback and shape hints) and every
    literal given to ``tr`` or ``figure_text`` in the package."""
    import ast

    import rvc.exercises as exercises

    exercises._load_chapters()
    found = list(exercises.MESSAGES)
    for name in exercises.CHAPTERS:          # the sentences each chapter's own checkers write
        found += getattr(importlib.import_module(f"rvc.exercises.{name}"), "MESSAGES", ())
    for exercise in exercises._REGISTRY.values():
        for name in ("what", "fallback", "shape_hint"):
            value = getattr(exercise, name, None)
            if isinstance(value, str):
                found.append(value)
        found += [m.hint for m in getattr(exercise, "mistakes", ())]
        found += list(getattr(exercise, "wrong_shapes", {}).values())
    import rvc.plot.blocks

    found += list(rvc.plot.blocks.FIGURE_TEXT)
    for path in sorted((ROOT / "rvc").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                    in ("tr", "figure_text") and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.append(node.args[0].value)
    return list(dict.fromkeys(m for m in found if m and "{close}" not in m))


def update_rvc():
    """Merge rvc_messages() into rvc's catalog: translations kept, new messages empty, gone ones
    dropped."""
    from babel.messages.catalog import Catalog

    old = read_catalog(RVC_CATALOG) if RVC_CATALOG.exists() else Catalog(locale=LANGUAGE)
    catalog = Catalog(locale=LANGUAGE, project="rvc", fuzzy=False)
    for message in rvc_messages():
        previous = old.get(message)
        catalog.add(message, previous.string if previous is not None else "",
                    flags=("fuzzy",) if previous is not None and previous.fuzzy else ())
    RVC_CATALOG.parent.mkdir(parents=True, exist_ok=True)
    write_catalog(catalog, RVC_CATALOG)
    return catalog


def catalog_status(path):
    """(messages, translated, fuzzy, empty) of one catalog."""
    catalog = read_catalog(path)
    messages = [m for m in catalog if m.id]
    fuzzy = [m for m in messages if m.fuzzy]
    empty = [m for m in messages if not m.string]
    return len(messages), len(messages) - len(fuzzy) - len(empty), len(fuzzy), len(empty)


def status():
    total = [0, 0, 0, 0]
    for path in sorted(CATALOGS.rglob("*.po")) + [RVC_CATALOG]:
        counts = catalog_status(path)
        total = [a + b for a, b in zip(total, counts)]
        name = path.relative_to(CATALOGS if path != RVC_CATALOG else ROOT)
        print(f"{str(name):45s} {counts[0]:5d} messages {counts[1]:5d} translated "
              f"{counts[2]:4d} fuzzy {counts[3]:4d} empty")
    print(f"{'all':45s} {total[0]:5d} messages {total[1]:5d} translated {total[2]:4d} fuzzy {total[3]:4d} empty")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["update", "status", "check", "notebooks"])
    parser.add_argument("catalogs", nargs="*", help="for check: the catalogs to check (default: all)")
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
    elif args.command == "status":
        status()
    elif args.command == "check":
        sys.exit(1 if check(args.catalogs) else 0)
    else:
        import zh_notebooks

        zh_notebooks.main([])


if __name__ == "__main__":
    main()
