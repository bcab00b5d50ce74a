# 2048 in Python: one-command setup, serve, test and measure.
# Works on a fresh machine with python3, pip, node and npm: every target installs what it needs
# (npm packages into node_modules/, Python packages into the .venv/ virtual environment).

PORT ?= 8000
HOST ?= 127.0.0.1
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PYTEST_ARGS ?= tests -q
CHROMIUM ?= /usr/bin/chromium

.PHONY: run serve test lint format deps npm-deps py-deps chromium bench bench-load bench-long-tasks bench-panels bench-review bench-lighthouse bench-games bench-move-cost bench-lab-files soak lab site

run: deps
	@echo "2048 in Python: open http://$(HOST):$(PORT)/"
	$(VPY) tools/serve.py --port $(PORT) --host $(HOST)

serve: deps
	$(VPY) tools/serve.py --port $(PORT) --host $(HOST)

# The page as a folder of plain files (site/), for GitHub Pages or any static host: tools/site.py.
site: deps
	$(VPY) tools/site.py --out site

deps: npm-deps py-deps

npm-deps: node_modules/.package-lock.json

# npm ci rewrites node_modules/.package-lock.json, so it is newer than the lock file once installed.
node_modules/.package-lock.json: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is missing: install Node.js (e.g. apt-get install -y nodejs npm)"; exit 1; }
	npm ci --no-audit --no-fund
	@touch $@

py-deps: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update && apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); \
	  else echo "python3 -m venv failed: install the venv module (Debian: apt-get install python3-venv)"; exit 1; fi; }
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -e '.[dev]'
	@touch $@

chromium:
	@if [ -x "$(CHROMIUM)" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "Installing Debian's chromium for the browser tests"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	else \
	  echo "NOTE: $(CHROMIUM) is missing and this is not root: the browser tests will be skipped."; \
	  echo "      Install it with: sudo apt-get install -y chromium  (or set CHROMIUM_PATH)"; \
	fi

# pytest exits 5 when it collects nothing; that must never pass as green.
test: deps chromium lint
	@$(VPY) -m pytest $(PYTEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

# The linter, the formatter's check and the type checker (settings in pyproject.toml); 'make format' applies
# the first two's fixes.
lint: py-deps
	$(VPY) -m ruff check .
	$(VPY) -m ruff format --check .
	$(VPY) -m mypy

format: py-deps
	$(VPY) -m ruff check --fix .
	$(VPY) -m ruff format .

# The search bench (ARGS="--algorithm expectimax --preset learned --workers 1,2": the page's AI in 1 and 2 workers).
bench: deps chromium
	$(VPY) tools/bench.py $(ARGS)

bench-load: deps chromium
	$(VPY) tools/bench_load.py --baseline

# The main thread's long tasks from navigation to AI ready, CPU x1 and x4 (ARGS="--root /tmp/before" compares).
bench-long-tasks: deps chromium
	$(VPY) tools/bench_long_tasks.py $(ARGS)

# Each panel's first opening, from the key or click to the frame that shows it, CPU x1 and x4 (ARGS="--runs 9").
bench-panels: deps chromium
	$(VPY) tools/bench_panels.py $(ARGS)

# A 1,000-move game reviewed in the page, by a preset and by the network: seconds, long tasks, the engine's grades.
bench-review: deps chromium
	$(VPY) tools/bench_review.py $(ARGS)

# Lighthouse's four category scores and load metrics, mobile and desktop, median of 3 runs (ARGS="--runs 5 --check").
bench-lighthouse: deps chromium
	$(VPY) tools/bench_lighthouse.py $(ARGS)

# Seeded games by the page's own autoplay in Chromium beside the CPython lab (ARGS="--games 4 --resume").
bench-games: deps chromium
	$(VPY) tools/bench_games.py --lab $(ARGS)

# Main-thread time a move costs in a fresh game and at move 6,000 of a long one (ARGS="--root /tmp/before" compares).
bench-move-cost: deps chromium
	$(VPY) tools/bench_move_cost.py $(ARGS)

# The longest main-thread task while the page reads a lab file of 10,000 games (ARGS="--games 18926 --per-move").
bench-lab-files: deps chromium
	$(VPY) tools/bench_lab_files.py $(ARGS)

soak: deps chromium
	$(VPY) tools/soak.py $(ARGS)

lab: deps
	$(VPY) -m game2048.lab $(ARGS)
