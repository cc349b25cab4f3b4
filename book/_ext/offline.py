"""Keep the web book offline.

Jupyter Book 1 always loads sphinx-thebe, which puts a thebe URL on a CDN
into every page (used only when a reader clicks "live code", which this book
does not offer). This extension drops thebe's scripts and stylesheet from
every page, so no built page names a network resource.
"""


def _is_thebe(asset) -> bool:
    name = getattr(asset, "filename", None) or str(asset)
    body = getattr(asset, "attributes", {}).get("body", "") or ""
    return "thebe" in (name or "") or "thebe" in body.lower()


def _strip_thebe(app, pagename, templatename, context, doctree):
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if not _is_thebe(asset)]


def setup(app):
    app.connect("html-page-context", _strip_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
