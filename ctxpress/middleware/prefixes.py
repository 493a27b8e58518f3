"""The prefix registry: canonical system prompts stored once, by content hash.

A registered prompt gets a stable id (the SHA-256 of its canonical form), so
clients may send just ``"ctxpress": {"prefix": "<id>"}`` and every instance
expands it to the same bytes. Entries count their hits and remember which
replicas were warmed, which drives warm-up while a prefix stays hot. With proxy
API keys, entries are scoped per tenant (a hash of the key).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ctxpress.compressor.system import canonicalize
from ctxpress.store import Keys, Store, digest

_WARM = "warm:"


@dataclass(frozen=True)
class PrefixEntry:
    id: str
    text: str
    tokens: int
    first_seen: float
    last_seen: float
    hits: int
    warmed: dict[str, float] = field(default_factory=dict)  # replica id -> time warmed

    def public(self) -> dict[str, object]:
        """The JSON shape of ``GET /v1/prefixes`` (the text included: it is the caller's own)."""
        return {
            "id": self.id,
            "object": "ctxpress.prefix",
            "text": self.text,
            "tokens": self.tokens,
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
            "hits": self.hits,
            "warmed_replicas": len(self.warmed),
        }


def prefix_id(text: str) -> str:
    """The id of a system prompt: a hash of its canonical form."""
    return digest(canonicalize(text))


def tenant_of(api_key: str | None) -> str | None:
    return digest(api_key, size=8) if api_key else None


def _entry(pid: str, raw: dict[str, str]) -> PrefixEntry:
    return PrefixEntry(
        id=pid,
        text=raw["text"],
        tokens=int(raw.get("tokens", "0")),
        first_seen=float(raw.get("first_seen", "0")),
        last_seen=float(raw.get("last_seen", "0")),
        hits=int(raw.get("hits", "0")),
        warmed={k[len(_WARM) :]: float(v) for k, v in raw.items() if k.startswith(_WARM)},
    )


class PrefixRegistry:
    """Registry operations on any :class:`~ctxpress.store.base.Store`."""

    def __init__(self, store: Store, keys: Keys, ttl: float = 7 * 86400) -> None:
        self.store, self.keys, self.ttl = store, keys, ttl

    async def register(
        self, text: str, tokens: int, tenant: str | None = None
    ) -> tuple[PrefixEntry, bool]:
        """Store ``text`` in canonical form; return the entry and whether it was new."""
        canonical = canonicalize(text)
        pid = digest(canonical)
        key = self.keys.prefix(pid, tenant)
        now = time.time()
        raw = await self.store.hgetall(key)
        created = not raw
        if created:
            raw = {"text": canonical, "tokens": str(tokens), "first_seen": str(now), "hits": "0"}
        raw["last_seen"] = str(now)
        await self.store.hset(key, raw, ttl=self.ttl)
        return _entry(pid, raw), created

    async def get(self, pid: str, tenant: str | None = None) -> PrefixEntry | None:
        raw = await self.store.hgetall(self.keys.prefix(pid, tenant))
        return _entry(pid, raw) if raw.get("text") is not None else None

    async def hit(self, pid: str, tenant: str | None = None) -> None:
        """Count one use; refreshes the TTL so a used prefix never expires."""
        key = self.keys.prefix(pid, tenant)
        await self.store.hincrby(key, "hits")
        await self.store.hset(key, {"last_seen": str(time.time())}, ttl=self.ttl)

    async def mark_warmed(self, pid: str, replica: str, tenant: str | None = None) -> None:
        await self.store.hset(self.keys.prefix(pid, tenant), {_WARM + replica: str(time.time())})

    async def list(self, tenant: str | None = None) -> list[PrefixEntry]:
        """This tenant's entries (or the shared ones), most used first."""
        base = self.keys.prefixes(tenant)
        entries = []
        for key in await self.store.scan(base):
            pid = key[len(base) :]
            if ":" in pid:  # another tenant's entry under the shared scan prefix
                continue
            entry = await self.get(pid, tenant)
            if entry is not None:
                entries.append(entry)
        return sorted(entries, key=lambda e: (-e.hits, e.id))
