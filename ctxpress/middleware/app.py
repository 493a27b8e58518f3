"""The OpenAI-compatible proxy as a lean ASGI application.

Why raw ASGI rather than FastAPI routes: the proxy's budget is about a millisecond
per request, and a framework's request objects, dependency injection and pydantic
models cost a good part of it (see ``benchmarks/proxy_overhead.py``). The hot path
here is: read the body, ``orjson`` it, validate only what compression relies on,
compress (inline when tiny, in a worker thread otherwise), forward the original
bytes when nothing changed, and relay the answer chunk by chunk.

Endpoints: ``/v1/chat/completions`` and ``/v1/completions`` (stream or not),
``GET /v1/models`` (merged), ``POST /v1/compress`` (dry run), any other ``/v1/*``
passed through, ``/health`` (liveness), ``/ready`` (readiness), ``/metrics``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from ctxpress.compressor import STAGES
from ctxpress.compressor.pipeline import CompressResult, compress
from ctxpress.config import Config
from ctxpress.messages import SYSTEM_ROLES, content_text, validate_messages
from ctxpress.middleware import openapi
from ctxpress.middleware.affinity import affinity_key
from ctxpress.middleware.errors import ProxyError, error_body, from_value_error, invalid
from ctxpress.middleware.metrics import CONTENT_TYPE, Metrics
from ctxpress.middleware.prefixes import PrefixRegistry, prefix_id, tenant_of
from ctxpress.middleware.routing import Route, Router
from ctxpress.middleware.settings import ProxySettings
from ctxpress.middleware.upstreams import (
    HOP_BY_HOP,
    Group,
    Priority,
    Upstream,
    UpstreamBroken,
    UpstreamPool,
)
from ctxpress.middleware.warmup import Sighting, Warmer
from ctxpress.store import Cache, Keys, open_backends
from ctxpress.tokens import get_counter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Header = tuple[bytes, bytes]

log = logging.getLogger("ctxpress.proxy")
access = logging.getLogger("ctxpress.access")

_JSON = [(b"content-type", b"application/json")]
_PREFIX_ID = re.compile(r"[0-9a-f]{32}")
_SSE_HEADERS = [(b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]
# Upstream response headers the proxy recomputes or must not relay.
_DROP_RESPONSE = frozenset(
    {b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"date", b"server"}
)


class _Disconnected(Exception):
    """The client went away; the upstream request was cancelled."""


class Request:
    """What the proxy extracted from one HTTP request; no copy of the prompt is kept."""

    __slots__ = (
        "authorization",
        "client_headers",
        "ctl_header",
        "method",
        "path",
        "priority",
        "query",
        "start",
        "tenant",
    )

    def __init__(self, scope: Scope) -> None:
        self.start = time.perf_counter()
        self.tenant: str | None = None
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        self.query: bytes = scope.get("query_string", b"")
        self.authorization: bytes | None = None
        self.ctl_header: bytes | None = None
        self.priority: Priority = "interactive"
        forwarded: list[tuple[str, str]] = []
        for name, value in scope["headers"]:
            if name.startswith(b"x-ctxpress"):
                if name == b"x-ctxpress":
                    self.ctl_header = value.strip().lower()
                elif name == b"x-ctxpress-priority":
                    prio = value.strip().lower()
                    if prio == b"batch":
                        self.priority = "batch"
                    elif prio != b"interactive":
                        raise invalid("x-ctxpress-priority", "must be 'interactive' or 'batch'")
            elif name == b"authorization":
                self.authorization = value
            elif name not in HOP_BY_HOP:
                forwarded.append((name.decode("latin-1"), value.decode("latin-1")))
        self.client_headers = forwarded


class ProxyApp:
    """ASGI callable; build it with :func:`create_app`."""

    def __init__(
        self,
        settings: ProxySettings,
        *,
        metrics: Metrics | None = None,
        cache: Cache | None = None,
        config: Config | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.config = config or settings.compressor_config()
        self.pool = UpstreamPool(settings, self.metrics)
        self.router = Router(settings, self.pool)
        self.store, backend_cache = open_backends(self.config.redis_url)
        self.cache = cache if cache is not None else backend_cache
        self.keys = Keys(self.config.namespace)
        self.registry = PrefixRegistry(self.store, self.keys)
        self.warmer = Warmer(
            self.pool,
            self.registry,
            self.store,
            self.keys,
            rate=settings.warmup_rate,
            rewarm_interval=settings.warmup_rewarm,
            min_tokens=settings.warmup_min_tokens,
        )
        self._keys = [k.encode() for k in settings.api_keys]
        self._store_failures = 0  # breaker failures already added to the store_errors metric
        self._started = False
        self._fixed: dict[str, Callable[[Scope, Receive, Send], Awaitable[None]]] = {
            "/v1/chat/completions": self._chat,
            "/v1/completions": self._completions,
            "/v1/models": self._models,
            "/v1/compress": self._compress,
            "/v1/prefixes": self._prefixes,
            "/health": self._health,
            "/ready": self._ready,
            "/metrics": self._metrics,
            "/openapi.json": self._openapi,
        }

    # --- ASGI entry -------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            handler = self._fixed.get(scope["path"])
            if handler is None:
                if scope["path"].startswith("/v1/"):
                    handler = self._passthrough
                else:
                    await _send_error(send, ProxyError(404, f"no route {scope['path']}"))
                    return
            try:
                await handler(scope, receive, send)
            except ProxyError as exc:
                self.metrics.child(self.metrics.requests, scope["path"], "", str(exc.status)).inc()
                await _send_error(send, exc)
        elif kind == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.startup()
                except Exception as exc:
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def startup(self) -> None:
        """First health check (learns models) and the health loop."""
        if not self._started:
            self._started = True
            await self.pool.start()
            self.warmer.start()
            # Load the tokenizer now rather than in the first request (~1 s cold).
            warm = [{"role": "user", "content": "warm up"}]
            with contextlib.suppress(Exception):
                await asyncio.to_thread(compress, warm, None, None, self.config, cache=self.cache)

    async def shutdown(self) -> None:
        if self._started:
            self._started = False
            await self.warmer.close()
            await self.pool.close()
            await self.store.close()

    # --- small endpoints --------------------------------------------------------------
    async def _health(self, scope: Scope, receive: Receive, send: Send) -> None:
        await _send_json(send, 200, b'{"status":"ok"}')

    async def _ready(self, scope: Scope, receive: Receive, send: Send) -> None:
        groups = {
            g.name: [
                {"url": r.url, "healthy": r.healthy, "in_flight": r.in_flight} for r in g.replicas
            ]
            for g in self.pool.groups.values()
        }
        ready = self.pool.ready()
        body = orjson.dumps({"status": "ready" if ready else "unavailable", "upstreams": groups})
        await _send_json(send, 200 if ready else 503, body)

    async def _metrics(self, scope: Scope, receive: Receive, send: Send) -> None:
        breaker = getattr(self.store, "breaker", None)  # only with Redis configured
        failures = getattr(breaker, "failures", 0)
        if isinstance(failures, int) and failures > self._store_failures:
            self.metrics.store_errors.inc(failures - self._store_failures)
            self._store_failures = failures
        body = self.metrics.exposition()
        await _send_json(send, 200, body, [(b"content-type", CONTENT_TYPE.encode())])

    async def _openapi(self, scope: Scope, receive: Receive, send: Send) -> None:
        await _send_json(send, 200, openapi.document())

    async def _models(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "GET":
            raise ProxyError(405, "use GET /v1/models")
        self._authorize(Request(scope))
        listing = self.router.list_models()
        if not listing["data"] and not self.pool.ready():
            raise ProxyError(503, "no upstream is reachable")
        await _send_json(send, 200, orjson.dumps(listing))

    def _authorize(self, req: Request) -> None:
        """Optional proxy API keys, compared in constant time; the key names the tenant."""
        if not self._keys:
            return
        given = req.authorization or b""
        if given[:7].lower() == b"bearer ":
            given = given[7:].strip()
        matched: bytes | None = None
        for key in self._keys:  # no early exit: time does not depend on which key matched
            if hmac.compare_digest(given, key):
                matched = key
        if matched is None:
            self.metrics.child(self.metrics.rejected, "auth").inc()
            raise ProxyError(401, "invalid or missing API key", code="invalid_api_key")
        req.tenant = tenant_of(matched.decode("latin-1"))

    # --- request parsing --------------------------------------------------------------
    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self.settings.max_body_bytes
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                self.metrics.child(self.metrics.rejected, "body_size").inc()
                raise ProxyError(413, f"request body exceeds {limit} bytes", code="body_too_large")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                self.metrics.child(self.metrics.rejected, "body_size").inc()
                raise ProxyError(413, f"request body exceeds {limit} bytes", code="body_too_large")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    async def _json_body(self, scope: Scope, receive: Receive) -> tuple[bytes, dict[str, Any]]:
        body = await self._read_body(scope, receive)
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            raise ProxyError(
                400, f"request body is not valid JSON: {exc}", code="invalid_json"
            ) from None
        if not isinstance(data, dict):
            raise invalid("body", "must be a JSON object")
        return body, data

    def _control(self, data: dict[str, Any]) -> tuple[int | None, tuple[str, ...] | None, bool]:
        """Pop and check the ``ctxpress`` body field: (budget, stages, enabled)."""
        ctl = data.pop("ctxpress", None)
        if ctl is None:
            return None, None, True
        if ctl == "off" or ctl is False:
            return None, None, False
        if not isinstance(ctl, dict):
            raise invalid("ctxpress", "must be an object like {'budget': N, 'stages': [...]}")
        budget = ctl.get("budget")
        if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool)
                                   or budget < 1):  # fmt: skip
            raise invalid("ctxpress.budget", "must be a positive integer")
        stages = ctl.get("stages")
        if stages is not None:
            if not isinstance(stages, list) or not all(isinstance(s, str) for s in stages):
                raise invalid("ctxpress.stages", "must be a list of stage names")
            unknown = [s for s in stages if s not in STAGES]
            if unknown:
                raise invalid(
                    "ctxpress.stages", f"unknown stage(s) {unknown}; known {sorted(STAGES)}"
                )
            stages = tuple(stages)
        enabled = ctl.get("enabled", True)
        if not isinstance(enabled, bool):
            raise invalid("ctxpress.enabled", "must be a boolean")
        return budget, stages, enabled

    def _budget(self, model: str, data: dict[str, Any], budget: int | None) -> int | None:
        """Request budget, else CTXPRESS_BUDGET, else context length − max_tokens."""
        if budget is not None:
            return budget
        if self.config.budget is not None:
            return self.config.budget
        context = self.router.max_model_len(model)
        if context is None:
            return None
        reserve = data.get("max_completion_tokens") or data.get("max_tokens") or 0
        reserve = reserve if isinstance(reserve, int) and reserve > 0 else 0
        return max(1, context - reserve)

    async def _run_compress(
        self,
        messages: list[Any],
        budget: int | None,
        model: str,
        stages: tuple[str, ...] | None,
        inline: bool,
    ) -> CompressResult:
        def job() -> CompressResult:
            return compress(messages, budget, model, self.config, stages=stages, cache=self.cache)

        result = job() if inline else await asyncio.to_thread(job)
        m = self.metrics
        m.compress_seconds.observe(result.ms / 1000)
        m.child(m.tokens, "before").inc(result.tokens_before)
        m.child(m.tokens, "after").inc(result.tokens_after)
        for stage in result.stages:
            m.child(m.stage_seconds, stage.name).observe(stage.ms / 1000)
            m.child(m.stage_tokens, stage.name, "before").inc(stage.tokens_before)
            m.child(m.stage_tokens, stage.name, "after").inc(stage.tokens_after)
            if stage.error:
                m.child(m.fail_open, stage.name).inc()
        return result

    # --- the two completion endpoints -------------------------------------------------
    async def _chat(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._complete(scope, receive, send, chat=True)

    async def _completions(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._complete(scope, receive, send, chat=False)

    async def _complete(self, scope: Scope, receive: Receive, send: Send, *, chat: bool) -> None:
        if scope["method"] != "POST":
            raise ProxyError(405, f"use POST {scope['path']}")
        req = Request(scope)
        self._authorize(req)
        try:
            body, data = await self._json_body(scope, receive)
        except _Disconnected:
            return
        model = data.get("model")
        if not isinstance(model, str) or not model:
            raise invalid("model", "is required and must be a string")
        stream = data.get("stream", False)
        if not isinstance(stream, bool):
            raise invalid("stream", "must be a boolean")
        changed = "ctxpress" in data
        registered = await self._expand_prefix(data, req.tenant) if chat else None
        budget, stages, enabled = self._control(data)
        messages = None
        if chat:
            messages = data.get("messages")
            if registered is not None and isinstance(messages, list):
                messages = data["messages"] = [{"role": "system", "content": registered}, *messages]
            try:
                validate_messages(messages)
            except ValueError as exc:
                raise from_value_error(exc) from None
        elif not isinstance(data.get("prompt"), str | list):
            raise invalid("prompt", "is required (a string or a list)")
        route = self.router.resolve(model, messages)
        if route.model != model:
            data["model"] = route.model
            changed = True

        headers_out: list[tuple[bytes, bytes]] = []
        compress_on = chat and enabled and self.settings.compression and req.ctl_header != b"off"
        if compress_on and messages is not None:
            try:
                result = await self._run_compress(
                    messages,
                    self._budget(route.model, data, budget),
                    route.model,
                    stages,
                    len(body) <= self.settings.inline_compress_bytes,
                )
            except ValueError as exc:
                raise from_value_error(exc) from None
            except Exception:  # the pipeline is fail-open; so is the proxy around it
                log.exception("compression failed; forwarding the request unchanged")
                self.metrics.child(self.metrics.fail_open, "pipeline").inc()
                headers_out.append((b"x-ctxpress-fail-open", b"1"))
            else:
                out = result.messages
                if len(out) != len(messages) or any(
                    a is not b for a, b in zip(out, messages, strict=True)
                ):
                    data["messages"] = out
                    changed = True
                headers_out += [
                    (b"x-ctxpress-tokens-before", str(result.tokens_before).encode()),
                    (b"x-ctxpress-tokens-after", str(result.tokens_after).encode()),
                    (b"x-ctxpress-fail-open", b"1" if result.fail_open else b"0"),
                ]
        client_usage = True
        if stream:
            options = data.get("stream_options")
            client_usage = isinstance(options, dict) and options.get("include_usage") is True
            if not client_usage:
                data["stream_options"] = {
                    **(options if isinstance(options, dict) else {}),
                    "include_usage": True,
                }
                changed = True
        payload = orjson.dumps(data) if changed else body
        if route.note:
            headers_out.append((b"x-ctxpress-route", route.note.encode()))
        affinity = self._observe_prefix(data.get("messages") if chat else None, route, req)
        await self._forward(
            receive, send, req, route, route.group, payload, headers_out, client_usage, affinity
        )

    async def _expand_prefix(self, data: dict[str, Any], tenant: str | None) -> str | None:
        """``"ctxpress": {"prefix": "<id>"}``: the registered system prompt to put first."""
        ctl = data.get("ctxpress")
        if not isinstance(ctl, dict) or "prefix" not in ctl:
            return None
        pid = ctl.pop("prefix")
        if not isinstance(pid, str) or not _PREFIX_ID.fullmatch(pid):
            # Ids are content hashes; anything else never reaches a store key.
            raise invalid("ctxpress.prefix", "must be a prefix id (32 hex digits)")
        entry = await self.registry.get(pid, tenant)
        if entry is None:
            raise invalid("ctxpress.prefix", f"unknown prefix id {pid!r}; register it first")
        return entry.text

    def _observe_prefix(self, messages: Any, route: Route, req: Request) -> str | None:
        """Affinity key for the request's system prompt; hand it to the warmer."""
        if not messages or not isinstance(messages, list):
            return None
        first = messages[0]
        if not isinstance(first, dict) or first.get("role") not in SYSTEM_ROLES:
            return None
        text = content_text(first.get("content"))
        if not text:
            return None
        if self.settings.warmup:
            tokens = get_counter(route.model, self.config).text(text)
            self.warmer.observe(Sighting(text, tokens, route.model, route.group, req.tenant))
        return affinity_key(route.model, prefix_id(text)) if self.settings.affinity else None

    async def _prefixes(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``GET``: the caller's registered prefixes; ``POST {"text", "model"?}``: register."""
        req = Request(scope)
        self._authorize(req)
        if scope["method"] == "GET":
            entries = await self.registry.list(req.tenant)
            listing = {"object": "list", "data": [e.public() for e in entries]}
            await _send_json(send, 200, orjson.dumps(listing))
            return
        if scope["method"] != "POST":
            raise ProxyError(405, "use GET or POST /v1/prefixes")
        try:
            _, data = await self._json_body(scope, receive)
        except _Disconnected:
            return
        text, model = data.get("text"), data.get("model")
        if not isinstance(text, str) or not text.strip():
            raise invalid("text", "is required: the system prompt to register")
        if model is not None and not isinstance(model, str):
            raise invalid("model", "must be a string")
        if not isinstance(data.get("warm", True), bool):
            raise invalid("warm", "must be a boolean")
        tokens = get_counter(model, self.config).text(text)
        entry, created = await self.registry.register(text, tokens, req.tenant)
        warmed = 0
        if model and data.get("warm", True) is not False:
            route = self.router.resolve(model)
            sighting = Sighting(entry.text, tokens, route.model, route.group, req.tenant)
            warmed = await self.warmer.handle(sighting)
        out = {**entry.public(), "created": created, "warmed": warmed}
        await _send_json(send, 200 if not created else 201, orjson.dumps(out))

    # --- forwarding and relaying ------------------------------------------------------
    def _upstream_headers(self, req: Request, group: Group, json: bool) -> list[tuple[str, str]]:
        """Client headers minus hop-by-hop ones; the group's key or the client's auth."""
        if json:
            headers = [h for h in req.client_headers if h[0] != "content-type"]
            headers.append(("content-type", "application/json"))
        else:
            headers = list(req.client_headers)
        if group.api_key:
            headers.append(("authorization", "Bearer " + group.api_key))
        elif group.config.forward_authorization and req.authorization and not self._keys:
            headers.append(("authorization", req.authorization.decode("latin-1")))
        return headers

    async def _forward(
        self,
        receive: Receive,
        send: Send,
        req: Request,
        route: Route | None,
        group: Group,
        payload: bytes,
        headers_out: list[Header],
        client_usage: bool = True,
        affinity: str | None = None,
    ) -> None:
        """Send upstream and relay the answer; a client disconnect cancels both."""
        headers = self._upstream_headers(req, group, json=route is not None)
        overhead = time.perf_counter() - req.start
        if route is not None:
            self.metrics.overhead.observe(overhead)
            headers_out.append((b"x-ctxpress-overhead-ms", f"{overhead * 1000:.2f}".encode()))
        task = asyncio.current_task()
        assert task is not None
        state = {"done": False, "gone": False}

        async def watch() -> None:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    if not state["done"]:
                        state["gone"] = True
                        task.cancel()
                    return

        watcher = asyncio.create_task(watch())
        up: Upstream | None = None
        status = 0
        model = route.model if route else ""
        try:
            queued = time.perf_counter()
            up = await self.pool.send(
                group,
                req.method,
                req.path[3:],
                headers,
                payload,
                req.priority,
                req.query,
                affinity=affinity,
            )
            self.metrics.child(self.metrics.queue_seconds, req.priority).observe(
                time.perf_counter() - queued
            )
            status = await self._relay(send, req, route, up, headers_out, client_usage, state)
        except asyncio.CancelledError:
            if state["gone"] and task.uncancel() == 0:
                status = 499  # client closed the request (nginx's convention)
            else:
                raise
        except ProxyError as exc:
            status = exc.status
            state["done"] = True
            await _send_error(send, exc)
        finally:
            state["done"] = True
            watcher.cancel()
            if up is not None:
                await up.aclose()
            elapsed = time.perf_counter() - req.start
            m = self.metrics
            m.child(m.requests, req.path, model, str(status)).inc()
            m.child(m.latency, req.path, model).observe(elapsed)
            if self.settings.access_log:
                access.info(
                    "%s %s %d model=%s group=%s upstream=%s prio=%s ms=%.1f",
                    req.method, req.path, status, model, group.name,
                    up.replica.url if up else "-", req.priority, elapsed * 1000,
                )  # fmt: skip

    async def _relay(
        self,
        send: Send,
        req: Request,
        route: Route | None,
        up: Upstream,
        headers_out: list[Header],
        client_usage: bool,
        state: dict[str, bool],
    ) -> int:
        """Relay status, headers and body (SSE event by event); return the status sent."""
        status = up.status
        model = route.model if route else ""
        headers = [(k, v) for k, v in up.raw_headers if k.lower() not in _DROP_RESPONSE]
        headers += headers_out
        ctype = up.content_type
        if ctype.startswith("text/event-stream"):
            headers += _SSE_HEADERS
            await send({"type": "http.response.start", "status": status, "headers": headers})
            return await self._relay_sse(send, up, route, req, client_usage, state)
        try:
            async with asyncio.timeout(self.settings.idle_timeout):
                body = await up.read()
        except (UpstreamBroken, TimeoutError) as exc:  # nothing sent yet: a clean 502
            self.metrics.child(self.metrics.upstream_errors, up.group.name, "read").inc()
            raise ProxyError(502, f"upstream failed: {type(exc).__name__}") from None
        headers.append((b"content-length", str(len(body)).encode()))
        if route is not None and status == 200:
            self._record_usage(model, body)
        state["done"] = True
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return status

    async def _relay_sse(
        self,
        send: Send,
        up: Upstream,
        route: Route | None,
        req: Request,
        client_usage: bool,
        state: dict[str, bool],
    ) -> int:
        """Forward whole SSE events as they arrive; record usage; strip the one we added."""
        parse = route is not None
        model = route.model if route else ""
        loop = asyncio.get_running_loop()
        idle = self.settings.idle_timeout
        buffer = b""
        first: float | None = None
        last = 0.0
        usage: dict[str, Any] | None = None
        status = up.status
        try:
            async with asyncio.timeout(idle) as deadline:
                async for chunk in up.chunks():
                    deadline.reschedule(loop.time() + idle)
                    buffer += chunk
                    cut = buffer.rfind(b"\n\n")
                    if cut < 0:
                        continue
                    ready, buffer = buffer[: cut + 2], buffer[cut + 2 :]
                    if parse:
                        now = time.perf_counter()
                        if first is None:
                            first = now
                        last = now
                        if b'"usage"' in ready:
                            ready, found = _take_usage(ready, strip=not client_usage)
                            usage = found or usage
                    if ready:
                        await send({"type": "http.response.body", "body": ready, "more_body": True})
        except (UpstreamBroken, TimeoutError) as exc:
            kind = "idle_timeout" if isinstance(exc, TimeoutError) else "stream_broken"
            self.metrics.child(self.metrics.upstream_errors, up.group.name, kind).inc()
            status = 502
            event = b"data: " + error_body(f"upstream stream ended early: {kind}", 502) + b"\n\n"
            await send({"type": "http.response.body", "body": buffer + event, "more_body": True})
            buffer = b""
        state["done"] = True
        await send({"type": "http.response.body", "body": buffer, "more_body": False})
        if parse and first is not None:
            self.metrics.child(self.metrics.ttft, model).observe(first - req.start)
            if usage:
                self._observe_usage(model, usage)
                completion = usage.get("completion_tokens")
                if isinstance(completion, int) and completion > 1:
                    self.metrics.child(self.metrics.tpot, model).observe(
                        (last - first) / (completion - 1)
                    )
        return status

    def _record_usage(self, model: str, body: bytes) -> None:
        with contextlib.suppress(orjson.JSONDecodeError, AttributeError):
            usage = orjson.loads(body).get("usage")
            if isinstance(usage, dict):
                self._observe_usage(model, usage)

    def _observe_usage(self, model: str, usage: dict[str, Any]) -> None:
        m, tokens = self.metrics, self.metrics.engine_tokens
        prompt = usage.get("prompt_tokens")
        if isinstance(prompt, int):
            m.child(tokens, model, "prompt").inc(prompt)
        completion = usage.get("completion_tokens")
        if isinstance(completion, int):
            m.child(tokens, model, "completion").inc(completion)
        details = usage.get("prompt_tokens_details")
        if isinstance(details, dict) and isinstance(details.get("cached_tokens"), int):
            m.child(tokens, model, "cached").inc(details["cached_tokens"])

    # --- dry run and pass-through -----------------------------------------------------
    async def _compress(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "POST":
            raise ProxyError(405, "use POST /v1/compress")
        req = Request(scope)
        self._authorize(req)
        try:
            _, data = await self._json_body(scope, receive)
        except _Disconnected:
            return
        budget, stages, _ = self._control(data)
        if budget is None and data.get("budget") is not None:
            budget, stages, _ = self._control(
                {"ctxpress": {"budget": data.get("budget"), "stages": data.get("stages")}}
            )
        model = data.get("model")
        if model is not None and not isinstance(model, str):
            raise invalid("model", "must be a string")
        messages = data.get("messages")
        try:
            validate_messages(messages)
            assert isinstance(messages, list)
            result = await self._run_compress(
                messages,
                self._budget(model, data, budget) if model else budget or self.config.budget,
                model or "",
                stages,
                inline=False,
            )
        except ValueError as exc:
            raise from_value_error(exc) from None
        out = result.to_dict()
        out["model"] = model
        self.metrics.child(self.metrics.requests, req.path, model or "", "200").inc()
        await _send_json(send, 200, orjson.dumps(out))

    async def _passthrough(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Any other ``/v1/*``: forwarded untouched to the model's group (or the first)."""
        req = Request(scope)
        self._authorize(req)
        try:
            body = await self._read_body(scope, receive)
        except _Disconnected:
            return
        model = None
        if body[:1] == b"{":
            with contextlib.suppress(orjson.JSONDecodeError, AttributeError):
                found = orjson.loads(body).get("model")
                model = found if isinstance(found, str) else None
        group = self.router.group_for_passthrough(model)
        await self._forward(receive, send, req, None, group, body, [])


def _take_usage(events: bytes, *, strip: bool) -> tuple[bytes, dict[str, Any] | None]:
    """Find the usage object in SSE events; drop the usage-only event if ``strip``."""
    kept: list[bytes] = []
    usage: dict[str, Any] | None = None
    for event in events.split(b"\n\n"):
        if not event:
            continue
        if b'"usage"' in event and event.startswith(b"data: {"):
            try:
                data = orjson.loads(event[6:])
            except orjson.JSONDecodeError:
                kept.append(event)
                continue
            found = data.get("usage") if isinstance(data, dict) else None
            if isinstance(found, dict):
                usage = found
                if strip and not data.get("choices"):
                    continue  # the usage-only chunk the client did not ask for
        kept.append(event)
    return b"".join(e + b"\n\n" for e in kept), usage


async def _send_json(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*(headers or _JSON), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _send_error(send: Send, exc: ProxyError) -> None:
    extra = [(k.encode(), v.encode()) for k, v in exc.headers.items()]
    await _send_json(send, exc.status, exc.body(), [*_JSON, *extra])


def create_app(
    settings: ProxySettings | None = None,
    *,
    metrics: Metrics | None = None,
    cache: Cache | None = None,
    config: Config | None = None,
) -> ProxyApp:
    """Build the proxy ASGI app (settings default to the file and ``CTXPRESS_*`` env)."""
    if settings is None:
        from ctxpress.middleware.settings import load_settings

        settings = load_settings()
    return ProxyApp(settings, metrics=metrics, cache=cache, config=config)
