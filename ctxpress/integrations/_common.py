"""What every integration shares: per-call control, fail-open compression, the report.

The integrations only call the public API (:func:`ctxpress.compress`), so they work
with whatever stages the installed ctxpress has. A framework's call must never break
because ctxpress could not read its messages: anything ``compress`` rejects is sent
on unchanged, exactly as the unwrapped object would have sent it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import ctxpress
from ctxpress.compressor.pipeline import CompressResult
from ctxpress.config import Config
from ctxpress.messages import Message, validate_messages
from ctxpress.store import Cache

log = logging.getLogger("ctxpress.integrations")

CONTROL_KEY = "ctxpress"
CONTROL_HEADER = "x-ctxpress"

OnCompress = Callable[[CompressResult], None]
T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    """How a wrapped object compresses: the arguments of :func:`ctxpress.compress`.

    ``context_length``, when known, gives the budget the proxy would use when none is
    set: the model's context length minus the request's completion-token reserve.
    ``on_compress`` sees every report (safe under concurrency, unlike a "last" field).
    """

    budget: int | None = None
    stages: tuple[str, ...] | None = None
    config: Config | None = None
    cache: Cache | None = None
    model: str | None = None
    context_length: int | None = None
    enabled: bool = True
    on_compress: OnCompress | None = field(default=None, compare=False)

    def with_control(self, control: Any) -> Options:
        """These options overridden by a per-call ``ctxpress`` value (the proxy's body field).

        ``None`` changes nothing; ``False`` or ``"off"`` turns compression off;
        a mapping may set ``budget``, ``stages`` and ``enabled``.
        """
        if control is None or control is True:
            return self
        if control is False or control == "off":
            return replace(self, enabled=False)
        if not isinstance(control, Mapping):
            raise TypeError(
                "ctxpress: expected None, False, 'off' or {'budget': N, 'stages': [..]}"
            )
        unknown = set(control) - {"budget", "stages", "enabled"}
        if unknown:
            raise TypeError(f"ctxpress: unknown key(s) {sorted(unknown)}")
        budget = control.get("budget", self.budget)
        if budget is not None and (not isinstance(budget, int) or isinstance(budget, bool)):
            raise TypeError("ctxpress.budget: must be a positive integer")
        if budget is not None and budget < 1:
            raise ValueError("ctxpress.budget: must be a positive integer")
        stages = control.get("stages", self.stages)
        if stages is not None:
            if isinstance(stages, str) or not all(isinstance(s, str) for s in stages):
                raise TypeError("ctxpress.stages: must be a list of stage names")
            stages = tuple(stages)
        enabled = self.enabled and control.get("enabled", True) is not False
        return replace(self, budget=budget, stages=stages, enabled=enabled)

    def budget_for(self, reserve: Any = None) -> int | None:
        """The explicit budget, else context length minus ``reserve`` (completion tokens)."""
        if self.budget is not None or self.context_length is None:
            return self.budget
        spare = reserve if isinstance(reserve, int) and not isinstance(reserve, bool) else 0
        return max(1, self.context_length - max(spare, 0))


def header_off(headers: Mapping[str, Any] | None) -> bool:
    """Whether request headers carry the proxy's ``x-ctxpress: off``."""
    if not headers:
        return False
    return any(
        str(k).lower() == CONTROL_HEADER and str(v).strip().lower() == "off"
        for k, v in headers.items()
    )


def run(
    messages: list[Message], options: Options, *, reserve: Any = None, model: str | None = None
) -> CompressResult | None:
    """Compress ``messages`` per ``options``; ``None`` when off or ctxpress cannot read them.

    Invalid input is not ctxpress's to reject: the caller sends it unchanged and the
    engine answers with its own error, as it would without ctxpress.
    """
    if not options.enabled:
        return None
    try:
        validate_messages(messages)
    except ValueError as exc:
        log.debug("ctxpress: passing messages through unchanged: %s", exc)
        return None
    # As in the proxy: a bad budget or an unknown stage is the caller's mistake and
    # raises; any other fault (say, a stage's missing dependency) fails open.
    try:
        result = ctxpress.compress(
            messages,
            options.budget_for(reserve),
            options.model or model,
            options.config,
            stages=options.stages,
            cache=options.cache,
        )
    except ValueError:
        raise
    except Exception:
        log.exception("ctxpress: compression failed; sending the messages unchanged")
        return None
    if options.on_compress is not None:
        options.on_compress(result)
    return result


def restore(
    originals: Sequence[T],
    dicts: Sequence[Message],
    out: Sequence[Message],
    convert: Callable[[Message], T],
) -> list[T]:
    """Map compressed dicts back to framework messages.

    A kept message is the very dict ctxpress was given, so it maps back to the caller's
    own object (by identity); a new or rewritten one (an omission marker, trimmed code)
    goes through ``convert``.
    """
    index = {id(d): i for i, d in enumerate(dicts)}
    return [originals[index[id(m)]] if id(m) in index else convert(m) for m in out]
