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

import re
from typing import Any

from ..checks import getint

__all__ = ["jshtml"]

_PLAYER_GLYPHS = {
    "fa fa-minus": "\u2212", "fa fa-fast-backward": "|\u25c0\u25c0",
    "fa fa-step-backward": "|\u25c0", "fa fa-play fa-flip-horizontal": "\u25c0",
    "fa fa-pause": "\u275a\u275a", "fa fa-play": "\u25b6", "fa fa-step-forward": "\u25b6|",
    "fa fa-fast-forward": "\u25b6\u25b6|", "fa fa-plus": "+",
}


def jshtml(anim: Any, *, width: int = 520, **kwargs: Any) -> Any:
    """An animation as a self-contained HTML player that works offline.

    ``anim.to_jshtml()`` embeds every frame, but its player links its icon
    font from a CDN; this version draws the buttons with text glyphs and
    names no network resource, so it plays in the static web book with no
    connection.  The frames are rendered small (a few tens of kB each), so
    the player shows them at least ``width`` pixels wide (never wider than
    the page, nor smaller than rendered).  Returns an
    ``IPython.display.HTML`` (use ``.data`` for the string); other keyword
    arguments go to ``to_jshtml`` (``fps``, ``default_mode``).

    >>> import matplotlib; matplotlib.use("Agg")
    >>> html = jshtml(tranimate(trotx(1.0), nframes=2)).data
    >>> "http" in html, "\u25b6" in html, "width: min(100%, 520px)" in html
    (False, True, True)
    """
    from IPython.display import HTML

    width = getint(width, "width", minimum=1)
    fig = getattr(anim, "_fig", None)
    if fig is not None:                              # the width the frames are rendered at
        width = max(width, int(round(fig.get_size_inches()[0] * fig.dpi)))
    html = anim.to_jshtml(**kwargs)
    html = re.sub(r'<img id="_anim_img', f'<img style="width: min(100%, {width}px); height: auto;" '
                  f'id="_anim_img', html)
    html = re.sub(r"<link[^>]*font-awesome[^>]*>", "", html)

    def glyph(match):
        return f'<span class="anim-glyph">{_PLAYER_GLYPHS.get(match.group(1), "?")}</span>'

    html = re.sub(r'<i class="(fa [^"]*)"></i>', glyph, html)
    return HTML(html)
