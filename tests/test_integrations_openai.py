"""``ctxpress.wrap`` with the real OpenAI SDK against a local stand-in server."""

from __future__ import annotations

import copy
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_example

import ctxpress

openai = pytest.importorskip("openai")

ROOT = Path(__file__).resolve().parent.parent

_spec = importlib.util.spec_from_file_location(
    "stub_openai_server", ROOT / "examples" / "stub_openai_server.py"
)
assert _spec is not None and _spec.loader is not None
stub_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stub_module)


@pytest.fixture
def stub() -> Iterator[Any]:
    server = stub_module.StubServer().start()
    yield server
    server.stop()


@pytest.fixture
def messages(long_chat: dict[str, Any]) -> list[dict[str, Any]]:
    return copy.deepcopy(long_chat["messages"])


def budget_for(messages: list[dict[str, Any]]) -> int:
    """Half the prompt: forces every lossy stage that exists to act."""
    return ctxpress.count_tokens(messages) // 2


def plain(stub: Any, cls: Any = None) -> Any:
    return (cls or openai.OpenAI)(base_url=stub.base_url, api_key="sk-test", max_retries=0)


def test_exported_from_the_package() -> None:
    assert "wrap" in ctxpress.__all__
    from ctxpress.integrations.openai import wrap

    assert ctxpress.wrap is wrap


def test_create_sends_the_compressed_messages(stub: Any, messages: list[dict[str, Any]]) -> None:
    original = copy.deepcopy(messages)
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    reply = client.chat.completions.create(model="gpt-4o", messages=messages)

    report = client.ctxpress_last  # type: ignore[attr-defined]
    assert report is not None
    assert report.tokens_after <= report.tokens_before
    assert report.tokens_before == ctxpress.count_tokens(original)
    assert [s.name for s in report.stages]
    assert stub.requests[-1]["messages"] == report.messages
    assert messages == original  # the caller's list is not touched

    # The same request through the unwrapped client returns the same kind of object.
    expected = plain(stub).chat.completions.create(model="gpt-4o", messages=report.messages)
    assert type(reply) is type(expected)
    assert reply.model_dump(exclude={"created"}) == expected.model_dump(exclude={"created"})


def test_create_stream(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    stream = client.chat.completions.create(model="gpt-4o", messages=messages, stream=True)
    assert isinstance(stream, openai.Stream)
    chunks = list(stream)
    sent = client.ctxpress_last.messages  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == sent
    assert stub.requests[-1]["stream"] is True

    expected = list(plain(stub).chat.completions.create(model="gpt-4o", messages=sent, stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert text == "".join(c.choices[0].delta.content or "" for c in expected)
    assert text == stub_module.reply_text({"messages": sent})


async def test_async_create_and_stream(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub, openai.AsyncOpenAI), budget=budget_for(messages))
    reply = await client.chat.completions.create(model="gpt-4o", messages=messages)
    sent = client.ctxpress_last.messages  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == sent
    expected = await plain(stub, openai.AsyncOpenAI).chat.completions.create(
        model="gpt-4o", messages=sent
    )
    assert reply.model_dump(exclude={"created"}) == expected.model_dump(exclude={"created"})

    stream = await client.chat.completions.create(model="gpt-4o", messages=messages, stream=True)
    assert isinstance(stream, openai.AsyncStream)
    text = "".join([c.choices[0].delta.content or "" async for c in stream])
    assert text == stub_module.reply_text({"messages": sent})
    assert stub.requests[-1]["messages"] == sent


@pytest.mark.parametrize(
    "call",
    [
        {"ctxpress": False},
        {"ctxpress": "off"},
        {"ctxpress": {"enabled": False}},
        {"extra_body": {"ctxpress": False}},
        {"extra_headers": {"x-ctxpress": "off"}},
    ],
)
def test_per_call_opt_out(stub: Any, messages: list[dict[str, Any]], call: dict[str, Any]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    client.chat.completions.create(model="gpt-4o", messages=messages, **call)
    assert client.ctxpress_last is None  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == messages
    assert "ctxpress" not in stub.requests[-1]


def test_per_call_budget_in_extra_body(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub))  # no budget of its own
    budget = budget_for(messages)
    client.chat.completions.create(
        model="gpt-4o",
        messages=messages,
        extra_body={"ctxpress": {"budget": budget, "stages": ["system"]}, "top_k": 5},
    )
    report = client.ctxpress_last  # type: ignore[attr-defined]
    assert report.budget == budget
    assert [s.name for s in report.stages] == ["system"]
    body = stub.requests[-1]
    assert "ctxpress" not in body
    assert body["top_k"] == 5  # other extra fields still go through
    assert body["messages"] == report.messages


def test_keyword_budget(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub))
    client.chat.completions.create(model="gpt-4o", messages=messages, ctxpress={"budget": 400})
    assert client.ctxpress_last.budget == 400  # type: ignore[attr-defined]


def test_bad_control_value_is_a_type_error(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub))
    with pytest.raises(TypeError, match="ctxpress"):
        client.chat.completions.create(model="m", messages=messages, ctxpress={"bugdet": 3})
    assert stub.requests == []


def test_with_options_and_passthrough(stub: Any, messages: list[dict[str, Any]]) -> None:
    inner = plain(stub)
    client = ctxpress.wrap(inner, budget=budget_for(messages))
    assert client.base_url == inner.base_url
    assert client.api_key == "sk-test"
    assert [m.id for m in client.models.list()] == ["stub-model"]

    other = client.with_options(timeout=7, max_retries=0)
    assert other is not client
    assert other.timeout == 7
    other.chat.completions.create(model="gpt-4o", messages=messages)
    assert other.ctxpress_last is not None  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == other.ctxpress_last.messages  # type: ignore[attr-defined]
    assert client.ctxpress_last is None  # type: ignore[attr-defined]

    with ctxpress.wrap(plain(stub)) as entered:
        assert entered.chat.completions.create(model="m", messages=messages).choices


def test_errors_are_the_sdks(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    with pytest.raises(openai.BadRequestError) as wrapped:
        client.chat.completions.create(model="bad-model", messages=messages)
    with pytest.raises(openai.BadRequestError) as unwrapped:
        plain(stub).chat.completions.create(model="bad-model", messages=messages)
    assert wrapped.value.status_code == unwrapped.value.status_code == 400
    assert wrapped.value.body == unwrapped.value.body


def test_raw_and_streaming_response_views(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    raw = client.chat.completions.with_raw_response.create(model="gpt-4o", messages=messages)
    assert raw.http_response.status_code == 200
    assert raw.parse().choices[0].message.content
    assert stub.requests[-1]["messages"] == client.ctxpress_last.messages  # type: ignore[attr-defined]

    raw_chat = client.chat.with_raw_response.completions.create(model="m", messages=messages)
    assert raw_chat.parse().choices

    view = client.chat.completions.with_streaming_response
    with view.create(model="gpt-4o", messages=messages, ctxpress=False) as response:
        assert response.parse().choices
    assert stub.requests[-1]["messages"] == messages


def test_stream_helper(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    with client.chat.completions.stream(model="gpt-4o", messages=messages) as stream:
        final = stream.get_final_completion()
    sent = client.ctxpress_last.messages  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == sent
    assert final.choices[0].message.content == stub_module.reply_text({"messages": sent})


async def test_async_stream_helper(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub, openai.AsyncOpenAI), budget=budget_for(messages))
    async with client.chat.completions.stream(model="gpt-4o", messages=messages) as stream:
        final = await stream.get_final_completion()
    sent = client.ctxpress_last.messages  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == sent
    assert final.choices[0].message.content == stub_module.reply_text({"messages": sent})


def test_unreadable_messages_pass_through(stub: Any) -> None:
    odd = [{"role": "critic", "content": "no such role"}, {"role": "user", "content": "hi"}]
    client = ctxpress.wrap(plain(stub), budget=10)
    client.chat.completions.create(model="gpt-4o", messages=odd)
    assert client.ctxpress_last is None  # type: ignore[attr-defined]
    assert stub.requests[-1]["messages"] == odd


def test_sdk_message_objects_are_accepted(stub: Any, messages: list[dict[str, Any]]) -> None:
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages))
    first = client.chat.completions.create(model="gpt-4o", messages=messages)
    follow_up = [*messages, first.choices[0].message, {"role": "user", "content": "And then?"}]
    client.chat.completions.create(model="gpt-4o", messages=follow_up)
    report = client.ctxpress_last  # type: ignore[attr-defined]
    assert report is not None
    sent = stub.requests[-1]["messages"]
    assert sent[-1] == {"role": "user", "content": "And then?"}
    assert [m["role"] for m in sent] == [m["role"] for m in report.messages]


def test_on_compress_sees_every_report(stub: Any, messages: list[dict[str, Any]]) -> None:
    seen: list[Any] = []
    client = ctxpress.wrap(plain(stub), budget=budget_for(messages), on_compress=seen.append)
    for _ in range(2):
        client.chat.completions.create(model="gpt-4o", messages=messages)
    assert len(seen) == 2
    assert all(r.tokens_after <= r.tokens_before for r in seen)


def test_example_runs(stub: Any) -> None:
    _, before, after = run_example("openai_wrap.py", "--base-url", stub.base_url)
    assert after <= before
    assert len(stub.requests) == 3  # plain, streamed, async with compression off
    assert stub.requests[0]["messages"] == stub.requests[1]["messages"]


@pytest.mark.parametrize(
    ("control", "error"),
    [({"budget": 0}, ValueError), ({"stages": ["no-such-stage"]}, ValueError)],
)
def test_bad_budget_or_stage_raises(
    stub: Any, messages: list[dict[str, Any]], control: dict[str, Any], error: type
) -> None:
    client = ctxpress.wrap(plain(stub))
    with pytest.raises(error):
        client.chat.completions.create(model="m", messages=messages, ctxpress=control)
    assert stub.requests == []
