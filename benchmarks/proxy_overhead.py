"""Proxy overhead (BENCHMARKS.md §3): direct vs through ``ctxpress serve``, in one run.

A fast stand-in engine (``ctxpress.middleware.fake``: fixed answer; SSE mode sends
20 chunks) runs in its own process; ctxpress runs as ``ctxpress serve`` with its
defaults (compression on, nothing to compress, access log on). Targets alternate
round by round so machine noise hits both alike. Measured:

1. latency at a fixed offered load (hey-style: C workers, each at most Q req/s),
   p50/p99 added by the proxy, every answer checked for its own marker (cross-talk);
2. saturation throughput with 64 connections (``wrk`` when installed, else the
   in-repo generator), ratio proxy / direct;
3. streaming with chunks spaced 50 ms upstream: time to first chunk and the spread
   of inter-chunk gaps at the client (buffering would bunch them up);
4. optionally the LiteLLM proxy on the same engine (``--litellm /path/to/venv``).

    .venv/bin/python benchmarks/proxy_overhead.py            # ~2 minutes
    .venv/bin/python benchmarks/proxy_overhead.py --quick    # ~40 s
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp
import orjson
from _procs import free_port, process, wait_http

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "proxy_overhead.json"
BIN = Path(sys.executable).parent
MODEL = "fake-model"
# A request that hangs counts as an error instead of stalling the run.
TIMEOUT = aiohttp.ClientTimeout(total=10)
MARKER = re.compile(rb"s\d+-[0-9a-f]{6}")


def body(marker: str, stream: bool = False) -> bytes:
    return orjson.dumps(
        {
            "model": MODEL,
            "messages": [
                {"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": f"Say hello. {marker}"},
            ],
            "max_tokens": 16,
            "stream": stream,
            "metadata": {"marker": marker},
        }
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- 1. fixed offered load ------------------------------------------------------------
async def fixed_load(
    url: str, workers: int, rate_per_worker: float, seconds: float
) -> dict[str, Any]:
    """hey -c workers -q rate: each worker sends at most ``rate`` req/s, closed loop."""
    latencies: list[float] = []
    errors = crosstalk = 0
    connector = aiohttp.TCPConnector(limit=workers)
    async with aiohttp.ClientSession(connector=connector, timeout=TIMEOUT) as session:
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        interval = 1 / rate_per_worker

        async def worker(w: int) -> None:
            nonlocal errors, crosstalk
            n = 0
            next_at = loop.time() + w * interval / workers
            while next_at < end and loop.time() < end:  # (saturation: next_at never catches up)
                await asyncio.sleep(max(0.0, next_at - loop.time()))
                marker = f"w{w}-n{n}-{os.urandom(3).hex()}"
                start = time.perf_counter()
                try:
                    async with session.post(
                        url, data=body(marker), headers={"content-type": "application/json"}
                    ) as r:
                        text = await r.read()
                        ok = r.status == 200
                except (aiohttp.ClientError, TimeoutError):
                    ok, text = False, b""
                latencies.append(time.perf_counter() - start)
                if not ok:
                    errors += 1
                elif marker.encode() not in text:
                    crosstalk += 1
                n += 1
                next_at += interval

        await asyncio.gather(*(worker(w) for w in range(workers)))
    return {
        "requests": len(latencies),
        "rps": len(latencies) / seconds,
        "p50_ms": pct(latencies, 0.5) * 1000,
        "p99_ms": pct(latencies, 0.99) * 1000,
        "errors": errors,
        "crosstalk": crosstalk,
    }


# --- 2. saturation --------------------------------------------------------------------
def saturation_wrk(url: str, connections: int, seconds: int, lua: Path) -> dict[str, Any]:
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(lua), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "non_2xx": int(errors.group(1)) if errors else 0}


async def saturation_py(url: str, connections: int, seconds: float) -> dict[str, Any]:
    result = await fixed_load(url, connections, 1e9, seconds)
    return {"rps": result["rps"], "non_2xx": result["errors"]}


# --- 3. streaming -------------------------------------------------------------------------
async def stream_timing(url: str, n: int, chunks: int = 20, delay_ms: int = 50) -> dict[str, Any]:
    gaps: list[float] = []
    ttfts: list[float] = []
    crosstalk = 0
    headers = {
        "content-type": "application/json",
        "x-fake-chunks": str(chunks),
        "x-fake-delay-ms": str(delay_ms),
    }
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:

        async def one(i: int) -> None:
            nonlocal crosstalk
            marker = f"s{i}-{os.urandom(3).hex()}"
            start = time.perf_counter()
            arrivals: list[float] = []
            buffer = b""
            async with session.post(url, data=body(marker, True), headers=headers) as r:
                async for chunk in r.content.iter_any():
                    buffer += chunk
                    while b"\n\n" in buffer:
                        event, buffer = buffer.split(b"\n\n", 1)
                        if event.startswith(b"data: {"):
                            arrivals.append(time.perf_counter())
                            found = set(MARKER.findall(event))
                            if found - {marker.encode()}:  # another stream's text
                                crosstalk += 1
            ttfts.append(arrivals[0] - start)
            gaps.extend(b - a for a, b in itertools.pairwise(arrivals))

        await asyncio.gather(*(one(i) for i in range(n)))
    deviation = [abs(g - delay_ms / 1000) * 1000 for g in gaps]
    return {
        "streams": n,
        "ttft_p50_ms": pct(ttfts, 0.5) * 1000,
        "gap_p50_ms": pct(gaps, 0.5) * 1000,
        "gap_dev_p99_ms": pct(deviation, 0.99),
        "gap_dev_max_ms": max(deviation),
        "crosstalk": crosstalk,
    }


# --- orchestration ------------------------------------------------------------------------
def litellm_config(path: Path, upstream: str) -> None:
    path.write_text(
        "model_list:\n"
        f"  - model_name: {MODEL}\n"
        "    litellm_params:\n"
        f"      model: openai/{MODEL}\n"
        f"      api_base: {upstream}\n"
        "      api_key: sk-fake\n"
        "litellm_settings:\n"
        "  drop_params: true\n"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="shorter rounds")
    p.add_argument("--rounds", type=int, default=None)
    p.add_argument(
        "--litellm",
        default="/work/.venv-litellm" if Path("/work/.venv-litellm/bin/litellm").exists() else None,
        help="venv with 'litellm[proxy]' to compare against (default /work/.venv-litellm)",
    )
    p.add_argument("--no-litellm", action="store_true")
    args = p.parse_args()
    seconds = 3 if args.quick else 6
    rounds = args.rounds or (1 if args.quick else 2)
    logs = Path(tempfile.mkdtemp(prefix="ctxpress-bench-"))
    up_port, px_port, ll_port = free_port(), free_port(), free_port()
    upstream = f"http://127.0.0.1:{up_port}/v1"
    targets = {
        "direct": f"{upstream}/chat/completions",
        "ctxpress": f"http://127.0.0.1:{px_port}/v1/chat/completions",
    }
    env = {**os.environ, "CTXPRESS_UPSTREAM": upstream}
    with ExitStack() as stack:
        stack.enter_context(
            process(
                [sys.executable, "-m", "ctxpress.middleware.fake", "--port", str(up_port)],
                logs / "upstream.log",
            )
        )
        wait_http(f"{upstream}/models")
        stack.enter_context(
            process(
                [str(BIN / "ctxpress"), "serve", "--port", str(px_port)],
                logs / "ctxpress.log",
                env,
            )
        )
        wait_http(f"http://127.0.0.1:{px_port}/ready")
        if args.litellm and not args.no_litellm:
            cfg = logs / "litellm.yaml"
            litellm_config(cfg, upstream)
            ll_env = {
                **os.environ,
                "LITELLM_LOG": "ERROR",
                "DISABLE_ADMIN_UI": "True",
                # A local benchmark without auth, as ctxpress runs without proxy keys.
                "LITELLM_DANGEROUSLY_PERMIT_WEAK_OR_UNSET_MASTER_KEY": "true",
            }
            ll_proc = stack.enter_context(
                process(
                    [f"{args.litellm}/bin/litellm", "--config", str(cfg), "--port", str(ll_port)],
                    logs / "litellm.log",
                    ll_env,
                )
            )
            try:
                wait_http(f"http://127.0.0.1:{ll_port}/health/liveliness", ll_proc, 180)
                targets["litellm"] = f"http://127.0.0.1:{ll_port}/v1/chat/completions"
            except RuntimeError:
                print(f"litellm did not start; see {logs / 'litellm.log'}", file=sys.stderr)
        lua = logs / "post.lua"
        payload = body("wrk-marker").decode()
        lua.write_text(
            'wrk.method = "POST"\n'
            f"wrk.body = [[{payload}]]\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        # Warm up every target (tokenizer, pools, LiteLLM's lazy imports).
        for url in targets.values():
            asyncio.run(fixed_load(url, 4, 50, 1.5))
        results = run_rounds(targets, rounds, seconds, lua)
    report(results, targets, rounds)


def run_rounds(
    targets: dict[str, str], rounds: int, seconds: float, lua: Path
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    have_wrk = shutil.which("wrk") is not None
    out: dict[str, dict[str, list[dict[str, Any]]]] = {name: {} for name in targets}

    def add(name: str, key: str, value: dict[str, Any]) -> None:
        out[name].setdefault(key, []).append(value)

    for r in range(rounds):
        for name, url in targets.items():
            slow = name == "litellm"
            print(f"round {r + 1}/{rounds}: {name}", file=sys.stderr)
            add(name, "load_c16_q25", asyncio.run(fixed_load(url, 16, 25, seconds)))
            add(name, "load_c64_q6", asyncio.run(fixed_load(url, 64, 6.25, seconds)))
            if have_wrk:
                add(name, "sat_c64", saturation_wrk(url, 64, int(seconds), lua))
            else:
                add(name, "sat_c64", asyncio.run(saturation_py(url, 64, seconds)))
            add(name, "stream", asyncio.run(stream_timing(url, 8 if slow else 16)))
    return out


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(run[key] for run in runs))


def report(
    results: dict[str, dict[str, list[dict[str, Any]]]], targets: dict[str, str], rounds: int
) -> None:
    direct = results["direct"]
    rows: list[dict[str, Any]] = []
    for name in targets:
        res = results[name]
        row: dict[str, Any] = {"target": name}
        for load in ("load_c16_q25", "load_c64_q6"):
            for q in ("p50_ms", "p99_ms"):
                row[f"{load}_{q}"] = _median(res[load], q)
                row[f"{load}_{q}_added"] = row[f"{load}_{q}"] - _median(direct[load], q)
            row[f"{load}_rps"] = _median(res[load], "rps")
        row["sat_rps"] = _median(res["sat_c64"], "rps")
        row["sat_ratio"] = row["sat_rps"] / _median(direct["sat_c64"], "rps")
        row["sat_non_2xx"] = sum(run["non_2xx"] for run in res["sat_c64"])
        for k in ("ttft_p50_ms", "gap_p50_ms", "gap_dev_p99_ms", "gap_dev_max_ms"):
            row[f"stream_{k}"] = _median(res["stream"], k)
        row["errors"] = sum(
            run["errors"] for k in ("load_c16_q25", "load_c64_q6") for run in res[k]
        )
        row["crosstalk"] = sum(
            run["crosstalk"] for k in ("load_c16_q25", "load_c64_q6", "stream") for run in res[k]
        )
        rows.append(row)
    header = (
        f"{'target':<9} {'c16 p50':>8} {'+p50':>6} {'c16 p99':>8} {'+p99':>6} "
        f"{'c64 p50':>8} {'+p50':>6} {'c64 p99':>8} {'+p99':>6} {'sat r/s':>8} {'ratio':>6} "
        f"{'ttft':>6} {'gap p50':>7} {'dev p99':>7} {'err':>4} {'xtalk':>5}"
    )
    print("\nProxy overhead (ms; medians over rounds; +X = added vs direct in the same run)")
    print(header)
    for r in rows:
        print(
            f"{r['target']:<9} {r['load_c16_q25_p50_ms']:8.2f} "
            f"{r['load_c16_q25_p50_ms_added']:6.2f} {r['load_c16_q25_p99_ms']:8.2f} "
            f"{r['load_c16_q25_p99_ms_added']:6.2f} "
            f"{r['load_c64_q6_p50_ms']:8.2f} {r['load_c64_q6_p50_ms_added']:6.2f} "
            f"{r['load_c64_q6_p99_ms']:8.2f} {r['load_c64_q6_p99_ms_added']:6.2f} "
            f"{r['sat_rps']:8.0f} {r['sat_ratio']:6.2f} {r['stream_ttft_p50_ms']:6.2f} "
            f"{r['stream_gap_p50_ms']:7.2f} {r['stream_gap_dev_p99_ms']:7.2f} "
            f"{r['errors']:4d} {r['crosstalk']:5d}"
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "rounds": rounds,
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "targets": list(targets),
        "note": "load_c16_q25 = 16 workers x 25 req/s (400 req/s offered); "
        "load_c64_q6 = 64 workers x 6.25 req/s; sat_c64 = wrk -c64; "
        "stream = 20 SSE chunks 50 ms apart",
    }
    RESULTS.write_text(json.dumps({"meta": meta, "summary": rows, "raw": results}, indent=2))
    print(f"\nwrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    main()
