"""Where ctxpress keeps state: in memory by default, Redis when configured."""

from __future__ import annotations

from ctxpress.store.base import Cache, Store
from ctxpress.store.keys import Keys, digest
from ctxpress.store.memory import MemoryCache, MemoryStore


def open_backends(redis_url: str | None) -> tuple[Store, Cache]:
    """The proxy's store and the compressor's cache: Redis with memory fallback, or memory."""
    if not redis_url:
        return MemoryStore(), MemoryCache()
    from ctxpress.store.fallback import Breaker, FallbackCache, FallbackStore
    from ctxpress.store.redis import RedisCache, RedisStore

    breaker = Breaker()
    return (
        FallbackStore(RedisStore(redis_url), MemoryStore(), breaker),
        FallbackCache(RedisCache(redis_url), MemoryCache(), breaker),
    )


__all__ = ["Cache", "Keys", "MemoryCache", "MemoryStore", "Store", "digest", "open_backends"]
