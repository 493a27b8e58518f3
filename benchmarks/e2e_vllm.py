"""End to end with a real engine (BENCHMARKS.md §4): TTFT and prefix-cache hits, direct vs ctxpress.

LoCoMo conversations are replayed turn by turn against a real vLLM server (tiny
random-weight Llama, prefix caching on): every ``user`` turn is one request carrying
all turns so far. Two arms run over the same requests, alternating which goes first:

1. ``direct``: client-side sliding window, the oldest turns dropped until the prompt
   fits the budget (what users do without ctxpress);
2. ``ctxpress``: the whole history through ``ctxpress serve`` (``CTXPRESS_UPSTREAM`` =
   the vLLM server, budget in the body's ``ctxpress`` field) when that command exists,
   else ``ctxpress.compress`` in this process and the result sent straight to vLLM
   (the report says which).

At the end of every session, LoCoMo questions (categories 1-4) whose evidence turns
have all been replayed are asked once (history + the question as the last user
message); evidence recall is measured on exactly what each arm sent (the proxy's
``POST /v1/compress`` dry run for the proxy arm, when it answers). Each arm has its
own ``cache_salt``, so neither warms the engine's cache for the other.

Per request: prompt_tokens, cached_tokens (``usage.prompt_tokens_details``), TTFT
(streaming, first content chunk). Reported: total uncached prompt tokens, TTFT
median / p90, evidence recall. Token budgets use the model's own tokenizer
(``CTXPRESS_TOKENIZERS``), whose counts equal the engine's prompt_tokens.

    make e2e                                                 # everything, from scratch
    .venv/bin/python benchmarks/e2e_vllm.py --conversations 1 --turns 150
    .venv/bin/python benchmarks/e2e_vllm.py --url http://127.0.0.1:8000/v1   # a running server
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import statistics
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

import ctxpress
from ctxpress.config import Config
from ctxpress.tokens import get_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e.vllm_server import (
    DEFAULT_MODEL,
    DEFAULT_PYTHON,
    SERVED_NAME,
    URL_ENV,
    ctxpress_proxy,
    proxy_available,
    vllm_server,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"
RESULTS = ROOT / "benchmarks" / "results" / "e2e_vllm.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_ID_SPLIT = re.compile(r"[\s;,]+")
ARMS = ("direct", "ctxpress")

Message = dict[str, Any]


# --- data -------------------------------------------------------------------------


@dataclass
class Question:
    text: str
    category: int
    evidence: list[int]  # indices into Conversation.turns


@dataclass
class Conversation:
    sample_id: str
    turns: list[Message]
    session_end: set[int]  # index of the last turn of each session
    questions: list[Question] = field(default_factory=list)


def load(path: Path) -> list[Conversation]:
    """LoCoMo as chat turns (speaker_a = user, as in §1) with session ends and questions."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for sample in raw:
        conv = sample["conversation"]
        sessions = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
        speaker_a = conv.get("speaker_a")
        turns: list[Message] = []
        ends: set[int] = set()
        by_id: dict[str, int] = {}
        for n in sessions:
            when = conv.get(f"session_{n}_date_time", "")
            for turn in conv[f"session_{n}"]:
                speaker_a = speaker_a or turn["speaker"]
                content = f"[{when}] {turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    content += f" [shares image: {turn['blip_caption']}]"
                role = "user" if turn["speaker"] == speaker_a else "assistant"
                by_id[turn["dia_id"]] = len(turns)
                turns.append({"role": role, "content": content})
            if turns:
                ends.add(len(turns) - 1)
        questions = []
        for qa in sample["qa"]:
            if int(qa.get("category", 0)) not in CATEGORIES:
                continue
            ids = [i for e in qa.get("evidence", []) for i in _ID_SPLIT.split(e) if i]
            evidence = sorted({by_id[i] for i in ids if i in by_id})
            if evidence:
                questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
        out.append(Conversation(str(sample.get("sample_id", len(out))), turns, ends, questions))
    return out


@dataclass
class Event:
    """One request point: history up to turn ``upto`` (inclusive), maybe plus a question."""

    conv: str
    upto: int
    messages: list[Message]
    question: Question | None = None


def events(conv: Conversation, max_turns: int, max_questions: int) -> Iterator[Event]:
    """User turns in order; at each session end (and the last replayed turn) the questions
    whose evidence has all been replayed, each asked once."""
    last = min(len(conv.turns), max_turns) - 1
    pending = sorted(conv.questions, key=lambda q: q.evidence[-1])
    asked = 0
    for i in range(last + 1):
        history = conv.turns[: i + 1]
        if conv.turns[i]["role"] == "user":
            yield Event(conv.sample_id, i, list(history))
        if i in conv.session_end or i == last:
            ready = [q for q in pending if q.evidence[-1] <= i]
            pending = [q for q in pending if q.evidence[-1] > i]
            for q in ready:
                if asked >= max_questions:
                    break
                asked += 1
                msg = {"role": "user", "content": q.text}
                yield Event(conv.sample_id, i, [*history, msg], q)


# --- the two arms -----------------------------------------------------------------


def sliding_window(messages: list[Message], budget: int, count: Any) -> list[Message]:
    """Drop the oldest messages until the prompt fits (the last message always stays)."""
    start = 0
    while start < len(messages) - 1 and count(messages[start:]) > budget:
        start += 1
    return messages[start:]


def text_of(msg: Message) -> str:
    content = msg.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def recall(sent: Sequence[Message], conv: Conversation, q: Question) -> float:
    """Share of the question's evidence turns whose full content appears unchanged."""
    blob = "\n\x00".join(text_of(m) for m in sent)
    hits = sum(text_of(conv.turns[i]) in blob for i in q.evidence)
    return hits / len(q.evidence)


@dataclass
class Record:
    arm: str
    conv: str
    upto: int
    kind: str
    category: int | None = None
    messages_in: int = 0
    messages_sent: int | None = None
    tokens_before: int | None = None
    tokens_after: int | None = None
    prompt_tokens: int | None = None
    cached_tokens: int | None = None
    ttft_ms: float | None = None
    overhead_ms: float | None = None  # x-ctxpress-overhead-ms, or compress() ms (library)
    total_ms: float | None = None
    recall: float | None = None
    recall_source: str | None = None
    error: str | None = None

    @property
    def uncached(self) -> int | None:
        if self.prompt_tokens is None:
            return None
        return self.prompt_tokens - (self.cached_tokens or 0)


def stream_chat(client: httpx.Client, url: str, body: dict[str, Any], rec: Record) -> None:
    """POST a streaming chat completion; fill TTFT, usage and ctxpress headers into ``rec``."""
    t0 = time.perf_counter()
    first_choice: float | None = None
    try:
        with client.stream("POST", f"{url}/chat/completions", json=body) as resp:
            if resp.status_code != 200:
                resp.read()
                rec.error = f"HTTP {resp.status_code}: {resp.text[:300]}"
                return
            for name in ("before", "after"):
                value = resp.headers.get(f"x-ctxpress-tokens-{name}")
                if value and value.isdigit():
                    setattr(rec, f"tokens_{name}", int(value))
            with contextlib.suppress(TypeError, ValueError):
                rec.overhead_ms = float(resp.headers.get("x-ctxpress-overhead-ms"))
            for line in resp.iter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                chunk = json.loads(data)
                if "error" in chunk:
                    rec.error = f"stream error: {str(chunk['error'])[:300]}"
                for choice in chunk.get("choices") or []:
                    content = (choice.get("delta") or {}).get("content")
                    if content and rec.ttft_ms is None:
                        rec.ttft_ms = (time.perf_counter() - t0) * 1000
                    # A random-weight model may emit only bytes that decode to nothing
                    # yet; its first choice chunk still comes after the prefill.
                    first_choice = first_choice or (time.perf_counter() - t0) * 1000
                usage = chunk.get("usage")
                if usage:
                    rec.prompt_tokens = int(usage.get("prompt_tokens") or 0)
                    details = usage.get("prompt_tokens_details") or {}
                    rec.cached_tokens = int(details.get("cached_tokens") or 0)
    except httpx.HTTPError as exc:
        rec.error = f"{type(exc).__name__}: {exc}"
    finally:
        rec.total_ms = (time.perf_counter() - t0) * 1000
    if rec.error is None and rec.ttft_ms is None:
        rec.ttft_ms = first_choice
    if rec.error is None and rec.ttft_ms is None:
        rec.error = "no content chunk"
    if rec.error is None and rec.prompt_tokens is None:
        rec.error = "no usage in stream"


class Runner:
    """Sends one event through one arm and measures it."""

    def __init__(self, args: argparse.Namespace, vllm_url: str, proxy_url: str | None) -> None:
        self.args = args
        self.vllm_url = vllm_url
        self.proxy_url = proxy_url
        self.client = httpx.Client(timeout=httpx.Timeout(600.0, connect=10.0))
        tok_dir = str(Path(args.model_dir).expanduser())
        self.config = Config(tokenizers={args.model: tok_dir})
        self.count = get_counter(args.model, self.config)
        run = uuid.uuid4().hex[:8]
        self.salt = {arm: f"e2e-{arm}-{run}" for arm in ARMS}
        self.dry_run_ok: bool | None = None

    def body(self, messages: list[Message], arm: str) -> dict[str, Any]:
        return {
            "model": self.args.model,
            "messages": messages,
            "max_tokens": self.args.max_tokens,
            "temperature": 0,
            "ignore_eos": True,
            "stream": True,
            "stream_options": {"include_usage": True},
            "cache_salt": self.salt[arm],
        }

    def ctxpress_field(self) -> dict[str, Any]:
        field_: dict[str, Any] = {"budget": self.args.budget}
        if self.args.stages:
            field_["stages"] = self.args.stages
        return field_

    def compress_local(self, messages: list[Message]) -> ctxpress.CompressResult:
        return ctxpress.compress(
            messages,
            budget=self.args.budget,
            model=self.args.model,
            config=self.config,
            stages=self.args.stages or None,
        )

    def proxy_sent(self, messages: list[Message]) -> tuple[list[Message], str]:
        """What the proxy forwards, from its dry run; local compression if that fails."""
        if self.dry_run_ok is not False and self.proxy_url:
            body = {"model": self.args.model, "messages": messages}
            body["ctxpress"] = self.ctxpress_field()
            try:
                resp = self.client.post(f"{self.proxy_url}/compress", json=body)
                if resp.status_code == 200 and isinstance(resp.json().get("messages"), list):
                    self.dry_run_ok = True
                    return resp.json()["messages"], "proxy /v1/compress"
            except (httpx.HTTPError, ValueError):
                pass
            self.dry_run_ok = False
        return self.compress_local(messages).messages, "local ctxpress.compress"

    def run(self, ev: Event, conv: Conversation, arm: str) -> Record:
        q = ev.question
        rec = Record(
            arm=arm,
            conv=ev.conv,
            upto=ev.upto,
            kind="question" if q else "turn",
            category=q.category if q else None,
            messages_in=len(ev.messages),
        )
        sent: list[Message] | None
        if arm == "direct":
            sent = sliding_window(ev.messages, self.args.budget, self.count)
            rec.tokens_before = self.count(ev.messages)
            rec.tokens_after = self.count(sent)
            stream_chat(self.client, self.vllm_url, self.body(sent, arm), rec)
            rec.recall_source = "sent"
        elif self.proxy_url:
            body = self.body(ev.messages, arm)
            body["ctxpress"] = self.ctxpress_field()
            stream_chat(self.client, self.proxy_url, body, rec)
            sent = None
            if q:
                sent, rec.recall_source = self.proxy_sent(ev.messages)
        else:  # in-process: the client pays the compression time before its request
            t0 = time.perf_counter()
            result = self.compress_local(ev.messages)
            rec.overhead_ms = (time.perf_counter() - t0) * 1000
            sent = result.messages
            rec.tokens_before, rec.tokens_after = result.tokens_before, result.tokens_after
            stream_chat(self.client, self.vllm_url, self.body(sent, arm), rec)
            if rec.ttft_ms is not None:
                rec.ttft_ms += rec.overhead_ms
            if rec.total_ms is not None:
                rec.total_ms += rec.overhead_ms
            rec.recall_source = "sent"
        if sent is not None:
            rec.messages_sent = len(sent)
        if q and sent is not None:
            rec.recall = recall(sent, conv, q)
        return rec


# --- report -----------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def summarise(records: list[Record], budget: int) -> dict[str, Any]:
    ok = [r for r in records if r.error is None]
    ttft = [r.ttft_ms for r in ok if r.ttft_ms is not None]
    long = [r.ttft_ms for r in ok if r.ttft_ms is not None and (r.tokens_before or 0) > budget]
    overhead = [r.overhead_ms for r in ok if r.overhead_ms is not None]
    prompt = sum(r.prompt_tokens or 0 for r in ok)
    cached = sum(r.cached_tokens or 0 for r in ok)
    recalls = [r for r in records if r.recall is not None]
    by_cat: dict[str, list[float]] = defaultdict(list)
    by_conv: dict[str, list[float]] = defaultdict(list)
    for r in recalls:
        by_cat[CATEGORIES.get(r.category or 0, "?")].append(r.recall or 0.0)
        by_conv[r.conv].append(r.recall or 0.0)
    return {
        "requests": len(records),
        "errors": len(records) - len(ok),
        "prompt_tokens": prompt,
        "cached_tokens": cached,
        "uncached_tokens": prompt - cached,
        "cached_share": cached / prompt if prompt else None,
        "ttft_ms_median": pct(ttft, 0.5),
        "ttft_ms_p90": pct(ttft, 0.9),
        "long_history_requests": len(long),
        "ttft_ms_median_long": pct(long, 0.5),
        "ttft_ms_p90_long": pct(long, 0.9),
        "proxy_overhead_ms_median": pct(overhead, 0.5),
        "proxy_overhead_ms_p90": pct(overhead, 0.9),
        "questions": len(recalls),
        "recall": statistics.fmean(r.recall or 0.0 for r in recalls) if recalls else None,
        "recall_by_category": {k: statistics.fmean(v) for k, v in sorted(by_cat.items())},
        "recall_by_conversation": {k: statistics.fmean(v) for k, v in by_conv.items()},
        "over_budget": sum((r.tokens_after or 0) > budget for r in records),
        "first_errors": [r.error for r in records if r.error][:3],
    }


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def fmt(v: Any, spec: str = ".0f") -> str:
    return "-" if v is None else format(v, spec)


def print_table(summary: dict[str, dict[str, Any]], ratios: dict[str, Any]) -> None:
    rows = [
        ("requests", "requests", "d"),
        ("errors", "errors", "d"),
        ("prompt tokens", "prompt_tokens", "d"),
        ("cached tokens", "cached_tokens", "d"),
        ("uncached tokens", "uncached_tokens", "d"),
        ("cached share", "cached_share", ".3f"),
        ("TTFT median ms", "ttft_ms_median", ".1f"),
        ("TTFT p90 ms", "ttft_ms_p90", ".1f"),
        ("TTFT median ms (history > budget)", "ttft_ms_median_long", ".1f"),
        ("TTFT p90 ms (history > budget)", "ttft_ms_p90_long", ".1f"),
        ("ctxpress overhead median ms", "proxy_overhead_ms_median", ".1f"),
        ("ctxpress overhead p90 ms", "proxy_overhead_ms_p90", ".1f"),
        ("questions", "questions", "d"),
        ("evidence recall", "recall", ".3f"),
        ("requests over budget", "over_budget", "d"),
    ]
    print(f"{'':36} {'direct':>12} {'ctxpress':>12}")
    for label, key, spec in rows:
        d, c = summary["direct"].get(key), summary["ctxpress"].get(key)
        print(f"{label:36} {fmt(d, spec):>12} {fmt(c, spec):>12}")
    for cat in CATEGORIES.values():
        d = summary["direct"]["recall_by_category"].get(cat)
        c = summary["ctxpress"]["recall_by_category"].get(cat)
        if d is not None or c is not None:
            print(f"{'  recall ' + cat:36} {fmt(d, '.3f'):>12} {fmt(c, '.3f'):>12}")
    print()
    print(
        f"uncached ctxpress/direct = {fmt(ratios['uncached'], '.3f')} (target <= 0.333); "
        f"TTFT median ctxpress/direct = {fmt(ratios['ttft_median'], '.3f')} (target <= 0.5; "
        f"{fmt(ratios['ttft_median_long'], '.3f')} where the history is over budget); "
        f"recall ctxpress - direct = {fmt(ratios['recall_delta'], '+.3f')} (target >= 0)"
    )


# --- main -------------------------------------------------------------------------


def warm_up(client: httpx.Client, url: str, model: str, extra: dict[str, Any]) -> list[str]:
    """First requests pay one-off costs (allocations, tokenizer load); keep them out.

    Returns the failures seen (a few are tolerated and reported, not measured)."""
    errors: list[str] = []
    ok = 0
    while ok < 3:
        body = {
            "model": model,
            "messages": [{"role": "user", "content": f"warm up {uuid.uuid4().hex}"}],
            "max_tokens": 2,
            "cache_salt": "e2e-warmup",
            **extra,
        }
        resp = client.post(f"{url}/chat/completions", json=body)
        if resp.status_code == 200:
            ok += 1
            continue
        errors.append(f"HTTP {resp.status_code}: {resp.text[:200]}")
        print(f"  warm-up request to {url} failed: {errors[-1]}", flush=True)
        if len(errors) >= 3:
            resp.raise_for_status()
        time.sleep(1)
    return errors


def run(args: argparse.Namespace, vllm_url: str, proxy_url: str | None) -> dict[str, Any]:
    convs = load(args.data)[: args.conversations]
    runner = Runner(args, vllm_url, proxy_url)
    warmup_errors = warm_up(runner.client, vllm_url, args.model, {})
    if proxy_url:
        extra = {"ctxpress": runner.ctxpress_field()}
        warmup_errors += warm_up(runner.client, proxy_url, args.model, extra)
    records: dict[str, list[Record]] = {arm: [] for arm in ARMS}
    t0 = time.perf_counter()
    n = 0
    for conv in convs:
        for ev in events(conv, args.turns, args.max_questions):
            order = ARMS if n % 2 == 0 else ARMS[::-1]
            for arm in order:
                records[arm].append(runner.run(ev, conv, arm))
            n += 1
            if args.progress and n % args.progress == 0:
                d, c = records["direct"][-1], records["ctxpress"][-1]
                print(
                    f"  {n} events, {time.perf_counter() - t0:.0f} s; last: direct "
                    f"{d.prompt_tokens}/{d.cached_tokens} {fmt(d.ttft_ms, '.0f')} ms, ctxpress "
                    f"{c.prompt_tokens}/{c.cached_tokens} {fmt(c.ttft_ms, '.0f')} ms",
                    flush=True,
                )
    summary = {arm: summarise(records[arm], args.budget) for arm in ARMS}
    sd, sc = summary["direct"], summary["ctxpress"]
    ratios = {
        "uncached": ratio(sc["uncached_tokens"], sd["uncached_tokens"]),
        "ttft_median": ratio(sc["ttft_ms_median"], sd["ttft_ms_median"]),
        "ttft_p90": ratio(sc["ttft_ms_p90"], sd["ttft_ms_p90"]),
        "ttft_median_long": ratio(sc["ttft_ms_median_long"], sd["ttft_ms_median_long"]),
        "recall_delta": (sc["recall"] - sd["recall"])
        if sc["recall"] is not None and sd["recall"] is not None
        else None,
    }
    stages = args.stages or list(runner.config.stages)
    return {
        "protocol": "BENCHMARKS.md section 4",
        "ctxpress_mode": "proxy (ctxpress serve)" if proxy_url else "library (compress + direct)",
        "recall_source_ctxpress": sorted(
            {r.recall_source for r in records["ctxpress"] if r.recall_source}
        ),
        "vllm_version": engine_version(runner.client, vllm_url),
        "stages": stages,
        "model": args.model,
        "model_dir": str(Path(args.model_dir).expanduser()),
        "budget": args.budget,
        "max_tokens": args.max_tokens,
        "conversations": [cv.sample_id for cv in convs],
        "turns": args.turns,
        "events": n,
        "seconds": round(time.perf_counter() - t0, 1),
        "warmup_errors": warmup_errors,
        "summary": summary,
        "ratios": ratios,
        "records": {
            arm: [asdict(r) | {"uncached": r.uncached} for r in records[arm]] for arm in ARMS
        },
    }


def engine_version(client: httpx.Client, url: str) -> str | None:
    """vLLM's ``GET /version`` (beside ``/v1``), for the report."""
    try:
        resp = client.get(url.rstrip("/").removesuffix("/v1") + "/version")
        return str(resp.json().get("version")) if resp.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def dumps(report: dict[str, Any]) -> str:
    """Indented JSON with one line per request record, so the file stays readable."""
    head = {k: v for k, v in report.items() if k != "records"}
    parts = []
    for arm, rows in report["records"].items():
        lines = ",\n".join("   " + json.dumps(r) for r in rows)
        parts.append(f'  "{arm}": [\n{lines}\n  ]')
    body = json.dumps(head, indent=1)[:-2]
    return body + ',\n "records": {\n' + ",\n".join(parts) + "\n }\n}\n"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default=os.environ.get(URL_ENV), help="a running vLLM /v1 URL")
    p.add_argument("--model", default=os.environ.get("CTXPRESS_E2E_MODEL", SERVED_NAME))
    p.add_argument(
        "--model-dir",
        default=os.environ.get("CTXPRESS_E2E_MODEL_DIR", str(DEFAULT_MODEL)),
        help="the model's folder (tokenizer for budgets; served when --url is absent)",
    )
    p.add_argument("--vllm-python", type=Path, default=DEFAULT_PYTHON)
    p.add_argument(
        "--vllm-args", default="", help="extra vLLM flags when this script starts the server"
    )
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--conversations", type=int, default=1)
    p.add_argument("--turns", type=int, default=150, help="turns replayed per conversation")
    p.add_argument("--max-questions", type=int, default=60, help="per conversation")
    p.add_argument("--budget", type=int, default=2048, help="prompt tokens, both arms")
    p.add_argument("--max-tokens", type=int, default=4)
    p.add_argument("--stages", nargs="*", default=None, help="ctxpress stages (default: config)")
    p.add_argument(
        "--mode",
        choices=("auto", "proxy", "library"),
        default="auto",
        help="how the ctxpress arm runs; auto = proxy when `ctxpress serve` exists",
    )
    p.add_argument("--progress", type=int, default=25, help="print every N events (0: never)")
    p.add_argument("--out", type=Path, default=RESULTS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.data.exists():
        print(f"needs {args.data} (LoCoMo, the team's shared data)", file=sys.stderr)
        return 2
    use_proxy = args.mode == "proxy" or (args.mode == "auto" and proxy_available())
    with ExitStack() as stack:
        url = args.url
        if not url:
            print("starting vLLM (no --url / CTXPRESS_E2E_VLLM_URL given) ...", flush=True)
            url = stack.enter_context(
                vllm_server(
                    Path(args.model_dir),
                    args.vllm_python,
                    args.model,
                    extra_args=shlex.split(args.vllm_args),
                )
            )
        proxy_url = None
        if use_proxy:
            env = {"CTXPRESS_TOKENIZERS": json.dumps({args.model: args.model_dir})}
            proxy_url = stack.enter_context(ctxpress_proxy(url, env))
        print(
            f"vLLM {url}; ctxpress arm: {'proxy ' + proxy_url if proxy_url else 'library'}; "
            f"budget {args.budget}; {args.conversations} conversation(s) x {args.turns} turns",
            flush=True,
        )
        report = run(args, url, proxy_url)
    print_table(report["summary"], report["ratios"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dumps(report), encoding="utf-8")
    print(f"wrote {args.out}")
    d, c = report["summary"]["direct"], report["summary"]["ctxpress"]
    if c["over_budget"]:
        print(
            f"WARNING: the ctxpress arm exceeded the budget on {c['over_budget']} request(s) "
            f"(stages: {report['stages']}): its prompts are not the same size as direct's."
        )
    if c["errors"]:
        print(f"WARNING: {c['errors']} ctxpress-arm request(s) failed: {c['first_errors']}")
    if d["errors"]:  # the direct arm failing means the machinery itself is broken
        print(f"ERROR: {d['errors']} direct request(s) failed: {d['first_errors']}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
