"""How long every slider callback of every chapter notebook takes (issue 12: < 50 ms).

    make bench        (or: MPLBACKEND=Agg .venv/bin/python benchmarks/sliders.py [notebook ...])

Runs the code cells of each notebook in ``_toc.yml`` (in a plain Python
namespace, Agg backend, from ``notebooks/``), collecting every
:class:`rvc.SliderDemo` and every teach panel (``robot.teach``) the notebook
builds.  Then it moves each slider of each demo through its range, five
values per slider, the way a student does, and times

* the callback alone, as ``demo.snapshot(**{name: value})`` runs it (the
  maths and the artist updates: what the 50 ms budget is for), and
* the callback followed by rendering the figure to PNG as the inline
  backend does when the panel redraws (what the student waits for).

For a teach panel the callback is ``panel.update(q)``, at five
configurations spread over the joint limits.  Writes ``sliders.md`` and
``sliders.json`` next to this file.
"""

from __future__ import annotations

import os

os.environ.setdefault("MPLBACKEND", "Agg")

import contextlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUDGET = 0.050          # seconds, per callback
VALUES = 5              # positions per slider
REPEAT = 3              # timings per position (the median is kept)


def notebooks():
    """The chapter notebooks, in the order of _toc.yml."""
    toc = (ROOT / "_toc.yml").read_text()
    return [ROOT / f"{name}.ipynb" for name in re.findall(r"file:\s*(notebooks/\S+)", toc)]


def run_notebook(path: Path):
    """Execute the code cells of a notebook; return the demos and teach panels it built."""
    import matplotlib.pyplot as plt
    import nbformat

    import rvc.plot.robot
    import rvc.plot.widgets

    built = []
    originals = {}
    for cls in (rvc.plot.widgets.SliderDemo, rvc.plot.robot.Teach):
        init = cls.__init__
        originals[cls] = init

        def recording(self, *args, _init=init, **kwargs):
            _init(self, *args, **kwargs)
            built.append(self)

        cls.__init__ = recording
    namespace = {"__name__": "__main__"}
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            source = "\n".join(line for line in cell.source.splitlines()
                               if not line.lstrip().startswith(("%", "!")))
            expect_error = "raises-exception" in cell.get("metadata", {}).get("tags", [])
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                warnings.simplefilter("ignore")
                try:
                    exec(compile(source, f"{path.name}", "exec"), namespace)
                except Exception:
                    if not expect_error:
                        raise
            plt.close("all")
    finally:
        os.chdir(cwd)
        for cls, init in originals.items():
            cls.__init__ = init
    return built


def positions(control):
    """VALUES settings of a widget across its range (or its options)."""
    if hasattr(control, "options") and control.options:
        opts = list(control.options)
        values = [o[1] if isinstance(o, tuple) else o for o in opts]
        return [values[int(i)] for i in np.linspace(0, len(values) - 1, min(VALUES, len(values)))]
    if hasattr(control, "min") and hasattr(control, "max"):
        v = np.linspace(control.min, control.max, VALUES)
        return [type(control.value)(x) for x in v]
    if isinstance(control.value, bool):
        return [False, True]
    return [control.value]


def render(fig):
    """Render the figure to PNG as the inline backend does."""
    from IPython.core.pylabtools import print_figure

    print_figure(fig, "png", bbox_inches="tight")


def time_calls(calls, fig):
    """Median over REPEAT of each call: (callback seconds, callback + render seconds) lists."""
    alone, drawn = [], []
    for call in calls:
        a, d = [], []
        for _ in range(REPEAT):
            start = time.perf_counter()
            call()
            a.append(time.perf_counter() - start)
            render(fig)
            d.append(time.perf_counter() - start)
        alone.append(float(np.median(a)))
        drawn.append(float(np.median(d)))
    return alone, drawn


def measure(obj):
    """Time one demo or teach panel: a dict for the report."""
    import rvc.plot.robot

    if isinstance(obj, rvc.plot.robot.Teach):
        lo, hi = np.asarray(obj.robot.qlim, dtype=float)
        lo = np.where(np.isfinite(lo), lo, -np.pi)
        hi = np.where(np.isfinite(hi), hi, np.pi)
        qs = [lo + f * (hi - lo) for f in np.linspace(0.05, 0.95, VALUES)]
        name = f"teach panel ({getattr(obj.robot, 'name', '') or type(obj.robot).__name__}, {obj.robot.n} joints)"
        calls = [(lambda q=q: obj.update(q)) for q in qs]
        sliders = obj.robot.n
    else:
        name = obj.callback.__qualname__.replace(".<locals>.", " > ")
        calls = [(lambda k=k, v=v: obj.snapshot(**{k: v}))
                 for k, c in obj.controls.items() for v in positions(c)]
        sliders = len(obj.controls)
    start = dict(obj.values) if hasattr(obj, "values") else None
    alone, drawn = time_calls(calls, obj.fig)
    if start is not None:
        obj.snapshot(**start)
    return {"demo": name, "sliders": sliders, "moves": len(calls),
            "callback_median_ms": 1e3 * float(np.median(alone)), "callback_max_ms": 1e3 * max(alone),
            "with_render_median_ms": 1e3 * float(np.median(drawn)), "with_render_max_ms": 1e3 * max(drawn),
            "within_budget": max(alone) < BUDGET}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    wanted = sys.argv[1:]                    # optionally, some notebooks only (names or parts of names)
    results = []
    for path in notebooks():
        if wanted and not any(w in path.name for w in wanted):
            continue
        t0 = time.perf_counter()
        built = run_notebook(path)
        print(f"{path.name}: ran in {time.perf_counter() - t0:.0f} s, {len(built)} slider panels", flush=True)
        for obj in built:
            r = {"notebook": path.name, **measure(obj)}
            results.append(r)
            print(f"  {r['demo']:60s} callback median {r['callback_median_ms']:6.2f} ms, max "
                  f"{r['callback_max_ms']:6.2f} ms; with the PNG render max {r['with_render_max_ms']:6.1f} ms",
                  flush=True)
    worst = max((r["callback_max_ms"] for r in results), default=0.0)
    ok = all(r["within_budget"] for r in results)
    lines = [f"Every slider of every chapter notebook, moved through its range ({VALUES} positions "
             f"per slider, median of {REPEAT} timings each): {len(results)} panels, slowest callback "
             f"{worst:.1f} ms ({'all within' if ok else 'NOT all within'} the {BUDGET * 1e3:.0f} ms budget). "
             "The callback updates the figure's artists; rendering the figure to PNG, as the inline "
             "backend does when the panel redraws, comes on top.", "",
             "| notebook | panel | sliders | callback median (ms) | callback max (ms) | with render, max (ms) |",
             "|---|---|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r['notebook']} | {r['demo']} | {r['sliders']} | {r['callback_median_ms']:.2f} | "
                     f"{r['callback_max_ms']:.2f} | {r['with_render_max_ms']:.0f} |")
    (HERE / "sliders.md").write_text("\n".join(lines) + "\n")
    (HERE / "sliders.json").write_text(json.dumps({"budget_ms": BUDGET * 1e3, "panels": results}, indent=1) + "\n")
    print(f"wrote {HERE / 'sliders.md'} and sliders.json; slowest callback {worst:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
