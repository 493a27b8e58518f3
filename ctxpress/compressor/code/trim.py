"""Trim one parsed source file to a token budget around its focal symbols.

The file becomes a tree of *units*: top-level statements, and the members of
class-like bodies (and of Python ``if``/``try`` and C preprocessor blocks). A unit is
rendered in one of five modes: ``FULL`` (its lines verbatim), ``OPEN`` (header and
closing lines verbatim, members rendered by their own modes), ``PART`` (a Python method
cut to its header and the ``self.attr = ...`` statements the focal code needs, with
their enclosing ``if``/``for``/``try`` headers: where a constructor defines the data the
focal method reads, without the rest of a long body), ``SIG`` (header lines verbatim,
the body replaced by one elision line) or ``DROP``. Runs of dropped members or
statements leave one elision line (``...`` in Python, ``// …`` elsewhere), which also
keeps every Python suite non-empty. Every kept line is a whole line of the input, byte
for byte.

Only the statement-level skeleton is walked with tree-sitter; identifiers are read
from each unit's text with regular expressions (C speed), so the cost stays linear in
the size of the file.
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ctxpress.compressor.code.languages import SPECS, LangSpec, node_text

DROP, SIG, PART, OPEN, FULL = 0, 1, 2, 3, 4
# A focal definition verbatim without its leading comment (a doc comment that would take
# the budget); ranks above ``FULL`` so no later step brings the comment back.
BARE = 5

_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_BARE = re.compile(r"(?<![\w$.])(?<!->)(?<!::)[A-Za-z_$][\w$]*")
_PAIR = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:\?\.|\.|::|->)\s*([A-Za-z_$][\w$]*)")
_PY_GLOBAL = re.compile(r"^[ \t]*global[ \t]+([\w \t,]+)$", re.M)
_PY_SELF_ASSIGN = re.compile(r"\b(?:self|cls)\.([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)")
# Python operations on ``self`` and the special method each one calls.
_PY_IMPLICIT = tuple(
    (re.compile(p, re.M), m)
    for p, m in (
        (r"\bself\[[^\]\n]*\]\s*=(?!=)", "__setitem__"),
        (r"\bdel\s+self\[", "__delitem__"),
        (r"(?<!del )\bself\[[^\]\n]*\](?!\s*=(?!=))", "__getitem__"),
        (r"\blen\(self\)", "__len__"),
        (r"\bfor\s[^\n]*?\bin\s+self\b(?![.\[(])|\biter\(self\)", "__iter__"),
        (r"^(?![^\n]*\bfor\s)[^\n]*\bin\s+self\b(?![.\[(])", "__contains__"),
        (r"\bself\(", "__call__"),
    )
)
_PY_IMPLICIT_HINTS = ("self[", " self(", "len(self)", "iter(self)", "in self")
_JS_THIS_ASSIGN = re.compile(r"\bthis\.([A-Za-z_$][\w$]*)\s*=(?!=)")
# Python compound statements a partial body descends into, and their extra clauses.
_PY_COMPOUND = frozenset(
    {"if_statement", "for_statement", "while_statement", "with_statement", "try_statement"}
)
_PY_CLAUSES = frozenset(
    {"elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause"}
)
_PY_HANDLERS = frozenset({"except_clause", "except_group_clause", "finally_clause"})
_PY_EMPTY = re.compile(r"^(pass|\.\.\.|raise NotImplementedError(\(.*\))?|return( None)?)$")
_BRACE_EMPTY = re.compile(
    r"^(return;?|todo!\(.*\);?|unimplemented!\(.*\);?|panic!?\(.*\);?"
    r"|throw new \w*Error\(.*\);?|throw \w*Exception\(.*\);?|throw new \w*Exception\(.*\);?)$"
)
_PY_STRING = re.compile(
    r"^\s*[rRuUbBfF]{0,2}(\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"[^\"\n]*\"|'[^'\n]*')", re.M
)
_PY_STRING_START = re.compile(r"\s*[rRuUbB]{0,2}[\"']")  # a bare string statement
_PY_DOC_START = re.compile(r"\s*[rRuUbB]{0,2}(\"\"\"|''')")
_LINE_COMMENT = {True: re.compile(r"#.*"), False: re.compile(r"//.*|/\*[\s\S]*?\*/")}
_NOT_IMPLEMENTED = re.compile(
    r"TODO|FIXME|NotImplemented|unimplemented|todo!|not implemented", re.I
)
_IMPORT_WORDS = frozenset(
    {
        "import",
        "from",
        "as",
        "use",
        "crate",
        "super",
        "self",
        "package",
        "static",
        "pub",
        "include",
        "type",
        "typeof",
        "require",
        "export",
        "default",
        "using",
        "namespace",
        "mod",
        "extern",
    }
)
_NAME_TYPES = frozenset(
    {
        "identifier",
        "field_identifier",
        "type_identifier",
        "property_identifier",
        "private_property_identifier",
        "namespace_identifier",
        "destructor_name",
        "operator_name",
        "constant",
    }
)
# Field names under which a statement declares what it defines.
_DECL_FIELDS = ("name", "declarator", "left")
_DECL_DESCEND = frozenset(
    {
        "expression_statement",
        "assignment",
        "augmented_assignment",
        "variable_declarator",
        "init_declarator",
        "lexical_declaration",
        "variable_declaration",
        "const_declaration",
        "var_declaration",
        "type_declaration",
        "const_spec",
        "var_spec",
        "var_spec_list",
        "type_spec",
        "type_alias",
        "enumerator_list",
        "enumerator",
        "enum_body",
        "enum_constant",
        "field_declaration",
        "pointer_declarator",
        "array_declarator",
        "function_declarator",
        "reference_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
        "struct_specifier",
        "enum_specifier",
        "union_specifier",
        "class_specifier",
        "pattern_list",
        "tuple_pattern",
        "list_pattern",
        "type_alias_statement",
        "ambient_declaration",
        "export_statement",
        "public_field_definition",
        "field_definition",
        "constant_declaration",
        "static_item",
        "const_item",
    }
)


@dataclass(eq=False)
class Unit:
    """One keepable piece of the file; rows are 0-based line numbers, inclusive."""

    kind: str  # root | func | class | block | import | stmt
    first: int  # first row, leading comments included
    start: int  # first code row (attributes, decorators included)
    last: int
    name: str = ""
    defs: tuple[str, ...] = ()
    head_end: int = -1  # last header row when the body can collapse, else -1
    close: int = -1  # brace languages: first row kept after the elision
    indent: str = ""  # indentation of the elision line
    children: list[Unit] | None = None
    parent: Unit | None = None
    owner: str | None = None  # class/type this unit is a member of
    scope: str | None = None  # for class-like units: the name members are looked up under
    self_words: tuple[str, ...] = ()
    empty: int = 0  # 0 not empty, 1 empty body, 2 empty and marked TODO / not implemented
    abstract: bool = False
    order: int = 0
    suite: int = 0  # which suite of the parent (if/else …) this member sits in
    header_words: frozenset[str] = frozenset()
    body: Any = None  # Python methods: the body node, read for ``PART`` when needed
    # Python methods: each ``self.attr = ...`` statement of the body as (attributes,
    # row segments to keep: enclosing headers, then the statement; True marks a header)
    _assigns: tuple[tuple[frozenset[str], tuple[tuple[int, int, bool], ...]], ...] | None = None
    _refs: tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]] | None = None
    _edges: list[tuple[float, Unit]] | None = None  # ``_deps``, once per outline
    _implicit: frozenset[str] = frozenset()  # special methods operators on ``self`` call

    @property
    def collapsible(self) -> bool:
        return self.head_end >= 0

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Unit({self.kind} {self.owner or ''}.{self.name} {self.start + 1}-{self.last + 1})"


@dataclass
class Outline:
    """A parsed file: its lines, the unit tree and the lookup tables for references."""

    lang: str
    spec: LangSpec
    lines: list[str]
    root: Unit
    units: list[Unit]
    comment_rows: set[int]
    top: dict[str, list[Unit]] = field(default_factory=dict)
    members: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)
    any_member: dict[str, list[Unit]] = field(default_factory=dict)
    attr_defs: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)
    types: dict[str, list[Unit]] = field(default_factory=dict)
    bases: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Focus:
    """What the conversation points at, for one block."""

    strong: frozenset[str] = frozenset()  # names in backticks, code-shaped, tracebacks
    weak: frozenset[str] = frozenset()  # other words of the prose
    qualified: frozenset[tuple[str, str]] = frozenset()  # ("Class", "method")
    rows: frozenset[int] = frozenset()  # 0-based rows named by file:line references


@dataclass
class TrimResult:
    code: str
    focal: list[str]
    tokens_estimate: int
    kept_full: int
    collapsed: int
    dropped: int


# ---------------------------------------------------------------------------- outline


def _end_row(node: Any) -> int:
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else int(row)


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _prefix(lines: list[str], row: int, col: int) -> str:
    line = lines[row]
    return line[:col] if line.isascii() else line.encode()[:col].decode("utf-8", "replace")


def _suffix(lines: list[str], row: int, col: int) -> str:
    line = lines[row]
    return line[col:] if line.isascii() else line.encode()[col:].decode("utf-8", "replace")


# Go: the import whose leading comment is the cgo preamble (C code, not documentation).
_CGO_IMPORT = re.compile(r'import\s+"C"\s*$')


class _Builder:
    def __init__(self, lang: str, lines: list[str]) -> None:
        self.lang = lang
        self.spec = SPECS[lang]
        self.lines = lines
        self.units: list[Unit] = []
        self.comment_rows: set[int] = set()
        self.bases: dict[str, list[str]] = {}

    # -- names -------------------------------------------------------------------
    def decl_names(self, node: Any, depth: int = 0) -> list[str]:
        out: list[str] = []
        if depth > 5:
            return out
        for i, child in enumerate(node.children):
            fname = node.field_name_for_child(i)
            if child.type in _NAME_TYPES and (fname in _DECL_FIELDS or node.type == "enumerator"):
                out.append(node_text(child))
            elif fname in _DECL_FIELDS and child.is_named:
                if child.type in ("pattern_list", "tuple_pattern", "list_pattern", "tuple"):
                    out.extend(_WORD.findall(node_text(child)))
                else:
                    out.extend(
                        self.decl_names(child, depth + 1) or _WORD.findall(node_text(child))[-1:]
                    )
            elif child.type in _DECL_DESCEND:
                out.extend(self.decl_names(child, depth + 1))
        return out

    def def_name(self, core: Any) -> tuple[str, str | None]:
        """(name, owner) of a function or class node; owner from ``A::f`` or Go receivers."""
        name_node = core.child_by_field_name("name")
        owner = None
        if name_node is None:
            decl = core.child_by_field_name("declarator")
            while decl is not None and decl.child_by_field_name("declarator") is not None:
                decl = decl.child_by_field_name("declarator")
            name_node = decl
        if core.type == "method_declaration" and self.lang == "go":
            recv = core.child_by_field_name("receiver")
            if recv is not None:
                words = _WORD.findall(node_text(recv))
                owner = words[-1] if words else None
        if core.type == "impl_item":
            typ = core.child_by_field_name("type")
            words = _WORD.findall(node_text(typ)) if typ is not None else []
            return "", words[0] if words else None
        if name_node is None:
            return "", owner
        text = node_text(name_node)
        if "::" in text:
            parts = [p for p in re.split(r"::", text) if p]
            base = _WORD.findall(parts[-2]) if len(parts) > 1 else []
            owner = base[-1] if base else owner
            text = parts[-1] if parts else text
        words = _WORD.findall(text.replace("~", ""))
        return (words[-1] if words else text), owner

    # -- structure ---------------------------------------------------------------
    def unwrap(self, node: Any) -> tuple[Any, str | None]:
        """The definition inside wrappers (decorators, export, template), and a var name."""
        spec = self.spec
        core = node
        for _ in range(4):
            if core.type in spec.wrappers:
                inner = core.child_by_field_name("definition") or core.child_by_field_name(
                    "declaration"
                )
                if inner is None:
                    named = [
                        c for c in core.named_children if c.type not in ("decorator", "comment")
                    ]
                    inner = named[-1] if named else None
                if inner is None:
                    break
                core = inner
                continue
            if core.type == "expression_statement" and core.named_child_count == 1:
                inner = core.named_children[0]
                if inner.type in spec.containers or inner.type in spec.functions:
                    core = inner
                    continue
                if inner.type in ("assignment_expression", "assignment"):
                    right = inner.child_by_field_name("right")
                    left = inner.child_by_field_name("left")
                    if right is not None and right.type in spec.functions | spec.containers:
                        words = _WORD.findall(node_text(left)) if left is not None else []
                        return right, (words[-1] if words else None)
                break
            if core.type == "pair":
                value, key = core.child_by_field_name("value"), core.child_by_field_name("key")
                if value is not None and value.type in spec.functions:
                    words = _WORD.findall(node_text(key)) if key is not None else []
                    return value, (words[-1] if words else None)
                break
            if core.type in ("lexical_declaration", "variable_declaration") and not spec.python:
                decls = [c for c in core.named_children if c.type == "variable_declarator"]
                if len(decls) == 1:
                    value = decls[0].child_by_field_name("value")
                    name = decls[0].child_by_field_name("name")
                    if value is not None and value.type in spec.functions | spec.containers:
                        return value, node_text(name) if name is not None else None
                break
            break
        return core, None

    def callback(self, node: Any) -> Any:
        """JS family: the function holding a top-level call's code -- `(() => { … })()`,
        UMD factories, `describe("…", () => { … })` -- or None."""
        if self.lang not in ("javascript", "typescript", "tsx"):
            return None
        if node.type != "expression_statement":
            return None
        expr = node.named_children[0] if node.named_child_count else None
        for _ in range(3):
            if expr is not None and expr.type in ("parenthesized_expression", "unary_expression"):
                expr = expr.named_children[-1] if expr.named_child_count else None
        if expr is None or expr.type != "call_expression":
            return None
        cands = []
        fn = expr.child_by_field_name("function")
        while fn is not None and fn.type == "parenthesized_expression" and fn.named_child_count:
            fn = fn.named_children[0]
        if fn is not None and fn.type in self.spec.functions:
            cands.append(fn)
        args = expr.child_by_field_name("arguments")
        if args is not None:
            cands.extend(a for a in args.named_children if a.type in self.spec.functions)
        best = max(cands, key=lambda f: f.end_byte - f.start_byte, default=None)
        body = best.child_by_field_name("body") if best is not None else None
        return best if body is not None and body.type == "statement_block" else None

    def brace_body(self, unit: Unit, body: Any) -> None:
        """Make ``unit`` collapsible around a ``{ … }`` body when its braces sit on own lines."""
        lines = self.lines
        open_row, close_row = body.start_point[0], _end_row(body)
        if close_row <= open_row + 1 or open_row < unit.start or close_row > unit.last:
            return
        after = _suffix(lines, open_row, body.start_point[1] + 1).strip()
        if after and not after.startswith(("//", "/*")):
            return
        if _prefix(lines, close_row, body.end_point[1] - 1).strip():
            return
        inner = next((lines[r] for r in range(open_row + 1, close_row) if lines[r].strip()), None)
        if inner is not None:
            indent = _indent_of(inner)
        else:
            step = "\t" if self.lang == "go" or lines[open_row].startswith("\t") else "    "
            indent = _indent_of(lines[unit.start]) + step
        unit.head_end, unit.close, unit.indent = open_row, close_row, indent

    def python_body(self, unit: Unit, core: Any, body: Any) -> None:
        colon_row = -1
        for child in core.children:
            if child.type == ":" and child.start_byte < body.start_byte:
                colon_row = child.start_point[0]
        if colon_row < 0 or body.start_point[0] <= colon_row:
            return
        unit.head_end = colon_row
        unit.indent = _indent_of(self.lines[body.start_point[0]])

    def find_body(self, core: Any) -> Any:
        body = core.child_by_field_name("body")
        if body is not None:
            return body
        queue = list(core.named_children)
        for _ in range(3):
            nxt = []
            for n in queue:
                if n.type in self.spec.body_types:
                    return n
                nxt.extend(n.named_children)
            queue = nxt
        return None

    def empty_body(self, unit: Unit) -> int:
        if not unit.collapsible:
            return 0
        end = unit.close if unit.close >= 0 else unit.last + 1
        if end - unit.head_end > 40:
            # a long docstring over an empty body is still an empty body
            if not self.spec.python:
                return 0
            head = "\n".join(self.lines[unit.head_end + 1 : min(end, unit.head_end + 4)])
            if not _PY_DOC_START.match(head):
                return 0
            doc = _PY_STRING.match("\n".join(self.lines[unit.head_end + 1 : end]))
            if doc is None or end - unit.head_end - doc.group(0).count("\n") > 40:
                return 0
        body = "\n".join(self.lines[unit.head_end + 1 : end])
        marked = bool(_NOT_IMPLEMENTED.search(body))
        python = self.spec.python
        text = _LINE_COMMENT[python].sub("", body)
        if python:
            text = _PY_STRING.sub("", text)
            rest = [ln.strip() for ln in text.splitlines() if ln.strip()]
            ok = all(_PY_EMPTY.match(ln) for ln in rest)
        else:
            rest = [ln.strip() for ln in text.splitlines() if ln.strip()]
            ok = all(_BRACE_EMPTY.match(ln) for ln in rest)
            marked = marked and ok
        if not ok:
            return 0
        return 2 if marked or any("NotImplemented" in ln for ln in rest) else 1

    def suites(self, core: Any) -> list[list[Any]]:
        """Member nodes of a container, one list per suite (``if`` / ``else`` bodies …)."""
        if core.type.startswith("preproc_"):
            members = []
            for i, child in enumerate(core.children):
                fname = core.field_name_for_child(i)
                if child.is_named and fname not in ("name", "condition"):
                    members.append(child)
            return [members]
        if self.spec.python and core.type in ("if_statement", "try_statement"):
            out = []
            for child in core.children:
                if child.type == "block":
                    out.append(list(child.children))
                elif child.type.endswith("_clause"):
                    for sub in child.children:
                        if sub.type == "block":
                            out.append(list(sub.children))
            return out
        if core.type == "object":
            return [list(core.children)]
        body = core.child_by_field_name("body")
        if body is None:
            body = self.find_body(core)
        return [list(body.children)] if body is not None else []

    def make(self, nodes: list[Any], leads: list[Any], parent: Unit, owner: str | None) -> Unit:
        spec, lines = self.spec, self.lines
        attrs = [n for n in leads if n.type in spec.attributes]
        first = min([n.start_point[0] for n in leads] + [nodes[0].start_point[0]])
        start = attrs[0].start_point[0] if attrs else nodes[0].start_point[0]
        last = max(_end_row(n) for n in nodes)
        code = [n for n in nodes if n.type not in spec.comments]
        unit = Unit("stmt", first, start, last, parent=parent, owner=owner)
        unit.order = len(self.units)
        self.units.append(unit)
        if len(code) != 1:
            names: list[str] = []
            for n in code:
                names.extend(self.decl_names(n))
            unit.defs = tuple(dict.fromkeys(names))
            return unit
        node = code[0]
        core, var_name = self.unwrap(node)
        ctype = core.type
        wrapped = None
        if ctype not in spec.functions and ctype not in spec.containers:
            wrapped = self.callback(node)
            if wrapped is not None:
                core, var_name, ctype = wrapped, None, "call_body"
            elif self.lang in ("javascript", "typescript", "tsx"):
                # `export default { … }`, `module.exports = { … }`, `const api = { … }`
                obj = core
                if node.type == "expression_statement" and node.named_child_count == 1:
                    inner = node.named_children[0]
                    if inner.type == "assignment_expression":
                        obj = inner.child_by_field_name("right") or obj
                elif node.type in ("lexical_declaration", "variable_declaration"):
                    decls = [c for c in node.named_children if c.type == "variable_declarator"]
                    value = decls[0].child_by_field_name("value") if len(decls) == 1 else None
                    obj = value if value is not None else obj
                    if value is not None and value.type == "object":
                        # `const table = { … }` still defines `table`
                        var = decls[0].child_by_field_name("name")
                        var_name = node_text(var) if var is not None else None
                if obj.type == "object":
                    core, ctype, wrapped = obj, "object_body", obj
        if ctype in spec.imports or node.type in spec.imports:
            unit.kind = "import"
            words = _WORD.findall(node_text(node))
            unit.defs = tuple(dict.fromkeys(w for w in words if w not in _IMPORT_WORDS))
            return unit
        if ctype in spec.functions:
            unit.kind = "func"
            name, own = self.def_name(core) if var_name is None else (var_name, None)
            unit.name, unit.defs = name, (name,) if name else ()
            if own:
                unit.owner = own
            body = core.child_by_field_name("body")
            if body is not None and body.type not in ("expression", "ERROR"):
                if spec.python:
                    self.python_body(unit, core, body)
                elif body.type in (
                    "statement_block",
                    "block",
                    "compound_statement",
                    "constructor_body",
                    "function_body",
                ):
                    self.brace_body(unit, body)
            head = "\n".join(
                lines[unit.start : (unit.head_end if unit.collapsible else unit.start) + 1]
            )
            unit.abstract = bool(re.search(r"abstract|@overload|@typing\.overload", head))
            unit.header_words = frozenset(_WORD.findall(head))
            unit.empty = self.empty_body(unit)
            if spec.python and unit.owner and unit.collapsible:
                unit.body = body
            if self.lang == "go" and core.type == "method_declaration":
                recv = core.child_by_field_name("receiver")
                words = _WORD.findall(node_text(recv)) if recv is not None else []
                unit.self_words = (words[0],) if len(words) > 1 else ()
            else:
                unit.self_words = spec.self_words
            return unit
        if ctype in spec.containers or wrapped is not None:
            name, own = (
                (var_name or "", None)
                if wrapped is not None
                else (self.def_name(core) if var_name is None else (var_name, None))
            )
            class_like = not (
                ctype.startswith("preproc_")
                or ctype
                in (
                    "if_statement",
                    "try_statement",
                    "namespace_definition",
                    "linkage_specification",
                    "mod_item",
                    "internal_module",
                    "module",
                    "call_body",
                    "object_body",
                )
            )
            unit.kind = "class" if class_like else "block"
            unit.name = name
            if ctype == "impl_item":
                unit.scope = own
            elif class_like:
                unit.scope = name or None
                unit.defs = (name,) if name else ()
                if spec.python:
                    sup = core.child_by_field_name("superclasses")
                    if sup is not None and name:
                        self.bases[name] = _WORD.findall(node_text(sup))
            elif name and ctype != "namespace_definition":
                unit.defs = (name,)
            if own and ctype != "impl_item":
                unit.owner = own
            member_owner = unit.scope if class_like else owner
            suites = self.suites(core)
            if not suites:
                return unit
            children: list[Unit] = []
            ok = True
            for si, members in enumerate(suites):
                built, clean = self.members(members, unit, member_owner)
                ok = ok and clean
                for child in built:
                    child.suite = si
                children.extend(built)
            lo, hi = unit.start, unit.last + 1  # children must sit strictly inside (lo, hi)
            if ctype in ("preproc_ifdef", "preproc_if"):
                hi = unit.last
            elif not spec.python and not ctype.startswith("preproc_"):
                body = (
                    core
                    if core.type == "object"
                    else core.child_by_field_name("body") or self.find_body(core)
                )
                if body is not None:
                    self.brace_body(unit, body)
                lo, hi = (unit.head_end, unit.close) if unit.collapsible else (hi, lo)
            elif class_like:
                body = core.child_by_field_name("body")
                if body is not None:
                    self.python_body(unit, core, body)
                lo = unit.head_end if unit.collapsible else hi
            if ok and children and all(lo < c.first and c.last < hi for c in children):
                unit.children = children
            if unit.children is None:
                # members stay indexed (names resolve to the whole unit through them)
                for child in children:
                    child.parent = unit
            unit.header_words = frozenset(
                _WORD.findall("\n".join(lines[unit.start : max(unit.start, unit.head_end) + 1]))
            )
            return unit
        unit.defs = tuple(dict.fromkeys(self.decl_names(node)))
        if ctype in spec.bodied or node.type in spec.bodied:
            body = self.find_body(core)
            if body is not None and not spec.python:
                self.brace_body(unit, body)
            if ctype in (
                "struct_item",
                "enum_item",
                "union_item",
                "type_declaration",
                "struct_specifier",
                "class_specifier",
                "type_definition",
                "enum_specifier",
                "enum_declaration",
                "interface_declaration",
            ):
                unit.kind = "class"
                unit.scope = unit.defs[0] if unit.defs else None
        return unit

    def members(self, nodes: list[Any], parent: Unit, owner: str | None) -> tuple[list[Unit], bool]:
        """Group sibling nodes into units (shared lines merge; comments attach downward)."""
        spec, lines = self.spec, self.lines
        groups: list[tuple[list[Any], list[Any]]] = []
        pending: list[Any] = []
        floating: list[Any] = []
        clean = True
        for node in nodes:
            if not node.is_named:
                if (
                    node.type not in ("{", "}", ":", ";", ",", "#endif", "#else")
                    and groups
                    and node.start_point[0] <= _end_row(groups[-1][0][-1])
                ):
                    groups[-1][0].append(node)
                continue
            if node.type in spec.structural:
                continue
            srow = node.start_point[0]
            last_row = max(_end_row(n) for n in groups[-1][0]) if groups else -1
            if node.type in spec.comments or node.type in spec.attributes:
                if groups and srow <= last_row and not pending:
                    groups[-1][0].append(node)
                else:
                    pending.append(node)
                continue
            if groups and srow <= last_row and not pending:
                groups[-1][0].append(node)
                continue
            lead: list[Any] = []
            expect = srow
            for p in reversed(pending):
                if p.type in spec.attributes or _end_row(p) >= expect - 1:
                    lead.insert(0, p)
                    expect = p.start_point[0]
                else:
                    break
            floating.extend(p for p in pending if p not in lead)
            pending = []
            if lead and self.lang == "go" and _CGO_IMPORT.match(node_text(node)):
                # the cgo preamble (C code in the comment over `import "C"`): a part of
                # its own, kept or dropped like any other, not forced in with the import
                groups.append((lead, []))
                lead = []
            groups.append(([node], lead))
        floating.extend(pending)
        for c in floating:
            srow, erow = c.start_point[0], _end_row(c)
            if not _prefix(lines, srow, c.start_point[1]).strip():
                self.comment_rows.update(range(srow, erow + 1))
        units = []
        for group_nodes, lead in groups:
            head = group_nodes[0]
            if _prefix(lines, head.start_point[0], head.start_point[1]).strip():
                clean = False
            tail = group_nodes[-1]
            rest = (
                _suffix(lines, _end_row(tail), tail.end_point[1]).strip()
                if tail.end_point[1]
                else ""
            )
            if rest and rest.strip(";,") and not rest.startswith(("//", "#", "/*")):
                clean = False
            units.append(self.make(group_nodes, lead, parent, owner))
        return units, clean


def build_outline(lang: str, code: str, tree: Any) -> Outline:
    """The unit tree of ``code`` (already parsed without errors by ``lang``'s grammar)."""
    lines = code.split("\n")
    builder = _Builder(lang, lines)
    root = Unit("root", 0, 0, len(lines) - 1)
    root.children, _ = builder.members(list(tree.root_node.children), root, None)
    for child in root.children:
        child.parent = root
    outline = Outline(lang, builder.spec, lines, root, builder.units, builder.comment_rows)
    outline.bases = builder.bases
    _index(outline)
    return outline


def _walk(unit: Unit) -> Iterable[Unit]:
    for child in unit.children or ():
        yield child
        yield from _walk(child)


def _index(outline: Outline) -> None:
    for unit in outline.units:
        for name in unit.defs:
            if unit.owner is None:
                outline.top.setdefault(name, []).append(unit)
            else:
                outline.members.setdefault((unit.owner, name), []).append(unit)
                outline.any_member.setdefault(name, []).append(unit)
        if unit.kind == "class" and unit.scope:
            outline.types.setdefault(unit.scope, []).append(unit)
        if unit.kind == "class" and unit.scope and not unit.defs:  # impl blocks
            outline.types.setdefault(unit.scope, []).append(unit)
        if unit.kind == "func" and outline.spec.python:
            text = "\n".join(outline.lines[unit.start : unit.last + 1])
            for names in _PY_GLOBAL.findall(text):
                for name in _WORD.findall(names):
                    outline.top.setdefault(name, []).append(unit)
        if unit.kind == "func" and unit.owner and outline.spec.name != "go":
            pattern = _PY_SELF_ASSIGN if outline.spec.python else _JS_THIS_ASSIGN
            text = "\n".join(outline.lines[unit.start : unit.last + 1])
            for attr in set(pattern.findall(text)):
                outline.attr_defs.setdefault((unit.owner, attr), []).append(unit)


# ---------------------------------------------------------------------------- relations


def _refs(
    outline: Outline, unit: Unit
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]]:
    if unit._refs is None:
        end = unit.last if unit.children is None else max(unit.start, unit.head_end)
        text = "\n".join(outline.lines[unit.start : end + 1])
        bare = frozenset(_BARE.findall(text))
        pairs = tuple(set(_PAIR.findall(text)))
        selfs = frozenset(b for a, b in pairs if a in unit.self_words)
        unit._refs = (bare, selfs, pairs)
        if (
            outline.spec.python
            and "self" in unit.self_words
            and not unit.empty
            and any(hint in text for hint in _PY_IMPLICIT_HINTS)
        ):
            unit._implicit = frozenset(m for p, m in _PY_IMPLICIT if p.search(text))
    return unit._refs


def _class_of(unit: Unit) -> str | None:
    return unit.owner


# Definitions of one name a reference links to: past this many, only the nearest ones.
_FAN_OUT = 8
_FAN_NEAR = 4


def _nearest(units: Sequence[Unit], order: int) -> Sequence[Unit]:
    """``units`` (in file order), or the ``_FAN_NEAR`` nearest to ``order`` when a name
    has many definitions (overloads, ``#ifdef`` variants, files pasted together): linking
    every reference to all of them makes ``relate`` quadratic in the size of the file."""
    if len(units) <= _FAN_OUT:
        return units
    i = bisect.bisect_left(units, order, key=lambda u: u.order)
    lo, hi = max(0, i - _FAN_NEAR), min(len(units), i + _FAN_NEAR)
    near = sorted(units[lo:hi], key=lambda u: abs(u.order - order))
    return near[:_FAN_NEAR]


def _deps(outline: Outline, unit: Unit) -> list[tuple[float, Unit]]:
    """Units ``unit`` refers to, with an edge cost (1 strong … 3 weak)."""
    if unit._edges is None:
        unit._edges = _edges(outline, unit)
    return unit._edges


def _edges(outline: Outline, unit: Unit) -> list[tuple[float, Unit]]:
    bare, selfs, pairs = _refs(outline, unit)
    owner = _class_of(unit) if unit.kind != "class" else unit.scope
    out: list[tuple[float, Unit]] = []
    top, members = outline.top, outline.members
    for w in bare:
        for u in _nearest(top.get(w, ()), unit.order):
            out.append((1.0, u))
        if owner and (outline.spec.implicit_this or unit.kind == "class"):
            for u in _nearest(members.get((owner, w), ()), unit.order):
                out.append((1.0, u))
    if owner:
        owners = [owner, *outline.bases.get(owner, ())]
        # operators on ``self`` call its special methods (``self[k] = v``, ``len(self)``)
        for name in unit._implicit:
            for o in owners:
                out.extend((1.5, u) for u in members.get((o, name), ()))
        for w in selfs:
            hit = False
            for o in owners:
                for u in _nearest(members.get((o, w), ()), unit.order):
                    out.append((1.0, u))
                    hit = True
                if hit:
                    break
                defs = outline.attr_defs.get((o, w))
                if defs:
                    ranked = sorted(defs, key=lambda u: (u.name != "__init__", u.order))
                    out.append((1.0, ranked[0]))
                    out.extend((2.0, u) for u in ranked[1:])
                    hit = True
                    break
            if not hit:
                out.extend((1.0, u) for u in _nearest(outline.types.get(owner, ()), unit.order))
    for a, b in pairs:
        if a in outline.types:
            for u in _nearest(members.get((a, b), ()), unit.order):
                out.append((1.0, u))
        elif a not in unit.self_words:
            cands = outline.any_member.get(b, ())
            if 0 < len(cands) <= 3:
                out.extend((3.0, u) for u in cands)
    if unit.kind == "func" and owner and unit.self_words:
        for u in _nearest(outline.types.get(owner, ()), unit.order):
            if u.kind == "class" and u.children is None and u is not unit.parent:
                out.append((1.5, u))  # struct fields of Go / Rust receivers
    return out


def find_focal(outline: Outline, focus: Focus) -> dict[Unit, float]:
    """Seed units with a starting distance: 0 for focal symbols, more for weaker hints."""
    seeds: dict[Unit, float] = {}

    def seed(u: Unit, d: float) -> None:
        if d < seeds.get(u, 99.0):
            seeds[u] = d

    named: list[Unit] = []
    for unit in outline.units:
        if unit.kind in ("stmt", "import") and focus.strong.intersection(unit.defs):
            seed(unit, 1.0)
        if unit.kind not in ("func", "class") or not unit.name:
            continue
        if (unit.owner or "", unit.name) in focus.qualified or unit.name in focus.strong:
            named.append(unit)
        elif unit.name in focus.weak and len(unit.name) > 2:
            seed(unit, 2.0)
    empties = [u for u in outline.units if u.kind == "func" and u.empty and not u.abstract]
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
    if named_empty:
        for u in named_empty:
            seed(u, 0.0)
        for u in named:
            if not u.empty:
                seed(u, 1.0)
    else:
        by_name: dict[str, list[Unit]] = {}
        for u in named:
            by_name.setdefault(u.name, []).append(u)
        for group in by_name.values():
            for u in group:
                seed(u, 0.0 if len(group) <= 3 else 1.0)
    if named:
        if len(marked) <= 3:
            for u in marked:
                seed(u, 0.5)
    elif len(empties) <= 2:
        for u in empties:
            seed(u, 0.0)
    elif 0 < len(marked) <= 3:
        for u in marked:
            seed(u, 0.0)
    if focus.rows:
        for row in focus.rows:
            best = None
            for u in outline.units:
                if (
                    u.kind == "func"
                    and u.start <= row <= u.last
                    and (best is None or u.last - u.start < best.last - best.start)
                ):
                    best = u
            if best is not None:
                seed(best, 0.0)
    # A class named because a focal method sits in it (``self: IndexedSet``) is context,
    # not a hint: seeding it would pull every member equally close and drown the
    # finer guesses about which of them the focal code uses. So is a class whose
    # constructor shares its name (Java, C++): it opens around the constructor.
    for f in [u for u, d in seeds.items() if d == 0.0]:
        for p in _ancestors(f):
            if p in seeds and (seeds[p] > 0.0 or p.name == f.name):
                del seeds[p]
    return seeds


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


def _subwords(name: str) -> list[str]:
    return [_stem(w) for w in _SUBWORD.findall(name) if len(w) > 2 and w.lower() not in _STOP]


def _is_docstring(outline: Outline, u: Unit) -> bool:
    return u.kind == "stmt" and _PY_STRING_START.match(outline.lines[u.start]) is not None


# Distance taken off a class member per attribute it defines first, and at most.
_ATTR_STEP, _ATTR_MAX = 0.06, 0.6
# Distance of the definitions one and two places before a focal one (after: 0.1 more).
_NEAR_BASE, _NEAR_STEP = 1.3, 0.3


def predicted(outline: Outline, focal: list[Unit], focus: Focus) -> dict[Unit, float]:
    """Likely dependencies of focal units whose bodies are still to be written.

    An empty body references nothing yet; what it will use is guessed from the class it
    sits in (constructor, attributes, helpers, base classes), from the file's small
    module-level definitions, and from the words of the prose.
    """
    words = {_stem(w) for w in focus.weak | focus.strong if len(w) > 2 and w.lower() not in _STOP}
    out: dict[Unit, float] = {}

    def put(u: Unit, d: float) -> None:
        if d < out.get(u, 99.0):
            out[u] = d

    def lexical(u: Unit) -> float:
        subs = _subwords(u.name or (u.defs[0] if u.defs else ""))
        return sum(1 for w in subs if w in words) / len(subs) if subs else 0.0

    owners: dict[str, float] = {}
    for f in focal:
        if f.owner:
            owners.setdefault(f.owner, 0.0)
            for i, base in enumerate(outline.bases.get(f.owner, ())):
                owners.setdefault(base, 0.3 + 0.1 * i)
    # Other implementations of the same method: what they use on `self`, this one may too.
    for f in focal:
        if not f.owner:
            continue
        for a in outline.any_member.get(f.name, ()):
            if a.owner == f.owner or a.empty:
                continue
            _, selfs, _ = _refs(outline, a)
            for w in selfs:
                for o, extra in owners.items():
                    hits = outline.members.get((o, w)) or outline.attr_defs.get((o, w), [])[:1]
                    for u in hits:
                        put(u, 1.05 + extra)
    # Which member first defines each attribute (the constructor, usually) and how often
    # the other methods use each member: helpers they lean on are likely helpers here too.
    attrs: dict[Unit, int] = {}
    for (o, _), defs in outline.attr_defs.items():
        if o in owners and defs:
            first = min(defs, key=lambda u: (u.name != "__init__", u.order))
            attrs[first] = attrs.get(first, 0) + 1
    used: dict[str, int] = {}
    for u in outline.units:
        if u.owner in owners and u.kind == "func" and u not in focal:
            for w in _refs(outline, u)[1]:
                used[w] = used.get(w, 0) + 1
    for u in outline.units:
        if u in focal or _is_docstring(outline, u):
            continue
        if u.owner in owners:
            extra = owners[u.owner or ""]
            if u.kind == "func":
                d = 1.0 if u.name == "__init__" else 1.2 + 0.8 * (1 - lexical(u))
                d -= min(1.0, 0.3 * used.get(u.name, 0))
                # the constructor (or setup helper) that defines many attributes is the
                # class's data model: worth its size for a body still to be written
                d -= min(_ATTR_MAX, _ATTR_STEP * attrs.get(u, 0))
                put(u, d + extra)
            elif u.kind == "stmt":
                put(u, 1.3 + extra + 0.8 * (1 - lexical(u)))
            continue
        if u.kind not in ("func", "class", "stmt"):
            continue
        lex = lexical(u)
        if lex > 0:
            put(u, 1.4 + 0.8 * (1 - lex) + (0.3 if u.owner else 0.0))
        elif u.kind == "stmt" and u.owner is None and u.last - u.start < 3 and u.defs:
            put(u, 1.8)
    # Definitions right beside a focal one are often its helpers (written just before it).
    for f in focal:
        sibs = [
            c
            for c in (f.parent.children if f.parent is not None else None) or ()
            if c.kind in ("func", "class") or (c.kind == "stmt" and c.defs)
        ]
        if f not in sibs:
            continue
        i = sibs.index(f)
        for k in (-2, -1, 1, 2):
            if 0 <= i + k < len(sibs) and sibs[i + k] not in focal:
                put(sibs[i + k], _NEAR_BASE + _NEAR_STEP * abs(k) + (0.1 if k > 0 else 0.0))
    return out


def relate(outline: Outline, seeds: dict[Unit, float]) -> dict[Unit, float]:
    """Distance of every reachable unit from the seeds (Dijkstra over references)."""
    dist: dict[Unit, float] = {}
    enclosing: set[Unit] = set()
    for u in seeds:
        p = u.parent
        while p is not None:
            enclosing.add(p)
            p = p.parent
    heap = [(d, u.order, u) for u, d in seeds.items()]
    heapq.heapify(heap)
    best = dict(seeds)  # shortest distance pushed so far
    while heap:
        d, _, u = heapq.heappop(heap)
        if u in dist or (u in enclosing and u not in seeds):
            continue
        dist[u] = d
        if d >= 6:
            continue
        nxt = list(_deps(outline, u))
        if u.kind == "class" and u.children:
            nxt.extend((0.5, c) for c in u.children)
        for cost, v in nxt:
            nd = d + cost
            if v not in dist and nd < best.get(v, 99.0):
                best[v] = nd
                heapq.heappush(heap, (nd, v.order, v))
    return dist


# ---------------------------------------------------------------------------- rendering


class _Costs:
    """Estimated tokens of a unit in each mode (sum of per-line counts, memoised)."""

    marker = 2

    def __init__(
        self, outline: Outline, count: Callable[[str], int], total: int | None = None
    ) -> None:
        self.o = outline
        self.count = count
        self._line_tok: dict[str, int] = {}
        # One exact count of the whole file calibrates a per-character rate; the plan uses
        # estimates and the rendered result is counted exactly (see ``trim_outline``).
        chars = sum(len(line.lstrip()) for line in outline.lines)
        total = count("\n".join(outline.lines)) if total is None else total
        self.rate = max(0.05, (total - len(outline.lines)) / chars) if chars else 0.3
        self._full: dict[Unit, int] = {}
        self._sig: dict[Unit, int] = {}
        self._struct: dict[Unit, int] = {}

    def tok(self, a: int, b: int) -> int:
        lines, rate = self.o.lines, self.rate
        return sum(int(len(lines[r].lstrip()) * rate) + 1 for r in range(a, b + 1))

    def structural(self, u: Unit) -> int:
        n = self._struct.get(u)
        if n is None:
            rows = set(range(u.start, u.last + 1))
            for c in u.children or ():
                rows.difference_update(range(c.first, c.last + 1))
            rows.difference_update(self.o.comment_rows)
            lines = self.o.lines
            n = sum(self.tok(r, r) for r in rows if lines[r].strip()) + self.marker
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


# Share of the budget a focal definition's leading (doc) comment may take.
_FOCAL_LEAD_SHARE = 0.3


def _focal_mode(u: Unit, budget: int, costs: _Costs) -> int:
    """``FULL`` for a focal definition, or ``BARE`` (its leading comment rows left out)
    when that comment would take more than its share of the budget, or the whole does
    not fit: the definition itself stays byte for byte."""
    if u.first >= u.start:
        return FULL
    full = costs.full(u)
    lead = full - costs.tok(u.start, u.last)
    return BARE if lead > _FOCAL_LEAD_SHARE * budget or full > budget else FULL


def render(
    outline: Outline, mode: dict[Unit, int], partial: dict[Unit, list[str]] | None = None
) -> str:
    lines, python, comment_rows = outline.lines, outline.spec.python, outline.comment_rows
    marker_text = "..." if python else "// …"
    out: list[str] = []

    def blank() -> None:
        if out and out[-1].strip():
            out.append("")

    def structural(a: int, b: int) -> bool:
        emitted = False
        for r in range(a, b + 1):
            if r in comment_rows:
                continue
            line = lines[r]
            if line.strip():
                out.append(line)
                emitted = True
            else:
                blank()
        return emitted

    def emit(u: Unit) -> None:
        m = mode.get(u, DROP)
        if m == FULL:
            out.extend(lines[u.first : u.last + 1])
        elif m == BARE:
            out.extend(lines[u.start : u.last + 1])
        elif m == SIG:
            out.extend(lines[u.start : u.head_end + 1])
            out.append(u.indent + marker_text)
            if u.close >= 0:
                out.extend(lines[u.close : u.last + 1])
        elif m == PART and partial and u in partial:
            out.extend(partial[u])
        elif m == OPEN:
            cur = u.start
            dropped_run = False
            suite = -1
            for c in u.children or ():
                if structural(cur, c.first - 1) or c.suite != suite:
                    dropped_run = False
                suite = c.suite
                cur = c.last + 1
                if mode.get(c, DROP) == DROP:
                    if not dropped_run:
                        out.append(_indent_of(lines[c.start]) + marker_text)
                        dropped_run = True
                    continue
                dropped_run = False
                emit(c)
            structural(cur, u.last)

    emit(outline.root)
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
                    names = _PY_SELF_ASSIGN.findall(node_text(stmt))
                    if names:
                        seg = (stmt.start_point[0], _end_row(stmt), False)
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
            out.append((_indent_of(lines[code]) if prev_header else prev_indent) + "...")

    for a, b, is_header in sorted(segs):
        if a <= prev_end:
            if b > prev_end:
                out.extend(lines[prev_end + 1 : b + 1])
                prev_end = b
            continue
        gap(prev_end + 1, a)
        out.extend(lines[a : b + 1])
        prev_end, prev_header, prev_indent = b, is_header, _indent_of(lines[a])
    gap(prev_end + 1, u.last + 1)
    return out


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
        _, selfs, pairs = _refs(outline, f)
        if f.owner:
            for o in (f.owner, *outline.bases.get(f.owner, ())):
                want(o, selfs, bool(f.empty))
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
            u = min(defs, key=lambda u: (u.name != "__init__", u.order))
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


def _steps(
    outline: Outline,
    dist: dict[Unit, float],
    seeds: dict[Unit, float],
    costs: _Costs,
    partial: dict[Unit, list[str]] | None = None,
) -> list[tuple[Unit, int]]:
    """Upgrades in order of relevance: closure bodies (a cut body first where there is
    one, ranked by its own size), then signatures, then other bodies."""
    steps: list[tuple[Unit, int]] = []
    # Module-level helpers many functions call are likely helpers of the focal one too.
    calls: dict[str, int] = {}
    for u in dist:
        if u.kind == "func":
            for w in _refs(outline, u)[0]:
                calls[w] = calls.get(w, 0) + 1

    def rank(u: Unit, d: float, size: int) -> float:
        if u.owner is None and u.kind == "func":
            d -= min(_CALL_MAX, _CALL_STEP * calls.get(u.name, 0))
        return d + min(size, 4000) / 400

    ranked = [(rank(u, d, costs.full(u)), u.order, FULL, u) for u, d in dist.items()]
    for u, rows in (partial or {}).items():
        if u in dist:
            ranked.append((rank(u, dist[u], costs.lines(rows)), u.order, PART, u))
    ranked.sort(key=lambda r: r[:3])
    steps.extend((u, mode) for _, _, mode, u in ranked)
    focal_rows = [u.start for u in seeds] or [0]
    reached = set(dist)
    focal_owners = {u.owner for u in seeds if u.owner}

    def key(u: Unit) -> tuple[int, int, int]:
        depth = 0
        p = u.parent
        while p is not None and p.kind != "root":
            depth += 1
            p = p.parent
        near = min(abs(u.start - r) for r in focal_rows) if seeds else u.order
        return (0 if u.owner in focal_owners else 1, depth, near)

    rest = sorted((u for u in outline.units if u not in reached), key=key)
    for u in rest:
        if u.kind in ("func", "class") and u.collapsible:
            steps.append((u, SIG))
        elif u.kind in ("class", "block") and u.children is not None:
            steps.append((u, OPEN))
        elif u.kind == "import" or u.last - u.start < 3:
            steps.append((u, FULL))
    for u in rest:
        steps.append((u, FULL))
    return steps


def required(outline: Outline, focal: list[Unit]) -> list[tuple[Unit, bool]]:
    """Module-level definitions of the names the focal units use directly.

    The flag says the body must stay: a function that binds the name with ``global``
    defines it only in its body.
    """
    enclosing = {p for f in focal for p in _ancestors(f)}
    out: dict[Unit, bool] = {}
    if focal:
        # names a wildcard import brings in cannot be traced: keep those imports
        for u in outline.units:
            if u.kind == "import" and u.owner is None and "*" in outline.lines[u.last]:
                out[u] = False
    for f in focal:
        bare, _, _ = _refs(outline, f)
        for w in sorted(bare):
            for u in outline.top.get(w, ()):
                # a named block (`const table = { … }`) stays too, collapsed
                if u is not f and u not in enclosing and (u.kind != "block" or u.collapsible):
                    out[u] = out.get(u, False) or (u.kind == "func" and w not in u.defs)
    return list(out.items())


def _ancestors(u: Unit) -> list[Unit]:
    out, p = [], u.parent
    while p is not None:
        out.append(p)
        p = p.parent
    return out


# Share of the budget an empty focal body (its docstring) may take before it is collapsed.
_FOCAL_DOC_SHARE = 0.3


def plan_modes(
    outline: Outline,
    focal: list[Unit],
    steps: list[tuple[Unit, int]],
    budget: int,
    costs: _Costs,
    partial: dict[Unit, list[str]] | None = None,
) -> dict[Unit, int]:
    """Modes for every unit: focal bodies always, then ``steps`` while they fit."""
    plan = _Plan(outline, costs, partial)
    for u in sorted(focal, key=lambda u: u.order):
        # A body still to be written is all docstring: where that would crowd out what
        # the new code will use, its signature is what stays (the prose asks for it).
        hog = u.empty and u.collapsible and costs.full(u) > _FOCAL_DOC_SHARE * budget
        plan.try_mode(u, SIG if hog else _focal_mode(u, budget, costs), budget, force=True)
    # Every module-level name a focal body uses stays defined (a signature is enough).
    for u, body in required(outline, focal):
        if not plan.try_mode(u, SIG if u.collapsible and not body else FULL, budget, force=True):
            plan.try_mode(u, FULL, budget, force=True)
    for u, mode in steps:
        if plan.total >= budget:
            break
        plan.try_mode(u, mode, budget)
    return plan.mode


def trim_outline(
    outline: Outline,
    focus: Focus,
    budget: int,
    count: Callable[[str], int],
    total_tokens: int | None = None,
) -> TrimResult:
    """Render ``outline`` within ``budget`` tokens (estimated per line, then checked)."""
    seeds = find_focal(outline, focus)
    focal = [u for u, d in seeds.items() if d == 0.0]
    for u, d in predicted(outline, [f for f in focal if f.empty], focus).items():
        if d < seeds.get(u, 99.0):
            seeds[u] = d
    dist = relate(outline, seeds) if seeds else {}
    costs = _Costs(outline, count, total_tokens)
    partial = partial_bodies(outline, focal, costs)
    steps = _steps(outline, dist, seeds, costs, partial)
    target = budget
    code = ""
    modes: dict[Unit, int] = {}
    tokens = 0
    for _ in range(4):
        modes = plan_modes(outline, focal, steps, target, costs, partial)
        code = render(outline, modes, partial)
        tokens = count(code)
        if tokens <= budget:
            break
        target -= tokens - budget + max(2, budget // 50)
        if target <= 0:
            break
    kept = sum(1 for u in outline.units if modes.get(u) == FULL)
    collapsed = sum(1 for u in outline.units if modes.get(u) in (SIG, PART))
    dropped = sum(1 for u in outline.units if modes.get(u, DROP) == DROP)
    names = [f"{u.owner}.{u.name}" if u.owner else u.name for u in focal]
    return TrimResult(code, names, tokens, kept, collapsed, dropped)


def describe(units: Sequence[Unit]) -> list[str]:  # pragma: no cover - debugging aid
    return [repr(u) for u in units]
