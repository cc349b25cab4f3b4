"""Test-wide set-up: draw figures off-screen in the test process.

(Notebooks run in their own kernel and use ``%matplotlib inline``.)
"""

import matplotlib

matplotlib.use("Agg")
