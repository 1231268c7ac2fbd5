# Two commands: `make run` (demo end to end) and `make test` (the whole suite).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
export DAGSTER_HOME ?= $(CURDIR)/warehouse/dagster_home

.PHONY: run test test-unit chromium services cluster dev bench bench-quick clean lock docs agreement

# installs exactly the versions in requirements.lock (constraints): a fresh clone gets what the suite passed on
$(BIN)/ragpipe: pyproject.toml requirements.lock
	@echo "==> [1/3] the virtual environment $(VENV)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "==> [2/3] pip and uv, at the versions requirements.lock pins"
	$(BIN)/pip install --quiet -c requirements.lock pip uv
	@echo "==> [3/3] ragpipe and its pinned dependencies (requirements.lock)"
	@# uv installs the same pinned versions as pip in a third of the time (8 s against 22 s here, docs/dependencies.md),
	@# with the system's certificates as pip uses them; should it fail, pip does the same install
	$(BIN)/uv pip install --system-certs --python $(BIN)/python -c requirements.lock -e '.[dev]' \
	  || $(BIN)/pip install --progress-bar on --no-compile -c requirements.lock -e '.[dev]'
	@# byte-compiled on every core, not on pip's one (23 s -> 16 s here); never left to first imports, since a
	@# PYTHONDONTWRITEBYTECODE environment would then compile them again in every process. The packages' own
	@# test suites (3,258 of 12,073 files: pandas/tests, scipy/*/tests...) are never imported: left out (16 s -> 12 s)
	$(BIN)/python -m compileall -q -j 0 -x '/tests?/' $(VENV)/lib
	touch $@

# move the lock: resolve pyproject.toml afresh in a scratch venv and write what it installed (then run `make test`)
lock:
	rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet --upgrade pip
	.venv-lock/bin/pip install --quiet -e '.[dev]'
	{ echo "# The versions the suite passed on (pip constraints; \`make\` installs with them). Move them: \`make lock\` (docs/dependencies.md)."; \
	  echo "pip==$$(.venv-lock/bin/pip --version | cut -d' ' -f2)"; \
	  .venv-lock/bin/pip freeze --exclude-editable; } > requirements.lock
	rm -rf .venv-lock

# the demo end to end, then a second system beside the first (the built-in engine, stricter) and the two compared;
# last, a system that misreads the bills (wrong amounts due) graded on its own: its ZERO-WRONG-MONEY bar fails
run: $(BIN)/ragpipe
	mkdir -p $(DAGSTER_HOME)
	$(BIN)/ragpipe run --corpus demo
	$(BIN)/ragpipe run --corpus demo --config default --engine extractive --setting min_support=0.8 --answer-set extractive-strict
	$(BIN)/ragpipe compare --corpus demo --config default --a extractive --b extractive-strict --limit 0
	$(BIN)/ragpipe grade --questions corpora/demo/answers/misread-bills-questions.jsonl --answers corpora/demo/answers/misread-bills.jsonl

# PostgreSQL and Redis from Debian's packages, for the distributed tests and `make cluster` (docs/deploy.md);
# without them those tests skip, saying why
services:
	@{ ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1; } || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo "sudo -n" ); \
	  ( $$SUDO apt-get install -y --no-install-recommends postgresql redis-server || \
	    { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends postgresql redis-server; } ) >/dev/null 2>&1 \
	  || echo "postgresql and redis-server could not be installed here: the distributed tests will skip"; }

# a cluster on this machine: PostgreSQL, Redis, two shard workers and the warehouse host's worker; it prints
# the variables to export in another terminal (then `make dev`, `ragpipe run --executor celery`)
cluster: $(BIN)/ragpipe services
	$(BIN)/python -m assets.deploy.cluster

# the docs' real-output blocks (<!-- output SOURCE: COMMAND -->) rewritten from the warehouse: after `make run` for
# the demo's, and with FinanceBench's default pair when ../shared/data has it (tests check both: tests/doc_outputs.py)
docs: run
	$(BIN)/python -m tests.doc_outputs --source demo --write
	if [ -d ../shared/data/financebench ]; then \
	  $(BIN)/ragpipe run --corpus financebench --config default >/dev/null || true; \
	  $(BIN)/python -m tests.doc_outputs --source financebench --write; fi

# the house first (lint, format, layers: seconds), then the suite in 4 workers (pytest-xdist, a file per
# worker, the longest files first: tests/conftest.py). Four, not one per core: the suite waits on servers,
# subprocesses and Dagster runs more than it computes (48% of two cores busy with 2 workers), so 4 workers
# on 2 cores took 7 min 55 s where 2 took 13 min 27 s (docs/performance.md); TEST_WORKERS=0: one process
TEST_WORKERS ?= 4
test: $(BIN)/ragpipe chromium services
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/mypy  # the library's types ([tool.mypy] in pyproject.toml): 0 errors
	@# the project's own modules byte-compiled once, as the venv's are: with PYTHONDONTWRITEBYTECODE set, each of
	@# the suite's ~350 processes (commands, Dagster steps, workers) compiled them again (70 ms of a command's 0.6 s)
	$(BIN)/python -m compileall -q -j 0 ragpipe assets tests bench
	$(BIN)/pytest -q --durations=25 -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# the unit tests alone (tests/unit/, mirroring the library's packages): the quick loop while editing a rule
test-unit: $(BIN)/ragpipe
	$(BIN)/pytest -q -n 2 tests/unit

# the review report's browser test drives Debian's chromium; without it that test skips, saying why
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo "sudo -n" ); \
	  ( $$SUDO apt-get install -y --no-install-recommends chromium || \
	    { $$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; } ) >/dev/null 2>&1 \
	  || echo "chromium could not be installed here: the browser test will skip"; }

# the benchmarks, each measuring its alternative in the same run; one that needs ../shared/data (or PostgreSQL
# and Redis) says so in one line and skips. bench-quick, a smaller sample of each, is .ci/run's smoke test
bench: $(BIN)/ragpipe services
	$(BIN)/python bench/ingest.py
	$(BIN)/python bench/retrieval.py
	$(BIN)/python bench/regrade.py
	$(BIN)/python bench/history.py
	$(BIN)/python bench/collector.py
	$(BIN)/python bench/review_markup.py
	$(BIN)/python bench/step_start.py
	$(BIN)/python bench/cluster.py
	$(BIN)/python bench/agreement_sets.py

bench-quick: $(BIN)/ragpipe services
	$(BIN)/python bench/ingest.py --quick
	$(BIN)/python bench/retrieval.py --quick
	$(BIN)/python bench/regrade.py --quick
	$(BIN)/python bench/history.py --quick
	$(BIN)/python bench/collector.py --quick
	$(BIN)/python bench/review_markup.py --quick
	$(BIN)/python bench/step_start.py --quick
	$(BIN)/python bench/cluster.py --quick
	$(BIN)/python bench/agreement_sets.py --quick

# the grader on every labelled set in ../shared, each check and reading also off in turn, against the golden
# verdicts and ablation rows (bench/agreement-verdicts.json): fails on a kappa drop, and
# on any verdict or row the file does not hold; a grading change declares them by `bench/agreement_sets.py --write --ablate`
agreement: $(BIN)/ragpipe
	$(BIN)/python bench/agreement_sets.py --gate --ablate

dev: $(BIN)/ragpipe
	mkdir -p $(DAGSTER_HOME)
	$(BIN)/python -m assets.deploy.instance  # SQLite, or PostgreSQL when RAGPIPE_POSTGRES_URL is set (docs/deploy.md)
	$(BIN)/python -m assets.deploy.dev_ui  # localhost only, on PORT (default 3000); its URL is the last line

clean:
	rm -rf warehouse/ragpipe.duckdb warehouse/parquet warehouse/index warehouse/corpora warehouse/reports warehouse/shards warehouse/answer_log
