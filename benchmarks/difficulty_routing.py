"""Difficulty routing: what the ``auto`` alias's rule score decides, and what it costs.

Labels are a proxy for difficulty taken from the shared data: LoCoMo questions
(short conversational lookups: ``easy``) and DevEval tasks (implement a function
in a real source file: ``hard``). The score must stay far under the 5 ms budget
and separate the two; a real deployment tunes ``threshold`` on its own traffic.

    .venv/bin/python benchmarks/difficulty_routing.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from ctxpress.middleware.routing import difficulty

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results" / "difficulty_routing.json"


def locomo() -> list[list[dict[str, Any]]]:
    data = json.loads((SHARED / "locomo" / "locomo10.json").read_text("utf-8"))
    return [
        [{"role": "user", "content": str(qa["question"])}] for conv in data for qa in conv["qa"]
    ]


def deveval(limit: int = 400) -> list[list[dict[str, Any]]]:
    out = []
    with (SHARED / "deveval" / "data.jsonl").open() as fh:
        for line in fh:
            task = json.loads(line)
            req = task.get("requirement") or {}
            text = (
                f"Implement `{task.get('namespace', '')}`.\n"
                f"```python\n{task.get('signature', '') or ''}\n    ...\n```\n"
                f"{req.get('Functionality', '')}\n{req.get('Arguments', '')}"
            )
            out.append([{"role": "user", "content": text}])
            if len(out) >= limit:
                break
    return out


def main() -> None:
    if not SHARED.exists():
        raise SystemExit(f"needs {SHARED} (the team's shared data)")
    rows = []
    for name, sets, label in (("locomo", locomo(), "easy"), ("deveval", deveval(), "hard")):
        scores, times = [], []
        for messages in sets:
            start = time.perf_counter()
            scores.append(difficulty(messages))
            times.append((time.perf_counter() - start) * 1e6)
        times.sort()
        for threshold in (0.3, 0.5):
            hard = sum(s >= threshold for s in scores) / len(scores)
            rows.append(
                {
                    "set": name,
                    "label": label,
                    "n": len(scores),
                    "threshold": threshold,
                    "routed_large": round(hard, 3),
                    "correct": round(hard if label == "hard" else 1 - hard, 3),
                    "score_median": round(statistics.median(scores), 3),
                    "us_p50": round(times[len(times) // 2], 1),
                    "us_p99": round(times[int(len(times) * 0.99)], 1),
                }
            )
    print(f"{'set':<8} {'label':<5} {'n':>5} {'thr':>4} {'->large':>7} {'correct':>7} "
          f"{'median':>6} {'us p50':>7} {'us p99':>7}")  # fmt: skip
    for r in rows:
        print(
            f"{r['set']:<8} {r['label']:<5} {r['n']:5d} {r['threshold']:4.1f} "
            f"{r['routed_large']:7.3f} {r['correct']:7.3f} {r['score_median']:6.3f} "
            f"{r['us_p50']:7.1f} {r['us_p99']:7.1f}"
        )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=2))
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
