"""History fidelity on LoCoMo (BENCHMARKS.md §1): evidence recall under a token budget.

Every question of every conversation becomes one request: all turns in order
(``speaker_a`` as ``user``, the other speaker as ``assistant``), then the question as
the final ``user`` message. The budget is the question's tokens plus a fraction
f of the turns' tokens. An evidence turn survives if its full content string is in
the output unchanged. Two baselines run in the same process over the same requests:
keep-newest (drop the oldest turns until the budget holds) and BM25 (turns ranked by
BM25 against the question with bm25s' standard tokenizer, kept best-first in
original order). Timings are single-threaded (one core): "cold" starts from an empty
embedding cache and an empty token-count memo, "warm" is every later question.

    .venv/bin/python benchmarks/locomo.py                  # full run, writes JSON
    .venv/bin/python benchmarks/locomo.py --conversations 2 --limit 20   # quick look
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # per-core numbers: one thread everywhere
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import ctxpress  # noqa: E402
from ctxpress.store import MemoryCache  # noqa: E402
from ctxpress.tokens import get_counter  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"
RESULTS = ROOT / "benchmarks" / "results" / "locomo.json"
FRACTIONS = (0.10, 0.25, 0.50)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_ID_SPLIT = re.compile(r"[\s;,]+")

Message = dict[str, Any]


@dataclass
class Question:
    text: str
    category: int
    evidence: list[str]  # content strings of the evidence turns


@dataclass
class Conversation:
    sample_id: str
    turns: list[Message]
    questions: list[Question] = field(default_factory=list)


def load(path: Path = DATA) -> list[Conversation]:
    """LoCoMo as chat messages plus questions whose evidence ids exist in the conversation."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for sample in raw:
        conv = sample["conversation"]
        sessions = sorted(
            (int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k)),
        )
        first = speaker_a = conv.get("speaker_a")
        turns: list[Message] = []
        by_id: dict[str, str] = {}
        for n in sessions:
            when = conv.get(f"session_{n}_date_time", "")
            for turn in conv[f"session_{n}"]:
                first = first or turn["speaker"]
                speaker_a = speaker_a or first
                content = f"[{when}] {turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    content += f" [shares image: {turn['blip_caption']}]"
                role = "user" if turn["speaker"] == speaker_a else "assistant"
                turns.append({"role": role, "content": content})
                by_id[turn["dia_id"]] = content
        questions = []
        for qa in sample["qa"]:
            ids = [i for e in qa.get("evidence", []) for i in _ID_SPLIT.split(e) if i]
            evidence = list(dict.fromkeys(by_id[i] for i in ids if i in by_id))
            if evidence:
                questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
        out.append(Conversation(str(sample.get("sample_id", len(out))), turns, questions))
    return out


# --- baselines ----------------------------------------------------------------------


def keep_newest(turns: list[Message], question: Message, budget: int) -> list[Message]:
    """Sliding window: the newest turns that fit, then the question."""
    counter = get_counter()
    used = counter.messages([question])
    kept: list[Message] = []
    for turn in reversed(turns):
        cost = counter.message(turn)
        if used + cost > budget:
            break
        kept.append(turn)
        used += cost
    return [*reversed(kept), question]


def bm25_baseline(turns: list[Message], question: Message, budget: int) -> list[Message]:
    """Plain BM25 (bm25s defaults: English stop words, no stemming), best-first, in order."""
    import bm25s

    counter = get_counter()
    texts = [t["content"] for t in turns]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
    query = bm25s.tokenize([question["content"]], return_ids=False, show_progress=False)[0]
    known = [t for t in query if t in retriever.vocab_dict]
    scores = retriever.get_scores(known) if known else np.zeros(len(turns))
    used = counter.messages([question])
    keep = np.zeros(len(turns), dtype=bool)
    for i in np.argsort(-scores, kind="stable"):
        cost = counter.message(turns[i])
        if used + cost <= budget:
            keep[i] = True
            used += cost
    return [t for t, k in zip(turns, keep, strict=True) if k] + [question]


# --- the run ------------------------------------------------------------------------

Method = Callable[[list[Message], Message, int], tuple[list[Message], float]]


class CtxpressMethod:
    """``ctxpress.compress`` with its own embedding cache (so "cold" can start empty)."""

    def __init__(self, config: ctxpress.Config) -> None:
        self.config = config
        self.cache = MemoryCache()

    def reset(self) -> None:
        self.cache = MemoryCache()

    def __call__(
        self, turns: list[Message], question: Message, budget: int
    ) -> tuple[list[Message], float]:
        start = time.perf_counter()
        result = ctxpress.compress(
            [*turns, question], budget=budget, config=self.config, cache=self.cache
        )
        ms = (time.perf_counter() - start) * 1000
        assert result.tokens_after <= budget, (result.tokens_after, budget)
        stage = next((s for s in result.stages if s.name == "history"), None)
        if stage is not None and stage.error:
            raise RuntimeError(f"history stage failed: {stage.error}")
        return result.messages, ms


def baseline_method(fn: Callable[[list[Message], Message, int], list[Message]]) -> Method:
    def run(turns: list[Message], question: Message, budget: int) -> tuple[list[Message], float]:
        start = time.perf_counter()
        out = fn(turns, question, budget)
        return out, (time.perf_counter() - start) * 1000

    return run


@dataclass
class Tally:
    recall: dict[float, dict[int, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    warm_ms: list[float] = field(default_factory=list)
    cold_ms: list[float] = field(default_factory=list)
    warm_tokens: int = 0
    cold_tokens: int = 0


def recall_of(out: list[Message], evidence: list[str]) -> float:
    contents = {m.get("content") for m in out if isinstance(m.get("content"), str)}
    return sum(e in contents for e in evidence) / len(evidence)


def cold_start() -> None:
    """Forget memoised token counts and BM25 analyses, as a fresh process would."""
    from ctxpress.compressor.history.scoring import analyze

    get_counter().text.cache_clear()  # type: ignore[attr-defined]
    analyze.cache_clear()


def run(
    conversations: list[Conversation], methods: dict[str, Method], limit: int | None
) -> dict[str, Tally]:
    tallies = {name: Tally() for name in methods}
    counter = get_counter()
    for conv in conversations:
        turn_tokens = counter.messages(conv.turns)
        questions = conv.questions[:limit] if limit else conv.questions
        for name, method in methods.items():
            tally = tallies[name]
            # Cold: a new process meets this conversation (empty caches), once per method.
            if isinstance(method, CtxpressMethod):
                method.reset()
            cold_start()
            q0 = {"role": "user", "content": questions[0].text}
            budget0 = counter.messages([q0]) + int(0.25 * turn_tokens)
            _, ms = method(conv.turns, q0, budget0)
            tally.cold_ms.append(ms)
            tally.cold_tokens += turn_tokens
            for q in questions:
                question = {"role": "user", "content": q.text}
                for f in FRACTIONS:
                    budget = counter.messages([question]) + int(f * turn_tokens)
                    out, ms = method(conv.turns, question, budget)
                    tally.recall[f][q.category].append(recall_of(out, q.evidence))
                    tally.warm_ms.append(ms)
                    tally.warm_tokens += turn_tokens
        print(f"  {conv.sample_id}: {len(questions)} questions", file=sys.stderr, flush=True)
    return tallies


def summarise(tally: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f, by_cat in sorted(tally.recall.items()):
        main = [r for c in (1, 2, 3, 4) for r in by_cat.get(c, [])]
        out[f"{f:.2f}"] = {
            "recall": round(float(np.mean(main)), 4) if main else None,
            "questions": len(main),
            "by_category": {
                CATEGORIES[c]: round(float(np.mean(v)), 4) for c, v in sorted(by_cat.items())
            },
        }
    warm_s, cold_s = sum(tally.warm_ms) / 1000, sum(tally.cold_ms) / 1000
    out["ms_warm_median"] = round(statistics.median(tally.warm_ms), 2) if tally.warm_ms else None
    out["ms_warm_mean"] = round(float(np.mean(tally.warm_ms)), 2) if tally.warm_ms else None
    out["ms_cold_mean"] = round(float(np.mean(tally.cold_ms)), 2) if tally.cold_ms else None
    out["tokens_per_s_warm"] = round(tally.warm_tokens / warm_s) if warm_s else None
    out["tokens_per_s_cold"] = round(tally.cold_tokens / cold_s) if cold_s else None
    return out


def model_load_seconds(kind: str) -> float | None:
    """Time to load one embedder in this process (import included), or None if absent."""
    from ctxpress.compressor.history import embed

    start = time.perf_counter()
    try:
        embed._load(kind)
    except Exception as exc:
        print(f"embedder {kind}: unavailable ({exc})", file=sys.stderr)
        return None
    return round(time.perf_counter() - start, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="LoCoMo evidence recall under a token budget")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--conversations", type=int, default=None, help="first N conversations")
    parser.add_argument("--limit", type=int, default=None, help="questions per conversation")
    parser.add_argument(
        "--embedders", default="static,minilm", help="ctxpress variants to run (static,minilm,none)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"SKIP: LoCoMo data not found at {args.data}", file=sys.stderr)
        return 0
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    conversations = load(args.data)[: args.conversations]
    kinds = [k for k in args.embedders.split(",") if k]
    load_s = {k: model_load_seconds(k) for k in kinds if k != "none"}
    methods: dict[str, Method] = {
        "keep-newest": baseline_method(keep_newest),
        "bm25": baseline_method(bm25_baseline),
    }
    for kind in kinds:
        if kind == "none" or load_s.get(kind) is not None:
            methods[f"ctxpress-{kind}"] = CtxpressMethod(ctxpress.Config(history_embedder=kind))
    tallies = run(conversations, methods, args.limit)
    results = {name: summarise(t) for name, t in tallies.items()}

    header = f"{'method':<18}" + "".join(f"{f'@{int(f * 100)}%':>8}" for f in FRACTIONS)
    header += f"{'mh@25%':>8}{'adv@25%':>8}{'ms warm':>9}{'ms cold':>9}{'tok/s warm':>12}"
    header += f"{'tok/s cold':>12}"
    print(header)
    for name, r in results.items():
        row = f"{name:<18}" + "".join(f"{r[f'{f:.2f}']['recall']:>8.3f}" for f in FRACTIONS)
        cats = r["0.25"]["by_category"]
        nan = float("nan")
        row += f"{cats.get('multi-hop', nan):>8.3f}{cats.get('adversarial', nan):>8.3f}"
        row += f"{r['ms_warm_mean']:>9.1f}{r['ms_cold_mean']:>9.1f}"
        row += f"{r['tokens_per_s_warm']:>12,}{r['tokens_per_s_cold']:>12,}"
        print(row)
    print(f"model load (s): {load_s}")
    payload = {
        "benchmark": "locomo",
        "protocol": "BENCHMARKS.md section 1",
        "fractions": list(FRACTIONS),
        "conversations": len(conversations),
        "questions_per_conversation_limit": args.limit,
        "threads": 1,
        "model_load_s": load_s,
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    tmp.replace(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
