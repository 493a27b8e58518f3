"""Warm-up: put a system prompt's KV blocks into every replica's prefix cache ahead of use.

A new prefix, and a hot one whose warm-up on some replica is older than
``rewarm_interval``, is sent to each healthy replica of its model as a
``max_tokens: 1`` request at batch priority. Sends are rate-limited, and a store
lock per (replica, prefix) lets one proxy instance, not all, warm each pair per
interval. Observations go through a bounded queue, so the request path only ever
pays a ``put_nowait``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass

import orjson

from ctxpress.middleware.errors import ProxyError
from ctxpress.middleware.prefixes import PrefixRegistry
from ctxpress.middleware.upstreams import Group, Replica, UpstreamPool
from ctxpress.store import Keys, Store, digest

log = logging.getLogger("ctxpress.warmup")


@dataclass(frozen=True, slots=True)
class Sighting:
    """One request that used a system prompt (canonical text) for ``model`` on ``group``."""

    text: str
    tokens: int
    model: str
    group: Group
    tenant: str | None


def replica_id(replica: Replica) -> str:
    """A short stable id of a replica for store keys (URLs never appear in keys)."""
    return digest(replica.url, size=6)


class Warmer:
    """Registers sighted prefixes and warms replicas in the background."""

    def __init__(
        self,
        pool: UpstreamPool,
        registry: PrefixRegistry,
        store: Store,
        keys: Keys,
        *,
        rate: float = 4.0,
        rewarm_interval: float = 300.0,
        min_tokens: int = 64,
        queue_size: int = 1024,
    ) -> None:
        self.pool, self.registry, self.store, self.keys = pool, registry, store, keys
        self.rate, self.rewarm_interval, self.min_tokens = rate, rewarm_interval, min_tokens
        self.queue: asyncio.Queue[Sighting] = asyncio.Queue(queue_size)
        self.sent = self.failed = self.dropped = 0
        self._next_send = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="ctxpress-warmup")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def observe(self, sighting: Sighting) -> None:
        """Called on the request path: never blocks, drops (and counts) when busy."""
        if sighting.tokens < self.min_tokens:
            return
        try:
            self.queue.put_nowait(sighting)
        except asyncio.QueueFull:
            self.dropped += 1

    async def drain(self) -> None:
        """Wait until every queued sighting was handled (tests, ``ctxpress warm``)."""
        await self.queue.join()

    async def _run(self) -> None:
        while True:
            sighting = await self.queue.get()
            try:
                await self.handle(sighting)
            except Exception:  # the warmer must never die; a failed warm-up is only lost work
                log.exception("warm-up failed")
            finally:
                self.queue.task_done()

    async def handle(self, s: Sighting) -> int:
        """Record the sighting; warm the replicas that need it. Returns replicas warmed."""
        entry, created = await self.registry.register(s.text, s.tokens, s.tenant)
        if not created:
            await self.registry.hit(entry.id, s.tenant)
        now = time.time()
        warmed = 0
        for replica in s.group.healthy_replicas():
            rid = replica_id(replica)
            if now - entry.warmed.get(rid, 0.0) < self.rewarm_interval:
                continue
            lock = self.keys.lock("warm", rid, entry.id)
            if not await self.store.set_nx(lock, b"1", ttl=self.rewarm_interval):
                continue  # another instance warms this pair in this interval
            if await self._warm(replica, s.model, entry.text):
                await self.registry.mark_warmed(entry.id, rid, s.tenant)
                warmed += 1
            else:
                await self.store.delete(lock)
        return warmed

    async def _warm(self, replica: Replica, model: str, text: str) -> bool:
        delay = self._next_send - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        self._next_send = max(self._next_send, time.monotonic()) + 1.0 / self.rate
        body = orjson.dumps(
            {
                "model": model,
                "messages": [
                    {"role": "system", "content": text},
                    {"role": "user", "content": "ok"},
                ],
                "max_tokens": 1,
                "temperature": 0,
            }
        )
        headers = [("content-type", "application/json")]
        group = replica.group
        if group.api_key:
            headers.append(("authorization", "Bearer " + group.api_key))
        others = [r for r in group.replicas if r is not replica]
        try:
            up = await self.pool.send(
                group, "POST", "/chat/completions", headers, body, "batch", exclude=others
            )
        except ProxyError:
            self.failed += 1
            return False
        try:
            await up.read()
            ok = 200 <= up.status < 300
        finally:
            await up.aclose()
        self.sent += ok
        self.failed += not ok
        return ok
