"""The code stage on two files pasted together: does it keep what a function in one of
them uses from the other?

Corpus: code_todo's (``benchmarks/code_todo.py --fetch`` once): PyPI sdists, npm packages,
Debian Go / Rust / C / C++ sources. A task: a function or method of 3..80 lines in file B
(name of 3+ chars, unique in B) whose body refers by bare name to top-level definitions of
another file A in the same folder (a Python package, a JS/TS folder, a Go package, C
sources beside their headers), names B does not define itself and A defines once (and, in
Python / JS / TS, B imports, unless by a wildcard: else a builtin's or a global's); of a
type the function reads members through (`Objects.requireNonNull`), those members; the
same code_todo reader finds definitions and references with tree-sitter. Gold: those
definitions of A. At most 3 tasks per file B and 20 per package; Random(13) draws them.

Caller tasks, the other way round: a top-level function of A (3..80 lines) asked about,
the functions of B that call it by name (in Python / JS / TS, having imported it) the gold;
four of them kept are full marks (a reader needs a few call sites or tests, not all).
Random(17) draws them, so the first kind's draw is the same with or without them.

Prompt: "Here is `{A}`:", A in a tagged fence, "and `{B}`:", B in a tagged fence, then
"Why does `{name}` fail?" (a question about code that is there, not a stub). Through
``compress(..., stages=["code"])`` at f = 0.10 / 0.25 / 0.50 of both files' tokens, plus the
prose. Columns per language and f: tasks; ``used`` recall of the gold definitions kept whole
in the other file's block (per-task mean; all of a definition's lines, contiguous; of
callers, kept / min(4, callers)); ``fits`` the share of tasks whose focal function and gold
(of callers, the first 4) alone fit the code budget (what no trimmer can beat); ``focal``
the asked function kept whole in its file; ``parse`` both blocks parse clean in their
language; ``over`` calls over budget; ``err`` calls that raised or failed open; ms per call.

    .venv/bin/python benchmarks/code_todo.py --fetch   # once, the corpus
    .venv/bin/python benchmarks/code_files.py [--per-lang 60] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from code_fresh import _preorder
from code_real import fence_for
from code_todo import CACHE, FRACS, PACKAGE, core_of, corpus, definitions, references, table

import ctxpress
from ctxpress.compressor.code.languages import clean_parse, parse

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_files.json"
LANGS = ("python", "javascript", "typescript", "go", "c", "cpp", "rust", "java")
PER_FILE, PER_PACKAGE = 3, 20
CAP = 4  # callers counted per caller task: kept whole / min(CAP, callers)
# Languages whose modules bind another file's names by importing them: a name used but not
# imported there is a builtin or a global, whatever another file defines
BY_NAME = ("python", "javascript", "typescript")
IMPORTS = {"import_statement", "import_from_statement", "future_import_statement"}
DECLS = {"lexical_declaration", "variable_declaration"}
COLS = [  # (summary key, header, width, format)
    ("tasks", "tasks", 6, "d"), ("used", "used", 7, ".3f"), ("fits", "fits", 7, ".3f"),
    ("focal", "focal", 7, ".3f"), ("parse", "parse", 7, ".3f"), ("over", "over", 5, "d"),
    ("err", "err", 4, "d"), ("ms", "ms", 7, ".1f"),
]  # fmt: skip


def _defs(lang: str, path: str) -> tuple[str, list[Any], set[str] | None] | None:
    """A file's source, definitions and the names its imports bind (None: any name, where
    the language does not import by name or a wildcard import brings names in)."""
    try:
        src = Path(path).read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None
    tree = parse(lang, src.encode())
    if tree.root_node.has_error:
        return None
    imported: set[str] | None = None
    if lang in BY_NAME:
        imported = set()
        for n in _preorder(tree.root_node):
            text = n.text.decode("utf-8", "replace") if n.text is not None else ""
            if n.type in IMPORTS or (n.type in DECLS and "require(" in text):
                if re.search(r"\bimport\s+\*(?!\s*as\b)", text):  # Python's wildcard
                    imported = None
                    break
                imported |= set(re.findall(r"\w+", text))
    return src, definitions(lang, tree.root_node), imported


Read = dict[str, tuple[str, list[Any], set[str] | None]]


def _folders(
    lang: str, files: list[str], rnd: random.Random
) -> Iterator[tuple[Read, dict[str, list[tuple[str, Any]]], dict[tuple[str, str], list[Any]]]]:
    """Per folder, in a shuffled order: its files read (``_defs``), the top-level
    definitions of each name with their file, and the members of each (file, type)."""
    folders: dict[str, list[str]] = defaultdict(list)
    for f in files:
        folders[str(Path(f).parent)].append(f)
    order = sorted(folders)
    rnd.shuffle(order)
    for folder in order:
        read = {f: d for f in sorted(folders[folder]) if (d := _defs(lang, f)) is not None}
        where: dict[str, list[tuple[str, Any]]] = defaultdict(list)
        members: dict[tuple[str, str], list[Any]] = defaultdict(list)
        for f, (_, defs, _) in read.items():
            for d in defs:
                if d.owner is None:
                    where[d.name].append((f, d))
                else:
                    members[(f, d.owner)].append(d)
        yield read, where, members


def _package(path: str) -> str:
    """What the per-package cap counts by."""
    rel = "/" + str(Path(path).relative_to(CACHE))
    m = PACKAGE.search(rel)
    return next((g for g in m.groups() if g), rel) if m else rel


def tasks_for(
    lang: str, files: list[str], rnd: random.Random, per_lang: int
) -> list[dict[str, Any]]:
    """Tasks of one language, drawn folder by folder in a shuffled order."""
    out: list[dict[str, Any]] = []
    per_package: Counter[str] = Counter()
    for read, where, members in _folders(lang, files, rnd):
        folder_types = {n for n, homes in where.items() if any(d.kind == "type" for _, d in homes)}
        files_b = list(read)
        rnd.shuffle(files_b)
        for fb in files_b:
            src_b, defs_b, imported = read[fb]
            package = _package(fb)
            if per_package[package] >= PER_PACKAGE:
                break
            own = {d.name for d in defs_b}
            counts = Counter(d.name for d in defs_b)
            types = {d.name for d in defs_b if d.kind == "type"}
            made = 0
            funcs = [d for d in defs_b if d.kind == "func"]
            rnd.shuffle(funcs)
            for d in funcs:
                core = core_of(lang, d)
                if core is None or core.child_by_field_name("body") is None:
                    continue
                if not 3 <= d.b - d.a + 1 <= 80 or counts[d.name] != 1 or len(d.name) < 3:
                    continue
                own_type = {d.owner} if d.owner else set()
                refs = references(lang, d, core, own_type, types | (folder_types - own))
                by_file: dict[str, list[Any]] = defaultdict(list)
                names = refs.top - own if imported is None else (refs.top - own) & imported
                for name in sorted(names):
                    homes = where.get(name, [])
                    if len(homes) != 1 or homes[0][0] == fb:
                        continue
                    fa, x = homes[0]
                    # a type read through (`Objects.requireNonNull`): the members read
                    used = [m for m in members[(fa, name)] if m.name in refs.qualified[name]]
                    by_file[fa] += used if x.kind == "type" and used else [x]
                if not by_file:
                    continue
                fa = max(sorted(by_file), key=lambda f: len(by_file[f]))
                src_a = read[fa][0]
                lines_a, lines_b = src_a.split("\n"), src_b.split("\n")
                gold = [(g.name, lines_a[g.a : g.b + 1]) for g in by_file[fa]]
                out.append(
                    {
                        "lang": lang,
                        "a": str(Path(fa).relative_to(CACHE)),
                        "b": str(Path(fb).relative_to(CACHE)),
                        "name": d.name,
                        "src_a": src_a,
                        "src_b": src_b,
                        "focal": lines_b[d.a : d.b + 1],
                        "gold": gold,
                    }
                )
                made += 1
                per_package[package] += 1
                if made >= PER_FILE or per_package[package] >= PER_PACKAGE:
                    break
            if len(out) >= per_lang:
                return out
    return out


def callers_for(
    lang: str, files: list[str], rnd: random.Random, per_lang: int
) -> list[dict[str, Any]]:
    """Caller tasks of one language: a top-level function of file A asked about, the
    functions of file B (same folder) that call it by name are the gold."""
    out: list[dict[str, Any]] = []
    per_package: Counter[str] = Counter()
    for read, where, _ in _folders(lang, files, rnd):
        calls: dict[tuple[str, str, str], list[Any]] = defaultdict(list)  # (A, name, B)
        for fb, (_, defs_b, imported) in read.items():
            own = {d.name for d in defs_b}
            types = {d.name for d in defs_b if d.kind == "type"}
            for d in (d for d in defs_b if d.kind == "func"):
                core = core_of(lang, d)
                if core is None or core.child_by_field_name("body") is None:
                    continue
                refs = references(lang, d, core, {d.owner} if d.owner else set(), types)
                names = refs.top - own if imported is None else (refs.top - own) & imported
                for name in names:
                    homes = where.get(name, [])
                    if len(homes) == 1 and homes[0][0] != fb and homes[0][1].kind == "func":
                        calls[(homes[0][0], name, fb)].append(d)
        keys = sorted(calls)
        rnd.shuffle(keys)
        for fa, name, fb in keys:
            x = where[name][0][1]
            package = _package(fa)
            if per_package[package] >= PER_PACKAGE or not 3 <= x.b - x.a + 1 <= 80:
                continue
            if len(name) < 3 or any(t["a"] == fa and t["name"] == name for t in out):
                continue
            src_a, src_b = read[fa][0], read[fb][0]
            lines_b = src_b.split("\n")
            users = sorted(calls[(fa, name, fb)], key=lambda d: d.a)
            out.append(
                {
                    "lang": lang,
                    "kind": "callers",
                    "a": str(Path(fa).relative_to(CACHE)),
                    "b": str(Path(fb).relative_to(CACHE)),
                    "name": name,
                    "src_a": src_a,
                    "src_b": src_b,
                    "focal": src_a.split("\n")[x.a : x.b + 1],
                    "gold": [(d.name, lines_b[d.a : d.b + 1]) for d in users],
                }
            )
            per_package[package] += 1
            if len(out) >= per_lang:
                return out
    return out


def contains(lines: list[str], block: list[str]) -> bool:
    n = len(block)
    first = block[0]
    return any(lines[i] == first and lines[i : i + n] == block for i in range(len(lines) - n + 1))


def run_task(t: dict[str, Any]) -> dict[str, Any]:
    tag = {"python": "python", "javascript": "js", "typescript": "ts", "go": "go"}.get(
        t["lang"], t["lang"]
    )
    fa, fb = fence_for(t["src_a"]), fence_for(t["src_b"])
    name_a, name_b = Path(t["a"]).name, Path(t["b"]).name
    parts = [
        f"Here is `{name_a}`:\n{fa}{tag}\n",
        t["src_a"],
        f"\n{fa}\n\nand `{name_b}`:\n{fb}{tag}\n",
        t["src_b"],
        f"\n{fb}\nWhy does `{t['name']}` fail?",
    ]
    prose = [{"role": "user", "content": parts[0] + parts[2] + parts[4]}]
    base = ctxpress.count_tokens(prose)
    code_tok = ctxpress.count_tokens(t["src_a"]) + ctxpress.count_tokens(t["src_b"])
    callers = t.get("kind") == "callers"
    # of callers, the first CAP (the few a reader needs) count
    gold = t["gold"][:CAP] if callers else t["gold"]
    need = ctxpress.count_tokens("\n".join(t["focal"] + [x for _, g in gold for x in g]))
    runs = []
    for f in FRACS:
        budget = base + int(f * code_tok)
        msgs = [{"role": "user", "content": "".join(parts)}]
        t0 = time.perf_counter()
        try:
            res = ctxpress.compress(msgs, budget=budget, stages=["code"])
            text, after, err = res.messages[0]["content"], res.tokens_after, res.fail_open
        except Exception:
            text, after, err = "", None, True
        ms = 1000 * (time.perf_counter() - t0)
        ok = isinstance(text, str) and text.startswith(parts[0]) and text.endswith(parts[4])
        block_a = block_b = ""
        if ok:
            middle = text[len(parts[0]) : len(text) - len(parts[4])]
            if parts[2] in middle:
                block_a, block_b = middle.split(parts[2], 1)
            else:
                ok = False
        out_a, out_b = block_a.split("\n"), block_b.split("\n")
        out_focal, out_gold = (out_a, out_b) if callers else (out_b, out_a)
        runs.append(
            {
                "f": f,
                "budget": budget,
                "after": after,
                "kept": "".join("01"[ok and contains(out_gold, g)] for _, g in t["gold"]),
                "fits": need <= int(f * code_tok),
                "focal": ok and contains(out_focal, t["focal"]),
                "parse": ok
                and all(
                    clean_parse(t["lang"], (b if b.endswith("\n") else b + "\n").encode())
                    is not None
                    for b in (block_a, block_b)
                ),
                "err": err or not ok,
                "ms": round(ms, 1),
            }
        )
    keep = {k: t[k] for k in ("lang", "a", "b", "name")} | {"kind": t.get("kind", "uses")}
    return keep | {"gold": [n for n, _ in t["gold"]], "code_tok": code_tok, "runs": runs}


def summarize(rows: list[dict[str, Any]], f: float) -> dict[str, Any]:
    runs = [r for row in rows for r in row["runs"] if r["f"] == f]
    if not runs:
        return {}
    n = len(runs)
    return {
        "tasks": n,
        "used": sum(min(1.0, r["kept"].count("1") / min(CAP, len(r["kept"]))) for r in runs) / n
        if rows and rows[0].get("kind") == "callers"
        else sum(r["kept"].count("1") / len(r["kept"]) for r in runs) / n,
        "fits": sum(r["fits"] for r in runs) / n,
        "focal": sum(r["focal"] for r in runs) / n,
        "parse": sum(r["parse"] for r in runs) / n,
        "over": sum(1 for r in runs if r["after"] is not None and r["after"] > r["budget"]),
        "err": sum(r["err"] for r in runs),
        "ms": sum(r["ms"] for r in runs) / n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-lang", type=int, default=60, help="tasks per language")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    t_all = time.perf_counter()
    files = corpus()
    rnd = random.Random(13)
    drawn = {lang: tasks_for(lang, files.get(lang, []), rnd, args.per_lang) for lang in LANGS}
    for lang in LANGS:
        if not files.get(lang):
            print(f"{lang}: no corpus in {CACHE} (run benchmarks/code_todo.py --fetch)")
    crnd = random.Random(17)
    drawn_c = {lang: callers_for(lang, files.get(lang, []), crnd, args.per_lang) for lang in LANGS}
    with Pool(args.jobs) as pool:
        rows = pool.map(run_task, [t for lang in LANGS for t in drawn[lang]], chunksize=2)
        rows_c = pool.map(run_task, [t for lang in LANGS for t in drawn_c[lang]], chunksize=2)
    secs = time.perf_counter() - t_all
    print("definitions the asked function uses, in the other file (used)")
    summary = table(list(LANGS), rows, summarize, COLS)
    print(f"the asked function's callers in the other file, at most {CAP} counted (used)")
    summary_c = table(list(LANGS), rows_c, summarize, COLS)
    print(f"{(len(rows) + len(rows_c)) * len(FRACS)} calls; {secs:.0f} s in all")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1)}
    report |= {"columns": {k: h for k, h, _, _ in COLS}, "summary": summary, "tasks": rows}
    report |= {"summary_callers": summary_c, "tasks_callers": rows_c}
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
