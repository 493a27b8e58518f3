"""Affinity routing: stable, spread, bounded, and identical on independent instances."""

from __future__ import annotations

from collections import Counter

import pytest

from ctxpress.middleware.affinity import affinity_key, choose, rendezvous

REPLICAS = [f"http://replica-{i}:8000/v1" for i in range(1, 5)]


def pick(key: str, loads: dict[str, int], epsilon: float = 0.25) -> str:
    return choose(key, list(loads), name=lambda r: r, load=loads.__getitem__, epsilon=epsilon)


def test_same_key_same_replica_and_instances_agree() -> None:
    idle = dict.fromkeys(REPLICAS, 0)
    shuffled = dict.fromkeys(reversed(REPLICAS), 0)  # another instance lists them differently
    for i in range(50):
        key = affinity_key("llama-8b", f"prefix-{i}")
        assert pick(key, idle) == pick(key, idle) == pick(key, shuffled)


def test_keys_spread_over_replicas() -> None:
    idle = dict.fromkeys(REPLICAS, 0)
    counts = Counter(pick(affinity_key("m", f"p{i}"), idle) for i in range(4000))
    assert set(counts) == set(REPLICAS)
    assert max(counts.values()) < 1.2 * 1000


def test_removing_a_replica_moves_only_its_keys() -> None:
    keys = [affinity_key("m", f"p{i}") for i in range(2000)]
    before = {k: rendezvous(k, REPLICAS)[0] for k in keys}
    after = {k: rendezvous(k, REPLICAS[:-1])[0] for k in keys}
    moved = [k for k in keys if before[k] != after[k]]
    assert moved and all(before[k] == REPLICAS[-1] for k in moved)


def test_overloaded_preferred_replica_is_skipped() -> None:
    key = affinity_key("m", "hot-prefix")
    first, second = rendezvous(key, REPLICAS)[:2]
    loads = dict.fromkeys(REPLICAS, 2)
    assert pick(key, loads) == first
    loads[first] = 9  # mean (9+2+2+2+1)/4 = 4, bound 5 with epsilon 0.25
    assert pick(key, loads) == second


def test_bounded_load_under_one_hot_key() -> None:
    loads = dict.fromkeys(REPLICAS, 0)
    for _ in range(400):
        loads[pick(affinity_key("m", "one-hot-prefix"), loads, epsilon=0.25)] += 1
    assert max(loads.values()) <= 1.25 * 100 + 1


def test_no_replicas_is_an_error() -> None:
    with pytest.raises(ValueError):
        choose("k", [], name=str, load=lambda _r: 0)
