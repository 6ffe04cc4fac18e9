# Every target sets up .venv on first use, so `make test` works on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv test lint types golden serve bench loadtest simulate

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regen

simulate: $(STAMP)
	$(BIN)/python -m server.games.expedition.simulate --games 1000

serve: $(STAMP)
	$(BIN)/python -m server --host 127.0.0.1 --port 8765 --store memory

bench: $(STAMP)
	$(BIN)/python -m loadtests.bench

loadtest: $(STAMP)
	$(BIN)/locust -f loadtests/locustfile.py --headless -u 20 -r 5 -t 60s
