"""Slider panels for live notebooks (plotting and widgets layer, no maths).

Every chapter's sliders follow one pattern, so a reader learns it once:

1. create the figure and its artists once;
2. write a callback ``show(**values)`` that only *updates* those artists
   (``set_data``, ``set_text``...), never creates a figure;
3. wrap both in a :class:`SliderDemo`, which redraws the figure in an
   ``ipywidgets.Output`` whenever a slider moves;
4. in a later cell call the same callback from code (``demo.snapshot(...)``)
   so the test suite and the static web book run it and show the figure.

Steps 1-3 happen inside one function that builds the figure, the artists and
the callback and returns the demo, so the callback reads only that function's
scope: no later cell can reassign what it relies on.  An exception raised by
the callback when a slider moves is shown, with its traceback, in the panel's
output area (a widget observer has no cell to report to, so it would
otherwise vanish into the kernel's log).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> import ipywidgets as w
>>> def build_slope_demo(length=1.0):
...     fig, ax = plt.subplots()
...     (line,) = ax.plot([0, length], [0, 0])      # artists created once
...     def show(slope=0.0):                        # reads only this scope
...         line.set_ydata([0, slope * length])
...     return SliderDemo(fig, show, slope=w.FloatSlider(min=-1, max=1, value=0.5))
>>> demo = build_slope_demo()
>>> demo.values
{'slope': 0.5}
>>> fig = demo.snapshot(slope=0.25)
>>> float(fig.axes[0].lines[0].get_ydata()[1])
0.25
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["LiveCanvas", "SliderDemo"]


def _png(rgba) -> bytes:
    """An (h, w, 4) uint8 RGBA array as PNG bytes, quickly: rows unfiltered, zlib level 1."""
    import struct
    import zlib

    import numpy as np

    h, w, _ = rgba.shape
    rows = np.empty((h, 1 + 4 * w), dtype=np.uint8)
    rows[:, 0] = 0                                  # filter type 0 (none) before each row
    rows[:, 1:] = rgba.reshape(h, 4 * w)

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)   # 8 bits, RGBA, deflate, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + chunk(b"IEND", b""))


def _pixel_size(fig):
    """The figure's width and height in pixels, as Agg's canvas makes them (savefig's size)."""
    from matplotlib.backend_bases import FigureCanvasBase

    return FigureCanvasBase.get_width_height(fig.canvas, physical=True)


def _text_caching_renderer(width, height, dpi):
    """An Agg renderer that keeps the glyph bitmaps of each text it drew, by string, font and
    place: a panel's static texts (legends, labels over a moving curve) are redrawn at every
    blit, and rendering their glyphs again is most of a blit's time.  The same bitmaps go to
    the same pixels, so the frame is unchanged."""
    import numpy as np
    from matplotlib.backends.backend_agg import RendererAgg, get_hinting_flag

    class _Recorder:                     # stands in for the C++ renderer while a text is drawn
        def __init__(self, inner):
            self.inner, self.images = inner, []

        def draw_text_image(self, image, x, y, angle, gc):
            # matplotlib 3.11 passes the glyphs' bitmap, 3.10 the font that holds it (a buffer)
            self.images.append((np.array(image, dtype=np.uint8), x, y, angle))
            self.inner.draw_text_image(image, x, y, angle, gc)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    class TextCachingRenderer(RendererAgg):
        def __init__(self, *args):
            super().__init__(*args)
            self._texts = {}

        def _cached(self, key, gc, draw):
            images = self._texts.get(key)
            if images is None:
                inner = self._renderer
                self._renderer = recorder = _Recorder(inner)
                try:
                    draw()
                finally:
                    self._renderer = inner
                if len(self._texts) > 4000:
                    self._texts.clear()
                self._texts[key] = recorder.images
                return
            for image, x, y, angle in images:
                self._renderer.draw_text_image(image, x, y, angle, gc)

        def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
            if ismath:      # mathtext may draw boxes (fraction bars) as paths: not cached
                return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
            # font features and language shape the glyphs since matplotlib 3.11; older ones lack them
            features = None if mtext is None else tuple(
                getattr(mtext, name, lambda: None)() for name in ("get_fontfeatures", "get_language"))
            key = (s, hash(prop), x, y, angle, gc.get_antialiased(), get_hinting_flag(),
                   str(features), self.dpi, self.height)
            self._cached(key, gc, lambda: super(TextCachingRenderer, self).draw_text(
                gc, x, y, s, prop, angle, ismath, mtext))

    return TextCachingRenderer(width, height, dpi)


_WHOLE = "whole"   # LiveCanvas: an axes redrawn whole at every paint (its limits or ticks change)


class LiveCanvas:
    """Paints a figure again and again, redrawing only the artists that moved (blitting).

    A slider panel changes a few artists of a figure per move (a line's data,
    a title's text) and leaves the rest (axes, ticks, labels, grid, a colour
    map) as it was.  The first :meth:`paint` draws the whole figure; each
    later one finds what changed since: the artists matplotlib marks *stale*,
    and colour-mapped artists (a mesh, an image) whose values, limits or
    colour map changed, which it does not mark.  It then copies back the
    *background* (the figure without the moving artists, kept from the last
    full draw) and draws only the moving artists, in the order a full draw
    would: within one axes, the moved artists and every artist drawn after
    them.  An axes whose limits, view (3-D), ticks or set of artists change is
    drawn whole over a background without it, so a panel that rescales one
    plot still keeps the others.  The first time an artist moves or an axes
    changes so, the whole figure is drawn once more, to keep a background
    without it; a change of the figure itself (its size, its axes, a
    figure-level text) draws the whole figure.  The frame equals a full
    redraw pixel for pixel, unless an artist of one axes overlaps another
    axes (the chapters' figures are laid out so that none does).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to paint; its own canvas is not used (a private renderer
        is), so saving or showing the figure elsewhere does not disturb it.
    bbox : matplotlib.transforms.Bbox, optional
        The area to paint, in inches (as ``savefig(bbox_inches=...)``);
        default the whole figure.

    Attributes
    ----------
    full_draws, blits : int
        How many paints drew the whole figure, and how many only what moved.
    why : str
        Why the last paint drew the whole figure ("" when it blitted).

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(2, 2), dpi=50)
    >>> (line,) = ax.plot([0, 1], [0, 1])
    >>> live = LiveCanvas(fig)
    >>> live.paint().shape                                  # (height, width, RGBA)
    (100, 100, 4)
    >>> line.set_ydata([1, 0]); frame = live.paint()        # a new layer: the whole figure
    >>> line.set_ydata([0.5, 0]); frame = live.paint()      # only the line is drawn again
    >>> live.full_draws, live.blits
    (2, 1)
    >>> _ = ax.set_ylim(0, 2); frame = live.paint()         # new limits: the whole figure
    >>> live.full_draws, live.blits
    (3, 1)
    >>> plt.close(fig)
    """

    def __init__(self, fig: Any, bbox: Any = None) -> None:
        from matplotlib.figure import Figure
        from matplotlib.transforms import Bbox

        if not isinstance(fig, Figure):
            raise TypeError(f"fig: expected a matplotlib Figure, got {type(fig).__name__}")
        whole = Bbox.from_bounds(0, 0, *fig.get_size_inches())
        if bbox is not None and not isinstance(bbox, Bbox):
            raise TypeError(f"bbox: expected a matplotlib Bbox in inches, got {type(bbox).__name__}")
        self.fig = fig
        self.bbox = whole if bbox is None else bbox
        self.full_draws = 0
        self.blits = 0
        self._renderer = None
        self._background = None
        self._layers = {}          # axes -> the artists redrawn over the background
        self._titles = {}          # axes -> where the last full draw put its titles
        self._order = []           # what _draw_layers draws: axes with a layer, figure-level artists
        self._arrays = {}          # id of a colour-mapped artist -> what it showed at the last paint
        self._key = None
        self.why = ""

    # -- what changed -------------------------------------------------------------------------

    def _state(self):
        """What a blit cannot redraw: the figure's size and artists (one key), and for each
        axes its place, limits, view and artists (a key per axes)."""
        fig = self.fig
        axes = {}
        for ax in fig.axes:
            view = [ax.get_position().bounds, ax.get_xlim(), ax.get_ylim(), ax.get_visible(),
                    ax.get_xscale(), ax.get_yscale()]
            if hasattr(ax, "get_zlim"):                      # 3-D: the limits and the view angles
                view += [ax.get_zlim(), ax.elev, ax.azim, getattr(ax, "roll", 0.0)]
            axes[ax] = (tuple(map(str, view)), tuple(map(id, ax.get_children())))
        figure_level = tuple(id(a) for a in fig.get_children() if a not in fig.axes)
        return (tuple(fig.get_size_inches()), fig.dpi, tuple(self.bbox.bounds),
                tuple(map(id, fig.axes)), figure_level), axes

    @staticmethod
    def _stale(artist):
        """Whether ``artist`` or anything inside it changed since the last paint."""
        return artist.stale or any(LiveCanvas._stale(a) for a in artist.get_children())

    def _moved(self):
        """What changed since the last paint: (the stale figure-level artists, such as a
        suptitle, or None when the figure's face changed; the stale artists of each axes; the
        axes whose axis (ticks, labels) or face changed)."""
        from matplotlib.axis import Axis

        fig = self.fig
        figure_level = [a for a in fig.get_children()
                        if a not in fig.axes and a is not fig.patch and self._stale(a)]
        if self._stale(fig.patch):
            return None, {}, set()
        moved, whole = {}, set()
        for ax in fig.axes:
            for child in ax.get_children():
                if isinstance(child, Axis) and hasattr(ax, "get_zlim"):
                    # a 3-D axis marks its ticks stale whenever they are listed: its ticks
                    # follow the limits and the view (compared in _state), its label is read here
                    changed = self._stale(child.label) or self._stale(child.offsetText)
                else:
                    changed = self._stale(child) or self._colours(child) != self._arrays.get(id(child))
                if changed:
                    if isinstance(child, Axis) or child is ax.patch:
                        whole.add(ax)                        # ticks or the axes' face changed
                    moved.setdefault(ax, []).append(child)
        return figure_level, moved, whole

    @staticmethod
    def _colours(artist):
        """What a colour-mapped artist shows (``set_array`` and ``set_clim`` mark nothing stale)."""
        import numpy as np

        get = getattr(artist, "get_array", None)
        values = get() if get is not None else None
        if values is None:
            return None
        values = np.ma.getdata(values)
        norm = artist.norm
        return (values.shape, hash(np.ascontiguousarray(values).tobytes()), norm.vmin, norm.vmax,
                artist.get_cmap().name)

    def _remember_colours(self):
        self._arrays = {id(a): self._colours(a) for ax in self.fig.axes for a in ax.get_children()}

    @staticmethod
    def _draw_order(ax):
        """The artists of ``ax`` in the order ``Axes.draw`` draws them (after the axes patch)."""
        artists = [a for a in ax.get_children() if a is not ax.patch]
        if not (ax.axison and ax.get_frame_on()):
            artists = [a for a in artists if a not in ax.spines.values()]
        if not ax.axison:
            artists = [a for a in artists if a not in ax._axis_map.values()]
        return sorted(artists, key=lambda a: a.get_zorder())

    def _layer(self, ax, moved):
        """The moved artists of ``ax`` and every artist drawn after them, or None if those
        cannot be redrawn alone (an image).  In 3-D the axes sorts its collections and patches
        by depth at every draw: when one of them moves, the layer is all but the axes' box."""
        from matplotlib.collections import Collection
        from matplotlib.image import AxesImage
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
        from matplotlib.text import Text

        order = self._draw_order(ax)
        if hasattr(ax, "get_zlim"):
            from matplotlib.axis import Axis

            if any(isinstance(a, (Collection, Patch)) for a in moved):
                order = [a for a in order if not isinstance(a, Axis)]
                ids = {id(a) for a in order}
                if not all(id(a) in ids for a in moved):
                    return None                              # an axis moved: the axes whole
                return order if all(isinstance(a, (Line2D, Text, Collection, Patch)) for a in order) else None
        ids = {id(a) for a in moved}
        first = min((k for k, a in enumerate(order) if id(a) in ids), default=len(order))
        layer = order[first:]
        three_d = hasattr(ax, "get_zlim")
        for a in layer:   # a 2-D axis (ticks, grid) can be drawn again over a bar; 3-D ones not
            if isinstance(a, AxesImage) or (three_d and not isinstance(a, (Line2D, Text))):
                return None
        return layer

    @staticmethod
    def _depth_order(ax, layer):
        """A 3-D layer in the order Axes3D.draw gives it: collections and patches by depth."""
        from matplotlib.collections import Collection
        from matplotlib.patches import Patch

        if not hasattr(ax, "get_zlim") or not any(isinstance(a, (Collection, Patch)) for a in layer):
            return layer
        shapes = [a for a in ax._children if isinstance(a, (Collection, Patch)) and a.get_visible()]
        if ax.computed_zorder:                       # as Axes3D.draw does it
            collection_z = patch_z = max(axis.get_zorder() for axis in ax._axis_map.values()) + 1
            for a in sorted(shapes, key=lambda a: a.do_3d_projection(), reverse=True):
                if isinstance(a, Collection):
                    a.zorder, collection_z = collection_z, collection_z + 1
                else:
                    a.zorder, patch_z = patch_z, patch_z + 1
        else:
            for a in shapes:
                a.do_3d_projection()
        return sorted(layer, key=lambda a: a.get_zorder())

    # -- painting -----------------------------------------------------------------------------

    def paint(self):
        """Bring the picture up to date with the figure; return its pixels, (h, w, 4) uint8 RGBA."""
        import numpy as np

        self.why, moved, whole = self._why()
        restore = self._adjust()
        try:
            if self.why:
                self._full(moved, whole)
            else:
                self._blit()
        finally:
            restore()
        self._clear(self.fig)
        self._remember_colours()
        self._key = self._state()
        return np.asarray(self._renderer.buffer_rgba())

    def _why(self):
        """Why the next paint must draw the whole figure ("" when a blit will do), the artists
        that moved (by axes) and the axes to draw whole (their limits, view or ticks changed)."""
        if self._renderer is None:
            return "first paint", {}, set()
        figure_key, axes_keys = self._state()
        figure_level, moved, whole = self._moved()
        if figure_key != self._key[0] or figure_level is None:
            return "the figure's size, its face or its axes changed", moved, whole
        if figure_level:
            moved[self.fig] = figure_level
        whole |= {ax for ax in self.fig.axes if axes_keys[ax] != self._key[1].get(ax)}
        for ax, artists in moved.items():
            if ax is not self.fig and ax not in whole and self._layer(ax, artists) is None:
                whole.add(ax)
        why = ""
        for ax in whole:
            if self._layers.get(ax) is not _WHOLE:
                why = "an axes' limits, view, ticks or artists changed for the first time"
        for ax, artists in moved.items():
            if ax is self.fig:
                if not all(a in self._order for a in artists):
                    why = why or "a figure-level artist moved for the first time"
                continue
            held = self._layers.get(ax)
            if ax in whole or held is _WHOLE:
                continue
            held = {id(a) for a in held or ()}
            if not {id(a) for a in self._layer(ax, artists)} <= held:
                why = why or "an artist moved for the first time"
        return why, moved, whole

    def _adjust(self):
        """Make the figure paint ``bbox`` (as ``savefig(bbox_inches=...)``); return the undo."""
        from matplotlib.transforms import Bbox

        whole = Bbox.from_bounds(0, 0, *self.fig.get_size_inches())
        if tuple(self.bbox.bounds) == tuple(whole.bounds):
            return lambda: None
        import inspect

        from matplotlib._tight_bbox import adjust_bbox   # what savefig(bbox_inches=) does

        patch_stale = self.fig.patch.stale
        if "renderer" in inspect.signature(adjust_bbox).parameters:     # matplotlib >= 3.11
            undo = adjust_bbox(self.fig, self.bbox, self._renderer_for_layout())
        else:
            undo = adjust_bbox(self.fig, self.bbox)

        def restore():
            undo()
            self.fig.patch.stale = patch_stale

        return restore

    def _renderer_for_layout(self):
        from matplotlib.backends.backend_agg import RendererAgg

        return self._renderer or RendererAgg(*_pixel_size(self.fig), self.fig.dpi)

    def _full(self, moved, whole):
        """Draw the whole figure; keep it, without the layers that move, as the background."""

        fig = self.fig
        w, h = _pixel_size(fig)
        if self._renderer is None or (self._renderer.width, self._renderer.height) != (w, h):
            self._renderer = _text_caching_renderer(w, h, fig.dpi)
        self._renderer.clear()
        # the layers grow: what moved before (when the axes still hold it) and what moves now;
        # an axes that changed as a whole (limits, view, ticks) is drawn whole from now on
        layers = {}
        moved = moved or {}
        for ax in fig.axes:
            held = self._layers.get(ax)
            if held is _WHOLE or ax in whole:
                layers[ax] = _WHOLE
                continue
            want = [a for a in held or () if a in ax.get_children()] + list(moved.get(ax, []))
            layer = self._layer(ax, want) if want else None
            if want and layer is None:
                layers[ax] = _WHOLE
            elif layer:
                layers[ax] = layer
        self._layers = layers
        # the figure draws its axes and its own artists (texts, legends) by zorder: those of
        # its own drawn after the first axes with a layer are redrawn too, in that order
        order = sorted((a for a in fig.get_children() if a is not fig.patch), key=lambda a: a.get_zorder())
        keep = [a for a in self._order if a in order and a not in fig.axes] + list(moved.get(fig, []))
        first_own = min((k for k, a in enumerate(order) if a in keep), default=len(order))
        for a in order[first_own:]:     # an axes drawn after a moving figure-level artist: whole
            if a in fig.axes:
                layers[a] = _WHOLE
        first = min((k for k, a in enumerate(order) if a in layers or a in keep), default=len(order))
        self._order = [a for a in order[first:] if a in layers or a not in fig.axes]
        hidden = [a for ax, layer in layers.items() for a in ([ax] if layer is _WHOLE else layer)]
        hidden += [a for a in self._order if a not in fig.axes]
        hidden = [a for a in hidden if not a.get_animated()]
        for a in hidden:
            a.set_animated(True)                           # a full draw that is not saving skips them
        try:
            fig.draw(self._renderer)
        finally:
            for a in hidden:
                a.set_animated(False)
        self._background = self._renderer.copy_from_bbox(fig.bbox)
        self._titles = {ax: [(t, t.get_position(), t.get_transform())
                             for t in (ax.title, ax._left_title, ax._right_title)] for ax in fig.axes}
        self._draw_layers()
        self.full_draws += 1

    def _blit(self):
        self._renderer.restore_region(self._background)
        self._draw_layers()
        self.blits += 1

    def _draw_layers(self):
        for ax in self._order:
            if not ax.get_visible():
                continue
            if ax not in self._layers:                  # a figure-level artist drawn after an axes
                ax.draw(self._renderer)
                continue
            layer = self._layers[ax]
            if layer is _WHOLE:
                ax.draw(self._renderer)
                continue
            for title, xy, transform in self._titles.get(ax, ()):
                if title in layer:
                    # set_title resets a title's place, which Axes.draw sets again (from the
                    # axes' box and ticks, unchanged since the last full draw): put it back
                    title.set_position(xy)
                    title.set_transform(transform)
            for a in self._depth_order(ax, layer):
                if a.get_visible():
                    a.draw(self._renderer)

    @staticmethod
    def _clear(artist):
        artist.stale = False
        for a in artist.get_children():
            LiveCanvas._clear(a)


class SliderDemo:
    """A figure, a callback that updates its artists, and the sliders that drive it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        Created once by the caller; closed here so that ``%matplotlib inline``
        does not also show it at the end of the cell.
    callback : callable
        ``callback(**values)`` updates the artists of ``fig`` in place.
    **controls : ipywidgets.ValueWidget
        One widget per keyword argument of ``callback``.

    Attributes
    ----------
    panel : ipywidgets.VBox
        The controls above the figure's output area; displaying the demo
        displays it.
    output : ipywidgets.Output
        Where the figure is shown, or the traceback when the callback fails.
    image : ipywidgets.Image
        The figure as the panel shows it (in ``output``): each redraw sets its
        value in place.
    error : BaseException or None
        What the callback raised at the last slider move (None when it worked).

    A callback that fails while the demo is built, or in :meth:`snapshot`,
    raises as usual; one that fails after a slider moved shows its traceback
    in ``output`` instead of the figure, until a move succeeds again.
    """

    def __init__(self, fig: Any, callback: Callable, **controls: Any) -> None:
        import ipywidgets as widgets
        import matplotlib.pyplot as plt

        if not callable(callback):
            raise TypeError(f"callback: expected a callable, got {type(callback).__name__}")
        if not controls:
            raise ValueError("controls: expected at least one slider, got none")
        self.fig = fig
        self.callback = callback
        self.controls = controls
        self.output = widgets.Output()
        for control in controls.values():
            control.observe(self._on_change, names="value")
        self.panel = widgets.VBox([widgets.VBox(list(controls.values())), self.output])
        self.image = widgets.Image(format="png")
        self.error = None
        self._holding = False
        self._live = None
        self._image_shown = False
        plt.close(fig)
        self.callback(**self.values)  # a broken demo fails the cell that builds it
        self._show()
        if self._live is not None:
            # once more, so the live canvas learns which artists the callback moves and keeps
            # a background without them: the first slider move is then as quick as the next
            self.callback(**self.values)
            self._show()

    @property
    def values(self) -> dict:
        """The sliders' current values, by keyword."""
        return {name: control.value for name, control in self.controls.items()}

    def _on_change(self, change=None):
        """A slider moved: run the callback and redraw, or show its traceback in ``output``."""
        from IPython import get_ipython
        from IPython.display import clear_output

        if self._holding:  # set() moves several sliders, then redraws once
            return
        shell = get_ipython()
        if shell is None:  # plain Python (doctests, scripts): errors propagate as usual
            self.callback(**self.values)
            return
        try:
            self.callback(**self.values)
        except Exception as exc:  # an observer's exception would be lost: show it here
            self.error = exc
            with self.output:
                clear_output()
                shell.showtraceback()
            self._image_shown = False
            return
        self.error = None
        self._show()

    def _show(self):
        from IPython import get_ipython
        from IPython.display import clear_output, display

        if get_ipython() is None:  # nothing to show outside IPython
            return
        png = self.png()
        if png == self.image.value:
            # the same picture: the front end would see no change, so show the image anew
            # (a move is always answered, as the browser tests require)
            self._image_shown = False
        self.image.value = png              # sent in place, as binary: no new output, no base64
        if not self._image_shown:           # at the start, and after a traceback took its place
            with self.output:
                clear_output(wait=True)
                display(self.image)
            self._image_shown = True

    def png(self) -> bytes:
        """The figure as PNG bytes for the live panel, redrawing only what changed.

        The inline backend draws a figure twice to show it (once to find the
        tight box around its artists, once to paint it) and compresses the
        PNG hard.  A panel redraws on every slider move, so it finds its box
        once, at the first redraw (the tight box, widened to the whole figure
        so that a longer label later is not cut); a :class:`LiveCanvas` then
        paints it, drawing again only the artists the callback moved when
        nothing else changed, and the PNG is compressed lightly (no row filters,
        zlib level 1: half the time of Pillow's encoder, about the same size).  The static
        figures (``snapshot``, the book) are shown by the inline backend as
        before.
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.transforms import Bbox

        if self._live is None:
            canvas = self.fig.canvas
            if not isinstance(canvas, FigureCanvasAgg):     # closed from pyplot: a bare canvas
                canvas = FigureCanvasAgg(self.fig)
            canvas.draw()
            tight = self.fig.get_tightbbox(canvas.get_renderer()).padded(0.1)
            whole = Bbox.from_bounds(0, 0, *self.fig.get_size_inches())
            self._live = LiveCanvas(self.fig, Bbox.union([tight, whole]))
        return _png(self._live.paint())

    def set(self, **values: Any) -> Any:
        """Move the sliders to ``values`` (others stay), redraw once, return the figure.

        Unlike :meth:`snapshot` the panel shows the new values too.  A value
        outside a slider's range is clipped by the slider, as a drag would be.
        """
        unknown = set(values) - set(self.controls)
        if unknown:
            raise ValueError(
                f"values: expected keywords among {sorted(self.controls)}, got {sorted(unknown)}"
            )
        self._holding = True
        try:
            for name, value in values.items():
                self.controls[name].value = value
        finally:
            self._holding = False
        self._on_change()
        return self.fig

    def snapshot(self, **values: Any) -> Any:
        """Call the callback with ``values`` (others as the sliders stand) and return the figure.

        This is how a notebook drives the demo from code: the returned figure
        displays as a static image in the web book.
        """
        unknown = set(values) - set(self.controls)
        if unknown:
            raise ValueError(
                f"values: expected keywords among {sorted(self.controls)}, got {sorted(unknown)}"
            )
        merged = {**self.values, **values}
        self.callback(**merged)
        return self.fig

    def _ipython_display_(self):
        from IPython.display import display

        display(self.panel)
