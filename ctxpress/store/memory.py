"""The embedded default: in-process LRU maps with TTLs, mirroring the Redis backend."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any


class _Entries:
    """An LRU of (value, expiry) bounded by total size; expired entries vanish on access."""

    def __init__(self, max_size: int, size_of: Any) -> None:
        self.max_size = max_size
        self._size_of = size_of
        self._data: OrderedDict[str, tuple[Any, float | None]] = OrderedDict()
        self._size = 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: str) -> Any:
        item = self._data.get(key)
        if item is None:
            return None
        if item[1] is not None and item[1] <= time.monotonic():
            self.pop(key)
            return None
        self._data.move_to_end(key)
        return item[0]

    def expiry(self, key: str) -> float | None:
        item = self._data.get(key)
        return item[1] if item else None

    def put(self, key: str, value: Any, ttl: float | None, keep_ttl: bool = False) -> None:
        expires = self.expiry(key) if keep_ttl else None
        if not keep_ttl and ttl is not None:
            expires = time.monotonic() + ttl
        self.pop(key)
        self._data[key] = (value, expires)
        self._size += self._size_of(value)
        while self._size > self.max_size and self._data:
            self.pop(next(iter(self._data)))

    def pop(self, key: str) -> None:
        item = self._data.pop(key, None)
        if item is not None:
            self._size -= self._size_of(item[0])

    def live_keys(self) -> list[str]:
        return [k for k in list(self._data) if self.get(k) is not None]


class MemoryCache:
    """The compressor's cache: an LRU bounded by total value bytes, safe across threads."""

    def __init__(self, max_bytes: int = 256 * 2**20, default_ttl: float | None = None) -> None:
        self.default_ttl = default_ttl
        self._entries = _Entries(max_bytes, len)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        with self._lock:
            return [self._entries.get(k) for k in keys]

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None:
        with self._lock:
            for key, value in items.items():
                self._entries.put(key, value, ttl if ttl is not None else self.default_ttl)


class MemoryStore:
    """The proxy's store in one process: same operations and TTL semantics as Redis."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._entries = _Entries(max_keys, lambda _value: 1)

    async def get(self, key: str) -> bytes | None:
        value = self._entries.get(key)
        return value if isinstance(value, bytes) else None

    async def set(self, key: str, value: bytes, ttl: float | None = None) -> None:
        self._entries.put(key, value, ttl)

    async def set_nx(self, key: str, value: bytes, ttl: float) -> bool:
        if self._entries.get(key) is not None:
            return False
        self._entries.put(key, value, ttl)
        return True

    async def delete(self, key: str) -> None:
        self._entries.pop(key)

    async def hgetall(self, key: str) -> dict[str, str]:
        value = self._entries.get(key)
        return dict(value) if isinstance(value, dict) else {}

    async def hset(self, key: str, mapping: dict[str, str], ttl: float | None = None) -> None:
        current = self._entries.get(key)
        merged = {**(current if isinstance(current, dict) else {}), **mapping}
        self._entries.put(key, merged, ttl, keep_ttl=ttl is None and current is not None)

    async def hincrby(self, key: str, field: str, amount: int = 1) -> int:
        current = self._entries.get(key)
        merged = dict(current) if isinstance(current, dict) else {}
        merged[field] = str(int(merged.get(field, "0")) + amount)
        self._entries.put(key, merged, None, keep_ttl=current is not None)
        return int(merged[field])

    async def scan(self, prefix: str) -> list[str]:
        return sorted(k for k in self._entries.live_keys() if k.startswith(prefix))

    async def close(self) -> None:
        return None
