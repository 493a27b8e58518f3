"""Bad input: any JSON is compressed to valid messages or rejected with a 4xx naming the problem.

Property tests (hypothesis) post generated OpenAI chat requests, near-valid and
arbitrary, to a live proxy and to ``ctxpress.compress``; schemathesis checks the
proxy against its own OpenAPI document (``GET /openapi.json``). Budgets are bounded
(``max_examples``) so CI stays fast; ``deadline=None`` because the machine is shared.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
from _proxy_harness import Stack, stack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ctxpress
from ctxpress.messages import ROLES, validate_messages
from ctxpress.middleware.openapi import OPENAPI

# Fixed examples in CI (derandomize); CTXPRESS_FUZZ_EXAMPLES=5000 CTXPRESS_FUZZ_RANDOM=1 explores.
EXAMPLES = int(os.environ.get("CTXPRESS_FUZZ_EXAMPLES", "200"))
RANDOM = os.environ.get("CTXPRESS_FUZZ_RANDOM") == "1"
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=not RANDOM,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@contextlib.contextmanager
def live_stack(**fields: Any) -> Iterator[Stack]:
    """Engine and proxy served from a background thread, for synchronous tests."""
    box: dict[str, Any] = {}
    ready = threading.Event()

    async def main() -> None:
        async with stack(**fields) as s:
            box["stack"], box["stop"] = s, asyncio.Event()
            box["loop"] = asyncio.get_running_loop()
            ready.set()
            await box["stop"].wait()

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # surfaced by the waiting test
            box["error"] = exc
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(60), "the proxy did not start"
    if "error" in box:
        raise box["error"]
    try:
        yield box["stack"]
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(15)


@pytest.fixture(scope="module")
def live() -> Iterator[Stack]:
    # No warm-up: every request the engine sees is the one the test just sent.
    with live_stack(warmup=False, max_body_bytes=64 * 1024) as s:
        yield s


# --- strategies ---------------------------------------------------------------------------
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)
call_ids = st.sampled_from(["call_1", "call_2"])
part = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["text", "image_url", "refusal", "input_audio", "bogus"])
        | json_values
    },
    optional={
        "text": text | json_values,
        "refusal": text,
        "image_url": st.fixed_dictionaries({"url": text}) | json_values,
    },
)
tool_call = st.fixed_dictionaries(
    {
        "id": call_ids | json_values,
        "type": st.just("function"),
        "function": st.fixed_dictionaries(
            {"name": text}, optional={"arguments": text | json_values}
        )
        | json_values,
    }
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(sorted(ROLES)) | json_values},
    optional={
        "content": st.none()
        | text
        | st.text(min_size=200, max_size=2000)
        | st.lists(part, max_size=3)
        | json_values,
        "name": text | json_values,
        "tool_calls": st.lists(tool_call, max_size=2) | json_values,
        "tool_call_id": call_ids | json_values,
    },
)
messages = st.lists(message | json_values, max_size=8) | json_values
control = (
    st.fixed_dictionaries(
        {},
        optional={
            "budget": st.integers(-5, 400) | json_values,
            "stages": st.lists(st.sampled_from(["system", "code", "history", "nope"]), max_size=3)
            | json_values,
            "prefix": text | json_values,
            "enabled": json_values,
        },
    )
    | st.sampled_from(["off", False])
    | json_values
)
chat_request = st.fixed_dictionaries(
    {"model": st.just("fake-model") | json_values, "messages": messages},
    optional={
        "stream": st.booleans() | json_values,
        "max_tokens": st.integers(-5, 10**6) | json_values,
        "stream_options": json_values,
        "ctxpress": control,
        "metadata": json_values,
    },
)
bodies = chat_request.map(orjson.dumps) | json_values.map(orjson.dumps) | st.binary(max_size=200)


def check_answer(s: Stack, r: httpx.Response, sent_before: int) -> None:
    """The property: 2xx with valid messages upstream, or a 4xx that names the problem."""
    assert r.status_code < 500, r.text
    if r.status_code == 200:
        assert len(s.engine.requests) == sent_before + 1
        _, _, forwarded = s.engine.requests[-1]
        assert "ctxpress" not in forwarded
        validate_messages(forwarded["messages"])
        if r.headers["content-type"].startswith("text/event-stream"):
            assert r.text.rstrip().endswith("data: [DONE]")
        return
    assert 400 <= r.status_code < 500
    assert len(s.engine.requests) == sent_before  # rejected before reaching the engine
    error = r.json()["error"]
    assert isinstance(error["message"], str) and error["message"]
    assert error["type"]
    if r.status_code == 400:
        assert error["param"] or error["code"], error  # names the field or the problem


@FUZZ
@given(body=bodies)
def test_any_chat_request_is_forwarded_valid_or_rejected_with_a_4xx(
    live: Stack, body: bytes
) -> None:
    sent_before = len(live.engine.requests)
    r = httpx.post(
        live.url + "/v1/chat/completions",
        content=body,
        headers={"content-type": "application/json"},
        timeout=30,
    )
    check_answer(live, r, sent_before)


@FUZZ
@given(body=st.fixed_dictionaries({"messages": messages}, optional={"budget": json_values}))
def test_dry_run_compresses_or_rejects_with_a_4xx(live: Stack, body: dict[str, Any]) -> None:
    r = httpx.post(live.url + "/v1/compress", content=orjson.dumps(body), timeout=30)
    assert r.status_code < 500, r.text
    if r.status_code == 200:
        validate_messages(r.json()["messages"])
    else:
        error = r.json()["error"]
        assert r.status_code == 400 and error["message"] and (error["param"] or error["code"])


@FUZZ
@given(msgs=messages, budget=st.none() | st.integers(1, 300))
def test_compress_returns_valid_messages_or_raises_value_error(
    msgs: Any, budget: int | None
) -> None:
    try:
        result = ctxpress.compress(msgs, budget=budget)
    except ValueError as exc:
        assert str(exc)  # names the problem, e.g. "messages[2].role: ..."
        return
    validate_messages(result.messages)
    assert result.tokens_after <= result.tokens_before or result.fail_open


# --- schemathesis against the proxy's own OpenAPI document ---------------------------------
def test_openapi_document_is_served(live: Stack) -> None:
    r = httpx.get(live.url + "/openapi.json")
    assert r.status_code == 200 and r.json() == OPENAPI
    documented = set(OPENAPI["paths"])
    assert set(live.proxy._fixed) <= documented  # every fixed route is documented


@pytest.mark.parametrize("mode", ["positive", "negative"])
def test_schemathesis_finds_no_server_error_or_schema_violation(live: Stack, mode: str) -> None:
    schemathesis = pytest.importorskip("schemathesis")
    from schemathesis import GenerationMode
    from schemathesis.checks import positive_data_acceptance

    schema = schemathesis.openapi.from_dict(OPENAPI)
    # The proxy enforces rules across fields that JSON Schema does not state (content
    # required per role, every tool result answering an earlier call), so a schema-valid
    # body may still get a 400; the hypothesis tests above cover those. Every other
    # check runs: no 5xx, documented statuses and content types, response schemas, and
    # schema-invalid bodies rejected.
    excluded = [positive_data_acceptance]
    generation = GenerationMode(mode)
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if generation is GenerationMode.NEGATIVE and not len(operation.body):
            continue  # nothing to make invalid in a GET without parameters

        @settings(
            max_examples=max(15, EXAMPLES // 10),
            deadline=None,
            database=None,
            derandomize=not RANDOM,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=generation))
        def run(case: Any) -> None:
            case.call_and_validate(base_url=live.url, timeout=30, excluded_checks=excluded)

        try:
            run()
        except Exception as exc:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)
