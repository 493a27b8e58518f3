"""History stage: keep the turns the model still needs, drop the rest, whole turns only.

When a request is over budget, every earlier unit (a message, or an assistant tool
call together with its tool results) is scored against the last user message:

* lexical: BM25 over stemmed words (bm25s), so names, numbers and rare words match;
* dense: cosine of embeddings (static model2vec by default, MiniLM on request),
  centred on the conversation's mean vector so the shared "who/when" part of every
  turn does not dominate; vectors are cached by content hash in ``ctx.cache``;
* neighbours: a unit inherits part of its best neighbour's score, since the answer
  usually sits next to the turn that matches, plus a share of the mean score of the
  units around it (a conversation stays on a topic for a while);
* recency: a small bonus for newer turns, and the newest turns are kept outright.

System messages, the last user message and an agent's current step (the tool calls
after it whose results end the request) are never dropped. Kept messages are the
caller's own dicts; each dropped run is replaced by a short ``[N earlier messages
omitted]`` message, placed so that alternating input stays alternating.
"""

from __future__ import annotations

import numpy as np

from ctxpress.compressor.history.aligned import aligned_history
from ctxpress.compressor.history.embed import embed_texts, load_embedder
from ctxpress.compressor.history.scoring import (
    FloatArray,
    bm25_scores,
    dense_scores,
    recency_scores,
    scale,
    spread_to_neighbours,
    topic_context,
)
from ctxpress.compressor.history.select import choose, fit, marker_text
from ctxpress.compressor.pipeline import Context
from ctxpress.config import Config
from ctxpress.messages import (
    Message,
    alternates,
    last_user_index,
    message_text,
    protected_indices,
)
from ctxpress.messages import tool_groups as _tool_groups

__all__ = ["HistoryStage", "score_units"]

# Kept-first bonus for the newest units when the exact fit must shed something.
_RECENT_BONUS = 10.0


def score_units(
    query: str,
    texts: list[str],
    config: Config,
    ctx: Context,
) -> FloatArray:
    """Relevance of each unit text to ``query`` (higher is better), oldest unit first."""
    n = len(texts)
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    lexical = scale(bm25_scores(query, texts))
    relevance = lexical
    embedder, note = load_embedder(config.history_embedder)
    if note:
        ctx.note(note)
    if embedder is not None and query.strip():
        vectors, computed = embed_texts(
            [*texts, query], embedder, ctx.cache, config.history_cache_ttl, config.namespace
        )
        docs, q = vectors[:n], vectors[n]
        if n > 1:  # centre on the conversation: what all turns share says nothing
            mean = docs.mean(axis=0)
            docs = docs - mean
            docs /= np.maximum(np.linalg.norm(docs, axis=1, keepdims=True), 1e-12)
            q = q - mean
            q /= max(float(np.linalg.norm(q)), 1e-12)
        dense = scale(dense_scores(q, docs))
        w = config.history_dense_weight
        relevance = (w * dense + (1 - w) * lexical).astype(np.float32)
        ctx.note(f"embedder {embedder.name}: {computed} of {n + 1} texts embedded, rest cached")
    relevance = spread_to_neighbours(relevance, config.history_neighbour_weight) + topic_context(
        relevance, config.history_context_radius, config.history_context_weight
    )
    recency = recency_scores(n, config.history_recency_half_life)
    return (relevance + config.history_recency_weight * recency).astype(np.float32)


class HistoryStage:
    """Semantic selection of earlier turns under the token budget (see module docstring)."""

    name = "history"
    over_budget_only = True

    def __init__(self, config: Config) -> None:
        self.config = config

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        if ctx.budget is None or not ctx.over_budget(messages):
            return list(messages)
        budget = ctx.budget
        last_user = last_user_index(messages)
        units: list[list[int]] = []
        protected: list[int] = []
        keep = protected_indices(messages)
        for group in _tool_groups(messages):
            if group[0] in keep:  # (a tool step is protected whole or not at all)
                protected.extend(group)
            else:
                units.append(group)
        count = ctx.counter.messages
        floor = count([messages[i] for i in sorted(protected)])
        if floor > budget:
            ctx.note(
                f"protected messages alone need {floor} tokens > budget {budget}; kept only them"
            )
            return [messages[i] for i in sorted(protected)]
        costs = [sum(ctx.counter.message(messages[i]) for i in unit) for unit in units]
        texts = ["\n".join(message_text(messages[i]) for i in unit) for unit in units]
        query = message_text(messages[last_user]) if last_user is not None else ""
        scores = score_units(query, texts, self.config, ctx)
        use_markers = self.config.history_markers
        marker_cost = (
            ctx.counter.message({"role": "user", "content": marker_text(len(messages))})
            if use_markers
            else 0
        )
        if self.config.history_mode == "aligned" and units:
            aligned = aligned_history(
                messages, units, texts, costs, scores, floor, ctx, self.config,
                alternating=alternates(messages), marker_cost=marker_cost,
            )  # fmt: skip
            if aligned is not None:
                return aligned
            ctx.note("aligned layout does not fit this request; relevance selection instead")
        keep_recent = self.config.history_keep_recent
        kept = choose(scores, costs, budget - floor, keep_recent, marker_cost)
        priority = scores.copy()
        priority[max(len(units) - keep_recent, 0) :] += _RECENT_BONUS
        out, tokens = fit(
            messages,
            units,
            kept,
            priority,
            budget,
            count,
            alternating=alternates(messages),
            last_user=last_user,
            markers=use_markers,
        )
        if tokens > budget:  # only markers left over budget: drop them too
            out = [messages[i] for i in sorted(protected)]
        survivors = {id(m) for m in out}
        dropped = sum(id(m) not in survivors for m in messages)
        ctx.note(f"dropped {dropped} of {len(messages)} messages ({len(units)} candidate units)")
        return out
