# Every target creates .venv on first use, so a fresh clone needs only python3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit bench fuzz clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/bela $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

# a long fuzz run of records, the command line and the engine (docs/security.md); not in `test`
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz_hostile.py --seconds $(or $(FUZZ_SECONDS),60)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
