# interlingua — `make help` lists the targets. Set-up is automatic: every target that needs the
# virtual environment builds it from pyproject.toml (pinned versions) on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help generate check-generated lint typecheck test fuzz demo bench bench-instructions bench-gateway e2e-clients serve clean

help:  ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 18

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,gateway]'
	touch $(STAMP)

generate: $(STAMP)  ## regenerate generated/, docs/compatibility.md and spec/.schema.json from spec/
	$(BIN)/python -m codegen

check-generated: $(STAMP)  ## fail with a short diff when generated/ is stale
	$(BIN)/python -m codegen --check

lint: $(STAMP)  ## ruff check + ruff format --check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)  ## mypy on runtime/, codegen/ and generated/
	$(BIN)/mypy

test: $(STAMP) lint typecheck check-generated  ## everything CI runs: lint, types, codegen --check, pytest
	$(BIN)/python -m pytest -x

fuzz: $(STAMP)  ## the long fuzz run: 60,000 tallied cases, then 11,000 hypothesis ones (docs/fuzzing.md)
	$(BIN)/python -m tests.fuzz_run --cases 60000
	FUZZ_EXAMPLES=2500 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_fuzz.py

demo: $(STAMP)  ## translate the bundled tool loop between every supported protocol, losses shown
	$(BIN)/python examples/demo.py

bench: $(STAMP)  ## translation cost vs the orjson floor (and LiteLLM when installed), the same in instructions, the gateway's overhead and load check, the state store's cost
	$(BIN)/python -m bench
	$(BIN)/python -m bench.instructions
	$(BIN)/python -m bench.gateway_overhead
	$(BIN)/python -m bench.gateway_load
	$(BIN)/python -m bench.gateway_state

bench-instructions: $(STAMP)  ## the bench's floor and interlingua counted in CPU instructions (valgrind): load-independent ratios
	$(BIN)/python -m bench.instructions

bench-gateway: $(STAMP)  ## what the gateway adds to a call (vs direct), then 200 concurrent streams, none lost or mixed up
	$(BIN)/python -m bench.gateway_overhead
	$(BIN)/python -m bench.gateway_load

E2E_CLIENTS := @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0 @google/gemini-cli@0.61.0

e2e-clients: $(STAMP)  ## (needs npm; not in CI) Claude Code, Codex, Gemini CLI through the gateway, tool round trip
	mkdir -p build/e2e-clients
	npm install --prefix build/e2e-clients --no-audit --no-fund $(E2E_CLIENTS)
	$(BIN)/python -m tests.e2e_clients

serve: $(STAMP)  ## run the gateway (see README)
	$(BIN)/interlingua serve --config $(or $(CONFIG),examples/gateway.toml)

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
