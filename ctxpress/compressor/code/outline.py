"""A parsed source file as units, and the references between them.

The file becomes a tree of *units*: top-level statements, and the members of
class-like bodies (and of Python ``if``/``try`` and C preprocessor blocks), with lookup
tables from names to the units that define them. ``relate`` measures how far each unit
is from a set of seed units over the references in their text; ``focal`` chooses the
seeds and ``trim`` plans and renders what to keep.

Only the statement-level skeleton is walked with tree-sitter; identifiers are read
from each unit's text with regular expressions (C speed), so the cost stays linear in
the size of the file.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ctxpress.compressor.code.imports import bound_names
from ctxpress.compressor.code.languages import SPECS, LangSpec, node_text

IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$]*")  # an identifier of any supported language
# a C++ operator as code and prose spell it: `operator<`, `operator ==`, `operator new[]`,
# `operator bool` (a conversion), `operator"" _km`
OPERATOR = re.compile(
    r"\boperator\s*(\(\s*\)|\[\s*\]|->\*?|[-+*/%^&|~!=<>,]+|(?:new|delete)\b(?:\s*\[\s*\])?"
    r"|\"\"\s*\w+|[A-Za-z_][\w:]*)"
)


def operator_name(symbol: str) -> str:
    """One spelling per operator, so a question about `operator <` finds `operator<`
    and not every other operator of the class."""
    symbol = symbol.strip()
    if symbol[:1].isalpha():  # `new []`, `const char *`: words spaced once, signs joined
        symbol = re.sub(r"\s*([^\w\s])\s*", r"\1", " ".join(symbol.split()))
    else:
        symbol = re.sub(r"\s+", "", symbol)
    return f"operator {symbol}" if symbol[:1].isalpha() else f"operator{symbol}"


def _operator_of(node: Any) -> str:
    """The name of a C++ ``operator_name`` (`operator <`) or ``operator_cast`` node
    (`operator const char*() const`: its type, `operator const char*`)."""
    text = node_text(node)
    if node.type == "operator_cast":
        return operator_name(text.split("(")[0].removeprefix("operator"))
    m = OPERATOR.match(text)
    return operator_name(m.group(1)) if m else "operator"


# (after two dots a name is bare again: a spread `...rest`, a Rust range `0..len`)
_BARE = re.compile(r"(?:(?<=\.\.)|(?<![\w$.]))(?<!->)(?<!::)(?:[^\W\d]|\$)[\w$]*")
# ``a.b`` / ``a::b`` / ``a->b`` (``a`` empty after a call or index: ``f(x).b``; ``b`` a JS
# private ``#name`` too), read
# overlapping so each link of a chain counts: ``self.env.get`` gives (self, env), (env, get);
# a name is read from its first letter only and never given back (linear in the text)
_PAIR = re.compile(
    r"(?:(?<![A-Za-z_$])([A-Za-z_$][\w$]*+)|[)\]])\s*(?:\?\.|\.|::|->)\s*(?=(#?[A-Za-z_$][\w$]*))"
)
_PY_GLOBAL = re.compile(r"^[ \t]*global[ \t]+([\w \t,]+)$", re.M)
PY_SELF_ASSIGN = re.compile(r"\b(?:self|cls)\.([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)")
# `self.a = …` / `self.a: T = …` (the value up to the end of its line)
_SELF_ASSIGN = re.compile(r"\bself\.(\w+)[ \t]*(?::[ \t]*([^=\n]+))?=(?!=)[ \t]*([^\n]*)")
_CLASS_ANNOTATION = re.compile(r"\s*(\w+)[ \t]*:[ \t]*([^=\n]+)")
_PARAMETER = re.compile(r"(\w+)[ \t]*:[ \t]*([^,=)\n]+)")
_CALL = re.compile(r"([A-Za-z_][\w.]*)[ \t]*\(")
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
_PY_EMPTY = re.compile(r"^(pass|\.\.\.|raise NotImplementedError(\(.*\))?|return( None)?)$")
_BRACE_EMPTY = re.compile(
    r"^(return;?|todo!\(.*\);?|unimplemented!\(.*\);?|panic!?\(.*\);?"
    r"|throw new \w*Error\(.*\);?|throw \w*Exception\(.*\);?|throw new \w*Exception\(.*\);?)$"
)
# A placeholder a TODO stub returns or raises (`// TODO Auto-generated method stub` +
# `return null;`, Go's `return 0, errors.New("TODO")`, C++ `throw std::logic_error("TODO")`,
# `assert False, "TODO"`, `abort(); /* TODO */`): still to be written only when marked.
_PLACEHOLDER = re.compile(
    r"^(?:(?:return\s+)?(?:null|nil|None|nullptr|NULL|undefined|0|-1|false|False|true|True"
    r"|\"\"|''|\[\]|\{\}|Ok\(\(\)\)|Default::default\(\)|<></>)"
    r"(?:\s*,\s*(?:null|nil|0|false|\"\"|err|(?:errors\.New|fmt\.Errorf)\(.*\)))*"
    r"|return\s+(?:errors\.New|fmt\.Errorf)\(.*\)"
    r"|throw\s+(?:new\s+)?[\w:.]+\(.*\)|throw\s+[\"'`].*[\"'`]"
    r"|(?:std::)?abort\(\)|assert\s*\(\s*(?:0|false)\b.*\)|assert\s+False\b.*)\s*;?$"
)
_PY_STRING = re.compile(
    r"^\s*[rRuUbBfF]{0,2}(\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"[^\"\n]*\"|'[^'\n]*')", re.M
)
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
# (in Python the others are names: `from . import default_hooks as default`)
_PY_IMPORT_WORDS = frozenset({"import", "from", "as"})
_NAME_TYPES = frozenset(
    {
        "identifier",
        "field_identifier",
        "type_identifier",
        "property_identifier",
        "private_property_identifier",
        "namespace_identifier",
        "destructor_name",
        "constant",
    }
)
# C/C++ declarators that wrap the one holding a function's name (`&f()`, `(*f(int))(int)`).
_WRAPPING_DECLARATORS = frozenset(
    {
        "function_declarator",
        "pointer_declarator",
        "reference_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
    }
)


def _declared(decl: Any) -> Any:
    """The name node a C/C++ declarator declares, through the declarators around it: the
    name of `const std::string &Config::get(…)` is `Config::get`, not its last parameter."""
    for _ in range(12):
        if decl is None or decl.type not in _WRAPPING_DECLARATORS:
            return decl
        inner = decl.child_by_field_name("declarator")
        if inner is None:  # `&` and `( )` wrap their declarator without a field name
            inner = next((c for c in decl.named_children if c.type != "type_qualifier"), None)
        decl = inner
    return decl


def _has_methods(obj: Any, functions: frozenset[str], depth: int = 0) -> bool:
    """Whether an object literal has a method (`save() {…}`, `save: () => …`), with
    ``depth``: also in an object it holds (`reducers: { add() {…} }`)."""
    for member in obj.named_children:
        value = _unparen(member.child_by_field_name("value") if member.type == "pair" else member)
        if value is not None and value.type in functions:
            return True
        if (
            depth
            and value is not None
            and value.type == "object"
            and _has_methods(value, functions, depth - 1)
        ):
            return True
    return False


def _unparen(node: Any) -> Any:
    """``node`` without the parentheses around it (`execute: (function () {…})`)."""
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count:
        node = node.named_children[0]
    return node


# A Rust doc attribute (`#[doc = r#"…"#]`, or under a condition: `#[cfg_attr(feature =
# "serde", doc = r##"…"##)]`): documentation, read as a leading comment.
_DOC_ATTRIBUTE = re.compile(
    r"#\[(doc\s*=|cfg_attr\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*,\s*doc\s*=)"
)
# A Rust lint switch (`#[allow(dead_code)]`): read as a leading comment too.
_LINT_ATTRIBUTE = re.compile(r"#\[(allow|warn|deny|forbid|expect)\s*\(")
# A JS directive (`'use strict';`), which a bundle may write after a function's `{`.
_DIRECTIVE = re.compile(r"""(['"])use [\w ]+\1;?\s*(?://.*)?$""")
# What wraps a value without changing it: `await f()`, `(f())`, `f() as T`, `f()!`.
_VALUE_WRAPPERS = frozenset(
    {
        "await_expression",
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
    }
)


def _bare(value: Any) -> Any:
    """``value`` without what wraps it unchanged (``_VALUE_WRAPPERS``), and past the
    assignments it is also stored by (`const A = exports.A = …`, a compiler's export)."""
    while value is not None:
        if value.type == "assignment_expression":
            value = value.child_by_field_name("right")
        elif value.type in _VALUE_WRAPPERS and value.named_child_count:
            value = value.named_children[0]
        else:
            break
    return value


def _one_variable(declaration: Any) -> tuple[Any, Any]:
    """The name and value of a JS declaration of one variable (`var Lib = …`), else Nones."""
    decls = [c for c in declaration.named_children if c.type == "variable_declarator"]
    if len(decls) != 1:
        return None, None
    return decls[0].child_by_field_name("name"), decls[0].child_by_field_name("value")


def _class_members(node: Any) -> Any:
    """The ``class_body`` of a JS class expression, or None."""
    body = node.child_by_field_name("body")
    return body if body is not None and body.type == "class_body" else None


def _anonymous_scope(core: Any, spec: Any) -> Any:
    """Rust: the block of a `const _: () = {` … `};` that holds items (what derive and
    attribute macros expand to, `impl`s in a scope of their own), or None."""
    if core.type != "const_item":
        return None
    name, value = core.child_by_field_name("name"), core.child_by_field_name("value")
    if name is None or node_text(name) != "_" or value is None or value.type != "block":
        return None
    items = spec.functions | spec.containers | spec.bodied
    return value if any(c.type in items for c in value.named_children) else None


def _call_title(statement: Any) -> str:
    """The literal first argument of a call statement (`describe("parse", () => …)`): a
    test runner prints it, and a failing test is asked about by it; else ""."""
    call = statement.named_children[0] if statement.named_child_count else None
    args = call.child_by_field_name("arguments") if call is not None else None
    first = args.named_children[0] if args is not None and args.named_child_count else None
    if first is None or first.type not in ("string", "template_string"):
        return ""
    if any(c.type == "template_substitution" for c in first.named_children):
        return ""
    return re.sub(r"\\([\\'\"`])", r"\1", node_text(first)[1:-1])  # as a runner prints it


def _requires(node: Any) -> bool:
    """Whether ``node`` is CommonJS's import: `const { a, b } = require("x")`, `var y =
    require("x").y`; every name it declares comes from a `require`."""
    if node.type not in ("lexical_declaration", "variable_declaration"):
        return False
    decls = [c for c in node.named_children if c.type == "variable_declarator"]
    for d in decls:
        value = d.child_by_field_name("value")
        while value is not None and value.type in ("member_expression", "parenthesized_expression"):
            value = value.named_children[0] if value.named_child_count else None
        fn = value.child_by_field_name("function") if value is not None else None
        if value is None or value.type != "call_expression" or node_text(fn) != "require":
            return False
    return bool(decls)


def _call_object(value: Any, functions: frozenset[str]) -> Any:
    """The object literal with methods a call passes (`createSlice({ reducers: { add()
    {…} } })`, `Extension.create({ addKeys() {…} })`, `defineComponent({ setup() {…} })`),
    the largest if several, or None: the call's code is in it, so its members are units."""
    value = _bare(value)
    if value is None or value.type not in ("call_expression", "new_expression"):
        return None
    args = value.child_by_field_name("arguments")
    found = [
        a
        for a in (args.named_children if args is not None else ())
        if a.type == "object" and _has_methods(a, functions, depth=2)
    ]
    return max(found, key=lambda a: a.end_byte - a.start_byte, default=None)


def _main_node(code: list[Any]) -> Any:
    """The statement a unit is, where it holds one; with others after it on its last row
    (a bundle's `})();exports.x = x;`), the one that spans rows; else None."""
    if len(code) == 1:
        return code[0]
    spans = [n for n in code if end_row(n) > n.start_point[0]]
    if len(spans) != 1 or spans[0] is not code[0]:
        return None
    return spans[0] if all(n.start_point[0] == end_row(code[0]) for n in code[1:]) else None


# What a C++ block holds where it is a namespace a macro opens, not a function's body.
_DEFINITIONS = frozenset(
    {
        "class_specifier",
        "struct_specifier",
        "union_specifier",
        "namespace_definition",
        "template_declaration",
        "function_definition",
    }
)
_MACRO_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def _has_definition(body: Any) -> bool:
    """Whether a C++ block defines a function, class or template of its own: in a struct
    nested in it too (`struct Signals { struct Changed { static std::string name() … } }`)."""
    for c in body.named_children:
        if c.type in _DEFINITIONS:
            return True
        typ = c.child_by_field_name("type") if c.type == "field_declaration" else None
        if typ is not None and typ.type in _DEFINITIONS:
            inner = typ.child_by_field_name("body")
            if inner is not None and _has_definition(inner):
                return True
    return False


def _macro_block(node: Any) -> bool:
    """Whether a C++ "function" is a macro that opens a namespace (`MSGPACK_API_VERSION_
    NAMESPACE(v1) {` … `}`): no return type, a macro's name, and a body of definitions
    (classes, templates, functions: what no function body holds), read as a block."""
    if node.type != "function_definition" or node.child_by_field_name("type") is not None:
        return False
    decl, body = node.child_by_field_name("declarator"), node.child_by_field_name("body")
    name = decl.child_by_field_name("declarator") if decl is not None else None
    return (
        name is not None
        and name.type == "identifier"
        and _MACRO_NAME.fullmatch(node_text(name)) is not None
        and body is not None
        and _has_definition(body)
    )


def _call_function(value: Any, functions: frozenset[str]) -> Any:
    """The function a call wraps and hands back (`forwardRef((props, ref) => {…})`,
    `memo(function Row() {…})`, `debounce(() => {…}, 100)`, `memo(forwardRef(…)) as T`):
    the one function literal with a ``{ … }`` body among its arguments, or None. Named by
    the variable it is stored in, it is that function, as a decorated one is in Python."""
    for _ in range(4):
        value = _bare(value)
        if value is None or value.type != "call_expression":
            return None
        args = value.child_by_field_name("arguments")
        if args is None or _unparen(value.child_by_field_name("function")).type in functions:
            return None  # (an IIFE: ``callback``'s)
        values = [_unparen(a) for a in args.named_children]
        found = [a for a in values if a.type in functions]
        if found:
            body = found[0].child_by_field_name("body")
            ok = len(found) == 1 and body is not None and body.type == "statement_block"
            return found[0] if ok else None
        calls = [a for a in values if a.type == "call_expression"]
        value = calls[0] if len(calls) == 1 else None
    return None


def _returned_block(body: Any, functions: frozenset[str]) -> Any:
    """The `{ … }` body of the function an arrow's expression body is (a curried `(a) =>
    () => {…}`) or a call there wraps (`({ …props }) => useMemo(() => {…}, [deps])`):
    where the code of such an arrow is, and what it collapses around; else None."""
    for _ in range(4):
        body = _unparen(body)
        if body is not None and body.type == "call_expression":
            body = _call_function(body, functions)
        if body is None or body.type not in functions:
            return None
        body = body.child_by_field_name("body")
        if body is not None and body.type == "statement_block":
            return body
    return None


# Field names under which a statement declares what it defines.
_DECL_FIELDS = ("name", "declarator", "left", "property")
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
    literal: bool = False  # a member of an object literal: a property, no name in scope
    commonjs: bool = False  # `const x = require("x")`: an import, read as a statement too
    order: int = 0
    suite: int = 0  # which suite of the parent (if/else …) this member sits in
    title: str = ""  # a JS test's or suite's title (`it("parses empty input", …)`)
    header_words: frozenset[str] = frozenset()
    # header rows a signature leaves out, as (first, last): the inside of a long literal a
    # decorator is given (a `parametrize` list of cases)
    folds: tuple[tuple[int, int], ...] = ()
    body: Any = None  # Python methods and stubs: the body node, read for ``PART`` when needed
    # Python methods: each ``self.attr = ...`` statement of the body as (attributes,
    # row segments to keep: enclosing headers, then the statement; True marks a header)
    _assigns: tuple[tuple[frozenset[str], tuple[tuple[int, int, bool], ...]], ...] | None = None
    _refs: tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]] | None = None
    _edges: list[tuple[float, Unit]] | None = None  # ``_deps``, once per outline
    _implicit: frozenset[str] = frozenset()  # special methods operators on ``self`` call

    @property
    def collapsible(self) -> bool:
        return self.head_end >= 0

    @property
    def header_last(self) -> int:
        """The last row before what can be cut out of it: its header's last row where the
        body collapses, else the row before it (a statement has no header to keep)."""
        return self.head_end if self.collapsible else self.start - 1

    @property
    def label(self) -> str:
        """Its name, or the first name it defines (Go `type X struct`, a Rust enum)."""
        return self.name or (self.defs[0] if self.defs else "")

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
    quiet_rows: set[int]  # rows an opened container leaves out: floating comments, guards
    top: dict[str, list[Unit]] = field(default_factory=dict)
    members: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)
    any_member: dict[str, list[Unit]] = field(default_factory=dict)
    attr_defs: dict[tuple[str, str], list[Unit]] = field(default_factory=dict)
    types: dict[str, list[Unit]] = field(default_factory=dict)
    bases: dict[str, list[str]] = field(default_factory=dict)
    tree: Any = None  # the syntax tree the units were read from
    # ``focal.nested_definitions`` by the focus's names, rows and prose
    nested: dict[tuple[frozenset[str], frozenset[int], str], dict[Unit, list[int]]] = field(
        default_factory=dict, repr=False
    )
    # ``focal.users_elsewhere`` by focus
    users: dict[Focus, list[Unit]] = field(default_factory=dict, repr=False)
    # ``attribute_types`` by class
    held: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Focus:
    """What the conversation points at, for one block."""

    strong: frozenset[str] = frozenset()  # names in backticks, code-shaped, tracebacks
    weak: frozenset[str] = frozenset()  # other words of the prose
    qualified: frozenset[tuple[str, str]] = frozenset()  # ("Class", "method")
    rows: frozenset[int] = frozenset()  # 0-based rows named by file:line references
    # names the newest user message gives; None where no message is newer than the rest
    current: frozenset[str] | None = None
    # names the focal code of another file pasted beside this one uses, bare (`Model`) and
    # as members (`m.total()`): their definitions here are that code's context
    uses: frozenset[str] = frozenset()
    uses_members: frozenset[str] = frozenset()
    # names the focal code of another pasted file defines: code here that uses them (its
    # tests, its call sites) is context for it
    defined_elsewhere: frozenset[str] = frozenset()
    # the prose itself (without the tests a run reports as passed), for what is named by
    # no identifier: a failing test's title
    prose: str = ""
    # (file, name) of each stack frame that alone names its function: a frame of another
    # file (the caller's `main` in `cli.py`) names no namesake in this one
    frames: frozenset[tuple[str, str]] = frozenset()
    # (file, line, name) of each stack frame that gives its line
    frame_lines: frozenset[tuple[str, int, str]] = frozenset()


# ---------------------------------------------------------------------------- outline


# Literals a signature folds inside decorators, and the rows inside them it takes to fold.
_FOLDED = frozenset({"list", "tuple", "dictionary", "set"})
_FOLD_ROWS = 3


def _folds(decorated: Any) -> list[tuple[int, int]]:
    """The rows inside each outermost long literal the decorators of ``decorated`` are
    given whose brackets stand on lines of their own (`[` … `],`): what an elision inside
    the brackets can stand for while the header still parses."""
    out: list[tuple[int, int]] = []
    todo = [d for d in decorated.named_children if d.type == "decorator"]
    while todo:
        node = todo.pop()
        kids = [c for c in node.named_children if c.type != "comment"]
        top, bottom = node.start_point[0], node.end_point[0]
        if (
            node.type in _FOLDED
            and kids
            and kids[0].start_point[0] > top
            and kids[-1].end_point[0] < bottom
            and bottom - top - 1 >= _FOLD_ROWS
        ):
            out.append((top + 1, bottom - 1))
        else:
            todo.extend(node.named_children)
    return sorted(out)


def node_at(outline: Outline, row: int) -> Any:
    """The syntax node where ``row``'s code starts (its first non-blank column)."""
    line = outline.lines[row]
    col = len(line) - len(line.lstrip())
    return outline.tree.root_node.descendant_for_point_range((row, col), (row, col))


def started_on(outline: Outline, row: int, types: frozenset[str]) -> Any:
    """The node of one of ``types`` that ``row``'s code starts (the innermost node there,
    or an ancestor starting on the same row); None where there is none."""
    node = node_at(outline, row)
    while node is not None and node.type not in types:
        node = node.parent if node.parent and node.parent.start_point[0] == row else None
    return node


def _comments_before(block: Any) -> list[Any]:
    """Python's comments between a header's `:` and its block: tree-sitter places them
    beside the block, not in it, yet they lead its first statement (or float apart)."""
    out: list[Any] = []
    prev = block.prev_sibling
    while prev is not None and prev.type == "comment":
        out.insert(0, prev)
        prev = prev.prev_sibling
    return out


# Rows an outer namespace may hold after an inner one opened on its row closes: kept with
# the closing braces when the inner one opens as the block.
_CLOSING_ROWS = 4


def end_row(node: Any) -> int:
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else int(row)


def indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _prefix(lines: list[str], row: int, col: int) -> str:
    line = lines[row]
    return line[:col] if line.isascii() else line.encode()[:col].decode("utf-8", "replace")


def _split_substitution(string: Any, first: int, last: int) -> bool:
    """Whether a `${…}` / `{…}` of ``string`` runs from row ``first`` or into row ``last``:
    eliding the rows between would cut it."""
    return any(
        c.start_point[0] <= first < end_row(c) or c.start_point[0] < last <= end_row(c)
        for c in string.named_children
        if c.type in ("template_substitution", "interpolation")
    )


def _suffix(lines: list[str], row: int, col: int) -> str:
    line = lines[row]
    return line[col:] if line.isascii() else line.encode()[col:].decode("utf-8", "replace")


# Delimiters a collapsible value opens and closes (brackets; multi-line JS template literals
# and Python strings, their content elided), and the fields leading to one.
_CLOSE = {"{": "}", "[": "]", "(": ")", "`": "`", "string_start": "string_end"}
# (of those, a string's: `const help = \`Usage: …` … `… --verbose\``, text on both rows)
_QUOTES = frozenset({"`", "string_start"})
_VALUE_FIELDS = frozenset({"right", "value", "arguments", "declarator", "declaration"})
# (Go: what wraps a value as its operand: `&T{…}`, a conversion `[]byte(…)`)
_OPERAND_VALUES = frozenset({"unary_expression", "type_conversion_expression"})
# Function literals a value may call as it is computed (`func() T {…}()`, `[] {…}()`)
_LAMBDAS = frozenset({"func_literal", "lambda_expression"})

# Go: the import whose leading comment is the cgo preamble (C code, not documentation).
_CGO_IMPORT = re.compile(r'import\s+"C"\s*$')
# Go: `//go:build linux` and the older `// +build linux` decide whether the file compiles
_GO_CONSTRAINT = re.compile(r"//(?:go:build |\s*\+build )")


_MACRO_STATIC = re.compile(r"\bstatic\s+(?:ref\s+)?(?:mut\s+)?([A-Za-z_]\w*)\s*:")


def decl_names(node: Any, depth: int = 0) -> list[str]:
    """The names a declaration or assignment node binds (`const a = …`, `int *p, q;`)."""
    out: list[str] = []
    if depth > 5:
        return out
    if node.type == "macro_invocation":  # Rust `thread_local! { static X: … }`, lazy_static!
        return _MACRO_STATIC.findall(node_text(node))
    if node.type == "type_alias_statement":  # `type Pair[T] = …` binds `Pair`, not `T`
        left = node.child_by_field_name("left")
        return IDENT.findall(node_text(left))[:1] if left is not None else out
    for i, child in enumerate(node.children):
        fname = node.field_name_for_child(i)
        if child.type in ("operator_name", "operator_cast"):
            out.append(_operator_of(child))
        elif child.type in _NAME_TYPES and (fname in _DECL_FIELDS or node.type == "enumerator"):
            out.append(node_text(child))
        elif fname in _DECL_FIELDS and child.is_named:
            if child.type in ("object_pattern", "array_pattern"):
                # `const { join, resolve } = require("path")`, `const [ref, setRef] = …`:
                # the names bound, not what a default value names (`color = 'gray'`)
                out.extend(_bound(child))
            elif child.type in ("pattern_list", "tuple_pattern", "list_pattern", "tuple"):
                out.extend(IDENT.findall(node_text(child)))
            else:
                out.extend(decl_names(child, depth + 1) or IDENT.findall(node_text(child))[-1:])
        elif child.type in _DECL_DESCEND:
            out.extend(decl_names(child, depth + 1))
    return out


def _bound(pattern: Any, depth: int = 0) -> list[str]:
    """The names a JS / TS destructuring pattern binds, item by item."""
    out: list[str] = []
    for c in pattern.named_children if depth < 8 else ():
        out.extend(pattern_binds(c, depth))
    return out


def pattern_binds(item: Any, depth: int = 0) -> list[str]:
    """The names one JS / TS parameter or destructured item binds: a shorthand prop,
    the value of `key: name`, the left side of a default (`key: alias = fallback` binds
    `alias` only), a rest element; what a default value names is not bound."""
    if item.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [node_text(item)]
    if item.type in ("rest_pattern", "object_pattern", "array_pattern"):
        return _bound(item, depth + 1)
    field = _BINDS_IN.get(item.type)
    inner = item.child_by_field_name(field) if field and depth < 8 else None
    return pattern_binds(inner, depth + 1) if inner is not None else []


# the field of a JS / TS pattern item that holds what it binds
_BINDS_IN = {
    "object_assignment_pattern": "left",
    "assignment_pattern": "left",
    "pair_pattern": "value",
    "required_parameter": "pattern",
    "optional_parameter": "pattern",
}


class _Builder:
    def __init__(self, lang: str, lines: list[str]) -> None:
        self.lang = lang
        self.spec = SPECS[lang]
        self.lines = lines
        self.units: list[Unit] = []
        self.quiet_rows: set[int] = set()
        self.bases: dict[str, list[str]] = {}

    # -- names -------------------------------------------------------------------
    def def_name(self, core: Any) -> tuple[str, str | None]:
        """(name, owner) of a function or class node; owner from ``A::f`` or Go receivers."""
        name_node = core.child_by_field_name("name")
        owner = None
        if name_node is None:
            name_node = _declared(core.child_by_field_name("declarator"))
        if core.type == "method_declaration" and self.lang == "go":
            recv = core.child_by_field_name("receiver")
            if recv is not None:
                # `(s *Stack[T])`: the type, not its parameter
                words = IDENT.findall(node_text(recv).split("[")[0])
                owner = words[-1] if words else None
        if core.type == "impl_item":
            typ = core.child_by_field_name("type")
            words = IDENT.findall(node_text(typ)) if typ is not None else []
            return "", words[0] if words else None
        if name_node is None:
            return "", owner
        if name_node.type == "qualified_identifier":
            # `Registry<S>::size`, `a::B::f`: the owner is the last scope's type name
            while name_node.type == "qualified_identifier":
                scope = name_node.child_by_field_name("scope")
                inner = name_node.child_by_field_name("name")
                if inner is None:
                    break
                if scope is not None:
                    base = IDENT.findall(node_text(scope).split("<")[0].split("::")[-1])
                    owner = base[-1] if base else owner
                name_node = inner
        if name_node.type in ("template_function", "template_method", "template_type"):
            # `f<int>`, a specialisation `struct Traits<Widget>`: the template's name
            name_node = name_node.child_by_field_name("name") or name_node
        if name_node.type in ("operator_name", "operator_cast"):
            return _operator_of(name_node), owner
        text = node_text(name_node)
        if "::" in text:
            parts = [p for p in re.split(r"::", text) if p]
            base = IDENT.findall(parts[-2]) if len(parts) > 1 else []
            owner = base[-1] if base else owner
            text = parts[-1] if parts else text
        words = IDENT.findall(text)
        name = words[-1] if words else text
        # a C++ destructor is `~Box`: asked about, it is not the class or its constructor
        return ("~" + name if text.lstrip().startswith("~") else name), owner

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
                if inner is None or (
                    core.type == "friend_declaration"  # C++: a function, not `friend class Q;`
                    and inner.type not in spec.functions | spec.bodied
                ):
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
                    # a chain stores it by each name (`module.exports = exports =
                    # internals.Template = class {`): the last is the code's own
                    while right is not None and right.type == inner.type:
                        left, right = (
                            right.child_by_field_name("left"),
                            right.child_by_field_name("right"),
                        )
                    if right is not None and right.type in spec.functions | spec.containers:
                        words = IDENT.findall(node_text(left)) if left is not None else []
                        return right, (words[-1] if words else None)
                break
            if core.type in ("field_definition", "public_field_definition"):
                # a class field holding a function (`handleSubmit = (e) => { … }`): a method;
                # one holding a class (`private Helper = class implements T { … }`): a class
                value = core.child_by_field_name("value")
                key = core.child_by_field_name("property") or core.child_by_field_name("name")
                if value is not None and value.type in spec.functions | spec.containers and key:
                    return value, node_text(key)
                break
            if core.type == "pair":
                value, key = (
                    _unparen(core.child_by_field_name("value")),
                    core.child_by_field_name("key"),
                )
                if value is not None and value.type in spec.functions:
                    words = IDENT.findall(node_text(key)) if key is not None else []
                    return value, (words[-1] if words else None)
                break
            if core.type in ("lexical_declaration", "variable_declaration") and not spec.python:
                name, value = _one_variable(core)
                value = _bare(value)  # (`const f = function () { … } as T`)
                if value is not None and value.type in spec.functions | spec.containers:
                    return value, node_text(name) if name is not None else None
                break
            break
        return core, None

    def callback(self, node: Any) -> Any:
        """JS family: the function holding a top-level call's code -- `(() => { … })()`,
        UMD factories, `describe("…", () => { … })`, a bundle's `var Lib = (function
        (exports) { … })({})` (one that defines functions: not a value it computes,
        `var table = (function () { … return t; }())`) -- or None."""
        if self.lang not in ("javascript", "typescript", "tsx"):
            return None
        if node.type == "expression_statement":
            expr = node.named_children[0] if node.named_child_count else None
        elif node.type in ("lexical_declaration", "variable_declaration"):
            expr = _one_variable(node)[1]
            # Babel's CommonJS: `const create = exports.create = (0, _factory.factory)(…, _ref
            # => {` (a function that defines functions, as for any variable below)
            while expr is not None and expr.type == "assignment_expression":
                expr = expr.child_by_field_name("right")
        else:
            return None
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
        for a in args.named_children if args is not None else ():
            a = _unparen(a)  # a UMD factory: `(this, (function (exports) {…}))`
            if a.type in self.spec.functions:
                cands.append(a)
        best = max(cands, key=lambda f: f.end_byte - f.start_byte, default=None)
        body = best.child_by_field_name("body") if best is not None else None
        if body is None or body.type != "statement_block":
            return None
        if node.type != "expression_statement" and not any(
            self.defines_function(c) for c in body.named_children
        ):
            return None
        return best

    def defines_function(self, node: Any) -> bool:
        """Whether a JS statement defines a function or class: a declaration, or a variable
        holding one (`const create = () => {…}`)."""
        if node.type in self.spec.functions or node.type in self.spec.containers:
            return True
        if node.type not in ("lexical_declaration", "variable_declaration"):
            return False
        value = _bare(_one_variable(node)[1])
        return value is not None and value.type in self.spec.functions

    def held_function(self, core: Any) -> tuple[Any, tuple[str, ...]] | None:
        """JS family: the function a variable or class field holds through a wrapping call
        (``_call_function``), with the names the variable binds (a factory's `const {
        DragProvider, useDragContext } = createProvider('Drag')(…)`: both, the first its
        name); or a module's default export so held (`export default forwardRef(function
        Container(…) {…})`), by its own name (no names). None where the call passes an
        object with methods (``_call_object``'s)."""
        if self.lang not in ("javascript", "typescript", "tsx"):
            return None
        if core.type in ("lexical_declaration", "variable_declaration"):
            name, value = _one_variable(core)
        elif core.type in ("field_definition", "public_field_definition"):
            value = core.child_by_field_name("value")
            name = core.child_by_field_name("property") or core.child_by_field_name("name")
        elif core.type == "call_expression" and core.parent.type == "export_statement":
            name, value = None, core
        else:
            return None
        if name is None:
            names: tuple[str, ...] = ()
        elif name.type in ("identifier", "property_identifier"):
            names = (node_text(name),)
        elif name.type in ("object_pattern", "array_pattern"):
            names = tuple(dict.fromkeys(_bound(name)))
        else:
            return None
        if (name is not None and not names) or _call_object(value, self.spec.functions):
            return None
        fn = _call_function(value, self.spec.functions)
        if fn is None or (name is None and fn.child_by_field_name("name") is None):
            return None
        return fn, names

    def brace_body(self, unit: Unit, body: Any) -> None:
        """Make ``unit`` collapsible around a ``{ … }`` body when its braces sit on own lines."""
        lines = self.lines
        open_row, close_row = body.start_point[0], end_row(body)
        if close_row <= open_row + 1 or open_row < unit.start or close_row > unit.last:
            return
        after = _suffix(lines, open_row, body.start_point[1] + 1).strip()
        if after and not after.startswith(("//", "/*")) and not _DIRECTIVE.match(after):
            return
        if _prefix(lines, close_row, body.end_point[1] - 1).strip():
            return
        self.brace_indent(unit, open_row, close_row)

    def brace_indent(self, unit: Unit, open_row: int, close_row: int) -> None:
        """Collapse ``unit`` between the two rows; the elision takes the body's indentation."""
        lines = self.lines
        inner = next((lines[r] for r in range(open_row + 1, close_row) if lines[r].strip()), None)
        if inner is not None:
            indent = indent_of(inner)
        else:
            step = "\t" if self.lang == "go" or lines[open_row].startswith("\t") else "    "
            indent = indent_of(lines[unit.start]) + step
        unit.head_end, unit.close, unit.indent = open_row, close_row, indent

    def value_body(self, unit: Unit, node: Any) -> None:
        """Make a statement collapsible around the bracketed value it assigns or passes
        (``X = {`` … ``}``, ``var t = map[K]V{`` … ``}``, ``setup(`` … ``)``) when the brackets
        end and start their lines: the head still defines the statement's names, and one
        elision inside brackets parses wherever a value does."""
        lines, todo = self.lines, [node]
        for _ in range(8):  # `export const X = f({ … } as const)` is 7 deep
            nxt = []
            for n in todo:
                kids = n.children
                if len(kids) > 1 and _CLOSE.get(kids[0].type) == kids[-1].type:
                    a, b = kids[0], kids[-1]
                    open_row, close_row = a.start_point[0], b.start_point[0]
                    after = _suffix(lines, open_row, a.end_point[1]).strip()
                    # a string's rows keep their text: only its inner rows give way
                    text = a.type in _QUOTES and not _split_substitution(n, open_row, close_row)
                    if (
                        unit.start <= open_row
                        and close_row > open_row + 1
                        and close_row <= unit.last
                        and (not after or after.startswith(("//", "/*", "#")) or text)
                        and (not _prefix(lines, close_row, b.start_point[1]).strip() or text)
                    ):
                        head = IDENT.findall("\n".join(lines[unit.start : open_row + 1]))
                        if not set(unit.defs) - set(head):
                            self.brace_indent(unit, open_row, close_row)
                        return
                for i, c in enumerate(kids):
                    fname = n.field_name_for_child(i)
                    if fname in _VALUE_FIELDS or (
                        fname is None and c.is_named and n.named_child_count == 1
                    ):
                        nxt.append(c)
                    elif fname == "body" and n.type == "composite_literal":
                        nxt.append(c)  # Go: `T{` … `}`
                    elif fname == "operand" and n.type in _OPERAND_VALUES:
                        nxt.append(c)  # Go: `&T{` … `}`, `[]byte(\`` … \``)`
                    elif not self.spec.python and (
                        (fname == "function" and n.type == "call_expression")
                        or (fname == "body" and n.type in self.spec.functions | _LAMBDAS)
                    ):
                        # a function the value is or computes as it is called: `var matchers =
                        # function () {` … `}();` (an IIFE), Go's `var x = func() T {` … `}()`,
                        # `var __rest = (this && this.__rest) || function (s, e) {` … `};`
                        nxt.append(c)
            todo = nxt

    def union_body(self, unit: Unit, core: Any) -> None:
        """Make a type alias of a union written one member per line (``type X =`` /
        ``| A`` / ``| B`` …) collapsible after its first member: the head still names the
        type, and what is left of the union parses."""
        lines, value = self.lines, core.child_by_field_name("value")
        if value is None or value.type != "union_type":
            return
        while value.named_child_count and value.named_children[0].type == "union_type":
            value = value.named_children[0]
        if not value.named_child_count:
            return
        first = value.named_children[0]
        row = end_row(first)
        after = _suffix(lines, row, first.end_point[1]).strip()
        if (
            unit.start <= row < unit.last
            and (not after or after.startswith(("//", "/*")))
            and lines[row + 1].lstrip().startswith("|")
            and not set(unit.defs) - set(IDENT.findall("\n".join(lines[unit.start : row + 1])))
        ):
            unit.head_end, unit.close, unit.indent = row, -1, indent_of(lines[row + 1])

    def python_body(self, unit: Unit, core: Any, body: Any) -> None:
        colon_row = -1
        for child in core.children:
            if child.type == ":" and child.start_byte < body.start_byte:
                colon_row = child.start_point[0]
        if colon_row < 0 or body.start_point[0] <= colon_row:
            return
        unit.head_end = colon_row
        unit.indent = indent_of(self.lines[body.start_point[0]])
        if core.parent is not None and core.parent.type == "decorated_definition":
            unit.folds = tuple(_folds(core.parent))

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
        python = self.spec.python
        # most bodies show they are not empty on their last line of code: no need to read
        # the rest (a line ending in a quote or a comment may close a string or comment)
        empty = _PY_EMPTY if python else _BRACE_EMPTY
        for r in range(end - 1, unit.head_end, -1):
            last = _LINE_COMMENT[python].sub("", self.lines[r]).strip()
            if last:
                if not last.endswith(("'", '"', "*/")) and not (
                    empty.match(last) or _PLACEHOLDER.match(last)
                ):
                    return 0
                break
        body = "\n".join(self.lines[unit.head_end + 1 : end])
        marked = bool(_NOT_IMPLEMENTED.search(body))
        text = _LINE_COMMENT[python].sub("", body)
        if python:
            text = _PY_STRING.sub("", text)
        rest = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not all(empty.match(ln) for ln in rest):
            # a marked stub may return a placeholder; unmarked, that is a real body
            return 2 if marked and all(_PLACEHOLDER.match(ln) for ln in rest) else 0
        if not python and not marked:
            return 1
        return 2 if marked or any("NotImplemented" in ln for ln in rest) else 1

    def innermost_namespace(self, core: Any) -> Any:
        """``namespace a { namespace b {`` on one line, or closed together (``}}  //
        namespace a::b``): the inner body is the one whose braces own their lines, so the
        pair opens (and trims) as one block. So too where the outer one holds a few rows
        after the inner one closes (``}} // namespace vc::amd64`` / ``using namespace
        vc::amd64;`` / ``}}}``): they are kept with its closing rows."""
        while True:
            body = core.child_by_field_name("body")
            if body is None:
                return core
            inner = [c for c in body.named_children if c.type not in self.spec.comments]
            if (
                not inner
                or inner[0].type != "namespace_definition"
                or inner[0].child_by_field_name("body") is None
            ):
                return core
            opens_with = inner[0].start_point[0] == body.start_point[0]
            after = end_row(body) - end_row(inner[0])  # rows the outer one holds after it
            alone = len(inner) == 1 and (opens_with or after == 0)
            if not (alone or (opens_with and after <= _CLOSING_ROWS)):
                return core
            core = inner[0]

    def include_guard(self, core: Any, members: list[Any]) -> bool:
        """Whether a file's top-level ``#ifndef`` is its include guard."""
        name = core.child_by_field_name("name")
        define = members[0] if members else None
        return (
            core.type == "preproc_ifdef"
            and core.parent is not None
            and core.parent.type == "translation_unit"
            and name is not None
            and node_text(core.children[0]).strip() == "#ifndef"
            and core.child_by_field_name("alternative") is None
            and define is not None
            and define.type == "preproc_def"
            and define.child_by_field_name("value") is None
            and node_text(define.child_by_field_name("name")) == node_text(name)
            and end_row(core) > end_row(define)
            and self.lines[end_row(core)].lstrip().startswith("#endif")
        )

    def suites(self, core: Any) -> list[list[Any]]:
        """Member nodes of a container, one list per suite (``if`` / ``else`` bodies …)."""
        if core.type.startswith("preproc_"):
            members = []
            for i, child in enumerate(core.children):
                fname = core.field_name_for_child(i)
                if child.is_named and fname not in ("name", "condition"):
                    members.append(child)
            if self.include_guard(core, members):
                # `#ifndef X_H` / `#define X_H` … `#endif`: what an excerpt of the header
                # needs none of (guard names run to 60 characters), unless it is kept whole
                guard = members.pop(0)
                self.quiet_rows.update(
                    (core.start_point[0], *range(guard.start_point[0], end_row(guard) + 1))
                )
                self.quiet_rows.add(end_row(core))
            return [members]
        if self.spec.python and core.type in ("if_statement", "try_statement"):
            out = []
            for child in core.children:
                if child.type == "block":
                    out.append([*_comments_before(child), *child.children])
                elif child.type.endswith("_clause"):
                    for sub in child.children:
                        if sub.type == "block":
                            out.append([*_comments_before(sub), *sub.children])
            return out
        if core.type == "object" or (self.lang == "rust" and core.type == "block"):
            return [list(core.children)]
        body = core.child_by_field_name("body")
        if body is None:
            body = self.find_body(core)
        if body is not None and body.type == "enum_body":
            # Java: the constants and the declarations after them are members, but not the
            # constants on the row of the `;` that ends them: that row stays as written
            decls = [c for c in body.named_children if c.type == "enum_body_declarations"]
            ends = decls[0].children[0] if decls and decls[0].children else None
            stop = ends.start_point[0] if ends is not None and ends.type == ";" else None
            consts = [
                c
                for c in body.named_children
                if c.type != "enum_body_declarations" and (stop is None or end_row(c) < stop)
            ]
            return [consts + ([c for c in decls[0].children if c.type != ";"] if decls else [])]
        if body is None:
            return []
        # `function (exports) { 'use strict';`: the directive is a part of the header row
        row = body.start_point[0]
        return [
            [
                *(_comments_before(body) if self.spec.python else ()),
                *(
                    c
                    for c in body.children
                    if not (
                        c.start_point[0] == row and c.is_named and _DIRECTIVE.match(node_text(c))
                    )
                ),
            ]
        ]

    def make(self, nodes: list[Any], leads: list[Any], parent: Unit, owner: str | None) -> Unit:
        spec, lines = self.spec, self.lines
        # (a Rust doc attribute, `#[doc = r#"…"#]`, is documentation: a leading comment; so
        # is a lint switch over a definition, `#[allow(dead_code)]`, which says nothing of
        # what the code does; over an import it stays, as the import is cut to what is used)
        lint = nodes[0].type not in spec.imports
        attrs = [
            n
            for n in leads
            if n.type in spec.attributes
            and not _DOC_ATTRIBUTE.match(node_text(n))
            and not (lint and _LINT_ATTRIBUTE.match(node_text(n)))
        ]
        first = min([n.start_point[0] for n in leads] + [nodes[0].start_point[0]])
        start = attrs[0].start_point[0] if attrs else nodes[0].start_point[0]
        for n in reversed(leads):
            if end_row(n) == start and _prefix(lines, start, nodes[0].start_point[1]).strip():
                start = n.start_point[0]  # `*/ function f() {`: the comment ends in its row
        last = max(end_row(n) for n in nodes)
        # (an empty statement sharing a row, `};` after a namespace, is punctuation)
        code = [n for n in nodes if n.type not in spec.comments and node_text(n).strip() != ";"]
        unit = Unit("stmt", first, start, last, parent=parent, owner=owner)
        unit.order = len(self.units)
        self.units.append(unit)
        main = _main_node(code)
        if main is None:
            names: list[str] = []
            for n in code:
                names.extend(decl_names(n))
            unit.defs = tuple(dict.fromkeys(names))
            return unit
        self.shape(unit, main, owner)
        # what else starts on its last row (`})();exports.x = x;`) is in its lines
        extra = [w for n in code if n is not main for w in decl_names(n)]
        if extra:
            unit.defs = tuple(dict.fromkeys([*unit.defs, *extra]))
        return unit

    def shape(self, unit: Unit, node: Any, owner: str | None) -> Unit:
        """Make ``unit`` what its one statement ``node`` is: a function, a class or a
        container of member units, an import, a collapsible statement."""
        spec, lines = self.spec, self.lines
        core, var_name = self.unwrap(node)
        var_defs: tuple[str, ...] = ()
        declared: list[str] = []
        if self.lang == "cpp" and core.type in (
            "declaration",
            "field_declaration",
            "type_definition",
        ):
            # `class C : public B { … } instance;`, and a struct with methods nested in a
            # class (`struct Node { … };`, a field declaration; one of fields alone is data
            # the class's methods read, kept whole) or named by a typedef (`typedef struct
            # eleminfo { … bool operator==(…) … } elemInfo;`): a class whose members are units
            typ = core.child_by_field_name("type")
            body = typ.child_by_field_name("body") if typ is not None else None
            if (
                typ is not None
                and typ.type in spec.containers
                and body is not None
                and (core.type == "declaration" or _has_definition(body))
            ):
                declared = decl_names(core)
                core = typ
        ctype = core.type
        wrapped = None
        if self.lang == "cpp" and _macro_block(core):
            wrapped, ctype = core, "macro_block"
        elif self.lang == "rust" and (block := _anonymous_scope(core, spec)) is not None:
            core = wrapped = block
            ctype = "scope_body"
        elif ctype not in spec.functions and ctype not in spec.containers:
            wrapped = self.callback(core)  # (`export const x = (() => { … })()` too)
            if wrapped is not None:
                name_node = _one_variable(core)[0] if core.type != "expression_statement" else None
                var_name = node_text(name_node) if name_node is not None else None
                unit.title = _call_title(core)
                core, ctype = wrapped, "call_body"
            elif (held := self.held_function(core)) is not None:
                core, var_defs = held
                var_name, ctype = (var_defs[0] if var_defs else None), core.type
            elif self.lang in ("javascript", "typescript", "tsx"):
                # `export default { … }`, `module.exports = { … }`, `const api = { … }`
                obj = _call_object(core, spec.functions) or core  # `export default f({…})`
                if node.type == "expression_statement" and node.named_child_count == 1:
                    inner = node.named_children[0]
                    if inner.type == "assignment_expression":  # `module.exports = …`
                        obj = inner.child_by_field_name("right") or obj
                        obj = _call_object(obj, spec.functions) or obj
                    else:  # `new Vue({ methods: { … } })`
                        obj = _call_object(inner, spec.functions) or obj
                elif core.type in ("lexical_declaration", "variable_declaration"):
                    # (`export const table = { … }` too: ``core`` is inside the export)
                    var, value = _one_variable(core)
                    value = _call_object(value, spec.functions) or _bare(value)
                    # exported: opened only for its methods, as a module's API
                    if (
                        core is not node
                        and value is not None
                        and value.type == "object"
                        and not _has_methods(value, spec.functions)
                    ):
                        value = None
                    obj = value if value is not None else obj
                    if value is not None and value.type == "object":
                        # `const table = { … }` still defines `table`
                        var_name = node_text(var) if var is not None else None
                elif node.type == "return_statement" and node.named_child_count:
                    # a module pattern's `return { execute: function () { … } }` (SystemJS)
                    value = _unparen(node.named_children[0])
                    if value.type == "object" and _has_methods(value, spec.functions, depth=2):
                        obj = value
                elif node.type == "pair":
                    # `methods: { save() { … } }` (a Vue component): its methods are units
                    # (a table of data stays one statement)
                    value, key = node.child_by_field_name("value"), node.child_by_field_name("key")
                    if (
                        value is not None
                        and value.type == "object"
                        and key is not None
                        and _has_methods(value, spec.functions)
                    ):
                        obj, var_name = value, node_text(key).strip("\"'")
                if obj.type == "object":
                    core, ctype, wrapped = obj, "object_body", obj
        if ctype in spec.imports or node.type in spec.imports:
            unit.kind = "import"
            bound = bound_names(node)
            if bound is None:
                words = IDENT.findall(node_text(node))
                skip = _PY_IMPORT_WORDS if self.spec.python else _IMPORT_WORDS
                bound = [w for w in words if w not in skip]
            unit.defs = tuple(dict.fromkeys(bound))
            return unit
        if _requires(node):
            unit.kind, unit.defs = "import", tuple(dict.fromkeys(decl_names(node)))
            unit.commonjs = True
            return unit
        if ctype in spec.functions:
            unit.kind = "func"
            name, own = self.def_name(core) if var_name is None else (var_name, None)
            unit.name, unit.defs = name, var_defs or ((name,) if name else ())
            label = core.child_by_field_name("name")
            if name and label is not None and label.type == "private_property_identifier":
                unit.defs = (name, "#" + name)  # `#match() {…}`, called as `this.#match()`
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
                elif body.type == "template_string":
                    self.value_body(unit, body)  # `const css = (x) => \`` … \``
                elif body.type == "class" and (members := _class_members(body)) is not None:
                    self.brace_body(unit, members)  # a mixin: `(Base) => class extends Base {`
                elif (inner := _returned_block(body, spec.functions)) is not None:
                    self.brace_body(unit, inner)  # `(a) => () => {` … `}`
            head = "\n".join(
                lines[unit.start : (unit.head_end if unit.collapsible else unit.start) + 1]
            )
            unit.abstract = core.type == "function_signature" or bool(
                re.search(r"abstract|@(?:\w+\.)?overload\b", head)
            )
            unit.header_words = frozenset(IDENT.findall(head))
            unit.empty = self.empty_body(unit)
            if spec.python and (unit.owner or unit.empty) and unit.collapsible:
                unit.body = body
            if self.lang == "go" and core.type == "method_declaration":
                recv = core.child_by_field_name("receiver")
                words = IDENT.findall(node_text(recv)) if recv is not None else []
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
                    "with_statement",
                    "namespace_definition",
                    "linkage_specification",
                    "mod_item",
                    "internal_module",
                    "module",
                    "call_body",
                    "object_body",
                    "macro_block",
                    "scope_body",
                )
            )
            unit.kind = "class" if class_like else "block"
            unit.name = name
            if ctype == "impl_item":
                unit.scope = own
            elif class_like:
                unit.scope = name or None
                unit.defs = tuple(dict.fromkeys(([name] if name else []) + declared))
                if spec.python:
                    sup = core.child_by_field_name("superclasses")
                    if sup is not None and name:
                        self.bases[name] = IDENT.findall(node_text(sup))
            elif name and ctype != "namespace_definition":
                unit.defs = (name,)
            if own and ctype != "impl_item":
                unit.owner = own
            member_owner = unit.scope if class_like else owner
            if ctype == "namespace_definition":
                core = self.innermost_namespace(core)
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
                    child.literal = ctype == "object_body"
                children.extend(built)
            lo, hi = unit.start, unit.last + 1  # children must sit strictly inside (lo, hi)
            if ctype in ("preproc_ifdef", "preproc_if"):
                hi = unit.last
            elif not spec.python and not ctype.startswith("preproc_"):
                body = (
                    core
                    if ctype in ("object_body", "scope_body")
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
                IDENT.findall("\n".join(lines[unit.start : max(unit.start, unit.head_end) + 1]))
            )
            return unit
        names = decl_names(node)
        if (
            not names
            and core is not node
            and (core.type in spec.bodied or core.type == "alias_declaration")
        ):
            # `export type X = …`, `export enum E {…}`, `template <…> using X = …;`
            names = decl_names(core)
        unit.defs = tuple(dict.fromkeys(names))
        if ctype in spec.bodied or node.type in spec.bodied:
            body = self.find_body(core)
            if body is not None and not spec.python:
                self.brace_body(unit, body)
            if not unit.collapsible and ctype == "type_alias_declaration":
                self.union_body(unit, core)
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
                "type_alias_declaration",
            ):
                unit.kind = "class"
                unit.scope = unit.defs[0] if unit.defs else None
        if unit.kind == "stmt" and not unit.collapsible and unit.last - unit.start > 1:
            self.value_body(unit, node)
        return unit

    def members(self, nodes: list[Any], parent: Unit, owner: str | None) -> tuple[list[Unit], bool]:
        """Group sibling nodes into units (shared lines merge; comments attach downward)."""
        spec, lines = self.spec, self.lines
        groups: list[tuple[list[Any], list[Any]]] = []
        pending: list[Any] = []
        floating: list[Any] = []
        clean = True
        last_row = -1  # the last row of the group being built
        for node in nodes:
            if not node.is_named:
                if (
                    node.type not in ("{", "}", ":", ";", ",", "#endif", "#else")
                    and groups
                    and node.start_point[0] <= end_row(groups[-1][0][-1])
                ):
                    groups[-1][0].append(node)
                    last_row = max(last_row, end_row(node))
                continue
            if node.type in spec.structural:
                continue
            srow = node.start_point[0]
            if (
                node.type in spec.comments
                and not groups
                and not pending
                and _prefix(lines, srow, node.start_point[1]).strip()
            ):
                continue  # trails the container's own header (`#ifndef G  // NOLINT`)
            if node.type in spec.comments or node.type in spec.attributes:
                if groups and srow <= last_row and not pending:
                    groups[-1][0].append(node)
                    last_row = max(last_row, end_row(node))
                else:
                    pending.append(node)
                continue
            if groups and srow <= last_row and not pending:
                groups[-1][0].append(node)
                last_row = max(last_row, end_row(node))
                continue
            lead: list[Any] = []
            expect = srow
            for i in range(len(pending) - 1, -1, -1):
                p = pending[i]
                if (
                    p.type in spec.comments
                    and _prefix(lines, *p.start_point).strip()
                    and (i == 0 or end_row(pending[i - 1]) < p.start_point[0])
                ):
                    break  # it trails its row's code (`private: // data members`), not a comment
                if p.type in spec.attributes or end_row(p) >= expect - 1:
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
            last_row = end_row(node)
        floating.extend(pending)
        quiet: Any = None  # the last comment found quiet
        for c in floating:
            srow, erow = c.start_point[0], end_row(c)
            if self.lang == "go" and _GO_CONSTRAINT.match(node_text(c)):
                continue  # a build constraint is not a comment: it stays (a structural row)
            before = _prefix(lines, srow, c.start_point[1])
            if quiet is not None and quiet.end_point[0] == srow:
                # chained on the row the last one ends (`*//* note *//*`, code commented
                # out around its own comments): quiet with it, or its rows would dangle
                before = before[len(_prefix(lines, srow, quiet.end_point[1])) :]
            if not before.strip():
                self.quiet_rows.update(range(srow, erow + 1))
                quiet = c
        units = []
        for group_nodes, lead in groups:
            head = lead[0] if lead else group_nodes[0]  # `/* package */ Token() {`: the comment
            if _prefix(lines, head.start_point[0], head.start_point[1]).strip():
                clean = False
            tail = group_nodes[-1]
            rest = (
                _suffix(lines, end_row(tail), tail.end_point[1]).strip()
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
    outline = Outline(lang, builder.spec, lines, root, builder.units, builder.quiet_rows)
    outline.bases = builder.bases
    outline.tree = tree
    _index(outline)
    return outline


def _walk(unit: Unit) -> Iterable[Unit]:
    for child in unit.children or ():
        yield child
        yield from _walk(child)


def _index(outline: Outline) -> None:
    # Go's and Rust's `_` binds nothing (`var _ = Describe(…)`, `const _: () = …`): code
    # that writes it (`for _, s := range xs`) uses none of them
    blank = "_" if outline.spec.name in ("go", "rust") else None
    for unit in outline.units:
        for name in unit.defs:
            if name == blank:
                continue
            if unit.owner is None:
                outline.top.setdefault(name, []).append(unit)
            else:
                outline.members.setdefault((unit.owner, name), []).append(unit)
                outline.any_member.setdefault(name, []).append(unit)
        if unit.kind == "class" and unit.scope:
            outline.types.setdefault(unit.scope, []).append(unit)
        if unit.kind == "class" and unit.scope and not unit.defs:  # impl blocks
            outline.types.setdefault(unit.scope, []).append(unit)
        if unit.kind != "func":
            continue
        text = "\n".join(outline.lines[unit.start : unit.last + 1])
        if outline.spec.python and "global" in text:
            for names in _PY_GLOBAL.findall(text):
                for name in IDENT.findall(names):
                    outline.top.setdefault(name, []).append(unit)
        if unit.owner and outline.spec.name != "go":
            pattern = PY_SELF_ASSIGN if outline.spec.python else _JS_THIS_ASSIGN
            for attr in dict.fromkeys(pattern.findall(text)):
                outline.attr_defs.setdefault((unit.owner, attr), []).append(unit)


# ---------------------------------------------------------------------------- relations


def refs(
    outline: Outline, unit: Unit
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, str], ...]]:
    if unit._refs is None:
        end = unit.last if unit.children is None else max(unit.start, unit.head_end)
        text = "\n".join(outline.lines[unit.start : end + 1])
        bare = bare_names(text)
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


# Node types whose text is prose, not code: comments and string literals (what a string
# interpolates is code again).
_PROSE_NODE = re.compile(r"comment|string|char_literal|text_block")
_CODE_IN_STRING = frozenset({"interpolation", "template_substitution", "string_interpolation"})


def _cast_type(node: Any) -> bool:
    """Whether ``node`` is the type a Python ``cast("T", x)`` names in a string: code."""
    if node.type != "string":  # (first: reading a parent costs a walk from the root)
        return False
    args = node.parent
    if args is None or args.type != "argument_list":
        return False
    call = args.parent
    fn = call.child_by_field_name("function") if call is not None else None
    return (
        fn is not None
        and node_text(fn).rsplit(".", 1)[-1] == "cast"
        and args.named_children[0] == node
    )


def _split(outline: Outline, first: int, last: int) -> tuple[str, str]:
    """Rows ``first`` to ``last`` twice: with their comments and string literals blanked
    (code), and with all else blanked (prose). What a string interpolates is code, and so
    is a string in a Python type annotation (``x: "Client"``, ``cast("Client", x)``)."""
    rows = [line.encode() for line in outline.lines[first : last + 1]]
    offset = list(itertools.accumulate((len(r) + 1 for r in rows), initial=0))
    source = b"\n".join(rows)
    code = bytearray(source)
    prose = bytearray(b" " * len(source))

    def at(point: tuple[int, int]) -> int:
        row, col = point
        if row < first:
            return 0
        return len(code) if row > last else min(len(code), offset[row - first] + col)

    def interpolated(node: Any) -> None:
        # (at any depth: the parts of `f"{a}" f"{b}"` are strings in a string)
        for inner in node.children:
            if inner.type in _CODE_IN_STRING:
                a, b = at(inner.start_point), at(inner.end_point)
                code[a:b], prose[a:b] = source[a:b], b" " * (b - a)
            else:
                interpolated(inner)

    def walk(node: Any, annotation: bool) -> None:
        for child in node.children:
            if child.end_point[0] < first or child.start_point[0] > last:
                continue
            typed = annotation or child.type == "type" or _cast_type(child)
            if _PROSE_NODE.search(child.type) and not typed:
                a, b = at(child.start_point), at(child.end_point)
                code[a:b], prose[a:b] = b" " * (b - a), source[a:b]
                interpolated(child)
            else:
                walk(child, typed)

    if outline.tree is not None:
        walk(outline.tree.root_node, False)
    return code.decode(errors="replace"), prose.decode(errors="replace")


def defined_names(outline: Outline) -> set[str]:
    """The names a top-level definition binds (an import binds a name, but defines none)."""
    return {w for w, units in outline.top.items() if any(u.kind != "import" for u in units)}


def bare_names(text: str) -> frozenset[str]:
    """The names ``text`` says bare, not as a member (`DateUtils.getDaysInMonth` says
    `DateUtils`): the words by which code can use a definition of the file."""
    return frozenset(_BARE.findall(text))


def member_names(text: str) -> frozenset[str]:
    """The names ``text`` reads as members (`props.onDragStart` reads `onDragStart`)."""
    return frozenset(b for _, b in _PAIR.findall(text))


def code_names(outline: Outline, unit: Unit) -> frozenset[str]:
    """The bare names ``refs`` reads in ``unit``, less those only its comments and string
    literals (a docstring) contain: the names it really uses."""
    end = unit.last if unit.children is None else max(unit.start, unit.head_end)
    code, _ = _split(outline, unit.start, end)
    return refs(outline, unit)[0] & bare_names(code)


def in_scope(u: Unit, user: Unit) -> bool:
    """Whether ``u`` is visible to ``user``: not a local of a test or suite
    (`it("…", () => { const res = … })`) that ``user`` is not inside."""
    p = u.parent
    while p is not None:
        if p.title and p is not user and p not in ancestors(user):
            return False
        p = p.parent
    return True


def with_body(unit: Unit) -> list[Unit]:
    """``unit``, and for a test or suite (`it("…", () => { … })`) every unit inside it:
    its code is in those, so what it uses is what they use."""
    out, todo = [unit], list(unit.children or ()) if unit.title else []
    while todo:
        u = todo.pop()
        out.append(u)
        todo.extend(u.children or ())
    return out


def code_row(outline: Outline, row: int) -> str:
    """``row`` with its comments and string literals blanked: a docstring's `:type id:`
    is not TypeScript's `type id`."""
    return _split(outline, row, row)[0]


def doc_text(outline: Outline, unit: Unit) -> str:
    """The comments and string literals of ``unit``, its leading comment included."""
    return _split(outline, unit.first, unit.last)[1]


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
    bare, selfs, pairs = refs(outline, unit)
    owner = _class_of(unit) if unit.kind != "class" else unit.scope
    out: list[tuple[float, Unit]] = []
    top, members = outline.top, outline.members
    for w in bare:
        for u in _nearest(top.get(w, ()), unit.order):
            if in_scope(u, unit):
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
                    ranked = sorted(defs, key=definer_order)
                    out.append((1.0, ranked[0]))
                    out.extend((2.0, u) for u in ranked[1:])
                    hit = True
                    break
            if not hit:
                out.extend((1.0, u) for u in _nearest(outline.types.get(owner, ()), unit.order))
    # a receiver of unknown type is more likely of a type the unit names or its own
    typed = {w for w in (*bare, *(a for a, _ in pairs)) if w in outline.types}
    if owner:
        typed.add(owner)
    held = attribute_types(outline, owner) if owner else {}
    for a, b in pairs:
        if a in held and a in selfs:  # `self.client.get`, `self.client` a `Client`
            for o in (held[a], *outline.bases.get(held[a], ())):
                found = outline.attr_defs.get((o, b), ())
                defs = members.get((o, b)) or sorted(found, key=definer_order)[:1]
                out.extend((1.0, u) for u in _nearest(defs, unit.order))
                if defs:
                    break
        elif a in outline.types:
            for u in _nearest(members.get((a, b), ()), unit.order):
                out.append((1.0, u))
        elif a not in unit.self_words:
            cands = outline.any_member.get(b, ())
            mine = [u for u in cands if u.owner in typed]
            if mine:
                out.extend((2.0, u) for u in _nearest(mine, unit.order))
            elif 0 < len(cands) <= 3:
                out.extend((3.0, u) for u in cands)
    if unit.kind == "func" and owner and unit.self_words:
        for u in _nearest(outline.types.get(owner, ()), unit.order):
            if u.kind == "class" and u.children is None and u is not unit.parent:
                out.append((1.5, u))  # struct fields of Go / Rust receivers
    return out


def head_text(outline: Outline, u: Unit) -> str:
    """The rows of ``u``'s header (a signature over several lines)."""
    return "\n".join(outline.lines[u.start : max(u.start, u.head_end) + 1])


def definer_order(u: Unit) -> tuple[bool, int]:
    """Where an attribute is defined first, the constructor before any other method."""
    return (u.name != "__init__", u.order)


def attribute_types(outline: Outline, owner: str) -> dict[str, str]:
    """The classes of the file that attributes of ``owner`` (or a base) hold, by attribute
    name: from ``self.a = A(…)``, an annotation (``a: "A"``, ``self.a: Optional[A]``) or a
    parameter an assignment stores (``def __init__(self, a: A): self.a = a``). Python only:
    ``self.a.b`` then resolves as ``A.b`` does."""
    if owner in outline.held:
        return outline.held[owner]
    out: dict[str, str] = {}
    outline.held[owner] = out
    if not outline.spec.python:
        return out
    classes = {n for n, us in outline.types.items() if any(u.kind == "class" for u in us)}
    mine = {owner, *outline.bases.get(owner, ())}

    def note(attr: str, text: str) -> None:
        found = [w for w in IDENT.findall(text) if w in classes and w not in mine]
        if found and attr not in out:
            out[attr] = found[0]

    for u in outline.units:
        if u.owner not in mine or u.kind not in ("func", "stmt"):
            continue
        text = "\n".join(outline.lines[u.start : u.last + 1])
        if u.kind == "stmt":
            m = _CLASS_ANNOTATION.match(text)
            if m:
                note(m[1], m[2])
            continue
        params = dict(_PARAMETER.findall(head_text(outline, u)))
        for m in _SELF_ASSIGN.finditer(text):
            attr, annotation, value = m[1], m[2] or "", m[3]
            if annotation:
                note(attr, annotation)
            elif call := _CALL.match(value):
                note(attr, call[1])
            elif value.strip() in params:
                note(attr, params[value.strip()])
    return out


def users(outline: Outline, targets: Sequence[Unit]) -> dict[Unit, list[Unit]]:
    """Functions and statements whose references resolve to each of ``targets`` (the
    reverse of ``_deps``): who calls a function, who reads a constant."""
    by_name: dict[str, list[Unit]] = {}
    for t in targets:
        for name in ({t.name} | set(t.defs)) - {""}:
            by_name.setdefault(name, []).append(t)
    out: dict[Unit, list[Unit]] = {t: [] for t in targets}
    # rows that mention a name at all: only units spanning one are read for references
    rows: list[int] = []
    if by_name:
        word = re.compile(r"\b(?:" + "|".join(map(re.escape, by_name)) + r")\b")
        ends = list(itertools.accumulate(len(line) + 1 for line in outline.lines))
        rows = sorted(
            {bisect.bisect_right(ends, m.start()) for m in word.finditer("\n".join(outline.lines))}
        )
    if not rows:
        return out
    for u in outline.units:
        if u.kind not in ("func", "stmt"):
            continue
        i = bisect.bisect_left(rows, u.start)
        if i == len(rows) or rows[i] > u.last:
            continue
        bare, selfs, pairs = refs(outline, u)
        named = {w for w in (*bare, *selfs, *(b for _, b in pairs)) if w in by_name}
        if not named:
            continue
        wanted = {t for w in named for t in by_name[w] if t is not u}
        for _, v in _deps(outline, u):
            if v in wanted:
                out[v].append(u)
                wanted.discard(v)
    return out


def ancestors(u: Unit) -> list[Unit]:
    out, p = [], u.parent
    while p is not None:
        out.append(p)
        p = p.parent
    return out


# Step from a class to its constructor (``__init__``, ``constructor``, Rust ``new``, a
# Java / C++ member named like the class, or its base's where it has none); to any other
# member it is 0.5.
_CTOR_COST = 0.3


def _constructs(cls: Unit, member: Unit) -> bool:
    return member.kind == "func" and member.name in ("__init__", "constructor", "new", cls.name)


def _builds(outline: Outline, cls: Unit, member: Unit) -> bool:
    """A classmethod that returns an instance of ``cls`` (``cls(`` in its body, or the
    class as its return type): an alternative constructor, which comes with the class as
    its constructor does."""
    if member.kind != "func" or "@classmethod" not in head_text(outline, member):
        return False
    rows = outline.lines[member.start : member.last + 1]
    returns = re.compile(r"->\s*['\"]?" + re.escape(cls.name) + r"\b")
    header = rows[: max(member.head_end, member.start) - member.start + 1]
    return any("cls(" in r for r in rows) or any(returns.search(r) for r in header)


def relate(
    outline: Outline, seeds: dict[Unit, float], via: dict[Unit, Unit] | None = None
) -> dict[Unit, float]:
    """Distance of every reachable unit from the seeds (Dijkstra over references);
    ``via`` receives the unit each one is reached through."""
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
    came: dict[Unit, Unit] = {}
    while heap:
        d, _, u = heapq.heappop(heap)
        if u in dist or (u in enclosing and u not in seeds):
            continue
        dist[u] = d
        if via is not None and u in came:
            via[u] = came[u]
        if d >= 6:
            continue
        nxt = list(_deps(outline, u))
        if u.kind == "class" and u.children:
            # using a class is mostly constructing it: its constructor comes nearly with it
            ctors = {c for c in u.children if _constructs(u, c)}
            nxt.extend(
                (_CTOR_COST if c in ctors or _builds(outline, u, c) else 0.5, c) for c in u.children
            )
            if not ctors:  # an inherited one
                for base in outline.bases.get(u.name, ())[:1]:
                    for b in outline.types.get(base, ()):
                        if b.kind == "class" and b.children:
                            nxt.extend((_CTOR_COST, c) for c in b.children if _constructs(b, c))
        elif u.title and u.children:
            nxt.extend((0.0, c) for c in u.children)  # a test's code is in its members
        for cost, v in nxt:
            nd = d + cost
            if v not in dist and nd < best.get(v, 99.0):
                best[v] = nd
                came[v] = u
                heapq.heappush(heap, (nd, v.order, v))
    return dist
