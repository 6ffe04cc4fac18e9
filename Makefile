# Every target sets up .venv on first use, so `make test` works on a fresh machine; `serve` and `test`
# also build the browser client (npm ci when node_modules is missing or older than the lock, then esbuild).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.package-lock.json
WEB_SRC := $(WEB)/build.mjs $(shell find $(WEB)/src -type f 2>/dev/null)

.PHONY: venv web webcheck test lint types golden serve bench loadtest simulate

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

web: $(WEB)/dist/index.html

$(WEB_DEPS): $(WEB)/package.json $(wildcard $(WEB)/package-lock.json)
	@command -v npm >/dev/null || { echo "npm (Node 20+) is needed to build $(WEB)" >&2; exit 1; }
	cd $(WEB) && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --ignore-scripts; \
	  else npm install --no-audit --no-fund --ignore-scripts; fi
	touch $@

$(WEB)/dist/index.html: $(WEB_DEPS) $(WEB_SRC)
	cd $(WEB) && npm run --silent build

# the browser code: type-checked (tsc --checkJs), linted (Biome), its renderers unit-tested (node --test)
webcheck: $(WEB_DEPS)
	cd $(WEB) && npm run --silent check

test: $(STAMP) web webcheck
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regen

simulate: $(STAMP)
	$(BIN)/python -m server.games.expedition.simulate --games 1000

serve: $(STAMP) web
	$(BIN)/python -m server --host 127.0.0.1 --port 8765 --store memory

bench: $(STAMP)
	$(BIN)/python -m loadtests.bench

loadtest: $(STAMP)
	$(BIN)/locust -f loadtests/locustfile.py --headless -u 20 -r 5 -t 60s
