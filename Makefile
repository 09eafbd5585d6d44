# Turnframe web. `make run` serves the app; `make test` runs the whole suite. Both set themselves up.
SHELL := /bin/bash
PORT ?= 8000
OUTBOX_INTERVAL ?= 1
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# a Python >= 3.12: $PYTHON, then python3.12/3.13 on PATH, then pyenv's, then python3 if new enough
PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.12.1/bin/python3 $$HOME/.pyenv/versions/3.13.0/bin/python3 python3; do \
  command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null && { command -v $$p; break; }; done)

.PHONY: run test test-unit test-browser test-postgres lint check typecheck bench loadbench clean setup

$(PY):
	@if [ -z "$(PYTHON)" ]; then echo "Turnframe web needs Python >= 3.12 (try: pyenv install 3.12.1, or set PYTHON=/path/to/python3.12)"; exit 1; fi
	@echo "Using $(PYTHON) ($$($(PYTHON) --version))"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e ".[dev,postgres,redis,openai,anthropic]"
	@touch $(STAMP)

setup: $(STAMP)

# daphne and, beside it in the same shell, the outbox worker (it notifies the approver system): the worker ends
# with daphne (Ctrl-C, SIGTERM, daphne failing to start), and on its own if that shell is killed outright
run: $(STAMP)
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py seed_demo
	$(PY) manage.py recover_turns
	@echo ""
	@echo "  Turnframe web is at http://127.0.0.1:$(PORT)/"
	@echo "  Sign in as alice, bob or admin (staff, /admin/) with password: $${TURNFRAME_DEMO_PASSWORD:-turnframe-demo}"
	@echo "  The outbox worker notifies the approver of each submission (demo approver: /admin/, Demo approver notifications)"
	@echo ""
	$(PY) manage.py run_outbox --interval $(OUTBOX_INTERVAL) --stop-with-parent & outbox=$$!; \
	  trap 'kill $$outbox 2>/dev/null; wait $$outbox 2>/dev/null' EXIT; \
	  $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) turnframe_web.asgi:application

# the packages mypy checks (configured in pyproject.toml, [tool.mypy]); conversations/turns joins when it passes
MYPY_PACKAGES := conversations/core registries

# the whole suite: unit + integration (SQLite, and PostgreSQL when TURNFRAME_TEST_POSTGRES=1), the
# architecture contracts, the type checker, the evaluation corpus, and the browser tests in their own pytest run
test: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --cache-dir=/dev/null $(MYPY_PACKAGES)
	$(PY) manage.py check
	$(PY) -m pytest -m "not browser" -q
	$(PY) -m pytest -m browser -q tests/e2e

typecheck: $(STAMP)
	$(VENV)/bin/mypy --cache-dir=/dev/null $(MYPY_PACKAGES)

test-postgres: $(STAMP)
	TURNFRAME_TEST_POSTGRES=1 $(PY) -m pytest -m "not browser" -q

bench: $(STAMP)
	$(PY) manage.py bench

# issue 11's figures through daphne (docs/performance.md): PostgreSQL + Redis, a scratch database
LOAD_DB ?= postgres://postgres@127.0.0.1:5432/turnframe_load
LOAD_REDIS ?= redis://127.0.0.1:6379/0
LOAD_ENV = DATABASE_URL=$(LOAD_DB) REDIS_URL=$(LOAD_REDIS)
loadbench: $(STAMP)
	-createdb -h 127.0.0.1 -U postgres turnframe_load 2>/dev/null
	$(LOAD_ENV) $(PY) manage.py migrate -v0
	$(LOAD_ENV) $(PY) manage.py loadbench --mode http --turns 100 --compare
	$(LOAD_ENV) $(PY) manage.py loadbench --mode ws --turns 100 --compare
	$(LOAD_ENV) $(PY) manage.py loadbench --mode processes --processes 1,2,4 --clients 16 --duration 20
	$(LOAD_ENV) $(PY) manage.py loadbench --mode sockets --sockets 500 --active 50 --interval 3 --duration 30
	$(LOAD_ENV) $(PY) manage.py loadbench --mode slow --slow 100 --delay 5

clean:
	rm -rf $(VENV) db.sqlite3* staticfiles test-artifacts
