"""Trim every module of the Python standard library around a few of its functions.

For each module (``.py`` files of the running interpreter's stdlib; ``--tests`` adds the
test packages), up to three top-level functions (first, middle, last) in turn become the
focal symbol of a question; the code block goes through ``ctxpress.compress`` with
budget = tokens(message without the code) + 0.25 x tokens(code). ``--packages N`` does the
same on N modules drawn (seeded) from the installed third-party packages, code nobody
here wrote or tuned on, with methods (asked as `Class.method`) among the focal functions
and names defined twice in a module left out (a question could not tell them apart).
Checks:

- every trimmed block parses (``ast.parse`` and tree-sitter, no ERROR / MISSING nodes);
- pyflakes finds no undefined name inside the focal function that the original module
  defined (names the original already left undefined are not counted);
- throughput of parse + trim (MB of source per second, one core), measured on the
  trimmer itself, with the whole-pipeline time reported beside it.

    .venv/bin/python benchmarks/stdlib_trim.py [--limit N] [--tests]
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import random
import sysconfig
import time
from pathlib import Path
from typing import Any

from pyflakes import api as flakes_api
from pyflakes import messages as flakes_messages
from pyflakes import reporter as flakes_reporter

import ctxpress
from ctxpress.compressor.code import extract_focus
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.compressor.code.outline import build_outline
from ctxpress.compressor.code.trim import trim_outline
from ctxpress.tokens import get_counter

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "stdlib_trim.json"
PACKAGES_RESULTS = ROOT / "benchmarks" / "results" / "packages_trim.json"
F = 0.25
SKIP_PARTS = {"site-packages", "dist-packages", "__pycache__"}
TEST_PARTS = {"test", "tests", "idle_test", "lib2to3/tests"}


class _Collect(flakes_reporter.Reporter):
    def __init__(self) -> None:
        super().__init__(io.StringIO(), io.StringIO())
        self.undefined: list[tuple[int, str]] = []

    def flake(self, message: Any) -> None:
        if isinstance(message, flakes_messages.UndefinedName):
            self.undefined.append((message.lineno, message.message_args[0]))


def undefined_names(code: str) -> list[tuple[int, str]]:
    rep = _Collect()
    flakes_api.check(code, "<trimmed>", rep)
    return rep.undefined


def modules(include_tests: bool) -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out = []
    for path in sorted(stdlib.rglob("*.py")):
        rel = path.relative_to(stdlib)
        if SKIP_PARTS & set(rel.parts):
            continue
        if not include_tests and TEST_PARTS & set(rel.parts):
            continue
        out.append(path)
    return out


def package_modules(n: int) -> list[Path]:
    """``n`` modules of the installed third-party packages (not ctxpress), seeded."""
    site = Path(sysconfig.get_paths()["purelib"])
    paths = sorted(
        p
        for p in site.rglob("*.py")
        if "ctxpress" not in p.relative_to(site).parts[0] and "__pycache__" not in p.parts
    )
    return sorted(random.Random(0).sample(paths, min(n, len(paths))))


Func = ast.FunctionDef | ast.AsyncFunctionDef


def focal_functions(tree: ast.Module, methods: bool = False) -> list[tuple[str, Func]]:
    """Up to three (first, middle, last) of the top-level functions, with ``methods`` of
    top-level classes too, as (the name a question uses, node)."""
    funcs: list[tuple[str, Func]] = []
    for n in tree.body:
        if isinstance(n, Func):
            funcs.append((n.name, n))
        elif methods and isinstance(n, ast.ClassDef):
            funcs.extend((f"{n.name}.{m.name}", m) for m in n.body if isinstance(m, Func))
    if methods:  # a name defined twice (overloads, properties, branches) is no one symbol
        seen = [n.name for n in ast.walk(tree) if isinstance(n, Func | ast.ClassDef)]
        funcs = [(q, f) for q, f in funcs if seen.count(f.name) == 1]
    if len(funcs) <= 3:
        return funcs
    return [funcs[0], funcs[len(funcs) // 2], funcs[-1]]


def fence_for(code: str) -> str:
    import re

    return "`" * max(3, max((len(m) for m in re.findall(r"`+", code)), default=0) + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="only the first N modules")
    ap.add_argument("--tests", action="store_true", help="include the stdlib test packages")
    ap.add_argument(
        "--packages", type=int, default=0, help="N modules of installed packages, not the stdlib"
    )
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    args.out = args.out or (PACKAGES_RESULTS if args.packages else RESULTS)
    counter = get_counter(None, ctxpress.Config())
    paths = package_modules(args.packages) if args.packages else modules(args.tests)
    root = Path(sysconfig.get_paths()["purelib" if args.packages else "stdlib"])
    if args.limit:
        paths = paths[: args.limit]
    stats = {
        "modules": 0,
        "modules_skipped": 0,
        "cases": 0,
        "parse_ok": 0,
        "ast_ok": 0,
        "trimmed": 0,
        "undefined": 0,
        "cases_with_undefined": 0,
        "within_budget": 0,
    }
    failures: list[dict[str, Any]] = []
    trim_bytes = 0
    trim_seconds = 0.0
    pipeline_seconds = 0.0
    for path in paths:
        try:
            code = path.read_text(encoding="utf-8")
            tree = ast.parse(code)
        except (UnicodeDecodeError, SyntaxError, ValueError):
            stats["modules_skipped"] += 1
            continue
        funcs = focal_functions(tree, methods=bool(args.packages))
        if not funcs:
            continue
        stats["modules"] += 1
        # throughput of the trimmer alone: parse + outline + trim + output parse check
        t0 = time.process_time()  # CPU time of this process: one core, whatever the load
        ts_tree = clean_parse("python", code.encode())
        if ts_tree is None:
            stats["modules_skipped"] += 1
            continue
        outline = build_outline("python", code, ts_tree)
        focus, _ = extract_focus(f"Explain `{funcs[0][0]}`.")
        budget_code = int(F * counter.text(code))
        result = trim_outline(outline, focus, budget_code, counter.text)
        clean_parse("python", result.code.encode())
        trim_seconds += time.process_time() - t0
        trim_bytes += len(code.encode())
        original_undefined = {name for _, name in undefined_names(code)}
        fence = fence_for(code)
        for name, func in funcs:
            stats["cases"] += 1
            rel = path.relative_to(root)
            question = f"What does `{name}` do, and how would you test it?"
            empty = [
                {
                    "role": "user",
                    "content": f"Here is `{rel}`:\n{fence}python\n\n{fence}\n{question}",
                }
            ]
            budget = ctxpress.count_tokens(empty) + int(F * counter.text(code))
            content = f"Here is `{rel}`:\n{fence}python\n{code}\n{fence}\n{question}"
            t0 = time.perf_counter()
            res = ctxpress.compress([{"role": "user", "content": content}], budget=budget)
            pipeline_seconds += time.perf_counter() - t0
            text = res.messages[-1]["content"]
            start = text.index(fence + "python\n") + len(fence) + len("python\n")
            out = text[start : text.index("\n" + fence + "\n", start)]
            stats["trimmed"] += int(out != code)
            stats["within_budget"] += int(res.tokens_after <= budget)
            ok_ts = clean_parse("python", out.encode()) is not None
            try:
                ast.parse(out)
                ok_ast = True
            except SyntaxError:
                ok_ast = False
            stats["parse_ok"] += int(ok_ts)
            stats["ast_ok"] += int(ok_ast)
            if not (ok_ts and ok_ast):
                failures.append({"module": str(rel), "focal": name, "problem": "parse"})
                continue
            # the focal function's lines in the output
            out_lines = out.split("\n")
            header = code.split("\n")[func.lineno - 1]
            try:
                first = out_lines.index(header) + 1
            except ValueError:
                failures.append({"module": str(rel), "focal": name, "problem": "focal lost"})
                continue
            last = first + (func.end_lineno or func.lineno) - func.lineno
            bad = sorted(
                {
                    name
                    for line, name in undefined_names(out)
                    if first <= line <= last and name not in original_undefined
                }
            )
            if bad:
                stats["undefined"] += len(bad)
                stats["cases_with_undefined"] += 1
                failures.append({"module": str(rel), "focal": name, "undefined": bad})
    mb = trim_bytes / 1e6
    summary = {
        "source": f"{args.packages} modules of installed packages" if args.packages else "stdlib",
        **stats,
        "parse_share": stats["parse_ok"] / max(1, stats["cases"]),
        "ast_share": stats["ast_ok"] / max(1, stats["cases"]),
        "source_mb": round(mb, 2),
        "trim_mb_per_s": round(mb / trim_seconds, 2) if trim_seconds else None,
        "pipeline_ms_per_case": round(1000 * pipeline_seconds / max(1, stats["cases"]), 2),
        "failures": failures[:200],
    }
    print(
        f"{'modules':>8} {'cases':>6} {'parse':>6} {'ast':>6} {'undef':>6} {'budget':>7} "
        f"{'MB':>6} {'MB/s':>6} {'ms/case':>8}"
    )
    print(
        f"{stats['modules']:8d} {stats['cases']:6d} {summary['parse_share']:6.3f} "
        f"{summary['ast_share']:6.3f} {stats['undefined']:6d} "
        f"{stats['within_budget'] / max(1, stats['cases']):7.3f} {mb:6.2f} "
        f"{summary['trim_mb_per_s'] or 0:6.2f} {summary['pipeline_ms_per_case']:8.2f}"
    )
    for f in failures[:15]:
        print("  ", f)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
