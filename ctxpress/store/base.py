"""What ctxpress keeps between requests, behind two small protocols.

``Cache`` is synchronous: the compressor runs in a worker thread and reads
embeddings and frozen blocks by content hash. ``Store`` is asynchronous: the proxy
keeps the prefix registry, warm-up locks and counters there. Both have an
in-memory backend (the embedded default) and a Redis backend with the same keys
and semantics, so tests run one suite against both.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Cache(Protocol):
    """A bounded key-value cache with optional per-key TTL in seconds."""

    def get_many(self, keys: list[str]) -> list[bytes | None]: ...

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None: ...


@runtime_checkable
class Store(Protocol):
    """The Redis subset the proxy needs: values, hashes, locks, counters, key listing."""

    async def get(self, key: str) -> bytes | None: ...

    async def set(self, key: str, value: bytes, ttl: float | None = None) -> None: ...

    async def set_nx(self, key: str, value: bytes, ttl: float) -> bool:
        """Set only if absent: a lock shared by every proxy instance on the store."""
        ...

    async def delete(self, key: str) -> None: ...

    async def hgetall(self, key: str) -> dict[str, str]: ...

    async def hset(self, key: str, mapping: dict[str, str], ttl: float | None = None) -> None: ...

    async def hincrby(self, key: str, field: str, amount: int = 1) -> int: ...

    async def scan(self, prefix: str) -> list[str]:
        """Every live key that starts with ``prefix``."""
        ...

    async def close(self) -> None: ...
