"""Redis backends (redis-py): the shared store of several proxy instances.

Short socket timeouts, because a slow Redis must never hold a request back: the
fallback wrappers in :mod:`ctxpress.store.fallback` answer from memory instead.
"""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

_TIMEOUTS: dict[str, Any] = {"socket_timeout": 0.25, "socket_connect_timeout": 0.25}
# One reconnect before a command counts as failed: after Redis restarts, every pooled
# connection is dead, and the first use of each must not send the proxy to memory (where
# a prefix just registered in Redis is unknown).
_ONCE_MORE = 1
ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, OSError)


def _ms(ttl: float | None) -> int | None:
    return max(1, int(ttl * 1000)) if ttl is not None else None


class RedisStore:
    """:class:`~ctxpress.store.base.Store` on ``redis.asyncio``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._r = aioredis.Redis.from_url(
            url, retry=AsyncRetry(NoBackoff(), _ONCE_MORE), **_TIMEOUTS
        )

    async def get(self, key: str) -> bytes | None:
        value: Any = await self._r.get(key)
        return value if isinstance(value, bytes) else None

    async def set(self, key: str, value: bytes, ttl: float | None = None) -> None:
        await self._r.set(key, value, px=_ms(ttl))

    async def set_nx(self, key: str, value: bytes, ttl: float) -> bool:
        return bool(await self._r.set(key, value, px=_ms(ttl), nx=True))

    async def delete(self, key: str) -> None:
        await self._r.delete(key)

    async def hgetall(self, key: str) -> dict[str, str]:
        raw: dict[Any, Any] = await self._r.hgetall(key)
        return {k.decode(): v.decode() for k, v in raw.items()}

    async def hset(self, key: str, mapping: dict[str, str], ttl: float | None = None) -> None:
        async with self._r.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)  # type: ignore[arg-type]
            if ttl is not None:
                pipe.pexpire(key, _ms(ttl) or 1)
            await pipe.execute()

    async def hincrby(self, key: str, field: str, amount: int = 1) -> int:
        return int(await self._r.hincrby(key, field, amount))

    async def scan(self, prefix: str) -> list[str]:
        pattern = prefix.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?") + "*"
        return sorted([k.decode() async for k in self._r.scan_iter(match=pattern, count=500)])

    async def close(self) -> None:
        await self._r.aclose()


class RedisCache:
    """:class:`~ctxpress.store.base.Cache` on the blocking client (the compressor's thread)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._r = redis.Redis.from_url(url, retry=Retry(NoBackoff(), _ONCE_MORE), **_TIMEOUTS)

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        if not keys:
            return []
        values: list[Any] = self._r.mget(keys)
        return values

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None:
        if not items:
            return
        with self._r.pipeline(transaction=False) as pipe:
            for key, value in items.items():
                pipe.set(key, value, px=_ms(ttl))
            pipe.execute()
