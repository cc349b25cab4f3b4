"""Test-wide set-up.

* Figures are drawn off-screen in the test process (notebooks run in their
  own kernel and use ``%matplotlib inline``).
* Every doctest sees ``np``, ``rvc`` and rvc's public names, so a module
  never imports a name only for its examples.
* The fixture ``chinese`` runs a test with rvc's text in Chinese (``rvc.set_language``), and
  English again after it.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rvc  # noqa: E402


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace["np"] = np
    doctest_namespace["rvc"] = rvc
    for name in dir(rvc):
        if not name.startswith("_"):
            doctest_namespace.setdefault(name, getattr(rvc, name))


@pytest.fixture
def chinese():
    rvc.set_language("zh")
    yield
    rvc.set_language("en")


# The notebook tests record what they executed, for the book to reuse (tools/book_cache.py).
pytest_plugins = ["tools.book_cache"]
