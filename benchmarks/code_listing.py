"""Numbered listings (`cat -n`, coding agents' read-file tools) on real code: trimmed like
the same file without numbers, and is every kept line's number its own?

Per language, up to 40 files of the ``code_real.py`` corpus (run ``code_real.py --fetch``
once first), each sent as a tool result twice: as plain source and as a `cat -n` listing,
with "Why does `name` return the wrong value?" about one of its functions, at 25 % of the
tokens. For the listing: outputs that parse once the numbers are taken off, kept lines
whose number is not their own (target 0), kept code lines without a number (target 0),
numbers in order; within budget for both.

    .venv/bin/python benchmarks/code_listing.py
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from pathlib import Path

import ctxpress
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_listing.json"
CACHE = user_cache_dir() / "bench" / "real"
EXTS = {
    ".py": "python",
    ".js": "javascript",
    ".ts": "typescript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".cpp": "cpp",
}
PER_LANG, SHARE = 40, 0.25
_DEF = re.compile(
    r"(?m)^(?:def|func|fn|function|export function|static \w+|int|void|public \w+|"
    r"    public \w+)\s+(\w+)\s*\("
)
_NUMBERED = re.compile(r" *\d+\t")
_ELISIONS = ("...", "// …")


def ask(name: str, path: Path, body: str) -> tuple[list[dict[str, object]], int]:
    call = {"id": "c1", "type": "function"}
    call["function"] = {"name": "read_file", "arguments": json.dumps({"path": path.name})}
    msgs: list[dict[str, object]] = [
        {"role": "user", "content": f"Look at {path.name}"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": body},
        {"role": "user", "content": f"Why does `{name}` return the wrong value?"},
    ]
    return msgs, int(ctxpress.count_tokens(msgs) * SHARE)


def main() -> None:
    if not CACHE.exists():
        raise SystemExit(f"missing {CACHE}: run benchmarks/code_real.py --fetch first")
    files = sorted(p for p in CACHE.rglob("*") if p.suffix in EXTS and p.is_file())
    random.Random(0).shuffle(files)
    per: Counter[str] = Counter()
    rows: dict[str, Counter[str]] = {}
    for path in files:
        lang = EXTS[path.suffix]
        if per[lang] >= PER_LANG or not 3000 < path.stat().st_size < 60000:
            continue
        try:
            code = path.read_text()
        except UnicodeDecodeError:
            continue
        names = _DEF.findall(code)
        if "\r" in code or not names or clean_parse(lang, code.encode()) is None:
            continue
        per[lang] += 1
        name = random.Random(path.name).choice(names)
        listing = "".join(f"{i + 1:6}\t{line}\n" for i, line in enumerate(code.splitlines()))
        c = rows.setdefault(lang, Counter())
        c["files"] += 1
        for variant, body in (("plain", code), ("listing", listing)):
            msgs, budget = ask(name, path, body)
            t0 = time.perf_counter()
            res = ctxpress.compress(msgs, budget=budget, stages=["code"])
            c[f"{variant}_ms"] += int((time.perf_counter() - t0) * 1000)
            out = str(res.messages[2]["content"])
            if out == body:
                continue
            c[f"{variant}_trimmed"] += 1
            c[f"{variant}_within"] += res.tokens_after <= budget
            if variant == "listing":
                own = set(listing.splitlines())
                lines = out.splitlines()
                numbered = [line for line in lines if _NUMBERED.match(line)]
                c["wrong_number"] += sum(line not in own for line in numbered)
                c["unnumbered"] += sum(
                    not _NUMBERED.match(line) and line.strip() not in (*_ELISIONS, "")
                    for line in lines
                )
                order = [int(line.split("\t", 1)[0]) for line in numbered]
                c["in_order"] += order == sorted(set(order))
                code_out = "\n".join(_NUMBERED.sub("", line, count=1) for line in lines)
                c["parse"] += clean_parse(lang, (code_out + "\n").encode()) is not None
    head = (
        f"{'language':11} {'files':>5} {'trimmed':>7} {'parse':>6} {'wrong#':>6} "
        f"{'no #':>5} {'order':>6} {'within':>7} {'plain':>6}"
    )
    print(head + "\n" + "-" * len(head))
    for lang, c in sorted(rows.items()):
        t = max(1, c["listing_trimmed"])
        print(
            f"{lang:11} {c['files']:5} {c['listing_trimmed']:7} {c['parse'] / t:6.3f} "
            f"{c['wrong_number']:6} {c['unnumbered']:5} {c['in_order'] / t:6.3f} "
            f"{c['listing_within'] / t:7.3f} {c['plain_within'] / max(1, c['plain_trimmed']):6.3f}"
        )
    RESULTS.write_text(json.dumps({lang: dict(c) for lang, c in rows.items()}, indent=1))
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
