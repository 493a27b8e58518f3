"""One behaviour suite for the in-memory and the Redis store; degrade and recover on faults."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from ctxpress.store import Keys, MemoryCache, MemoryStore, Store, digest, open_backends

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Store, Keys]]:
    keys = Keys(f"ctxpress-test-{uuid.uuid4().hex[:8]}")
    if request.param == "memory":
        backend: Store = MemoryStore()
    else:
        from ctxpress.store.redis import RedisStore

        backend = RedisStore(REDIS_URL)
    yield backend, keys
    for key in await backend.scan(keys.namespace + ":"):
        await backend.delete(key)
    await backend.close()


async def test_values_and_ttl(store: tuple[Store, Keys]) -> None:
    s, keys = store
    key = keys.block("v1", digest("span"))
    assert await s.get(key) is None
    await s.set(key, b"frozen bytes")
    assert await s.get(key) == b"frozen bytes"
    await s.set(key, b"short", ttl=0.05)
    await asyncio.sleep(0.15)
    assert await s.get(key) is None


async def test_set_nx_is_a_lock(store: tuple[Store, Keys]) -> None:
    s, keys = store
    lock = keys.lock("warm", "replica-a", "p1")
    assert await s.set_nx(lock, b"instance-1", ttl=5)
    assert not await s.set_nx(lock, b"instance-2", ttl=5)
    await s.delete(lock)
    assert await s.set_nx(lock, b"instance-2", ttl=5)


async def test_hashes_counters_and_scan(store: tuple[Store, Keys]) -> None:
    s, keys = store
    a, b = keys.prefix("aaaa"), keys.prefix("bbbb", tenant="t1")
    await s.hset(a, {"text": "You are terse.", "hits": "0"}, ttl=60)
    await s.hset(b, {"text": "Other tenant."})
    assert await s.hincrby(a, "hits") == 1
    assert await s.hincrby(a, "hits", 2) == 3
    await s.hset(a, {"last_seen": "12.5"})
    assert await s.hgetall(a) == {"text": "You are terse.", "hits": "3", "last_seen": "12.5"}
    assert await s.hgetall(keys.prefix("missing")) == {}
    assert await s.scan(keys.prefixes("t1")) == [b]
    assert set(await s.scan(keys.prefixes())) == {a, b}
    # hset without ttl keeps the key's expiry; hset with ttl replaces it
    await s.hset(a, {"x": "1"}, ttl=0.05)
    await s.hincrby(a, "hits")
    await asyncio.sleep(0.15)
    assert await s.hgetall(a) == {}


def test_memory_cache_is_bounded_lru() -> None:
    cache = MemoryCache(max_bytes=10)
    cache.set_many({"a": b"12345", "b": b"12345"})
    cache.get_many(["a"])  # a is now most recent
    cache.set_many({"c": b"123"})
    assert cache.get_many(["a", "b", "c"]) == [b"12345", None, b"123"]


def test_memory_store_is_bounded() -> None:
    store = MemoryStore(max_keys=2)

    async def fill() -> list[bytes | None]:
        for k in "xyz":
            await store.set(k, k.encode())
        return [await store.get(k) for k in "xyz"]

    assert asyncio.run(fill()) == [None, b"y", b"z"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A private redis-server the test may stop and restart on the same port."""

    def __init__(self, binary: str) -> None:
        self.binary, self.port = binary, _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        self.proc = subprocess.Popen(
            [*cmd, "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(binary)
    server.start()
    yield server
    server.stop()


async def test_redis_outage_degrades_to_memory_and_recovers(own_redis: RedisServer) -> None:
    store, cache = open_backends(own_redis.url)
    breaker = store.breaker  # type: ignore[attr-defined]
    breaker.retry_after = 0.2
    await store.set("k", b"in redis")
    cache.set_many({"e": b"vector"})
    assert await store.get("k") == b"in redis"
    assert cache.get_many(["e"]) == [b"vector"]
    assert breaker.failures == 0

    own_redis.stop()
    # Requests keep working on memory; the failure is counted.
    await store.set("k", b"in memory")
    assert await store.get("k") == b"in memory"
    assert cache.get_many(["e"]) == [None]
    assert breaker.failures >= 1

    own_redis.start()
    deadline = time.monotonic() + 5
    recovered = False
    while time.monotonic() < deadline and not recovered:
        await asyncio.sleep(0.25)
        await store.set("k2", b"back in redis")
        recovered = breaker.healthy and await store.get("k2") == b"back in redis"
    assert recovered
    import redis

    direct = redis.Redis.from_url(own_redis.url)
    assert direct.get("k2") == b"back in redis"
    direct.close()
    await store.close()


async def test_a_redis_restart_between_requests_costs_no_fallback(own_redis: RedisServer) -> None:
    # every pooled connection is dead after the restart: the next commands reconnect
    # instead of sending the store to memory, where what was just written is unknown
    store, cache = open_backends(own_redis.url)
    breaker = store.breaker  # type: ignore[attr-defined]
    await store.set("k", b"before")
    cache.set_many({"e": b"vector"})
    own_redis.stop()
    own_redis.start()
    await store.set("k", b"after")
    assert await store.get("k") == b"after"
    cache.set_many({"e": b"again"})
    assert cache.get_many(["e"]) == [b"again"]
    assert breaker.failures == 0
    assert cache.breaker.failures == 0  # type: ignore[attr-defined]
    await store.close()
