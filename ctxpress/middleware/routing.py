"""Model → upstream group: aliases, learnt model lists, and difficulty routing.

A request's model is first rewritten through ``aliases``; a difficulty alias (say
``auto``) picks its ``small`` or ``large`` model with :func:`difficulty`. The group
is then the first that serves the model: configured names, ``*``, or what the
replica's ``/v1/models`` said. 404 is answered only when every group could say
what it serves and none serves the model; if some could not (no healthy replica),
the request goes to them and fails with 503 if they still cannot be reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ctxpress.messages import Message, content_text, last_user_index
from ctxpress.middleware.errors import ProxyError
from ctxpress.middleware.settings import ProxySettings
from ctxpress.middleware.upstreams import Group, UpstreamPool


@dataclass(frozen=True, slots=True)
class Route:
    group: Group
    model: str  # the name sent upstream
    requested: str  # the name the client sent
    note: str | None = None  # difficulty decision, reported in a header


class Router:
    """Resolves models to groups; merges ``/v1/models`` across groups."""

    def __init__(self, settings: ProxySettings, pool: UpstreamPool) -> None:
        self.settings = settings
        self.pool = pool
        self.aliases = dict(settings.aliases)
        self.routes = dict(settings.routes)

    def resolve(self, model: str, messages: list[Message] | None = None) -> Route:
        requested, note = model, None
        route = self.routes.get(model)
        if route is not None:
            score = difficulty(messages or [])
            model = route.large if score >= route.threshold else route.small
            note = f"{requested}->{model}; score={score:.2f}"
            self.pool.metrics.routed.labels(requested, model).inc()
        model = self.aliases.get(model, model)
        unknown: list[Group] = []
        for group in self.pool.groups.values():
            serves = group.serves(model)
            if serves:
                return Route(group, model, requested, note)
            if serves is None:
                unknown.append(group)
        if unknown:
            return Route(unknown[0], model, requested, note)
        raise ProxyError(
            404, f"The model `{model}` does not exist.", param="model", code="model_not_found"
        )

    def group_for_passthrough(self, model: str | None) -> Group:
        """Other ``/v1/*`` endpoints: by model when the body names one, else the first group."""
        if model:
            try:
                return self.resolve(model).group
            except ProxyError:
                pass
        return next(iter(self.pool.groups.values()))

    def max_model_len(self, model: str) -> int | None:
        """Context length learnt from the upstream's model card (vLLM's ``max_model_len``)."""
        for group in self.pool.groups.values():
            for replica in group.replicas:
                card = replica.models.get(model)
                if card and isinstance(card.get("max_model_len"), int):
                    return int(card["max_model_len"])
        return None

    def list_models(self) -> dict[str, Any]:
        """The merged ``/v1/models``: each group's models, then aliases and routes."""
        data: dict[str, dict[str, Any]] = {}
        for group in self.pool.groups.values():
            for name, card in group.known_models().items():
                data.setdefault(name, card)
        for alias, target in self.aliases.items():
            data.setdefault(
                alias, {"id": alias, "object": "model", "owned_by": "ctxpress", "root": target}
            )
        for alias in self.routes:
            data.setdefault(alias, {"id": alias, "object": "model", "owned_by": "ctxpress"})
        return {"object": "list", "data": list(data.values())}


# --- difficulty ------------------------------------------------------------------------------
# A transparent rule score in [0, 1]. Signals of hard requests: code to read or write,
# reasoning/maths vocabulary, long multi-part questions, tools; easy ones are short
# lookups and chit-chat. Weights were set on a labelled sample (see README: the
# benchmark in benchmarks/difficulty_routing.py) and cost microseconds per request.
_HARD_WORDS = re.compile(
    r"\b(prove|proof|derive|derivation|optimi[sz]e|algorithm|complexity|refactor|debug|"
    r"implement|architecture|trade-?offs?|step[- ]by[- ]step|analy[sz]e|theorem|integral|"
    r"equation|concurren\w*|race condition|design|compare|why)\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"```|~~~|\bdef |\bclass |\bfunction\b|#include|\bfn |\bfunc |=>|\{\s*$", re.M)
_MATH = re.compile(r"[=<>^∑∫√]|\d+\s*[-+*/]\s*\d+")


def difficulty(messages: list[Message]) -> float:
    """A cheap 0..1 hardness score of the last user turn (and the context around it)."""
    idx = last_user_index(messages)
    text = content_text(messages[idx].get("content")) if idx is not None else ""
    head = text[:4000]
    score = 0.0
    score += min(len(_HARD_WORDS.findall(head)), 3) * 0.15
    if _CODE.search(head):
        score += 0.35
    score += min(len(_MATH.findall(head)), 4) * 0.05
    score += min(len(text) / 2000, 1.0) * 0.2
    if head.count("?") >= 2:
        score += 0.1
    if any(m.get("tool_calls") for m in messages[-6:]) or any(
        m.get("role") == "tool" for m in messages[-6:]
    ):
        score += 0.1
    return min(score, 1.0)
