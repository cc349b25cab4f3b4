"""Forward dynamics of the elastic five-bar: compact model against the per-chain method.

    .venv/bin/python benchmarks/parallel.py      (make bench runs it too)

The source claims that computing the direct dynamics chain by chain (SCDD)
beats factoring the compact model once the chains carry several elastic
coordinates.  For 1 to 8 springs per proximal link (``FiveBar(n_elastic=k)``)
this counts the floating-point operations of each solver's linear algebra
(``rvc.parallel.operation_counts``) and times it, on the chains' matrices
evaluated beforehand (all solvers share that step), for one state and for a
batch of 200 states; plus the whole ``forward_dynamics`` call for one state.
Writes ``benchmarks/parallel.md`` and ``benchmarks/parallel.png`` (the book's
appendix shows them).  Timings are measurements, never test assertions.
"""

from __future__ import annotations

import platform
import sys
import time
import timeit
from pathlib import Path

import numpy as np

from rvc.parallel import FiveBar, operation_counts

HERE = Path(__file__).resolve().parent
BATCH = 200
KS = range(1, 9)


def best(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=7)) / number


def measure(k):
    start = time.perf_counter()
    model = FiveBar(n_elastic=k)
    rng = np.random.default_rng(k)
    out = {"k": k, "n_c": model.n_compact, "N": model.N}
    for batch in (1, BATCH):
        shape = () if batch == 1 else (batch,)
        q = model.assemble(model.q_home[model.ia], rng.normal(0, 0.01, shape + (len(model.ie),)))
        qd = model.velocities(q, rng.normal(0, 1, shape + (model.n_compact,)))
        terms = model.chain_terms(q, qd)
        if batch == 1:
            out["derive"] = time.perf_counter() - start
        tau = np.ones(2)
        solvers = {name: (lambda name=name: model.solve_forward(terms, tau, name))
                   for name in ("compact", "kkt", "scdd")}
        ref = solvers["compact"]()
        for name, fn in solvers.items():
            err = np.abs(fn() - ref).max() / np.abs(ref).max()
            assert err < 1e-8, (k, name, err)
            out[f"{name}_{batch}"] = best(fn, 200 if batch == 1 else 20)
        if batch == 1:
            qc = rng.normal(0, 1, model.n_compact)
            for name in ("compact", "scdd"):
                out[f"full_{name}"] = best(lambda: model.forward_dynamics(q, qc, [1.0, 1.0], name), 50)
    out.update(operation_counts(model))
    return out


def main() -> int:
    rows = []
    print(f"{'k':>2} {'n_c':>3} {'flops compact':>13} {'scdd':>6}   "
          f"{'1 state compact':>15} {'scdd':>6} (us)   {BATCH} states compact  scdd (us)   derive (s)")
    for k in KS:
        r = measure(k)
        rows.append(r)
        print(f"{k:2d} {r['n_c']:3d} {r['compact']:13.0f} {r['scdd']:6.0f}   "
              f"{r['compact_1'] * 1e6:15.1f} {r['scdd_1'] * 1e6:6.1f}        "
              f"{r[f'compact_{BATCH}'] * 1e6:14.0f} {r[f'scdd_{BATCH}'] * 1e6:5.0f}        {r['derive']:6.1f}")

    lines = [
        f"| springs per chain | compact coordinates | flops compact / per-chain | "
        f"1 state: compact / KKT / per-chain (us) | {BATCH} states: compact / KKT / per-chain (us) | "
        f"whole `forward_dynamics`, 1 state: compact / per-chain (us) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['k']} | {r['n_c']} | {r['compact']:.0f} / {r['scdd']:.0f} | "
            f"{r['compact_1'] * 1e6:.0f} / {r['kkt_1'] * 1e6:.0f} / {r['scdd_1'] * 1e6:.0f} | "
            f"{r[f'compact_{BATCH}'] * 1e6:.0f} / {r[f'kkt_{BATCH}'] * 1e6:.0f} / "
            f"{r[f'scdd_{BATCH}'] * 1e6:.0f} | "
            f"{r['full_compact'] * 1e6:.0f} / {r['full_scdd'] * 1e6:.0f} |")
    def listed(ks):
        return ", ".join(map(str, ks)) if ks else "no number of"

    wins = [r["k"] for r in rows if r[f"scdd_{BATCH}"] < r[f"compact_{BATCH}"]]
    wins1 = [r["k"] for r in rows if r["scdd_1"] < r["compact_1"]]
    kkt = [r["k"] for r in rows if r["kkt_1"] < min(r["compact_1"], r["scdd_1"])]
    verdict = (f"On this run the per-chain solve beat the compact one for one state with "
               f"{listed(wins1)} springs per chain, and for {BATCH} states with {listed(wins)} springs "
               f"per chain; the KKT system, one LAPACK call, was the fastest of the three for one state "
               f"with {listed(kkt)} springs per chain")
    machine = (f"{platform.processor() or platform.machine()}, Python {sys.version.split()[0]}, "
               f"numpy {np.__version__}")
    (HERE / "parallel.md").write_text(
        "Measured by `benchmarks/parallel.py` on " + machine + " (best of 7 runs); the linear algebra "
        "of each solver on the chains' evaluated matrices, except the last column.\n\n"
        + "\n".join(lines) + "\n\n" + verdict + ".\n")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = [r["k"] for r in rows]
    fig, axs = plt.subplots(1, 2, figsize=(8, 3.2), dpi=100)
    for name, style in (("compact", "o-"), ("kkt", "s-"), ("scdd", "^-")):
        axs[0].semilogy(ks, [r[name] for r in rows], style, ms=4, label=name)
        axs[1].semilogy(ks, [r[f"{name}_{BATCH}"] * 1e6 for r in rows], style, ms=4, label=name)
    axs[0].set_title("operations (flops)", fontsize=10)
    axs[1].set_title(f"time for {BATCH} states (us)", fontsize=10)
    for ax in axs:
        ax.set_xlabel("springs per chain")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(HERE / "parallel.png")
    print(verdict)
    print(f"wrote {HERE / 'parallel.md'} and {HERE / 'parallel.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
