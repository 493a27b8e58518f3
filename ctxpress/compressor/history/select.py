"""Choose whole units (a message, or a tool call with its results) under a token budget.

The newest units are kept first, then the best-scoring older ones; every choice
pays for the omission markers it creates or removes, because at tight budgets the
markers of many small gaps cost as much as the turns themselves. The output walks
the original order: kept messages are the caller's own dicts, and each dropped run
becomes at most one short marker message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ctxpress.messages import SYSTEM_ROLES, Message

MARKER_TEMPLATE = "[{n} earlier {noun} omitted]"


def marker_text(n: int) -> str:
    """The omission marker for a run of ``n`` dropped messages (always under 200 chars)."""
    return MARKER_TEMPLATE.format(n=n, noun="message" if n == 1 else "messages")


@dataclass(frozen=True)
class Plan:
    """Which units survive, and what the result costs."""

    kept: npt.NDArray[np.bool_]
    tokens: int


def choose(
    scores: npt.NDArray[np.float32],
    costs: Sequence[int],
    available: int,
    keep_recent: int,
    marker_cost: int,
) -> npt.NDArray[np.bool_]:
    """Greedy selection by score with marker-aware costs; units are indexed oldest first.

    ``available`` is what the units and their markers may cost together. The newest
    ``keep_recent`` units are taken first, newest backwards, while they fit.
    """
    n = len(costs)
    kept = np.zeros(n, dtype=bool)
    if n == 0:
        return kept
    used = marker_cost  # everything dropped: one run, one marker
    for i in range(n - 1, max(n - 1 - keep_recent, -1), -1):
        delta = costs[i] - (marker_cost if i == 0 else 0)
        if used + delta > available:
            break
        kept[i] = True
        used += delta
    for i in np.argsort(-scores, kind="stable"):
        if kept[i]:
            continue
        gap_left = i > 0 and not kept[i - 1]
        gap_right = i < n - 1 and not kept[i + 1]
        # Keeping i splits a run (+1 marker), trims one (0) or closes a one-unit gap (-1).
        delta = costs[i] + marker_cost * (
            int(gap_left and gap_right) - int(not (gap_left or gap_right))
        )
        if used + delta <= available:
            kept[i] = True
            used += delta
    return kept


def assemble(
    messages: Sequence[Message],
    keep: Sequence[bool] | npt.NDArray[np.bool_],
    *,
    alternating: bool,
    last_user: int | None,
    markers: bool = True,
) -> list[Message]:
    """The kept messages in order, with one marker per dropped run where roles allow.

    If the input alternates user/assistant, a run of odd length is replaced by one
    marker in the role of its first (= last) message and an even run by nothing, so
    the output alternates too. Otherwise the marker takes the role opposite to the
    message before it, but is never a ``user`` message after the last user message
    (which must stay the last user turn) or in a chat without one.
    """
    out: list[Message] = []
    i, n = 0, len(messages)
    while i < n:
        if keep[i]:
            out.append(messages[i])
            i += 1
            continue
        start = i
        while i < n and not keep[i]:
            i += 1
        count = i - start
        if not markers:
            continue
        if alternating:
            if count % 2 == 1:
                out.append({"role": messages[start]["role"], "content": marker_text(count)})
        else:
            previous = next(
                (m["role"] for m in reversed(out) if m["role"] not in SYSTEM_ROLES), None
            )
            role = "user" if previous in ("assistant", "tool", "function") else "assistant"
            if previous is None:
                role = "user" if messages[start]["role"] == "user" else "assistant"
            if last_user is None or start > last_user:
                role = "assistant"  # a user marker would become the last user message
            out.append({"role": role, "content": marker_text(count)})
    return out


def fit(
    messages: Sequence[Message],
    units: Sequence[Sequence[int]],
    kept_units: npt.NDArray[np.bool_],
    scores: npt.NDArray[np.float32],
    budget: int,
    count: Callable[[Sequence[Message]], int],
    *,
    alternating: bool,
    last_user: int | None,
    markers: bool = True,
) -> tuple[list[Message], int]:
    """Assemble, then drop the weakest kept units until the exact count fits the budget.

    The greedy choice estimates marker costs; this exact pass guarantees the budget.
    """
    kept_units = kept_units.copy()
    keep = np.ones(len(messages), dtype=bool)
    for unit, k in zip(units, kept_units, strict=True):
        if not k:
            keep[list(unit)] = False
    order = [int(u) for u in np.argsort(scores, kind="stable") if kept_units[u]]
    while True:
        out = assemble(
            messages, keep, alternating=alternating, last_user=last_user, markers=markers
        )
        tokens = count(out)
        if tokens <= budget or not order:
            return out, tokens
        weakest = order.pop(0)
        keep[list(units[weakest])] = False
