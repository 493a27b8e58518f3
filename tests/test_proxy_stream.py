"""Streaming through the proxy: relay as it arrives, usage, disconnects, broken upstreams."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from _proxy_harness import chat, stack, wait_for


def events(text: str) -> list[str]:
    return [e.removeprefix("data: ") for e in text.split("\n\n") if e.strip()]


async def test_stream_relays_every_chunk_and_strips_the_usage_it_added() -> None:
    async with stack() as s:
        r = await s.client.post(
            "/v1/chat/completions", json=chat("m", stream=True), headers={"x-fake-chunks": "5"}
        )
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["x-accel-buffering"] == "no"
        data = events(r.text)
        assert data[-1] == "[DONE]"
        chunks = [json.loads(d) for d in data[:-1]]
        assert [c["choices"][0]["delta"]["content"] for c in chunks] == [
            f"m|{i}|" for i in range(5)
        ]
        # The proxy asked the engine for usage, recorded it, and hid it from this client.
        assert s.engine.requests[-1][2]["stream_options"] == {"include_usage": True}
        assert all(c["choices"] for c in chunks)
        assert await s.metric("ctxpress_engine_tokens_total", kind="completion") == 5
        assert await s.metric("ctxpress_ttft_seconds_count", model="fake-model") == 1
        assert await s.metric("ctxpress_tpot_seconds_count", model="fake-model") == 1


async def test_stream_keeps_usage_when_the_client_asked() -> None:
    async with stack() as s:
        body = chat("m", stream=True, stream_options={"include_usage": True})
        r = await s.client.post("/v1/chat/completions", json=body, headers={"x-fake-chunks": "3"})
        chunks = [json.loads(d) for d in events(r.text)[:-1]]
        assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["completion_tokens"] == 3
        assert s.engine.requests[-1][2]["stream_options"] == {"include_usage": True}


async def test_completions_stream() -> None:
    async with stack() as s:
        body = {"model": "fake-model", "prompt": "p", "stream": True}
        r = await s.client.post("/v1/completions", json=body, headers={"x-fake-chunks": "2"})
        texts = [json.loads(d)["choices"][0]["text"] for d in events(r.text)[:-1]]
        assert texts == ["p|0|", "p|1|"]


async def test_chunks_reach_the_client_before_the_upstream_finishes() -> None:
    async with stack() as s:
        headers = {"x-fake-chunks": "4", "x-fake-delay-ms": "150"}
        seen: list[int] = []
        async with s.client.stream(
            "POST", "/v1/chat/completions", json=chat("t", stream=True), headers=headers
        ) as r:
            async for line in r.aiter_lines():
                if line.startswith("data: {"):
                    # When chunk i arrives, the engine has not yet finished the stream.
                    seen.append(s.engine.completed)
        assert len(seen) == 4
        assert seen[:3] == [0, 0, 0]


async def test_client_disconnect_cancels_the_upstream() -> None:
    async with stack() as s:
        headers = {"x-fake-chunks": "100", "x-fake-delay-ms": "50"}
        async with s.client.stream(
            "POST", "/v1/chat/completions", json=chat("bye", stream=True), headers=headers
        ) as r:
            async for line in r.aiter_lines():
                if line.startswith("data: {"):
                    break  # leave after the first chunk
        await wait_for(lambda: s.engine.cancelled == 1)
        group = s.proxy.pool.groups["default"]
        await wait_for(lambda: group.replicas[0].in_flight == 0)
        assert s.engine.completed == 0
        assert await s.metric("ctxpress_requests_total", status="499") == 1


async def test_disconnect_while_waiting_for_a_non_stream_answer() -> None:
    async with stack() as s:
        group = s.proxy.pool.groups["default"]
        task = asyncio.create_task(
            s.client.post("/v1/chat/completions", json=chat(), headers={"x-fake-sleep-ms": "2000"})
        )
        await wait_for(lambda: group.replicas[0].in_flight == 1)
        task.cancel()
        await wait_for(lambda: group.replicas[0].in_flight == 0)
        assert await s.metric("ctxpress_requests_total", status="499") == 1


async def test_upstream_dying_mid_stream_ends_with_an_error_event() -> None:
    async with stack() as s:
        headers = {"x-fake-chunks": "10", "x-fake-die-after": "2"}
        r = await asyncio.wait_for(
            s.client.post("/v1/chat/completions", json=chat("d", stream=True), headers=headers), 10
        )
        data = events(r.text)
        parsed: list[dict[str, Any]] = [json.loads(d) for d in data if d.startswith("{")]
        assert [c["choices"][0]["delta"]["content"] for c in parsed[:2]] == ["d|0|", "d|1|"]
        assert parsed[-1]["error"]["message"].startswith("upstream stream ended early")
        assert "[DONE]" not in data
        assert await s.metric("ctxpress_upstream_errors_total", kind="stream_broken") == 1


async def test_no_cross_talk_under_concurrency() -> None:
    async with stack() as s:

        async def one(i: int) -> tuple[int, str]:
            body = chat(f"q{i}", stream=bool(i % 2), metadata={"marker": f"marker-{i}"})
            r = await s.client.post("/v1/chat/completions", json=body)
            return i, r.text

        results = await asyncio.gather(*(one(i) for i in range(40)))
        for i, text in results:
            assert f"marker-{i}" in text
            assert all(f"marker-{j}|" not in text for j in range(40) if j != i)


async def test_idle_timeout_ends_a_stalled_stream() -> None:
    async with stack(idle_timeout=0.3) as s:
        headers = {"x-fake-chunks": "3", "x-fake-delay-ms": "2000"}
        r = await s.client.post(
            "/v1/chat/completions", json=chat("s", stream=True), headers=headers
        )
        last = json.loads(events(r.text)[-1])
        assert "idle_timeout" in last["error"]["message"]


async def test_first_byte_timeout_is_504() -> None:
    async with stack(first_byte_timeout=0.3) as s:
        r = await s.client.post(
            "/v1/chat/completions", json=chat(), headers={"x-fake-sleep-ms": "2000"}
        )
        assert r.status_code == 504
        assert isinstance(r, httpx.Response) and r.json()["error"]["type"] == "timeout_error"
