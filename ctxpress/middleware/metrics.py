"""Prometheus metrics of the proxy, in a registry of their own (one per app).

Names start with ``ctxpress_``; latencies are histograms in seconds, tokens are
counters. ``examples/grafana-dashboard.json`` charts every one of them.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

# Sub-millisecond to minutes: proxy overhead lives at the bottom, generation at the top.
_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
_SMALL = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1)
_TOKEN_TIME = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """All proxy metrics; pass one instance around instead of module globals."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry or CollectorRegistry()
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}
        r = self.registry
        self.requests = Counter(
            "ctxpress_requests", "Requests answered, by endpoint, model and HTTP status.",
            ["endpoint", "model", "status"], registry=r,
        )  # fmt: skip
        self.latency = Histogram(
            "ctxpress_request_seconds", "End-to-end request latency seen by the proxy.",
            ["endpoint", "model"], buckets=_LATENCY, registry=r,
        )  # fmt: skip
        self.ttft = Histogram(
            "ctxpress_ttft_seconds", "Time to first token (first content chunk of a stream).",
            ["model"], buckets=_LATENCY, registry=r,
        )  # fmt: skip
        self.tpot = Histogram(
            "ctxpress_tpot_seconds", "Time per output token after the first (streams).",
            ["model"], buckets=_TOKEN_TIME, registry=r,
        )  # fmt: skip
        self.tokens = Counter(
            "ctxpress_prompt_tokens", "Prompt tokens before/after compression (ctxpress count).",
            ["phase"], registry=r,
        )  # fmt: skip
        self.stage_tokens = Counter(
            "ctxpress_stage_tokens", "Tokens entering (before) and leaving (after) each stage.",
            ["stage", "phase"], registry=r,
        )  # fmt: skip
        self.stage_seconds = Histogram(
            "ctxpress_stage_seconds", "Time spent in each compression stage.",
            ["stage"], buckets=_SMALL, registry=r,
        )  # fmt: skip
        self.compress_seconds = Histogram(
            "ctxpress_compress_seconds", "Whole compression time per request.",
            buckets=_SMALL, registry=r,
        )  # fmt: skip
        self.overhead = Histogram(
            "ctxpress_overhead_seconds",
            "Proxy time before the upstream is called (parse, compress, route, queue excluded).",
            buckets=_SMALL, registry=r,
        )  # fmt: skip
        self.queue_seconds = Histogram(
            "ctxpress_queue_seconds", "Time waiting in the admission queue.",
            ["priority"], buckets=_LATENCY, registry=r,
        )  # fmt: skip
        self.fail_open = Counter(
            "ctxpress_fail_open", "Compression stages that failed and were passed through.",
            ["stage"], registry=r,
        )  # fmt: skip
        self.engine_tokens = Counter(
            "ctxpress_engine_tokens",
            "Token usage reported by the engine: prompt, cached (prefix cache hits), completion.",
            ["model", "kind"], registry=r,
        )  # fmt: skip
        self.in_flight = Gauge(
            "ctxpress_upstream_in_flight", "Requests in flight per upstream replica.",
            ["group", "replica"], registry=r,
        )  # fmt: skip
        self.healthy = Gauge(
            "ctxpress_upstream_healthy", "1 when the replica passed its last health check.",
            ["group", "replica"], registry=r,
        )  # fmt: skip
        self.queued = Gauge(
            "ctxpress_queue_waiting", "Requests waiting for a slot, per group and priority.",
            ["group", "priority"], registry=r,
        )  # fmt: skip
        self.upstream_errors = Counter(
            "ctxpress_upstream_errors", "Upstream failures (connect, timeout, stream broken).",
            ["group", "kind"], registry=r,
        )  # fmt: skip
        self.retries = Counter(
            "ctxpress_upstream_retries", "Retries on another replica after a connect failure.",
            ["group"], registry=r,
        )  # fmt: skip
        self.rejected = Counter(
            "ctxpress_rejected", "Requests refused by the proxy (queue full, auth, body size).",
            ["reason"], registry=r,
        )  # fmt: skip
        self.store_errors = Counter(
            "ctxpress_store_errors",
            "Redis errors answered from the in-memory store instead (requests never fail on them).",
            registry=r,
        )  # fmt: skip
        self.routed = Counter(
            "ctxpress_routed", "Difficulty-routing decisions, by alias and chosen model.",
            ["alias", "model"], registry=r,
        )  # fmt: skip

    def child(self, metric: Any, *values: str) -> Any:
        """``metric.labels(*values)``, memoised: labels() takes a lock and builds a key."""
        key = (id(metric), values)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*values)
        return found

    def exposition(self) -> bytes:
        return generate_latest(self.registry)
