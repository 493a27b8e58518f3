"""Redis errors degrade to memory, are counted, and recover by themselves.

After a failure the primary is skipped for ``retry_after`` seconds (so a dead
Redis costs one timeout, not one per request), then tried again. What was
written to memory meanwhile stays local to this instance: the registry and
caches are rebuilt from traffic, and correctness never depends on them.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ctxpress.store.base import Cache, Store
from ctxpress.store.redis import ERRORS

T = TypeVar("T")


class Breaker:
    """Counts failures of the primary backend and decides when to try it again."""

    def __init__(self, retry_after: float = 2.0) -> None:
        self.retry_after = retry_after
        self.failures = 0
        self._down_until = 0.0
        self._lock = threading.Lock()

    @property
    def healthy(self) -> bool:
        return time.monotonic() >= self._down_until

    def trip(self) -> None:
        with self._lock:
            self.failures += 1
            self._down_until = time.monotonic() + self.retry_after


class FallbackStore:
    """A :class:`Store` that uses ``primary`` while it works and ``fallback`` otherwise."""

    def __init__(self, primary: Store, fallback: Store, breaker: Breaker | None = None) -> None:
        self.primary, self.fallback = primary, fallback
        self.breaker = breaker or Breaker()

    async def _call(self, op: Callable[[Store], Awaitable[T]]) -> T:
        if self.breaker.healthy:
            try:
                return await op(self.primary)
            except ERRORS:
                self.breaker.trip()
        return await op(self.fallback)

    async def get(self, key: str) -> bytes | None:
        return await self._call(lambda s: s.get(key))

    async def set(self, key: str, value: bytes, ttl: float | None = None) -> None:
        await self._call(lambda s: s.set(key, value, ttl))

    async def set_nx(self, key: str, value: bytes, ttl: float) -> bool:
        return await self._call(lambda s: s.set_nx(key, value, ttl))

    async def delete(self, key: str) -> None:
        await self._call(lambda s: s.delete(key))

    async def hgetall(self, key: str) -> dict[str, str]:
        return await self._call(lambda s: s.hgetall(key))

    async def hset(self, key: str, mapping: dict[str, str], ttl: float | None = None) -> None:
        await self._call(lambda s: s.hset(key, mapping, ttl))

    async def hincrby(self, key: str, field: str, amount: int = 1) -> int:
        return await self._call(lambda s: s.hincrby(key, field, amount))

    async def scan(self, prefix: str) -> list[str]:
        return await self._call(lambda s: s.scan(prefix))

    async def close(self) -> None:
        for store in (self.primary, self.fallback):
            with contextlib.suppress(*ERRORS):
                await store.close()


class FallbackCache:
    """A :class:`Cache` with the same degrade-and-recover rule, for the compressor's thread."""

    def __init__(self, primary: Cache, fallback: Cache, breaker: Breaker | None = None) -> None:
        self.primary, self.fallback = primary, fallback
        self.breaker = breaker or Breaker()

    def _call(self, op: Callable[[Cache], Any]) -> Any:
        if self.breaker.healthy:
            try:
                return op(self.primary)
            except ERRORS:
                self.breaker.trip()
        return op(self.fallback)

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        result: list[bytes | None] = self._call(lambda c: c.get_many(keys))
        return result

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None:
        self._call(lambda c: c.set_many(items, ttl))
