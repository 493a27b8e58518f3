"""Every store key in one place: namespaced, built from hashes and config, never raw user text.

``{ns}:prefix:*`` holds only registry hashes; helper keys (locks, counters) live
under other prefixes. Keys whose value depends on an algorithm carry its version,
so a changed algorithm never reads stale entries.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


def digest(data: str | bytes, size: int = 16) -> str:
    """A short hex SHA-256: content ids, tenant ids, cache keys."""
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()[: 2 * size]


@dataclass(frozen=True)
class Keys:
    namespace: str = "ctxpress"

    def prefix(self, prefix_id: str, tenant: str | None = None) -> str:
        scope = f"{tenant}:" if tenant else ""
        return f"{self.namespace}:prefix:{scope}{prefix_id}"

    def prefixes(self, tenant: str | None = None) -> str:
        """The scan prefix of one tenant's registry (or the shared one)."""
        return f"{self.namespace}:prefix:{tenant}:" if tenant else f"{self.namespace}:prefix:"

    def embedding(self, model: str, version: str, text_sha: str) -> str:
        return f"{self.namespace}:emb:{model}:{version}:{text_sha}"

    def block(self, version: str, span_sha: str) -> str:
        return f"{self.namespace}:block:{version}:{span_sha}"

    def lock(self, *parts: str) -> str:
        return f"{self.namespace}:lock:" + ":".join(parts)
