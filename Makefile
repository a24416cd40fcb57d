# houserules: one entry point for people, the pre-commit hook and CI.
#   make serve   set everything up, build the site and serve it on http://127.0.0.1:8000/
#   make test-fast  the tests a developer runs on every save: no Chromium, no full build, no PDF (< 1 minute)
#   make test    set everything up, lint, and run the whole test suite (Chromium, builds, PDFs too)
#   make fuzz    a long property-based run (HYPOTHESIS_PROFILE=long)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup serve build check lint format test test-fast fuzz bench bench-smoke clean

setup: $(STAMP)
	@tools/setup-debian.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

build: setup
	$(BIN)/houserules build

serve: build
	$(BIN)/houserules serve --port $(PORT)

check: setup
	$(BIN)/houserules check

# ruff (lint and format check), mypy (pyproject.toml: [tool.mypy]) and the import contracts:
# CI and the pre-commit hook run the same.
lint: setup
	$(BIN)/ruff check tools tests benchmarks
	$(BIN)/ruff format --check tools tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

format: setup
	$(BIN)/ruff format tools tests benchmarks
	$(BIN)/ruff check --fix tools tests benchmarks

# Two workers (pytest-xdist): each has its own session, its own cache folder and site fixtures (tests/conftest.py).
PYTEST_WORKERS ?= 2
test: setup lint
	$(BIN)/pytest -n $(PYTEST_WORKERS)

# Everything but the tests marked browser (Chromium), slow (the real site, PDFs) and bench.
test-fast: setup
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) -m "not browser and not slow and not bench"

# The benchmark's smoke run (a tiny `make bench`: two minutes), which `make test` leaves out.
bench-smoke: setup
	$(BIN)/pytest -q -m bench tests/test_bench.py

# How check, build, preview, search and print costs grow: 100, 1,000 and 5,000 entries (about 25 minutes); see BENCHMARKS.md.
SIZES ?= 100,1000,5000
bench: setup
	$(BIN)/python -m benchmarks.run --sizes $(SIZES)

# A long property-based run of the loader, checker, renderer and search (tests/test_fuzz.py).
fuzz: setup
	HYPOTHESIS_PROFILE=long $(BIN)/pytest tests/test_fuzz.py

clean:
	rm -rf site .cache .pytest_cache
