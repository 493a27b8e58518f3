"""The prefix registry on the memory store and on a real Redis, with two instances sharing it."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from ctxpress.middleware.prefixes import PrefixRegistry, prefix_id, tenant_of
from ctxpress.store import Keys, MemoryStore, Store

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
PROMPT = "You are Ops Copilot.   \r\n\r\n\r\nCite the runbook you rely on.\r\n"


@pytest.fixture(params=["memory", "redis"])
async def registries(
    request: pytest.FixtureRequest,
) -> AsyncIterator[tuple[PrefixRegistry, PrefixRegistry]]:
    """Two registries (two proxy instances) over one store."""
    keys = Keys(f"ctxpress-test-{uuid.uuid4().hex[:8]}")
    stores: list[Store]
    if request.param == "memory":
        shared = MemoryStore()
        stores = [shared, shared]
    else:
        from ctxpress.store.redis import RedisStore

        stores = [RedisStore(REDIS_URL), RedisStore(REDIS_URL)]
    yield PrefixRegistry(stores[0], keys), PrefixRegistry(stores[1], keys)
    for key in await stores[0].scan(keys.namespace + ":"):
        await stores[0].delete(key)
    for store in stores:
        await store.close()


async def test_register_is_canonical_and_idempotent(
    registries: tuple[PrefixRegistry, PrefixRegistry],
) -> None:
    a, b = registries
    entry, created = await a.register(PROMPT, tokens=12)
    assert created
    assert entry.text == "You are Ops Copilot.\n\nCite the runbook you rely on."
    assert entry.id == prefix_id(PROMPT) == prefix_id(entry.text)
    # The other instance sees the same entry; registering a variant finds it.
    again, created_again = await b.register(entry.text + "\n\n\n", tokens=12)
    assert not created_again and again.id == entry.id
    assert (await b.get(entry.id)) is not None


async def test_hits_and_warm_state(registries: tuple[PrefixRegistry, PrefixRegistry]) -> None:
    a, b = registries
    entry, _ = await a.register(PROMPT, tokens=12)
    await a.hit(entry.id)
    await b.hit(entry.id)
    await b.mark_warmed(entry.id, "replica-1")
    seen = await a.get(entry.id)
    assert seen is not None
    assert seen.hits == 2
    assert set(seen.warmed) == {"replica-1"}
    assert seen.public()["warmed_replicas"] == 1


async def test_tenants_see_only_their_own(
    registries: tuple[PrefixRegistry, PrefixRegistry],
) -> None:
    a, _ = registries
    alice, bob = tenant_of("sk-alice"), tenant_of("sk-bob")
    assert alice and bob and alice != bob and "sk-" not in alice
    shared, _ = await a.register("Shared prompt.", tokens=3)
    mine, _ = await a.register("Alice's prompt.", tokens=3, tenant=alice)
    await a.register("Bob's prompt.", tokens=3, tenant=bob)
    assert [e.id for e in await a.list(alice)] == [mine.id]
    assert [e.id for e in await a.list()] == [shared.id]
    assert await a.get(mine.id, tenant=bob) is None


async def test_unknown_id() -> None:
    registry = PrefixRegistry(MemoryStore(), Keys())
    assert await registry.get("0" * 32) is None
