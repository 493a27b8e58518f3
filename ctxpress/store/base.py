"""The cache the compressor may read and write: embeddings and frozen blocks by content hash.

Compression is synchronous (it runs in a worker thread in the proxy), so this
protocol is synchronous too. Values are bytes; keys are built by the caller from
content hashes and an algorithm version, never from raw user text.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Cache(Protocol):
    """A bounded key-value cache with optional per-key TTL in seconds."""

    def get_many(self, keys: list[str]) -> list[bytes | None]: ...

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None: ...
