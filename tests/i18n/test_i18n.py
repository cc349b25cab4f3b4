"""rvc's own text in Chinese (rvc.i18n): the language setting, the catalog, and check()'s feedback."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rvc
from rvc import i18n

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_english_is_the_default_and_the_setting_is_checked():
    assert rvc.get_language() == "en"
    for name, code in (("zh", "zh"), ("zh_CN", "zh"), ("zh-CN", "zh"), (" ZH ", "zh"), ("en", "en")):
        rvc.set_language(name)
        assert rvc.get_language() == code
    with pytest.raises(ValueError, match=r"language: expected 'en' or 'zh' \(also 'zh_CN'\), got 'de'"):
        rvc.set_language("de")
    with pytest.raises(TypeError, match="language: expected 'en' or 'zh', got NoneType None"):
        rvc.set_language(None)
    assert rvc.get_language() == "en"


def test_the_environment_sets_the_language_of_a_session():
    code = "import rvc; print(rvc.get_language())"
    env = {**os.environ, "RVC_LANG": "zh"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "zh"


def test_tr_translates_exactly_then_by_template_field_by_field(chinese, monkeypatch):
    monkeypatch.setattr(i18n, "_catalog", lambda: (
        {"the gain": "增益"},
        [(re.compile(r"expected one number \((?P<what>.+?)\), got (?P<got>.+?)\Z", re.S),
          "应为一个数（{what}），得到的是 {got}")]))
    assert i18n.tr("the gain") == "增益"
    assert i18n.tr("expected one number (the gain), got a list") == "应为一个数（增益），得到的是 a list"
    assert i18n.tr("something else") == "something else"
    rvc.set_language("en")
    assert i18n.tr("the gain") == "the gain"


def test_the_catalog_reader_skips_fuzzy_and_empty_entries(tmp_path, monkeypatch):
    po = tmp_path / "zh_CN.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "甲"\n\n#, fuzzy\nmsgid "b"\nmsgstr "乙"\n\n'
                  'msgid "c"\nmsgstr ""\n\nmsgid "long "\n"one {x}"\nmsgstr "长的"\n"{x}"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "CATALOG", po)
    i18n._catalog.cache_clear()
    try:
        exact, templates = i18n._catalog()
    finally:
        i18n._catalog.cache_clear()
    assert exact == {"a": "甲", "long one {x}": "长的{x}"}
    assert len(templates) == 1 and templates[0][0].match("long one 7")


def test_rvc_catalog_is_complete_and_passes_the_translation_checks():
    sys.path.insert(0, str(ROOT / "tools"))
    import i18n as tools_i18n

    catalog = {m.id: m for m in tools_i18n.read_catalog(tools_i18n.RVC_CATALOG) if m.id}
    wanted = tools_i18n.rvc_messages()
    missing = [m for m in wanted if m not in catalog]
    assert not missing, f"run python tools/i18n.py update: {missing[:5]}"
    problems = [f"{m.id[:50]!r}: {p}" for m in catalog.values()
                for p in tools_i18n.message_problems(m.id, m.string, str(tools_i18n.RVC_CATALOG))
                + (["fuzzy"] if m.fuzzy else [])]
    assert not problems, f"{len(problems)} problems in rvc/locale/zh_CN.po:\n" + "\n".join(problems[:30])


def test_figure_text_is_chinese_only_where_a_font_can_draw_it(chinese, monkeypatch):
    from rvc.plot.blocks import FIGURE_TEXT

    monkeypatch.setitem(i18n._FONT, "checked", True)
    monkeypatch.setitem(i18n._FONT, "family", None)
    assert i18n.figure_text(FIGURE_TEXT[0]) == FIGURE_TEXT[0]
    monkeypatch.setitem(i18n._FONT, "family", "Noto Sans CJK SC")
    assert CJK.search(i18n.figure_text(FIGURE_TEXT[0]))


def _words(text):
    """The words of a figure text outside its maths, units (rad, kg) and one-letter names."""
    return [w for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\$[^$]*\$", " ", text)) if w != "rad"]


def test_every_word_rvc_draws_on_a_figure_is_chinese_where_a_font_can_draw_it(chinese):
    """The figures rvc draws itself (the drive's block diagrams, the five-bar's cut tree), drawn in
    Chinese: every text with a word in it holds Chinese; in English every such text is English."""
    import matplotlib
    import matplotlib.pyplot as plt
    import numpy as np

    from rvc.models import puma560_motor2
    from rvc.plot import plot_cut_tree, plot_drive, plot_position_loop, plot_velocity_loop

    matplotlib.use("Agg")
    if i18n._use_cjk_font() is None:
        pytest.skip("no CJK font on this machine")
    pts = [np.array([[-0.1, 0], [-0.2, 0.1], [-0.27, 0.18], [0, 0.4]]),
           np.array([[0.1, 0], [0.2, 0.1], [0.27, 0.18], [0, 0.4]])]
    motor = puma560_motor2()

    def texts():
        axes = [plot_velocity_loop(motor, Kv=0.6, Ki=20).ax, plot_position_loop(motor, 20, 0.6, velocity_ff=True).ax,
                plot_drive(motor, 2.11).ax,
                plot_cut_tree(pts, ["aep", "aep"], [[1.0, 0.5], [-1.0, -0.5]], [[0.8, 1.2], [-0.8, 1.2]])]
        out = [line for ax in axes for t in [*ax.texts, ax.title] for line in t.get_text().split("\n")]
        plt.close("all")
        return [line for line in out if _words(line) or CJK.search(line)]

    chinese_texts = texts()
    assert len(chinese_texts) >= 10
    assert not [t for t in chinese_texts if not CJK.search(t)]
    rvc.set_language("en")
    english = texts()
    assert len(english) == len(chinese_texts) and not [t for t in english if CJK.search(t)]


def test_rvc_catalog_passes_the_book_catalogs_check(capsys):
    """``python tools/i18n.py check rvc/locale/zh_CN.po``: markup kept, glossary terms used, no
    English prose left; 0 problems."""
    sys.path.insert(0, str(ROOT / "tools"))
    import i18n as tools_i18n

    assert tools_i18n.check([tools_i18n.RVC_CATALOG]) == 0, capsys.readouterr().out


def test_a_chinese_figure_has_its_glyphs(chinese):
    """In Chinese, rvc's figures draw their words with a CJK font (matplotlib's fallback family),
    so no glyph is missing; skipped where the machine has no CJK font."""
    import warnings

    import matplotlib.pyplot as plt

    if i18n._use_cjk_font() is None:
        pytest.skip("no CJK font here (Debian/Ubuntu: apt-get install fonts-noto-cjk)")
    from rvc.models import puma560_motor2
    from rvc.plot.blocks import plot_velocity_loop

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot_velocity_loop(puma560_motor2(), Kv=0.6, Ki=20)
        fig = plt.gcf()
        fig.canvas.draw()
    texts = [t.get_text() for t in fig.findobj(match=lambda a: hasattr(a, "get_text"))]
    assert any(CJK.search(t) for t in texts)
    plt.close("all")
