"""The upstream pool: one pooled HTTP client (aiohttp), groups of replicas, admission, health.

Each group holds the replicas that serve the same models. A request takes a slot
on the healthy replica with the fewest requests in flight; when every replica is
at its concurrency limit it waits in the group's admission queue, where
``interactive`` requests always go before ``batch`` ones and batch requests may
never take a replica's last ``batch_reserve`` slots, so an interactive request
waits for at most one slot to free whatever batch load is queued. A full queue
answers 429 with ``Retry-After``.

A connect failure (nothing was sent) marks the replica down and retries on
another one; any later failure is the caller's to report, never retried, since the
upstream may already be generating. Health checks ``GET {url}/models`` every
``health_interval`` seconds, which also learns each replica's models and their
``max_model_len``. When no replica of a group is healthy, the proxy still tries
them (a replica may be back before its next check) and answers 503 if none connects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections import deque
from collections.abc import AsyncIterator, Iterable
from typing import Any, Literal

import aiohttp
import orjson

from ctxpress.middleware.affinity import choose
from ctxpress.middleware.errors import ProxyError
from ctxpress.middleware.metrics import Metrics
from ctxpress.middleware.settings import ProxySettings, UpstreamGroup

log = logging.getLogger("ctxpress.upstreams")

Priority = Literal["interactive", "batch"]
PRIORITIES: tuple[Priority, ...] = ("interactive", "batch")

# Hop-by-hop headers (RFC 9110 §7.6.1) and those the proxy sets itself.
HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-authenticate",
        b"proxy-authorization",
        b"te",
        b"trailer",
        b"trailers",
        b"transfer-encoding",
        b"upgrade",
        b"host",
        b"content-length",
        b"accept-encoding",
        b"expect",
    }
)


class Replica:
    """One upstream base URL (``http://host:port/v1``) and what the proxy knows of it."""

    __slots__ = ("_gauge", "group", "healthy", "in_flight", "models", "url")

    def __init__(self, url: str, group: Group, metrics: Metrics) -> None:
        self.url = url
        self.group = group
        self.in_flight = 0
        self.healthy = True  # optimistic until the first check says otherwise
        self.models: dict[str, dict[str, Any]] = {}
        self._gauge = metrics.in_flight.labels(group.name, url)
        metrics.healthy.labels(group.name, url).set(1)

    def __repr__(self) -> str:
        return f"Replica({self.url!r}, in_flight={self.in_flight}, healthy={self.healthy})"


class _Waiter:
    __slots__ = ("affinity", "exclude", "future")

    def __init__(
        self, future: asyncio.Future[Replica], exclude: frozenset[Replica], affinity: str | None
    ) -> None:
        self.future = future
        self.exclude = exclude
        self.affinity = affinity


class Group:
    """Replicas serving the same models, with per-replica slots and a priority queue."""

    def __init__(self, config: UpstreamGroup, settings: ProxySettings, metrics: Metrics) -> None:
        self.config = config
        self.name = config.name
        self.limit = config.max_concurrency
        # Batch may use at most limit - reserve slots, but always at least one.
        self.batch_limit = max(1, self.limit - settings.batch_reserve)
        self.queue_size = settings.queue_size
        self.epsilon = settings.affinity_epsilon
        self.metrics = metrics
        self.replicas = [Replica(url, self, metrics) for url in config.urls]
        self.waiting: dict[Priority, deque[_Waiter]] = {p: deque() for p in PRIORITIES}
        self._queued_gauge = {p: metrics.queued.labels(self.name, p) for p in PRIORITIES}
        self._rr = 0
        key_env = config.api_key_env
        self.api_key = os.environ.get(key_env) if key_env else None
        if key_env and not self.api_key:
            log.warning("group %s: environment variable %s is not set", self.name, key_env)

    # --- models -----------------------------------------------------------------------
    @property
    def wildcard(self) -> bool:
        return "*" in self.config.models

    def healthy_replicas(self) -> list[Replica]:
        return [r for r in self.replicas if r.healthy]

    def known_models(self) -> dict[str, dict[str, Any]]:
        """Model cards learnt from replicas (healthy first), plus configured names."""
        cards: dict[str, dict[str, Any]] = {}
        for replica in sorted(self.replicas, key=lambda r: r.healthy):
            cards.update(replica.models)
        for name in self.config.models:
            if name != "*":
                cards.setdefault(name, {"id": name, "object": "model", "owned_by": self.name})
        return cards

    def serves(self, model: str) -> bool | None:
        """True/False when known; None when the group's models cannot be known now."""
        if self.wildcard or model in self.config.models:
            return True
        healthy = self.healthy_replicas()
        if any(model in r.models for r in self.replicas):
            return True
        if any(r.models for r in healthy):
            return False
        return None  # no healthy replica has told us its models

    # --- admission ----------------------------------------------------------------------
    def _pick(
        self, priority: Priority, exclude: frozenset[Replica], affinity: str | None = None
    ) -> Replica | None:
        """With an affinity key, its rendezvous replica within the load bound; else least busy."""
        limit = self.limit if priority == "interactive" else self.batch_limit
        pool = [r for r in self.replicas if r.healthy and r not in exclude]
        if not pool:  # panic mode: try replicas marked down rather than refuse
            pool = [r for r in self.replicas if r not in exclude]
        if affinity is not None:
            free = [r for r in pool if r.in_flight < limit]
            if not free:
                return None
            return choose(affinity, free, _url, _load, self.epsilon)
        best: Replica | None = None
        n = len(pool)
        for i in range(n):  # rotate the start so ties spread across replicas
            r = pool[(self._rr + i) % n]
            if r.in_flight < limit and (best is None or r.in_flight < best.in_flight):
                best = r
        self._rr += 1
        return best

    def _take(self, replica: Replica) -> Replica:
        replica.in_flight += 1
        replica._gauge.inc()
        return replica

    async def acquire(
        self,
        priority: Priority = "interactive",
        exclude: Iterable[Replica] = (),
        affinity: str | None = None,
    ) -> Replica:
        """A slot on the least busy healthy replica; waits in the priority queue if none."""
        excluded = frozenset(exclude)
        if len(excluded) >= len(self.replicas):
            raise ProxyError(503, f"no replica of upstream group {self.name!r} could be reached")
        ahead = self.waiting["interactive"]
        if priority == "batch":
            ahead = ahead or self.waiting["batch"]
        if not ahead:
            replica = self._pick(priority, excluded, affinity)
            if replica is not None:
                return self._take(replica)
        if sum(len(q) for q in self.waiting.values()) >= self.queue_size:
            self.metrics.rejected.labels("queue_full").inc()
            raise ProxyError(
                429,
                f"upstream group {self.name!r} is at capacity; retry later",
                code="queue_full",
                headers={"retry-after": "1"},
            )
        future: asyncio.Future[Replica] = asyncio.get_running_loop().create_future()
        self.waiting[priority].append(_Waiter(future, excluded, affinity))
        self._queued_gauge[priority].inc()
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release(future.result())  # granted just as we were cancelled
            raise
        finally:
            self._queued_gauge[priority].dec()
            with contextlib.suppress(ValueError):
                self.waiting[priority].remove(_find(self.waiting[priority], future))

    def release(self, replica: Replica) -> None:
        replica.in_flight -= 1
        replica._gauge.dec()
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand freed slots to waiters: every interactive one before any batch one."""
        for priority in PRIORITIES:
            queue = self.waiting[priority]
            while queue:
                waiter = queue[0]
                if waiter.future.done():
                    queue.popleft()
                    continue
                replica = self._pick(priority, waiter.exclude, waiter.affinity)
                if replica is None:
                    if priority == "interactive":
                        return  # batch must not overtake a waiting interactive request
                    break
                queue.popleft()
                waiter.future.set_result(self._take(replica))

    def mark(self, replica: Replica, healthy: bool) -> None:
        if replica.healthy != healthy:
            log.warning(
                "upstream %s (%s) is %s", replica.url, self.name, "up" if healthy else "DOWN"
            )
        replica.healthy = healthy
        self.metrics.healthy.labels(self.name, replica.url).set(1 if healthy else 0)
        if healthy:
            self._dispatch()


def _url(replica: Replica) -> str:
    return replica.url


def _load(replica: Replica) -> int:
    return replica.in_flight


def _find(queue: deque[_Waiter], future: asyncio.Future[Replica]) -> _Waiter:
    for waiter in queue:
        if waiter.future is future:
            return waiter
    raise ValueError("not queued")


class UpstreamBroken(Exception):
    """The upstream failed after its response began (connection lost, timeout)."""


class Upstream:
    """An upstream response being relayed; ``aclose`` frees its replica slot exactly once."""

    __slots__ = ("_closed", "group", "replica", "response")

    def __init__(self, response: aiohttp.ClientResponse, replica: Replica) -> None:
        self.response = response
        self.replica = replica
        self.group = replica.group
        self._closed = False

    @property
    def status(self) -> int:
        return self.response.status

    @property
    def raw_headers(self) -> tuple[tuple[bytes, bytes], ...]:
        return self.response.raw_headers

    @property
    def content_type(self) -> str:
        return self.response.headers.get("content-type", "")

    async def chunks(self) -> AsyncIterator[bytes]:
        """Body bytes as each network read arrives (no re-chunking, no buffering)."""
        try:
            async for chunk in self.response.content.iter_any():
                yield chunk
        except (aiohttp.ClientError, ConnectionError) as exc:
            raise UpstreamBroken(type(exc).__name__) from exc

    async def read(self) -> bytes:
        try:
            return await self.response.read()
        except (aiohttp.ClientError, ConnectionError) as exc:
            raise UpstreamBroken(type(exc).__name__) from exc

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self.response.content.at_eof():
                self.response.release()  # keep-alive: back to the pool
            else:
                self.response.close()  # unfinished: drop the connection so the upstream stops
        finally:
            self.group.release(self.replica)


class UpstreamPool:
    """All groups behind one pooled HTTP client, plus the health-check loop.

    The client is an ``aiohttp.ClientSession``: ``benchmarks/proxy_overhead.py``
    measured httpx (httpcore's pool scans every connection per request, and its
    HTTP parser is pure Python) at 3-5x lower throughput through the proxy at 64
    connections on this machine, and the httpx client layer alone (URL and
    cookie handling) at ~20% of the proxy's CPU even on top of aiohttp.
    """

    def __init__(self, settings: ProxySettings, metrics: Metrics) -> None:
        self.settings = settings
        self.metrics = metrics
        self.groups = {g.name: Group(g, settings, metrics) for g in settings.groups}
        self._session: aiohttp.ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        # Read timeouts are enforced by the proxy (first byte vs idle), not by the client.
        self._timeout = aiohttp.ClientTimeout(
            total=None, connect=settings.connect_timeout, sock_connect=settings.connect_timeout
        )

    @property
    def session(self) -> aiohttp.ClientSession:
        """The pooled client, created inside the running loop on first use."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(
                limit=self.settings.max_connections,
                limit_per_host=0,
                keepalive_timeout=4,  # below uvicorn's 5 s idle close (vLLM): no stale reuse
                ttl_dns_cache=60,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                auto_decompress=False,
                skip_auto_headers=("User-Agent", "Accept-Encoding", "Accept", "Content-Type"),
                timeout=self._timeout,
                cookie_jar=aiohttp.DummyCookieJar(),
            )
        return self._session

    async def start(self) -> None:
        await self.check_all()
        self._task = asyncio.create_task(self._health_loop(), name="ctxpress-health")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._session is not None:
            await self._session.close()
            self._session = None

    # --- health -------------------------------------------------------------------------
    async def _health_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.health_interval)
            try:
                await self.check_all()
            except Exception:  # never let the loop die
                log.exception("health check round failed")

    async def check_all(self) -> None:
        replicas = [r for g in self.groups.values() for r in g.replicas]
        await asyncio.gather(*(self.check(r) for r in replicas))

    async def check(self, replica: Replica) -> bool:
        """``GET {url}/models``: up when it answers 2xx; learn the models it lists."""
        group = replica.group
        headers = {"authorization": f"Bearer {group.api_key}"} if group.api_key else {}
        timeout = aiohttp.ClientTimeout(total=self.settings.connect_timeout + 10)
        try:
            async with self.session.get(
                f"{replica.url}/models", headers=headers, timeout=timeout
            ) as resp:
                status, body = resp.status, await resp.read()
        except (aiohttp.ClientError, OSError, TimeoutError):
            group.mark(replica, False)
            return False
        if status == 404:  # an engine without /models is up; its models are unknown
            group.mark(replica, True)
            return True
        ok = 200 <= status < 300
        if ok:
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                data = orjson.loads(body).get("data") or []
                replica.models = {
                    m["id"]: m for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)
                }
        group.mark(replica, ok)
        return ok

    def ready(self) -> bool:
        return any(r.healthy for g in self.groups.values() for r in g.replicas)

    # --- requests -----------------------------------------------------------------------
    async def send(
        self,
        group: Group,
        method: str,
        path: str,
        headers: list[tuple[str, str]],
        body: bytes,
        priority: Priority = "interactive",
        query: bytes = b"",
        *,
        exclude: Iterable[Replica] = (),
        affinity: str | None = None,
    ) -> Upstream:
        """Send to a replica of ``group`` and return once the response headers arrived.

        ``affinity`` (model and prefix id) picks the replica by rendezvous hashing with
        bounded load; ``exclude`` keeps replicas out (warm-up targets exactly one).
        Retries on another replica only when the connection could not be made.
        """
        tried: list[Replica] = list(exclude)
        target = path + ("?" + query.decode("latin-1") if query else "")
        session = self.session
        for _ in range(self.settings.retries + 1):
            replica = await group.acquire(priority, tried, affinity)
            try:
                async with asyncio.timeout(self.settings.first_byte_timeout):
                    response = await session.request(
                        method,
                        replica.url + target,
                        headers=headers,
                        data=body or None,
                        allow_redirects=False,
                        compress=None,
                    )
            except (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError):
                group.release(replica)
                group.mark(replica, False)
                self.metrics.upstream_errors.labels(group.name, "connect").inc()
                tried.append(replica)
                if len(tried) < len(group.replicas):
                    self.metrics.retries.labels(group.name).inc()
                    continue
                break
            except TimeoutError:
                group.release(replica)
                self.metrics.upstream_errors.labels(group.name, "first_byte_timeout").inc()
                raise ProxyError(
                    504, f"upstream {group.name!r} sent nothing within the first-byte timeout"
                ) from None
            except (aiohttp.ClientError, OSError) as exc:
                group.release(replica)
                self.metrics.upstream_errors.labels(group.name, "protocol").inc()
                raise ProxyError(
                    502, f"upstream {group.name!r} failed: {type(exc).__name__}"
                ) from None
            except BaseException:
                group.release(replica)
                raise
            return Upstream(response, replica)
        raise ProxyError(503, f"no replica of upstream group {group.name!r} could be reached")
