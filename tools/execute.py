"""Execute notebooks in place and save their outputs (``make execute``).

nbval compares a notebook's stored outputs with a fresh run, so after
editing a notebook run this to store the new outputs.  Each notebook runs in
its own folder with the kernel of the current environment.

    python tools/execute.py notebooks/02_pose.ipynb [...]
"""

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path, timeout: int = 120) -> float:
    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    # Execution metadata (timestamps) would churn the diff on every run.
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(paths):
    for name in paths:
        seconds = execute(Path(name))
        print(f"executed {name} in {seconds:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
