"""Parse validity of trimmed real code in every supported language besides Python.

Sources come from the package registries, outside the repository:
JavaScript from the npm CLI's own package, TypeScript from ``npm pack rxjs zod``, Go from
Debian's ``golang-src``, Rust from Debian's ``librust-regex-dev`` / ``librust-serde-dev``
(crates in /usr/share/cargo/registry), Java from the JDK's ``src.zip``, C from
/usr/include and the Go runtime's C files, C++ from libstdc++'s headers. Files whose
input does not parse cleanly with tree-sitter are counted and skipped (the stage
leaves those alone by design). For each clean file, up to three functions in turn are
the focal symbol; the block goes through ``ctxpress.compress`` at f = 0.25 and the
output block must parse without ERROR / MISSING nodes.

    .venv/bin/python benchmarks/code_parse.py [--per-lang 120]

Setup (once): ``apt-get install golang-src librust-regex-dev librust-serde-dev`` and
``npm pack rxjs@7.8.1 zod@3.23.8`` unpacked under ~/.cache/ctxpress/bench/npm.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import time
import zipfile
from pathlib import Path
from typing import Any

import ctxpress
from ctxpress.compressor.code.fences import find_fences
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.compressor.code.outline import build_outline
from ctxpress.tokens import get_counter, user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_parse.json"
NPM = user_cache_dir() / "bench" / "npm"
F = 0.25
TAGS = {
    "javascript": "js",
    "typescript": "ts",
    "tsx": "tsx",
    "go": "go",
    "java": "java",
    "rust": "rust",
    "c": "c",
    "cpp": "cpp",
}


def _glob(*patterns: str) -> list[str]:
    out: list[str] = []
    for p in patterns:
        out.extend(glob.glob(p, recursive=True))
    return sorted(set(out))


def corpus(lang: str) -> list[tuple[str, str]]:
    """(name, source) pairs for ``lang``."""
    files: list[str] = []
    if lang == "javascript":
        files = _glob("/usr/lib/node_modules/npm/**/*.js")
    elif lang == "typescript":
        files = [f for f in _glob(f"{NPM}/**/*.ts", f"{NPM}/**/*.mts") if not f.endswith(".d.ts")]
    elif lang == "tsx":
        files = _glob(f"{NPM}/**/*.tsx")
    elif lang == "go":
        files = [f for f in _glob("/usr/share/go-*/src/**/*.go") if "/testdata/" not in f]
    elif lang == "rust":
        files = _glob("/usr/share/cargo/registry/**/*.rs")
    elif lang == "c":
        files = _glob("/usr/include/*.h", "/usr/share/go-*/src/runtime/**/*.c")
    elif lang == "cpp":
        files = _glob("/usr/include/c++/*/bits/*.h", "/usr/include/c++/*/*.cc")
    elif lang == "java":
        out = []
        for src in [p for p in _glob("/usr/lib/jvm/*/lib/src.zip") if Path(p).exists()][:1]:
            with zipfile.ZipFile(src) as zf:
                names = sorted(
                    n
                    for n in zf.namelist()
                    if n.startswith("java.base/java/") and n.endswith(".java")
                )
                for n in names:
                    out.append((n, zf.read(n).decode("utf-8", "replace")))
        return out
    out2 = []
    for f in files:
        try:
            out2.append((f, Path(f).read_text(encoding="utf-8")))
        except (UnicodeDecodeError, OSError):
            continue
    return out2


def sample(items: list[Any], n: int) -> list[Any]:
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-lang", type=int, default=120)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    counter = get_counter(None, ctxpress.Config())
    report: dict[str, Any] = {}
    print(
        f"{'language':11} {'files':>6} {'clean':>6} {'cases':>6} {'trimmed':>8} {'parse':>6} "
        f"{'MB':>6} {'ms/case':>8}"
    )
    for lang, tag in TAGS.items():
        files = sample(corpus(lang), args.per_lang)
        row = {
            "files": len(files),
            "clean_inputs": 0,
            "cases": 0,
            "trimmed": 0,
            "parse_ok": 0,
            "bytes": 0,
            "failures": [],
        }
        seconds = 0.0
        for name, code in files:
            if not code.strip() or clean_parse(lang, code.encode()) is None:
                continue
            row["clean_inputs"] += 1
            outline = build_outline(lang, code, clean_parse(lang, code.encode()))
            funcs = [u for u in outline.units if u.kind == "func" and u.name]
            picks = sample(funcs, 3) if funcs else [None]
            runs = max(3, 1 + max((len(m) for m in re.findall(r"`+", code)), default=0))
            fence = "`" * runs
            for u in picks:
                question = f"What does `{u.name}` do?" if u else "Summarise this file."
                empty = [{"role": "user", "content": f"{fence}{tag}\n\n{fence}\n{question}"}]
                budget = ctxpress.count_tokens(empty) + int(F * counter.text(code))
                content = f"{fence}{tag}\n{code}\n{fence}\n{question}"
                t0 = time.perf_counter()
                res = ctxpress.compress([{"role": "user", "content": content}], budget=budget)
                seconds += time.perf_counter() - t0
                row["bytes"] += len(code.encode())
                text = res.messages[-1]["content"]
                block = find_fences(text)[0]
                out = text[block.code_start : block.code_end]  # the block as sent
                row["cases"] += 1
                row["trimmed"] += int(out != code + "\n")
                ok = clean_parse(lang, out.encode()) is not None
                row["parse_ok"] += int(ok)
                if not ok and len(row["failures"]) < 20:
                    row["failures"].append({"file": name, "focal": u.name if u else None})
        row["parse_share"] = row["parse_ok"] / row["cases"] if row["cases"] else None
        row["ms_per_case"] = round(1000 * seconds / max(1, row["cases"]), 2)
        row["mb"] = round(row["bytes"] / 1e6, 2)
        report[lang] = row
        share = row["parse_share"] if row["parse_share"] is not None else float("nan")
        print(
            f"{lang:11} {row['files']:6d} {row['clean_inputs']:6d} {row['cases']:6d} "
            f"{row['trimmed']:8d} {share:6.3f} {row['mb']:6.2f} {row['ms_per_case']:8.2f}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
