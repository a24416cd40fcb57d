# houserules: one entry point for people, the pre-commit hook and CI.
#   make serve   set everything up, build the site and serve it on http://127.0.0.1:8000/
#   make test-fast  the tests a developer runs on every save: no Chromium, no full build, no PDF (1–3 min on 2 cores, by load)
#   make test    set everything up, lint, and run the whole test suite (Chromium, builds, PDFs too)
#   make fuzz    a long property-based run (HYPOTHESIS_PROFILE=long)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
export NO_MKDOCS_2_WARNING := 1
# Python's bytecode caches (gitignored) are written as by default even where the environment turns them
# off: otherwise every command, test worker and test module is compiled again at each start.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup serve build check data-test publish-check lint format test test-fast fuzz bench bench-smoke clean

NODE_STAMP := node_modules/.installed

# Byte-compile the package as an installer would, so a command does not compile it at each start
# (where PYTHONDONTWRITEBYTECODE is set, Python never writes these files itself).
setup: $(STAMP) $(NODE_STAMP)
	@tools/setup-debian.sh
	@$(BIN)/python -m compileall -q tools > /dev/null

# axe-core for the accessibility tests (tests/test_a11y.py), at the version package-lock.json pins.
$(NODE_STAMP): package.json package-lock.json
	@tools/setup-debian.sh
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

# PROFILE=path/to/profile.yaml: a group's site and PDFs with its house rules (README: Publish for your group).
build: setup
	$(BIN)/houserules build $(if $(PROFILE),--profile $(PROFILE))

serve: build
	$(BIN)/houserules serve --port $(PORT)

check: setup
	$(BIN)/houserules check

# The data's own tests (no browser, no full build, no source documents): what publishing runs first.
data-test: setup
	$(BIN)/pytest -q -m "not browser and not slow" -k "not seed" tests/test_check.py tests/test_schema.py tests/test_content.py

# Build the site and check every link, anchor and offline file: what .github/workflows/pages.yml and
# .gitlab-ci.yml run before they publish site/.
publish-check: setup
	$(BIN)/houserules publish --check $(if $(PROFILE),--profile $(PROFILE))

# ruff (lint and format check), mypy (pyproject.toml: [tool.mypy]), the import contracts and the publishing workflows (offline: zizmor's
# audits without GitHub's API, check-jsonschema's vendored schemas): CI and the pre-commit hook run the same.
lint: setup
	$(BIN)/ruff check tools tests benchmarks
	$(BIN)/ruff format --check tools tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/zizmor --offline --quiet .github/workflows/
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/pages.yml
	$(BIN)/check-jsonschema --builtin-schema vendor.gitlab-ci .gitlab-ci.yml

format: setup
	$(BIN)/ruff format tools tests benchmarks
	$(BIN)/ruff check --fix tools tests benchmarks

# Two workers (pytest-xdist): each has its own session, and both share the run's cache folder; each runs whole
# modules (--dist loadfile), so a module's fixtures are made once, in the order tests/conftest.py gives them
# (--no-loadscope-reorder: the module with the most tests of the real data's site first, so its build starts at once,
# then the modules of a few long tests, then the most tests first). The real data's site and the fixture's full build
# are built once per run and shared by both workers. Three workers were slower on 2 cores (the suite keeps both
# busy: 93 % of the machine's CPU time).
PYTEST_WORKERS ?= 2
PYTEST_XDIST = -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
test: setup lint
	$(BIN)/pytest $(PYTEST_XDIST) --durations=25

# Everything but the tests marked browser (Chromium), slow (the real site, PDFs) and bench.
test-fast: setup
	$(BIN)/pytest -q $(PYTEST_XDIST) -m "not browser and not slow and not bench"

# The benchmark's smoke run (a tiny `make bench`: two minutes), which `make test` leaves out.
bench-smoke: setup
	$(BIN)/pytest -q -m bench tests/test_bench.py

# How check, build, preview, search and print costs grow: 100, 1,000 and 5,000 entries (about 25 minutes); see BENCHMARKS.md.
SIZES ?= 100,1000,5000
bench: setup
	$(BIN)/python -m benchmarks.run --sizes $(SIZES)

# A long property-based run of the loader, checker, renderer and search (tests/test_fuzz.py), and of the
# hardened classes: output paths, git history, text limits, new's titles, build neighbours, long queries,
# the values an import writes into the data files, imports killed at random points, and the whole corpus analysed by
# the site's worker as by the command line.
FUZZ_PROPERTIES = tests/test_fuzz.py tests/test_output_paths.py tests/test_git_history.py tests/test_text_limits.py \
	tests/test_new_inputs.py tests/test_build_paths.py tests/test_query_bounds.py tests/test_yamledit.py \
	tests/test_write_faults.py tests/test_search_parity.py
fuzz: setup
	HYPOTHESIS_PROFILE=long $(BIN)/pytest $(FUZZ_PROPERTIES) \
		-k "any_ or what_follows or match_their_definition or worst_cases or every_edit or random_points or analysed_alike"

clean:
	rm -rf site .cache .pytest_cache
