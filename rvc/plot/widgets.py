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

__all__ = ["SliderDemo"]


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
        Where the figure is drawn, or the traceback when the callback fails.
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
        self.error = None
        self._holding = False
        self._bbox = None
        plt.close(fig)
        self.callback(**self.values)  # a broken demo fails the cell that builds it
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
            return
        self.error = None
        self._show()

    def _show(self):
        from IPython import get_ipython
        from IPython.display import Image, clear_output, display

        if get_ipython() is None:  # nothing to show outside IPython
            return
        png = self.png()
        with self.output:
            clear_output(wait=True)
            display(Image(png))

    def png(self) -> bytes:
        """The figure as PNG bytes, drawn once, for the live panel.

        The inline backend draws a figure twice to show it (once to find the
        tight box around its artists, once to paint it) and compresses the
        PNG hard.  A panel redraws on every slider move, so it finds its box
        once, at the first redraw (the tight box, widened to the whole figure
        so that a longer label later is not cut), then paints once per move
        and compresses lightly.  The static figures (``snapshot``, the book)
        are shown by the inline backend as before.
        """
        import io

        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.transforms import Bbox

        if self._bbox is None:
            canvas = self.fig.canvas
            if not isinstance(canvas, FigureCanvasAgg):     # closed from pyplot: a bare canvas
                canvas = FigureCanvasAgg(self.fig)
            canvas.draw()
            tight = self.fig.get_tightbbox(canvas.get_renderer()).padded(0.1)
            whole = Bbox.from_bounds(0, 0, *self.fig.get_size_inches())
            self._bbox = Bbox.union([tight, whole])
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png", bbox_inches=self._bbox, pil_kwargs={"compress_level": 1})
        return buf.getvalue()

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
