"""Execute notebooks in place and store their text outputs (``make execute``).

nbval compares a notebook's stored outputs with a fresh run, so after
editing a notebook run this to store the new outputs.  Each notebook runs in
its own folder with the kernel of the current environment.

Only what nbval compares is stored: the text outputs (``text/plain``,
``text/html``, ``text/latex``, streams, errors) of the cells it checks.
Images, animations, widget views and the outputs of ``# NBVAL_IGNORE_OUTPUT``
cells are dropped, and so is the widget state: no test reads them, the web
book executes the notebooks itself, and they would make every re-execution
commit megabytes of pictures again.

    python tools/execute.py notebooks/02_pose.ipynb [...]
    python tools/execute.py --strip-only notebooks/02_pose.ipynb   # no kernel: only drop
"""

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

#: The output data nbval compares, and so what a stored notebook keeps.
TEXT_TYPES = ("text/plain", "text/html", "text/latex", "text/markdown")


def keep_text_outputs(nb):
    """Drop from ``nb`` (in place) every stored output nbval does not compare.

    >>> nb = nbformat.v4.new_notebook()
    >>> plot = nbformat.v4.new_code_cell("plt.show()")
    >>> plot.outputs = [nbformat.v4.new_output("display_data", data={
    ...     "image/png": "iVBOR", "text/plain": "<Figure size 640x480 with 1 Axes>"})]
    >>> panel = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\\ndemo")
    >>> panel.outputs = [nbformat.v4.new_output("display_data", data={"text/html": "<div>"})]
    >>> nb.cells = [plot, panel]
    >>> nb.metadata["widgets"] = {"state": {}}
    >>> keep_text_outputs(nb)
    >>> [dict(o["data"]) for o in plot.outputs], panel.outputs, "widgets" in nb.metadata
    ([{'text/plain': '<Figure size 640x480 with 1 Axes>'}], [], False)
    """
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)      # timestamps would churn the diff on every run
        if "NBVAL_IGNORE_OUTPUT" in cell.source:
            cell.outputs = []
            continue
        kept = []
        for out in cell.outputs:
            if "data" in out:
                out["data"] = {k: v for k, v in out["data"].items() if k in TEXT_TYPES}
                out.pop("metadata", None)
                out["metadata"] = {}
                if not out["data"]:
                    continue
            kept.append(out)
        cell.outputs = kept


def execute(path: Path, timeout: int = 120) -> float:
    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    keep_text_outputs(nb)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def strip(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    keep_text_outputs(nb)
    nbformat.write(nb, path)


def main(args):
    if args and args[0] == "--strip-only":
        for name in args[1:]:
            strip(Path(name))
            print(f"stripped {name}")
        return
    for name in args:
        seconds = execute(Path(name))
        print(f"executed {name} in {seconds:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
