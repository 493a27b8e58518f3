"""The compression pipeline: stages run in order, each timed, checked and fail-open.

A stage is anything with a ``name`` and a ``run(messages, ctx)`` that returns a new
message list. The pipeline guards the contract every stage shares: a stage that
raises, or returns messages that are invalid or lose a protected message, is
skipped and its input passes through; the report says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from operator import is_
from typing import Any, Protocol

from ctxpress.config import Config
from ctxpress.messages import SYSTEM_ROLES, Message, last_user_index, validate_messages
from ctxpress.store import Cache, MemoryCache
from ctxpress.tokens import TokenCounter, get_counter

# The process-wide cache used when the caller hands none (embeddings, frozen blocks).
DEFAULT_CACHE = MemoryCache()


@dataclass
class Context:
    """What a stage may use besides the messages: budget, tokenizer, config, cache."""

    budget: int | None
    counter: TokenCounter
    config: Config
    cache: Cache
    model: str | None = None
    notes: list[str] = field(default_factory=list)
    after: tuple[str, ...] = ()  # the stages still to run: a stage may leave work to them

    def note(self, text: str) -> None:
        """Record a short, prompt-free remark for this stage's report."""
        self.notes.append(text)

    def over_budget(self, messages: Sequence[Message]) -> bool:
        return self.budget is not None and self.counter.messages(messages) > self.budget


class Stage(Protocol):
    """A step of the pipeline; one with ``over_budget_only = True`` is skipped while the
    request is within its budget."""

    name: str

    def run(self, messages: list[Message], ctx: Context) -> list[Message]: ...


@dataclass(frozen=True)
class StageReport:
    name: str
    tokens_before: int
    tokens_after: int
    ms: float
    error: str | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CompressResult:
    messages: list[Message]
    tokens_before: int
    tokens_after: int
    stages: tuple[StageReport, ...]
    budget: int | None = None

    @property
    def over_budget(self) -> bool:
        """True when even the protected part did not fit the budget."""
        return self.budget is not None and self.tokens_after > self.budget

    @property
    def fail_open(self) -> bool:
        """True when some stage failed and its input was passed through."""
        return any(s.error for s in self.stages)

    @property
    def ms(self) -> float:
        return sum(s.ms for s in self.stages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "messages": self.messages,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "budget": self.budget,
            "over_budget": self.over_budget,
            "fail_open": self.fail_open,
            "stages": [asdict(s) for s in self.stages],
        }


def _check_output(before: list[Message], after: Any) -> list[Message]:
    validate_messages(after)
    systems = sum(m.get("role") in SYSTEM_ROLES for m in before)
    if sum(m.get("role") in SYSTEM_ROLES for m in after) != systems:
        raise RuntimeError("stage changed the number of system messages")
    last_before, last_after = last_user_index(before), last_user_index(after)
    if (last_before is None) != (last_after is None) or (
        last_before is not None
        and last_after is not None
        and not _same_prose(before[last_before].get("content"), after[last_after].get("content"))
    ):
        raise RuntimeError("stage changed the last user message")
    return list(after)


def _same_prose(a: Any, b: Any) -> bool:
    """Equal, or equal outside fenced code blocks (the code stage may trim code anywhere)."""
    if a == b:
        return True
    from ctxpress.compressor.code.fences import outside_fences

    if isinstance(a, str) and isinstance(b, str):
        return outside_fences(a) == outside_fences(b)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            if x == y:
                continue
            if not (isinstance(x, dict) and isinstance(y, dict)) or x.keys() != y.keys():
                return False
            if any(x[k] != y[k] for k in x if k != "text") or not _same_prose(x["text"], y["text"]):
                return False
        return True
    return False


def run_stages(messages: list[Message], stages: Sequence[Stage], ctx: Context) -> CompressResult:
    """Run ``stages`` over validated ``messages``; never raises for a stage's fault."""
    tokens_before = ctx.counter.messages(messages)
    current, tokens, reports = messages, tokens_before, []
    for i, stage in enumerate(stages):
        ctx.notes = []
        ctx.after = tuple(s.name for s in stages[i + 1 :])
        if getattr(stage, "over_budget_only", False) and (
            ctx.budget is None or tokens <= ctx.budget
        ):  # it would only count the request to find nothing to do
            reports.append(StageReport(stage.name, tokens, tokens, 0.0, None, ()))
            continue
        start = time.perf_counter()
        error = None
        try:
            got = stage.run(list(current), ctx)
            if isinstance(got, list) and len(got) == len(current) and all(map(is_, got, current)):
                out = current  # the input's own messages, all of them: nothing to check
            else:
                out = _check_output(current, got)
        except Exception as exc:  # fail-open: any stage fault passes its input through
            out, error = current, f"{type(exc).__name__}: {exc}"
        ms = (time.perf_counter() - start) * 1000
        after = ctx.counter.messages(out) if out is not current else tokens
        reports.append(StageReport(stage.name, tokens, after, ms, error, tuple(ctx.notes)))
        current, tokens = out, after
    return CompressResult(current, tokens_before, tokens, tuple(reports), ctx.budget)


def build_stages(names: Sequence[str], config: Config) -> list[Stage]:
    """Instantiate stages by name from the registry in :mod:`ctxpress.compressor`."""
    from ctxpress.compressor import STAGES

    unknown = [n for n in names if n not in STAGES]
    if unknown:
        raise ValueError(f"unknown stage(s) {unknown}; known: {sorted(STAGES)}")
    stages: list[Stage] = []
    for name in names:
        try:
            stages.append(STAGES[name](config))
        except Exception as exc:  # e.g. a missing optional dependency: fail open at run time
            stages.append(_Unavailable(name, exc))
    return stages


class _Unavailable:
    """A stage that could not be built; running it re-raises, so the pipeline skips it."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name, self.error = name, error

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        raise self.error


def compress(
    messages: list[Message],
    budget: int | None = None,
    model: str | None = None,
    config: Config | None = None,
    *,
    stages: Sequence[str] | None = None,
    cache: Cache | None = None,
) -> CompressResult:
    """Compress an OpenAI ``messages`` list to ``budget`` prompt tokens.

    Raises ``ValueError`` for invalid messages; a failing stage never raises (fail-open).
    ``stages`` and ``cache`` let the proxy pick stages per request and share its store.
    """
    config = config or Config()
    validate_messages(messages)
    if budget is not None and (not isinstance(budget, int) or budget < 1):
        raise ValueError("budget: must be a positive integer")
    ctx = Context(
        budget=budget if budget is not None else config.budget,
        counter=get_counter(model, config),
        config=config,
        cache=cache if cache is not None else DEFAULT_CACHE,
        model=model,
    )
    return run_stages(messages, build_stages(stages or config.stages, config), ctx)


StageFactory = Callable[[Config], Stage]
