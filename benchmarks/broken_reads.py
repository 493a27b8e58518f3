"""Broken reads: an agent broke a file and ran the build; is its earlier read still sent?

Corpus: code_real's real files of 9 languages (``benchmarks/code_real.py --fetch`` once),
25 per language (its own draw). Each file gets one edit that breaks it: a `;`, `)` or `}`
dropped from a code line, not one inside a comment the parser finds (Random(7)). The
request is an agent's step: the question, its read of the broken file (a tool result),
then the build it ran, whose output names the line (`path:N:C: error: …`; a `SyntaxError`
traceback for Python). Budget: the rest + f x the read's tokens, f = 0.10 / 0.30 / 0.60.

Baseline, same run: the default stages without ``code``, which is what became of such a
read before the code stage excerpted files that do not parse (it left them whole, and the
history stage dropped them whole).

Columns per language and f: files; ``read`` the read still sent; ``line`` the broken line
in it; ``excerpt`` reads cut by lines (the code stage's note); ``within`` budget kept;
``foreign`` outputs with a line the file does not hold (markers and elisions aside);
``err`` exceptions and fail-opens.

    .venv/bin/python benchmarks/broken_reads.py
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Any

import code_real  # its corpus and its draw (this folder is the script's path)

import ctxpress
from ctxpress.compressor.code.languages import parse

RESULTS = Path(__file__).resolve().parent / "results" / "broken_reads.json"
FRACTIONS = (0.10, 0.30, 0.60)
PER_LANG = 25
WITHOUT_CODE = ("system", "logs", "history", "logs")
MARKER = re.compile(r"^\s*(//|#) … \d+ lines? omitted …\r?$")
ELISIONS = frozenset({"...", "// …", "/* … */", "{ /* … */ }", "# …"})
EXT = {"python": "py", "javascript": "js", "typescript": "ts", "tsx": "tsx", "go": "go"}
EXT |= {"rust": "rs", "c": "c", "cpp": "cpp", "java": "java"}
_COMMENT = ("//", "/*", "*", "#")  # (a code line: not one of a comment)


def breaks(text: str, lang: str, rng: random.Random) -> tuple[str, int, int] | None:
    """``text`` with one `;`, `)` or `}` dropped from a code line: (text, row, column)."""
    rows = text.split("\n")
    notes = _comment_rows(text, lang)
    cands = [
        i
        for i, r in enumerate(rows)
        if len(r.strip()) > 10
        and any(c in r for c in ";)}")
        and not r.lstrip().startswith(_COMMENT)
        and i not in notes
    ]
    if not cands:
        return None
    i = rng.choice(cands)
    pos = max(rows[i].rfind(c) for c in ";)}")
    rows[i] = rows[i][:pos] + rows[i][pos + 1 :]
    return "\n".join(rows), i, pos


def _comment_rows(text: str, lang: str) -> set[int]:
    """Rows inside a comment the parser finds (a licence's `Copyright (C) …` in a block
    comment, with no leading `*`: a `)` dropped there breaks nothing)."""
    out: set[int] = set()
    stack = [parse(lang, text.encode()).root_node]
    while stack:
        node = stack.pop()
        if "comment" in node.type:
            out.update(range(node.start_point.row, node.end_point.row + 1))
        else:
            stack.extend(node.children)
    return out


def request(lang: str, path: str, text: str, row: int, col: int) -> list[dict[str, Any]]:
    if lang == "python":
        line = text.split("\n")[row].strip()
        report = f'  File "{path}", line {row + 1}\n    {line}\nSyntaxError: invalid syntax\n'
    else:
        report = f"{path}:{row + 1}:{col + 1}: error: expected ';' or ')' or '}}'\n"
    read = {"name": "read_file", "arguments": json.dumps({"path": path})}
    run = {"name": "bash", "arguments": json.dumps({"command": "make"})}
    return [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "The build fails. Fix it."},
        {"role": "assistant", "content": None, "tool_calls": [_call("c0", read)]},
        {"role": "tool", "tool_call_id": "c0", "content": text},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", run)]},
        {"role": "tool", "tool_call_id": "c1", "content": report},
    ]


def _call(i: str, function: dict[str, str]) -> dict[str, Any]:
    return {"id": i, "type": "function", "function": function}


def measure(msgs: list[dict[str, Any]], budget: int, row_text: str, stages: Any) -> dict:
    try:
        res = ctxpress.compress(msgs, budget=budget, stages=stages)
    except Exception as e:  # counted, not raised
        return {"err": True, "why": repr(e)}
    sent = [m["content"] for m in res.messages if m.get("tool_call_id") == "c0"]
    lines = set(str(msgs[3]["content"]).split("\n"))
    out = sent[0].split("\n") if sent else []
    foreign = [
        ln for ln in out if ln not in lines and not MARKER.match(ln) and ln.strip() not in ELISIONS
    ]
    notes = [n for s in res.stages for n in s.notes]
    return {
        "err": bool(res.fail_open),
        "read": bool(sent),
        "line": row_text in out,
        "excerpt": any("excerpt around line" in n for n in notes),
        "within": res.tokens_after <= budget,
        "foreign": bool(foreign),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-lang", type=int, default=PER_LANG)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if not code_real.CACHE.exists():
        raise SystemExit("no corpus: run benchmarks/code_real.py --fetch once")
    rng = random.Random(7)
    rows: list[dict[str, Any]] = []
    for lang, files in code_real.samples(70).items():
        for name in sorted(random.Random(3).sample(files, min(args.per_lang, len(files)))):
            text = Path(name).read_text(errors="replace")
            broken = breaks(text, lang, rng)
            if broken is None:
                continue
            text, row, col = broken
            path = f"src/{Path(name).stem}.{EXT[lang]}"
            msgs = request(lang, path, text, row, col)
            without = [*msgs[:3], {**msgs[3], "content": ""}, *msgs[4:]]
            rest = ctxpress.count_tokens(without)
            read = ctxpress.count_tokens(msgs) - rest
            for f in FRACTIONS:
                budget = rest + int(f * read)
                row_text = text.split("\n")[row]
                for method, stages in (("ctxpress", None), ("without code", WITHOUT_CODE)):
                    r = measure(msgs, budget, row_text, stages)
                    rows.append({"lang": lang, "file": name, "f": f, "method": method} | r)
    cols = ("read", "line", "excerpt", "within", "foreign", "err")
    summary: dict[str, Any] = {}
    head = " ".join(f"{c:>7s}" for c in cols)
    print(f"{'method':13s} {'lang':11s} {'f':>5s} {'files':>5s} {head}")
    for method in ("ctxpress", "without code"):
        for lang in [*EXT, "ALL"]:
            for f in FRACTIONS:
                sel = [
                    r
                    for r in rows
                    if r["method"] == method and r["f"] == f and lang in (r["lang"], "ALL")
                ]
                if not sel:
                    continue
                cell = {c: round(sum(bool(r.get(c)) for r in sel) / len(sel), 3) for c in cols}
                cell["files"] = len(sel)
                summary.setdefault(method, {}).setdefault(lang, {})[str(f)] = cell
                line = " ".join(f"{cell[c]:7.3f}" for c in cols)
                print(f"{method:13s} {lang:11s} {f:5.2f} {len(sel):5d} {line}")
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
