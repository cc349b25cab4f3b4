"""A link on every page of the web book to the same page in its other language.

The English book is ``_build/html/``, the Chinese one ``_build/html/zh/`` (``make book`` builds
both from the same pages: the Chinese through the catalogs in ``locale/``). Each page's header
gets a button (template ``language-switch.html``) to the page of the same name in the other
book, and the page's head a ``<link rel="alternate" hreflang=...>`` to it.
"""

from pathlib import Path

EDITIONS = {
    # language: (the other edition's folder relative to this book's root, its code, label, title)
    "en": ("zh/", "zh-CN", "中文", "本页的中文版"),
    "zh_CN": ("../", "en", "English", "This page in English"),
}


def other_language(language, pagename):
    """(href, code, label, title) of ``pagename`` in the other edition, relative to the page.

    >>> other_language("en", "notebooks/02_pose")[0]
    '../zh/notebooks/02_pose.html'
    >>> other_language("zh_CN", "index")[0]
    '../index.html'
    """
    folder, code, label, title = EDITIONS["zh_CN" if (language or "en").startswith("zh") else "en"]
    up = "../" * pagename.count("/")
    return up + folder + pagename + ".html", code, label, title


def _add_link(app, pagename, templatename, context, doctree):
    if app.builder.name not in ("html", "dirhtml"):
        return
    href, code, label, title = other_language(app.config.language, pagename)
    context["rvc_other_language"] = {"href": href, "code": code, "label": label, "title": title}
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" hreflang="{code}" href="{href}" />')


def _templates(app, config):
    config.templates_path.append(str(Path(__file__).resolve().parent.parent / "_templates"))
    config.html_static_path.append(str(Path(__file__).resolve().parent / "static"))


def setup(app):
    app.connect("config-inited", _templates)
    app.add_css_file("language-switch.css")
    app.connect("html-page-context", _add_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
