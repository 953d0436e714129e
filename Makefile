# Everything installs itself into .venv on first use: a fresh machine needs only python3.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The public suites live beside the project, never in it (../shared/positions/SOURCES.md).
SHARED_SUITES := $(abspath ../shared/positions)
export HARNESS_SUITES ?= $(if $(wildcard $(SHARED_SUITES)),$(SHARED_SUITES))

.PHONY: install run test lint typecheck pytest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

install: $(STAMP)

## make run: the default comparison (about a minute), into results/
run: $(STAMP)
	$(BIN)/harness run

## make test: lint, type-check and the test suite
test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check harness tests

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
