"""Time `make grade` on a class: N students x the course's 10 notebooks (the solutions, every
exercise right), on this machine's cores; writes benchmarks/grade.md with the per-notebook time
and the extrapolation to 30 students.

    PYTHONPATH=. .venv/bin/python benchmarks/grade.py [N]
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(students: int = 1) -> None:
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as tmp:
        returned = Path(tmp) / "returned"
        for k in range(students):
            (returned / f"s{k:02d}").mkdir(parents=True)
            for nb in notebooks:
                shutil.copy(nb, returned / f"s{k:02d}" / nb.name)
        start = time.monotonic()
        subprocess.run([sys.executable, "-m", "rvc.exercises.grade", str(returned), "-o", f"{tmp}/out"],
                       check=True, cwd=ROOT)
        seconds = time.monotonic() - start
        with open(f"{tmp}/out/grades.csv") as f:
            rows = list(csv.reader(f))
    total = len(rows[0]) - 2
    right = [int(r[-1]) for r in rows[1:]]
    per = seconds / (students * len(notebooks))
    text = f"""# `make grade`: time for a class

Measured by `benchmarks/grade.py {students}` on {cores} cores (shared with other work while it ran):
{students} student(s) x {len(notebooks)} notebooks (the course notebooks with their solutions),
graded in {seconds:.0f} s, {per:.1f} s of wall time per notebook with {cores} kernels at once; every
exercise accepted: {all(r == total for r in right)} ({right} of {total}).

Extrapolated to 30 students x {len(notebooks)} notebooks on {cores} cores: about
{30 * len(notebooks) * per / 60:.0f} minutes (the time is the notebooks' own run time: the grader
adds a kernel start and one small capture cell per exercise; judging takes well under a second
per notebook). More cores divide it: `make grade` runs one kernel per core.
"""
    (ROOT / "benchmarks" / "grade.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
