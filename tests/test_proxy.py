"""The proxy's HTTP API against a stand-in engine: forwarding, errors, routing, metrics."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from _proxy_harness import chat, closed_port, stack, wait_for

from ctxpress.middleware.fake import FakeEngine


async def test_chat_forwards_unknown_fields_and_removes_ctxpress_field() -> None:
    async with stack() as s:
        body = chat(
            "what is 2+2?",
            cache_salt="tenant-7",
            top_k=3,
            metadata={"marker": "m-1", "nested": [1, 2.5, None]},
            ctxpress={"budget": 500, "stages": ["system"]},
        )
        r = await s.client.post("/v1/chat/completions", json=body)
        assert r.status_code == 200
        assert r.json()["choices"][0]["message"]["content"] == "m-1"
        path, _, sent = s.engine.requests[-1]
        assert path == "/v1/chat/completions"
        assert "ctxpress" not in sent
        expected = {k: v for k, v in body.items() if k != "ctxpress"}
        assert sent == expected
        assert int(r.headers["x-ctxpress-tokens-before"]) > 0
        assert int(r.headers["x-ctxpress-tokens-after"]) <= int(
            r.headers["x-ctxpress-tokens-before"]
        )
        assert r.headers["x-ctxpress-fail-open"] == "0"
        assert float(r.headers["x-ctxpress-overhead-ms"]) >= 0


async def test_header_off_forwards_the_exact_bytes() -> None:
    async with stack() as s:
        raw = b'{"model": "fake-model",  "messages": [{"role": "user", "content": "hi"}], "x": 1}'
        r = await s.client.post(
            "/v1/chat/completions",
            content=raw,
            headers={"x-ctxpress": "off", "content-type": "application/json"},
        )
        assert r.status_code == 200
        assert "x-ctxpress-tokens-before" not in r.headers
        assert s.engine.requests[-1][2] == orjson.loads(raw)
        assert "x-ctxpress" not in s.engine.requests[-1][1]


async def test_completions_endpoint_and_client_headers_pass_through() -> None:
    async with stack() as s:
        r = await s.client.post(
            "/v1/completions",
            json={"model": "fake-model", "prompt": "once upon", "logprobs": 2},
            headers={"x-request-id": "abc", "authorization": "Bearer client-key"},
        )
        assert r.status_code == 200 and r.json()["choices"][0]["text"] == "once upon"
        _, headers, sent = s.engine.requests[-1]
        assert sent["logprobs"] == 2
        assert headers["x-request-id"] == "abc"
        assert headers["authorization"] == "Bearer client-key"


@pytest.mark.parametrize(
    ("body", "status", "param"),
    [
        (b"{not json", 400, None),
        (b"[1, 2]", 400, "body"),
        (b'{"messages": [{"role": "user", "content": "x"}]}', 400, "model"),
        (b'{"model": "fake-model", "messages": []}', 400, "messages"),
        (b'{"model": "fake-model", "messages": [{"role": "user", "content": 5}]}', 400,
         "messages[0].content"),
        (b'{"model": "fake-model", "messages": [{"role": "user", "content": "x"}], '
         b'"stream": "yes"}', 400, "stream"),
        (b'{"model": "fake-model", "messages": [{"role": "user", "content": "x"}], '
         b'"ctxpress": {"budget": -3}}', 400, "ctxpress.budget"),
        (b'{"model": "fake-model", "messages": [{"role": "user", "content": "x"}], '
         b'"ctxpress": {"stages": ["nope"]}}', 400, "ctxpress.stages"),
        (b'{"model": "no-such-model", "messages": [{"role": "user", "content": "x"}]}', 404,
         "model"),
    ],
)  # fmt: skip
async def test_errors_are_openai_shaped(body: bytes, status: int, param: str | None) -> None:
    async with stack() as s:
        r = await s.client.post(
            "/v1/chat/completions", content=body, headers={"content-type": "application/json"}
        )
        assert r.status_code == status
        error = r.json()["error"]
        assert error["message"] and error["type"]
        assert error["param"] == param
        assert not s.engine.requests  # nothing reached the engine


async def test_body_size_limit() -> None:
    async with stack(max_body_bytes=2048) as s:
        r = await s.client.post("/v1/chat/completions", json=chat("x" * 5000))
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "body_too_large"


async def test_upstream_error_passes_through_with_status_and_body() -> None:
    async with stack() as s:
        r = await s.client.post(
            "/v1/chat/completions", json=chat(), headers={"x-fake-status": "422"}
        )
        assert r.status_code == 422
        assert r.json() == {"error": {"message": "fake failure", "type": "fake"}}


async def test_unreachable_upstream_is_503_and_not_ready() -> None:
    dead = closed_port()

    def settings(_: str) -> dict[str, Any]:
        return {"upstreams": [{"name": "g", "urls": [dead], "models": ["fake-model"]}]}

    async with stack(settings=settings) as s:
        r = await s.client.post("/v1/chat/completions", json=chat())
        assert r.status_code == 503
        assert r.json()["error"]["type"] == "service_unavailable"
        assert (await s.client.get("/ready")).status_code == 503
        assert (await s.client.get("/health")).status_code == 200


async def test_unknown_model_without_healthy_upstream_is_503_not_404() -> None:
    dead = closed_port()
    async with stack(settings=lambda _: {"upstream": [dead]}) as s:
        r = await s.client.post("/v1/chat/completions", json=chat(model="anything"))
        assert r.status_code == 503


async def test_connect_failure_retries_on_another_replica() -> None:
    dead = closed_port()

    def settings(url: str) -> dict[str, Any]:
        return {"upstreams": [{"name": "g", "urls": [dead, url]}], "health_interval": 3600}

    async with stack(settings=settings) as s:
        # Mark the dead replica healthy again so the next request tries it first.
        group = s.proxy.pool.groups["g"]
        for _ in range(3):
            group.replicas[0].healthy = True
            group.replicas[0].in_flight = 0
            r = await s.client.post("/v1/chat/completions", json=chat("retry me"))
            assert r.status_code == 200 and "retry me" in r.text
        assert await s.metric("ctxpress_upstream_retries_total", group="g") >= 1
        assert await s.metric("ctxpress_upstream_errors_total", group="g", kind="connect") >= 1


async def test_models_are_merged_and_aliases_resolve() -> None:
    a = FakeEngine(models=("small-model", "big-model"), max_model_len=4096)

    def settings(url: str) -> dict[str, Any]:
        return {
            "upstreams": [{"name": "g", "urls": [url]}],
            "aliases": {"fast": "small-model"},
            "routes": {"auto": {"small": "small-model", "large": "big-model"}},
        }

    async with stack(engine=a, settings=settings) as s:
        listing = (await s.client.get("/v1/models")).json()
        ids = {m["id"]: m for m in listing["data"]}
        assert {"small-model", "big-model", "fast", "auto"} <= set(ids)
        assert ids["big-model"]["max_model_len"] == 4096
        r = await s.client.post("/v1/chat/completions", json=chat("hi", model="fast"))
        assert r.status_code == 200 and s.engine.requests[-1][2]["model"] == "small-model"
        easy = await s.client.post("/v1/chat/completions", json=chat("hi there", model="auto"))
        hard_prompt = (
            "Why does this deadlock? Analyze the race condition step by step and refactor:\n"
            "```python\nimport threading\nlock = threading.Lock()\ndef f():\n    with lock:\n"
            "        g()\n```\nAlso prove the fix is correct. What is the complexity?"
        )
        hard = await s.client.post("/v1/chat/completions", json=chat(hard_prompt, model="auto"))
        assert easy.headers["x-ctxpress-route"].startswith("auto->small-model")
        assert hard.headers["x-ctxpress-route"].startswith("auto->big-model")
        assert s.engine.requests[-1][2]["model"] == "big-model"


async def test_default_budget_is_context_minus_max_tokens() -> None:
    engine = FakeEngine(max_model_len=3000)
    async with stack(engine=engine) as s:
        r = await s.client.post(
            "/v1/compress",
            json={**chat("summarise"), "max_tokens": 1000},
        )
        assert r.status_code == 200
        report = r.json()
        assert report["budget"] == 2000
        assert report["messages"] == chat("summarise")["messages"]
        assert [st["name"] for st in report["stages"]]
        assert not s.engine.requests  # a dry run never calls the engine


async def test_passthrough_of_other_v1_endpoints() -> None:
    async with stack() as s:
        r = await s.client.post(
            "/v1/embeddings?dimensions=8", json={"model": "fake-model", "input": ["a", "b"]}
        )
        assert r.status_code == 200
        assert r.json() == {
            "path": "/v1/embeddings",
            "method": "POST",
            "echo": {"model": "fake-model", "input": ["a", "b"]},
        }


async def test_proxy_api_keys_and_upstream_key_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_UPSTREAM_KEY", "sk-upstream")

    def settings(url: str) -> dict[str, Any]:
        return {
            "upstreams": [{"name": "g", "urls": [url], "api_key_env": "TEST_UPSTREAM_KEY"}],
            "api_keys": ["proxy-key-1", "proxy-key-2"],
        }

    async with stack(settings=settings) as s:
        r = await s.client.post("/v1/chat/completions", json=chat())
        assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"
        bad = {"authorization": "Bearer proxy-key-3"}
        assert (
            await s.client.post("/v1/chat/completions", json=chat(), headers=bad)
        ).status_code == 401
        ok = {"authorization": "Bearer proxy-key-2"}
        r = await s.client.post("/v1/chat/completions", json=chat(), headers=ok)
        assert r.status_code == 200
        assert s.engine.requests[-1][1]["authorization"] == "Bearer sk-upstream"
        assert (await s.client.get("/health")).status_code == 200  # liveness needs no key


async def test_priority_queue_serves_interactive_before_batch() -> None:
    def settings(url: str) -> dict[str, Any]:
        return {
            "upstreams": [{"name": "g", "urls": [url], "max_concurrency": 1}],
            "batch_reserve": 0,
        }

    async with stack(settings=settings) as s:
        slow = asyncio.create_task(
            s.client.post(
                "/v1/chat/completions", json=chat("first"), headers={"x-fake-sleep-ms": "300"}
            )
        )
        group = s.proxy.pool.groups["g"]
        await wait_for(lambda: group.replicas[0].in_flight == 1)

        async def send(content: str, priority: str) -> Any:
            return await s.client.post(
                "/v1/chat/completions",
                json=chat(content),
                headers={"x-ctxpress-priority": priority},
            )

        batch = [asyncio.create_task(send(f"batch-{i}", "batch")) for i in range(3)]
        await wait_for(lambda: len(group.waiting["batch"]) == 3)
        interactive = asyncio.create_task(send("urgent", "interactive"))
        await wait_for(lambda: len(group.waiting["interactive"]) == 1)
        results = await asyncio.gather(slow, *batch, interactive)
        assert all(r.status_code == 200 for r in results)
        order = [req[2]["messages"][-1]["content"] for req in s.engine.requests]
        assert order == ["first", "urgent", "batch-0", "batch-1", "batch-2"]
        assert (await send("x", "urgent!")).status_code == 400


async def test_batch_never_takes_the_reserved_slot() -> None:
    def settings(url: str) -> dict[str, Any]:
        return {"upstreams": [{"name": "g", "urls": [url], "max_concurrency": 2}]}

    async with stack(settings=settings) as s:
        group = s.proxy.pool.groups["g"]
        slow = {"x-fake-sleep-ms": "300", "x-ctxpress-priority": "batch"}
        batch = [
            asyncio.create_task(s.client.post("/v1/chat/completions", json=chat(), headers=slow))
            for _ in range(2)
        ]
        await wait_for(
            lambda: group.replicas[0].in_flight == 1 and len(group.waiting["batch"]) == 1
        )
        # The second slot is free for interactive work although batch is waiting.
        r = await s.client.post("/v1/chat/completions", json=chat("now"))
        assert r.status_code == 200
        assert len(group.waiting["batch"]) == 1
        await asyncio.gather(*batch)


async def test_full_queue_is_429_with_retry_after() -> None:
    def settings(url: str) -> dict[str, Any]:
        return {
            "upstreams": [{"name": "g", "urls": [url], "max_concurrency": 1}],
            "queue_size": 1,
        }

    async with stack(settings=settings) as s:
        slow = {"x-fake-sleep-ms": "300"}
        first = asyncio.create_task(
            s.client.post("/v1/chat/completions", json=chat(), headers=slow)
        )
        group = s.proxy.pool.groups["g"]
        await wait_for(lambda: group.replicas[0].in_flight == 1)
        second = asyncio.create_task(s.client.post("/v1/chat/completions", json=chat()))
        await wait_for(lambda: len(group.waiting["interactive"]) == 1)
        r = await s.client.post("/v1/chat/completions", json=chat())
        assert r.status_code == 429
        assert r.headers["retry-after"] == "1"
        assert r.json()["error"]["type"] == "rate_limit_error"
        assert (await first).status_code == 200 and (await second).status_code == 200


async def test_metrics_count_requests_tokens_and_engine_usage() -> None:
    async with stack() as s:
        for _ in range(2):
            r = await s.client.post("/v1/chat/completions", json=chat("count me please"))
            assert r.status_code == 200
        usage = r.json()["usage"]
        assert (
            await s.metric(
                "ctxpress_requests_total",
                endpoint="/v1/chat/completions",
                model="fake-model",
                status="200",
            )
            == 2
        )
        cached = await s.metric("ctxpress_engine_tokens_total", model="fake-model", kind="cached")
        assert cached == 2 * usage["prompt_tokens_details"]["cached_tokens"]
        before = await s.metric("ctxpress_prompt_tokens_total", phase="before")
        assert before == 2 * int(r.headers["x-ctxpress-tokens-before"])
        assert await s.metric("ctxpress_overhead_seconds_count") == 2
        assert await s.metric("ctxpress_stage_seconds_count", stage="system") == 2
        text = (await s.client.get("/metrics")).text
        assert "count me please" not in text  # no prompt text in metrics
        assert "ctxpress_upstream_in_flight" in text


async def test_ready_lists_upstreams() -> None:
    async with stack() as s:
        r = await s.client.get("/ready")
        assert r.status_code == 200
        assert r.json()["upstreams"]["default"][0]["healthy"] is True
