"""Soak test: 64 concurrent clients through ``ctxpress serve`` for minutes; nothing lost.

A stand-in engine (``python -m ctxpress.middleware.fake``) and ``ctxpress serve``
(``CTXPRESS_UPSTREAM`` pointing at it, defaults otherwise: compression, affinity,
warm-up and access log on) run as their own processes. Each of ``--clients``
clients sends requests back to back, alternating streaming and not, each with a
unique marker that the engine echoes (``metadata.marker``). Every answer is checked:

- ``lost``: no HTTP response at all (connection reset, timeout before the status);
- ``mixed``: the answer carries another request's marker (cross-talk);
- ``incomplete``: a 200 whose body is cut short (a stream without every chunk and
  ``[DONE]``, or a JSON body that does not parse);
- ``errors``: any other non-200 status or an error event inside a stream.

Latency p50/p99 (whole answer; first chunk for streams) and the proxy's RSS
(``/proc/PID/status``) after start-up, after a warm-up minute fraction, and at the end
are reported; the proxy's own request counter is compared with what the clients sent.

    .venv/bin/python benchmarks/soak.py                 # 300 s
    .venv/bin/python benchmarks/soak.py --seconds 30    # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from _procs import free_port, process, wait_http

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "soak.json"
BIN = Path(sys.executable).parent
MODEL = "fake-model"
MARKER = re.compile(r"mk[a-z]*-\d+-\d+-[0-9a-f]{8}")
SYSTEMS = [
    f"You are assistant number {n} of the soak test. " * 12 + "Answer briefly and cite sources."
    for n in range(4)
]


@dataclass
class Stats:
    """What the clients saw; ``ok + lost + mixed + incomplete + errors == sent``."""

    sent: int = 0
    ok: int = 0
    lost: int = 0
    mixed: int = 0
    incomplete: int = 0
    errors: int = 0
    streams: int = 0
    latency_ms: list[float] = field(default_factory=list)
    first_chunk_ms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def bad(self, kind: str, detail: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.problems) < 20:
            self.problems.append(f"{kind}: {detail[:300]}")

    def summary(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("latency_ms", "first_chunk_ms")}
        out["p50_ms"] = pct(self.latency_ms, 0.50)
        out["p99_ms"] = pct(self.latency_ms, 0.99)
        out["first_chunk_p50_ms"] = pct(self.first_chunk_ms, 0.50)
        out["first_chunk_p99_ms"] = pct(self.first_chunk_ms, 0.99)
        return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


def request_body(marker: str, stream: bool, system: str) -> bytes:
    return orjson.dumps(
        {
            "model": MODEL,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": "What changed in the last release?"},
                {"role": "assistant", "content": "The parser and the cache layout."},
                {"role": "user", "content": f"Explain the cache layout. ref {marker}"},
            ],
            "max_tokens": 32,
            "stream": stream,
            "metadata": {"marker": marker},
        }
    )


def check(stats: Stats, marker: str, stream: bool, status: int, body: bytes, chunks: int) -> None:
    """Classify one answer (see the module docstring)."""
    text = body.decode("utf-8", "replace")
    others = {m for m in MARKER.findall(text) if m != marker}
    if others:
        stats.bad("mixed", f"{marker} got {sorted(others)[:3]}")
        return
    if status != 200:
        stats.bad("errors", f"{marker} status {status}: {text}")
        return
    if not stream:
        try:
            content = orjson.loads(body)["choices"][0]["message"]["content"]
        except (orjson.JSONDecodeError, KeyError, IndexError, TypeError):
            stats.bad("incomplete", f"{marker} body: {text}")
            return
        if content != marker:
            stats.bad("mixed", f"{marker} content {content!r}")
            return
        stats.ok += 1
        return
    events = [e for e in text.split("\n\n") if e.strip()]
    contents: list[str] = []
    for event in events:
        if not event.startswith("data: {"):
            continue
        data = json.loads(event[6:])
        if "error" in data:
            stats.bad("errors", f"{marker} error event: {event}")
            return
        for choice in data.get("choices") or []:
            contents.append(choice.get("delta", {}).get("content") or "")
    expected = [f"{marker}|{i}|" for i in range(chunks)]
    if not events or events[-1] != "data: [DONE]" or contents != expected:
        stats.bad("incomplete", f"{marker}: {len(contents)}/{chunks} chunks; tail {text[-120:]}")
        return
    stats.ok += 1


async def drive(
    url: str,
    seconds: float,
    clients: int = 64,
    chunks: int = 20,
    delay_ms: int = 5,
    tag: str = "mk",
    timeout: float = 60.0,
) -> Stats:
    """``clients`` closed-loop clients against ``url`` (the proxy's base URL) for ``seconds``."""
    stats = Stats()
    endpoint = url.rstrip("/") + "/v1/chat/completions"
    headers = {
        "content-type": "application/json",
        "x-fake-chunks": str(chunks),
        "x-fake-delay-ms": str(delay_ms),
    }
    loop = asyncio.get_running_loop()
    stop = loop.time() + seconds
    connector = aiohttp.TCPConnector(limit=clients, limit_per_host=clients)
    client_timeout = aiohttp.ClientTimeout(total=timeout)

    async def client(c: int, session: aiohttp.ClientSession) -> None:
        seq = 0
        while loop.time() < stop:
            seq += 1
            stream = (c + seq) % 2 == 0
            marker = f"{tag}-{c}-{seq}-{secrets.token_hex(4)}"
            payload = request_body(marker, stream, SYSTEMS[c % len(SYSTEMS)])
            stats.sent += 1
            stats.streams += stream
            start = loop.time()
            status = 0
            body = b""
            try:
                async with session.post(endpoint, data=payload, headers=headers) as resp:
                    status = resp.status
                    if stream:
                        first = None
                        parts = []
                        async for part in resp.content.iter_any():
                            if first is None:
                                first = loop.time()
                                stats.first_chunk_ms.append((first - start) * 1000)
                            parts.append(part)
                        body = b"".join(parts)
                    else:
                        body = await resp.read()
            except (aiohttp.ClientError, TimeoutError, ConnectionError) as exc:
                if status == 0:
                    stats.bad("lost", f"{marker}: {type(exc).__name__} {exc}")
                else:
                    stats.bad("incomplete", f"{marker}: {type(exc).__name__} after headers")
                continue
            stats.latency_ms.append((loop.time() - start) * 1000)
            check(stats, marker, stream, status, body, chunks)

    async with aiohttp.ClientSession(connector=connector, timeout=client_timeout) as session:
        await asyncio.gather(*(client(c, session) for c in range(clients)))
    return stats


# --- processes ---------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MiB, from ``/proc/PID/status`` (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no VmRSS for {pid}")


def open_fds(pid: int) -> int:
    """Open file descriptors of ``pid`` (sockets included): a connection leak shows here."""
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def proxy_requests(url: str) -> dict[str, float]:
    """``ctxpress_requests_total`` for the chat endpoint, by status, from /metrics."""
    with urllib.request.urlopen(url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("ctxpress_requests_total{") and "/v1/chat/completions" in line:
            status = re.search(r'status="(\d+)"', line)
            if status:
                out[status.group(1)] = out.get(status.group(1), 0) + float(line.rsplit(" ", 1)[1])
    return out


async def sample_rss(pid: int, every: float, samples: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        samples.append(rss_mb(pid))
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)


async def soak(url: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    rss = {"start": rss_mb(pid)}
    warm = await drive(url, args.warmup, args.clients, args.chunks, args.delay_ms, tag="mkw")
    rss["after_warmup"] = rss_mb(pid)
    await asyncio.sleep(5)  # the warm-up clients' connections close
    fds = {"after_warmup": open_fds(pid)}
    before = proxy_requests(url)
    samples: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_rss(pid, 5.0, samples, stop))
    began = time.perf_counter()
    stats = await drive(url, args.seconds, args.clients, args.chunks, args.delay_ms)
    elapsed = time.perf_counter() - began
    stop.set()
    await sampler
    rss["end"] = rss_mb(pid)
    await asyncio.sleep(5)  # keep-alive connections of the clients close
    fds["end_idle"] = open_fds(pid)
    rss["peak"] = max([*samples, rss["end"]])
    after = proxy_requests(url)
    counted = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    return {
        "warmup": warm.summary(),
        "soak": stats.summary(),
        "seconds": round(elapsed, 1),
        "requests_per_s": round(stats.sent / elapsed, 1),
        "rss_mb": rss,
        "rss_growth_mb": round(rss["end"] - rss["after_warmup"], 1),
        "rss_growth_since_start_mb": round(rss["end"] - rss["start"], 1),
        "rss_samples_mb_every_5s": samples,
        "open_fds": fds,
        "proxy_counted_by_status": counted,
        "proxy_counted_total": sum(counted.values()),
    }


def report(result: dict[str, Any]) -> None:
    s = result["soak"]
    rows = [
        ("clients", result["clients"]),
        ("seconds", result["seconds"]),
        ("requests sent", s["sent"]),
        ("  of which streaming", s["streams"]),
        ("requests/s", result["requests_per_s"]),
        ("ok", s["ok"]),
        ("lost", s["lost"]),
        ("mixed", s["mixed"]),
        ("incomplete", s["incomplete"]),
        ("errors", s["errors"]),
        ("proxy counted (all statuses)", result["proxy_counted_total"]),
        ("latency p50 / p99 ms", f"{s['p50_ms']} / {s['p99_ms']}"),
        ("first chunk p50 / p99 ms", f"{s['first_chunk_p50_ms']} / {s['first_chunk_p99_ms']}"),
        ("RSS start / warm / end / peak MiB", "{start} / {after_warmup} / {end} / {peak}".format(
            **result["rss_mb"])),
        ("RSS growth after warm-up MiB", result["rss_growth_mb"]),
        ("RSS growth since start MiB", result["rss_growth_since_start_mb"]),
        ("open fds after warm-up / end (idle)", "{after_warmup} / {end_idle}".format(
            **result["open_fds"])),
    ]  # fmt: skip
    width = max(len(k) for k, _ in rows)
    print(f"{'soak':<{width}}  value")
    print("-" * (width + 20))
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    for problem in s["problems"]:
        print("  !", problem)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=300.0)
    p.add_argument("--clients", type=int, default=64)
    p.add_argument("--chunks", type=int, default=20, help="SSE chunks per streamed answer")
    p.add_argument("--delay-ms", type=int, default=5, help="engine delay between chunks")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds of load before 'before'")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="ctxpress-soak-"))
    up_port, px_port = free_port(), free_port()
    upstream = f"http://127.0.0.1:{up_port}/v1"
    proxy = f"http://127.0.0.1:{px_port}"
    env = {**os.environ, "CTXPRESS_UPSTREAM": upstream}
    with ExitStack() as stack:
        engine = stack.enter_context(
            process(
                [sys.executable, "-m", "ctxpress.middleware.fake", "--port", str(up_port)],
                logs / "upstream.log",
            )
        )
        wait_http(f"{upstream}/models", engine)
        server = stack.enter_context(
            process(
                [str(BIN / "ctxpress"), "serve", "--port", str(px_port)], logs / "ctxpress.log", env
            )
        )
        wait_http(f"{proxy}/ready", server)
        result = asyncio.run(soak(proxy, server.pid, args))
        alive = server.poll() is None
    result.update(
        clients=args.clients,
        chunks=args.chunks,
        delay_ms=args.delay_ms,
        proxy_alive_at_end=alive,
        logs=str(logs),
        python=sys.version.split()[0],
        cpus=os.cpu_count(),
    )
    report(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")
    s = result["soak"]
    if s["lost"] or s["mixed"] or s["incomplete"] or s["errors"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
