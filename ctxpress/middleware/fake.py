"""A stand-in OpenAI-compatible engine: fixed answers, SSE, fault injection.

Used by the proxy's tests and ``benchmarks/proxy_overhead.py``, and handy to try
``ctxpress serve`` without a GPU: ``python -m ctxpress.middleware.fake --port 8000``.
It is a raw ASGI app so that, as an upstream in a benchmark, it costs as little
as possible. Every answer echoes the request's marker (``metadata.marker``, else
the last message's text) so a load test can detect cross-talk.

Per-request behaviour comes from headers: ``x-fake-chunks`` (SSE chunks, default
20), ``x-fake-delay-ms`` (between chunks), ``x-fake-sleep-ms`` (before the
headers), ``x-fake-status`` (answer with that error status), ``x-fake-die-after``
(drop the connection after N chunks).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import orjson

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


@dataclass
class FakeEngine:
    """ASGI app; ``requests`` keeps (path, headers, body) of every call when ``record``."""

    models: tuple[str, ...] = ("fake-model",)
    max_model_len: int = 8192
    chunks: int = 20
    delay: float = 0.0
    record: bool = True
    requests: list[tuple[str, dict[str, str], dict[str, Any]]] = field(default_factory=list)
    cancelled: int = 0
    completed: int = 0
    models_status: int = 200

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        path = scope["path"]
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        if path == "/v1/models":
            size = self.max_model_len
            cards = [{"id": m, "object": "model", "max_model_len": size} for m in self.models]
            await _json(send, self.models_status, {"object": "list", "data": cards})
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        data = orjson.loads(body) if body[:1] == b"{" else {}
        if self.record:
            self.requests.append((path, headers, data))
        if "x-fake-sleep-ms" in headers:
            await asyncio.sleep(int(headers["x-fake-sleep-ms"]) / 1000)
        if "x-fake-status" in headers:
            status = int(headers["x-fake-status"])
            await _json(send, status, {"error": {"message": "fake failure", "type": "fake"}})
            return
        if path not in ("/v1/chat/completions", "/v1/completions"):
            await _json(send, 200, {"path": path, "method": scope["method"], "echo": data})
            return
        model = data.get("model", self.models[0])
        if model not in self.models:
            await _json(send, 404, {"error": {"message": f"model {model} not found"}})
            return
        marker = _marker(data)
        if data.get("stream"):
            await self._stream(receive, send, data, headers, marker, path)
            return
        chat = path == "/v1/chat/completions"
        choice: dict[str, Any] = (
            {"index": 0, "message": {"role": "assistant", "content": marker}}
            if chat
            else {"index": 0, "text": marker}
        )
        choice["finish_reason"] = "stop"
        await _json(send, 200, {
            "id": "cmpl-fake", "object": "chat.completion" if chat else "text_completion",
            "model": model, "choices": [choice], "usage": _usage(data, self.chunks),
        })  # fmt: skip
        self.completed += 1

    async def _stream(
        self,
        receive: Receive,
        send: Send,
        data: dict[str, Any],
        headers: dict[str, str],
        marker: str,
        path: str,
    ) -> None:
        chunks = int(headers.get("x-fake-chunks", self.chunks))
        delay = int(headers.get("x-fake-delay-ms", self.delay * 1000)) / 1000
        die_after = int(headers.get("x-fake-die-after", -1))
        chat = path == "/v1/chat/completions"
        await send({
            "type": "http.response.start", "status": 200,
            "headers": [(b"content-type", b"text/event-stream; charset=utf-8")],
        })  # fmt: skip
        options = data.get("stream_options") or {}
        gone = asyncio.Event()

        async def watch() -> None:  # like vLLM: abort the request when the client leaves
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.create_task(watch())
        try:
            for i in range(chunks):
                if gone.is_set():
                    self.cancelled += 1
                    return
                if i == die_after:
                    raise ConnectionAbortedError("fake engine dies mid-stream")
                if delay and i:
                    await asyncio.sleep(delay)
                text = f"{marker}|{i}|"
                choice: dict[str, Any] = (
                    {"index": 0, "delta": {"content": text}} if chat else {"index": 0, "text": text}
                )
                choice["finish_reason"] = "stop" if i == chunks - 1 else None
                event = {"id": "cmpl-fake", "model": data.get("model"), "choices": [choice]}
                if options.get("include_usage"):
                    event["usage"] = None
                await send({
                    "type": "http.response.body", "more_body": True,
                    "body": b"data: " + orjson.dumps(event) + b"\n\n",
                })  # fmt: skip
            tail = b""
            if options.get("include_usage"):
                usage = {"id": "cmpl-fake", "choices": [], "usage": _usage(data, chunks)}
                tail = b"data: " + orjson.dumps(usage) + b"\n\n"
            await send({"type": "http.response.body", "body": tail + b"data: [DONE]\n\n"})
            self.completed += 1
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        finally:
            watcher.cancel()


def _marker(data: dict[str, Any]) -> str:
    meta = data.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("marker"), str):
        return str(meta["marker"])
    messages = data.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[-1], dict):
        return str(messages[-1].get("content"))[:200]
    return str(data.get("prompt"))[:200]


def _usage(data: dict[str, Any], completion: int) -> dict[str, Any]:
    prompt = len(orjson.dumps(data.get("messages") or data.get("prompt") or "")) // 4
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": prompt // 2},
    }


async def _json(send: Send, status: int, payload: Any) -> None:
    body = orjson.dumps(payload)
    await send({
        "type": "http.response.start", "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def main() -> None:  # pragma: no cover - a command-line entry for manual tries
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--delay-ms", type=float, default=0.0)
    args = parser.parse_args()
    app = FakeEngine(chunks=args.chunks, delay=args.delay_ms / 1000, record=False)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":  # pragma: no cover
    main()
