"""Security promises of the proxy (SECURITY.md): what never leaks, and where requests never go."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn
from _proxy_harness import chat, stack

from ctxpress.config import Config
from ctxpress.middleware import app as app_module
from ctxpress.middleware.app import create_app
from ctxpress.middleware.fake import FakeEngine
from ctxpress.middleware.prefixes import prefix_id
from ctxpress.middleware.serve import uvicorn_options
from ctxpress.middleware.settings import ProxySettings
from ctxpress.store import digest

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
SECRET_PROMPT = "zebra-quartz-7731-confidential"
SECRET_KEY = "sk-proxy-key-4f1c9e2a7b"
WRONG_KEY = "sk-wrong-key-88e0d1c3aa"
UPSTREAM_KEY = "sk-upstream-key-d2b7e9"


@contextlib.asynccontextmanager
async def serve_like_production(app: Any) -> AsyncIterator[str]:
    """uvicorn with ``ctxpress serve``'s options, plus uvicorn's own access log switched on."""
    options = uvicorn_options(ProxySettings(upstream=["http://127.0.0.1:1/v1"]))
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        lifespan="on",
        access_log=True,  # stricter than production, which leaves it off
        log_level=options["log_level"],
        server_header=options["server_header"],
        log_config=None,  # keep pytest's capture handlers
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def test_prompts_and_keys_never_reach_the_logs(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_UPSTREAM_KEY", UPSTREAM_KEY)
    caplog.set_level(logging.INFO)  # the level ``ctxpress serve`` runs at
    engine = FakeEngine()
    from _proxy_harness import serve

    async with serve(engine) as engine_url:
        group = {"name": "g", "urls": [engine_url + "/v1"], "api_key_env": "TEST_UPSTREAM_KEY"}
        settings = ProxySettings(upstreams=[group], api_keys=[SECRET_KEY], access_log=True)
        async with (
            serve_like_production(create_app(settings)) as url,
            httpx.AsyncClient(base_url=url, timeout=10) as client,
        ):
            # uvicorn's loggers do not propagate once a server configured them (each
            # uvicorn.Config does, clearing handlers): listen to them directly from here on.
            for name in ("uvicorn.access", "uvicorn.error"):
                logging.getLogger(name).addHandler(caplog.handler)
            ok = {"authorization": f"Bearer {SECRET_KEY}"}
            long_history = [
                {"role": "user" if i % 2 == 0 else "assistant", "content": f"{SECRET_PROMPT} {i}"}
                for i in range(11)
            ]
            sent = [
                client.post("/v1/chat/completions", json=chat(SECRET_PROMPT), headers=ok),
                client.post("/v1/chat/completions", json=chat(SECRET_PROMPT, stream=True),
                            headers=ok),
                client.post("/v1/chat/completions", headers=ok, json={
                    "model": "fake-model", "messages": long_history, "ctxpress": {"budget": 40}}),
                client.post("/v1/chat/completions", json=chat(SECRET_PROMPT),
                            headers={**ok, "x-fake-status": "500"}),
                client.post("/v1/chat/completions", json=chat(SECRET_PROMPT, stream=True),
                            headers={**ok, "x-fake-chunks": "5", "x-fake-die-after": "2"}),
                client.post("/v1/chat/completions", json=chat(SECRET_PROMPT),
                            headers={"authorization": f"Bearer {WRONG_KEY}"}),
                client.post("/v1/chat/completions", headers=ok, json={
                    "model": "fake-model", "messages": [{"role": SECRET_PROMPT, "content": "x"}]}),
                client.post("/v1/chat/completions", headers=ok,
                            content=b'{"model": "' + SECRET_PROMPT.encode() + b'", "messages": ['),
                client.post("/v1/compress", json={"messages": long_history, "budget": 30},
                            headers=ok),
                client.post("/v1/prefixes", headers=ok,
                            json={"text": SECRET_PROMPT * 30, "model": "fake-model"}),
                client.post(f"/v1/embeddings?q={SECRET_PROMPT}", json={"input": SECRET_PROMPT},
                            headers=ok),
            ]  # fmt: skip
            statuses = [(await request).status_code for request in sent]
            await asyncio.sleep(0.3)  # background warm-up of the registered prefix
    assert statuses[:3] == [200, 200, 200] and 401 in statuses and 400 in statuses
    # The engine did get the prompt and the upstream key: the test would see a leak.
    assert any(SECRET_PROMPT in str(body) for _, _, body in engine.requests)
    for name in ("uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).removeHandler(caplog.handler)
    records = caplog.records
    assert any(r.name == "ctxpress.access" for r in records)
    assert any(r.name == "uvicorn.access" for r in records)
    formatter = logging.Formatter("%(name)s %(message)s")
    ours = [r for r in records if r.name.split(".")[0] in ("ctxpress", "uvicorn")]
    lines = [formatter.format(r) for r in ours]  # exc_info included
    for secret in (SECRET_PROMPT, SECRET_KEY, WRONG_KEY, UPSTREAM_KEY):
        leaked = [ln for ln in lines if secret in ln]
        # uvicorn's access log prints the request target with its query string: the one
        # leak, and why ``ctxpress serve`` turns it off (ctxpress.access logs the path only).
        assert all(ln.startswith("uvicorn.access") and "?q=" in ln for ln in leaked), leaked
    assert any("?q=" in ln for ln in lines if ln.startswith("uvicorn.access"))
    assert uvicorn_options(ProxySettings(upstream=["http://x:1/v1"]))["access_log"] is False


async def test_api_keys_are_compared_with_compare_digest_against_every_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(app_module.hmac, "compare_digest", spy)
    keys = ["sk-first-key", "sk-second-key", "sk-third-key"]

    def settings(url: str) -> dict[str, Any]:
        return {"upstream": [url], "api_keys": keys}

    async with stack(settings=settings) as s:
        for key, status in (("sk-first-key", 200), ("sk-third-key", 200), ("sk-third-kez", 401),
                            ("x", 401), ("sk-first-key-and-more", 401)):  # fmt: skip
            calls.clear()
            r = await s.client.post(
                "/v1/chat/completions", json=chat(), headers={"authorization": f"Bearer {key}"}
            )
            assert r.status_code == status, key
            # Every configured key is compared, whichever matched: no early exit.
            assert [b for _, b in calls] == [k.encode() for k in keys]
            assert all(a == key.encode() for a, _ in calls)
        r = await s.client.post("/v1/chat/completions", json=chat())  # no header at all
        assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"


async def test_upstream_comes_only_from_config_never_from_the_request() -> None:
    connections: list[bytes] = []

    async def trap(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(await reader.read(200))
        writer.close()

    evil = await asyncio.start_server(trap, "127.0.0.1", 0)
    port = evil.sockets[0].getsockname()[1]
    evil_url = f"http://127.0.0.1:{port}"
    try:
        async with stack() as s:
            attempts = [
                s.client.post("/v1/chat/completions", json=chat(), headers={
                    "host": f"127.0.0.1:{port}", "x-forwarded-host": f"127.0.0.1:{port}",
                    "forwarded": f"host=127.0.0.1:{port}"}),
                s.client.post("/v1/chat/completions", json=chat(model=evil_url + "/v1")),
                s.client.post("/v1/chat/completions", json=chat(model=f"127.0.0.1:{port}")),
                s.client.post("/v1/chat/completions", json=chat(
                    base_url=evil_url + "/v1", api_base=evil_url + "/v1", upstream=evil_url)),
                s.client.post("/v1/completions", json={"model": evil_url, "prompt": "p"}),
                s.client.post(f"/v1/{evil_url}/v1/chat/completions", json=chat()),
                s.client.post("/v1//127.0.0.1:" + str(port) + "/x", json={"model": "fake-model"}),
                s.client.post(f"/v1/@127.0.0.1:{port}/x", json={"model": "fake-model"}),
                s.client.post("/v1/prefixes", json={"text": "t", "model": evil_url}),
            ]  # fmt: skip
            answers = [await a for a in attempts]
            # An absolute-form request target names another host: still routed by config.
            reader, writer = await asyncio.open_connection("127.0.0.1", int(s.url.rsplit(":")[-1]))
            body = b'{"model": "fake-model", "messages": [{"role": "user", "content": "hi"}]}'
            writer.write(
                f"POST {evil_url}/v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
                "connection: close\r\n\r\n".encode()
                + body
            )
            raw = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            assert all(a.status_code < 500 for a in answers), [a.status_code for a in answers]
            assert answers[0].status_code == 200 and raw.startswith(b"HTTP/1.1 200")
            assert all(path.startswith("/v1/") for path, _, _ in s.engine.requests)
    finally:
        evil.close()
        await evil.wait_closed()
    assert connections == []  # nothing ever connected to the address named in requests


async def test_redis_keys_are_hashes_never_user_text() -> None:
    import redis

    direct = redis.Redis.from_url(REDIS_URL, socket_timeout=1)
    try:
        direct.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    namespace = f"sec{uuid.uuid4().hex[:8]}"
    config = Config(redis_url=REDIS_URL, namespace=namespace)
    system = f"You are the {SECRET_PROMPT} assistant. " * 12
    api_key = "sk-tenant-key-31337"
    try:
        async with stack(
            settings=lambda url: {"upstream": [url], "api_keys": [api_key], "warmup_min_tokens": 0}
        ) as s:
            # The harness builds the app from settings; give this one Redis via its config.
            app = create_app(s.proxy.settings, config=config)
            from _proxy_harness import serve

            async with serve(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
                auth = {"authorization": f"Bearer {api_key}"}
                r = await client.post(
                    "/v1/prefixes", json={"text": system, "model": "fake-model"}, headers=auth
                )
                assert r.status_code == 201
                history = [
                    {"role": "user" if i % 2 == 0 else "assistant",
                     "content": f"{SECRET_PROMPT} turn {i} " + "details " * 40}
                    for i in range(15)
                ]  # fmt: skip
                body = {"model": "fake-model", "ctxpress": {"budget": 300},
                        "messages": [{"role": "system", "content": system}, *history]}  # fmt: skip
                for _ in range(2):
                    r = await client.post("/v1/chat/completions", json=body, headers=auth)
                    assert r.status_code == 200
                await app.warmer.drain()
        keys = [k.decode() for k in direct.scan_iter(match=f"{namespace}:*", count=500)]
    finally:
        for key in direct.scan_iter(match=f"{namespace}:*", count=500):
            direct.delete(key)
        direct.close()
    tenant = digest(api_key, size=8)
    assert f"{namespace}:prefix:{tenant}:{prefix_id(system)}" in keys
    for key in keys:
        for secret in (SECRET_PROMPT, "assistant", "turn", "details", api_key):
            assert secret not in key, key
