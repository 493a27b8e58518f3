"""Where ctxpress keeps state: the in-memory default and (for the proxy) Redis."""

from ctxpress.store.base import Cache
from ctxpress.store.memory import MemoryCache

__all__ = ["Cache", "MemoryCache"]
