"""What the question points at, and what a body still to be written will use.

The seeds ``outline.relate`` measures distances from: the units the prose names
(``find_focal``), the likely dependencies of focal bodies that are still empty
(``predicted``), and the module-level definitions a focal body uses directly, which
must stay defined whatever the budget (``required``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from ctxpress.compressor.code.cases import PLACEHOLDER, go_table_entry, title_pattern
from ctxpress.compressor.code.outline import (
    IDENT,
    Focus,
    Outline,
    Unit,
    ancestors,
    code_names,
    code_row,
    defined_names,
    definer_order,
    head_text,
    in_scope,
    node_at,
    refs,
    started_on,
    with_body,
)
from ctxpress.compressor.code.prose import failing_tests, shared_tail

_PY_STRING_START = re.compile(r"\s*[rRuUbB]{0,2}[\"']")  # a bare string statement
_NAMESPACE_IMPORT = re.compile(r"\*\s*as\b")
_INCLUDE = re.compile(r"\s*#\s*include\b|\s*using\s+namespace\b")
_PACKAGE = re.compile(r"\s*package\s+[\w.\s]+;")
_DEFINE = re.compile(r"\s*#\s*(define|undef)\b")
_FUTURE = re.compile(r"\s*from\s+__future__\s+import\b")
# Rows of a definition short enough to take whole (a candidate; kept where it cannot collapse).
_SHORT_ROWS = 3
_TYPE_CHECKING = re.compile(r"\s*if\s+(typing\.|t\.)?TYPE_CHECKING\s*:")
# titled tests the prose names, at most, to be focal (more: a run's listing)
_TESTS_MAX = 4


def find_focal(
    outline: Outline, focus: Focus, nested: dict[Unit, list[int]] | None = None
) -> dict[Unit, float]:
    """Seed units with a starting distance: 0 for focal symbols, more for weaker hints.
    ``nested``: ``nested_definitions``, where the caller has it already."""
    seeds: dict[Unit, float] = {}

    def seed(u: Unit, d: float) -> None:
        if d < seeds.get(u, 99.0):
            seeds[u] = d

    named: list[Unit] = []
    said: list[Unit] = []  # named by a plain word of the prose (`Explain push.`)
    for unit in outline.units:
        if unit.kind in ("stmt", "import") and focus.strong.intersection(unit.defs):
            # `QueryObserver.staleTimeoutId`: that class's field is what is asked about
            field = any((unit.owner, d) in focus.qualified for d in unit.defs)
            seed(unit, 0.0 if unit.owner and field else 1.0)
        if unit.kind not in ("func", "class") and not (unit.kind == "block" and unit.name):
            continue  # (a named block: a TS namespace, `const api = { … }`)
        name = unit.label  # a type definition (Go `type X struct`) by the name it defines
        if not name:
            continue
        # `typedef struct node { … } node_t;` defines both names
        aliases = focus.strong.intersection(unit.defs) if unit.kind == "class" else ()
        if (unit.owner or "", name) in focus.qualified or name in focus.strong or aliases:
            named.append(unit)
        elif name in focus.weak and len(name) > 2:
            seed(unit, 2.0)
            said.append(unit)
    # `C.run` names one of the `run`s: its namesakes in other types are context
    exact = [u for u in named if (u.owner or "", u.name) in focus.qualified]
    if exact:
        chosen = {u.name for u in exact}
        for u in named:
            if u.name in chosen and u not in exact:
                seed(u, 1.0)
        named = [u for u in named if u.name not in chosen or u in exact]
    # `Box.get` names `get`; Java and C++ constructors named `Box` are context
    qualifiers = {o for o, m in focus.qualified if o != m}
    ctors = [u for u in named if u.kind == "func" and u.name == u.owner and u.name in qualifiers]
    for u in ctors:
        seed(u, 1.0)
    named = [u for u in named if u not in ctors]
    # A stub of a protocol, or one a subclass in the file implements, is an interface,
    # not a body to write.
    implemented = {
        (b, u.name)
        for u in outline.units
        if u.kind == "func" and u.owner and not u.empty
        for b in outline.bases.get(u.owner, ())
    }
    interfaces = {c for c, bases in outline.bases.items() if _INTERFACES.intersection(bases)}
    empties = [
        u
        for u in outline.units
        if u.kind == "func"
        and u.empty
        and not u.abstract
        and u.owner not in interfaces
        and (u.owner, u.name) not in implemented
    ]
    marked = [u for u in empties if u.empty == 2]
    # A base-class stub that a subclass in the file overrides is an interface, not the
    # task; unless the prose asks for code and the override has a body: then the stub is
    # what is left to write.
    build = any(w.lower() in _BUILD_WORDS for w in focus.weak | focus.strong)
    overridden = {
        (b, u.name)
        for u in named
        if u.owner and (u.empty or not build)
        for b in outline.bases.get(u.owner, ())
        if b
    }
    named_empty = [
        u for u in named if u.empty and not u.abstract and (u.owner, u.name) not in overridden
    ]
    now = focus.current
    if now is not None and any(u.label in now for u in named):
        # a stub only an earlier turn named (the assistant quoted `getInt`, a `throw new
        # UnsupportedOperationException()`) is no body to write once the newest question
        # names another definition
        named_empty = [u for u in named_empty if u.label in now]
    if named_empty:
        for u in named_empty:
            seed(u, 0.0)
        # a namesake in another class is what the stub delegates to where the stub's
        # class mentions that class (`self.helper = ACLHelper()`); else another type's
        # take on the name, as weak a hint as a name the prose only mentions
        stubs = {u.name for u in named_empty}
        mentioned = {
            w
            for u in named_empty
            if u.parent is not None and u.parent.kind == "class"
            for w in IDENT.findall("\n".join(outline.lines[u.parent.start : u.parent.last + 1]))
        }
        for u in named:
            if not u.empty:
                delegate = u.name not in stubs or u.owner is None or u.owner in mentioned
                seed(u, 1.0 if delegate else 2.0)
    else:
        by_name: dict[str, list[Unit]] = {}
        for u in named:
            by_name.setdefault(u.label, []).append(u)
        for group in by_name.values():
            # overload stubs and declarations give way to the definition they declare
            real = [u for u in group if not u.abstract] or group
            for u in group:
                seed(u, 0.0 if u in real and len(real) <= 3 else 1.0)
    if named:
        if len(marked) <= 3:
            for u in marked:
                seed(u, 0.5)
    elif build and len(empties) <= 2:
        # nothing named, code asked for: the few bodies still to write; without such a
        # request an unmarked empty body is as likely a deliberate no-op (`fn drop() {}`)
        for u in empties:
            seed(u, 0.0)
    elif 0 < len(marked) <= 3:
        for u in marked:
            seed(u, 0.0)
    for u, d in used_elsewhere(outline, focus).items():
        seed(u, d)
    for u in users_elsewhere(outline, focus):
        seed(u, _USER_ELSEWHERE)
    # A failing test named by the title its runner prints (`✕ parses empty input`; a
    # passed one is not in ``focus.prose``); a one-word title (`describe("parse")`) is
    # too common a word to tell. A log naming many is a run's summary: context.
    titled = [u for u in outline.units if " " in u.title.strip() and _titled(u.title, focus.prose)]
    # (`mock package` only inside `mock package from package`: the longer one is named)
    count = focus.prose.count
    titled = [
        u
        for u in titled
        if not any(
            u.title != v.title and u.title in v.title and count(u.title) == count(v.title)
            for v in titled
        )
    ]
    # (the innermost: `suite › case` names the case, its suite is context)
    tests = [u for u in titled if not any(u in ancestors(v) for v in titled)]
    for u in tests:
        seed(u, 0.0 if len(tests) <= _TESTS_MAX else 1.0)
    # A failing test is named after what it tests (`test_round_positive` after `round`,
    # found as `do_round`; `TestParseHeader` after `parse_header`): a hint, unless many
    # definitions end that way.
    for u in tested(outline, focus.prose):
        seed(u, _TESTED)
    # A file:line reference: the innermost function (or test) holding the line is focal.
    located: set[Unit] = set()
    for row in sorted(focus.rows):
        best = _innermost_function(outline, row, tests=True) or _innermost_unit(outline, row)
        if best is not None:
            seed(best, 0.0)
            located.add(best)
    # A name defined only inside a function body (a closure, a decorator's wrapper): the
    # function around its definition is focal (``trim`` cuts a long one around it).
    holders = nested_definitions(outline, focus) if nested is None else nested
    for u in holders:
        seed(u, 0.0)
    # A frame's name (`in load`) with its line: the definition the line is in, not its
    # namesakes in other classes.
    for u in named:
        if seeds.get(u) == 0.0 and u not in located and any(v.name == u.name for v in located):
            seeds[u] = 1.0
    # Once the newest question names a definition, one only earlier turns named (what the
    # assistant quoted before the user asked about another) is asked about, not forced in.
    # (So is the function around a closure only earlier turns named; and the closure the
    # newest question names is such a definition too.)
    said_now = {
        u
        for u, at in holders.items()
        if now is not None and any(w in now for r in at for w in IDENT.findall(outline.lines[r]))
    }
    if now is not None and (said_now or any(seeds.get(u) == 0.0 and u.label in now for u in named)):
        for u in named:
            if seeds.get(u) == 0.0 and u.label not in now and u not in located | said_now:
                seeds[u] = 1.0
        for u in holders:
            if seeds.get(u) == 0.0 and u not in said_now | located and u.label not in now:
                seeds[u] = 1.0
    # A class named because a focal method sits in it (``self: IndexedSet``,
    # ``IndexedSet.pop``) is context, not a hint: seeding it would pull every member
    # equally close and drown the finer guesses about which of them the focal code uses.
    # So is a namespace or an object named on the way (`demo::Box::get`). A class named
    # like its constructor (Java, C++) is what the name asks about: kept whole where it
    # fits, else opened around the constructor like any long focal class.
    focal = [u for u, d in seeds.items() if d == 0.0]
    # Nothing focal, and a few definitions the prose names in plain words: the best guess
    # at what it asks about; kept early (whole, else their signatures), not forced.
    if not focal and 0 < len(said) <= _SAID_MAX:
        for u in said:
            seed(u, 1.0)
    for f in focal:
        for p in ancestors(f):
            if p in seeds and (
                seeds[p] > 0.0
                or (p.kind == "block" and p not in tests)  # (a test asked for stays whole)
                or (p.name, f.label) in focus.qualified
            ):
                del seeds[p]
    # A type defined apart from its methods (Go, Rust, C++ `Foo::bar`) and named beside a
    # focal one (`(*valueNode).Report` in a panic): its definition is context, not focal.
    owners = {f.owner for f in focal if f.owner}
    for u in focal:
        if u.kind == "class" and u.label in owners and u.children is None:
            seeds[u] = 1.0
    return seeds


def used_elsewhere(outline: Outline, focus: Focus) -> dict[Unit, float]:
    """Definitions here of what the focal code of another pasted file uses, with a seed
    distance: context for it (`Model5` and its `total_5` for `m = Model5(); m.total_5()`;
    `helper` for `util.helper()`). The class of a member it uses comes after the member:
    whole where it fits, else opened for it; a type whose methods are defined apart
    (`impl Memchr3` for `Memchr3::new`) is as close as they are."""
    names, called = focus.uses, focus.uses | focus.uses_members
    if not called:
        return {}
    out = {
        u: 1.0
        for u in outline.units
        if u.owner in names and (u.name in called or called.intersection(u.defs))
    }
    opened = {u.owner for u in out}
    # a member name may be a module's function (`util.helper()`), but not in C: `s->len`
    # reads a field, whatever function is named `len`
    tops = names if outline.lang == "c" else called
    for u in outline.units:
        if u.owner is None and _defines(u, tops):
            # (a type defined apart from its methods, Rust's or Go's, is no container)
            out[u] = _OPENED if u.label in opened and u.children is not None else 1.0
    return out


# Seed distance of a class whose member the focal code of another file uses.
_OPENED = 1.3


def users_elsewhere(outline: Outline, focus: Focus) -> list[Unit]:
    """Functions here that use what the focal code of another pasted file defines (its
    tests, its call sites), at most ``_USERS_ELSEWHERE``: those whose names share the
    most words with the prose first (`test_parse_empty` for "fails on empty input").
    Kept on the outline (read-only), as a block is planned several times."""
    known = outline.users.get(focus)
    if known is None:
        known = outline.users[focus] = _users_elsewhere(outline, focus)
    return known


def _users_elsewhere(outline: Outline, focus: Focus) -> list[Unit]:
    names = focus.defined_elsewhere - defined_names(outline)  # (one defined here is its own)
    if not names:
        return []
    said = prose_words(focus)
    found = [
        u
        for u in outline.units
        if u.kind == "func"
        and not u.empty
        # (``refs``, kept on the unit, first: ``code_names`` reads the text again)
        and (
            (names & refs(outline, u)[0] and names & code_names(outline, u))
            or names.intersection(m for _, m in refs(outline, u)[2])
        )
    ]
    found.sort(key=lambda u: (-len(said.intersection(subwords(u.label))), u.order))
    return found[:_USERS_ELSEWHERE]


# Seed distance of code that uses another pasted file's focal code, and how many at most.
_USER_ELSEWHERE, _USERS_ELSEWHERE = 1.5, 4
# Definitions a plain word of the prose names, at most, to be asked about when none is focal.
_SAID_MAX = 3


# A test function's name: `test_parse`, `TestParse`, `testParse`, `parse_test`.
TEST_NAME = re.compile(r"(?i)test|.*_test$")
# Distance of a definition a failing test is named after; how many may share the name.
_TESTED, _TESTED_MAX = 2.0, 3


def tested(outline: Outline, prose: str) -> list[Unit]:
    """Definitions the failing tests ``prose`` reports are named after: whose name ends
    with the first words of the test's after `test` (``failing_tests``)."""
    out: list[Unit] = []
    tests = failing_tests(prose)
    if not tests:
        return out  # (the common case: no name table built on every plan)
    names = [
        (u, [w.lower() for w in _SUBWORD.findall(u.label)])
        for u in outline.units
        if u.kind in ("func", "class") and u.label and not TEST_NAME.match(u.label)
    ]
    for test in tests:
        words = [w.lower() for w in _SUBWORD.findall(test)][1:]
        found = [
            u
            for u, uw in names
            if any(uw[-k:] == words[:k] for k in range(1, min(len(uw), len(words)) + 1))
        ]
        if len(found) <= _TESTED_MAX:
            out.extend(found)
    return out


def _titled(title: str, prose: str) -> bool:
    """Whether ``prose`` (without the tests a run reports as passed: ``Focus.prose``) holds
    ``title`` as a whole phrase (not `case 1` in `case 10`). A table test's title
    (`test.each(table)("add(%i, %i) -> %i", …)`, `$name` for a row's field) is held with
    any value where a placeholder is, as the runner prints one row: `add(7, 8) -> 15`."""
    literal = PLACEHOLDER.sub("", title)
    if literal != title and len(re.findall(r"\w", literal)) >= _TEMPLATE_WORDS:
        return re.search(rf"(?<!\w){title_pattern(title)}(?!\w)", prose) is not None
    return title in prose and re.search(rf"(?<!\w){re.escape(title)}(?!\w)", prose) is not None


# The letters and digits a table test's title must have besides its placeholders, at
# least, to tell one test from another.
_TEMPLATE_WORDS = 3


def _defines(u: Unit, names: frozenset[str]) -> bool:
    """Whether top-level ``u`` is a definition of one of ``names`` (by its name, or one
    of those it defines: a Go `type ( … )` group, a C `typedef struct a { … } b;`)."""
    if u.kind in ("func", "class") or (u.kind == "block" and u.name):
        return u.label in names or (u.kind == "class" and bool(names.intersection(u.defs)))
    return u.kind == "stmt" and bool(names.intersection(u.defs))


def _innermost_function(outline: Outline, row: int, tests: bool = False) -> Unit | None:
    """The smallest function holding ``row``; with ``tests``, a titled test (`it("…",
    () => …)`, no test inside it) counts as one: a stack frame into a test's assertion
    points at the test, not at that one statement."""
    best = None
    for u in outline.units:
        if (
            (u.kind == "func" or (tests and u.title and not any(c.title for c in u.children or ())))
            and u.start <= row <= u.last
            and (best is None or u.last - u.start < best.last - best.start)
        ):
            best = u
    return best


def frames_elsewhere(outline: Outline, focus: Focus, filename: str, first_line: int) -> Focus:
    """``focus`` without the stack frames of another file of this block's name. Of frames
    under two paths ending alike (the `main.go` pasted, the caller's `/app/main.go`), one
    whose line is in no definition of its name, where this file defines that name
    elsewhere while another path's frame agrees, is of the other file: its line and its
    name say nothing of this block. ``first_line``: the file's line of the block's first."""
    mine = [
        (path, line - first_line, name)
        for path, line, name in focus.frame_lines
        if shared_tail(filename, path)
    ]
    if len({path for path, _, _ in mine}) < 2:
        return focus
    defined = {u.name for u in outline.units if u.kind == "func"}

    def agrees(row: int, name: str) -> bool:
        fn = _innermost_function(outline, row)
        return (
            fn is None or name not in defined or name in {fn.name, *(a.name for a in ancestors(fn))}
        )

    good = {path for path, row, name in mine if agrees(row, name)}
    bad = [(path, row, name) for path, row, name in mine if path not in good]
    if not good or not bad:
        return focus
    alone = {name for _, name in focus.frames}  # (names only frames give)
    names = {name for _, _, name in bad} & alone
    names -= {name for path, _, name in mine if path in good}
    rows = focus.rows - {row for _, row, _ in bad} | {row for p, row, _ in mine if p in good}
    return replace(focus, strong=focus.strong - names, rows=rows)


def _innermost_unit(outline: Outline, row: int) -> Unit | None:
    """Outside any function (a field, an interface member, a type, an enum): the smallest
    unit holding the row."""
    best = None
    for u in outline.units:
        if u.first <= row <= u.last and (best is None or u.last - u.first < best.last - best.first):
            best = u
    return best


def _closures_at(
    outline: Outline, rows: frozenset[int], prose: str, names: frozenset[str]
) -> dict[Unit, list[int]]:
    """A file:line inside a named closure (a stack frame `at flush (x.js:30:9)`): the
    function around it, with the row the closure starts on; the function's other rows the
    report names stay as they are. Of closures inside closures, the innermost, unless an
    outer one is what the prose names (the frame `onReactContextInitialized(…:60)` where
    line 60 is in a `Runnable`'s `run` inside it), or the function itself (`at once`, the
    line in its `boundCallback`: kept whole). A table-driven subtest's closure comes
    with the row of the table entry the run names (``cases.go_table_entry``). Nothing where
    no row is inside a closure: the function the report points into is kept whole. (In
    Java, a method of a field's anonymous class is such a closure, the field around it.)"""
    out: dict[Unit, list[int]] = {}
    inner = False
    for row in sorted(rows):
        u = _holder(outline, row)
        if u is None or outline.tree is None or not outline.lines[row].strip():
            continue
        node = node_at(outline, row)
        found: list[tuple[Any, int | None]] = []  # the closures on the way out, innermost first
        while node is not None and node.start_point[0] > u.header_last:
            entry = go_table_entry(node, prose)
            named = node.type in outline.spec.functions and _named(node)
            if entry is not None or _subtest(node) or named:
                found.append((node, entry))
                if entry is not None or not named or _frame_name(node) in names:
                    break
            node = node.parent
        said = [(n, e) for n, e in found if _named(n) and _frame_name(n) in names]
        # the frame names the function itself (`at once`), not its `boundCallback` (a
        # subtest is named by its title, whatever the frame says)
        itself = not said and u.name in names
        if itself and found and found[0][1] is None and not _subtest(found[0][0]):
            found = []
        at = [row]
        if found:
            node, entry = said[0] if said else found[0]
            at, inner = [node.start_point[0]], True
            at += [] if entry is None else [entry]
        out.setdefault(u, []).extend(at)
    return out if inner else {}


def _frame_name(fn: Any) -> str:
    """The name a stack frame shows for a function node ``_named`` admits: its own, or the
    variable, key or field holding it (the last name of `this.onDone = function …`)."""
    field = fn.child_by_field_name("name")
    if field is None and fn.parent is not None:
        holder = fn.parent
        field = next(
            (
                holder.child_by_field_name(k)
                for k in ("name", "key", "left", "property")
                if holder.child_by_field_name(k) is not None
            ),
            None,
        )
    found = IDENT.findall(field.text.decode()) if field is not None and field.text else []
    return found[-1] if found else ""


def _subtest(fn: Any) -> bool:
    """Whether ``fn`` is a function literal a call titles (Go's `t.Run("empty input",
    func(t *testing.T) {…})`, an `it("…", () => …)` inside a function): a runner reports
    the subtest by that title, so the frame into it is about it, not the whole test."""
    args = fn.parent
    if fn.type not in _LITERAL_FUNCTIONS or args is None or args.type not in _ARGUMENTS:
        return False
    first = args.named_children[0] if args.named_child_count else None
    return first is not None and first != fn and first.type in _STRINGS


_LITERAL_FUNCTIONS = frozenset({"func_literal", "arrow_function", "function_expression"})
_ARGUMENTS = frozenset({"argument_list", "arguments"})
_STRINGS = frozenset({"interpreted_string_literal", "raw_string_literal", "string"})


def _named(fn: Any) -> bool:
    """Whether a function node has a name a stack frame would show."""
    parent = fn.parent
    return fn.child_by_field_name("name") is not None or (
        parent is not None
        and parent.type
        in ("variable_declarator", "pair", "assignment_expression", "field_definition")
    )


def _holder(outline: Outline, row: int) -> Unit | None:
    """The unit a nested definition on ``row`` is cut out of: its function; in Java the
    field whose anonymous class holds it; in JS / TS the module-level statement around
    it (`if (typeof window !== 'undefined') { const enableHover = () => …`)."""
    u = _innermost_function(outline, row)
    if u is None and outline.lang == "java":
        u = _innermost_unit(outline, row)
        return u if u is not None and u.kind == "stmt" and u.owner else None
    if u is None and outline.lang in _JS_FAMILY:
        u = _innermost_unit(outline, row)
        return u if u is not None and u.kind == "stmt" and u.owner is None else None
    return u


def nested_definitions(outline: Outline, focus: Focus) -> dict[Unit, list[int]]:
    """Functions holding a definition of a name the prose uses and no unit defines (a
    closure, a decorator's wrapper), with the rows those definitions start on. Only a
    name defined so in one function, or in three at most where the newest question names
    it (many tests that each define their own `fn x` name none; a closure held in a literal
    of its own name, `{first: …}`, its function). With a file:line reference, the named
    closures the lines are in instead (``_closures_at``): a report's source line names what
    it calls, not what it is in.
    Kept on the outline (read-only): a block is planned several times with one focus."""
    key = (focus.strong, focus.rows, focus.prose)
    known = outline.nested.get(key)
    if known is None:
        known = outline.nested[key] = _nested_definitions(outline, focus)
    return known


def asked_now(outline: Outline, focus: Focus, rows: list[int]) -> list[int]:
    """Of the rows nested definitions start on, those naming what the newest question
    names, where some do: a closure only an earlier turn quoted, in the same function as
    the one asked about now, is context for the cut, not cut in whole beside it."""
    now = focus.current
    asked = [r for r in rows if now and now.intersection(IDENT.findall(outline.lines[r]))]
    return asked or rows


def _nested_definitions(outline: Outline, focus: Focus) -> dict[Unit, list[int]]:
    if focus.rows:
        return _closures_at(outline, focus.rows, focus.prose, focus.strong)
    defined = {u.name for u in outline.units}
    defined.update(d for u in outline.units if u.kind in ("func", "class") for d in u.defs)
    unmatched = focus.strong - defined
    if not unmatched:
        return {}
    out: dict[Unit, list[int]] = {}
    for pattern in (_NESTED_DEF, _WRAPPED_DEF, _METHOD_HEAD):
        for name, found in _defining_rows(outline, pattern, unmatched).items():
            # (a type member `start: () => void` is no definition: it is in no function; in
            # Java, a field's anonymous class holds methods: the field is around them)
            inside = [(r, u) for r in found if (u := _holder(outline, r)) is not None]
            if inside:
                unmatched = unmatched - {name}
            # (twice in one: `var first = …`, `{first: …}`; in a few where the newest
            # question names it: relay's `var dispose = function dispose()` in
            # `applyUpdate`, `dispose: function dispose()` in `applyMutation`)
            if len({u for _, u in inside}) <= (3 if name in (focus.current or ()) else 1):
                for r, u in inside:
                    out.setdefault(u, []).append(r)
        if not unmatched:
            break
    return out


def _defining_rows(outline: Outline, pattern: str, names: frozenset[str]) -> dict[str, list[int]]:
    """The rows where ``pattern`` (``_NESTED_DEF``'s kind) finds a definition of each name."""
    inner = re.compile(pattern.format("|".join(map(re.escape, sorted(names)))))
    where: dict[str, list[int]] = {}
    for r, line in enumerate(outline.lines):
        for m in inner.finditer(code_row(outline, r)) if inner.search(line) else ():
            if m.group().endswith("=") and not _function_next(outline, r):
                continue  # `const total =` / `items.length;`: a value, not a function
            if pattern is _METHOD_HEAD and (
                outline.tree is None
                or (
                    started_on(outline, r, outline.spec.functions) is None
                    and not _names_function(outline, r, m)
                )
            ):
                continue  # `run<T>(` / `…` / `);`: a call
            if not _typed_parameter(outline, r, m):
                where.setdefault(next(g for g in m.groups() if g), []).append(r)
    return where


def _found_node(outline: Outline, row: int, m: re.Match[str]) -> Any:
    """The syntax node where the name ``m`` found (its first group that matched) starts;
    None without a tree."""
    if outline.tree is None:
        return None
    col = m.start(next(i for i, g in enumerate(m.groups(), 1) if g))
    return outline.tree.root_node.descendant_for_point_range((row, col), (row, col))


def _names_function(outline: Outline, row: int, m: re.Match[str]) -> bool:
    """Whether the name ``m`` found is a function's own (its ``name``): a Java method whose
    annotation starts it a row above (`@Override` / `public List<Spec> getModules(`)."""
    node = _found_node(outline, row, m)
    fn = node.parent if node is not None else None
    return (
        fn is not None
        and fn.type in outline.spec.functions
        and fn.child_by_field_name("name") == node
    )


def _function_next(outline: Outline, row: int) -> bool:
    """Whether the next row with code starts a JS function (a declaration's value)."""
    for r in range(row + 1, min(row + 4, len(outline.lines))):
        text = code_row(outline, r).strip()
        if text:
            return _FUNCTION_START.match(text) is not None
    return False


# TypeScript's and Python's parameters with a type
_TYPED_PARAMETERS = frozenset(
    {"required_parameter", "optional_parameter", "typed_parameter", "typed_default_parameter"}
)


def _typed_parameter(outline: Outline, row: int, m: re.Match[str]) -> bool:
    """Whether the name ``m`` found is a parameter with a type: TypeScript's of a function
    type (`update: (node: T) => T`), Python's typed over lines (`process_request: (`),
    which read like an object's arrow-function member."""
    node = _found_node(outline, row, m)
    return node is not None and node.parent is not None and node.parent.type in _TYPED_PARAMETERS


# A nested definition of a function or class named ``{0}``: Python, JS/TS (a function or
# an arrow function in a variable, a method of an object literal a factory returns), Go,
# Rust (a closure too) and a C++ lambda; a plain variable is not one. Arrow functions
# whose parameters go on over lines open with ``(`` at the end of the line, or ``({``
# where the first one is destructured.
_JS_FUNCTION = (
    r"(?:async\b|function\b|(?:<[^()]*>\s*)?\([^)]*\)\s*(?::[^=]*)?=>|\w+\s*=>"
    r"|(?:<[^()]*>\s*)?\(\s*[{{\[]?\s*$)"
)
_FUNCTION_START = re.compile(_JS_FUNCTION.replace("{{", "{"))
# A Java method's modifiers, type parameters and return type, before its name
_JAVA_HEAD = (
    r"(?:(?:public|protected|private|static|final|synchronized|default)\s+)*"
    r"(?:<[^>]*>\s+)?[\w.\[\]?]+(?:<[\w.<>\[\]?, ]*>)?[\[\]]*"
)
_NESTED_DEF = (
    r"(?:\bdef|\bfunction\*?|\bfn|\bclass|\btype)\s+({0})\b"
    # (a body or a base follows, not a variable's name or a cast's `)`: C's
    # `struct sysinfo info;`, `(struct ArrowArray){` name a type defined elsewhere)
    r"|\b(?:struct|enum)\s+({0})\b(?=\s*(?:[{{:<]|final\b|$))"
    r"|\b(?:const|let|var)\s+({0})\s*(?::[^=]*)?=\s*"
    + _JS_FUNCTION
    # (typed as a function over lines: `const callback: (` … `) => void = (done) => {`)
    + r"|\b(?:const|let|var)\s+({0})\s*:\s*\(\s*$"
    # (the function on the next row: `const invoke: Listener['hook'] =` / `(...args) =>`;
    # ``_defining_rows`` reads that row)
    + r"|\b(?:const|let|var)\s+({0})\s*(?::[^=]*)?=\s*$"
    + r"|\blet\s+(?:mut\s+)?({0})\s*=\s*(?:move\s*)?\|"
    r"|\b({0})\s*:=\s*func\b|\bauto\s+({0})\s*=\s*\["
    r"|^\s*(?:async\s+)?(?:[gs]et\s+)?\*?\s*({0})\s*\((?:[^()]|\([^()]*\))*\)\s*(?::[^{{=]*)?\{{"
    r"|(?:^|[{{,])\s*({0})\s*:\s*"
    + _JS_FUNCTION
    # a Java method of an anonymous or local class: `public void run() {` (after its
    # annotations on the row: `@Override public void onFetch(String taskId) {`; its type's
    # arguments spaced: `public Map<String, ReactModuleInfo> getReactModuleInfos() {`)
    + r"|^\s*(?:@[\w.]+(?:\([^()]*\))?\s+)*"
    + _JAVA_HEAD
    + r"\s+({0})\s*\([^)]*\)\s*(?:throws\s+[\w., ]+)?\{{\s*$"
    # a Java lambda in a local variable: `Runnable onEvent = () -> {`
    r"|^\s*(?:final\s+)?[\w.<>\[\]?]+(?:<[\w.<>\[\]?, ]*>)?\s+({0})\s*=\s*(?:\([^)]*\)|\w+)\s*->"
)
# A function a wrapping call hands back into a variable: JS `const onPress =
# useCallback((e) => …` (the call's arguments on the next line too), `debounce(function
# …`, Go `h := http.HandlerFunc(func(…`, Rust `let f = Box::new(move |x| …`, C++ `auto f =
# std::function<void(int)>([&](int x) …`; read only for a name with no definition of the
# kind above: `useMemo(() => …)` stores what the function returns.
_WRAPPED_DEF = (
    r"\b(?:const|let|var)\s+({0})\s*(?::[^=]*)?=\s*[\w$.]+(?:<.*?>)?\(\s*(?:$|"
    + _JS_FUNCTION
    + r")|\b({0})\s*:=\s*[\w.]+\(\s*func\b"
    r"|\blet\s+(?:mut\s+)?({0})\s*=\s*[\w:]+(?:<.*?>)?\(\s*(?:move\s*)?\|"
    r"|\bauto\s+({0})\s*=\s*[\w:]+(?:<.*?>)?\(\s*\["
)
# A JS method whose head the patterns above do not read: TS type parameters, parameters
# over rows (`_runNativeMethod<RefType, R = NativeArg>(` / `name: string,` … `): R {`);
# read only where the tree has a function start on the row, as a call may look so
_METHOD_HEAD = (
    r"^\s*(?:(?:async|static|public|private|protected|override|get|set)\s+)*\*?\s*({0})"
    r"\s*(?:<[^()]*>)?\s*\("
    # (Java: after its return type, the parameters over rows: `public List<Spec> get(`)
    r"|^\s*" + _JAVA_HEAD + r"\s+({0})\s*\([^)]*$"
)
# A TypeScript parameter property: a field the constructor's parameter list declares.
_PARAMETER_PROPERTY = r"\b(?:public|private|protected|readonly|override)\s+(?:readonly\s+)?%s\b"
# JavaScript and its dialects: their methods name their class's fields on `this` (declared
# in the class body), and a module-level block may hold the definitions of a file.
_JS_FAMILY = frozenset({"javascript", "typescript", "tsx"})
# A TypeScript type alias or interface: a name for the compiler only.
_TS = frozenset({"typescript", "tsx"})
_TS_TYPE = re.compile(r"\s*(?:export\s+)?(?:declare\s+)?(?:type|interface)\s")
# a name, written as a destructor's (`~Box`) or as a scope (`Box::`, `Box<T, U>::`):
# ``_scopes_only``
_SCOPE = re.compile(
    r"(~?)\b([A-Za-z_]\w*)\s*(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>\s*)?(::)?"
)
# A name and whether one colon follows it (not a path's `::`), for ``_labels_only``; a
# member (`.date`), a lifetime or loop label (`'a:`) is neither
_LABEL = re.compile(r"(?<![\w.'$])([A-Za-z_]\w*)(\s*:(?!:))?")
# Bases that make a class an interface: its empty methods are not bodies to write.
_INTERFACES = frozenset({"Protocol", "ABC"})
# Words of a request to write code (``Implement `f` ...``) rather than to explain it.
_BUILD_WORDS = frozenset({"implement", "complete", "finish", "write", "fill"})
_SUBWORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_STOP = frozenset(
    {
        "the",
        "and",
        "for",
        "from",
        "with",
        "this",
        "that",
        "get",
        "set",
        "init",
        "self",
        "none",
        "true",
        "false",
        "return",
        "value",
        "values",
        "param",
        "type",
        "data",
        "new",
        "all",
        "not",
    }
)


def _stem(word: str) -> str:
    """A crude stem: the first five letters (``translates`` ~ ``translate``)."""
    return word.lower()[:5]


def _words(name: str) -> list[str]:
    """The parts of a name (or words of prose) worth matching: not short, not stop words."""
    return [w for w in _SUBWORD.findall(name) if len(w) > 2 and w.lower() not in _STOP]


def subwords(name: str) -> list[str]:
    return [_stem(w) for w in _words(name)]


def prose_words(focus: Focus) -> set[str]:
    """The words (``subwords``) of the names and words the prose gives, and of each longer
    word its first three and four letters too: a short name (`_cull`, `send`, `add`) is
    the root of the prose's inflections (`culled`, `sends`, `adds`), which five letters
    miss, and an abbreviation (`_pos_farg_re`, `buf`) the start of the word the prose
    spells out (`positional`, `buffer`)."""
    out: set[str] = set()
    for n in focus.weak | focus.strong:
        for w in _words(n):
            out.add(_stem(w))
            out.update(w[:k].lower() for k in (3, 4) if len(w) > k)
    return out


def is_docstring(outline: Outline, u: Unit) -> bool:
    return u.kind == "stmt" and _PY_STRING_START.match(outline.lines[u.start]) is not None


# Distance taken off a class member per attribute it defines first, and at most.
_ATTR_STEP, _ATTR_MAX = 0.06, 0.6
# Distance of the definitions one and two places before a focal one (after: 0.1 more).
_NEAR_BASE, _NEAR_STEP = 1.3, 0.3
# Module-level definitions this many other module functions use: candidates at this distance.
_SHARED_BASE, _SHARED_MIN = 1.8, 3


def class_level(head: str) -> bool:
    """Whether a method's header (``head_text``) makes it a classmethod or staticmethod:
    one that reads no instance, and mostly builds one (``cls(...)``)."""
    return "@classmethod" in head or "@staticmethod" in head


def data_kind(u: Unit) -> str:
    """A unit's kind as a candidate: a named block (`const table = { … }`, a namespace) is
    a value the body may read, as a statement is; so is a CommonJS `require` (an import
    for what is kept across files, a binding of the module like any other in a script)."""
    return "stmt" if (u.kind == "block" and u.name) or u.commonjs else u.kind


@dataclass(frozen=True)
class ClassView:
    """What the rest of a focal unit's class says about the body still to be written."""

    owners: dict[str, int]  # the focal class (0) and its bases (1, 2, … in order)
    attrs: dict[Unit, int]  # members that first define attributes: how many each
    used: dict[str, int]  # member names: how many other methods use each on ``self``
    methods: int  # the other methods of the focal classes
    # members that other implementations of the name use (owner rank); module-level
    # definitions that a variant in the focal class uses (0)
    same: dict[Unit, int]
    near: dict[Unit, int]  # definitions one and two places before (-) or after (+)


def class_view(outline: Outline, f: Unit) -> ClassView:
    owners: dict[str, int] = {}
    if f.owner:
        owners[f.owner] = 0
        for i, base in enumerate(outline.bases.get(f.owner, ())):
            owners.setdefault(base, i + 1)
    attrs: dict[Unit, int] = {}
    for (o, _), defs in outline.attr_defs.items():
        others = [d for d in defs if d is not f]
        if o in owners and others:
            first = min(others, key=definer_order)
            attrs[first] = attrs.get(first, 0) + 1
    used: dict[str, int] = {}
    methods = 0
    for u in outline.units:
        if u.owner in owners and u.kind == "func" and u is not f:
            methods += 1
            for w in refs(outline, u)[1]:
                used[w] = used.get(w, 0) + 1
    same: dict[Unit, int] = {}
    if f.owner:
        for a in outline.any_member.get(f.name, ()):
            if a is f or a.empty:
                continue
            for w in refs(outline, a)[1]:
                for o, rank in owners.items():
                    for u in outline.members.get((o, w)) or outline.attr_defs.get((o, w), [])[:1]:
                        same[u] = min(rank, same.get(u, rank))
    # A variant of the focal method in its own class (the other branch of `if PY2:`, a
    # property's getter or setter) is the closest model of the body still to be written:
    # the module-level definitions it uses, this one likely uses too. (Not those of other
    # classes' methods of the name: in a file of twenty `serialize`s they are many.)
    for a in outline.members.get((f.owner, f.name), []) if f.owner else ():
        if a is not f and a.kind == "func" and not a.empty:
            for w in refs(outline, a)[0]:
                for u in outline.top.get(w, ()):
                    if u.owner is None and u.kind in ("func", "class"):
                        same.setdefault(u, 0)
    near: dict[Unit, int] = {}
    sibs = [
        c
        for c in (f.parent.children if f.parent is not None else None) or ()
        if c.kind in ("func", "class") or (data_kind(c) == "stmt" and c.defs)
    ]
    if f in sibs:
        i = sibs.index(f)
        for k in (-2, -1, 1, 2):
            if 0 <= i + k < len(sibs):
                near[sibs[i + k]] = k
    return ClassView(owners, attrs, used, methods, same, near)


def predicted(
    outline: Outline, f: Unit, focus: Focus, view: ClassView | None = None
) -> dict[Unit, float]:
    """Likely dependencies of a focal unit whose body is still to be written.

    An empty body references nothing yet; what it will use is guessed from the class it
    sits in (constructor, attributes, helpers, base classes), from the file's small
    module-level definitions, and from the words of the prose and of its signature.
    """
    v = view or class_view(outline, f)
    words = {_stem(w) for w in focus.weak | focus.strong if len(w) > 2 and w.lower() not in _STOP}
    # the words of its own signature too: `{link, author}: Props` reads `MaybeLink`, `Props`
    words.update(s for w in f.header_words for s in subwords(w))
    out: dict[Unit, float] = {}

    def put(u: Unit, d: float) -> None:
        if d < out.get(u, 99.0):
            out[u] = d

    def lexical(u: Unit) -> float:
        subs = subwords(u.label)
        return sum(1 for w in subs if w in words) / len(subs) if subs else 0.0

    def extra(owner: str | None) -> float:
        rank = v.owners.get(owner or "", 0)
        return 0.3 + 0.1 * (rank - 1) if rank else 0.0

    # Other implementations of the same method: what they use on `self`, this one may too.
    for u in v.same:
        put(u, 1.05 + extra(u.owner))
    for u in outline.units:
        if u is f or is_docstring(outline, u):
            continue
        if u.owner in v.owners:
            if u.kind == "func":
                d = 1.0 if u.name == "__init__" else 1.2 + 0.8 * (1 - lexical(u))
                # helpers the other methods lean on are likely helpers here too
                d -= min(1.0, 0.3 * v.used.get(u.name, 0))
                # the constructor (or setup helper) that defines many attributes is the
                # class's data model: worth its size for a body still to be written
                d -= min(_ATTR_MAX, _ATTR_STEP * v.attrs.get(u, 0))
                put(u, d + extra(u.owner))
            elif data_kind(u) == "stmt":
                put(u, 1.3 + extra(u.owner) + 0.8 * (1 - lexical(u)))
            continue
        if data_kind(u) not in ("func", "class", "stmt"):
            continue
        lex = lexical(u)
        if lex > 0:
            put(u, 1.4 + 0.8 * (1 - lex) + (0.3 if u.owner else 0.0))
        elif (
            (u.kind == "stmt" or u.commonjs)
            and u.owner is None
            and u.last - u.start < _SHORT_ROWS
            and u.defs
        ):
            put(u, 1.8)
    # A module-level function's helpers are those its sibling functions lean on, as a
    # method's are those of the other methods.
    if f.owner is None:
        calls: dict[str, int] = {}
        for u in outline.units:
            if u.kind == "func" and u is not f and u.owner is None:
                for w in refs(outline, u)[0]:
                    calls[w] = calls.get(w, 0) + 1
        for u in outline.units:
            n = calls.get(u.label, 0) if u.owner is None and u is not f else 0
            if n >= _SHARED_MIN and data_kind(u) in ("func", "class", "stmt"):
                put(u, _SHARED_BASE)
    # Definitions right beside a focal one are often its helpers (written just before it).
    for u, k in v.near.items():
        put(u, _NEAR_BASE + _NEAR_STEP * abs(k) + (0.1 if k > 0 else 0.0))
    return out


def _forward_annotated(outline: Outline, f: Unit) -> bool:
    """Whether the header of ``f`` names what is not bound yet where it runs: a class of
    its own or defined after it, or an import only type checkers see."""
    head = head_text(outline, f)
    own = {p.name for p in ancestors(f) if p.kind == "class"}
    for w in set(IDENT.findall(head)):
        defs = [u for u in outline.top.get(w, ()) if u is not f]
        if w in own or (
            defs and all(d.start > f.start or _checking_only(outline, d) for d in defs)
        ):
            return True
    return False


def _checking_only(outline: Outline, u: Unit) -> bool:
    return any(
        _TYPE_CHECKING.match(outline.lines[p.start]) for p in ancestors(u) if p.kind == "block"
    )


def included(outline: Outline, focal: list[Unit]) -> list[Unit]:
    """The C / C++ includes (and `using namespace`) a focal function with a body may draw
    names from (`NULL`, `stderr`, a header's macros: what an include brings in cannot be
    traced), and the macros defined before the last of them, which configure them
    (`#define _GNU_SOURCE`, `#define DEFINE_TABLE` before the header that then defines
    the table). Not forced as needed names are: the code reads the same without them, and
    there may be dozens; ranked right after what the function calls."""
    if not any(not f.empty for f in focal):
        return []  # a stub still to be written uses nothing yet
    out = [
        u
        for u in outline.units
        if u.kind == "import"
        and _INCLUDE.match(outline.lines[u.start])
        and all(a.kind in ("root", "block") for a in ancestors(u))  # under `#if`s at most
    ]
    last = max((u.start for u in out), default=-1)
    out += [
        u
        for u in outline.units
        if u.start < last and u.kind == "stmt" and _DEFINE.match(outline.lines[u.start])
    ]
    return sorted(out, key=lambda u: u.order)


# Overloads of one member name kept for a focal method that calls it, at most.
_OVERLOADS = 4


def required(
    outline: Outline,
    focal: list[Unit],
    shown: dict[Unit, frozenset[str]] | None = None,
    members: dict[Unit, frozenset[str]] | None = None,
) -> list[tuple[Unit, bool]]:
    """Module-level definitions of the names the focal units use directly (of a focal
    unit cut to a part, only those among the words that part shows: ``shown``, and of
    the members it reads, those among the ones the part reads: ``members``).

    Stubs (``@overload``, abstract) give way to a real definition of the same name, and
    of several functions or classes by one name (``#ifdef`` / ``#[cfg]`` variants) the
    last will do; imports and assignments all stay (an import's words are not all names
    it binds). The flag says the body must stay: a function that binds the name with
    ``global`` defines it only in its body. A focal function with a body also keeps the
    members of its class it names (Java, C++: bare or on `this`; JS, TS: on `this`), and
    in TypeScript the types it names with the members of them it reads (a stub's types
    are ranked: it uses nothing yet).
    """
    enclosing = {p for f in focal for p in ancestors(f)}
    out: dict[Unit, bool] = {}
    if outline.spec.python and any(_forward_annotated(outline, f) for f in focal):
        # without `from __future__ import annotations` such an annotation fails when run
        for u in outline.units:
            if u.kind == "import" and u.owner is None and _FUTURE.match(outline.lines[u.start]):
                out[u] = False
    if focal:
        # names a wildcard import brings in cannot be traced: keep those imports in
        # scope of the focal code (Python: the module; elsewhere not in another `mod` or
        # namespace), but not `import * as ns`, which is traced by `ns`
        scope = {outline.root, *enclosing}
        for u in outline.units:
            if (
                u.kind == "import"
                and u.owner is None
                and (outline.spec.python or u.parent in scope)
                and "*" in outline.lines[u.last]
                and not _NAMESPACE_IMPORT.search(outline.lines[u.last])
            ):
                out[u] = False
    # What a body (not a stub: it uses nothing yet) may use that no name of it traces in
    # Java, C++: the names of its package resolve through Java's `package` line, and bare
    # names may be members inherited from the base its class header names, so that base's
    # import stays (an import is a line; in Python, header names are ranked)
    written = outline.spec.implicit_this and any(not f.empty for f in focal)
    for u in outline.units if written else ():
        if u.kind == "import" and _PACKAGE.match(outline.lines[u.start]):
            out[u] = False
    for p in enclosing if written else ():
        for u in header_imports(outline, p) if p.kind == "class" else ():
            out[u] = False
    # The header of a Python block around focal code stays with it (`if os.path.isdir(…):`):
    # the imports it names stay too, a line each (a definition it names is ranked; a JS
    # block's header is a test's call or a typed object: `const x: Options = {`)
    for p in enclosing if focal and outline.spec.python else ():
        for u in header_imports(outline, p) if p.kind == "block" else ():
            out.setdefault(u, False)
    for f in focal:
        # a module-level function's own name is bound by it (not by its overload stubs);
        # a method's name binds nothing at module level
        own = set() if f.owner else set(f.defs)
        body = with_body(f)
        own.update(w for v in body[1:] for w in v.defs)  # a test's own locals
        names = frozenset().union(*(code_names(outline, v) for v in body))
        if shown and f in shown:
            names &= shown[f]
        # what it reads, `x.b` too: the members of a TypeScript type it names (a
        # component cut to one handler: those the handler reads)
        read = names
        if outline.lang in _TS:
            pairs = frozenset(b for _, b in refs(outline, f)[2])
            read = names | (pairs & members[f] if members and f in members else pairs)
        scopes = _scopes_only(outline, body) if outline.lang == "cpp" else frozenset()
        labels = _labels_only(outline, body) if outline.lang == "rust" else frozenset()
        for w in sorted(names - own - labels):
            # a named block (`const table = { … }`) stays too, collapsed (or whole where it
            # cannot collapse and is short: `var tags = {};`)
            cands = [
                u
                for u in outline.top.get(w, ())
                if u is not f
                and u not in enclosing
                and in_scope(u, f)  # not another test's local
                and not _foreign_use(outline, u, f)
                and not _uncalled_macro(outline, u, w, f)
                and not u.literal  # `{ test() {…} }` binds no `test`
                and (u.kind != "block" or u.collapsible or u.last - u.start < _SHORT_ROWS)
            ]
            real = [u for u in cands if not u.abstract] or cands
            # a function that binds it with `global` only assigns it anew where a module
            # statement defines it too (`_have_ipv4 = False`)
            real = [u for u in real if u.kind != "func" or w in u.defs] or real
            if w in scopes:
                # `Arg::_value`, `Arg::reset()`: the class, never its constructors (a file
                # of members defined out of their class has none of it)
                real = [u for u in real if u.kind != "func"]
            if len(real) > 1 and all(u.kind in ("func", "class") and w in u.defs for u in real):
                # variants of one definition (`#ifdef`, `#[cfg]`): one will do, of each kind
                # (Rust's `struct Lifetime` and `fn Lifetime` live in two namespaces)
                real = list({u.kind: u for u in real}.values())
            for u in real:
                long_data = not u.collapsible and u.last - u.start >= _SHORT_ROWS
                if (ts_type(outline, u) and (f.empty or long_data)) or (
                    outline.lang == "go" and u.kind == "class" and long_data
                ):
                    # ranked: a stub uses nothing yet; a long alias or interface that
                    # cannot collapse (`type Props = Base & …`, Go's `type Conn interface
                    # {…}`) would crowd out the code (which is valid without it)
                    continue
                out[u] = out.get(u, False) or (u.kind == "func" and w not in u.defs)
                if ts_type(outline, u):
                    # the members of it the code reads: kept where the rest gives way
                    for m in u.children or ():
                        if read.intersection(m.defs):
                            out.setdefault(m, False)
        # the members a method names on `this` (and bare, in Java and C++): its fields
        # and sibling methods (a JS / TS class field is declared in the class body)
        if not f.empty and (outline.spec.implicit_this or outline.lang in _JS_FAMILY):
            bare = names - scopes if outline.spec.implicit_this else frozenset()
            # (and its statics through the class's own name: `Controller.PENDING`)
            classes = {p.name for p in enclosing if p.kind == "class"} | {f.owner}
            statics = frozenset(b for a, b in refs(outline, f)[2] if a in classes)
            for u in _members_used(outline, f, bare | refs(outline, f)[1] | statics):
                out.setdefault(u, False)
    return list(out.items())


def block_imports(outline: Outline, units: list[Unit]) -> list[Unit]:
    """The imports the headers of the Python blocks around ``units`` name, not among them:
    a block kept for what it holds (`if TYPE_CHECKING:` around an import the focal code's
    annotations use) keeps its header, which runs with the module. Ranked after every
    related body: the focal code does not read them, and what it uses outranks them."""
    out: dict[Unit, None] = {}
    for u in units if outline.spec.python else ():
        for p in ancestors(u):
            for i in header_imports(outline, p) if p.kind == "block" else ():
                if i.last < p.start and i not in units:  # (not one the block holds)
                    out[i] = None
    return list(out)


def header_imports(outline: Outline, p: Unit) -> list[Unit]:
    """The imports of the names ``p``'s header writes: not its own name (`namespace
    spdlog` names no base), nor an include (its words are its path: ranked, `included`)."""
    return [
        u
        for w in code_names(outline, p) - set(p.defs)
        for u in outline.top.get(w, ())
        if u.kind == "import" and not _INCLUDE.match(outline.lines[u.start])
    ]


def _uncalled_macro(outline: Outline, u: Unit, name: str, user: Unit) -> bool:
    """Rust: ``u`` is `macro_rules! name`, which ``user`` never invokes (`name!(…)`); its
    `name(…)` calls a function of that name (glib's `from_glib`, imported beside the macro)."""
    if outline.lang != "rust":
        return False
    head = "\n".join(outline.lines[u.start : u.start + 4])
    if not re.search(rf"macro_rules!\s*{re.escape(name)}\b", head):
        return False
    body = "\n".join(outline.lines[user.start : user.last + 1])
    return re.search(rf"\b{re.escape(name)}\s*!", body) is None


def _foreign_use(outline: Outline, u: Unit, user: Unit) -> bool:
    """Whether ``u`` binds its names only in a scope ``user`` is not in: a Rust `use` inside
    another `mod` (`mod linux { use crate::Result; }` is no import of `mod bsd`'s code), or
    a local of a function ``user`` is outside of (a component's `const { color } = useTheme()`
    is not what another component's `color` parameter reads)."""
    if u.parent is None or u.parent is outline.root:
        return False
    if outline.lang == "rust" and u.kind == "import" and u.parent not in ancestors(user):
        return True
    if outline.tree is None:
        return False
    line = outline.lines[u.start]
    at = (u.start, len(line) - len(line.lstrip()))
    node = outline.tree.root_node.named_descendant_for_point_range(at, at)
    while node is not None:
        if (
            node.type in outline.spec.functions
            and node.start_point < at
            and not node.start_point[0] <= user.start <= user.last <= node.end_point[0]
        ):
            return True
        node = node.parent
    return False


def _scopes_only(outline: Outline, body: list[Unit]) -> frozenset[str]:
    """C++ names the code writes only as a scope (`MultiSwitchArg::_value`) or as its
    destructor's (`~PBEncodeItem`): a class or namespace, never a constructor it calls."""
    scoped: set[str] = set()
    other: set[str] = set()
    for v in body:
        for tilde, name, colons in _SCOPE.findall("\n".join(outline.lines[v.start : v.last + 1])):
            (scoped if tilde or colons else other).add(name)
    return frozenset(scoped - other)


def _labels_only(outline: Outline, body: list[Unit]) -> frozenset[str]:
    """Rust names the code writes only before one colon: a struct literal's or pattern's
    fields (`DateTime { date: …, time: … }`), a binding's or parameter's name: never a
    use of the module's function `date()` (Rust has no `?:` to mistake for one)."""
    labels: set[str] = set()
    other: set[str] = set()
    for v in body:
        for name, colon in _LABEL.findall("\n".join(outline.lines[v.start : v.last + 1])):
            (labels if colon else other).add(name)
    return frozenset(labels - other)


def ts_type(outline: Outline, u: Unit) -> bool:
    """A TypeScript `type` or `interface`: its body is what it declares (no code to
    collapse), so where it must stay it stays whole if it fits."""
    return outline.lang in _TS and bool(_TS_TYPE.match(outline.lines[u.start]))


def _members_used(outline: Outline, f: Unit, names: frozenset[str]) -> list[Unit]:
    """Members of the classes around ``f`` (or their in-file bases) that its bare names
    (Java, C++: `count`, `reset()`) or `this.` name: its fields and sibling methods,
    which in these languages are what module-level names are elsewhere."""
    owners = [p.scope for p in ancestors(f) if p.kind == "class" and p.scope]
    if f.owner and f.owner not in owners:
        owners.insert(0, f.owner)  # a C++ method defined outside its class
    for o in list(owners):
        owners.extend(b for b in outline.bases.get(o, ()) if b not in owners)
    text = "\n".join(outline.lines[f.start : f.last + 1])
    out: list[Unit] = []
    for w in sorted(names):
        for o in owners:
            found = [u for u in outline.members.get((o, w), ()) if u is not f and not u.literal]
            # a TypeScript parameter property (`constructor(private view: View)`): the
            # constructor's signature declares it
            found = found or [
                u
                for u in outline.members.get((o, "constructor"), ())
                if u is not f
                and re.search(_PARAMETER_PROPERTY % re.escape(w), head_text(outline, u))
            ]
            # a Java or C++ method is named by a call or a method reference only: a bare
            # `case open:` or `Action.open` is an enum constant, not the method `open`;
            # `const Element&` names the class, not its constructors
            methods = found and all(u.kind == "func" for u in found)
            if methods and outline.lang in ("java", "cpp") and not _called(text, w):
                found = []
            if len(found) > 1 and outline.spec.implicit_this:
                # overloads (Java, C++): those a call of the code could be, by its count
                # of arguments (`direct_princomp(out, in.m)`: the two-parameter one)
                calls = _arities(text, w)
                found = [u for u in found if _takes(outline, u, calls)] or found
            if found:
                out.extend(found[:_OVERLOADS])
                break
    return out


def _called(text: str, name: str) -> bool:
    """Whether ``text`` calls ``name`` (`name(`, C++ `Name{…}` and `make_shared<Name>(`)
    or refers to it (`::name`)."""
    n = re.escape(name)
    return re.search(rf"\b{n}\s*[({{]|::\s*{n}\b|<\s*{n}\s*>\s*\(", text) is not None


def _arities(text: str, name: str) -> set[int]:
    """How many arguments each call of ``name`` in ``text`` passes (`f(a, g(b, c))`: 2)."""
    out = set()
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
        args = _arguments(text, m.end())
        if args is not None:
            out.add(len(args))
    return out


def _arguments(text: str, at: int, angles: bool = False) -> list[str] | None:
    """The comma-separated items of the bracket opened just before ``at`` (None where it
    is not closed): a call's arguments, a declaration's parameters (``angles``: whose
    `<` `>` are template brackets, `Base<E, T1>& X` one parameter)."""
    opening, closing = ("([{<", ")]}>") if angles else ("([{", ")]}")
    items: list[str] = []
    depth, start = 1, at
    for i in range(at, len(text)):
        c = text[i]
        if c in opening:
            depth += 1
        elif c in closing:
            depth -= 1
            if depth == 0:
                last = text[start:i].strip()
                return [*items, last] if items or last else []
        elif c == "," and depth == 1:
            items.append(text[start:i].strip())
            start = i + 1
    return None


def _takes(outline: Outline, u: Unit, calls: set[int]) -> bool:
    """Whether method ``u`` accepts one of the argument counts in ``calls`` (parameters
    with a default may be left out; `...` takes any number more)."""
    head = head_text(outline, u)
    m = re.search(rf"\b{re.escape(u.name)}\s*\(", head)
    params = _arguments(head, m.end(), angles=True) if m else None
    if params is None:
        return True
    if params == ["void"]:
        params = []
    least = sum("=" not in p and "..." not in p for p in params)
    most = 1 << 30 if any("..." in p for p in params) else len(params)
    return any(least <= n <= most for n in calls)
