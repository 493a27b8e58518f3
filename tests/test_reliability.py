"""Reliability of the proxy: a small soak, faults that the stream tests do not cover.

Faults already covered elsewhere (not repeated here):
- upstream dying mid-stream (in-process engine drops the connection):
  ``test_proxy_stream.py::test_upstream_dying_mid_stream_ends_with_an_error_event``;
- connect refused, retry on another replica:
  ``test_proxy.py::test_connect_failure_retries_on_another_replica``; every replica
  refusing, 503 and not ready: ``test_proxy.py::test_unreachable_upstream_is_503_and_not_ready``;
- first-byte timeout, 504 on a non-stream request:
  ``test_proxy_stream.py::test_first_byte_timeout_is_504``;
- client leaving mid-stream cancels the engine's request, 499 counted:
  ``test_proxy_stream.py::test_client_disconnect_cancels_the_upstream``;
- Redis outage and recovery of the store itself:
  ``test_store.py::test_redis_outage_degrades_to_memory_and_recovers``.

Added here: a real engine *process* killed mid-stream (timed), refusal and timeouts as
/metrics reports them, a Redis restart under proxy traffic, no leaked tasks after
disconnects, and 413 before the body is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _proxy_harness import chat, closed_port, serve, stack, wait_for

from ctxpress.config import Config
from ctxpress.middleware.app import ProxyApp, create_app
from ctxpress.middleware.fake import FakeEngine
from ctxpress.middleware.settings import ProxySettings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import soak

LONG_PROMPT = "You are the release notes assistant of Contoso. " * 20 + "Cite version numbers."


def events(text: str) -> list[str]:
    return [e.removeprefix("data: ") for e in text.split("\n\n") if e.strip()]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def engine_process(*args: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m ctxpress.middleware.fake`` in its own process; yields (process, /v1 URL)."""
    port = free_port()
    cmd = [sys.executable, "-m", "ctxpress.middleware.fake", "--port", str(port), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/models", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the fake engine process did not start") from None
                time.sleep(0.05)
        yield proc, url
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


# --- soak, test-sized ---------------------------------------------------------------------
async def test_small_soak_loses_mixes_and_truncates_nothing() -> None:
    async with stack(FakeEngine(record=False)) as s:
        stats = await soak.drive(s.url, seconds=3, clients=64, chunks=8, delay_ms=2)
        counted = await s.metric(
            "ctxpress_requests_total", endpoint="/v1/chat/completions", status="200"
        )
    assert stats.sent > 64 and stats.streams > 0 and stats.streams < stats.sent
    assert (stats.lost, stats.mixed, stats.incomplete, stats.errors) == (0, 0, 0, 0), stats.problems
    assert stats.ok == stats.sent
    assert counted == stats.sent  # the proxy answered each request exactly once


def test_soak_checker_detects_mixed_and_incomplete_answers() -> None:
    """The soak's verdicts are real: a foreign marker, a missing chunk, a lost [DONE]."""
    mine, other = "mk-1-1-0000aaaa", "mk-2-7-0000bbbb"

    def sse(marker: str, n: int, done: bool = True) -> bytes:
        parts = [
            "data: " + json.dumps({"choices": [{"delta": {"content": f"{marker}|{i}|"}}]})
            for i in range(n)
        ]
        return ("\n\n".join(parts + (["data: [DONE]"] if done else [])) + "\n\n").encode()

    stats = soak.Stats()
    soak.check(stats, mine, True, 200, sse(mine, 3), 3)
    soak.check(stats, mine, True, 200, sse(other, 3), 3)
    soak.check(stats, mine, True, 200, sse(mine, 2), 3)
    soak.check(stats, mine, True, 200, sse(mine, 3, done=False), 3)
    soak.check(stats, mine, False, 200, b'{"choices": [{"message": {"content": "x"}', 3)
    soak.check(stats, mine, False, 503, b'{"error": {"message": "down"}}', 3)
    assert (stats.ok, stats.mixed, stats.incomplete, stats.errors) == (1, 1, 3, 1)


# --- upstream killed mid-stream -----------------------------------------------------------
async def test_engine_process_killed_mid_stream_ends_the_stream_with_an_error_within_1s() -> None:
    with engine_process() as (proc, url):
        settings = {"upstream": [url], "health_interval": 3600}
        async with stack(settings=lambda _: settings) as s:
            headers = {"x-fake-chunks": "1000", "x-fake-delay-ms": "50"}
            seen: list[str] = []
            killed_at = 0.0
            async with s.client.stream(
                "POST", "/v1/chat/completions", json=chat("k", stream=True), headers=headers
            ) as r:
                assert r.status_code == 200
                async for line in r.aiter_lines():
                    if line.startswith("data: "):
                        seen.append(line[6:])
                    if len(seen) == 3 and not killed_at:
                        proc.kill()  # SIGKILL: the kernel closes the engine's sockets
                        killed_at = time.monotonic()
            ended = time.monotonic() - killed_at
            print(f"stream ended {ended * 1000:.0f} ms after SIGKILL")  # shown with -s
            assert killed_at and ended <= 1.0, f"stream ended {ended:.2f} s after the kill"
            last = json.loads(seen[-1])
            assert last["error"]["message"].startswith("upstream stream ended early")
            assert last["error"]["type"] == "upstream_error"
            assert "[DONE]" not in seen
            assert await s.metric("ctxpress_upstream_errors_total", kind="stream_broken") == 1
            assert await s.metric("ctxpress_requests_total", status="502") == 1
            group = s.proxy.pool.groups["default"]
            assert group.replicas[0].in_flight == 0


# --- connections refused ------------------------------------------------------------------
async def test_refused_replicas_retry_then_503_as_metrics_show() -> None:
    dead_a, dead_b = closed_port(), closed_port()

    def two_dead_one_live(url: str) -> dict[str, Any]:
        return {
            "upstreams": [{"name": "g", "urls": [dead_a, dead_b, url]}],
            "health_interval": 3600,
        }

    async with stack(settings=two_dead_one_live) as s:
        group = s.proxy.pool.groups["g"]
        for replica in group.replicas[:2]:  # pretend the dead ones look healthy again
            replica.healthy = True
        group.replicas[2].in_flight = 5  # so both dead ones are tried first
        body = chat("streamed retry", stream=True)
        r = await s.client.post("/v1/chat/completions", json=body, headers={"x-fake-chunks": "3"})
        group.replicas[2].in_flight = 0
        assert r.status_code == 200 and events(r.text)[-1] == "[DONE]"
        assert await s.metric("ctxpress_upstream_retries_total", group="g") == 2
        assert await s.metric("ctxpress_upstream_errors_total", group="g", kind="connect") == 2
        assert await s.metric("ctxpress_upstream_healthy", replica=dead_a) == 0

    def all_dead(_: str) -> dict[str, Any]:
        return {"upstreams": [{"name": "g", "urls": [dead_a, dead_b], "models": ["fake-model"]}]}

    async with stack(settings=all_dead) as s:
        for stream in (False, True):
            r = await s.client.post("/v1/chat/completions", json=chat(stream=stream))
            assert r.status_code == 503
            assert r.headers["content-type"] == "application/json"
            error = r.json()["error"]
            assert error["type"] == "service_unavailable" and "could be reached" in error["message"]
        assert await s.metric("ctxpress_requests_total", status="503") == 2
        assert await s.metric("ctxpress_upstream_errors_total", kind="connect") == 4


# --- slow first byte ----------------------------------------------------------------------
async def test_first_byte_timeout_applies_to_streams_and_frees_the_slot() -> None:
    async with stack(first_byte_timeout=0.3) as s:
        started = time.monotonic()
        r = await s.client.post(
            "/v1/chat/completions", json=chat(stream=True), headers={"x-fake-sleep-ms": "1500"}
        )
        assert r.status_code == 504 and r.json()["error"]["type"] == "timeout_error"
        assert time.monotonic() - started < 1.5  # answered before the engine woke up
        kind = "first_byte_timeout"
        assert await s.metric("ctxpress_upstream_errors_total", kind=kind) == 1
        assert await s.metric("ctxpress_requests_total", status="504") == 1
        assert s.proxy.pool.groups["default"].replicas[0].in_flight == 0
        ok = await s.client.post("/v1/chat/completions", json=chat("fine"))
        assert ok.status_code == 200  # the proxy still serves


# --- Redis stopped and restarted under traffic --------------------------------------------
class _Redis:
    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        from test_store import RedisServer

        self.server = RedisServer(binary)


@contextlib.asynccontextmanager
async def proxy_with(
    config: Config, **fields: Any
) -> AsyncIterator[tuple[ProxyApp, httpx.AsyncClient]]:
    engine = FakeEngine(record=False)
    async with serve(engine) as engine_url:
        settings = ProxySettings(upstream=[engine_url + "/v1"], access_log=False, **fields)
        app = create_app(settings, config=config)
        async with serve(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
            yield app, client


async def test_redis_restart_during_traffic_keeps_requests_flowing_and_redis_resumes() -> None:
    import redis

    server = _Redis().server
    server.start()
    config = Config(redis_url=server.url, namespace=f"rel{uuid.uuid4().hex[:8]}")
    statuses: list[int] = []
    try:
        async with proxy_with(config, warmup_min_tokens=0, warmup_rate=1000) as (app, client):
            app.store.breaker.retry_after = 0.2  # type: ignore[attr-defined]
            stop = asyncio.Event()

            async def traffic() -> None:
                i = 0
                while not stop.is_set():
                    i += 1
                    body = {"model": "fake-model", "stream": i % 2 == 0, "messages": [
                        {"role": "system", "content": f"{LONG_PROMPT} v{i % 3}"},
                        {"role": "user", "content": f"question {i}"}]}  # fmt: skip
                    r = await client.post("/v1/chat/completions", json=body)
                    statuses.append(r.status_code)
                    await asyncio.sleep(0.01)

            async def register(text: str) -> str:
                r = await client.post("/v1/prefixes", json={"text": text})
                assert r.status_code in (200, 201), r.text
                return str(r.json()["id"])

            def in_redis(pid: str) -> bool:
                direct = redis.Redis.from_url(server.url, socket_timeout=0.5)
                try:
                    return bool(direct.exists(f"{config.namespace}:prefix:{pid}"))
                finally:
                    direct.close()

            async def errors() -> float:
                text = (await client.get("/metrics")).text
                lines = [ln for ln in text.splitlines() if ln.startswith("ctxpress_store_errors")]
                return sum(float(ln.rsplit(" ", 1)[1]) for ln in lines if "_total" in ln)

            runner = asyncio.create_task(traffic())
            before = await register("Prompt registered while Redis is up.")
            assert in_redis(before)
            await wait_for(lambda: len(statuses) >= 5)
            assert await errors() == 0

            server.stop()
            during = len(statuses)
            # Registry calls and traffic go on, answered from memory, and the errors count.
            pid = await register("Prompt registered while Redis is down.")
            listed = (await client.get("/v1/prefixes")).json()["data"]
            assert pid in [e["id"] for e in listed]
            await wait_for(lambda: len(statuses) >= during + 10)
            assert await errors() >= 1

            server.start()  # an empty Redis on the same port
            after = len(statuses)
            deadline = time.monotonic() + 10
            resumed = ""
            while not resumed and time.monotonic() < deadline:
                candidate = await register(f"Prompt registered after the restart {time.time()}.")
                if in_redis(candidate):
                    resumed = candidate
                else:
                    await asyncio.sleep(0.1)
            assert resumed, "the proxy did not go back to Redis after the restart"
            # The registry works against Redis again: read back through the proxy.
            body = chat("uses the prefix", ctxpress={"prefix": resumed})
            assert (await client.post("/v1/chat/completions", json=body)).status_code == 200
            await wait_for(lambda: len(statuses) >= after + 10)
            stop.set()
            await runner
    finally:
        server.stop()
    assert statuses and set(statuses) == {200}, sorted(set(statuses))


# --- client disconnects -------------------------------------------------------------------
async def test_disconnects_cancel_upstream_requests_and_leak_no_tasks() -> None:
    async with stack() as s:
        group = s.proxy.pool.groups["default"]
        assert (await s.client.post("/v1/chat/completions", json=chat("warm"))).status_code == 200
        await asyncio.sleep(0.05)
        baseline = len(asyncio.all_tasks())
        headers = {"x-fake-chunks": "200", "x-fake-delay-ms": "20"}
        for i in range(8):  # each client leaves after the first chunk, on a new connection
            async with (
                httpx.AsyncClient(base_url=s.url) as client,
                client.stream(
                    "POST", "/v1/chat/completions", json=chat(f"d{i}", stream=True), headers=headers
                ) as r,
            ):
                async for line in r.aiter_lines():
                    if line.startswith("data: {"):
                        break
        waiting = [
            asyncio.create_task(
                s.client.post(
                    "/v1/chat/completions", json=chat(), headers={"x-fake-sleep-ms": "1500"}
                )
            )
            for _ in range(4)
        ]
        await wait_for(lambda: group.replicas[0].in_flight == 4)
        for task in waiting:
            task.cancel()
        await wait_for(lambda: s.engine.cancelled == 8)
        await wait_for(lambda: group.replicas[0].in_flight == 0)
        assert s.engine.completed == 1  # only the warm request finished upstream
        assert await s.metric("ctxpress_requests_total", status="499") == 12
        await wait_for(lambda: len(asyncio.all_tasks()) <= baseline, timeout=10)
        leftover = [t for t in asyncio.all_tasks() if "watch" in repr(t.get_coro())]
        assert leftover == []


# --- oversized bodies ---------------------------------------------------------------------
async def _raw(url: str, head: bytes, body: bytes = b"") -> bytes:
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(head + body)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(65536), 5)
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()
    return answer


async def test_oversized_body_is_413_before_it_is_sent() -> None:
    async with stack(max_body_bytes=4096) as s:
        # Content-Length over the limit, no body sent at all: the answer comes anyway.
        head = (
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 1000000000\r\n\r\n"
        )
        answer = await _raw(s.url, head)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
        assert b'"body_too_large"' in answer
        # Chunked (no length): cut off as soon as the limit is passed.
        head = (
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
        )
        chunk = b"2000\r\n" + b"x" * 0x2000 + b"\r\n"
        answer = await _raw(s.url, head, chunk)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
        assert await s.metric("ctxpress_rejected_total", reason="body_size") == 2
        assert not s.engine.requests
