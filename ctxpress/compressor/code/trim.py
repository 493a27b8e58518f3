"""Trim one parsed source file to a token budget around its focal symbols.

Each unit of the file's outline (see ``outline``) is rendered in one of five modes:
``FULL`` (its lines verbatim), ``OPEN`` (header and closing lines verbatim, members
rendered by their own modes), ``PART`` (a Python method cut to its header and the
``self.attr = ...`` statements the focal code needs, with their enclosing
``if``/``for``/``try`` headers: where a constructor defines the data the focal method
reads, without the rest of a long body; a long import list cut to the names used; a stub
without the docstring the prose restates), ``SIG`` (header lines verbatim, the body
replaced by one elision line) or ``DROP``. Runs of dropped members or statements leave
one elision line (``...`` in Python, ``// …`` elsewhere), which also keeps every Python
suite non-empty. Every kept line is a whole line of the input, byte for byte.

This module plans the modes within the budget and renders them; the units and their
references are in ``outline``, the choice of focal units in ``focal``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ctxpress.compressor.code.cases import cases_cut
from ctxpress.compressor.code.focal import (
    TEST_NAME,
    asked_now,
    block_imports,
    class_level,
    find_focal,
    included,
    nested_definitions,
    prose_words,
    required,
    subwords,
    ts_type,
)
from ctxpress.compressor.code.imports import go_spec_names
from ctxpress.compressor.code.languages import node_text
from ctxpress.compressor.code.outline import (
    IDENT,
    PY_SELF_ASSIGN,
    Focus,
    Outline,
    Unit,
    ancestors,
    attribute_types,
    bare_names,
    code_names,
    decl_names,
    definer_order,
    doc_text,
    end_row,
    head_text,
    indent_of,
    member_names,
    node_at,
    pattern_binds,
    refs,
    relate,
    started_on,
    users,
)
from ctxpress.compressor.code.usage import rescored

DROP, SIG, PART, OPEN, FULL = 0, 1, 2, 3, 4
# A focal definition verbatim without its leading comment (a doc comment that would take
# the budget); ranks above ``FULL`` so no later step brings the comment back.
BARE = 5

# Python compound statements a partial body descends into, and their extra clauses.
_PY_COMPOUND = frozenset(
    {"if_statement", "for_statement", "while_statement", "with_statement", "try_statement"}
)
_PY_CLAUSES = frozenset(
    {"elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause"}
)
_PY_HANDLERS = frozenset({"except_clause", "except_group_clause", "finally_clause"})
# A row that continues the compound statement above it (its next clause).
_PY_CLAUSE_ROW = re.compile(r"\s*(?:else\s*:|elif\b|except\b|finally\s*:)")


@dataclass
class TrimResult:
    code: str
    focal: list[str]
    tokens_estimate: int
    kept_full: int
    collapsed: int
    dropped: int
    short: bool = False  # a focal unit is not whole: more room would keep more of it


# ---------------------------------------------------------------------------- rendering


def elision(outline: Outline) -> str:
    """The line that stands for code left out: a statement in Python, a comment elsewhere."""
    return "..." if outline.spec.python else "// …"


class _Costs:
    """Estimated tokens of a unit in each mode (sum of per-line counts, memoised)."""

    marker = 2

    def __init__(
        self, outline: Outline, count: Callable[[str], int], total: int | None = None
    ) -> None:
        self.o = outline
        self.count = count
        # One exact count of the whole file calibrates a per-character rate; the plan uses
        # estimates and the rendered result is counted exactly (see ``trim_outline``).
        widths = [len(line.lstrip()) for line in outline.lines]
        chars = sum(widths)
        total = count("\n".join(outline.lines)) if total is None else total
        self.rate = rate = max(0.05, (total - len(outline.lines)) / chars) if chars else 0.3
        # estimated tokens of rows [0, r): any run of rows costs one subtraction
        self._upto = [0, *itertools.accumulate(int(w * rate) + 1 for w in widths)]
        self._full: dict[Unit, int] = {}
        self._sig: dict[Unit, int] = {}
        self._struct: dict[Unit, int] = {}

    def tok(self, a: int, b: int) -> int:
        return self._upto[b + 1] - self._upto[a] if b >= a else 0

    def structural(self, u: Unit) -> int:
        n = self._struct.get(u)
        if n is None:
            rows = set(range(u.start, u.last + 1))
            for c in u.children or ():
                rows.difference_update(range(c.first, c.last + 1))
            rows.difference_update(self.o.quiet_rows)
            head = _wrapper_head(self.o, u)
            rows.difference_update(head)
            lines = self.o.lines
            n = sum(self.tok(r, r) for r in rows if lines[r].strip()) + self.marker
            n += self.marker * sum(r - 1 not in head for r in head)  # one per run
            self._struct[u] = n
        return n

    def full(self, u: Unit) -> int:
        n = self._full.get(u)
        if n is None:
            n = self._full[u] = self.tok(u.first, u.last)
        return n

    def lines(self, rows: list[str]) -> int:
        rate = self.rate
        return sum(int(len(line.lstrip()) * rate) + 1 for line in rows)

    def sig(self, u: Unit) -> int:
        n = self._sig.get(u)
        if n is None:
            n = self.tok(u.start, u.head_end) + self.marker + 1
            n += sum(self.marker - self.tok(a, b) for a, b in u.folds)
            if u.close >= 0:
                n += self.tok(u.close, u.last)
            self._sig[u] = n
        return n


class _Plan:
    def __init__(
        self, outline: Outline, costs: _Costs, partial: dict[Unit, list[str]] | None = None
    ) -> None:
        self.o = outline
        self.c = costs
        self.partial = partial or {}
        self.mode: dict[Unit, int] = {outline.root: OPEN}
        self.cost: dict[Unit, int] = {}
        self.total = 0
        self.structural = costs.structural
        self.full = costs.full
        self.sig = costs.sig

    def current(self, u: Unit) -> int:
        return self.cost.get(u, 0)

    def _ancestors_cost(self, u: Unit) -> tuple[int, list[Unit]]:
        need, extra, p = [], 0, u.parent
        while p is not None and self.mode.get(p, DROP) < OPEN:
            if p.children is None:
                return -1, []
            if self.mode.get(p) == PART:
                return -2, []  # a cut rendering holds what it keeps of its members
            need.append(p)
            extra += self.structural(p)
            p = p.parent
        if p is not None and self.mode.get(p, DROP) >= FULL:
            return -2, []
        return extra, need

    def inside_full(self, u: Unit) -> bool:
        p = u.parent
        while p is not None:
            if self.mode.get(p, DROP) >= FULL:
                return True
            p = p.parent
        return False

    def _set(self, u: Unit, mode: int, cost: int) -> None:
        delta = cost - self.current(u)
        self.mode[u] = mode
        self.cost[u] = cost
        p = u.parent
        while p is not None:
            self.cost[p] = self.current(p) + delta
            p = p.parent
        self.total += delta

    def try_mode(self, u: Unit, mode: int, budget: int, force: bool = False) -> bool:
        cur = self.mode.get(u, DROP)
        if cur >= mode or self.inside_full(u):
            return cur >= mode
        if mode == SIG and not u.collapsible:
            return False
        if mode == OPEN and u.children is None:
            return False
        if mode == PART and u not in self.partial:
            return False
        extra, need = self._ancestors_cost(u)
        if extra < 0:
            # a member of an atomic or collapsed container: raise the outermost atomic
            # ancestor instead (one may sit above open-able ones: `namespace a { namespace b {`)
            anc, p = None, u.parent
            while p is not None:
                if p.children is None:
                    anc = p
                p = p.parent
            return anc is not None and self.try_mode(anc, FULL, budget, force)
        if mode == FULL:
            new = self.full(u)
        elif mode == BARE:
            new = self.c.tok(u.start, u.last)
        elif mode == SIG:
            new = self.sig(u)
        elif mode == PART:
            new = self.c.lines(self.partial[u])
        else:
            new = self.structural(u) + sum(self.current(c) for c in u.children or ())
        delta = new - self.current(u) + extra
        if not force and self.total + delta > budget:
            return False
        for p in reversed(need):
            self._set(p, OPEN, self.structural(p))
        self._set(u, mode, new)
        return True


# Share of the budget a focal definition's documentation may take up front: its leading
# comment, or the docstring that is all of a body still to be written. Where that
# documentation is the only statement of the task (the prose says little), it may take
# most; so may a stub without documentation (its body is the TODO the prose asks about).
# Where the prose restates it (``told``), none: it is a second copy of the task, and
# comes back only as it ranks (``_TOLD_DIST``); the rest of the stub stays.
_FOCAL_DOC_SHARE, _SPEC_DOC_SHARE = 0.3, 0.8
# The prose states the task itself when it uses this share of the words of the stub's
# documentation, its name and TODO marker aside (DevEval's requirements, rewritten from
# the docstrings: 0.14 at least; "Implement `name`." none).
_TOLD = 0.1
# Distance of the whole of a stub whose documentation the prose restates: that of a
# helper about 2 % likely to be used (``usage``), behind the likelier ones.
_TOLD_DIST = 2.0
_MARKERS = frozenset(subwords("TODO FIXME implement implemented not yet"))


def _spec_words(outline: Outline, u: Unit, said: set[str]) -> float | None:
    """Share of the distinct words of ``u``'s documentation that the prose uses too
    (``None``: it has none)."""
    doc = set(subwords(doc_text(outline, u))) - _MARKERS - set(subwords(u.name))
    return len(doc & said) / len(doc) if doc else None


def _focal_mode(
    u: Unit, budget: int, costs: _Costs, share: float = _FOCAL_DOC_SHARE, told: bool = False
) -> int:
    """``FULL`` for a focal definition, unless it is a class that does not fit (``OPEN``)
    or its documentation would crowd out what it uses: a body still to be written is
    then kept as its signature (``SIG``; the prose asks for it), a leading comment is
    left out first (``BARE``, also when the whole does not fit, or ``told``). What stays
    is byte for byte."""
    full = costs.full(u)
    if u.children is not None and full > budget:
        return OPEN  # a focal class too long to keep whole: its header, members by relevance
    mode = FULL
    if u.first < u.start:
        lead = full - costs.tok(u.start, u.last)
        if told or lead > share * budget or full > budget:
            mode, full = BARE, full - lead
    if u.empty and u.collapsible and full - costs.sig(u) > (budget if told else share * budget):
        return SIG
    return mode


def render(
    outline: Outline,
    mode: dict[Unit, int],
    partial: dict[Unit, list[str]] | None = None,
    terse: bool = False,
) -> str:
    """The kept lines; ``terse`` leaves out the elision lines of dropped runs that
    nothing needs (all but a Python suite's only content): the last resort of a budget
    the kept units alone overrun."""
    lines, python, quiet_rows = outline.lines, outline.spec.python, outline.quiet_rows
    marker_text = elision(outline)
    out: list[str] = []

    def blank(line: str) -> None:
        if out and out[-1].strip():
            out.append(line)  # as written: a blank line may hold spaces, or a `\r`

    def structural(a: int, b: int, hidden: frozenset[int] = frozenset()) -> bool:
        emitted = False
        for r in range(a, b + 1):
            if r in quiet_rows:
                continue
            line = lines[r]
            if r in hidden:  # a run of parameters nothing kept names: one elision
                if r - 1 not in hidden:
                    out.append(indent_of(line) + marker_text)
                emitted = True
            elif line.strip():
                out.append(line)
                emitted = True
            else:
                blank(line)
        return emitted

    def emit(u: Unit) -> None:
        m = mode.get(u, DROP)
        if m == FULL:
            out.extend(lines[u.first : u.last + 1])
        elif m == BARE:
            out.extend(lines[u.start : u.last + 1])
        elif m == SIG:
            r = u.start
            for a, b in u.folds:  # a decorator's long literal: its brackets and an elision
                out.extend(lines[r:a])
                out.append(indent_of(lines[a]) + marker_text)
                r = b + 1
            out.extend(lines[r : u.head_end + 1])
            out.append(u.indent + marker_text)
            if u.close >= 0:
                out.extend(lines[u.close : u.last + 1])
        elif m == PART and partial and u in partial:
            out.extend(partial[u])
        elif m == OPEN:
            cur = u.start
            dropped_run = False
            suite = -1
            # suites whose elisions may go: not Python's, unless another member stays
            quiet = (
                {c.suite for c in u.children or () if mode.get(c, DROP) != DROP}
                if python
                else {c.suite for c in u.children or ()}
            )
            hidden = _open_parameters(outline, u, mode, partial) | _wrapper_head(outline, u)
            for c in u.children or ():
                if structural(cur, c.first - 1, hidden) or c.suite != suite:
                    dropped_run = False
                suite = c.suite
                cur = c.last + 1
                if mode.get(c, DROP) == DROP:
                    if not dropped_run and not (terse and c.suite in quiet):
                        out.append(indent_of(lines[c.start]) + marker_text)
                        dropped_run = True
                    continue
                dropped_run = False
                emit(c)
            structural(cur, u.last)

    emit(outline.root)
    if python:
        # nothing but a docstring may come before `from __future__`: not an elided one
        future = next((i for i, x in enumerate(out) if x.startswith("from __future__")), 0)
        out[:future] = [x for x in out[:future] if x != marker_text]
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    text = "\n".join(out)
    if lines and lines[-1] == "" and text:
        text += "\n"
    return text


# ---------------------------------------------------------------------------- planning


def _assigns(u: Unit) -> tuple[tuple[frozenset[str], tuple[tuple[int, int, bool], ...]], ...]:
    """The ``self.attr = ...`` statements of a method body, with what must stay around them.

    Descends into ``if``/``for``/``while``/``with``/``try`` suites (not into nested
    definitions). A statement inside a ``try`` also needs the first handler clause's
    header (a ``try`` without one does not parse); suites written on their header's line
    are not entered. Read from the tree on first use: only a few methods per trim need it.
    """
    if u._assigns is not None:
        return u._assigns
    out: list[tuple[frozenset[str], tuple[tuple[int, int, bool], ...]]] = []

    def colon_row(owner: Any, block: Any) -> int:
        row = -1
        for c in owner.children:
            if c.type == ":" and c.start_byte < block.start_byte:
                row = c.start_point[0]
        return row

    def header(owner: Any) -> tuple[int, int, bool] | None:
        block = next((c for c in owner.children if c.type == "block"), None)
        if block is None:
            return None
        row = colon_row(owner, block)
        return (owner.start_point[0], row, True) if row >= 0 else None

    def walk(block: Any, chain: tuple[tuple[int, int, bool], ...], depth: int) -> None:
        for stmt in block.named_children:
            kind = stmt.type
            if kind == "expression_statement":
                inner = stmt.named_children[0] if stmt.named_child_count else None
                if inner is not None and inner.type in ("assignment", "augmented_assignment"):
                    names = PY_SELF_ASSIGN.findall(node_text(stmt))
                    if names:
                        seg = (stmt.start_point[0], end_row(stmt), False)
                        out.append((frozenset(names), (*chain, seg)))
                continue
            if kind not in _PY_COMPOUND or depth >= 6:
                continue
            own = header(stmt)
            if own is None:
                continue
            extra: tuple[tuple[int, int, bool], ...] = ()
            if kind == "try_statement":
                first = next((c for c in stmt.children if c.type in _PY_HANDLERS), None)
                handler = header(first) if first is not None else None
                if handler is None:
                    continue
                extra = (handler,)
            pairs = [(stmt, c) for c in stmt.children if c.type == "block"]
            for clause in stmt.children:
                if clause.type in _PY_CLAUSES:
                    pairs.extend((clause, c) for c in clause.children if c.type == "block")
            for owner, sub in pairs:
                row = colon_row(owner, sub)
                if row < 0 or sub.start_point[0] <= row:
                    continue  # a suite on its header's line
                segs = [*chain, own, *extra]
                if owner is not stmt:
                    segs.append((owner.start_point[0], row, True))
                walk(sub, tuple(sorted(set(segs))), depth + 1)

    if u.body is not None:
        walk(u.body, (), 0)
    u._assigns = tuple(out)
    return u._assigns


def partial_body(outline: Outline, u: Unit, wanted: frozenset[str]) -> list[str]:
    """The lines of ``u`` in ``PART`` mode: header, and the first statement assigning each
    wanted attribute with its enclosing headers; gaps become ``...`` (empty if none is wanted).

    An elision after a header takes the indentation of the body it stands for; after a
    statement, the statement's own (one more statement of the same suite), so every
    suite stays non-empty and ``elif``/``else``/``except`` clauses still line up.
    """
    segs: set[tuple[int, int, bool]] = set()
    seen: set[str] = set()
    for names, chain in _assigns(u):
        if (names & wanted) - seen:
            seen |= names
            segs.update(chain)
    if not segs:
        return []
    lines = outline.lines
    out = lines[u.start : u.head_end + 1]
    prev_end, prev_header, prev_indent = u.head_end, True, ""

    def gap(a: int, b: int) -> None:
        code = next(
            (r for r in range(a, b) if lines[r].strip() and not lines[r].lstrip().startswith("#")),
            None,
        )
        if code is not None:
            out.append((indent_of(lines[code]) if prev_header else prev_indent) + "...")

    for a, b, is_header in sorted(segs):
        if a <= prev_end:
            if b > prev_end:
                out.extend(lines[prev_end + 1 : b + 1])
                prev_end = b
            continue
        gap(prev_end + 1, a)
        out.extend(lines[a : b + 1])
        prev_end, prev_header, prev_indent = b, is_header, indent_of(lines[a])
    gap(prev_end + 1, u.last + 1)
    return out


def without_docstring(outline: Outline, u: Unit) -> list[str] | None:
    """A Python function's lines from its header on, its docstring left out (``None``:
    it has none); an elision stands in where nothing else is left of the body."""
    body = u.body
    if not outline.spec.python or body is None or not body.named_children:
        return None
    first = body.named_children[0]
    if not (
        first.type == "expression_statement"
        and first.named_child_count
        and first.named_children[0].type in ("string", "concatenated_string")
    ):
        return None
    a, b = first.start_point[0], end_row(first)
    if a <= u.head_end:
        return None  # written on the header's line: `def f(): "doc"`
    lines = outline.lines
    out = lines[u.start : a] + lines[b + 1 : u.last + 1]
    if body.named_child_count == 1:
        out.insert(a - u.start, indent_of(lines[a]) + "...")
    return out


def _balanced(line: str) -> bool:
    return sum(line.count(c) for c in "([{") == sum(line.count(c) for c in ")]}")


def cut_rows(
    outline: Outline,
    u: Unit,
    rows: set[int],
    hidden: frozenset[int] = frozenset(),
    jsx: frozenset[int] = frozenset(),
) -> list[str]:
    """``u``'s header, its ``rows`` and its closing lines, one elision for each run of
    code left out between them (blank lines between kept rows stay). A unit with no
    header (a statement) is its ``rows`` alone. Each run of ``hidden`` header rows (the
    parameters nothing kept names: ``_unnamed_parameters``) gives way to an elision. A
    run of ``jsx`` rows (JSX children) gives way to `{/* … */}`."""
    lines, python = outline.lines, outline.spec.python
    code = [r for r in sorted(rows) if lines[r].strip()]
    prev = u.header_last
    out = []
    for r in range(u.start, prev + 1):
        if r not in hidden:
            out.append(lines[r])
        elif r - 1 not in hidden:
            out.append(indent_of(lines[r]) + elision(outline))
    end = u.close if u.close >= 0 else u.last + 1
    for r in [*code, end]:
        gap = [g for g in range(prev + 1, r) if lines[g].strip()]
        if gap:  # Python: at the next statement's indent (a comment's may be any), but
            # before an `else:` / `except:` inside the clause it ends, as the gap's code is
            at = (code[0] if r == end else r) if python else gap[0]
            if python and r < end and _PY_CLAUSE_ROW.match(lines[r]):
                at = next((g for g in gap if not lines[g].lstrip().startswith("#")), at)
            mark = _JSX_ELISION if jsx.issuperset(gap) else elision(outline)
            out.append(indent_of(lines[at]) + mark)
        elif r < end:
            out.extend(lines[prev + 1 : r])  # blank lines between kept rows stay
        if r < end:
            out.append(lines[r])
        prev = r
    if u.close >= 0:
        out.extend(lines[u.close : u.last + 1])
    return out


def nested_cut(
    outline: Outline,
    u: Unit,
    rows: list[int],
    limit: int = 0,
    cost: Callable[[list[str]], int] | None = None,
) -> list[str] | None:
    """``u`` cut to its header, the nested definitions starting on ``rows`` and its
    closing lines, elisions between: a long function around the closure the prose asks
    about. In brace languages the blocks and object literals on the way to a definition
    keep only their braces and the member on the way (``return {`` … ``set(k, v) {…}``
    … ``};``). While the cut and the imports it adds stay within ``limit`` tokens (by
    ``cost``), the statements of ``u``'s body and of the blocks on the way that declare
    what the kept code uses come too, smallest first (a closure's variables, a subtest's
    setup, a sibling closure it calls). ``None`` where a definition is not inside a
    statement of ``u``'s own body (Python: not one itself). A statement ``u`` (Java: a
    field whose anonymous class holds the definition) is cut so through the class
    bodies on the way."""
    if not (u.collapsible or u.kind == "stmt") or outline.tree is None:
        return None
    lines, python = outline.lines, outline.spec.python
    kept: set[int] = set()
    elided: list[Any] = []  # members of the blocks on the way the cut leaves out
    body = None
    outer = None  # in a statement, the outermost function around the definitions
    for row in rows:
        node = _opening(outline, row)
        chain = []
        if not u.collapsible:  # up to the statement: the outermost node in its rows
            while node is not None and u.start <= node.start_point[0] and end_row(node) <= u.last:
                chain.append(node)
                node = node.parent
            if not chain:
                return None
            path, gone = _path_rows(lines, chain, chain[-1], python)
            kept |= path
            elided.extend(gone)
            around = [
                c for c in chain if c.type in outline.spec.functions and c.start_point[0] < row
            ]
            outer = outer or (around[-1] if around else None)
            continue
        while node is not None and not _heads(outline, u, node):
            chain.append(node)
            node = node.parent
        body = node.child_by_field_name("body") if node is not None else None
        if body is not None and [c.type for c in body.named_children] == ["statement_list"]:
            body = body.named_children[0]  # Go: the block's statements are one node
        if body is not None and body.type == "class":
            body = body.child_by_field_name("body")  # a mixin's class: its members
        stmt = next((c for c in chain if c.parent == body), None) if body is not None else None
        if stmt is None or stmt.start_point[0] <= u.head_end:
            return None
        path, gone = _path_rows(lines, chain, stmt, python)
        kept |= path
        elided.extend(gone)
    if not u.collapsible and not elided:
        return None  # nothing left out: the statement whole
    if body is None and u.collapsible:
        return None

    fn = node if u.collapsible else outer
    # (a statement's rows hold the parameters of the function in it: `forwardRef(({ … }) =>`)
    params = outer.child_by_field_name("parameters") if outer is not None else None
    own = set(range(params.start_point[0], end_row(params) + 1)) if params is not None else set()

    # (the children of JSX elements on the way left out: their elision is JSX's)
    jsx = frozenset(r for g in elided if g.parent.type == "jsx_element" for r in _rows(g))

    def cut(rows: set[int], words: set[str]) -> list[str]:
        # (``words``: those of ``rows``, but the header's or the parameters')
        hidden = _unnamed_parameters(outline, fn, words)
        if u.collapsible:
            return cut_rows(outline, u, rows, hidden, jsx)
        return cut_rows(outline, u, rows - hidden, jsx=jsx)

    # what the kept code uses from the enclosing body and the blocks on the way
    words = set(IDENT.findall("\n".join(lines[r] for r in kept - own)))
    if cost is not None:
        # what it uses directly first, then what that uses; smallest first
        imported = {i for w in words for i in outline.top.get(w, ()) if i.kind == "import"}
        more = 0  # the imports the statements added use that the kept code did not
        for _ in range(2):
            found = [
                st
                for st in [*(body.named_children if body is not None else ()), *elided]
                if st.start_point[0] > u.head_end
                and not kept.intersection(_rows(st))
                and words.intersection(decl_names(st))
            ]
            grew = False
            for st in sorted(found, key=lambda st: end_row(st) - st.start_point[0]):
                taken = _rows(st) - _unnamed_props(outline, st, words)
                trial = kept | taken
                said = set(IDENT.findall("\n".join(lines[r] for r in taken)))
                new = {
                    i
                    for w in said - words
                    for i in outline.top.get(w, ())
                    if i.kind == "import" and i not in imported
                }
                extra = sum(cost(lines[i.start : i.last + 1]) for i in new)
                if cost(cut(trial, words | said)) + more + extra <= limit:
                    kept = trial
                    words.update(said)
                    imported |= new
                    more += extra
                    grew = True
            if not grew:
                break
    return cut(kept, words)


def _open_parameters(
    outline: Outline, u: Unit, mode: dict[Unit, int], partial: dict[Unit, list[str]] | None
) -> frozenset[int]:
    """Rows of the long JS / TS parameter list of a function opened around some of its
    statements (a component `forwardRef(({ … forty props … }, ref) => { … })` asked about
    one handler) that bind nothing the kept statements name: they give way as the
    statements left out do (``_unnamed_parameters``)."""
    if outline.lang not in ("javascript", "typescript", "tsx") or u.kind not in _FUNCTION_LIKE:
        return frozenset()
    if outline.tree is None or u.head_end - u.start < _LONG_PARAMETERS:
        return frozenset()
    fn = node_at(outline, u.head_end)
    while fn is not None and not _heads(outline, u, fn):
        fn = fn.parent
    kept: list[str] = []
    for c in u.children or ():
        m = mode.get(c, DROP)
        if m == PART and partial and c in partial:
            kept.extend(partial[c])
        elif m != DROP:
            kept.extend(outline.lines[c.first : c.last + 1])
    return _unnamed_parameters(outline, fn, set(IDENT.findall("\n".join(kept))))


def _wrapper_head(outline: Outline, u: Unit) -> frozenset[int]:
    """The inner rows of the functions a JS / TS block's head holds whole before the
    members it opens: a UMD loader, `(function (global, factory) { … })(this, function
    (module, exports) {`, or `Object.assign(function (doc) { … }, {` opened around the
    object's methods. No member of the block calls them: each gives way to an elision."""
    if outline.lang not in ("javascript", "typescript", "tsx") or outline.tree is None:
        return frozenset()
    if u.kind != "block" or u.head_end - u.start < _LONG_PARAMETERS:
        return frozenset()
    top = node_at(outline, u.start)
    while top is not None and top.parent is not None and top.parent.start_point[0] == u.start:
        top = top.parent
    rows: set[int] = set()
    stack = [top] if top is not None else []
    while stack:
        node = stack.pop()
        body = node.child_by_field_name("body") if node.type in _HEAD_FUNCTIONS else None
        if body is not None and body.type == "statement_block":
            first, last = body.start_point[0] + 1, body.end_point[0] - 1
            if u.start < first and last < u.head_end and last - first + 1 >= _WRAPPER_ROWS:
                rows.update(range(first, last + 1))
                continue
        stack.extend(c for c in node.named_children if c.start_point[0] < u.head_end)
    return frozenset(rows)


# the functions a head may hold (a callee, an argument before the object opened)
_HEAD_FUNCTIONS = frozenset({"function_expression", "function", "arrow_function"})
# a wrapper's head this long (inner rows) gives way to an elision
_WRAPPER_ROWS = 3


def _heads(outline: Outline, u: Unit, node: Any) -> bool:
    """Whether ``node`` is the function ``u``'s header opens (its parameters, its body)."""
    return node.type in outline.spec.functions and u.start <= node.start_point[0] <= u.head_end


# a function, or a block opened like one (`forwardRef((props, ref) => { … })`)
_FUNCTION_LIKE = frozenset({"func", "block"})
# The JS / TS parameters and destructured props a long list can give way to an elision.
_ITEMS = frozenset(
    {
        "shorthand_property_identifier_pattern",
        "identifier",
        "object_assignment_pattern",
        "assignment_pattern",
        "pair_pattern",
        "required_parameter",
        "optional_parameter",
        "rest_pattern",
    }
)
# a parameter list this long (in rows) is a header worth cutting
_LONG_PARAMETERS = 6


def _unnamed_parameters(outline: Outline, fn: Any, words: set[str]) -> frozenset[int]:
    """Rows of a long JS / TS parameter list (and of its destructured parameters, a
    component's props) that bind none of ``words``, those of the kept code: the header of
    a long function cut around a closure gives way like the body around it. Only
    parameters alone on their rows, in runs of two rows or more."""
    if fn is None or outline.lang not in ("javascript", "typescript", "tsx"):
        return frozenset()
    params = fn.child_by_field_name("parameters")
    if params is None or end_row(params) - params.start_point[0] < _LONG_PARAMETERS:
        return frozenset()
    items = [c for c in params.named_children if c.type != "comment"]
    lists = [items] if len(items) > 1 else []
    for one in items:  # `({ a, b = 1, ...rest }: Props, ref)`: its props too
        pattern = one.child_by_field_name("pattern") or one
        if pattern.type == "assignment_pattern":
            pattern = pattern.child_by_field_name("left") or pattern
        if pattern.type == "object_pattern":
            lists.append([c for c in pattern.named_children if c.type != "comment"])
    return frozenset().union(*(_unnamed_items(outline.lines, found, words) for found in lists))


def _unnamed_props(outline: Outline, st: Any, words: set[str]) -> set[int]:
    """Rows of a long JS / TS destructuring (`const { testID, … fifty props … } =
    props;`) whose props bind none of ``words``: the statement a closure needs, cut to
    the props it names as a long parameter list is (``_unnamed_parameters``)."""
    if outline.lang not in ("javascript", "typescript", "tsx"):
        return set()
    if st.type not in _DECLARATIONS:
        return set()
    decls = [c for c in st.named_children if c.type == "variable_declarator"]
    pattern = decls[0].child_by_field_name("name") if len(decls) == 1 else None
    if pattern is None or pattern.type != "object_pattern":
        return set()
    if end_row(pattern) - pattern.start_point[0] < _LONG_PARAMETERS:
        return set()
    items = [c for c in pattern.named_children if c.type != "comment"]
    return set(_unnamed_items(outline.lines, items, words))


def _unnamed_items(lines: list[str], items: list[Any], words: set[str]) -> frozenset[int]:
    """The rows of the runs (two rows or more) of the ``items`` of a parameter list or an
    object pattern that are alone on their rows and bind none of ``words``."""
    runs: list[tuple[int, int]] = []
    run: list[int] = []
    for i, c in enumerate(items):
        a, b = c.start_point[0], end_row(c)
        alone = (
            not lines[a][: c.start_point[1]].strip()
            and lines[b][c.end_point[1] :].strip() in ("", ",")
            and (i == 0 or end_row(items[i - 1]) < a)
            and (i + 1 == len(items) or items[i + 1].start_point[0] > b)
        )
        if alone and c.type in _ITEMS and not words.intersection(pattern_binds(c)):
            run.extend((a, b))
            continue
        if run and run[-1] > run[0]:
            runs.append((run[0], run[-1]))
        run = []
    if run and run[-1] > run[0]:
        runs.append((run[0], run[-1]))
    return frozenset(r for a, b in runs for r in range(a, b + 1))


def _opening(outline: Outline, row: int) -> Any:
    """The node ``row`` opens: after the brackets it starts by closing (Go's `}, {` opens
    the next table entry, not the one it ends)."""
    line = outline.lines[row]
    rest = line.lstrip(" \t}),;")
    if not rest.strip():
        return node_at(outline, row)
    col = len(line) - len(rest)
    return outline.tree.root_node.descendant_for_point_range((row, col), (row, col))


def _only_way(outline: Outline, u: Unit, starts: list[int]) -> bool:
    """Whether statement ``u`` is no more than the way to the definitions starting on
    ``starts`` (a Java field whose anonymous class holds only the method asked about): it
    stays focal whole, as the definition would (`var pluralForm = function …, plurals =
    { … }` holds more: ranked where it outgrows the budget)."""
    if u.collapsible or outline.tree is None:
        return False
    covered: set[int] = set()
    for row in starts:
        node = _opening(outline, row)
        while node is not None and node.type not in outline.spec.functions:
            node = node.parent
        if node is None or node.start_point[0] < u.start:
            return False
        covered |= _rows(node)
    return u.last - u.start + 1 - len(covered) <= _WAY_ROWS


# Rows of a statement around a definition that are only the way to it: its first (`private
# final Listener l = new Listener() {`) and last (`};`), and a row between.
_WAY_ROWS = 3


def _rows(node: Any) -> set[int]:
    return set(range(node.start_point[0], end_row(node) + 1))


# Nodes whose other members a cut may elide: blocks (Python suites too), object literals,
# class bodies (a Java anonymous class's), Rust impl bodies, Go composite literals (a
# test table's other entries), JS arrays (a bundle's modules, a route table).
_CUT_THROUGH = frozenset(
    {
        "statement_block",
        "block",
        "object",
        "class_body",
        "declaration_list",
        "literal_value",
        "array",
    }
)
# JSX tags whose other attributes a cut may elide (an inline handler the cut is in:
# `onPointerEnter={() => { function frame() {…} }}`), their rows between `<Tag` and `/>`.
_JSX_TAGS = frozenset({"jsx_opening_element", "jsx_self_closing_element"})
# What a row may start with before its closing bracket (a bundler's `/******/ ]);`).
_LEADING_COMMENTS = re.compile(r"\s*(?:/\*.*?\*/\s*)*")


def _path_rows(
    lines: list[str], chain: list[Any], stmt: Any, python: bool
) -> tuple[set[int], list[Any]]:
    """The rows of ``stmt`` to keep for the definition ``chain`` climbs from: all of it
    but the other members of each block, object or array literal on the way whose
    brackets end and start their lines (a Python suite: that starts below its header);
    and those members left out."""
    drop: set[int] = set()
    gone: list[Any] = []
    for c in chain:
        if not c.is_named or c is stmt or c.parent is None:
            continue  # the `{` a row starts with: its siblings are the members on the way
        p = c.parent
        box = p.parent if p.type == "statement_list" else p  # Go
        if box is not None and (box.type in _CUT_THROUGH or box.type in _JSX_TAGS):
            cuts = [(box, p, c)]
        elif p.type in _BRANCHING and not python:
            # a statement on the way (`if … {…} else {…}`, `try {…} catch …`): the
            # other branches keep their braces, not their statements
            cuts = [(b, _statements(b), None) for b in _branches(p, c)]
        elif p.type == "jsx_element":
            # an element on the way (`<Box>` … `</Box>`): its other children give way,
            # and the attributes of its opening tag where a child is on the way
            tag = p.named_children[0]
            cuts = [(p, p, c)] + ([(tag, tag, None)] if tag.type in _JSX_TAGS and tag != c else [])
        elif p.type == "arguments":
            # a hook's dependency list beside the callback on the way (`useMemo(() =>
            # {…}, [ …names… ])`) keeps its brackets, not its names
            cuts = [(s, s, None) for s in p.named_children if s != c and _names_only(s)]
        else:
            continue
        for box, holder, on_way in cuts:
            top, bottom = box.start_point[0], box.end_point[0]
            if python:  # a suite's rows are its statements'
                if holder.parent is None or top <= holder.parent.start_point[0]:
                    continue
                top, bottom = top - 1, bottom + 1
            elif box.type in _JSX_TAGS:
                if not _LEADING_COMMENTS.sub("", lines[bottom]).startswith(("/>", ">")):
                    continue
            elif box.type == "jsx_element":  # its children, between its tags' rows
                tags = box.named_children
                if not _between_tag_rows(lines, tags[0], tags[-1]):
                    continue
                top, bottom = tags[0].end_point[0], tags[-1].start_point[0]
            else:
                opener, closer = "[]" if box.type == "array" else "{}"
                if not (
                    lines[top].rstrip().endswith(opener)
                    and _LEADING_COMMENTS.sub("", lines[bottom]).startswith(closer)
                ):
                    continue
            inside: list[tuple[Any, set[int]]] = []
            kept = _rows(on_way) if on_way is not None else set()
            for sib in holder.named_children:
                rows = _rows(sib)
                if sib == on_way:
                    continue
                if top < min(rows) and max(rows) < bottom:
                    inside.append((sib, rows))
                else:
                    kept |= rows
            for sib, rows in inside:
                # a row it shares with what stays (Go's `}, {` between table entries) stays
                # where it balances its own brackets; else the member stays whole
                if all(_balanced(lines[r]) for r in rows & kept):
                    drop |= rows - kept
                    gone.append(sib)
    return _rows(stmt) - drop, gone


# What a dependency list holds (`[user.id, onSave]`).
_DEPENDENCY = frozenset({"identifier", "member_expression", "comment"})


def _names_only(node: Any) -> bool:
    """Whether ``node`` is an array of names only (a hook's dependency list), which
    nothing but the hook reads, so its names can go where its call is only the way."""
    inner = node.named_children
    return node.type == "array" and bool(inner) and all(n.type in _DEPENDENCY for n in inner)


def _between_tag_rows(lines: list[str], opening: Any, closing: Any) -> bool:
    """Whether a JSX element's children lie on rows of their own: its opening tag ends
    its row and its closing tag starts one (`<Box>` … `</Box>`)."""
    if opening.type != "jsx_opening_element" or closing.type != "jsx_closing_element":
        return False
    (top, end), (bottom, start) = opening.end_point, closing.start_point
    return top < bottom and not lines[top][end:].strip() and not lines[bottom][:start].strip()


# What stands for JSX children left out: a comment in braces, as `// …` would be text.
_JSX_ELISION = "{/* … */}"


# Statements with branches: a cut through one leaves the others' statements out.
_BRANCHING = frozenset({"if_statement", "try_statement", "if_expression"})
_BRANCH_BLOCKS = frozenset({"statement_block", "block"})
_CLAUSES = frozenset({"else_clause", "catch_clause", "finally_clause"})


def _branches(p: Any, c: Any) -> list[Any]:
    """The blocks of statement ``p``'s branches other than the one ``c`` is (its `else`,
    its `catch` and `finally` bodies, each block of an `else if` chain)."""
    out = []
    for s in p.named_children:
        if s == c:
            continue
        if s.type in _BRANCH_BLOCKS:
            out.append(s)
        elif s.type in _BRANCHING or s.type in _CLAUSES:
            # (an `else if`, as Go writes it or inside an `else`; a clause around ``c``
            # holds no other block)
            out.extend(_branches(s, c))
    return out


def _statements(block: Any) -> Any:
    """The node whose children are ``block``'s statements (Go wraps them in one)."""
    inner = block.named_children
    return inner[0] if len(inner) == 1 and inner[0].type == "statement_list" else block


_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
_GO_GROUP = re.compile(r"\s*(?:const|var)\s*\(\s*(?://.*)?$")
# Languages whose structs hold their fields as lines, not units (`struct node { int n; }`).
_FIELD_LINES = frozenset({"c", "cpp"})


def required_parts(
    outline: Outline,
    focal: list[Unit],
    needed: list[tuple[Unit, bool]],
    shown: dict[Unit, frozenset[str]] | None = None,
    lean: bool = False,
) -> dict[Unit, list[str]]:
    """``PART`` renderings of the module-level definitions the focal code uses: without
    their leading comments, and an import list cut to its lines that name what is used
    (whole bracket-balanced lines, so the list still parses), and a C struct cut to the
    fields the focal code reads (`p->next`). ``needed``: ``focal.required`` (``shown``:
    what focal units cut to a part show, as there). ``lean``: a Go group's long raw
    strings cut to their first and last rows too (where the parts do not fit whole)."""
    used: set[str] = set()
    read: set[str] = set()  # members read (`p->next`, `s.len`)
    for f in focal:
        names = refs(outline, f)[0]
        used.update(names & shown[f] if shown and f in shown else names)
        read.update(b for _, b in refs(outline, f)[2])
    lines, out = outline.lines, {}
    # an import list keeps what the needed definitions show of themselves too, at least
    # (a statement's head, a signature): `var encodingLk sync.Mutex` wants `sync`
    shows = set(used)
    for u, _ in needed:
        if u.kind != "import":
            end = u.head_end if u.collapsible else u.last
            shows.update(IDENT.findall("\n".join(lines[u.start : end + 1])))
        for p in ancestors(u) if outline.spec.python else ():
            if p.kind == "block":  # (the header of a block around it: `if TYPE_CHECKING:`)
                shows.update(
                    IDENT.findall("\n".join(lines[p.start : max(p.start, p.head_end) + 1]))
                )
    for u, _ in needed:
        if (
            outline.lang in _FIELD_LINES
            and u.kind == "class"
            and u.children is None
            and u.collapsible
            and u.close > u.head_end
        ):
            # a C struct holds its fields as lines: those the focal code reads stay
            rows_in = range(u.head_end + 1, u.close)
            fields = {r for r in rows_in if read.intersection(IDENT.findall(lines[r]))}
            if fields and all(_balanced(lines[r]) for r in fields):
                out[u] = cut_rows(outline, u, fields)
            continue
        if u.children is not None:
            continue
        rows = list(range(u.start, u.last + 1))
        head = _after_attributes(outline, u)
        if u.kind == "import" and u.last > head + 1:
            wanted = shows.intersection(u.defs)
            keep = [r for r in rows[head - u.start + 1 : -1] if wanted & _import_row(outline, r)]
            # (Python's `from m import (` `)` with no name between does not parse)
            if (keep or not outline.spec.python) and all(_balanced(lines[r]) for r in keep):
                rows = [*range(u.start, head + 1), *keep, u.last]
        if u.kind == "stmt" and u.last - head >= _LONG_PARAMETERS and outline.tree is not None:
            # `const { testID, … fifty props … } = props;`: the props the focal code names
            st = node_at(outline, head)
            while st is not None and st.start_point[0] == head and st.type not in _DECLARATIONS:
                st = st.parent
            gone = _unnamed_props(outline, st, used) if st is not None else set()
            if gone:
                out[u] = cut_rows(outline, u, set(rows) - gone)
                continue
        if outline.lang == "go" and _GO_GROUP.match(lines[head]) and u.last > head + 1:
            specs = _go_specs_kept(outline, head, used, lean)
            kept = {*range(u.start, head + 1), *specs, u.last}
            if specs and len(kept) < u.last - u.first + 1:  # (a leading comment gives way too)
                out[u] = cut_rows(outline, u, kept)
            continue
        if len(rows) < u.last - u.first + 1:
            out[u] = [lines[r] for r in rows]
    return out


def _import_row(outline: Outline, row: int) -> set[str]:
    """The words of an import list's ``row`` that may name what it binds: a Go spec's
    package alone, as its path's other words name other packages (`…/go-nft/nft/schema`
    binds `schema`, not `nft`); elsewhere every word (Python's and JS's rows are names)."""
    if outline.lang == "go" and outline.tree is not None:
        spec = started_on(outline, row, _GO_SPEC)
        names = go_spec_names(spec) if spec is not None else None
        if names is not None:
            return set(names)
    return set(IDENT.findall(outline.lines[row]))


_GO_SPEC = frozenset({"import_spec"})

# Annotations and decorators: what may open a statement's first lines, before its code.
_ANNOTATIONS = frozenset({"attribute_item", "decorator", "annotation", "marker_annotation"})


def _after_attributes(outline: Outline, u: Unit) -> int:
    """The statement's first row after its attributes (`#[cfg(…)]`, decorators): one such
    attribute may run over lines (`#[cfg(all(` … `))]`), and its inner rows are no head."""
    lines, head = outline.lines, u.start
    while head < u.last and lines[head].lstrip().startswith(("#[", "@")):
        node = started_on(outline, head, _ANNOTATIONS) if outline.tree is not None else None
        head = max(head, end_row(node)) + 1 if node is not None else head + 1
    return head


def _go_specs_kept(outline: Outline, head: int, used: set[str], lean: bool = False) -> set[int]:
    """Rows of a Go `const (` / `var (` group (its line ``head``) to keep: the specs that
    name any of ``used``. In a `const` group a spec without a value repeats the one before
    it (`iota`'s), and any spec's `iota` is its place: such a group keeps every spec up to
    the last one named, which leaves each value as it was (a `var` without one is its
    type's zero value, nothing repeated). Comments give way;
    ``lean``: a raw string over rows (a certificate, a fixture) keeps its first and last
    rows, as a statement's does when it collapses. Empty where nothing can be cut so."""
    node = node_at(outline, head) if outline.tree is not None else None
    while node is not None and node.type not in ("const_declaration", "var_declaration"):
        node = node.parent
    if node is None:
        return set()
    holder = next((c for c in node.named_children if c.type == "var_spec_list"), node)
    specs = [c for c in holder.named_children if c.type in ("const_spec", "var_spec")]
    said = [i for i, spec in enumerate(specs) if used.intersection(decl_names(spec))]
    if not said:
        return set()
    if node.type == "const_declaration" and not all(
        s.child_by_field_name("value") and "iota" not in node_text(s) for s in specs
    ):
        said = list(range(said[-1] + 1))
    rows = {r for i in said for r in range(specs[i].start_point[0], end_row(specs[i]) + 1)}
    others = (specs[i] for i in range(len(specs)) if i not in said)
    if any(s.start_point[0] in rows or end_row(s) in rows for s in others):
        return set()  # (a spec shares a row with one that goes)
    todo = [specs[i] for i in said] if lean else []
    while todo:
        n = todo.pop()
        if n.type == "raw_string_literal":
            rows -= set(range(n.start_point[0] + 1, end_row(n)))
        else:
            todo.extend(n.named_children)
    return rows


def partial_bodies(outline: Outline, focal: list[Unit], costs: _Costs) -> dict[Unit, list[str]]:
    """``PART`` renderings of the methods that define attributes of the focal classes.

    A focal method with a body wants the attributes it reads on ``self``; one still to be
    written may read any, so it wants every attribute its class (or a base) assigns. The
    same goes for classes of the file that a focal signature names (annotations).
    Kept only where the cut body costs well under the whole one.
    """
    wanted: dict[str, set[str] | None] = {}  # owner -> attributes (None: all)

    def want(o: str, attrs: Iterable[str], every: bool) -> None:
        if every:
            wanted[o] = None
            return
        names = wanted.setdefault(o, set())
        if names is not None:
            names.update(attrs)

    for f in focal:
        if not outline.spec.python or f.kind != "func":
            continue
        _, selfs, pairs = refs(outline, f)
        if f.owner:
            for o in (f.owner, *outline.bases.get(f.owner, ())):
                want(o, selfs, bool(f.empty))
            # classes it holds in attributes: what it reads through them (`self.env.is_async`)
            held = attribute_types(outline, f.owner)
            for c, b in ((held[a], b) for a, b in pairs if a in selfs and a in held):
                for o in (c, *outline.bases.get(c, ())):
                    want(o, (b,), False)
        # classes of the file named in the signature (``bucket: Bucket``): their data too
        for t in f.header_words:
            if t != f.owner and any(c.kind == "class" for c in outline.types.get(t, ())):
                for o in (t, *outline.bases.get(t, ())):
                    want(o, (b for _, b in pairs), bool(f.empty))
    out: dict[Unit, list[str]] = {}
    if not wanted:
        return out
    # each attribute from the method that defines it first (the constructor, usually)
    first: dict[Unit, set[str]] = {}
    for (o, attr), defs in outline.attr_defs.items():
        names = wanted.get(o, set())
        if defs and (names is None or attr in names):
            u = min(defs, key=definer_order)
            first.setdefault(u, set()).add(attr)
    for u, attrs in first.items():
        if u.body is None or u in focal:
            continue
        rows = partial_body(outline, u, frozenset(attrs))
        if rows and costs.lines(rows) * 10 < costs.full(u) * 7:
            out[u] = rows
    return out


# Rank taken off a module-level function per function that calls it, and at most.
_CALL_STEP, _CALL_MAX = 0.1, 0.5
# A definition the prose names besides the focal one ranks as if this many times smaller.
_NAMED_SIZE = 4
# Distance of what the header of a class around a focal unit names (a base, a decorator).
_HEADER_USE = 2.5
# Distance of the definition of a focal method's own type, where that is not around it:
# the likelihood of a constructor (``usage``).
_OWN_TYPE = 1.0
# Tokens of size that cost as much rank as a 1.0 step of distance, with little of the file
# in the budget; with a share ``s`` of it in, ``_SIZE_TOKENS / (1 - s)``.
_SIZE_TOKENS = 400
# A constructor whose attribute assignments are a step of their own (``PART``) ranks its
# whole body this much farther: what a focal method reads of it are the attributes; the
# rest (argument checks, calls to the base) matters to one that builds an instance
# (``_alternative_constructor``).
_CONSTRUCTOR_REST = 1.0


# A plan's modes, its rendered code and that code's counted tokens.
_Rendered = tuple[dict[Unit, int], str, int]


def _ahead(steps: list[tuple[Unit, int]], a: dict[Unit, int], b: dict[Unit, int]) -> int:
    """1 + the index of the first of ``steps`` on which plans ``a`` and ``b`` differ, if
    ``a`` takes it; else 0."""
    for i, (u, mode) in enumerate(steps):
        took = a.get(u, DROP) >= mode
        if took != (b.get(u, DROP) >= mode):
            return i + 1 if took else 0
    return 0


def _alternative_constructor(outline: Outline, u: Unit) -> bool:
    """A classmethod or staticmethod: one that builds an instance (``cls(...)``), mostly."""
    return u.kind == "func" and class_level(head_text(outline, u))


def _steps(
    outline: Outline,
    dist: dict[Unit, float],
    seeds: dict[Unit, float],
    costs: _Costs,
    partial: dict[Unit, list[str]] | None = None,
    via: dict[Unit, Unit] | None = None,
    named: frozenset[Unit] = frozenset(),
    told: frozenset[Unit] = frozenset(),
    budget: int = 0,
    after: list[tuple[Unit, int]] | None = None,
) -> list[tuple[Unit, int]]:
    """Upgrades in order of relevance: closure bodies (a cut body first where there is
    one, ranked by its own size), then signatures (of related units first), then other
    bodies. A body ranks no earlier than the one it is reached through: what a callee
    uses is there for it. Size counts against a body less the more of the file the
    ``budget`` holds. A definition the prose names (``named``) pays a fraction of its
    size: it was asked for; the whole of a stub whose documentation the prose restates
    (``told``) ranks as a helper unlikely to be used, and so, farther, does the whole of a
    constructor whose attribute lines are a part (``_CONSTRUCTOR_REST``). ``after``: steps
    the kept code needs to run but not to be read (``block_imports``), after every related
    body, before any signature."""
    steps: list[tuple[Unit, int]] = []
    # Module-level helpers many functions call are likely helpers of the focal one too.
    calls: dict[str, int] = {}
    for u in dist:
        if u.kind == "func":
            for w in refs(outline, u)[0]:
                calls[w] = calls.get(w, 0) + 1

    # The share of the file the budget leaves: the more of it fits, the less a unit's
    # size should hold it back (with half the file in room, a likely 500-token helper
    # is worth more than a dozen unlikely constants).
    share = min(0.95, budget / max(1, costs.tok(0, len(outline.lines) - 1)))
    per = _SIZE_TOKENS / (1 - share)

    def rank(u: Unit, d: float, size: int) -> float:
        if u.owner is None and u.kind == "func":
            d -= min(_CALL_MAX, _CALL_STEP * calls.get(u.name, 0))
        return d + min(size, 4000) / (per * _NAMED_SIZE if u in named else per)

    floor: dict[Unit, tuple[float, int]] = {}

    def floor_of(u: Unit) -> tuple[float, int]:
        """The least rank of what ``u`` is reached through, and how many steps away."""
        p = (via or {}).get(u)
        if p is None or p not in dist or p in seeds:
            return 0.0, 0
        if p not in floor:
            f, n = floor_of(p)
            if p.children is None:  # a container is opened, not kept whole, for a member
                f = max(f, rank(p, dist[p], costs.full(p)))
            floor[p] = f, n + 1
        return floor[p]

    ranked = []
    builds = any(d == 0.0 and _alternative_constructor(outline, s) for s, d in seeds.items())
    for u, d in dist.items():
        if u in told:
            d = _TOLD_DIST  # a docstring the prose restates: a second copy of the task
        if u.name == "__init__" and u in (partial or {}) and not builds:
            d += _CONSTRUCTOR_REST
        r, (f, n) = rank(u, d, costs.full(u)), floor_of(u)
        ranked.append((max(r, f), n, r, u.order, FULL, u))
    for u, rows in (partial or {}).items():
        if u in dist:
            r, (f, n) = rank(u, dist[u], costs.lines(rows)), floor_of(u)
            ranked.append((max(r, f), n, r, u.order, PART, u))
    ranked.sort(key=lambda r: r[:5])
    for *_, mode, u in ranked:
        steps.append((u, mode))
        if mode == FULL and u.first < u.start:
            steps.append((u, BARE))  # if its leading comment does not fit too: without it
        if mode == FULL and u in named:
            steps.append((u, SIG))  # asked for: at least its signature
    steps.extend(after or ())
    # what else is related but does not fit whole: its signature, before the map
    steps.extend((u, SIG) for *_, mode, u in ranked if mode == FULL and u.kind in ("func", "class"))
    focal_rows = [u.start for u in seeds] or [0]
    reached = set(dist)
    focal_owners = {u.owner for u in seeds if u.owner}

    # overload stubs (`@overload`) of a function defined in the file repeat its signature
    real = {(u.owner, u.name) for u in outline.units if u.kind == "func" and not u.abstract}

    def key(u: Unit) -> tuple[bool, int, int, int]:
        variant = u.abstract and u.kind == "func" and (u.owner, u.name) in real
        depth = 0
        p = u.parent
        while p is not None and p.kind != "root":
            depth += 1
            p = p.parent
        near = min(abs(u.start - r) for r in focal_rows) if seeds else u.order
        return (variant, 0 if u.owner in focal_owners else 1, depth, near)

    rest = sorted((u for u in outline.units if u not in reached), key=key)
    # a map: every definition's signature (a short one whole), outermost first; then
    # other short statements, imports, whole bodies
    for u in rest:
        if u.kind in ("func", "class") and u.collapsible:
            steps.append((u, SIG))
        elif u.kind in ("class", "block") and u.children is not None:
            steps.append((u, OPEN))
        elif u.kind in ("func", "class") and u.last - u.start < 3:
            steps.append((u, FULL))
    steps.extend((u, FULL) for u in rest if u.kind != "import" and u.last - u.start < 3)
    steps.extend((u, FULL) for u in rest if u.kind == "import")
    for u in rest:
        steps.append((u, FULL))
    return steps


def plan_modes(
    outline: Outline,
    focal: list[Unit],
    steps: list[tuple[Unit, int]],
    budget: int,
    costs: _Costs,
    needed: list[tuple[Unit, bool]],
    partial: dict[Unit, list[str]] | None = None,
    told: frozenset[Unit] = frozenset(),
    cut: frozenset[Unit] = frozenset(),
) -> dict[Unit, int]:
    """Modes for every unit: focal bodies always (a stub's documentation is the task,
    unless the prose restates it: ``told`` stubs are kept without it, their ``partial``
    rendering where they have a docstring; a ``cut`` one around a nested definition
    first, whole as a later step), what they use (``needed``, from
    ``focal.required``) defined, then ``steps`` while they fit."""
    plan = _Plan(outline, costs, partial)
    for u in sorted(focal, key=lambda u: u.order):
        if (u in told or u in cut) and u in plan.partial:
            mode = PART
        else:
            share = _SPEC_DOC_SHARE if u.empty else _FOCAL_DOC_SHARE
            mode = _focal_mode(u, budget, costs, share, u in told)
        plan.try_mode(u, mode, budget, force=True)
    # Every module-level name a focal body uses stays defined: a statement whole where
    # it fits, else (as a function or class always) the least that still defines it.
    for u, body in needed:
        if u.kind == "import" and u.first < u.start:
            # (its leading comment is a licence or a section title more often than not)
            plan.try_mode(u, BARE, budget, force=True)
            continue
        data = u.kind not in ("func", "class") or ts_type(outline, u)
        if data and plan.try_mode(u, FULL, budget):
            continue
        # a C struct with the fields the focal code reads, where they fit
        struct = outline.lang in _FIELD_LINES and u.kind == "class" and u in plan.partial
        if struct and plan.try_mode(u, PART, budget):
            continue
        for m in (SIG, PART, FULL):
            if (m != SIG or not body) and plan.try_mode(u, m, budget, force=True):
                break
    # A focal class too long to keep whole: a map of its members first, bodies by the steps.
    for u in focal:
        if plan.mode.get(u) == OPEN:
            for c in u.children or ():
                if c.kind in ("func", "class") and c.collapsible:
                    plan.try_mode(c, SIG, budget)
    for u, mode in steps:
        if plan.total >= budget:
            break
        if mode == BARE and plan.mode.get(u, DROP) >= FULL:
            continue  # kept with its leading comment already
        plan.try_mode(u, mode, budget)
    return plan.mode


def _text(outline: Outline, u: Unit) -> str:
    """``u``'s code, without its leading comment (which gives way first)."""
    return "\n".join(outline.lines[u.start : u.last + 1])


# Distance of the includes a focal C / C++ function may draw names from: after what it
# calls directly (1.0), before what those call.
_INCLUDED = 1.5
# Distance from a named definition to a unit that uses it: a callee is 1, a member call
# through an untyped receiver 3; a caller is context after both.
_USER_COST = 3.5
# Users of one definition seeded, at most (the nearest): examples, not a call graph.
_USERS_MAX = 4
# Past a class a stub's signature names, to its methods that share a word with the stub's
# name: after its constructor (0.3 in ``relate``), before its other members (0.5).
_NAMED_MEMBER = 0.4


def trim_outline(
    outline: Outline,
    focus: Focus,
    budget: int,
    count: Callable[[str], int],
    total_tokens: int | None = None,
    define_used: bool = True,
    fill: bool = True,
) -> TrimResult:
    """Render ``outline`` within ``budget`` tokens (estimated per line, then checked).
    ``define_used``: every module-level name the focal code uses stays defined, past the
    budget if need be; off, such definitions are only ranked (the caller's last resort).
    ``fill``: plan again with a higher target while the counted result leaves room; off
    where the caller hands that room to another block."""
    nested = nested_definitions(outline, focus)
    seeds = find_focal(outline, focus, nested)
    costs = _Costs(outline, count, total_tokens)
    # a long function around the nested definition the prose names: cut around it, or
    # where it cannot be, ranked rather than forced whole past the budget
    around: dict[Unit, list[str]] = {}
    for f, starts in nested.items():
        if seeds.get(f) != 0.0 or costs.full(f) <= budget // 2:
            continue
        lines = nested_cut(
            outline, f, asked_now(outline, focus, starts), budget * 3 // 4, costs.lines
        )
        if lines is not None:
            around[f] = lines
        elif costs.full(f) > budget and not focus.rows and not _only_way(outline, f, starts):
            seeds[f] = 1.0  # (a report's function stays whole)
    # `self.cache` asked about: the method that assigns it first (the constructor, mostly),
    # cut to that assignment in Python where the whole would take half the budget; not
    # from a report's source line (it names what the failing line uses)
    asked_attrs: dict[Unit, set[str]] = {}
    for (owner, attr), defs in outline.attr_defs.items() if not focus.rows else ():
        if defs and focus.qualified & {("self", attr), ("this", attr), (owner, attr)}:
            u = min(defs, key=definer_order)
            asked_attrs.setdefault(u, set()).add(attr)
    for u in sorted(asked_attrs, key=lambda u: u.order):
        if seeds.get(u) == 0.0 or costs.full(u) <= budget // 2:
            seeds[u] = 0.0
            continue
        attrs = frozenset(asked_attrs[u])
        lines = partial_body(outline, u, attrs) if outline.spec.python else []
        if lines:
            around[u] = lines
        seeds[u] = 0.0 if lines or costs.full(u) <= budget else 1.0
    # a failing parametrized test: the cases the run names, the others elided (in a table
    # of its own: that table is asked about too)
    for u, d in list(seeds.items()):
        if d == 0.0 and u not in around:
            for t, lines in cases_cut(outline, u, focus.prose).items():
                around[t], seeds[t] = lines, 0.0
    # a report's line in a focal test too long for the whole budget: the statement on that
    # line (the failing assertion) and what it uses, not the test whole past the budget nor
    # its statements by size (a function a trace points into stays whole: its lines before
    # the failing one are the bug's context; unless the caller's last resort, where the
    # block is lost whole if it does not fit: then any function is cut so)
    for u, d in list(seeds.items()):
        at = sorted(r for r in focus.rows if u.start < r <= u.last)
        test = bool(u.title) or TEST_NAME.match(u.name) is not None
        whole = count(_text(outline, u)) if d == 0.0 and at and (test or not define_used) else 0
        if whole > budget and u not in around:
            lines = nested_cut(outline, u, at, budget * 3 // 4, costs.lines)
            # (where it fits, and is worth it: a cut that saves little loses the test's
            # other lines for nothing; another function, cut only as the last resort,
            # wherever the cut is smaller)
            room = budget if test else whole
            if lines is not None and costs.lines(lines) <= min(room, whole * 3 // 4):
                around[u] = lines
    focal = [u for u, d in seeds.items() if d == 0.0]
    empty = [f for f in focal if f.empty]
    focal_names = {f.name for f in focal}
    said = prose_words(focus)
    shares = {f: _spec_words(outline, f, said) for f in empty}
    told = frozenset(f for f, r in shares.items() if r is not None and r >= _TOLD)
    asked = frozenset(u for u, d in seeds.items() if d == 1.0 and u.name not in focal_names)
    for u, d in rescored(outline, empty, focus).items():
        if d < seeds.get(u, 99.0):
            seeds[u] = d
    via: dict[Unit, Unit] = {}
    dist = relate(outline, seeds, via) if seeds else {}
    # A class a stub's signature names (a parameter's type, the return type), not its own:
    # the methods that share a word with the stub's name are the ones it calls, mostly
    # (`load_bytecode(bucket: Bucket)`: `Bucket.bytecode_from_string`).
    for f in empty:
        words, own = set(subwords(f.name)), set(ancestors(f))
        for u, p in via.items():
            if (
                p.kind == "class"
                and p.name in f.header_words
                and u.parent is p
                and u.kind == "func"
                and p not in own
                and not u.name.startswith("__")
                and words.intersection(subwords(u.name))
            ):
                dist[u] = min(dist[u], dist[p] + _NAMED_MEMBER)
    # Who calls a function the prose names (or reads a constant it names) is context too:
    # a few nearest users, without what they use in turn.
    named = {s: d for s, d in seeds.items() if (d == 0.0 or s.kind == "stmt") and not s.empty}
    for s, callers in users(outline, list(named)).items():
        for u in sorted(callers, key=lambda u: abs(u.order - s.order))[:_USERS_MAX]:
            if named[s] + _USER_COST < dist.get(u, 99.0):
                dist[u] = named[s] + _USER_COST
    # The headers of the classes around a focal unit are kept with it: what their bases
    # and decorators name (`class Gumbel(TransformedDistribution)`), ranked, not forced.
    enclosing = {p for f in focal for p in ancestors(f)}
    for p in enclosing:
        for w in code_names(outline, p) if p.kind == "class" else ():
            for u in outline.top.get(w, ()):
                if u not in enclosing and dist.get(u, 99.0) > _HEADER_USE:
                    dist[u] = _HEADER_USE
    # A method defined apart from its type (Rust's `impl Into<Config> for Shade`, Go's
    # receiver, C++'s `Foo::bar`): that type's definition holds its data (the fields, the
    # variants it matches on), as a Python class's constructor does.
    for f in focal:
        for u in outline.types.get(f.owner, ()) if f.owner else ():
            if u.kind == "class" and u.label == f.owner and u.owner is None and u not in enclosing:
                dist[u] = min(dist.get(u, 99.0), _OWN_TYPE)
    for u in included(outline, focal):
        dist[u] = min(dist.get(u, 99.0), _INCLUDED)
    partial = partial_bodies(outline, focal, costs)
    # the words a focal unit cut to a part shows: what it uses of the rest is only in them
    shown = {u: bare_names("\n".join(rows)) for u, rows in around.items()}
    members = {u: member_names("\n".join(rows)) for u, rows in around.items()}
    needed = required(outline, focal, shown, members) if define_used else []
    heads = block_imports(outline, [u for u, _ in needed])
    wanted = [*needed, *((u, False) for u in heads)]
    parts = required_parts(outline, focal, wanted, shown)
    after = [(u, PART if u in parts or u in partial else BARE) for u in heads]
    steps = _steps(outline, dist, seeds, costs, partial, via, asked, told, budget, after)
    partial |= parts
    for f in told:
        rows = without_docstring(outline, f)
        if rows is not None:
            partial[f] = rows
    partial |= around
    cuts = frozenset(around)
    if define_used and outline.lang == "go":
        # the focal code and a group's specs it reads overrun the budget: the group's long
        # raw strings give way (where they fit, they stay: the steps fill around them)
        lean = required_parts(outline, focal, wanted, shown, True)
        cut = [u for u in lean if lean[u] != parts.get(u) and u not in around]
        texts = [_text(outline, u) if u not in parts else "\n".join(parts[u]) for u in cut]
        if cut and count("\n".join([*(_text(outline, f) for f in focal), *texts])) > budget:
            partial |= {u: lean[u] for u in cut}
    # Plan on estimates, render, count; the counted result steers the target both ways:
    # down past the budget, up while a result that fits leaves room unused (estimates drift
    # by a fifth and more on a small budget, or where dense data sets the per-char rate).
    slack = max(2, budget // 50)
    target, fits, over = budget, 0, budget * 4  # targets known to fit, to overrun
    best: _Rendered | None = None
    over_modes: dict[Unit, int] = {}  # of the plan at the least target that overran
    code = ""
    modes: dict[Unit, int] = {}
    tokens = 0
    for _ in range(4):
        modes = plan_modes(outline, focal, steps, target, costs, needed, partial, told, cuts)
        code = render(outline, modes, partial)
        tokens = count(code)
        if tokens <= budget:
            if best is None or tokens >= best[2]:
                best = modes, code, tokens
            if budget - tokens <= slack or not fill:
                break
            fits, step = target, target + budget - tokens
        else:
            over, over_modes = target, modes
            step = (fits + over) // 2 if best else target - (tokens - budget) - slack
        step = min(step, over - 1)
        if step <= fits or step <= 0:
            break
        target = step

    def attempt(k: int, terse: bool = False) -> _Rendered:
        m = plan_modes(outline, focal, steps[:k], budget, costs, needed, partial, told, cuts)
        text = render(outline, m, partial, terse)
        return m, text, count(text)

    def longest_run(least: int = 0) -> _Rendered | None:
        """The longest run of upgrades, in order of relevance, that fits when counted, if
        one of ``least`` does. Each one only adds lines, so the count grows with the run:
        a binary search."""
        found = attempt(least)
        if found[2] > budget:
            return None
        lo, hi = least, len(steps)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            trial = attempt(mid)
            if trial[2] <= budget:
                lo, found = mid, trial
            else:
                hi = mid - 1
        return found

    if best is not None and (given_up := _ahead(steps, over_modes, best[0])):
        # A plan made again at a lower target (the count overran the estimate) may give up
        # a relevant upgrade for lesser ones that fit around it; the longest run that fits
        # keeps upgrades in order, if a run up to that upgrade fits. Of the two plans, the
        # one ahead where they first differ.
        run = longest_run(given_up)
        if run is not None and _ahead(steps, run[0], best[0]):
            best = run
    if best is not None:
        modes, code, tokens = best
    if tokens > budget:
        # Still over (estimates drift on small budgets): the longest run that fits; if the
        # focal code and what it uses overrun the budget alone, they stand without the
        # elision lines nothing needs.
        modes, code, tokens = longest_run() or attempt(0, terse=True)
    if not code.strip():
        # nothing fits: one elision, so the block does not read as an empty file
        code = elision(outline) + "\n"
        tokens = count(code)
    kept = sum(1 for u in outline.units if modes.get(u) == FULL)
    collapsed = sum(1 for u in outline.units if modes.get(u) in (SIG, PART))
    dropped = sum(1 for u in outline.units if modes.get(u, DROP) == DROP)
    names = [
        f"{u.owner}.{u.label}"
        if u.owner
        else u.label or (f'"{u.title[:60]}"' if u.title else f"line {u.start + 1}")
        for u in focal
    ]
    short = any(modes.get(f, DROP) not in (FULL, BARE) for f in focal)
    return TrimResult(code, names, tokens, kept, collapsed, dropped, short)


def describe(units: Sequence[Unit]) -> list[str]:  # pragma: no cover - debugging aid
    return [repr(u) for u in units]
