"""Prefix affinity: the same (model, prefix) goes to the same replica, on every proxy instance.

Rendezvous hashing ranks replicas by a hash of (key, replica) alone, so proxy
instances agree without talking and adding or removing a replica moves only the
keys it owned. A replica over (1 + epsilon) times the mean load is skipped for
the next in rank (consistent hashing with bounded loads), so a hot prefix cannot
pile onto one replica.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def _rank(key: str, name: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{key}\x00{name}".encode(), digest_size=8).digest())


def rendezvous(key: str, names: Sequence[str]) -> list[str]:
    """``names`` from most to least preferred for ``key``."""
    return sorted(names, key=lambda name: _rank(key, name), reverse=True)


def choose(
    key: str,
    replicas: Sequence[T],
    name: Callable[[T], str],
    load: Callable[[T], int],
    epsilon: float = 0.25,
) -> T:
    """The preferred replica for ``key`` whose load stays within the bound after this request."""
    if not replicas:
        raise ValueError("no replicas to choose from")
    by_name = {name(r): r for r in replicas}
    bound = math.ceil((1 + epsilon) * (sum(load(r) for r in replicas) + 1) / len(replicas))
    for candidate in rendezvous(key, list(by_name)):
        if load(by_name[candidate]) + 1 <= bound:
            return by_name[candidate]
    return min(replicas, key=load)  # unreachable while bound >= mean + 1; kept as a guard


def affinity_key(model: str, prefix_id: str) -> str:
    return f"{model}\x00{prefix_id}"
