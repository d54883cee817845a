# kobook — two commands do all the set-up on a fresh Debian/Ubuntu machine:
#   make pdf    builds the sample book into dist/
#   make test   runs ruff, mypy and every test
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
KOBOOK  := $(VENV)/bin/kobook
STAMP   := $(VENV)/.kobook-installed
DEVSTAMP := $(VENV)/.kobook-dev-installed
PIP     := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: pdf html epub all test lint typecheck unit system-deps system-deps-dev node-tools figures bench doctor clean

pdf: $(STAMP) system-deps
	$(KOBOOK) build pdf

html: $(STAMP) system-deps
	$(KOBOOK) build html

epub: $(STAMP) system-deps
	$(KOBOOK) build epub

all: $(STAMP) system-deps
	$(KOBOOK) build all

test: $(DEVSTAMP) system-deps-dev node-tools lint typecheck unit

lint: $(DEVSTAMP)
	$(VENV)/bin/ruff check src tests scripts
	$(VENV)/bin/ruff format --check src tests scripts

typecheck: $(DEVSTAMP)
	$(VENV)/bin/mypy src

# A worker per core (pytest-xdist); a module's tests stay on one worker, the longest
# modules start first, and the books several modules read are built once for the run
# (tests/conftest.py).
unit: $(DEVSTAMP) system-deps-dev node-tools
	$(VENV)/bin/pytest -q -ra -n auto --dist loadfile --no-loadscope-reorder --durations=25

doctor: $(STAMP)
	$(KOBOOK) doctor

figures: $(STAMP)
	$(PY) scripts/make_figures.py

bench: $(DEVSTAMP) system-deps-dev
	$(PY) scripts/bench.py

system-deps:
	bash scripts/install-system-deps.sh

system-deps-dev:
	bash scripts/install-system-deps.sh --dev --tex

# axe-core and Ace by DAISY for the accessibility tests (npm; no browser download).
node-tools: system-deps-dev
	bash scripts/install-node-tools.sh

# The virtual environment needs python3-venv, which the system script installs.
$(PY):
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || bash scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PIP) -e .
	@touch $@

$(DEVSTAMP): pyproject.toml $(STAMP)
	$(PIP) -e '.[dev]'
	@touch $@

clean:
	rm -rf dist .kobook-cache .pytest_cache .mypy_cache .ruff_cache
