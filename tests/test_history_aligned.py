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


def history_note(result: ctxpress.CompressResult) -> str:
    """The history stage's last note ("aligned: F frozen block(s) at level L, …")."""
    return next(s for s in result.stages if s.name == "history").notes[-1]


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
        layout = history_note(result).split(",")[0]  # "aligned: F frozen block(s) at level L"
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


def test_a_long_conversation_under_a_small_budget_stays_aligned() -> None:
    """Hundreds of frozen blocks under a budget too small to show any of them: the frozen
    region shrinks to one marker instead of abandoning the stable layout."""
    chat = ask(conversation(900), "What happened to ticket 1049?")
    config = Config(history_mode="aligned", history_block_tokens=128)
    result = ctxpress.compress(chat, budget=900, config=config, cache=MemoryCache())
    validate_messages(result.messages)
    assert result.tokens_after <= 900
    note = history_note(result)
    assert note.startswith("aligned:"), note
    assert alternates(result.messages) == alternates(chat)
    assert any(m is chat[-2] for m in result.messages)  # the newest turn is in the raw tail


def test_question_length_does_not_move_the_frozen_boundary() -> None:
    """The raw tail is sized without the question, so a long question after a short one
    keeps the same frozen blocks (and the engine's cached prefix)."""
    history = conversation(160)
    short, long_ = "Ticket 1049?", "What happened to ticket 1049 " + "and why " * 60 + "?"
    cache = MemoryCache()
    layouts = []
    for question in (short, long_):
        result = ctxpress.compress(ask(history, question), budget=1500, config=ALIGNED, cache=cache)
        assert result.tokens_after <= 1500
        layouts.append(history_note(result).split(",")[0])
    assert layouts[0] == layouts[1]
    assert layouts[0].startswith("aligned:")
