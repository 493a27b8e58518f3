"""Cache-aligned history: older turns compressed in frozen blocks, so prefixes keep hitting.

Relevance selection picks different turns for every question, so the prompt of
turn N+1 shares almost nothing with turn N beyond the system prompt and the
engine's prefix cache misses. A sliding window misses too: it drops the oldest
turn at the front, and everything after it moves. This mode lays the prompt out as

    [system] [frozen blocks] [raw tail] [recalled turns] [question]

* History units are cut into blocks of about ``history_block_tokens`` from the
  start of the conversation. A complete block never changes: its boundaries depend
  only on the turns before it.
* The raw tail holds the newest turns verbatim, up to ``history_tail_share`` of the
  budget (measured without the question, so question length never moves it). When
  it outgrows that, its oldest blocks are frozen: the tail then restarts about one
  block smaller and grows again by appends only. Each freeze is one cache break per
  block of conversation; between freezes request N+1 repeats request N up to the
  end of its tail.
* Frozen blocks are rendered once at the current level (level L keeps about 2^-L
  of a run of 2^L blocks, its most informative whole units, chosen without looking
  at the question) within ``history_frozen_share`` of the budget, and stored under
  a hash of the original span, so every request and every proxy instance renders
  the same bytes. The level rises only when the frozen region outgrows its share;
  past the last level the frozen region is one omission marker.
* The question-specific part comes last: older units the prompt dropped that score
  higher than what it shows, within ``history_recall_share``, in original order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ctxpress.compressor.history.scoring import analyze
from ctxpress.compressor.history.select import assemble, choose
from ctxpress.compressor.pipeline import Context
from ctxpress.config import Config
from ctxpress.messages import Message
from ctxpress.store import Keys, digest

# Bump when the frozen rendering changes: old blocks must not be reused.
ALGO_VERSION = "aligned-1"
_MAX_LEVEL = 8
# Fills a role gap between recalled turns of alternating chats (no count: they are not a run).
RECALL_MARKER = "[earlier messages omitted]"


@dataclass(frozen=True)
class Layout:
    """Indices (into ``units``) of the blocks; the last one may still be open."""

    blocks: list[list[int]]
    complete: int  # how many leading blocks reached the block size


def cut_blocks(costs: Sequence[int], block_tokens: int) -> Layout:
    """Greedy blocks from the first unit: a block closes once it holds ``block_tokens``."""
    blocks: list[list[int]] = []
    current: list[int] = []
    size = complete = 0
    for i, cost in enumerate(costs):
        current.append(i)
        size += cost
        if size >= block_tokens:
            blocks.append(current)
            complete += 1
            current, size = [], 0
    if current:
        blocks.append(current)
    return Layout(blocks, complete)


def salience(text: str) -> float:
    """Question-independent information of a unit: distinct content words, numbers, names."""
    words = text.split()
    specific = sum(1 for w in words if w[:1].isupper() or any(c.isdigit() for c in w))
    return len(set(analyze(text))) + 0.5 * specific


def freeze_block(
    texts: Sequence[str], costs: Sequence[int], level: int, marker_cost: int
) -> list[bool]:
    """Which units of one block a level keeps: about 2^-level of its tokens, most salient.

    Marker-aware (:func:`select.choose`), so a frozen block never costs more than its
    share because of the omission markers its gaps need.
    """
    if level == 0:
        return [True] * len(costs)
    value = np.array(
        [salience(t) / max(c, 1) ** 0.5 for t, c in zip(texts, costs, strict=True)],
        dtype=np.float32,
    )
    target = int(sum(costs) / 2**level)
    return [bool(k) for k in choose(value, costs, target, 0, marker_cost)]


class FrozenBlocks:
    """Frozen renderings by hash of the original span, in the pipeline's cache."""

    def __init__(self, ctx: Context, config: Config, marker_cost: int) -> None:
        self.ctx, self.keys = ctx, Keys(config.namespace)
        self.ttl, self.marker_cost = config.history_cache_ttl, marker_cost

    def get(self, span: Sequence[str], costs: Sequence[int], level: int) -> list[bool]:
        key = self.keys.block(ALGO_VERSION, digest(json.dumps([level, list(span)])))
        (raw,) = self.ctx.cache.get_many([key])
        if raw is not None:
            stored = json.loads(raw)
            if isinstance(stored, list) and len(stored) == len(span):
                return [bool(k) for k in stored]
        keep = freeze_block(span, costs, level, self.marker_cost)
        self.ctx.cache.set_many({key: json.dumps(keep).encode()}, ttl=self.ttl)
        return keep


def _filled(extra: list[Message], before: str | None, after: str | None) -> list[Message]:
    """Alternating input: put a marker wherever two neighbours would share a role."""
    out: list[Message] = []
    prev = before
    for msg in [*extra, None]:
        role = msg["role"] if msg is not None else after
        if prev is not None and role == prev:
            other = "assistant" if role == "user" else "user"
            out.append({"role": other, "content": RECALL_MARKER})
        if msg is not None:
            out.append(msg)
        prev = role
    return out


def aligned_history(
    messages: Sequence[Message],
    units: Sequence[Sequence[int]],
    texts: Sequence[str],
    costs: Sequence[int],
    scores: np.ndarray,
    floor: int,
    ctx: Context,
    config: Config,
    *,
    alternating: bool,
    marker_cost: int,
) -> list[Message] | None:
    """The cache-aligned prompt within ``ctx.budget``, or None when the layout cannot fit.

    ``floor`` is what the protected messages cost (priming included); the caller falls
    back to plain relevance selection on None (e.g. one huge recent turn).
    """
    assert ctx.budget is not None
    available = ctx.budget - floor
    first, end = units[0][0], units[-1][-1] + 1
    # Shares of the budget without the question, so a longer or shorter question does
    # not move the frozen boundary (and break the cache) from one request to the next.
    base = available + sum(ctx.counter.message(m) for m in messages[end:])
    frozen_budget = int(base * config.history_frozen_share)
    tail_budget = min(int(base * config.history_tail_share), base - frozen_budget)
    layout = cut_blocks(costs, config.history_block_tokens)
    frozen, suffix = 0, sum(costs)
    while suffix > tail_budget and frozen < layout.complete:
        suffix -= sum(costs[i] for i in layout.blocks[frozen])
        frozen += 1
    store = FrozenBlocks(ctx, config, marker_cost)
    while True:
        tail = units[layout.blocks[frozen][0]][0] if frozen < len(layout.blocks) else end
        history, keep_units, level = _frozen_history(
            messages, units, texts, costs, layout, frozen, tail, store, frozen_budget,
            ctx, config, alternating=alternating,
        )  # fmt: skip
        history += messages[tail:end]
        history_cost = sum(ctx.counter.message(m) for m in history)
        if history_cost <= available:
            break
        if frozen >= layout.complete:  # e.g. one huge recent turn
            return None
        frozen += 1  # a question too long for this tail: freeze one more block
    # The recalled part is new to the engine on every request: cap it at its share
    # rather than fill the budget (tokens not sent cost nothing), and recall only turns
    # that beat what the prompt already shows.
    room = min(available - history_cost, int(base * config.history_recall_share))
    room -= 2 * marker_cost
    shown = max((float(s) for s, k in zip(scores, keep_units, strict=True) if k), default=0.0)
    floor_score = max(
        config.history_recall_min_score * float(scores.max(initial=0.0)),
        config.history_recall_vs_shown * shown,
    )
    recalled: list[int] = []
    for i in np.argsort(-scores, kind="stable"):
        if scores[i] < floor_score:
            break
        if not keep_units[i] and costs[i] + (marker_cost if alternating else 0) <= room:
            recalled.append(int(i))
            room -= costs[i] + (marker_cost if alternating else 0)
    recalled.sort(key=lambda u: scores[u])  # weakest first, for the exact fit below
    while True:
        extra = [messages[i] for u in sorted(recalled) for i in units[u]]
        if alternating:
            before = history[-1]["role"] if history else None
            after = messages[end]["role"] if end < len(messages) else None
            extra = _filled(extra, before, after)
        out = [*messages[:first], *history, *extra, *messages[end:]]
        if ctx.counter.messages(out) <= ctx.budget:
            break
        if not recalled:
            return None
        recalled.pop(0)
    ctx.note(
        f"aligned: {frozen} frozen block(s) at level {level}, "
        f"{keep_units.count(False)} unit(s) condensed, {len(recalled)} recalled for the query"
    )
    return out


def _frozen_history(
    messages: Sequence[Message],
    units: Sequence[Sequence[int]],
    texts: Sequence[str],
    costs: Sequence[int],
    layout: Layout,
    frozen: int,
    tail: int,
    store: FrozenBlocks,
    frozen_budget: int,
    ctx: Context,
    config: Config,
    *,
    alternating: bool,
) -> tuple[list[Message], list[bool], int]:
    """The first ``frozen`` blocks rendered at the lowest level that fits ``frozen_budget``.

    Which units a level group keeps depends only on that group, so the bytes of earlier
    groups never depend on the blocks after them. Past the last level every frozen unit
    is omitted (one marker): a long conversation under a small budget still gets a
    stable, cache-aligned layout.
    """
    first = units[0][0]
    keep_units = [True] * len(units)
    for level in range(_MAX_LEVEL + 2):
        size = 2**level
        whole = frozen - frozen % size
        # Level L renders runs of 2^L blocks to about one block's worth of tokens each,
        # so granularity stays at whole turns. The blocks after the last complete run are
        # rendered one by one, so freezing one more block leaves the earlier bytes alone.
        groups = [
            [u for block in layout.blocks[k : k + size] for u in block]
            for k in range(0, whole, size)
        ] + [layout.blocks[k] for k in range(whole, frozen)]
        if level > _MAX_LEVEL:
            groups = [[u for block in layout.blocks[:frozen] for u in block]] if frozen else []
        for group in groups:
            flags = (
                store.get([texts[i] for i in group], [costs[i] for i in group], level)
                if level <= _MAX_LEVEL
                else [False] * len(group)
            )
            for i, flag in zip(group, flags, strict=True):
                keep_units[i] = flag
        keep = _message_mask(len(messages), units, keep_units)
        # One pass over the whole frozen span: a run of omitted turns across block
        # boundaries is one marker. Only the region's end can change when a block is
        # frozen, and a freeze breaks the cache from there anyway (the tail moves).
        # last_user past the span: every marker in history is a user-side one.
        history = assemble(
            messages[first:tail],
            keep[first:tail],
            alternating=alternating,
            last_user=tail,
            markers=config.history_markers,
        )
        if sum(ctx.counter.message(m) for m in history) <= frozen_budget:
            break
    return history, keep_units, level


def _message_mask(n: int, units: Sequence[Sequence[int]], keep_units: Sequence[bool]) -> np.ndarray:
    keep = np.ones(n, dtype=bool)
    for unit, k in zip(units, keep_units, strict=True):
        if not k:
            keep[list(unit)] = False
    return keep
