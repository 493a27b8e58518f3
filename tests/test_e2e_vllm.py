"""Against a real vLLM server (``make e2e`` starts one and sets ``CTXPRESS_E2E_VLLM_URL``).

What only a real engine can show: usage carries ``prompt_tokens_details.cached_tokens``,
a repeated long prefix is served from the prefix cache, ctxpress's token count for the
model equals the engine's, and the same holds through ``ctxpress serve`` when it exists.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import ctxpress
from ctxpress.config import Config

ROOT = Path(__file__).resolve().parent.parent
URL = os.environ.get("CTXPRESS_E2E_VLLM_URL")
MODEL = os.environ.get("CTXPRESS_E2E_MODEL", "ctxpress-e2e-llama")
MODEL_DIR = os.environ.get(
    "CTXPRESS_E2E_MODEL_DIR", str(Path.home() / ".cache" / "ctxpress" / "e2e-model")
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not URL,
        reason="needs a real vLLM server: run `make e2e` (sets CTXPRESS_E2E_VLLM_URL)",
    ),
]


def long_history(n: int = 40) -> list[dict[str, Any]]:
    """A deterministic multi-turn chat of roughly 1,500 tokens."""
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You answer questions briefly."}]
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        msgs.append(
            {
                "role": role,
                "content": f"Turn {i}: the parcel with id {1000 + 37 * i} was moved "
                f"to shelf {i % 7} in warehouse {chr(65 + i % 5)} on day {i + 1}.",
            }
        )
    msgs.append({"role": "user", "content": "Which shelf holds parcel 1037?"})
    return msgs


def chat(client: httpx.Client, base: str, messages: list[Any], salt: str, **extra: Any) -> Any:
    body = {
        "model": MODEL,
        "messages": messages,
        "max_tokens": 2,
        "temperature": 0,
        "cache_salt": salt,
        **extra,
    }
    resp = client.post(f"{base}/chat/completions", json=body)
    assert resp.status_code == 200, resp.text
    return resp


def stream_usage(client: httpx.Client, base: str, messages: list[Any], salt: str) -> Any:
    body = {
        "model": MODEL,
        "messages": messages,
        "max_tokens": 2,
        "temperature": 0,
        "cache_salt": salt,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    usage = None
    with client.stream("POST", f"{base}/chat/completions", json=body) as resp:
        assert resp.status_code == 200
        for line in resp.iter_lines():
            if line.startswith("data:") and line[5:].strip() != "[DONE]":
                usage = json.loads(line[5:]).get("usage") or usage
    return usage


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=300.0) as c:
        yield c


def assert_prefix_cached(client: httpx.Client, base: str) -> None:
    msgs = long_history()
    salt = uuid.uuid4().hex  # fresh cache namespace: the first request cannot hit
    first = chat(client, base, msgs, salt).json()["usage"]
    assert first["prompt_tokens"] > 1000
    assert first["prompt_tokens_details"]["cached_tokens"] == 0
    # Same history plus one more turn: everything before it is a cached prefix.
    longer = [*msgs, {"role": "assistant", "content": "Shelf 1."}, msgs[-1]]
    second = chat(client, base, longer, salt).json()["usage"]
    cached = second["prompt_tokens_details"]["cached_tokens"]
    assert cached > 0
    assert cached <= first["prompt_tokens"] < second["prompt_tokens"]
    # Prefix caching works in whole blocks: all but the last partial block is reused.
    assert cached >= first["prompt_tokens"] - 256


def test_direct_usage_reports_cached_tokens_for_a_repeated_prefix(client: httpx.Client) -> None:
    assert URL
    assert_prefix_cached(client, URL)


def test_streamed_usage_carries_cached_tokens(client: httpx.Client) -> None:
    assert URL
    msgs, salt = long_history(), uuid.uuid4().hex
    cold = stream_usage(client, URL, msgs, salt)
    warm = stream_usage(client, URL, msgs, salt)
    assert cold["prompt_tokens"] == warm["prompt_tokens"]
    assert cold["prompt_tokens_details"]["cached_tokens"] == 0
    assert warm["prompt_tokens_details"]["cached_tokens"] > 0


def test_ctxpress_count_with_the_model_tokenizer_equals_the_engines(
    client: httpx.Client,
) -> None:
    assert URL
    config = Config(tokenizers={MODEL: MODEL_DIR})
    msgs = long_history(12)
    usage = chat(client, URL, msgs, uuid.uuid4().hex).json()["usage"]
    assert ctxpress.count_tokens(msgs, model=MODEL, config=config) == usage["prompt_tokens"]


def test_compressed_request_fits_its_budget_at_the_engine(client: httpx.Client) -> None:
    assert URL
    config = Config(tokenizers={MODEL: MODEL_DIR})
    msgs = long_history(60)
    full = ctxpress.count_tokens(msgs, model=MODEL, config=config)
    budget = full // 2
    result = ctxpress.compress(msgs, budget=budget, model=MODEL, config=config)
    usage = chat(client, URL, result.messages, uuid.uuid4().hex).json()["usage"]
    assert usage["prompt_tokens"] == result.tokens_after
    if not result.over_budget:  # stages that shrink history are registered
        assert usage["prompt_tokens"] <= budget


def _proxy_available() -> bool:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from e2e.vllm_server import proxy_available

    return proxy_available()


@pytest.fixture(scope="module")
def proxy() -> Iterator[str]:
    if not _proxy_available():
        pytest.skip("`ctxpress serve` is not in this install yet; direct tests cover vLLM")
    from e2e.vllm_server import ctxpress_proxy

    assert URL
    env = {"CTXPRESS_TOKENIZERS": json.dumps({MODEL: MODEL_DIR})}
    with ctxpress_proxy(URL, env) as base:
        yield base


def test_proxy_relays_usage_with_cached_tokens(client: httpx.Client, proxy: str) -> None:
    assert_prefix_cached(client, proxy)


def test_proxy_stream_reports_cached_tokens(client: httpx.Client, proxy: str) -> None:
    msgs, salt = long_history(), uuid.uuid4().hex
    cold = stream_usage(client, proxy, msgs, salt)
    warm = stream_usage(client, proxy, msgs, salt)
    assert cold["prompt_tokens_details"]["cached_tokens"] == 0
    assert warm["prompt_tokens_details"]["cached_tokens"] > 0


def test_proxy_compresses_to_the_request_budget(client: httpx.Client, proxy: str) -> None:
    msgs = long_history(60)
    # the proxy's default history mode is the cache-aligned layout
    config = Config(tokenizers={MODEL: MODEL_DIR}, history_mode="aligned")
    budget = ctxpress.count_tokens(msgs, model=MODEL, config=config) // 2
    resp = chat(client, proxy, msgs, uuid.uuid4().hex, ctxpress={"budget": budget})
    after = int(resp.headers["x-ctxpress-tokens-after"])
    assert resp.json()["usage"]["prompt_tokens"] == after
    expected = ctxpress.compress(msgs, budget=budget, model=MODEL, config=config)
    assert after == expected.tokens_after
