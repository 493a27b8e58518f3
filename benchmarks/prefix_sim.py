"""The LoCoMo replay of ``e2e_vllm.py`` without an engine: prefix-cache hits counted exactly.

Tuning the cache-aligned layout against a real vLLM takes 15 minutes per setting;
this takes under a minute. Both arms of the replay (sliding window, and
``ctxpress.compress`` in the proxy's ``aligned`` mode) are tokenised with the served
model's tokenizer the way its chat template renders them, and a prefix cache of
128-token blocks (vLLM's: a block hits when it and every block before it were seen)
counts cached tokens. On the replay it matched the real engine's uncached tokens and
recall to three digits.

    .venv/bin/python benchmarks/prefix_sim.py [--conversations 10] [--turns 300] \\
        [--set history_block_tokens=512 history_tail_share=0.9 ...]

Needs ``make e2e-model`` (the tokenizer) and the LoCoMo data; no vLLM.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

import ctxpress
from ctxpress.config import Config
from ctxpress.tokens import get_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
import e2e_vllm as replay
from e2e.vllm_server import DEFAULT_MODEL

BLOCK = 128  # vLLM's prefix-cache block
RESULTS = Path(__file__).resolve().parent / "results" / "prefix_sim.json"


class PrefixCache:
    """Which 128-token blocks an engine would hold, keyed by the hash of their prefix."""

    def __init__(self) -> None:
        self.seen: set[bytes] = set()

    def cached(self, ids: list[int]) -> int:
        chain, hashes = b"", []
        for k in range(0, len(ids) - BLOCK + 1, BLOCK):
            chain = hashlib.blake2b(
                chain + repr(ids[k : k + BLOCK]).encode(), digest_size=16
            ).digest()
            hashes.append(chain)
        hits = 0
        for h in hashes:
            if h not in self.seen:
                break
            hits += BLOCK
        self.seen.update(hashes)
        return min(hits, (len(ids) - 1) // BLOCK * BLOCK)  # the last token is always computed


class Render:
    """Token ids as the e2e model's chat template renders them (one role token + newline
    per message, content, end token; begin and assistant priming)."""

    def __init__(self, model_dir: Path) -> None:
        self.tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.memo: dict[str, list[int]] = {}

    def ids(self, messages: list[dict[str, Any]]) -> list[int]:
        out = [-1]
        for m in messages:
            text = replay.text_of(m)
            if text not in self.memo:
                self.memo[text] = self.tok.encode(text, add_special_tokens=False).ids
            out += [-2 - len(m["role"]), -9, *self.memo[text], -3]
        return [*out, -4, -9]


def parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--conversations", type=int, default=10)
    p.add_argument("--turns", type=int, default=300)
    p.add_argument("--budget", type=int, default=2048)
    p.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--set", nargs="*", default=[], help="Config overrides, key=value")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    if not replay.DATA.exists() or not (args.model_dir / "tokenizer.json").exists():
        print(f"needs {replay.DATA} and `make e2e-model`", file=sys.stderr)
        return 2
    overrides = {k: parse_value(v) for k, v in (kv.split("=", 1) for kv in args.set)}
    config = Config(tokenizers={"m": str(args.model_dir)}, history_mode="aligned", **overrides)
    render = Render(args.model_dir)
    count = get_counter("m", config)  # as e2e_vllm.py: equal to the engine's prompt_tokens
    arms = ("direct", "ctxpress")
    uncached_all = dict.fromkeys(arms, 0)
    recalls: dict[str, list[float]] = {arm: [] for arm in arms}
    rows = []
    print(f"{'conversation':14} {'uncached c/d':>13} {'recall c':>9} {'recall d':>9}")
    for conv in replay.load(replay.DATA)[: args.conversations]:
        caches = {arm: PrefixCache() for arm in arms}
        uncached = dict.fromkeys(arms, 0)
        found: dict[str, list[float]] = {arm: [] for arm in arms}
        for ev in replay.events(conv, args.turns, 60):
            sent = {
                "direct": replay.sliding_window(ev.messages, args.budget, count),
                "ctxpress": ctxpress.compress(
                    ev.messages, budget=args.budget, model="m", config=config
                ).messages,
            }
            for arm, messages in sent.items():
                ids = render.ids(messages)
                uncached[arm] += len(ids) - caches[arm].cached(ids)
                if ev.question:
                    found[arm].append(replay.recall(messages, conv, ev.question))
        row = {
            "conversation": conv.sample_id,
            "uncached": uncached,
            "recall": {arm: statistics.fmean(found[arm]) for arm in arms},
        }
        rows.append(row)
        for arm in arms:
            uncached_all[arm] += uncached[arm]
            recalls[arm] += found[arm]
        print(
            f"{conv.sample_id:14} {uncached['ctxpress'] / uncached['direct']:>13.3f} "
            f"{row['recall']['ctxpress']:>9.3f} {row['recall']['direct']:>9.3f}",
            flush=True,
        )
    rc, rd = statistics.fmean(recalls["ctxpress"]), statistics.fmean(recalls["direct"])
    ratio = uncached_all["ctxpress"] / uncached_all["direct"]
    print(f"{'all':14} {ratio:>13.3f} {rc:>9.3f} {rd:>9.3f}   (recall {rc - rd:+.3f})")
    report = {
        "budget": args.budget,
        "turns": args.turns,
        "overrides": overrides,
        "uncached": uncached_all,
        "uncached_ratio": ratio,
        "recall": {"ctxpress": rc, "direct": rd},
        "conversations": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
