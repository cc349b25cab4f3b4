"""Animations in the static web book: an offline player (no maths here).

Matplotlib's ``anim.to_jshtml()`` embeds every frame of a
``FuncAnimation`` in a page, but its player links its icon font from a
CDN.  :func:`jshtml` draws the buttons with text glyphs instead, so the
animation plays in the web book with no network.

>>> import matplotlib; matplotlib.use("Agg")
>>> "<script" in jshtml(tranimate(trotx(1.0), nframes=2)).data
True
"""

from __future__ import annotations

import html as _html
import re
from typing import Any

from ..checks import getint, gettext

__all__ = ["jshtml"]

_PLAYER_GLYPHS = {
    "fa fa-minus": "\u2212", "fa fa-fast-backward": "|\u25c0\u25c0",
    "fa fa-step-backward": "|\u25c0", "fa fa-play fa-flip-horizontal": "\u25c0",
    "fa fa-pause": "\u275a\u275a", "fa fa-play": "\u25b6", "fa fa-step-forward": "\u25b6|",
    "fa fa-fast-forward": "\u25b6\u25b6|", "fa fa-plus": "+",
}


def _frames_alt(anim: Any) -> str:
    """A default description of an animation's frames, from its figure's titles.

    Screen readers read an image's ``alt`` text; the player shows one frame
    at a time, so every frame gets the same text: "Animation: " and the
    figure's suptitle and axes titles (joined by "; "), or "Animation" and
    the figure's axes count when it has no title.  Pass a description of
    what the animation shows to :func:`jshtml` instead where the titles do
    not say it.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> _frames_alt(tranimate(trotx(1.0), nframes=2))
    'Animation of one figure with 1 axes (no title)'
    """
    fig = getattr(anim, "_fig", None)
    if fig is None:
        return "Animation (no figure)"
    titles = []
    if getattr(fig, "_suptitle", None) is not None and fig._suptitle.get_text().strip():
        titles.append(fig._suptitle.get_text().strip())
    for ax in fig.axes:
        for loc in ("center", "left", "right"):
            text = ax.get_title(loc).strip()
            if text:
                titles.append(text)
    if titles:
        return "Animation: " + "; ".join(titles)
    return f"Animation of one figure with {len(fig.axes)} axes (no title)"


def jshtml(anim: Any, *, alt: str | None = None, width: int = 520, **kwargs: Any) -> Any:
    """An animation as a self-contained HTML player that works offline.

    ``anim.to_jshtml()`` embeds every frame, but its player links its icon
    font from a CDN; this version draws the buttons with text glyphs and
    names no network resource, so it plays in the static web book with no
    connection.  The frames are rendered small (a few tens of kB each), so
    the player shows them at least ``width`` pixels wide (never wider than
    the page, nor smaller than rendered).  ``alt`` describes what the
    animation shows, for readers who cannot see it (the frames' ``alt``
    text; by default built from the figure's titles).
    Returns an ``IPython.display.HTML`` (use ``.data`` for the string);
    other keyword arguments go to ``to_jshtml`` (``fps``, ``default_mode``).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> html = jshtml(tranimate(trotx(1.0), nframes=2), alt="a frame turning about x").data
    >>> "http" in html, "\u25b6" in html, "width: min(100%, 520px)" in html
    (False, True, True)
    >>> 'alt="a frame turning about x"' in html
    True
    """
    from IPython.display import HTML

    width = getint(width, "width", minimum=1)
    alt = _frames_alt(anim) if alt is None else gettext(alt, "alt")
    fig = getattr(anim, "_fig", None)
    if fig is not None:                              # the width the frames are rendered at
        width = max(width, int(round(fig.get_size_inches()[0] * fig.dpi)))
    html = anim.to_jshtml(**kwargs)
    html = re.sub(r'<img id="_anim_img', f'<img alt="{_html.escape(alt, quote=True)}" '
                  f'style="width: min(100%, {width}px); height: auto;" id="_anim_img', html)
    html = re.sub(r"<link[^>]*font-awesome[^>]*>", "", html)

    def glyph(match):
        return f'<span class="anim-glyph">{_PLAYER_GLYPHS.get(match.group(1), "?")}</span>'

    html = re.sub(r'<i class="(fa [^"]*)"></i>', glyph, html)
    return HTML(html)
