"""Real sockets for proxy tests: the stand-in engine and the proxy, each under uvicorn.

Both run in the test's event loop on ephemeral ports, so disconnects, dropped
connections and refused connects are the real thing, not mocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import uvicorn

from ctxpress.middleware.app import ProxyApp, create_app
from ctxpress.middleware.fake import FakeEngine
from ctxpress.middleware.settings import ProxySettings


@contextlib.asynccontextmanager
async def serve(app: Any) -> AsyncIterator[str]:
    """Run an ASGI app on 127.0.0.1:<free port>; yield its base URL."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", access_log=False
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), 5)
        except TimeoutError:
            server.force_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await task


# Sockets bound without listening, held for the whole run: a connect to their port is
# refused, and no engine or proxy a later test starts can be handed the same port.
_HELD: list[socket.socket] = []


def closed_port() -> str:
    """A base URL where nothing listens (connect is refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    _HELD.append(sock)
    return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


class Stack:
    """A running engine + proxy and an HTTP client pointed at the proxy."""

    def __init__(self, engine: FakeEngine, proxy: ProxyApp, url: str, engine_url: str) -> None:
        self.engine = engine
        self.proxy = proxy
        self.url = url
        self.engine_url = engine_url
        self.client = httpx.AsyncClient(base_url=url, timeout=10)

    async def metric(self, name: str, **labels: str) -> float:
        """One sample's value from /metrics (0 when absent)."""
        text = (await self.client.get("/metrics")).text
        want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        total = 0.0
        for line in text.splitlines():
            if not line.startswith(name):
                continue
            head, _, value = line.rpartition(" ")
            metric, _, rest = head.partition("{")
            got = ",".join(sorted(rest.rstrip("}").split(","))) if rest else ""
            if metric == name and all(part in got.split(",") for part in want.split(",") if part):
                total += float(value)
        return total


@contextlib.asynccontextmanager
async def stack(
    engine: FakeEngine | None = None,
    settings: Callable[[str], dict[str, Any]] | None = None,
    **extra: Any,
) -> AsyncIterator[Stack]:
    """Engine and proxy; ``settings(engine_url)`` returns ProxySettings fields."""
    engine = engine or FakeEngine()
    async with serve(engine) as engine_url:
        fields: dict[str, Any] = (
            settings(engine_url + "/v1") if settings else {"upstream": [engine_url + "/v1"]}
        )
        fields.setdefault("access_log", False)
        fields.update(extra)
        proxy = create_app(ProxySettings(**fields))
        async with serve(proxy) as url:
            s = Stack(engine, proxy, url, engine_url)
            try:
                yield s
            finally:
                await s.client.aclose()


def chat(content: str = "hello", **fields: Any) -> dict[str, Any]:
    return {"model": "fake-model", "messages": [{"role": "user", "content": content}], **fields}


async def wait_for(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll until ``predicate()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)
