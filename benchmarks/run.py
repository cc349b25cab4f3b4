"""rvc against its peers, side by side (issue 12).

    make bench        (installs the peers into .venv-peers, then runs this there)

Every workload runs on the Puma 560 (and the Cobra 600 for masked inverse
kinematics), built for each peer from rvc's own DH table:
roboticstoolbox-python (its Python DH code, its compiled C++ ETS paths and
``ik_LM``, its compiled trajectory ``rne``) and Pinocchio (the chain built
joint by joint from the same table, link inertias and motor armature
``G^2 Jm`` included) driven from a Python loop.  Before an implementation is
timed its answer is checked against rvc's (to 1e-9); one that disagrees is
reported and not timed.

For each workload and each N in ``SIZES`` the implementations are timed
round-robin (one sample of each in turn, repeated), and the table gives the
minimum and the median time per configuration; ratios compare minima within
this one run.  Numerical IK is compared on the same poses from the same
starts, counting an rvc success only within 1e-9 m and rad of the pose and a
peer success within 1e-6.  The dynamics workloads (``rne``, ``inertia``) run
as soon as rvc has them (Chapter 9).

Writes ``benchmarks/results.md``, ``results.json`` and ``results.png`` (time
per configuration against N), which the book's speed appendix shows.  Timings
are measurements, never test assertions: they depend on the machine.
"""

from __future__ import annotations

import os

# one BLAS thread, and no OpenBLAS tuning for old builds (they slow a current numpy);
# before numpy is imported, so that the run is the same however this script is started
os.environ.pop("OPENBLAS_CORETYPE", None)
os.environ.pop("OPENBLAS_L2_SIZE", None)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import rvc  # noqa: E402
from rvc import ikine, trlog  # noqa: E402
from rvc.models import cobra600, puma560  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZES = (1, 10, 100, 1000, 10000)
LOOP_LIMIT = 1000          # Python loops over configurations are flat in N: not timed beyond this
CHECK_TOL = 1e-9
RVC_IK_TOL, PEER_IK_TOL = 1e-9, 1e-6


# ---------------------------------------------------------------- timing ---

def _repeats(N: int) -> int:
    """Rounds of the round robin: many short ones, so that the minimum is seldom disturbed."""
    return 31 if N <= 100 else 11 if N <= 1000 else 5


def round_robin(candidates: dict, repeat: int, min_sample: float = 0.002) -> dict:
    """Time each callable in turn, ``repeat`` rounds: per call, min and median (s).

    A sample makes enough calls to last ``min_sample`` seconds (from a first,
    untimed call), so short calls are not swamped by the clock.
    """
    number = {}
    for name, fn in candidates.items():
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        number[name] = max(1, int(min_sample / max(once, 1e-9)))
    samples = {name: [] for name in candidates}
    for _ in range(repeat):
        for name, fn in candidates.items():
            n = number[name]
            start = time.perf_counter()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter() - start) / n)
    return {name: (min(s), float(np.median(s))) for name, s in samples.items()}


# ------------------------------------------------------------ the models ---

def rtb_robot(robot):
    """roboticstoolbox-python's DHRobot with rvc's link table (kinematics and dynamics)."""
    import roboticstoolbox as rtb
    from spatialmath import SE3

    links = []
    for L in robot.links:
        common = dict(a=L.a, alpha=L.alpha, offset=L.offset, qlim=L.qlim, m=L.m, r=L.r, I=L.I,
                      Jm=L.Jm, B=L.B, Tc=L.Tc, G=L.G)
        links.append(rtb.RevoluteDH(d=L.d, **common) if L.isrevolute else
                     rtb.PrismaticDH(theta=L.theta, **common))
    return rtb.DHRobot(links, base=SE3(robot.base, check=False), tool=SE3(robot.tool, check=False),
                       gravity=robot.gravity, name=robot.name)


def pinocchio_robot(robot):
    """A Pinocchio model of a standard-DH revolute chain, from rvc's link table.

    Joint j turns frame {j-1} (rotated by its offset) about z; link j's body,
    whose mass, centre of mass and inertia rvc gives in frame {j}, sits at
    ``Tz(d) Tx(a) Rx(alpha)`` from the joint; the motor's armature
    ``G^2 Jm`` is on the joint.  Returns (model, data, tool frame id).
    """
    import pinocchio as pin

    if robot.mdh or not all(robot.revolute):
        raise ValueError("pinocchio_robot: a standard DH chain of revolute joints only")
    model = pin.Model()
    parent, placement = 0, pin.SE3(np.asarray(robot.base))
    for j, L in enumerate(robot.links):
        offset = pin.SE3(rvc.rotz(L.offset), np.zeros(3))
        joint = model.addJoint(parent, pin.JointModelRZ(), placement * offset, f"q{j + 1}")
        A = pin.SE3(rvc.transl(0, 0, L.d) @ rvc.transl(L.a, 0, 0) @ rvc.trotx(L.alpha))
        model.appendBodyToJoint(joint, pin.Inertia(L.m, np.asarray(L.r), np.asarray(L.I)), A)
        parent, placement = joint, A
    model.armature = np.array([L.G ** 2 * L.Jm for L in robot.links])
    model.gravity.linear = np.asarray(robot.gravity, dtype=float)
    tool = model.addFrame(pin.Frame("tool", parent, 0, placement * pin.SE3(np.asarray(robot.tool)),
                                    pin.FrameType.OP_FRAME))
    return model, model.createData(), tool


# -------------------------------------------------------------- workloads ---
# Each workload gives, for N, a dict of implementations: name -> (call, answer),
# ``answer()`` returning what is compared with rvc's answer (rvc first).

def _puma_inputs(N, seed=0):
    rng = np.random.default_rng(seed)
    p560 = puma560()
    lo, hi = p560.qlim
    return rng.uniform(lo, hi, (N, 6)), rng.uniform(-1, 1, (N, 6)), rng.uniform(-1, 1, (N, 6))


def _loop(f, Q, shape):
    """A Python loop over configurations, filling an array of the given trailing shape."""
    def run():
        out = np.empty((len(Q),) + shape)
        for k, q in enumerate(Q):
            out[k] = f(q)
        return out
    return run


def fkine_workload(N, m):
    Q, _, _ = _puma_inputs(N)
    p560, r, e = m["rvc"], m["rtb"], m["rtb_ets"]
    model, data, tool = m["pin"]
    import pinocchio as pin

    def pin_fk(q):
        pin.forwardKinematics(model, data, q)
        return pin.updateFramePlacement(model, data, tool).homogeneous

    impl = {"rvc": (lambda: p560.fkine(Q) if N > 1 else p560.fkine(Q[0]),)}
    impl["roboticstoolbox C++ (ETS)"] = (lambda: e.eval(Q) if N > 1 else e.eval(Q[0]),)
    if N <= LOOP_LIMIT:
        impl["roboticstoolbox Python (DH)"] = (_loop(lambda q: r.fkine(q).A, Q, (4, 4)),)
    impl["Pinocchio (Python loop)"] = (_loop(pin_fk, Q, (4, 4)),)
    return {k: (v[0], v[0]) for k, v in impl.items()}


def jacob0_workload(N, m):
    Q, _, _ = _puma_inputs(N)
    p560, r, e = m["rvc"], m["rtb"], m["rtb_ets"]
    model, data, tool = m["pin"]
    import pinocchio as pin

    def pin_jac(q):
        return pin.computeFrameJacobian(model, data, q, tool, pin.LOCAL_WORLD_ALIGNED)

    impl = {"rvc": lambda: p560.jacob0(Q) if N > 1 else p560.jacob0(Q[0])}
    impl["roboticstoolbox C++ (ETS, Python loop)"] = _loop(e.jacob0, Q, (6, 6)) if N > 1 else (
        lambda: e.jacob0(Q[0]))
    if N <= LOOP_LIMIT:
        impl["roboticstoolbox Python (DH)"] = _loop(r.jacob0, Q, (6, 6)) if N > 1 else (
            lambda: r.jacob0(Q[0]))
    impl["Pinocchio (Python loop)"] = _loop(pin_jac, Q, (6, 6))
    return {k: (v, v) for k, v in impl.items()}


def rne_workload(N, m):
    """Inverse dynamics of a trajectory: rvc.rne(robot, q, qd, qdd) (Chapter 9)."""
    Q, QD, QDD = _puma_inputs(N)
    p560, r = m["rvc"], m["rtb"]
    model, data, _ = m["pin"]
    import pinocchio as pin

    zero = np.zeros_like(QD)
    impl = {"rvc": (lambda: rvc.rne(p560, Q, QD, QDD), lambda: rvc.rne(p560, Q, zero, QDD))}
    # roboticstoolbox's rne adds motor friction, as rvc's does: checked at the timed inputs
    impl["roboticstoolbox C (trajectory rne)"] = (lambda: r.rne(Q, QD, QDD), lambda: r.rne(Q, QD, QDD))
    # Pinocchio's rnea has no friction: checked with qd = 0 (inertia, armature, gravity)
    impl["Pinocchio (Python loop)"] = (
        lambda: np.array([pin.rnea(model, data, q, v, a) for q, v, a in zip(Q, QD, QDD)]),
        lambda: np.array([pin.rnea(model, data, q, 0 * q, a) for q, a in zip(Q, QDD)]))
    return impl


def inertia_workload(N, m):
    """Joint-space inertia matrices of a trajectory: rvc.inertia(robot, q) (Chapter 9)."""
    Q, _, _ = _puma_inputs(N)
    p560, r = m["rvc"], m["rtb"]
    model, data, _ = m["pin"]
    import pinocchio as pin

    def pin_M(q):
        M = pin.crba(model, data, q)
        return np.triu(M) + np.triu(M, 1).T

    impl = {"rvc": lambda: rvc.inertia(p560, Q)}
    impl["roboticstoolbox C (trajectory inertia)"] = lambda: r.inertia(Q)
    impl["Pinocchio (Python loop)"] = _loop(pin_M, Q, (6, 6))
    return {k: (v, v) for k, v in impl.items()}


WORKLOADS = {
    "fkine": fkine_workload,
    "jacob0": jacob0_workload,
    "rne": rne_workload,
    "inertia": inertia_workload,
}


def available(name: str) -> bool:
    """fkine and jacob0 always; rne and inertia once rvc has them (Chapter 9)."""
    return name in ("fkine", "jacob0") or hasattr(rvc, name)


def run_workload(name, m):
    rows = []
    for N in SIZES:
        impl = WORKLOADS[name](N, m)
        # the rne check against roboticstoolbox is at the timed inputs (friction on both)
        answers = {}
        ours = np.asarray(impl["rvc"][1]())
        status = {"rvc": "reference"}
        timed = {"rvc": impl["rvc"][0]}
        for peer, (call, answer) in impl.items():
            if peer == "rvc":
                continue
            try:
                theirs = np.asarray(answer())
                reference = ours
                if name == "rne" and peer.startswith("roboticstoolbox"):
                    Q, QD, QDD = _puma_inputs(N)
                    reference = np.asarray(rvc.rne(m["rvc"], Q, QD, QDD))
                diff = float(np.max(np.abs(theirs.reshape(reference.shape) - reference)))
            except Exception as exc:                       # a peer that cannot do it is reported
                status[peer] = f"check failed: {type(exc).__name__}: {exc}"[:200]
                continue
            answers[peer] = diff
            if diff <= CHECK_TOL:
                status[peer] = f"agrees to {diff:.1e}"
                timed[peer] = call
            else:
                status[peer] = f"check failed: differs by {diff:.3g}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            times = round_robin(timed, _repeats(N))
        for impl_name in impl:
            t = times.get(impl_name)
            rows.append({"workload": name, "N": N, "implementation": impl_name,
                         "status": status.get(impl_name, ""),
                         "min": None if t is None else t[0] / N,
                         "median": None if t is None else t[1] / N})
        print(f"{name:8s} N={N:<6d} " + "  ".join(
            f"{k}: {times[k][0] / N * 1e6:.3g} us" for k in times), flush=True)
    return rows


# ------------------------------------------------------------------ ikine ---

def pose_errors(robot, q, T, mask):
    """Position (m) and rotation (rad) errors of fkine(q) from T, on the masked components."""
    Ta = np.asarray(robot.fkine(q))
    w = np.asarray(mask, dtype=float) > 0
    dt = (T[..., :3, 3] - Ta[..., :3, 3]) * w[:3]
    dr = trlog(T[..., :3, :3] @ np.swapaxes(Ta[..., :3, :3], -1, -2), twist=True, check=False) * w[3:]
    return np.linalg.norm(dt, axis=-1), np.linalg.norm(dr, axis=-1)


def ik_workload(robot_name, m, sizes, mask):
    robot = m["rvc"] if robot_name == "Puma 560" else m["cobra"]
    e = m["rtb_ets"] if robot_name == "Puma 560" else m["cobra_ets"]
    rng = np.random.default_rng(7)
    lo, hi = robot.qlim
    rows, counts = [], []
    mask = np.ones(6) if mask is None else np.asarray(mask, dtype=float)
    peer_tol = 0.5 * PEER_IK_TOL ** 2        # ik_LM stops at E = e^T W e / 2 below tol
    for N in sizes:
        Q = rng.uniform(lo, hi, (N, robot.n))
        T = np.asarray(robot.fkine(Q))
        Q0 = np.zeros((N, robot.n))

        def ours():
            return ikine(robot, T, Q0, mask=mask)

        def theirs():
            return [e.ik_LM(T[k], q0=Q0[k], tol=peer_tol, mask=mask, joint_limits=False) for k in range(N)]

        def ours_one_at_a_time():
            return [ikine(robot, T[k], Q0[k], mask=mask) for k in range(N)]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sol, peer = ours(), theirs()
            et, er = pose_errors(robot, sol.q, T, mask)
            mine = int(np.count_nonzero(sol.success & (et <= RVC_IK_TOL) & (er <= RVC_IK_TOL)))
            pq = np.array([s.q for s in peer])
            pt, pr = pose_errors(robot, pq, T, mask)
            them = int(np.count_nonzero((pt <= PEER_IK_TOL) & (pr <= PEER_IK_TOL)))
            timed = {"rvc (batch)": ours, "roboticstoolbox C++ ik_LM (Python loop)": theirs}
            if N <= 100:
                timed["rvc (one pose at a time)"] = ours_one_at_a_time
            times = round_robin(timed, max(5, _repeats(N) // 3), min_sample=0.02)
        counts.append({"robot": robot_name, "N": N, "mask": mask.tolist(), "rvc": mine, "peer": them,
                       "rvc_max_error": float(max(et.max(), er.max())),
                       "rvc_iterations_mean": float(sol.iterations.mean()),
                       "rvc_restarted": int(np.count_nonzero(sol.searches))})
        for k, (tmin, tmed) in times.items():
            rows.append({"workload": f"ikine {robot_name}" + (" masked" if mask.min() == 0 else ""),
                         "N": N, "implementation": k, "status": "", "min": tmin / N, "median": tmed / N})
        print(f"ikine {robot_name:8s} N={N:<6d} successes rvc {mine}/{N} peer {them}/{N}  " + "  ".join(
            f"{k}: {v[0] / N * 1e6:.4g} us/pose" for k, v in times.items()), flush=True)
    return rows, counts


# ----------------------------------------------------------------- report ---

def fastest_peer(rows, workload, N):
    peers = [r for r in rows if r["workload"] == workload and r["N"] == N and r["min"] is not None
             and not r["implementation"].startswith("rvc")]
    return min(peers, key=lambda r: r["min"]) if peers else None


def rvc_row(rows, workload, N, which="rvc"):
    for r in rows:
        if r["workload"] == workload and r["N"] == N and r["implementation"] == which:
            return r
    return None


def goals(rows, counts):
    """The issue's goals, each as a measured ratio (rvc / peer) and met or not."""
    out = []

    def ratio(workload, N, which="rvc", peer=None, limit=1.0, goal="", informative=False):
        ours = rvc_row(rows, workload, N, which)
        if peer is None:
            ref = fastest_peer(rows, workload, N)
        else:
            ref = rvc_row(rows, workload, N, peer)
        if ours is None or ours["min"] is None or ref is None:
            out.append({"goal": goal, "ratio": None, "limit": limit, "met": None, "peer": None})
            return
        q = ours["min"] / ref["min"]
        out.append({"goal": goal, "ratio": q, "limit": limit, "met": None if informative else q <= limit,
                    "peer": ref["implementation"]})

    for w in ("fkine", "jacob0", "rne", "inertia"):
        ratio(w, 1000, goal=f"1. {w}, N = 1000, at most the fastest peer")
    ratio("fkine", 1, peer="roboticstoolbox Python (DH)", limit=0.25,
          goal="2. fkine, one call, at most 0.25 x roboticstoolbox-python (same DH robot)")
    ratio("jacob0", 1, peer="roboticstoolbox Python (DH)", limit=0.2,
          goal="2. jacob0, one call, at most 0.2 x roboticstoolbox-python (same DH robot)")
    ratio("fkine", 1, peer="roboticstoolbox C++ (ETS)", informative=True,
          goal="(for comparison, not a goal) fkine, one call, against roboticstoolbox's compiled ETS")
    ratio("jacob0", 1, peer="roboticstoolbox C++ (ETS, Python loop)", informative=True,
          goal="(for comparison, not a goal) jacob0, one call, against roboticstoolbox's compiled ETS")
    for N in (1000, 10000):
        ratio("ikine Puma 560", N, "rvc (batch)", "roboticstoolbox C++ ik_LM (Python loop)",
              goal=f"3. ikine, {N} independent poses, time per pose at most ik_LM's")
    ratio("ikine Puma 560", 100, "rvc (one pose at a time)", "roboticstoolbox C++ ik_LM (Python loop)",
          limit=5.0, goal="3. ikine, one pose at a time, at most 5 x ik_LM's")
    for c in counts:
        out.append({"goal": f"3. ikine {c['robot']}{' masked' if min(c['mask']) == 0 else ''}, "
                            f"{c['N']} poses from q0 = 0: successes rvc (1e-9) >= peer (1e-6)",
                    "ratio": None, "limit": None, "met": c["rvc"] >= c["peer"],
                    "peer": f"rvc {c['rvc']}, peer {c['peer']}"})
    return out


def fmt_time(t):
    if t is None:
        return "-"
    us = t * 1e6
    return f"{us:.3g}" if us < 1000 else f"{us:,.0f}"


def write_markdown(rows, counts, goal_rows, machine, path):
    lines = [f"Measured by `make bench` on {machine}, one BLAS thread; all implementations timed "
             "round-robin in one run; times are microseconds per configuration (per pose for "
             "ikine), minimum and median of the repeats; ratios compare minima.", ""]
    lines += ["## Goals (issue 12)", "", "| goal | measured | met |", "|---|---|---|"]
    for g in goal_rows:
        if g["ratio"] is not None:
            measured = f"{g['ratio']:.2f} x {g['peer']}"
        elif g["peer"] is not None:
            measured = g["peer"]
        else:
            measured = "not measured (needs Chapter 9)" if any(w in g["goal"] for w in ("rne", "inertia")) \
                else "not measured"
        met = {True: "yes", False: "**no**", None: "-"}[g["met"]]
        lines.append(f"| {g['goal']} | {measured} | {met} |")
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    for w in workloads:
        impls = list(dict.fromkeys(r["implementation"] for r in rows if r["workload"] == w))
        sizes = sorted({r["N"] for r in rows if r["workload"] == w})
        lines += ["", f"## {w}", "", "| implementation | " + " | ".join(f"N = {N}" for N in sizes) + " |",
                  "|---|" + "---:|" * len(sizes)]
        for name in impls:
            cells = []
            for N in sizes:
                r = next((r for r in rows if r["workload"] == w and r["N"] == N and r["implementation"] == name),
                         None)
                if r is None or r["min"] is None:
                    cells.append("-" if r is None or not r["status"].startswith("check failed") else "check failed")
                else:
                    cells.append(f"{fmt_time(r['min'])} ({fmt_time(r['median'])})")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        ratios = []
        for N in sizes:
            ref = fastest_peer(rows, w, N)
            ours = rvc_row(rows, w, N, "rvc") or rvc_row(rows, w, N, "rvc (batch)")
            ratios.append(f"{ours['min'] / ref['min']:.2f}" if ours and ref and ours["min"] else "-")
        lines.append("| **rvc / fastest peer** | " + " | ".join(ratios) + " |")
        failed = sorted({f"{r['implementation']}: {r['status']}" for r in rows
                         if r["workload"] == w and r["status"].startswith("check failed")})
        if failed:
            lines += [""] + [f"- {f}" for f in failed]
    if counts:
        lines += ["", "## Numerical IK: successes on random reachable poses from q0 = 0", "",
                  "| robot | mask | poses | rvc (within 1e-9) | roboticstoolbox ik_LM (within 1e-6) | "
                  "rvc largest error | rvc mean iterations | rvc poses restarted |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for c in counts:
            mask = "all" if min(c["mask"]) > 0 else str([int(x) for x in c["mask"]])
            lines.append(f"| {c['robot']} | {mask} | {c['N']} | {c['rvc']} | {c['peer']} | "
                         f"{c['rvc_max_error']:.1e} | {c['rvc_iterations_mean']:.1f} | {c['rvc_restarted']} |")
    path.write_text("\n".join(lines) + "\n")


def plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    cols = 3
    nrows = -(-len(workloads) // cols)
    fig, axs = plt.subplots(nrows, cols, figsize=(11, 3.2 * nrows), dpi=80, squeeze=False)
    for ax, w in zip(axs.flat, workloads):
        for name in dict.fromkeys(r["implementation"] for r in rows if r["workload"] == w):
            pts = [(r["N"], r["min"]) for r in rows
                   if r["workload"] == w and r["implementation"] == name and r["min"] is not None]
            if pts:
                N, t = zip(*pts)
                ax.loglog(N, np.array(t) * 1e6, "o-" if name.startswith("rvc") else ".--",
                          lw=2 if name.startswith("rvc") else 1, label=name)
        ax.set_title(w, fontsize=10)
        ax.set_xlabel("N (configurations or poses)", fontsize=8)
        ax.set_ylabel("µs per configuration", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    for ax in list(axs.flat)[len(workloads):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path)


def main() -> int:
    import pinocchio
    import roboticstoolbox

    p560, c600 = puma560(), cobra600()
    r, rc = rtb_robot(p560), rtb_robot(c600)
    m = {"rvc": p560, "rtb": r, "rtb_ets": r.ets(), "pin": pinocchio_robot(p560),
         "cobra": c600, "cobra_ets": rc.ets()}
    machine = (f"{platform.machine()} ({os.cpu_count()} cores), Python {sys.version.split()[0]}, "
               f"numpy {np.__version__}, roboticstoolbox-python {roboticstoolbox.__version__}, "
               f"Pinocchio {pinocchio.__version__}")
    print(machine, flush=True)
    rows = []
    skipped = []
    for name in WORKLOADS:
        if available(name):
            rows += run_workload(name, m)
        else:
            skipped.append(name)
            print(f"{name}: skipped, rvc has no {name} yet (Chapter 9)", flush=True)
    counts = []
    for robot, mask in (("Puma 560", None), ("Cobra 600", [1, 1, 1, 0, 0, 1])):
        more, c = ik_workload(robot, m, SIZES if robot == "Puma 560" else (15, 1000), mask)
        rows += more
        counts += c
    goal_rows = goals(rows, counts)
    (HERE / "results.json").write_text(json.dumps(
        {"machine": machine, "skipped": skipped, "goals": goal_rows, "rows": rows, "ik_successes": counts},
        indent=1) + "\n")
    write_markdown(rows, counts, goal_rows, machine, HERE / "results.md")
    plot(rows, HERE / "results.png")
    for g in goal_rows:
        verdict = {True: "met", False: "NOT met", None: "-"}[g["met"]]
        measured = "" if g["ratio"] is None else f"{g['ratio']:.2f} x"
        print(f"{verdict:8s} {g['goal']}: {measured} {g['peer'] or ''}")
    print(f"wrote {HERE / 'results.md'}, results.json and results.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
