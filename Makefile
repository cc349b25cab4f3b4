# The course's commands. Each one creates .venv when missing and installs into it.
#   make setup     create .venv and install everything (the other targets do it too)
#   make check     the fast loop: every unit test and doctest that starts no kernel (< 90 s)
#   make book      build the web book, English and Chinese (_build/html/zh/), and print its index
#                  page (every notebook executed, or
#                  reused as make notebooks has just executed it: tools/book_cache.py)
#   make test      run the whole test suite (units, doctests, notebooks, exercises, book, and
#                  the browser and PDF tests when Chromium is installed; it says so when it skips them)
#   make pdf       the whole course as one PDF, _build/pdf/rvc-course.pdf, and the Chinese one,
#                  _build/pdf/rvc-course-zh.pdf (needs Chromium)
#   make student   write solution-free student copies of the notebooks to student/ (the Chinese
#                  ones to student/zh/)
#   make grade     grade a class's returned notebooks: make grade SUBMISSIONS=<folder> [GRADES=grades]
#                  (<folder>/<student>/<notebook>.ipynb; writes grades.csv, feedback/, summary.md)
#   make wheelhouse  every wheel the course needs, for Linux, Windows and macOS and Python 3.10-3.13,
#                  in one folder for a lab without internet: make wheelhouse [WHEELHOUSE=wheelhouse]
#   make crosscheck  compare rvc with peer libraries (their own venv, .venv-peers)
#   make lint      the pre-commit hooks on every file: ruff, notebook outputs, actionlint
#   make execute   re-run every notebook in place and save its outputs (after editing one), and
#                  write and re-run the Chinese ones (after editing a notebook or a catalog)
#   make bench     time rvc against its peers (their own venv, .venv-peers) and every notebook
#                  slider; writes benchmarks/results.md, .json, .png and benchmarks/sliders.md,
#                  and the sliders' key-press-to-figure latency in JupyterLab: benchmarks/latency.md

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PEERS  := .venv-peers
JOBS   ?= 2
NOTEBOOKS := $(shell sed -n 's/^.*file: *\(notebooks\/[^ ]*\)/\1.ipynb/p' _toc.yml)
# The Chinese edition's notebooks (tools/zh_notebooks.py writes them from the catalogs in locale/).
ZH_NOTEBOOKS := $(patsubst notebooks/%,notebooks/zh/%,$(NOTEBOOKS))

.PHONY: setup check book test unit notebooks booktest browsertest pdf pdftest student grade wheelhouse crosscheck \
	execute bench lint clean

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "Python 3.10+ is needed, found " + sys.version' 
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# The course was once installed under the name rvc, which on PyPI is another project.
	$(BIN)/python -m pip uninstall --quiet --yes rvc 2>/dev/null || true
	rm -rf rvc.egg-info
	$(BIN)/python -m pip install --quiet -r requirements.txt -c constraints.txt
	touch $(STAMP)

setup: $(STAMP)
	@echo "Ready: .venv/bin/jupyter lab notebooks/"

# Under CPU contention with several kernels at once, the client side of a kernel
# connection occasionally misses a cell's reply and waits out the whole cell timeout
# before carrying on (reproduced: 2 stalls in 24 runs of 3 notebooks at once; none
# seen with one kernel at a time). So kernels run one at a time here, cells time out
# after 120 s, and a failed notebook run or book build is tried once more: a real
# error fails both times.
#
# The book reuses each notebook as `make notebooks` has just executed it, when neither the
# notebook nor rvc has changed since (tools/book_cache.py); it executes the others itself.
RECORDED = _build/executed
ZH_RECORDED = _build/executed-zh
BOOK_CACHE = $(BIN)/python tools/book_cache.py $(RECORDED) _build/.jupyter_cache _build/book-config.yml
JUPYTER_BOOK = IPYTHONDIR=$(KERNEL_PROFILE) MPLBACKEND= $(BIN)/jupyter-book build . --config _build/book-config.yml \
	--warningiserror --nitpick --keep-going
BOOK_BUILD = $(JUPYTER_BOOK) --all

# The kernels of the book's executions (nbval's and the book build's) store figures at twice
# their resolution for the PDF and high-density screens (tools/ipython_kernel_config.py).
KERNEL_PROFILE = $(CURDIR)/_build/ipython

$(KERNEL_PROFILE)/profile_default/ipython_kernel_config.py: tools/ipython_kernel_config.py
	mkdir -p $(@D) && cp $< $@

# The Chinese book (中文版) is built from _build/zh/src: the same pages with notebooks/zh/ in place
# of notebooks/ and language zh_CN, so the catalogs of locale/ translate the book/*.md pages
# (tools/zh_book.py); it reuses the Chinese notebooks as make notebooks has just executed them.
# It goes to _build/html/zh/, and every page of each book links to the same page of the other.
ZH_SOURCE = _build/zh/src
ZH_BOOK_CACHE = $(BIN)/python tools/zh_book.py $(ZH_SOURCE) $(ZH_RECORDED) _build/zh/.jupyter_cache
ZH_JUPYTER_BOOK = IPYTHONDIR=$(KERNEL_PROFILE) MPLBACKEND= $(BIN)/jupyter-book build $(ZH_SOURCE) \
	--warningiserror --nitpick --keep-going
ZH_BOOK_BUILD = $(ZH_JUPYTER_BOOK) --all

book: $(STAMP) $(KERNEL_PROFILE)/profile_default/ipython_kernel_config.py
	$(BOOK_CACHE) && $(BOOK_BUILD) || { echo "book build failed; trying once more"; $(BOOK_CACHE) && $(BOOK_BUILD); }
	$(ZH_BOOK_CACHE) && $(ZH_BOOK_BUILD) || { echo "Chinese book build failed; trying once more"; \
		$(ZH_BOOK_CACHE) && $(ZH_BOOK_BUILD); }
	rm -rf _build/html/zh && cp -r $(ZH_SOURCE)/_build/html _build/html/zh
	@echo "Web book: $(abspath _build/html/index.html)"
	@echo "中文版:   $(abspath _build/html/zh/index.html)"

test: unit notebooks booktest browsertest pdftest

unit: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -q tests rvc --ignore=tests/crosscheck \
		--ignore=tests/book --ignore=tests/browser

check: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -q -m "not kernel" tests rvc \
		--ignore=tests/crosscheck --ignore=tests/book --ignore=tests/browser -p no:cacheprovider

# NOTEBOOK_ENV: variables for the notebooks' kernels alone, e.g. another BLAS kernel
# (.ci/run: NOTEBOOK_ENV=OPENBLAS_CORETYPE=Prescott).
NOTEBOOK_ENV ?=
NBVAL = $(NOTEBOOK_ENV) IPYTHONDIR=$(KERNEL_PROFILE) MPLBACKEND= $(BIN)/python -m pytest -q --nbval --nbval-current-env --nbval-cell-timeout=120 \
	--nbval-sanitize-with tests/sanitize.cfg -o cache_dir=.venv/.pytest_cache

# nbval on some notebooks ($(2)), recording each one that passes to the folder $(1) for the book.
nbval_run = RVC_RECORD_OUTPUTS=$(1) $(NBVAL) $(2) || { echo "retrying the failed notebooks once, whole"; \
	failed=$$($(BIN)/python tools/failed_notebooks.py .venv/.pytest_cache) && RVC_RECORD_OUTPUTS=$(1) $(NBVAL) $$failed; }

notebooks: $(STAMP) $(KERNEL_PROFILE)/profile_default/ipython_kernel_config.py
	rm -rf $(RECORDED) $(ZH_RECORDED)
	$(call nbval_run,$(RECORDED),$(NOTEBOOKS))
	$(call nbval_run,$(ZH_RECORDED),$(ZH_NOTEBOOKS))

booktest: book
	$(BIN)/python -m pytest -q tests/book --ignore=tests/book/test_pdf.py -p no:cacheprovider

# The live notebooks in JupyterLab and the built book, in Debian's Chromium driven by the
# playwright package (tests/browser). Skipped, saying so, where no Chromium is installed.
BROWSER_STAMP := $(VENV)/.browser-installed

$(BROWSER_STAMP): tests/browser/requirements.txt constraints.txt $(STAMP)
	$(BIN)/python -m pip install --quiet -r tests/browser/requirements.txt -c constraints.txt
	touch $@

browsertest: book
	@if $(BIN)/python tests/browser/browser_support.py; then \
		$(MAKE) --no-print-directory $(BROWSER_STAMP) && \
		$(BIN)/python -m pytest -q tests/browser -p no:cacheprovider; \
	fi

# The whole course as one PDF: the book's single-page build (it reuses the book's executed
# notebooks) printed by Debian's Chromium through playwright (tools/print_pdf.py); no TeX and no
# network. pdftest checks it with poppler's tools; both are skipped, saying so, without Chromium.
PDF = _build/pdf/rvc-course.pdf
ZH_PDF = _build/pdf/rvc-course-zh.pdf

PDF_BUILD = $(JUPYTER_BOOK) --builder singlehtml && $(BIN)/python tools/print_pdf.py _build/singlehtml $(PDF) && \
	$(ZH_JUPYTER_BOOK) --builder singlehtml && $(BIN)/python tools/print_pdf.py $(ZH_SOURCE)/_build/singlehtml $(ZH_PDF)

pdf: book
	@$(BIN)/python tests/browser/browser_support.py >/dev/null || { $(BIN)/python tests/browser/browser_support.py; \
		echo "make pdf needs Chromium"; exit 1; }
	$(MAKE) --no-print-directory $(BROWSER_STAMP)
	$(PDF_BUILD)

pdftest: book
	@if $(BIN)/python tests/browser/browser_support.py >/dev/null; then \
		$(MAKE) --no-print-directory $(BROWSER_STAMP) && $(PDF_BUILD) && \
		RVC_PDF=$(PDF) $(BIN)/python -m pytest -q tests/book/test_pdf.py -p no:cacheprovider && \
		RVC_PDF=$(ZH_PDF) RVC_PDF_LANGUAGE=zh $(BIN)/python -m pytest -q tests/book/test_pdf.py -p no:cacheprovider; \
	else echo "*** PDF test SKIPPED: no Chromium here ***"; fi

student: $(STAMP)
	$(BIN)/python -m rvc.exercises.student notebooks student
	$(BIN)/python -m rvc.exercises.student notebooks/zh student/zh

# Each notebook in its own kernel with no network, time and memory limits (rvc/exercises/grade.py).
SUBMISSIONS ?=
GRADES ?= grades
GRADE_OPTIONS ?=

grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=<folder of <student>/<notebook>.ipynb> [GRADES=grades]"; exit 2; }
	$(BIN)/python -m rvc.exercises.grade "$(SUBMISSIONS)" -o "$(GRADES)" $(GRADE_OPTIONS)

# A lab without internet (tools/wheelhouse.py; the README's teacher section has the offline install).
# Platforms: linux-x86_64 linux-aarch64 win-amd64 macos-x86_64 macos-arm64, or native (this machine);
# Pythons: 3.10 ... or native (.venv's). CI builds its own: WHEEL_PLATFORMS=native WHEEL_PYTHONS=native.
WHEELHOUSE ?= wheelhouse
WHEEL_PLATFORMS ?= linux-x86_64 linux-aarch64 win-amd64 macos-x86_64 macos-arm64
WHEEL_PYTHONS ?= 3.10 3.11 3.12 3.13

wheelhouse: $(STAMP)
	$(BIN)/python tools/wheelhouse.py "$(WHEELHOUSE)" --platforms $(WHEEL_PLATFORMS) --pythons $(WHEEL_PYTHONS)

$(PEERS)/.installed: tests/crosscheck/requirements.txt requirements.txt constraints.txt
	test -x $(PEERS)/bin/python || $(PYTHON) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install --quiet --upgrade pip
	$(PEERS)/bin/python -m pip install --quiet -r tests/crosscheck/requirements.txt -c constraints.txt
	touch $@

crosscheck: $(PEERS)/.installed
	$(PEERS)/bin/python -m pytest -q -n $(JOBS) tests/crosscheck -p no:cacheprovider

execute: $(STAMP)
	MPLBACKEND= $(BIN)/python tools/execute.py $(NOTEBOOKS)
	$(BIN)/python tools/zh_notebooks.py
	MPLBACKEND= $(BIN)/python tools/execute.py $(ZH_NOTEBOOKS)

# The peers of the benchmark: the cross-check peers and Pinocchio, in .venv-peers.
$(PEERS)/.bench: benchmarks/requirements.txt $(PEERS)/.installed
	$(PEERS)/bin/python -m pip install --quiet -r benchmarks/requirements.txt -c constraints.txt
	touch $@

# One BLAS thread, and in this command alone without the machine's OpenBLAS settings for
# old builds (OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE), which slow a current numpy.
BENCH_ENV = env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 \
	MKL_NUM_THREADS=1

bench: $(STAMP) $(PEERS)/.bench $(BROWSER_STAMP)
	$(BENCH_ENV) $(PEERS)/bin/python benchmarks/run.py
	$(BENCH_ENV) MPLBACKEND=Agg $(BIN)/python benchmarks/sliders.py
	$(BENCH_ENV) $(PEERS)/bin/python benchmarks/parallel.py
	$(BENCH_ENV) $(BIN)/python -m pytest -p no:cacheprovider -q tests/browser/bench_latency.py

LINT_STAMP := $(VENV)/.lint-installed

$(LINT_STAMP): tools/lint-requirements.txt $(STAMP)
	$(BIN)/python -m pip install --quiet -r tools/lint-requirements.txt
	touch $@

lint: $(LINT_STAMP)
	$(BIN)/pre-commit run --all-files --show-diff-on-failure

clean:
	rm -rf _build student
