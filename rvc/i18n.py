"""rvc's own words in the reader's language: English (the default) or Chinese (中文).

What rvc itself prints or draws follows the language: the feedback of
``rvc.exercises.check`` (every hint) and the text rvc's plotting functions put on a
figure. The Chinese notebooks (``notebooks/zh``) call ``set_language("zh")`` in their first
cell; the environment variable ``RVC_LANG=zh`` does it for a whole session.

The Chinese is in ``rvc/locale/zh_CN.po`` (gettext's format, checked like the web book's
catalogs by ``tools/i18n.py check``). An entry may hold ``{name}`` fields, which match any
text and are translated in turn: ``"Exercise {id}: not yet. Hint: {hint}"`` translates the
whole feedback line of any exercise, hint included. Text without an entry stays English.
"""

from __future__ import annotations

import os
import re
import warnings
from functools import cache
from pathlib import Path

__all__ = ["set_language", "get_language", "tr", "figure_text"]

LANGUAGES = {"en": "en", "zh": "zh", "zh_cn": "zh", "zh-cn": "zh", "zh_hans": "zh", "zh-hans": "zh"}
CATALOG = Path(__file__).with_name("locale") / "zh_CN.po"
_FIELD = re.compile(r"\{(\w+)\}")
_state = {"language": "en"}


def set_language(language: str) -> None:
    """Set the language of rvc's feedback and figure text: ``"en"`` or ``"zh"``.

    >>> set_language("zh"); get_language()
    'zh'
    >>> set_language("en")
    >>> set_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: language: expected 'en' or 'zh' (also 'zh_CN'), got 'fr'
    """
    if not isinstance(language, str):
        raise TypeError(f"language: expected 'en' or 'zh', got {type(language).__name__} {language!r}")
    code = LANGUAGES.get(language.strip().lower())
    if code is None:
        raise ValueError(f"language: expected 'en' or 'zh' (also 'zh_CN'), got {language!r}")
    _state["language"] = code
    if code == "zh":
        _use_cjk_font()


def get_language() -> str:
    """The language of rvc's own text, ``"en"`` (the default) or ``"zh"``.

    >>> get_language()
    'en'
    """
    return _state["language"]


def _unquote(text: str) -> str:
    return text[1:-1].encode("raw_unicode_escape").decode("unicode_escape") if text else ""


@cache
def _catalog() -> tuple[dict, list]:
    """(exact msgid -> msgstr, [(pattern, field names, msgstr)] for the entries with fields),
    from a gettext file: ``msgid "..."`` / ``msgstr "..."`` with continued ``"..."`` lines;
    fuzzy and empty entries are left out."""
    exact, templates = {}, []
    if not CATALOG.exists():
        return exact, templates
    entries, current, key, fuzzy = [], None, None, False
    for line in CATALOG.read_text(encoding="utf-8").splitlines() + [""]:
        line = line.strip()
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith("msgid "):
            current, key = {"id": _unquote(line[6:]), "str": "", "fuzzy": fuzzy}, "id"
        elif line.startswith("msgstr ") and current is not None:
            current["str"], key = _unquote(line[7:]), "str"
        elif line.startswith('"') and current is not None:
            current[key] += _unquote(line)
        elif not line and current is not None:
            entries.append(current)
            current, fuzzy = None, False
    for entry in entries:
        if not entry["id"] or not entry["str"] or entry["fuzzy"]:
            continue
        exact[entry["id"]] = entry["str"]
        names = _FIELD.findall(entry["id"])
        if names:
            parts = _FIELD.split(entry["id"])
            pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
            templates.append((len(_FIELD.sub("", entry["id"])), re.compile(pattern + r"\Z", re.S), entry["str"]))
    templates.sort(key=lambda t: -t[0])       # the most specific first: the most text outside the fields
    return exact, [t[1:] for t in templates]


def tr(text: str) -> str:
    """``text`` in the current language (unchanged in English, or where no entry has it).

    An entry with ``{name}`` fields matches any text in their place, and the text each field
    matched is translated in turn.

    >>> set_language("zh")
    >>> tr("Exercise 2.3: correct.")
    '练习 2.3：正确。'
    >>> tr("no such sentence in the catalog")
    'no such sentence in the catalog'
    >>> set_language("en"); tr("Exercise 2.3: correct.")
    'Exercise 2.3: correct.'
    """
    if _state["language"] == "en" or not isinstance(text, str) or not text:
        return text
    exact, templates = _catalog()
    if text in exact:
        return exact[text]
    for pattern, target in templates:
        found = pattern.match(text)
        if found:
            return _spaced(target.format(**{k: tr(v) for k, v in found.groupdict().items()}))
    return text


_WIDE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"      # CJK characters and full-width punctuation
_NO_SPACE = re.compile(f"(?<=[{_WIDE}]) +(?=[{_WIDE}])")


def _spaced(text: str) -> str:
    """A filled template's spacing: a field is written with a space either side (the space
    between Chinese and a Latin word or number), dropped where the field's own text turned out
    Chinese.

    >>> _spaced("得到的是 一个数"), _spaced("得到的是 a list")
    ('得到的是一个数', '得到的是 a list')
    """
    return _NO_SPACE.sub("", text)


_FONT = {"checked": False, "family": None}
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
             "Microsoft YaHei", "SimHei", "PingFang SC", "Heiti SC", "Arial Unicode MS")


def _use_cjk_font() -> str | None:
    """Put the first installed CJK font of ``CJK_FONTS`` after matplotlib's font families (its
    fallback), so a figure's Chinese has glyphs; warn once where there is none (figures keep
    English text)."""
    if _FONT["checked"]:
        return _FONT["family"]
    _FONT["checked"] = True
    try:
        import matplotlib
        from matplotlib import font_manager
    except ImportError:          # pragma: no cover - matplotlib is a dependency
        return None
    installed = {f.name for f in font_manager.fontManager.ttflist}
    family = next((name for name in CJK_FONTS if name in installed), None)
    if family is None:
        warnings.warn("no Chinese font found for matplotlib (e.g. Noto Sans CJK: apt-get install "
                      "fonts-noto-cjk): rvc's figures keep their English text", stacklevel=3)
    else:
        # A fallback family: matplotlib draws each character with the first family of
        # font.family that has its glyph (a generic name such as "sans-serif" is one font).
        families = list(matplotlib.rcParams["font.family"])
        if family not in families:
            matplotlib.rcParams["font.family"] = [*families, family]
    _FONT["family"] = family
    return family


def figure_text(text: str) -> str:
    """A figure's text (title, label, legend) in the current language: :func:`tr`, where
    matplotlib has a Chinese font to draw it with; English otherwise.

    >>> figure_text("t (s)")
    't (s)'
    """
    if _state["language"] == "en" or _use_cjk_font() is None:
        return text
    return tr(text)


if os.environ.get("RVC_LANG"):
    set_language(os.environ["RVC_LANG"])
