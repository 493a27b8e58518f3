"""Cache-aligned history: consecutive turns share their prompt prefix; instances agree."""

from __future__ import annotations

import os
import uuid
from typing import Any

import ctxpress
from ctxpress.config import Config
from ctxpress.messages import alternates, validate_messages
from ctxpress.store import MemoryCache

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
TOPICS = ["invoice", "replica", "rollout", "alert", "budget", "ticket", "cluster", "backup"]


def conversation(turns: int) -> list[dict[str, Any]]:
    """A long alternating chat with distinct facts per turn (numbers, names, topics)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are the ops assistant."}]
    for i in range(turns):
        topic = TOPICS[i % len(TOPICS)]
        role = "user" if i % 2 == 0 else "assistant"
        text = (
            f"Turn {i}: the {topic} number {1000 + 7 * i} was handled by Dana on day {i % 28 + 1}; "
            f"details about {topic} follow with some filler words to make the turn longer "
            f"({'alpha beta gamma delta ' * (1 + i % 3)})."
        )
        out.append({"role": role, "content": text})
    return out


def ask(history: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    return [*history, {"role": "user", "content": question}]


def common_prefix(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


ALIGNED = Config(history_mode="aligned", history_block_tokens=256)


def test_next_turn_repeats_the_previous_prompt_up_to_its_tail() -> None:
    """Replay a growing chat: unless a block was just frozen (or the level rose), request
    N+1 repeats request N up to the end of N's raw tail, so the engine's cache hits."""
    cache = MemoryCache()
    history = conversation(170)
    budget, stable_pairs = 1500, 0
    previous = None
    for turns in range(120, 170, 2):
        chat = ask(history[: turns + 1], f"What happened to ticket {1000 + 7 * (turns - 60)}?")
        result = ctxpress.compress(chat, budget=budget, config=ALIGNED, cache=cache)
        validate_messages(result.messages)
        assert result.tokens_after <= budget < result.tokens_before
        assert alternates(result.messages) == alternates(chat)
        layout = (
            result.stages[-1].notes[-1].split(",")[0]
        )  # "aligned: F frozen block(s) at level L"
        assert layout.startswith("aligned:")
        if previous is not None and previous[0] == layout:
            shared = common_prefix(previous[1].messages, result.messages)
            assert previous[1].messages[shared - 1] is previous[2][-2]  # whole raw tail shared
            assert ctxpress.count_tokens(result.messages[:shared]) >= 0.5 * result.tokens_after
            stable_pairs += 1
        previous = (layout, result, chat)
    assert stable_pairs >= 15  # freezes and level changes are the rare exception


def test_relevant_old_turn_is_recalled_after_the_stable_prefix() -> None:
    history = conversation(160)
    question = "What was the backup number 1000 + 7 * 7 = 1049 about?"
    result = ctxpress.compress(
        ask(history, question), budget=1500, config=ALIGNED, cache=MemoryCache()
    )
    kept = [m for m in result.messages if m in history]
    target = history[8]  # turn 7: backup 1049
    assert "1049" in target["content"]
    assert target in result.messages
    # Kept originals are the caller's own dicts, byte-identical.
    assert all(any(m is h for h in history) for m in kept)


def test_frozen_blocks_are_identical_across_instances_sharing_redis() -> None:
    from ctxpress.store.redis import RedisCache

    namespace = f"t{uuid.uuid4().hex[:8]}"
    config = Config(history_mode="aligned", history_block_tokens=256, namespace=namespace)
    chat = ask(conversation(140), "Which ticket did Dana close?")
    a = ctxpress.compress(chat, budget=1200, config=config, cache=RedisCache(REDIS_URL))
    b = ctxpress.compress(chat, budget=1200, config=config, cache=RedisCache(REDIS_URL))
    c = ctxpress.compress(chat, budget=1200, config=config, cache=MemoryCache())
    assert a.messages == b.messages == c.messages
    import redis

    r = redis.Redis.from_url(REDIS_URL)
    blocks = list(r.scan_iter(f"{namespace}:block:*"))
    assert blocks
    r.delete(*blocks, *r.scan_iter(f"{namespace}:*"))
    r.close()


def test_under_budget_passes_through_and_tiny_budget_keeps_protected() -> None:
    chat = ask(conversation(6), "ok?")
    result = ctxpress.compress(chat, budget=10_000, config=ALIGNED)
    assert result.messages == chat
    tiny = ctxpress.compress(ask(conversation(60), "ok?"), budget=40, config=ALIGNED)
    assert tiny.messages[0]["role"] == "system" and tiny.messages[-1]["content"] == "ok?"
