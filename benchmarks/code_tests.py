"""The code stage on a failing test (JS by its title, Go subtests by `go test` output): kept whole?

Corpus: the tape test files npm packages ship (``--fetch`` once: ``npm pack`` into
``~/.cache/ctxpress/bench/tests``), beside the module they test (``lib/<same name>``, else
the package's main module). A task: a test or
suite (`test("…", …)`, `t.test("…", …)`, `it("…", …)`) of 3..80 lines whose title has two
or more words and is unique in its file; at most 4 per file, Random(11) draws them.

Two shapes, each at f = 0.10 / 0.25 / 0.50 of both files' tokens (plus the prose):
``ask``: both files in `js` fences, then "Why does the test '<title>' fail?".
``run``: an agent's reads of both files (tool results, no fences), then its test run's
output in jest's format: the failing title under ✕ and ●, another test's under ✓.
``tap``: the same reads, then the run in tape's own format (TAP): every test of the file
under its `# title` head, `ok` after each but `not ok` after the asked one.

``go``: an agent's read of a Go test file (Debian's golang-*-dev packages, ``--fetch``),
then `go test` output: `--- FAIL: TestX/sub_title` and `x_test.go:N: …` where N is the
last `t.Error…`/`t.Fatal…` line (else the last line) inside a subtest
`t.Run("…", func(t *testing.T) {…})` of 3..80 lines whose title is unique in its file and
which holds no other (at most 8 per file, Random(11)); f of the test file's tokens.

Columns per shape and f: tasks; ``test`` the asked test kept whole (all its lines,
contiguous); ``fits`` tasks whose prompt fits the budget with the asked test as the
only code (what no trimmer can beat); ``parse``
both files' outputs parse; ``over`` calls over budget; ``alter`` outputs with a line the
input does not hold (elision markers aside); ``err`` calls that raised or failed open;
ms per call.

    .venv/bin/python benchmarks/code_tests.py --fetch   # once, the corpus
    .venv/bin/python benchmarks/code_tests.py
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from code_real import fetch_debs, fetch_npm

import ctxpress
from ctxpress.compressor.code.fences import find_fences
from ctxpress.compressor.code.languages import clean_parse, parse
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_tests.json"
CACHE = user_cache_dir() / "bench" / "tests"
PACKAGES = [
    "qs@6.13.0",
    "minimist@1.2.8",
    "object-inspect@1.13.2",
    "resolve@1.22.8",
    "json-stable-stringify@1.1.1",
]
GO_DEBS = [
    "golang-github-burntsushi-toml-dev=1.2.0-2",
    "golang-github-cespare-xxhash-dev=2.1.1-2",
    "golang-github-go-logr-logr-dev=1.2.3-1",
    "golang-github-google-go-cmp-dev=0.5.9-1",
    "golang-github-gorilla-mux-dev=1.8.0-1",
    "golang-github-hashicorp-hcl-v2-dev=2.14.1-2",
    "golang-github-labstack-echo-dev=4.2.1-3",
    "golang-github-rs-zerolog-dev=1.26.1-2",
    "golang-github-sirupsen-logrus-dev=1.9.0-1",
    "golang-github-stretchr-testify-dev=1.8.1-1",
]
GO_ROOT = CACHE / "go"
GO_PER_FILE = 8
FRACS = (0.10, 0.25, 0.50)
SHAPES = ("ask", "run", "tap", "go")
PER_FILE = 4
MARKS = ("// …", "/* … */", "...")
MIN_TOKENS = ctxpress.Config().code_min_tokens
FUNCTIONS = ("function_expression", "arrow_function")


def main_module(pkg: Path) -> Path | None:
    """The file ``require("<package>")`` loads."""
    meta = json.loads((pkg / "package.json").read_text())
    main = str(meta.get("main") or "index.js")
    for cand in (pkg / main, pkg / f"{main}.js", pkg / main / "index.js"):
        if cand.is_file():
            return cand
    return None


def titled(code: str) -> list[tuple[str, int, int]]:
    """(title, first row, last row) of each call statement whose first argument is a plain
    string and which passes a function (`test("…", function (t) {…})`), read with
    tree-sitter here rather than by ctxpress, so the same tasks run against any version."""
    out = []
    stack = [parse("javascript", code.encode()).root_node]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.named_children))
        if node.type != "expression_statement" or not node.named_child_count:
            continue
        call = node.named_children[0]
        args = call.child_by_field_name("arguments") if call.type == "call_expression" else None
        if args is None or not args.named_child_count:
            continue
        first = args.named_children[0]
        funcs = [
            a for a in args.named_children if a.type in ("function_expression", "arrow_function")
        ]
        plain = not any(c.type == "template_substitution" for c in first.named_children)
        if first.type in ("string", "template_string") and funcs and plain:
            text = first.text.decode()[1:-1]
            title = re.sub(r"\\([\\'\"`])", r"\1", text)
            out.append((title, node.start_point[0], node.end_point[0]))
    return out


def tasks() -> list[dict[str, Any]]:
    rng = random.Random(11)
    out = []
    for pkg in sorted(CACHE.glob("*/package")):
        main = main_module(pkg)
        for test in sorted((pkg / "test").glob("*.js")):
            src = pkg / "lib" / test.name if (pkg / "lib" / test.name).is_file() else main
            code = test.read_text(errors="replace")
            if src is None or clean_parse("javascript", code.encode()) is None:
                continue
            found: dict[str, list[tuple[int, int]]] = defaultdict(list)
            for title, a, b in titled(code):
                if " " in title.strip():
                    found[title].append((a, b))
            picks = [(t, spans[0]) for t, spans in found.items() if len(spans) == 1]
            picks = [(t, (a, b)) for t, (a, b) in picks if 3 <= b - a + 1 <= 80]
            rng.shuffle(picks)
            lines = code.split("\n")
            for title, (a, b) in picks[:PER_FILE]:
                others = [t for t in found if t != title]
                out.append(
                    {
                        "package": pkg.parent.name,
                        "src": src,
                        "test": test,
                        "title": title,
                        "rows": lines[a : b + 1],
                        "passed": rng.choice(others) if others else None,
                        "titles": [t for t, _, _ in sorted(titled(code), key=lambda x: x[1])],
                    }
                )
    return out


def subtests(code: str) -> list[tuple[str, str, int, int, int]]:
    """(test function, title, first row, last row, failing row) of each Go subtest with a
    literal title (`t.Run("…", func(t *testing.T) {…})`), by tree-sitter here."""
    out = []
    stack = [parse("go", code.encode()).root_node]
    lines = code.split("\n")
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.named_children))
        call = node.named_children[0] if node.named_child_count else None
        if node.type != "expression_statement" or call is None or call.type != "call_expression":
            continue
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn is None or args is None or not fn.text.decode().endswith(".Run"):
            continue
        kids = args.named_children
        if len(kids) != 2 or kids[0].type != "interpreted_string_literal":
            continue
        if kids[1].type != "func_literal" or "\\" in kids[0].text.decode():
            continue
        top = node
        while top.parent is not None and top.type != "function_declaration":
            top = top.parent
        name = top.child_by_field_name("name")
        if name is None:
            continue
        a, b = node.start_point[0], node.end_point[0]
        asserts = [r for r in range(a + 1, b) if re.search(r"\bt\.(Error|Fatal)", lines[r])]
        failing = asserts[-1] if asserts else b - 1
        out.append((name.text.decode(), kids[0].text.decode()[1:-1], a, b, failing))
    return out


def go_tasks() -> list[dict[str, Any]]:
    rng = random.Random(11)
    out = []
    for test in sorted(GO_ROOT.rglob("*_test.go")):
        code = test.read_text(errors="replace")
        if clean_parse("go", code.encode()) is None:
            continue
        found = subtests(code)
        count = defaultdict(int)
        for _, title, *_ in found:
            count[title] += 1
        # (one holding another is not picked: `go test` names the inner one)
        inner = [t for t in found if any(u[2] < t[2] and t[3] <= u[3] for u in found)]
        picks = [t for t in found if count[t[1]] == 1 and 3 <= t[3] - t[2] + 1 <= 80]
        picks = [t for t in picks if not any(t[2] < u[2] and u[3] <= t[3] for u in inner)]
        rng.shuffle(picks)
        lines = code.split("\n")
        for fn, title, a, b, failing in picks[:GO_PER_FILE]:
            package = test.relative_to(GO_ROOT).parts[5:7]
            out.append(
                {
                    "package": "/".join(package),
                    "test": test,
                    "function": fn,
                    "title": title,
                    "rows": lines[a : b + 1],
                    "line": failing + 1,
                }
            )
    return out


def go_prompt(task: dict[str, Any], test: str) -> list[dict[str, Any]]:
    name, sub = task["test"].name, task["title"].replace(" ", "_")
    log = (
        f"--- FAIL: {task['function']} (0.00s)\n"
        f"    --- FAIL: {task['function']}/{sub} (0.00s)\n"
        f"        {name}:{task['line']}: unexpected result\nFAIL\nFAIL\t{task['package']}\t0.004s\n"
    )
    run = {"id": "c2", "type": "function"}
    run["function"] = {"name": "run", "arguments": '{"cmd": "go test ./..."}'}
    return [
        {"role": "user", "content": "The tests fail. Fix it."},
        *_read(1, name, test),
        {"role": "assistant", "content": None, "tool_calls": [run]},
        {"role": "tool", "tool_call_id": "c2", "content": log},
    ]


def measure_go(task: dict[str, Any], f: float) -> dict[str, Any]:
    original = task["test"].read_text(errors="replace")
    msgs = go_prompt(task, original)
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": original}])
    budget = ctxpress.count_tokens(msgs) - int((1 - f) * code_tokens)
    rows = "\n".join(task["rows"])
    row: dict[str, Any] = {"package": task["package"], "shape": "go", "f": f}
    row["fits"] = ctxpress.count_tokens(go_prompt(task, rows + "\n")) <= budget
    return _outcome(row, msgs, budget, original, rows, "go", lambda text: text, 2)


def _read(i: int, path: str, content: str) -> list[dict[str, Any]]:
    call = {"id": f"c{i}", "type": "function"}
    call["function"] = {"name": "read_file", "arguments": json.dumps({"path": path})}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"c{i}", "content": content},
    ]


def prompt(
    task: dict[str, Any], shape: str, src: str, test: str
) -> tuple[list[dict[str, Any]], int]:
    """The messages with ``src`` and ``test`` as the files' code; the index of the one
    holding the test file."""
    name = f"test/{task['test'].name}"
    if shape == "ask":
        head = f"`{task['src'].name}`:\n```js\n{src}\n```\n\n`{name}`:\n```js\n"
        text = f"{head}{test}\n```\n\nWhy does the test '{task['title']}' fail?"
        return [{"role": "user", "content": text}], 0
    if shape == "tap":  # tape's own output: every test's title, `not ok` under one
        heads = [
            f"# {t}\n" + ("not ok" if t == task["title"] else "ok") + f" {i} should be equal\n"
            for i, t in enumerate(task["titles"], 1)
        ]
        log = "TAP version 13\n" + "".join(heads) + f"\n1..{len(heads)}\n# fail  1\n"
    else:
        passed = f"    ✓ {task['passed']} (1 ms)\n" if task["passed"] else ""
        log = (
            f"FAIL {name}\n{passed}    ✕ {task['title']} (4 ms)\n\n"
            f"  ● {task['title']}\n\n    expect(received).toEqual(expected)\n"
        )
    run = {"id": "c3", "type": "function"}
    run["function"] = {"name": "run", "arguments": '{"cmd": "npm test"}'}
    msgs = [
        {"role": "user", "content": "The tests fail. Fix it."},
        *_read(1, task["src"].name, src),
        *_read(2, name, test),
        {"role": "assistant", "content": None, "tool_calls": [run]},
        {"role": "tool", "tool_call_id": "c3", "content": log},
    ]
    return msgs, 4


def code_of(text: str, shape: str) -> str:
    """The test file's code in the message holding it (its fence's, when asked)."""
    if shape != "ask":
        return text
    fence = find_fences(text)[1]
    return text[fence.code_start : fence.code_end]


def measure(task: dict[str, Any], shape: str, f: float) -> dict[str, Any]:
    src, original = (task[k].read_text(errors="replace") for k in ("src", "test"))
    msgs, at = prompt(task, shape, src, original)
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": src + original}])
    budget = ctxpress.count_tokens(msgs) - int((1 - f) * code_tokens)
    row: dict[str, Any] = {"package": task["package"], "shape": shape, "f": f}
    rows = "\n".join(task["rows"])
    # whether the test alone fits: the prompt with no other code (but a file too short to
    # trim, which stays as it is)
    short = ctxpress.count_tokens([{"role": "user", "content": src}]) < MIN_TOKENS
    alone = prompt(task, shape, src if short else "", rows + "\n")[0]
    row["fits"] = ctxpress.count_tokens(alone) <= budget
    return _outcome(
        row, msgs, budget, original, rows, "javascript", lambda text: code_of(text, shape), at
    )


def _outcome(
    row: dict[str, Any],
    msgs: list[dict[str, Any]],
    budget: int,
    original: str,
    rows: str,
    lang: str,
    code: Callable[[str], str],
    at: int,
) -> dict[str, Any]:
    """``row`` with what the code stage made of the test file in message ``at`` (its code
    read by ``code``): kept whole, parses, over budget, altered, raised or failed open."""
    t0 = time.perf_counter()
    try:
        res = ctxpress.compress(msgs, budget=budget, stages=["code"])
    except Exception as e:  # counted, not raised
        return row | {"err": True, "why": repr(e)}
    row["ms"] = (time.perf_counter() - t0) * 1000
    row["err"] = bool(res.fail_open)
    row["over"] = res.tokens_after > budget
    out = code(str(res.messages[at]["content"]))
    row["test"] = rows in out
    row["parse"] = clean_parse(lang, out.encode()) is not None
    lines = set(original.split("\n"))
    row["alter"] = any(ln not in lines and ln.strip() not in MARKS for ln in out.split("\n"))
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch_npm(PACKAGES, CACHE)
        fetch_debs(GO_DEBS, CACHE, GO_ROOT, unpinned=False)
    todo, go = tasks(), go_tasks()
    if not todo or not go:
        raise SystemExit(f"no corpus in {CACHE}: run with --fetch first")
    rows = [measure(t, shape, f) for t in todo for shape in SHAPES[:-1] for f in FRACS]
    rows += [measure_go(t, f) for t in go for f in FRACS]
    cols = ("test", "fits", "parse", "over", "alter", "err")
    print(f"{len(todo)} JS tests from {len({t['package'] for t in todo})} packages")
    print(f"{len(go)} Go subtests from {len({t['package'] for t in go})} packages")
    print(f"{'shape':6}{'f':>6}{'tasks':>7}" + "".join(f"{c:>7}" for c in cols) + f"{'ms':>7}")
    summary: dict[str, dict[str, Any]] = {}
    for shape in SHAPES:
        for f in FRACS:
            mine = [r for r in rows if r["shape"] == shape and r["f"] == f]
            s: dict[str, Any] = {"tasks": len(mine)}
            for c in cols:
                s[c] = sum(bool(r.get(c)) for r in mine)
            s["ms"] = sum(r.get("ms", 0.0) for r in mine) / max(1, len(mine))
            summary.setdefault(shape, {})[str(f)] = s
            print(
                f"{shape:6}{f:6.2f}{s['tasks']:7}"
                + "".join(f"{s[c]:7}" for c in cols)
                + f"{s['ms']:7.1f}"
            )
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, default=str))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
