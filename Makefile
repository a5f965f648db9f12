# Tableside: every target sets up its own virtual environment (.venv) and refreshes it when
# pyproject.toml changes, so a newcomer with Python 3.11+ and make needs nothing else.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000
JOBS   ?= 2
# test processes: one per core (a test file stays in one process, so its module fixtures are built once)
TEST_JOBS ?= auto

.PHONY: test demo bench trials models clean help

help:
	@echo "make demo    open the dashboard on the built-in demo table (no camera needed)"
	@echo "make test    run the whole test suite"
	@echo "make bench   run the benchmarks and write bench/results.json"
	@echo "make trials  referee 20 seeded random games of each game through real vision (hours; JOBS=16 on 16 cores)"
	@echo "make models  rebuild the ONNX models from their training recipes (installs torch, CPU build)"
	@echo "make clean   remove the virtual environment and caches"

# One stamp per set of extras; each is remade when pyproject.toml is newer than it.
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Tableside needs Python 3.11 or newer; '$(PYTHON)' is $$($(PYTHON) --version 2>&1). Run: make PYTHON=python3.11 ..."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.stamp-%: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$*]"
	@touch $@

$(VENV)/.stamp-runtime: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

test: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile --durations=15

demo: $(VENV)/.stamp-runtime
	$(BIN)/tableside demo --open --host $(HOST) --port $(PORT)

bench: $(VENV)/.stamp-test
	$(BIN)/python -m bench.run --output bench/results.json

trials: $(VENV)/.stamp-test
	$(BIN)/python -m bench.trials --jobs $(JOBS) --out bench/trials.json

models: $(VENV)/.stamp-train
	$(BIN)/python -m models.build

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
