# Every target sets up .venv on first use, so `make test` works on a fresh machine; `serve` and `test`
# also build the browser client (npm ci when node_modules is missing or older than the lock, then esbuild).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.package-lock.json
WEB_SRC := $(WEB)/build.mjs $(shell find $(WEB)/src -type f 2>/dev/null)

.PHONY: venv web webcheck lock test lint types golden serve bench peers records-bench loadtest simulate faults cluster-faults chaos fuzz soak scale route-bench

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

# the Docker image's Python packages (deploy/Dockerfile): pyproject.toml's dependencies pinned with their files' hashes
# in requirements.lock, for CPython 3.11+ on any platform (uv, installed into .venv on first use). Pins already in the
# lock are kept; LOCK_ARGS=--upgrade moves every pin to the newest release allowed (deploy/README.md)
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet \
	  --custom-compile-command "make lock" -o requirements.lock $(LOCK_ARGS)

test: $(STAMP) web webcheck
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

golden: $(STAMP)
	$(BIN)/python -m tests.golden.regen
	$(BIN)/python -m tests.golden.wire

simulate: $(STAMP)
	$(BIN)/python -m server.games.expedition.simulate --games 1000

serve: $(STAMP) web
	$(BIN)/python -m server --host 127.0.0.1 --port 8765 --store $(or $(STORE),sqlite:///./data/marcopolo.db)

# the standard bench set (loadtests/suite.py): baseline and real server under the same loads; writes the
# generated section of docs/benchmarks.md and keeps the JSON in loadtests/results/ (BENCH_ARGS=--quick: a smoke run)
bench: $(STAMP)
	$(BIN)/python -m loadtests.suite $(BENCH_ARGS)

# this project next to Colyseus and boardgame.io (Node 20+; npm ci in loadtests/peers on first use): the same
# 250 rooms x 4 seats closed loop for every game and for a hidden-hand game on each peer, with each peer's own client
# library; writes the peers section of docs/benchmarks.md (PEERS_ARGS=--quick: a smoke run)
peers: $(STAMP)
	$(BIN)/python -m loadtests.peers $(PEERS_ARGS)

# game ends, leaderboard pages and histories on the records database with 10 and 100,000 rated players, on a SQLite
# file and on PostgreSQL at 127.0.0.1:5432 (a database of its own, dropped at the end); RECORDS_BENCH_ARGS overrides
records-bench: $(STAMP)
	$(BIN)/python -m loadtests.records_bench --backend both --players 10,100000 --ends 200 $(RECORDS_BENCH_ARGS)

# the paths that grow with what is stored (lobby page, quick match, a node's start-up, a game's end, leaderboard,
# history) at 25,000 live and 1,000,000 finished rooms and 100,000 rated accounts, against a baseline in one run,
# on a redis-server of its own (about 10 minutes; SCALE_ARGS, e.g. "--finished 100000", overrides)
scale: $(STAMP)
	$(BIN)/python -m loadtests.scale $(SCALE_ARGS)

# frames that cross Redis with and without routing by room: a redis-server, 3 nodes and two HAProxy processes of its
# own (deploy/haproxy/haproxy.cfg as it is, and without its `use_backend rooms` line), ROUTE_ROOMS games through each
route-bench: $(STAMP)
	$(BIN)/python -m loadtests.route_bench --rooms $(or $(ROUTE_ROOMS),12) $(ROUTE_BENCH_ARGS)

arena: $(STAMP)
	nice -n 10 $(BIN)/python -m server.games.arena --games 20 --playouts 16 --jobs 2

# locust headless against a server of its own, every game; CSVs in loadtests/results/locust-<time>/
LOCUST_USERS ?= 200
LOCUST_TIME ?= 5m
loadtest: $(STAMP)
	$(BIN)/python -m loadtests.run_locust --users $(LOCUST_USERS) --time $(LOCUST_TIME) $(LOCUST_ARGS)

# one node under mixed games with bots, reconnecting players, slow readers and lobby watchers for 60 minutes
# (SOAK_ARGS, e.g. "--minutes 20 --store sqlite"); fails if RSS, fds, threads, rooms or connections grow after
# the first 10 minutes (loadtests/soak.py; --tracemalloc says where memory grew)
SOAK_ARGS ?= --minutes 60 --store sqlite
soak: $(STAMP)
	$(BIN)/python -m loadtests.soak $(SOAK_ARGS)

# fault tests with real processes, many times in a row (FAULT_RUNS, default 20); stops at the first failure
FAULT_RUNS ?= 20
faults: $(STAMP)
	for i in $$(seq 1 $(FAULT_RUNS)); do echo "fault run $$i of $(FAULT_RUNS)"; \
	  $(BIN)/python -m pytest -q -p no:cacheprovider -m faults tests/faults || exit 1; done

# a Redis Cluster of the test's own (six redis-server) whose room primary is SIGKILLed mid-game, every game, many
# times in a row (CLUSTER_FAULT_RUNS, default 20); stops at the first failure
CLUSTER_FAULT_RUNS ?= 20
cluster-faults: $(STAMP)
	for i in $$(seq 1 $(CLUSTER_FAULT_RUNS)); do echo "cluster fault run $$i of $(CLUSTER_FAULT_RUNS)"; \
	  MP_CLUSTER_FAULTS=1 $(BIN)/python -m pytest -q -p no:cacheprovider -m cluster_faults tests/faults \
	  || exit 1; done

# seeded fault schedules against three nodes and a Redis of their own (CHAOS_SCHEDULES, default 100)
CHAOS_SCHEDULES ?= 100
chaos: $(STAMP)
	$(BIN)/python -m tests.faults.chaos --schedules $(CHAOS_SCHEDULES) --seed 1

# coverage-guided fuzzing of the frame decoder (docs/security.md); new inputs land in tests/fuzz/corpus
FUZZ_SECONDS ?= 600
fuzz: $(STAMP)
	$(BIN)/python -c 'import atheris' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[fuzz]'
	$(BIN)/python tests/fuzz/fuzz_decoder.py tests/fuzz/corpus -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048
	FUZZ_EXAMPLES=5000 $(BIN)/python -m pytest -q tests/fuzz
