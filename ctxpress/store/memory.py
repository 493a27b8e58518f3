"""The embedded default cache: an in-process LRU with TTLs, safe across threads."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict


class MemoryCache:
    """LRU bounded by total value bytes; expired entries vanish on access."""

    def __init__(self, max_bytes: int = 256 * 2**20, default_ttl: float | None = None) -> None:
        self.max_bytes = max_bytes
        self.default_ttl = default_ttl
        self._data: OrderedDict[str, tuple[bytes, float | None]] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        now = time.monotonic()
        out: list[bytes | None] = []
        with self._lock:
            for key in keys:
                item = self._data.get(key)
                if item is None:
                    out.append(None)
                elif item[1] is not None and item[1] <= now:
                    self._drop(key)
                    out.append(None)
                else:
                    self._data.move_to_end(key)
                    out.append(item[0])
        return out

    def set_many(self, items: dict[str, bytes], ttl: float | None = None) -> None:
        ttl = ttl if ttl is not None else self.default_ttl
        expires = time.monotonic() + ttl if ttl is not None else None
        with self._lock:
            for key, value in items.items():
                if key in self._data:
                    self._drop(key)
                self._data[key] = (value, expires)
                self._size += len(value)
            while self._size > self.max_bytes and self._data:
                self._drop(next(iter(self._data)))

    def _drop(self, key: str) -> None:
        value, _ = self._data.pop(key)
        self._size -= len(value)
