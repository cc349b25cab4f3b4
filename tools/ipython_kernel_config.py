# The kernels that execute the notebooks for the book and its PDF (make notebooks, make book) read
# this profile (IPYTHONDIR=_build/ipython, copied there by make): figures are stored at twice their
# resolution and shown at their usual size ("retina"), so they stay sharp on a high-density screen
# and print at about 200 dpi in the PDF. A student's own JupyterLab is not affected.
c = get_config()  # noqa: F821
c.InlineBackend.figure_formats = {"retina"}
