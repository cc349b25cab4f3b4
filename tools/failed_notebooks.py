"""Print the notebooks that had a failing cell in pytest's last run (read from its cache).

nbval's cells depend on the cells before them, so a retry must run a failed notebook whole:
``pytest --last-failed`` would run the failed cell alone, without the names it needs.

    python tools/failed_notebooks.py CACHE_DIR
"""

import json
import sys
from pathlib import Path


def failed_notebooks(cache_dir):
    """The notebook paths among the node ids of pytest's ``lastfailed`` cache, sorted."""
    path = Path(cache_dir) / "v" / "cache" / "lastfailed"
    failed = json.loads(path.read_text()) if path.exists() else {}
    return sorted({node.split("::")[0] for node in failed if node.split("::")[0].endswith(".ipynb")})


if __name__ == "__main__":
    names = failed_notebooks(sys.argv[1])
    if not names:
        sys.exit("no failed notebook in pytest's cache: nothing to retry")
    print(" ".join(names))
