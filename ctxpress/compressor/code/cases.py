"""A failing table-driven test and the cases of its table the run names.

`@pytest.mark.parametrize("text, count", [(…), (…), …])`, `test.each([[…], …])("add(%i,
%i) -> %i", …)` and Go's `for _, tt := range tests { t.Run(tt.name, func…) }` can run
hundreds of cases; the runner reports the failing one by an id (`test_parse[input 7-7]`),
a title with that case's values (`add(7, 8) -> 15`) or the entry's title
(`TestParse/empty_input`), so the test body and that case are what the report is about,
and the other cases are elided (Go's entry is cut out by ``trim.nested_cut``).

pytest ids are rebuilt the way pytest builds them: `pytest.param(…, id=…)`, else the `ids=`
list, else each value's own id (strings as they are, numbers, booleans and `None` by
`str`, other values `argname` + index, a name or an attribute also by its text) joined by
`-`; duplicates take pytest's counter suffix. jest / vitest titles are rebuilt from the
printf placeholders (`%s %d %i %f %j %p %o %#`, `$field` of an object row), a value that
is not a literal matching anything.
"""

from __future__ import annotations

import ast
import itertools
import json
import math
import re
import textwrap
from typing import Any

from ctxpress.compressor.code.languages import clean_parse, node_text
from ctxpress.compressor.code.outline import Outline, Unit, indent_of, node_at


def cases_cut(outline: Outline, f: Unit, prose: str) -> dict[Unit, list[str]]:
    """The lines of focal ``f``, or of the module-level table it runs (`CASES = [` … `]`
    beside `@pytest.mark.parametrize("a, b", CASES)`, `test.each(cases)`), with the cases
    the failing run in ``prose`` does not name elided (`...,` in Python, `// …` in JS /
    TS); nothing where nothing would be cut or a cut would not parse."""
    if outline.tree is None:
        return {}
    if outline.spec.python:
        return _pytest_cut(outline, f, prose)
    if outline.lang in _EACH_LANGS and f.title:
        return _each_cut(outline, f, prose)
    return {}


# ---------------------------------------------------------------------------- pytest


# Candidate ids per parameter set, at most (the product of each value's candidates).
_MAX_IDS = 16


def _pytest_cut(outline: Outline, f: Unit, prose: str) -> dict[Unit, list[str]]:
    names = _bracketed(f.name, prose)
    if not names or f.kind != "func":
        return {}
    node = node_at(outline, f.start)
    while node is not None and node.type != "decorated_definition":
        node = node.parent
    if node is None:
        return {}
    drop: dict[Unit, list[tuple[int, int]]] = {}
    for dec in node.named_children:
        found = _parametrize(dec) if dec.type == "decorator" else None
        if found is None:
            continue
        argn, values, given = found
        where, table = (f, values) if values.type in ("list", "tuple") else _table(outline, values)
        if where is not None:
            drop.setdefault(where, []).extend(_set_runs(table, argn, given, names))
    out = {}
    for u, runs in drop.items():
        lines = _elided(outline.lines, u, runs, "...,")
        try:
            ast.parse(textwrap.dedent("\n".join(lines)))
        except SyntaxError:
            continue
        if runs:
            out[u] = lines
    return out


def _bracketed(name: str, prose: str) -> set[str]:
    """What may be the id in each `name[id]` of ``prose``: up to each `]` on its line (an
    id may hold brackets: `requests[security]>=2.8`)."""
    out: set[str] = set()
    for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\[", prose):
        rest = prose[m.end() :].split("\n", 1)[0]
        out.update(rest[:k] for k, c in enumerate(rest) if c == "]" and k)
    return out


def _parametrize(dec: Any) -> tuple[list[str], Any, Any] | None:
    """(argnames, the argvalues node, the literal `ids=` list or None) of a
    `parametrize` decorator."""
    call = dec.named_children[0] if dec.named_child_count else None
    if call is None or call.type != "call":
        return None
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or args is None or not _text(fn).endswith("parametrize"):
        return None
    positional = [a for a in args.named_children if a.type not in ("keyword_argument", "comment")]
    keywords = {
        _text(a.child_by_field_name("name")): a.child_by_field_name("value")
        for a in args.named_children
        if a.type == "keyword_argument"
    }
    argnames = positional[0] if positional else keywords.get("argnames")
    values = positional[1] if len(positional) > 1 else keywords.get("argvalues")
    if argnames is None or values is None:
        return None
    try:
        raw = ast.literal_eval(_text(argnames))
        given = ast.literal_eval(_text(keywords["ids"])) if "ids" in keywords else None
    except (ValueError, SyntaxError):
        return None
    argn = [s.strip() for s in raw.split(",")] if isinstance(raw, str) else list(raw)
    return argn, values, given


def _set_runs(values: Any, argn: list[str], given: Any, failing: set[str]) -> list[tuple[int, int]]:
    """Row ranges of the parameter sets of list ``values`` the run does not name, each
    run of them as one range; none where it names none or all of them."""
    if values is None:
        return []
    sets = [c for c in values.named_children if c.type != "comment"]
    if not _own_lines(values, sets):
        return []  # a set on the bracket's own line: no whole line to elide
    ids = _unique([_ids(s, i, argn, given) for i, s in enumerate(sets)])
    hit = [i for i, c in enumerate(ids) if any(_names(x, full) for x in c for full in failing)]
    exact = [i for i in hit if failing.intersection(ids[i])]
    hit = exact or hit
    return _runs(sets, hit) if hit and len(hit) < len(sets) else []


def _names(one: str, full: str) -> bool:
    """Whether the id of one decorator's set is part of the `-`-joined id pytest reports."""
    return (
        full == one
        or full.startswith(one + "-")
        or full.endswith("-" + one)
        or (f"-{one}-" in full)
    )


def _ids(s: Any, i: int, argn: list[str], given: Any) -> list[str]:
    """The ids pytest may give set ``s`` (index ``i``)."""
    values = [s] if len(argn) == 1 else None
    if s.type == "call" and _text(s.child_by_field_name("function")) in ("pytest.param", "param"):
        args = s.child_by_field_name("arguments")
        kids = args.named_children if args is not None else []
        for k in kids:
            if k.type == "keyword_argument" and _text(k.child_by_field_name("name")) == "id":
                own = _literal(k.child_by_field_name("value"))
                if isinstance(own, str):
                    return [own]
        values = [k for k in kids if k.type not in ("keyword_argument", "comment")]
    if isinstance(given, list | tuple) and i < len(given) and isinstance(given[i], str):
        return [given[i]]
    if values is None and s.type in ("tuple", "list"):
        values = [k for k in s.named_children if k.type != "comment"]
    if values is None or len(values) != len(argn):
        return []
    parts = [_value_ids(v, f"{name}{i}") for v, name in zip(values, argn, strict=True)]
    combos = itertools.islice(itertools.product(*parts), _MAX_IDS)
    return ["-".join(c) for c in combos]


def _value_ids(v: Any, fallback: str) -> list[str]:
    """A value's id: a literal by pytest's rules, else ``argname`` + index, or the text of a
    name or attribute (a class or function is shown by its name, an enum member as is)."""
    value = _literal(v)
    if isinstance(value, str):
        return [value.encode("unicode_escape").decode("ascii")]
    if isinstance(value, bool | int | float | complex) or (value is None and _text(v) == "None"):
        return [str(value)]
    if isinstance(value, bytes):
        return [value.decode("ascii", "backslashreplace")]
    if v.type in ("identifier", "attribute"):
        return [fallback, _text(v), _text(v).rsplit(".", 1)[-1]]
    return [fallback]


def _unique(ids: list[list[str]]) -> list[list[str]]:
    """pytest's suffixes for ids that repeat (`a0`, `a1`; `7_0` after a digit), where each
    set has one id to go by."""
    single = [c[0] if len(c) == 1 else None for c in ids]
    counts: dict[str, int] = {}
    for x in single:
        if x is not None:
            counts[x] = counts.get(x, 0) + 1
    taken = {x for x in single if x is not None}
    seen: dict[str, int] = {}
    out = []
    for c, x in zip(ids, single, strict=True):
        if x is None or counts[x] < 2:
            out.append(c)
            continue
        suffix = "_" if x and x[-1].isdigit() else ""
        n = seen.get(x, 0)
        while f"{x}{suffix}{n}" in taken:
            n += 1
        seen[x] = n + 1
        out.append([f"{x}{suffix}{n}"])
    return out


def _literal(node: Any) -> Any:
    try:
        return ast.literal_eval(_text(node)) if node is not None else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


# ---------------------------------------------------------------------------- shared


def _table(outline: Outline, name: Any) -> tuple[Unit | None, Any]:
    """The module-level statement that binds identifier ``name`` to a list literal (Python
    `CASES = [` … `]`, JS `const cases = [` … `]`), and that literal."""
    if name.type != "identifier":
        return None, None
    for u in outline.top.get(_text(name), ()):
        if u.kind != "stmt":
            continue
        top = node_at(outline, u.start)
        while top.parent is not None and top.parent.start_point[0] >= u.start:
            top = top.parent  # the statement, from the name it starts with
        todo = [top]
        while todo:
            n = todo.pop()
            left = n.child_by_field_name("left") or n.child_by_field_name("name")
            right = n.child_by_field_name("right") or n.child_by_field_name("value")
            named = left is not None and _text(left) == _text(name)
            if named and right is not None and right.type in ("list", "tuple", "array"):
                return u, right
            todo.extend(c for c in n.named_children if c.end_point[0] <= u.last)
    return None, None


def _elided(lines: list[str], f: Unit, drop: list[tuple[int, int]], marker: str) -> list[str]:
    """``f``'s lines, each run of rows in ``drop`` one ``marker`` line at its indent."""
    out: list[str] = []
    r = f.start
    for a, b in sorted(drop):
        out.extend(lines[r:a])
        out.append(indent_of(lines[a]) + marker)
        r = b + 1
    out.extend(lines[r : f.last + 1])
    return out


def _runs(sets: list[Any], hit: list[int]) -> list[tuple[int, int]]:
    """Row ranges of the runs of ``sets`` not in ``hit``; none where a kept one shares a
    line with them."""
    runs: list[tuple[int, int]] = []
    for keep, group in itertools.groupby(range(len(sets)), key=lambda i: i in hit):
        members = list(group)
        if not keep:
            runs.append((sets[members[0]].start_point[0], sets[members[-1]].end_point[0]))
    kept_rows = {r for i in hit for r in range(sets[i].start_point[0], sets[i].end_point[0] + 1)}
    if any(a <= r <= b for a, b in runs for r in kept_rows):
        return []  # sets sharing a line
    return runs


def _own_lines(table: Any, sets: list[Any]) -> bool:
    """Whether every case of ``table`` has lines of its own, not the brackets'."""
    top, bottom = table.start_point[0], table.end_point[0]
    return bool(sets) and all(top < s.start_point[0] and s.end_point[0] < bottom for s in sets)


# ---------------------------------------------------------------------------- go

_GO_STRINGS = frozenset({"interpreted_string_literal", "raw_string_literal"})
_ELEMENTS = frozenset({"literal_element", "keyed_element"})
# what a Go table entry's title sits in, up to the table: `{name: "…", …}`, `T{…}`
_TABLE_NODES = _ELEMENTS | {"literal_value", "composite_literal"}
_GO_FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})


def go_table_entry(fn: Any, prose: str) -> int | None:
    """The row of the one table entry whose title the run names as failing, where ``fn``
    is a Go subtest titled from its table (`t.Run(tt.name, func(t *testing.T) {…})` in a
    loop over `[]struct{name string; …}{…}`): `go test` reports `TestX/empty_input` (the
    title, spaces as `_`), and the line it gives is in the closure all entries share."""
    args = fn.parent
    if fn.type != "func_literal" or args is None or args.type != "argument_list":
        return None
    kids = args.named_children
    if len(kids) != 2 or kids[1] != fn or kids[0].type in _GO_STRINGS:
        return None  # (nodes are compared by ==: each access makes a new object)
    # the table is declared in the function around the loop (a subtest's, for a table in a
    # subtest), else further out
    scope = args.parent
    while scope is not None:
        while scope is not None and scope.type not in _GO_FUNCTIONS:
            scope = scope.parent
        if scope is None:
            return None
        rows = _entries_titled(scope, prose)
        if rows:
            return rows.pop() if len(rows) == 1 else None
        scope = scope.parent
    return None


def _entries_titled(scope: Any, prose: str) -> set[int]:
    """The rows of the table entries in ``scope`` whose title `go test` reports in
    ``prose`` (`/title_with_underscores`, followed by a space, `/` or a `#01` suffix)."""
    rows: set[int] = set()
    stack = [scope]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type not in _GO_STRINGS or node.parent is None:
            continue
        title = node.text.decode(errors="replace")[1:-1].replace(" ", "_")
        if not title or not re.search(rf"/{re.escape(title)}(?=[\s/#]|$)", prose):
            continue
        entry, at = None, node
        while at.parent is not None and at.parent.type in _TABLE_NODES:
            at = at.parent
            if at.type in _ELEMENTS and at.parent is not None and at.parent.type == "literal_value":
                entry = at
        if entry is not None:
            rows.add(entry.start_point[0])
    return rows


# ---------------------------------------------------------------------------- jest / vitest

_EACH_LANGS = frozenset({"javascript", "typescript", "tsx"})
# where a table test's title has a row's value (jest / vitest `.each`): printf
# placeholders (`%%` a `%`) and `$field` of an object row (`$a.b`)
PLACEHOLDER = re.compile(r"%[sdifjoOpP#$%]|\$([A-Za-z_][\w.]*)")


def _each_cut(outline: Outline, f: Unit, prose: str) -> dict[Unit, list[str]]:
    """A `test.each([...])("title", fn)` (`it`, `describe`; or `test.each(cases)` of a
    module-level `const cases = [...]`) cut to the rows whose title the run prints."""
    node = node_at(outline, f.start)
    while node is not None and node.type != "expression_statement":
        node = node.parent
    call = node.named_children[0] if node is not None and node.named_child_count else None
    inner = call.child_by_field_name("function") if call is not None else None
    if inner is None or inner.type != "call_expression":
        return {}
    callee, args = inner.child_by_field_name("function"), inner.child_by_field_name("arguments")
    table = args.named_children[0] if args is not None and args.named_child_count else None
    if not _text(callee).endswith(".each") or table is None:
        return {}
    where, table = (f, table) if table.type == "array" else _table(outline, table)
    sets = [c for c in table.named_children if c.type != "comment"] if table is not None else []
    if where is None or len(sets) < 2 or not _own_lines(table, sets):
        return {}
    hit = [
        i
        for i, row in enumerate(sets)
        if re.search(rf"(?<!\w){title_pattern(f.title, row, i)}(?!\w)", prose) is not None
    ]
    if not hit or len(hit) == len(sets):
        return {}
    drop = _runs(sets, hit)
    out = _elided(outline.lines, where, drop, "// …")
    if not drop or clean_parse(outline.lang, "\n".join(out).encode()) is None:
        return {}
    return {where: out}


def title_pattern(title: str, row: Any = None, index: int = 0) -> str:
    """A regular expression of the title jest prints for ``row`` (its ``index``); with no
    row, of the title it prints for any (each placeholder any text)."""
    if row is None:
        values: list[Any] = []
    elif row.type == "array":
        values = [c for c in row.named_children if c.type != "comment"]
    else:
        values = [row]
    fields = {}
    if row is not None and row.type == "object":
        for pair in row.named_children:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if pair.type == "pair" and key is not None and value is not None:
                fields[_text(key).strip("'\"")] = value
    out: list[str] = []
    at, used = 0, 0
    for m in PLACEHOLDER.finditer(title):
        out.append(re.escape(title[at : m.start()]))
        at = m.end()
        token = m.group(0)
        if token == "%%":
            out.append("%")
        elif row is None:
            out.append(_ANY)
        elif token == "%#":
            out.append(str(index))
        elif token == "%$":
            out.append(str(index + 1))
        elif m.group(1) is not None:
            value = fields.get(m.group(1))
            out.append(_shown(value, "p") if value is not None else _ANY)
        elif used < len(values):
            out.append(_shown(values[used], token[1]))
            used += 1
        else:
            out.append(re.escape(token))
    out.append(re.escape(title[at:]))
    return "".join(out)


_ANY = r"[^\n]+?"


def _shown(node: Any, kind: str) -> str:
    """A regular expression of how jest shows a value for placeholder ``%kind``: a literal
    as `util.format` / `pretty-format` would, anything else as any text."""
    value = _js_literal(node)
    if value is _UNKNOWN:
        return _ANY
    if isinstance(value, str):
        quoted = json.dumps(value) if kind in "pj" else f"'{value}'" if kind in "oO" else value
        return re.escape(quoted)
    if isinstance(value, bool) or value is None:
        return re.escape(json.dumps(value) if value is not None else _text(node))
    if not math.isfinite(value):
        return _ANY
    if kind == "i" or (kind == "d" and float(value).is_integer()):
        return re.escape(str(int(value)))
    return re.escape(str(int(value)) if float(value).is_integer() else repr(float(value)))


_UNKNOWN = object()


def _js_literal(node: Any) -> Any:
    """A JS literal's value (string, number, boolean, `null` / `undefined` as None), else
    ``_UNKNOWN``."""
    text = _text(node)
    if node.type == "string" or (node.type == "template_string" and "${" not in text):
        return text[1:-1]
    if node.type in ("true", "false"):
        return node.type == "true"
    if node.type in ("null", "undefined"):
        return None
    try:
        if node.type == "number" or (node.type == "unary_expression" and text.startswith("-")):
            return float(text.replace("_", ""))
    except ValueError:
        pass
    return _UNKNOWN


def _text(node: Any) -> str:
    return node_text(node) if node is not None else ""
