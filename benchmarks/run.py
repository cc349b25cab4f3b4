"""Speed of rvc where it matters: batched calls against Python loops.

    make bench        (or: .venv/bin/python benchmarks/run.py)

Prints a table and writes ``benchmarks/results.md`` and
``benchmarks/results.png``, which the book's appendix shows.  Timings are
measurements, never test assertions: they depend on the machine.
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import numpy as np

import rvc
from rvc import models

HERE = Path(__file__).resolve().parent
N = 1000


def best_of(fn, repeat: int = 5, number: int = 1) -> float:
    """Best wall time of ``fn`` in seconds over ``repeat`` runs of ``number`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def cases():
    rng = np.random.default_rng(0)
    angles = rng.uniform(-np.pi, np.pi, N)
    rpy = rng.uniform(-1, 1, (N, 3))
    R = rvc.rpy2r(rpy)
    q0, q1 = rvc.r2q(R[0]), rvc.r2q(R[1])
    s = np.linspace(0, 1, N)
    T0, T1 = rvc.transl(0.1, 0.2, 0.3) @ rvc.trotx(0.3), rvc.transl(0.5, -0.2, 0.1) @ rvc.troty(1.0)
    p560 = models.puma560()
    Q = rng.uniform(-1, 1, (N, 6))
    T = p560.fkine(Q)
    small = T[:100]

    yield ("rotx", f"{N} angles",
           lambda: rvc.rotx(angles), lambda: [rvc.rotx(a) for a in angles])
    yield ("rpy2r", f"{N} triples",
           lambda: rvc.rpy2r(rpy), lambda: [rvc.rpy2r(r) for r in rpy])
    yield ("r2q", f"{N} rotations",
           lambda: rvc.r2q(R), lambda: [rvc.r2q(r) for r in R])
    yield ("qslerp", f"{N} values of s",
           lambda: rvc.qslerp(q0, q1, s), lambda: [rvc.qslerp(q0, q1, x) for x in s])
    yield ("trinterp", f"{N} values of s",
           lambda: rvc.trinterp(T0, T1, s), lambda: [rvc.trinterp(T0, T1, x) for x in s])
    yield ("jtraj", f"{N} steps, 6 joints", lambda: rvc.jtraj(np.zeros(6), np.ones(6), N), None)
    yield ("Puma fkine", f"{N} configurations",
           lambda: p560.fkine(Q), lambda: [p560.fkine(q) for q in Q])
    yield ("ikine6s", "100 poses",
           lambda: rvc.ikine6s(p560, small, "lun"), lambda: [rvc.ikine6s(p560, t, "lun") for t in small])
    yield ("ikine (LM)", "20 poses, warm start",
           lambda: rvc.kinematics.ikine(p560, T[:20], q0=Q[0]), None)


def main() -> int:
    rows = []
    for name, size, batched, looped in cases():
        tb = best_of(batched)
        tl = best_of(looped, repeat=2) if looped else float("nan")
        rows.append((name, size, tb, tl))
        speedup = f"{tl / tb:6.1f}x" if looped else "   -  "
        print(f"{name:12s} {size:22s} batched {tb * 1e3:9.3f} ms   loop "
              f"{tl * 1e3 if looped else float('nan'):9.3f} ms   {speedup}")

    lines = [
        "| function | input | batched call (ms) | Python loop (ms) | speed-up |",
        "|---|---|---:|---:|---:|",
    ]
    for name, size, tb, tl in rows:
        loop = f"{tl * 1e3:.2f}" if np.isfinite(tl) else "-"
        speed = f"{tl / tb:.0f}x" if np.isfinite(tl) else "-"
        lines.append(f"| `{name}` | {size} | {tb * 1e3:.3f} | {loop} | {speed} |")
    machine = f"{platform.processor() or platform.machine()}, Python {sys.version.split()[0]}, numpy {np.__version__}"
    (HERE / "results.md").write_text(
        "Measured by `make bench` on " + machine + " (best of 5 runs).\n\n" + "\n".join(lines) + "\n"
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    labels = [r[0] for r in rows if np.isfinite(r[3])]
    speed = [r[3] / r[2] for r in rows if np.isfinite(r[3])]
    ax.barh(labels, speed, color="tab:blue")
    ax.set_xscale("log")
    ax.set_xlabel("speed-up of one batched call over a Python loop")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(HERE / "results.png")
    print(f"wrote {HERE / 'results.md'} and {HERE / 'results.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
