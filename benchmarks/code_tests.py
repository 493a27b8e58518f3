"""The code stage on a failing test (JS, Go subtests and table entries, pytest cases): kept whole?

Corpus: the tape test files npm packages ship (``--fetch`` once: ``npm pack`` into
``~/.cache/ctxpress/bench/tests``), beside the module they test (``lib/<same name>``, else
the package's main module). A task: a test or
suite (`test("…", …)`, `t.test("…", …)`, `it("…", …)`) of 3..80 lines whose title has two
or more words and is unique in its file; at most 4 per file, Random(11) draws them.

Two shapes, each at f = 0.10 / 0.25 / 0.50 of both files' tokens (plus the prose):
``ask``: both files in `js` fences, then "Why does the test '<title>' fail?".
``run``: an agent's reads of both files (tool results, no fences), then its test run's
output in jest's format: the failing title under ✕ and ●, another test's under ✓.
``frame``: ``run`` with the stack frame jest prints under the failure, at the test's last
assertion (`t.equal(…)`); ``line`` counts the outputs that keep that line.
``tap``: the same reads, then the run in tape's own format (TAP): every test of the file
under its `# title` head, `ok` after each but `not ok` after the asked one.

``go``: an agent's read of a Go test file (Debian's golang-*-dev packages, ``--fetch``),
then `go test` output: `--- FAIL: TestX/sub_title` and `x_test.go:N: …` where N is the
last `t.Error…`/`t.Fatal…` line (else the last line) inside a subtest
`t.Run("…", func(t *testing.T) {…})` of 3..80 lines whose title is unique in its file and
which holds no other (at most 8 per file, Random(11)); f of the test file's tokens.
``table``: the same for a table-driven subtest (`for _, tt := range tests { t.Run(tt.name,
func…) }`, holding no other subtest): one entry of each such table, titled uniquely in it,
Random(11), at most 8 per file; `--- FAIL: TestX/<outer subtests>/entry_title`. Kept
whole means the entry and the `t.Run` statement both.
``pytest``: an agent's read of a Python test file (the sdists of 7 PyPI projects,
``--fetch``), then pytest's `path:N: AssertionError` (N: the test's last `assert`) and
`FAILED path::test_x[<id>]` for one parameter set of a test with one `parametrize`
decorator of 4 or more literal sets on lines of their own, inline or in a module-level
list it names (the id by pytest's own ``IdMaker``; Random(11), at most 8 per file). Kept
whole: the set and the test function.

Columns per shape and f: tasks; ``test`` the asked test kept whole (all its lines,
contiguous); ``line`` (``frame`` only) the line the stack frame points at kept; ``fits``
tasks whose prompt fits the budget with the asked test as the only code (what no trimmer
can beat); ``parse`` both files' outputs parse; ``over`` calls over budget; ``alter``
outputs with a line the input does not hold (elision markers aside); ``err`` calls that
raised or failed open; ms per call.

    .venv/bin/python benchmarks/code_tests.py --fetch   # once, the corpus
    .venv/bin/python benchmarks/code_tests.py
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet
from _pytest.python import IdMaker
from code_real import fetch_debs, fetch_npm, fetch_sdists

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
SDISTS = [
    "black-24.8.0",
    "humanize-4.10.0",
    "isort-5.13.2",
    "packaging-24.1",
    "python-dateutil-2.9.0.post0",
    "semver-3.0.2",
    "tomlkit-0.13.2",
]
PY_ROOT = CACHE / "pytest"
MIN_SETS = 4
GO_PER_FILE = 8
FRACS = (0.10, 0.25, 0.50)
SHAPES = ("ask", "run", "tap", "frame", "go", "table", "pytest")
PER_FILE = 4
MARKS = ("// …", "/* … */", "...", "...,")
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


# a tape assertion (`t.equal(…)`, `st.deepEqual(…)`, not `t.end()`): where a frame points
_ASSERT = re.compile(r"\s*(t|st|tt|assert)\.(?!end\b|plan\b|test\b|comment\b)\w+\(")


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
                asserts = [r for r in range(a + 1, b) if _ASSERT.match(lines[r])]
                out.append(
                    {
                        "package": pkg.parent.name,
                        "src": src,
                        "test": test,
                        "title": title,
                        "rows": lines[a : b + 1],
                        "line": (asserts[-1] if asserts else b - 1) + 1,
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


def _go_test_files() -> Iterator[tuple[Path, str]]:
    """The Go test files of the corpus that parse, with their code."""
    for test in sorted(GO_ROOT.rglob("*_test.go")):
        code = test.read_text(errors="replace")
        if clean_parse("go", code.encode()) is not None:
            yield test, code


def go_tasks() -> list[dict[str, Any]]:
    rng = random.Random(11)
    out = []
    for test, code in _go_test_files():
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


def _go_string(node: Any) -> str | None:
    """A plain `"…"` literal's text (printable ASCII, no escapes: `go test` shows it as it
    is but for spaces)."""
    text = node.text.decode(errors="replace")
    if node.type != "interpreted_string_literal" or "\\" in text:
        return None
    return text[1:-1] if text[1:-1].isascii() and text[1:-1].isprintable() else None


def _child(node: Any, kind: str) -> Any:
    return next((c for c in node.named_children if c.type == kind), None)


def _fields(struct: Any) -> list[str]:
    """A struct type's field names in order."""
    fields = _child(struct, "field_declaration_list")
    return [
        n.text.decode()
        for fd in (fields.named_children if fields is not None else ())
        if fd.type == "field_declaration"
        for n in fd.children_by_field_name("name")
    ]


def _entry_title(entry: Any, key: bool, field: str | None, order: list[str]) -> str | None:
    """The title a table entry runs under: a map entry's key (``key``), else its ``field``
    by name or by position in ``order``."""
    if key:
        return (
            _go_string(entry.named_children[0].named_children[0])
            if entry.type == "keyed_element"
            else None
        )
    lit = entry.named_children[0] if entry.type == "literal_element" else None
    lit = (
        lit.child_by_field_name("body")
        if lit is not None and lit.type == "composite_literal"
        else lit
    )
    if lit is None or lit.type != "literal_value":
        return None
    elems = [e for e in lit.named_children if e.type in ("literal_element", "keyed_element")]
    if any(e.type == "keyed_element" for e in elems):
        for e in elems:
            if e.type == "keyed_element" and e.named_children[0].text.decode() == field:
                return _go_string(e.named_children[1].named_children[0])
        return None
    at = order.index(field) if field in order else -1
    return _go_string(elems[at].named_children[0]) if 0 <= at < len(elems) else None


def _declared(at: Any, name: str) -> Any:
    """The composite literal ``name`` is declared as (`name := T{…}`) nearest before
    statement ``at``, in its block or the blocks around it."""
    while at.parent is not None:
        before = [c for c in at.parent.named_children if c.end_point[0] < at.start_point[0]]
        for st in reversed(before):
            left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
            if st.type != "short_var_declaration" or left.named_child_count != 1:
                continue
            if left.named_children[0].text.decode() == name and right.named_child_count == 1:
                value = right.named_children[0]
                return value if value.type == "composite_literal" else None
        at = at.parent
    return None


def _subtest_path(node: Any) -> list[str]:
    """The titles of the literal-titled subtests around ``node``, outermost first, as
    `go test` names them (spaces as `_`)."""
    path = []
    while node is not None:
        args = node.parent
        if node.type == "func_literal" and args is not None and args.type == "argument_list":
            title = _go_string(args.named_children[0])
            if title is not None:
                path.insert(0, title.replace(" ", "_"))
        node = node.parent
    return path


def _table_runs(fn: Any) -> list[tuple[Any, Any, bool, str | None]]:
    """(table literal, `t.Run` statement, keyed by the map key, title field) of each loop
    in function ``fn`` that runs a subtest per entry of a table literal it declares."""
    loops = []
    stack = [fn]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type == "for_statement" and (rc := _child(n, "range_clause")) is not None:
            loops.append((n, rc))
    out = []
    for loop, rc in loops:
        left, right = rc.child_by_field_name("left"), rc.child_by_field_name("right")
        table = _declared(loop, right.text.decode()) if left is not None else None
        names = [c.text.decode() for c in left.named_children] if left is not None else []
        block = loop.child_by_field_name("body").named_children
        if table is None or len(names) != 2 or len(block) != 1:
            continue
        for st in block[0].named_children:
            call = st.named_children[0] if st.type == "expression_statement" else None
            if call is None or call.type != "call_expression":
                continue
            callee, args = (
                call.child_by_field_name("function"),
                call.child_by_field_name("arguments"),
            )
            kids = args.named_children
            if not callee.text.decode().endswith(".Run") or len(kids) != 2:
                continue
            title = kids[0]
            key = (
                title.text.decode() == names[0]
                and table.child_by_field_name("type").type == "map_type"
            )
            field = None
            operand = title.child_by_field_name("operand")
            if title.type == "selector_expression" and operand.text.decode() == names[1]:
                field = title.child_by_field_name("field").text.decode()
            # (one holding another subtest is not picked: `go test` names the inner one)
            inner = ".Run(" in kids[1].text.decode()
            if kids[1].type == "func_literal" and (key or field) and not inner:
                out.append((table, st, key, field))
    return out


def table_subtests(code: str) -> list[tuple[str, str, int, int, int, int, int]]:
    """(test function and the subtests around the loop, title, entry's first row, last
    row, subtest's first row, last row, failing row) of each entry of a Go test table a
    subtest runs by its title: `for _, tt := range tests { t.Run(tt.name, func(t
    *testing.T) {…}) }` over a slice literal declared before the loop whose entries give
    `name` by key (`name: "…"`) or by position (the struct type's field order), or `for
    name, tt := range tests` over a map literal keyed by the title. Read with tree-sitter
    here, not by ctxpress."""
    root = parse("go", code.encode()).root_node
    lines = code.split("\n")
    structs: dict[str, list[str]] = {}  # type name -> field names in order
    functions = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.named_children))
        if node.type == "type_spec" and (st := _child(node, "struct_type")) is not None:
            structs[node.child_by_field_name("name").text.decode()] = _fields(st)
        elif node.type == "function_declaration":
            functions.append(node)
    out = []
    for fn in functions:
        for table, run, key, field in _table_runs(fn):
            kind = table.child_by_field_name("type")
            element = kind.child_by_field_name("element") if kind.type == "slice_type" else None
            order = []
            if element is not None:
                struct = element.type == "struct_type"
                order = _fields(element) if struct else structs.get(element.text.decode(), [])
            a, b = run.start_point[0], run.end_point[0]
            asserts = [r for r in range(a + 1, b) if re.search(r"\bt\.(Error|Fatal)", lines[r])]
            failing = asserts[-1] if asserts else b - 1
            found = [
                (title, e.start_point[0], e.end_point[0])
                for e in table.child_by_field_name("body").named_children
                if (title := _entry_title(e, key, field, order))
            ]
            count: dict[str, int] = defaultdict(int)
            for title, *_ in found:
                count[title] += 1
            name = "/".join([fn.child_by_field_name("name").text.decode(), *_subtest_path(run)])
            out.extend(
                (name, title, ea, eb, a, b, failing) for title, ea, eb in found if count[title] == 1
            )
    return out


def table_tasks() -> list[dict[str, Any]]:
    """One entry of each table a subtest runs by title, Random(11), at most
    ``GO_PER_FILE`` per file."""
    rng = random.Random(11)
    out = []
    for test, code in _go_test_files():
        by_run = defaultdict(list)
        for t in table_subtests(code):
            by_run[t[4]].append(t)
        picks = [rng.choice(entries) for _, entries in sorted(by_run.items())]
        rng.shuffle(picks)
        lines = code.split("\n")
        for fn, title, ea, eb, a, b, failing in picks[:GO_PER_FILE]:
            out.append(
                {
                    "package": "/".join(test.relative_to(GO_ROOT).parts[5:7]),
                    "test": test,
                    "function": fn,
                    "title": title,
                    "rows": lines[ea : eb + 1],
                    "run": lines[a : b + 1],
                    "line": failing + 1,
                }
            )
    return out


def _param_sets(
    dec: ast.expr, tables: dict[str, ast.expr]
) -> tuple[list[str], list[ast.expr]] | None:
    """(pytest's ids, the sets' nodes) of a `parametrize` decorator whose sets (inline,
    or a module-level list it names: ``tables``) are literals (or `pytest.param` of
    literals) on lines of their own, with ``MIN_SETS`` or more; ``None`` otherwise."""
    if not (isinstance(dec, ast.Call) and ast.unparse(dec.func).endswith("parametrize")):
        return None
    kw = {k.arg: k.value for k in dec.keywords}
    args = [*dec.args, *(kw[k] for k in ("argnames", "argvalues") if k in kw)][:2]
    if len(args) == 2 and isinstance(args[1], ast.Name) and args[1].id in tables:
        args[1] = tables[args[1].id]
    if len(args) < 2 or not isinstance(args[1], ast.List | ast.Tuple):
        return None
    try:
        names = ast.literal_eval(args[0])
        ids = ast.literal_eval(kw["ids"]) if "ids" in kw else None
        sets = []
        for e in args[1].elts:
            if isinstance(e, ast.Call) and ast.unparse(e.func) in ("pytest.param", "param"):
                own = {k.arg: ast.literal_eval(k.value) for k in e.keywords if k.arg == "id"}
                sets.append(pytest.param(*map(ast.literal_eval, e.args), **own))
            else:
                sets.append(ast.literal_eval(e))
    except (ValueError, SyntaxError, TypeError):
        return None
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    rows = [(e.lineno, e.end_lineno or e.lineno) for e in args[1].elts]
    shared = any(a[1] >= b[0] for a, b in itertools.pairwise(rows))
    if len(sets) < MIN_SETS or shared or rows[0][0] <= args[1].lineno:
        return None
    if (args[1].end_lineno or 0) <= rows[-1][1] or (ids is not None and len(ids) != len(sets)):
        return None
    made = [ParameterSet.extract_from(x, force_tuple=len(names) == 1) for x in sets]
    try:
        named = IdMaker(names, made, None, ids, None, None).make_unique_parameterset_ids()
    except Exception:  # an id pytest itself would refuse
        return None
    return named, list(args[1].elts)


def pytest_tasks() -> list[dict[str, Any]]:
    """One parameter set of each test with one `parametrize` decorator of literal sets,
    Random(11), at most ``GO_PER_FILE`` per file; its id by pytest's own ``IdMaker``."""
    rng = random.Random(11)
    out = []
    for test in sorted(PY_ROOT.rglob("test*.py")):
        code = test.read_text(errors="replace")
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        lines = code.split("\n")
        tables = {
            st.targets[0].id: st.value
            for st in tree.body
            if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name)
        }
        picks = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test"):
                continue
            found = [p for d in node.decorator_list if (p := _param_sets(d, tables)) is not None]
            stacked = sum("parametrize" in ast.unparse(d) for d in node.decorator_list)
            if len(found) != 1 or stacked != 1:
                continue
            ids, elts = found[0]
            i = rng.randrange(len(elts))
            asserts = [n.lineno for n in ast.walk(node) if isinstance(n, ast.Assert)]
            body = lines[node.lineno - 1 : node.end_lineno]
            picks.append((node.name, ids[i], elts[i], body, max(asserts, default=node.end_lineno)))
        rng.shuffle(picks)
        for name, pid, elt, body, failing in picks[:GO_PER_FILE]:
            out.append(
                {
                    "package": test.relative_to(PY_ROOT).parts[0],
                    "test": test,
                    "function": name,
                    "title": pid,
                    "rows": lines[elt.lineno - 1 : elt.end_lineno],
                    "run": body,
                    "line": failing,
                }
            )
    return out


def pytest_prompt(task: dict[str, Any], test: str) -> list[dict[str, Any]]:
    path = task["test"].relative_to(PY_ROOT / task["package"]).as_posix()
    node = f"{path}::{task['function']}[{task['title']}]"
    log = (
        f"{path}:{task['line']}: AssertionError\n"
        "=========================== short test summary info ===========================\n"
        f"FAILED {node} - AssertionError\n========== 1 failed in 0.12s ==========\n"
    )
    return _run_after_read(path, test, "pytest -q", log)


def go_prompt(task: dict[str, Any], test: str) -> list[dict[str, Any]]:
    name, sub = task["test"].name, task["title"].replace(" ", "_")
    log = (
        f"--- FAIL: {task['function']} (0.00s)\n"
        f"    --- FAIL: {task['function']}/{sub} (0.00s)\n"
        f"        {name}:{task['line']}: unexpected result\nFAIL\nFAIL\t{task['package']}\t0.004s\n"
    )
    return _run_after_read(name, test, "go test ./...", log)


def _run_after_read(path: str, test: str, cmd: str, log: str) -> list[dict[str, Any]]:
    """An agent's read of the test file ``path``, then its run of ``cmd`` printing ``log``."""
    run = {"id": "c2", "type": "function"}
    run["function"] = {"name": "run", "arguments": json.dumps({"cmd": cmd})}
    return [
        {"role": "user", "content": "The tests fail. Fix it."},
        *_read(1, path, test),
        {"role": "assistant", "content": None, "tool_calls": [run]},
        {"role": "tool", "tool_call_id": "c2", "content": log},
    ]


def measure_run(task: dict[str, Any], f: float, shape: str) -> dict[str, Any]:
    """A Go subtest (``go``); a table entry and the subtest that runs it (``table``); a
    parameter set and the test it parametrizes (``pytest``)."""
    original = task["test"].read_text(errors="replace")
    prompt_of, lang = (pytest_prompt, "python") if shape == "pytest" else (go_prompt, "go")
    msgs = prompt_of(task, original)
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": original}])
    budget = ctxpress.count_tokens(msgs) - int((1 - f) * code_tokens)
    wanted = ["\n".join(task["rows"]), *(["\n".join(task["run"])] if "run" in task else [])]
    row: dict[str, Any] = {"package": task["package"], "shape": shape, "f": f}
    row["fits"] = ctxpress.count_tokens(prompt_of(task, "\n".join(wanted) + "\n")) <= budget
    return _outcome(row, msgs, budget, original, wanted, lang, lambda text: text, 2)


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
        if shape == "frame":  # and the stack frame jest prints under it
            log += f"\n      at Object.<anonymous> ({name}:{task['line']}:7)\n"
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
    pointed = original.split("\n")[task["line"] - 1] if shape == "frame" else None
    return _outcome(
        row, msgs, budget, original, [rows], "javascript", lambda t: code_of(t, shape), at, pointed
    )


def _outcome(
    row: dict[str, Any],
    msgs: list[dict[str, Any]],
    budget: int,
    original: str,
    wanted: list[str],
    lang: str,
    code: Callable[[str], str],
    at: int,
    pointed: str | None = None,
) -> dict[str, Any]:
    """``row`` with what the code stage made of the test file in message ``at`` (its code
    read by ``code``): ``wanted`` kept whole, the line a report points at (``pointed``)
    kept, parses, over budget, altered, raised or failed open."""
    t0 = time.perf_counter()
    try:
        res = ctxpress.compress(msgs, budget=budget, stages=["code"])
    except Exception as e:  # counted, not raised
        return row | {"err": True, "why": repr(e)}
    row["ms"] = (time.perf_counter() - t0) * 1000
    row["err"] = bool(res.fail_open)
    row["over"] = res.tokens_after > budget
    out = code(str(res.messages[at]["content"]))
    row["test"] = all(w in out for w in wanted)
    if pointed is not None:
        row["line"] = pointed in out.split("\n")
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
        fetch_sdists(SDISTS, PY_ROOT)
    todo, go, table, params = tasks(), go_tasks(), table_tasks(), pytest_tasks()
    if not todo or not go or not params:
        raise SystemExit(f"no corpus in {CACHE}: run with --fetch first")
    rows = [measure(t, shape, f) for t in todo for shape in SHAPES[:4] for f in FRACS]
    rows += [measure_run(t, f, "go") for t in go for f in FRACS]
    rows += [measure_run(t, f, "table") for t in table for f in FRACS]
    rows += [measure_run(t, f, "pytest") for t in params for f in FRACS]
    cols = ("test", "line", "fits", "parse", "over", "alter", "err")
    print(f"{len(todo)} JS tests from {len({t['package'] for t in todo})} packages")
    print(f"{len(go)} Go subtests from {len({t['package'] for t in go})} packages")
    print(f"{len(table)} Go table entries from {len({t['package'] for t in table})} packages")
    print(f"{len(params)} pytest parameter sets from {len({t['package'] for t in params})} sdists")
    print(f"{'shape':6}{'f':>6}{'tasks':>7}" + "".join(f"{c:>7}" for c in cols) + f"{'ms':>7}")
    summary: dict[str, dict[str, Any]] = {}
    for shape in SHAPES:
        for f in FRACS:
            mine = [r for r in rows if r["shape"] == shape and r["f"] == f]
            s: dict[str, Any] = {"tasks": len(mine)}
            for c in cols:
                s[c] = sum(bool(r.get(c)) for r in mine) if any(c in r for r in mine) else "-"
            s["ms"] = sum(r.get("ms", 0.0) for r in mine) / max(1, len(mine))
            summary.setdefault(shape, {})[str(f)] = s
            print(
                f"{shape:6}{f:6.2f}{s['tasks']:7}"
                + "".join(f"{s[c]:>7}" for c in cols)
                + f"{s['ms']:7.1f}"
            )
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, default=str))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
