# Every target creates .venv on first use, so a fresh clone needs only python3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play install test test-slow lint typecheck unit bench fuzz cluster-check lab-check browser clean \
	messages compile-messages compiled differential rl-check puzzles-check server-check \
	server-acceptance

# The compiled build of the engine and search (mypyc, build_compiled.py), where a C compiler is
# present: about a minute the first time and again after any of their sources changes. Without
# a compiler it says so and bela runs as pure Python, the same results, slower. play, test,
# test-slow, bench and differential build it first; BELA_PURE=1 runs the pure build anyway, and
# python build_compiled.py --clean removes it.
COMPILED := build/.compiled
$(COMPILED): $(STAMP) build_compiled.py $(wildcard src/bela/engine/*.py src/bela/search/*.py src/bela/ai/normal/*.py src/bela/ai/inference.py src/bela/ai/play_reading.py) src/bela/foundation/native.py
	$(BIN)/python build_compiled.py
	@mkdir -p build && touch $@

compiled: $(COMPILED)

# The first install takes about a minute: say so, and let pip show its progress.
$(STAMP): pyproject.toml
	@test -d $(VENV) || echo "Setting up $(VENV) (first run only, about a minute)..."
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	touch $(STAMP)
	@echo "Ready. For the bela command in this shell: . $(VENV)/bin/activate (or: make install)"

play: $(STAMP) $(COMPILED)
	$(BIN)/bela $(ARGS)

# bela on the PATH for good, outside .venv: with uv or pipx, whichever is installed. The package
# (croatian-bela, as on PyPI) is built from this clone like any wheel, compiled where a C
# compiler is present (setup.py); run it again after updating the clone.
install:
	@if command -v uv >/dev/null 2>&1; then uv tool install --force .; \
	elif command -v pipx >/dev/null 2>&1; then pipx install --force .; \
	else \
	  echo "make install needs uv (https://docs.astral.sh/uv/) or pipx (https://pipx.pypa.io/)"; \
	  echo "to put bela on your PATH. Without them: make play, then . $(VENV)/bin/activate"; \
	  echo "in each shell where you want the bela command."; \
	  exit 1; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests tests_cluster tests_lab tests_rl benchmarks browser_tests examples tools build_compiled.py setup.py
	$(BIN)/ruff format --check src tests tests_cluster tests_lab tests_rl benchmarks browser_tests examples tools build_compiled.py setup.py
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# The suite on every core (pytest-xdist), without the tests marked slow (make test-slow runs
# those; CI runs both), one progress line as it goes; on the compiled build where there is one.
PYTEST_FAST := $(BIN)/pytest -n auto -m "not slow and not server" --progress-line
unit: $(STAMP) $(COMPILED)
	$(PYTEST_FAST)

test-slow: $(STAMP) $(COMPILED)
	$(BIN)/pytest -n auto -m "slow and not server" --progress-line

# The compiled and the pure build answer identically on 10,000 seeded rounds and 2,000 solver
# positions (make test compares a sample); fails where there is no compiled build to compare.
differential: $(COMPILED)
	BELA_DIFFERENTIAL=full $(BIN)/pytest tests/test_differential.py

# mypy and the compiled build (each mostly one core) side by side, then the suite on every core
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck $(COMPILED)
	@$(MAKE) --no-print-directory unit

# Translations (docs/translating.md): pull every marked string into bela.pot, merge it into each
# language's bela.po (new strings empty, changed ones marked fuzzy), then compile the .mo files
# the app reads. The .mo files are committed (a test checks they match their .po), so a fresh
# clone plays in every language without this step. Locations name the file only (no line numbers),
# so that a change elsewhere in a file does not rewrite every catalog and branches merge cleanly.
LOCALE := src/bela/locale
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -o $(LOCALE)/bela.pot --project bela --no-wrap --add-location=file \
	  --sort-by-file --add-comments TRANSLATORS: --msgid-bugs-address "" --copyright-holder "" src/bela
	$(BIN)/pybabel update -i $(LOCALE)/bela.pot -d $(LOCALE) -D bela --no-wrap --ignore-obsolete
	$(MAKE) compile-messages

compile-messages: $(STAMP)
	$(BIN)/pybabel compile -d $(LOCALE) -D bela --statistics

# Installed the ways a player installs it (tools/install_check.py): the sdist and the wheel built,
# each installed into a fresh venv outside the tree, bela --version (compiled where a compiler
# is), a seeded replay and a puzzle run from there; then the sdist with CC pointing nowhere (the
# pure build); pipx and uv tool too where present. About three minutes; CI runs it.
install-check:
	$(PYTHON) tools/install_check.py

bench: $(COMPILED)
	$(BIN)/python benchmarks/bench_engine.py

# Every shipped puzzle judged again on fresh guessed deals: at least 95% must stay clear with
# the same answer (make test judges a sample). About half an hour of CPU on the compiled build.
puzzles-check: $(COMPILED)
	$(BIN)/python -m bela.lab.puzzle_check src/bela/archive/puzzles.jsonl.gz src/bela/archive/bid_puzzles.jsonl.gz

# a long fuzz run of records, the command line and the engine (docs/security.md); not in `test`
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz_hostile.py --seconds $(or $(FUZZ_SECONDS),60)

# Starts a Ray cluster of two workers on this machine, checks that bela arena and bela ladder
# report exactly what local processes report, and stops it (about two minutes); not in `test`.
CLUSTER_STAMP := $(VENV)/.cluster-installed
$(CLUSTER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --progress-bar on -e '.[dev,cluster]'
	touch $(CLUSTER_STAMP)

cluster-check: $(CLUSTER_STAMP)
	$(BIN)/pytest tests_cluster

# The public server's stores on a real PostgreSQL and a real Redis (the tests marked server,
# which test and test-slow leave out): tools/server_check.sh installs them where missing
# (Debian's packages, as root), starts them on free ports in a temporary directory, runs the
# tests and stops them, even when a test fails. About a minute; not in `test`.
server-check: $(STAMP) $(COMPILED)
	bash tools/server_check.sh $(BIN)/pytest -m server -p no:cacheprovider tests/net

# Issue #39's acceptance run for real (tools/acceptance_server.py): four players (OpenSSH, two
# bela online in tmux, Chromium through Playwright) meet in the lobby and play a rated 501 with
# a drop and a return, at one process; then the same on 4 workers, a real PostgreSQL and Redis,
# with the table's worker killed mid-match. Needs tmux, ssh and chromium; a few minutes a run,
# printing what happened; not in `test`.
server-acceptance: $(STAMP) $(COMPILED)
	@for tool in tmux ssh chromium; do command -v $$tool >/dev/null || \
	  { echo "make server-acceptance needs $$tool"; exit 1; }; done
	$(BIN)/python -m pip install --quiet -e '.[browser-test]'
	nice $(BIN)/python tools/acceptance_server.py
	nice bash tools/server_check.sh $(BIN)/python tools/acceptance_server.py --workers 4

# Fitting normal's bid model needs the lab extra (numpy, scikit-learn), which `test` does not
# install: this installs it and runs the fitting's tests (bela lab bid-fit); not in `test`.
LAB_STAMP := $(VENV)/.lab-installed
$(LAB_STAMP): $(STAMP)
	$(BIN)/python -m pip install --progress-bar on -e '.[dev,lab]'
	touch $(LAB_STAMP)

lab-check: $(LAB_STAMP)
	$(BIN)/pytest tests_lab

# bela.lab.env, Bela as a PettingZoo environment, needs the rl extra (pettingzoo, gymnasium,
# numpy), which `test` does not install: this installs it and runs PettingZoo's api_test and the
# environment's tests and example (tests_rl); not in `test`.
RL_STAMP := $(VENV)/.rl-installed
$(RL_STAMP): $(STAMP)
	$(BIN)/python -m pip install --progress-bar on -e '.[dev,rl]'
	touch $(RL_STAMP)

rl-check: $(RL_STAMP)
	$(BIN)/pytest tests_rl

# bela serve driven in headless Chromium (Debian's package: apt-get install chromium) with
# Playwright; about 15 s, so not part of `test`
browser: $(STAMP)
	@command -v chromium >/dev/null || { echo "make browser needs chromium: apt-get install -y chromium"; exit 1; }
	$(BIN)/python -m pip install --quiet -e '.[browser-test]'
	$(BIN)/pytest browser_tests -p no:cacheprovider

clean:
	-test -x $(BIN)/python && $(BIN)/python build_compiled.py --clean
	rm -rf $(VENV) build .mypy_cache .pytest_cache .ruff_cache
