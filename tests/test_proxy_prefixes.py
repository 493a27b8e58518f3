"""Prefix caching in the proxy: registry endpoints, prefix ids, affinity, warm-up (2 replicas)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
from _proxy_harness import serve, wait_for

from ctxpress.config import Config
from ctxpress.middleware.app import ProxyApp, create_app
from ctxpress.middleware.fake import FakeEngine
from ctxpress.middleware.settings import ProxySettings

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
LONG_PROMPT = "You are the billing assistant of Northwind. " * 20 + "Cite invoice numbers."


def warm_requests(engine: FakeEngine) -> list[dict[str, Any]]:
    return [body for _, _, body in engine.requests if body.get("max_tokens") == 1]


def user_requests(engine: FakeEngine) -> list[dict[str, Any]]:
    return [body for _, _, body in engine.requests if body.get("max_tokens") != 1]


@contextlib.asynccontextmanager
async def cluster(
    proxies: int = 1, redis: bool = False, **fields: Any
) -> AsyncIterator[tuple[list[FakeEngine], list[ProxyApp], list[httpx.AsyncClient]]]:
    """Two engine replicas behind ``proxies`` proxy instances (sharing Redis if asked)."""
    engines = [FakeEngine(), FakeEngine()]
    config = Config(redis_url=REDIS_URL if redis else None, namespace=f"t{uuid.uuid4().hex[:8]}")
    async with contextlib.AsyncExitStack() as stack:
        urls = [await stack.enter_async_context(serve(e)) + "/v1" for e in engines]
        apps, clients = [], []
        for _ in range(proxies):
            settings = ProxySettings(upstream=urls, access_log=False, **fields)
            app = create_app(settings, config=config)
            url = await stack.enter_async_context(serve(app))
            apps.append(app)
            clients.append(await stack.enter_async_context(httpx.AsyncClient(base_url=url)))
        yield engines, apps, clients
        if redis:
            for key in await apps[0].store.scan(config.namespace + ":"):
                await apps[0].store.delete(key)


def chat(system: str, user: str = "hi", **fields: Any) -> dict[str, Any]:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return {"model": "fake-model", "messages": messages, **fields}


async def test_register_list_and_send_only_the_id() -> None:
    async with cluster() as (engines, _, (client,)):
        r = await client.post(
            "/v1/prefixes", json={"text": LONG_PROMPT + "  \r\n", "model": "fake-model"}
        )
        assert r.status_code == 201
        entry = r.json()
        assert entry["text"] == LONG_PROMPT and entry["tokens"] > 64
        assert entry["warmed"] == 2  # both replicas warmed, one request each
        assert [len(warm_requests(e)) for e in engines] == [1, 1]
        again = await client.post("/v1/prefixes", json={"text": LONG_PROMPT})
        assert again.status_code == 200 and again.json()["id"] == entry["id"]

        body = {
            "model": "fake-model",
            "messages": [{"role": "user", "content": "What is due?"}],
            "ctxpress": {"prefix": entry["id"]},
        }
        r = await client.post("/v1/chat/completions", json=body)
        assert r.status_code == 200
        sent = [b for e in engines for b in user_requests(e)]
        assert sent[-1]["messages"] == [
            {"role": "system", "content": LONG_PROMPT},
            {"role": "user", "content": "What is due?"},
        ]
        assert "ctxpress" not in sent[-1]
        listing = (await client.get("/v1/prefixes")).json()["data"]
        assert [e["id"] for e in listing] == [entry["id"]]


async def test_unknown_prefix_id_is_a_400_naming_the_field() -> None:
    async with cluster() as (_, _, (client,)):
        body = chat("x", ctxpress={"prefix": "0" * 32})
        r = await client.post("/v1/chat/completions", json=body)
        assert r.status_code == 400
        assert r.json()["error"]["param"] == "ctxpress.prefix"
        r = await client.post("/v1/prefixes", json={"text": ""})
        assert r.status_code == 400 and r.json()["error"]["param"] == "text"


async def test_same_system_prompt_same_replica_and_prompts_spread() -> None:
    async with cluster(warmup=False) as (engines, _, (client,)):
        prompts = [f"You are assistant number {i}. Be brief." for i in range(12)]
        homes = []
        for prompt in prompts:
            for turn in range(3):
                r = await client.post("/v1/chat/completions", json=chat(prompt, f"q{turn}"))
                assert r.status_code == 200
            counts = [sum(b["messages"][0]["content"] == prompt for b in user_requests(e))
                      for e in engines]  # fmt: skip
            assert sorted(counts) == [0, 3]  # all three turns on one replica
            homes.append(counts.index(3))
        assert set(homes) == {0, 1}


async def test_two_instances_sharing_redis_route_and_warm_alike() -> None:
    async with cluster(proxies=2, redis=True) as (engines, _, clients):
        for i, client in enumerate(clients * 2):
            r = await client.post("/v1/chat/completions", json=chat(LONG_PROMPT, f"q{i}"))
            assert r.status_code == 200
        served = [len(user_requests(e)) for e in engines]
        assert sorted(served) == [0, 4]  # both instances chose the same replica
        # Warm-up reaches each replica once, deduplicated across the two instances.
        await wait_for(lambda: [len(warm_requests(e)) for e in engines] == [1, 1])
        listing = (await clients[1].get("/v1/prefixes")).json()["data"]
        assert len(listing) == 1 and listing[0]["hits"] >= 1


async def test_short_prompts_are_not_warmed_and_warmup_can_be_off() -> None:
    async with cluster() as (engines, apps, (client,)):
        await client.post("/v1/chat/completions", json=chat("Be brief."))
        await apps[0].warmer.drain()
        assert [warm_requests(e) for e in engines] == [[], []]
    async with cluster(warmup=False) as (engines, apps, (client,)):
        await client.post("/v1/chat/completions", json=chat(LONG_PROMPT))
        assert [warm_requests(e) for e in engines] == [[], []]


async def test_registry_is_scoped_by_proxy_api_key() -> None:
    async with cluster(api_keys=["sk-alice", "sk-bob"]) as (_, _, (client,)):
        alice = {"authorization": "Bearer sk-alice"}
        bob = {"authorization": "Bearer sk-bob"}
        r = await client.post("/v1/prefixes", json={"text": "Alice's prompt."}, headers=alice)
        assert r.status_code == 201
        pid = r.json()["id"]
        assert [
            e["id"] for e in (await client.get("/v1/prefixes", headers=alice)).json()["data"]
        ] == [pid]
        assert (await client.get("/v1/prefixes", headers=bob)).json()["data"] == []
        body = {"model": "fake-model", "messages": [{"role": "user", "content": "x"}],
                "ctxpress": {"prefix": pid}}  # fmt: skip
        assert (
            await client.post("/v1/chat/completions", json=body, headers=bob)
        ).status_code == 400
        assert (await client.get("/v1/prefixes")).status_code == 401


async def test_warm_command_registers_and_warms(tmp_path: Any) -> None:
    import asyncio
    import json
    import sys

    prompts = tmp_path / "prompts.json"
    prompts.write_text(json.dumps([LONG_PROMPT, LONG_PROMPT + " Answer in French."]))
    async with cluster() as (engines, _, (client,)):
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ctxpress.cli", "warm", str(prompts),
            "--model", "fake-model", "--url", str(client.base_url),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 0, err.decode()
        assert [len(warm_requests(e)) for e in engines] == [2, 2]
        listing = (await client.get("/v1/prefixes")).json()["data"]
        assert len(listing) == 2
        assert all(entry["id"] in out.decode() for entry in listing)
