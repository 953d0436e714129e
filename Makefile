# Everything installs itself into .venv on first use: a fresh machine needs only python3.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The public suites live beside the project, never in it (../shared/positions/SOURCES.md).
SHARED_SUITES := $(abspath ../shared/positions)
export HARNESS_SUITES ?= $(if $(wildcard $(SHARED_SUITES)),$(SHARED_SUITES))

.PHONY: install run test lint typecheck pytest report bench bench-headline ablation-engines connect4-check clean

# setup.py builds the compiled move generator and compiles the search core with mypyc: a
# changed source of either is a new install (harness/search/compiled.py runs a stale
# core from source until then). The distribution was once named harness, a name PyPI gives
# an unrelated project: an environment with that record (ours or theirs) drops it first.
# The compiled search modules: every harness/search/*.py but setup.py's SEARCH_PYTHON.
SEARCH_PYTHON := $(shell sed -n 's/^SEARCH_PYTHON = (\(.*\))/\1/p' setup.py | tr -d '",')
COMPILED_SOURCES := harness/games/chess/_movegen.c harness/games/chess/_board.c \
    $(wildcard harness/games/chess/board_*.h) \
    harness/games/connect4/_board.c harness/games/othello/_board.c harness/games/openspiel/_cursor.c \
    harness/games/checkers/_board.c harness/search/_engine.c harness/games/native_tree.h harness/games/board_cursor.h \
    harness/games/board_native.h harness/games/board_learning.h \
    $(wildcard harness/search/engine_*.h) \
    $(filter-out $(SEARCH_PYTHON:%=harness/search/%.py),$(wildcard harness/search/*.py))
$(STAMP): pyproject.toml setup.py $(COMPILED_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip uninstall -qq --yes harness
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

install: $(STAMP)

## make run: the default comparison (about a minute), into results/
run: $(STAMP)
	$(BIN)/harness run

## make test: lint, type-check and the test suite
test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check harness tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict benchmarks

# One worker a core (pytest-xdist), each test file on one worker so that its module's
# fixtures are built once: the suite's CPU time is over nine minutes.
pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist loadfile

## make report: a small but real experiment (a WAC slice when ../shared is here, the
## project's own suite, synthetic trees, two OpenSpiel games; every variant) into results/ci/,
## with index.html,
## and the quick reproduction of the literature's claims into results/ci/reproduce/
CI_TREES := random:b=6,d=5,n=20,seed=1,ordering=0.8,values=incremental,range=50 \
            random:b=6,d=5,n=20,seed=1,ordering=random,values=incremental,range=50
report: $(STAMP)
	rm -rf results/ci
	$(BIN)/harness run --suite bench.epd $(if $(HARNESS_SUITES),--suite wac.epd) --limit 12 \
	    --variants all --depth 1-2 --jobs 2 --no-progress --out results/ci/chess
	$(BIN)/harness run $(addprefix --trees ,$(CI_TREES)) --variants all --depth 1-5 \
	    --jobs 2 --no-progress --out results/ci/trees
	$(BIN)/harness run --problems openspiel:tic_tac_toe,plies=2 \
	    --problems 'openspiel:connect_four(rows=4,columns=4),plies=6' --limit 40 \
	    --variants all --jobs 2 --no-progress --out results/ci/games
	$(BIN)/harness report --index-only results/ci
	$(BIN)/harness reproduce --quick --jobs 2 --no-progress --out results/ci/reproduce

## make bench: the performance benchmarks side by side, into results/bench/bench.json
## (10-15 min; BENCH_ARGS=--quick: a few)
bench: $(STAMP)
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

## make bench-headline: harness run on all 300 WAC positions, core variants, depths 1-7,
## --jobs 2: wall time and peak memory (about 4.5 minutes here, idle; the target is 15)
bench-headline: $(STAMP)
	$(BIN)/python -m benchmarks.headline $(HEADLINE_ARGS)

## make ablation-engines: each search feature GNU Chess, Toga II and Glaurung switch by a UCI
## option turned off alone in each of them and in the harness's modern profile, on the first
## ABLATION_LIMIT WAC positions; one side-by-side table into docs/ablation-engines.md
## (results/ablation-engines/; an engine not installed is skipped and said)
ABLATION_LIMIT ?= 50
ablation-engines: $(STAMP)
	$(BIN)/python -m benchmarks.ablation_engines --limit $(ABLATION_LIMIT)

## make connect4-check: every exact variant on Pons's test sets (../shared/connect4, Pons's
## later tree) with and without a table and iterative deepening, strong and weak; each run
## prints its solve rate (results/connect4-check/; about 20 minutes). Test_L1_R1: its first
## C4_L1_LIMIT positions, and without a table only weak (a strong solve without one takes
## millions of nodes a position there).
C4_DIR := $(abspath ../shared/connect4)
C4_EXACT := alphabeta,alphabeta-fs,pvs,pvs-fs,negascout,moreland,scout,mtdf,mtd-bi,aspiration,mtd-pons
C4_L1_LIMIT ?= 100
connect4-check: $(STAMP)
	@test -f $(C4_DIR)/Test_L3_R1 || { echo "connect4-check: $(C4_DIR) not found"; exit 2; }
	@for set in Test_L3_R1 Test_L2_R1 Test_L1_R1; do \
	  for tt in 0 1048576; do for id in "" --id; do for window in strong -1,1; do \
	    if [ $$set = Test_L1_R1 ] && [ $$tt = 0 ] && [ $$window = strong ]; then continue; fi; \
	    out=results/connect4-check/$$set-tt$$tt$${id:+-id}-$$window; rm -rf $$out; \
	    printf '%s tt=%s %s window=%s: ' $$set $$tt "$${id:-no-id}" $$window; \
	    $(BIN)/harness run --problems connect4:$(C4_DIR)/$$set,order=threats,anticipate=1 \
	      --variants $(C4_EXACT) $$( [ $$tt = 0 ] || echo --tt $$tt ) $$id \
	      $$( [ $$window = strong ] || echo --window $$window ) \
	      $$( [ $$set = Test_L1_R1 ] && echo --limit $(C4_L1_LIMIT) ) \
	      --jobs 2 --no-progress --out $$out | grep 'solved:' || echo "FAILED (see $$out)"; \
	  done; done; done; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis harness/games/chess/*.so harness/games/connect4/*.so harness/games/othello/*.so harness/search/*.so \
	       harness/search/compiled_from.json
