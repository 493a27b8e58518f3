"""Grammars and language detection.

Grammars come from the per-language wheels (``tree-sitter-python`` …), loaded once per
process with py-tree-sitter >= 0.25; nothing is downloaded at run time. A language is
chosen from the fence tag, else from a file name near the block, else by trying the
likely grammars (cheap cues first) and keeping the first that parses without errors.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from tree_sitter import Language, Parser, Tree


@dataclass(frozen=True)
class LangSpec:
    """How the trimmer reads one language: which nodes are functions, containers, imports."""

    name: str
    module: str
    attr: str = "language"
    python: bool = False  # indentation blocks: `...` elision; otherwise braces: `// …`
    functions: frozenset[str] = frozenset()
    containers: frozenset[str] = frozenset()  # bodies whose members are units of their own
    bodied: frozenset[str] = frozenset()  # atomic definitions whose `{}` body may collapse
    wrappers: frozenset[str] = frozenset()  # nodes wrapping one definition (decorators, export)
    imports: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    attributes: frozenset[str] = frozenset()  # siblings that belong to the next item
    structural: frozenset[str] = frozenset()  # members that are never dropped on their own
    implicit_this: bool = False  # bare names inside a method may name class members
    self_words: tuple[str, ...] = ("this",)
    body_types: frozenset[str] = frozenset()  # brace bodies to search for in atomic items


_JS_FUNCS = frozenset(
    {
        "function_declaration",
        "function_signature",  # TS: `declare function f(): T;`, an overload
        "generator_function_declaration",
        "method_definition",
        "function_expression",
        "function",
        "arrow_function",
        "generator_function",
    }
)
_JS_CONTAINERS = frozenset(
    {"class_declaration", "class", "abstract_class_declaration", "internal_module", "module"}
)
_C_BODIES = frozenset(
    {"field_declaration_list", "enumerator_list", "compound_statement", "declaration_list"}
)

SPECS: dict[str, LangSpec] = {
    "python": LangSpec(
        "python",
        "tree_sitter_python",
        python=True,
        functions=frozenset({"function_definition"}),
        containers=frozenset(
            {"class_definition", "if_statement", "try_statement", "with_statement"}
        ),
        wrappers=frozenset({"decorated_definition"}),
        imports=frozenset({"import_statement", "import_from_statement", "future_import_statement"}),
        self_words=("self", "cls"),
    ),
    "javascript": LangSpec(
        "javascript",
        "tree_sitter_javascript",
        functions=_JS_FUNCS,
        containers=_JS_CONTAINERS,
        wrappers=frozenset({"export_statement"}),
        imports=frozenset({"import_statement"}),
        attributes=frozenset({"decorator"}),
        body_types=frozenset({"class_body", "statement_block", "object"}),
    ),
    "typescript": LangSpec(
        "typescript",
        "tree_sitter_typescript",
        attr="language_typescript",
        functions=_JS_FUNCS,
        containers=_JS_CONTAINERS | {"interface_declaration"},
        bodied=frozenset({"enum_declaration", "type_alias_declaration"}),
        wrappers=frozenset({"export_statement", "ambient_declaration"}),
        imports=frozenset({"import_statement", "import_alias"}),
        attributes=frozenset({"decorator"}),
        body_types=frozenset(
            {"class_body", "statement_block", "interface_body", "object_type", "enum_body"}
        ),
    ),
    "go": LangSpec(
        "go",
        "tree_sitter_go",
        functions=frozenset({"function_declaration", "method_declaration"}),
        bodied=frozenset({"type_declaration"}),
        imports=frozenset({"import_declaration"}),
        structural=frozenset({"package_clause"}),  # a Go file is not valid without it
        self_words=(),
        body_types=frozenset({"field_declaration_list", "interface_type"}),
    ),
    "java": LangSpec(
        "java",
        "tree_sitter_java",
        functions=frozenset(
            {"method_declaration", "constructor_declaration", "compact_constructor_declaration"}
        ),
        containers=frozenset(
            {"class_declaration", "interface_declaration", "record_declaration", "enum_declaration"}
        ),
        bodied=frozenset({"annotation_type_declaration"}),
        imports=frozenset({"import_declaration", "package_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
        implicit_this=True,
        body_types=frozenset({"enum_body", "annotation_type_body"}),
    ),
    "rust": LangSpec(
        "rust",
        "tree_sitter_rust",
        functions=frozenset({"function_item", "macro_definition"}),
        containers=frozenset({"impl_item", "trait_item", "mod_item"}),
        bodied=frozenset({"struct_item", "enum_item", "union_item"}),
        imports=frozenset({"use_declaration", "extern_crate_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
        attributes=frozenset({"attribute_item"}),
        self_words=("self", "Self"),
        body_types=frozenset({"field_declaration_list", "enum_variant_list"}),
    ),
    "c": LangSpec(
        "c",
        "tree_sitter_c",
        functions=frozenset({"function_definition", "preproc_function_def"}),
        containers=frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"}),
        bodied=frozenset(
            {
                "struct_specifier",
                "union_specifier",
                "enum_specifier",
                "type_definition",
                "declaration",
            }
        ),
        imports=frozenset({"preproc_include"}),
        self_words=(),
        body_types=_C_BODIES - {"compound_statement", "declaration_list"},
    ),
    "cpp": LangSpec(
        "cpp",
        "tree_sitter_cpp",
        functions=frozenset({"function_definition", "preproc_function_def"}),
        containers=frozenset(
            {
                "class_specifier",
                "struct_specifier",
                "union_specifier",
                "namespace_definition",
                "linkage_specification",
                "preproc_ifdef",
                "preproc_if",
                "preproc_else",
                "preproc_elif",
            }
        ),
        bodied=frozenset({"enum_specifier", "type_definition", "declaration"}),
        wrappers=frozenset({"template_declaration", "friend_declaration"}),
        imports=frozenset({"preproc_include", "using_declaration"}),
        structural=frozenset({"access_specifier"}),
        implicit_this=True,
        body_types=frozenset({"field_declaration_list", "enumerator_list"}),
    ),
}
SPECS["tsx"] = LangSpec(
    **{**SPECS["typescript"].__dict__, "name": "tsx", "attr": "language_tsx"}  # type: ignore[arg-type]
)

# Fence tags and file extensions -> language names.
_TAGS: dict[str, str] = {
    **dict.fromkeys(["python", "py", "py3", "python3", "pyi", "pyw", "sage"], "python"),
    **dict.fromkeys(
        ["javascript", "js", "jsx", "mjs", "cjs", "node", "nodejs", "es6"], "javascript"
    ),
    **dict.fromkeys(["typescript", "ts", "mts", "cts"], "typescript"),
    "tsx": "tsx",
    **dict.fromkeys(["go", "golang"], "go"),
    "java": "java",
    **dict.fromkeys(["rust", "rs"], "rust"),
    "c": "c",
    **dict.fromkeys(
        ["cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx", "h++", "ipp", "tpp", "cu", "cuda"], "cpp"
    ),
    "h": "c",
}
# When the tagged grammar fails, the code may still be in a close relative: TypeScript
# pasted under ```js, C under ```cpp (C++ keywords such as `new` as identifiers).
_FALLBACK = {
    "c": ("cpp",),
    "cpp": ("c",),
    "typescript": ("tsx",),
    "javascript": ("typescript", "tsx"),
    "tsx": ("typescript",),
}


def related(name: str, other: str | None) -> bool:
    """Whether code in ``name`` may come from a file of language ``other`` (C in a ``.h``
    read as C++, TypeScript in a ``.js``...)."""
    return other is not None and (name == other or name in _FALLBACK.get(other, ()))


# Languages whose files use each other's definitions (a `.c` file a header's, a `.tsx`
# component a `.ts` module's).
_FAMILY = {"cpp": "c", "typescript": "javascript", "tsx": "javascript"}


def family(name: str) -> str:
    """The language whose definitions code in ``name`` may use from another file."""
    return _FAMILY.get(name, name)


_lock = threading.Lock()


@cache
def language(name: str) -> Language:
    spec = SPECS[name]
    return Language(getattr(import_module(spec.module), spec.attr)())


class _Parsers(threading.local):
    """Parsers are not thread-safe; each thread keeps its own, one per language."""

    def __init__(self) -> None:
        self.by_name: dict[str, Parser] = {}


_parsers = _Parsers()


def parse(name: str, source: bytes) -> Tree:
    parser = _parsers.by_name.get(name)
    if parser is None:
        with _lock:
            lang = language(name)
        parser = _parsers.by_name[name] = Parser(lang)
    return parser.parse(source)


def available(name: str) -> bool:
    """Whether the grammar wheel for ``name`` is installed."""
    try:
        language(name)
    except (ImportError, AttributeError):
        return False
    return True


_EXT = re.compile(r"\.([A-Za-z+]+)$")


def from_tag(tag: str) -> str | None:
    """Language for a fence tag such as ``py``, ``c++`` or a file name such as ``main.go``."""
    tag = tag.strip().lower()
    if tag in _TAGS:
        return _TAGS[tag]
    m = _EXT.search(tag.split(":")[-1])
    return _TAGS.get(m.group(1)) if m else None


def from_filename(name: str) -> str | None:
    m = _EXT.search(name)
    return _TAGS.get(m.group(1).lower()) if m else None


_CUES: list[tuple[str, re.Pattern[str]]] = [
    (
        "python",
        re.compile(r"^\s*(def |class \w+.*:\s*$|from [\w.]+ import |import \w+\s*$|@\w+)", re.M),
    ),
    ("go", re.compile(r"^(package \w+|func [\w(]|import \()", re.M)),
    (
        "rust",
        re.compile(
            r"^\s*(fn |pub(\([\w:]+\))? (fn|struct|enum|mod)|use \w+::|impl\b|let mut )", re.M
        ),
    ),
    (
        "java",
        re.compile(
            r"^\s*(public |private |protected )?(final )?(class|interface) \w+|^package [\w.]+;",
            re.M,
        ),
    ),
    (
        "cpp",
        re.compile(
            r"^\s*(#include\s*<\w+>|template\s*<|namespace \w+|class \w+\s*[:{]|std::)"
            # a member defined at the margin, out of its class (`SizeMat::operator[](…`)
            r"|^\w+::(~?\w+|operator\W+)\("
            # a definition given C linkage (`extern "C" PyObject * PyInit_x() {`), which C
            # reads cleanly as no function; not a C header's `extern "C" {` guard
            r'|^extern\s+"C"\s+[^\s{]',
            re.M,
        ),
    ),
    (
        "c",
        re.compile(
            r"^\s*#(include|define|ifn?def)\b|^typedef |^struct \w+ \{"
            # a definition at the margin: `static int parse(…`, `char *name(…`, and with
            # the type on a line of its own (GNU style: `void` then `name(…`), the parameter
            # list's `(` maybe on the next line
            r"|^(static |inline |extern |const |unsigned |signed )*(void|char|short|int|long"
            r"|float|double|bool|size_t|ssize_t|u?int(8|16|32|64)_t|struct \w+)"
            r"([ *]+|[ *]*\n\**)\w+[ \t]*\n?[ \t]*\("
            # or of a type a header names, behind a storage class (`static PyObject *`)
            r"|^(static |inline |extern )+(const )?[A-Za-z_]\w*([ *]+|[ *]*\n\**)\w+[ \t]*\n?"
            r"[ \t]*\(",
            re.M,
        ),
    ),
    (
        "typescript",
        re.compile(r"^\s*(interface \w+|type \w+\s*=|(export )?(const|let) \w+: )", re.M),
    ),
    (
        "javascript",
        re.compile(
            r"^\s*(function |const |let |var |export |import |module\.exports)"
            # compiled CommonJS (a `dist` file): `"use strict";`, `exports.Foo = Foo;`
            r"|^([\"'])use strict\2|^exports\.\w+ =",
            re.M,
        ),
    ),
]


# A file's first line of code that names its language outright: Go's and Java's package
# clauses (a Go test file's indented `var x` lines would count as JavaScript's cue).
_LEADS = (("go", re.compile(r"package \w+\s*$")), ("java", re.compile(r"package [\w.]+\s*;")))
_COMMENT_ROW = re.compile(r"\s*(?://|/\*|\*|#!)|\s*$")


def candidates(code: str) -> list[str]:
    """Languages worth trying for untagged ``code``, most likely first (by line-start cues;
    a package clause first of all). Each grammar tried costs a parse of the whole block."""
    # (its start and its end: a long table may fill the first 20,000 characters)
    head = code if len(code) <= 40000 else code[:20000] + "\n" + code[-20000:]
    scored = sorted(
        ((len(rx.findall(head)), i, name) for i, (name, rx) in enumerate(_CUES)),
        key=lambda t: (-t[0], t[1]),
    )
    order = [name for n, _, name in scored if n > 0]
    if "cpp" in order and "c" in order[: order.index("cpp")]:
        # C++'s cues are none of C's: C reads `namespace X { … }` cleanly, as a function
        # of type `namespace` whose body hides every definition in it
        order.remove("cpp")
        order.insert(order.index("c"), "cpp")
    first = next((r for r in head.split("\n") if not _COMMENT_ROW.match(r)), "")
    lead = next((name for name, rx in _LEADS if rx.match(first)), None)
    return [lead, *(n for n in order if n != lead)] if lead else order


def clean_parse(name: str, source: bytes) -> Tree | None:
    """The tree of ``source`` if it parses without ERROR or MISSING nodes, else None."""
    tree = parse(name, source)
    return None if tree.root_node.has_error else tree


def detect(
    code: str, hint: str | None = None, failed: dict[str, Tree] | None = None
) -> tuple[str, Tree] | None:
    """Pick a grammar for ``code``: the hinted one (and its close relatives), else by trying.
    ``failed`` receives the trees that did not parse cleanly (the caller may still read a
    broken file's by lines: one parse of a long file spared)."""
    try:
        source = code.encode()
    except UnicodeEncodeError:
        return None  # lone surrogates (JSON allows them): not text any grammar reads
    if hint:
        order = [hint, *_FALLBACK.get(hint, ())]
    else:
        # untagged TSX has no cue of its own: each cue's relatives are tried after it
        order = list(dict.fromkeys(n for c in candidates(code) for n in (c, *_FALLBACK.get(c, ()))))
    for name in order:
        if name and available(name):
            tree = parse(name, source)
            if not tree.root_node.has_error:
                return name, tree
            if failed is not None:
                failed[name] = tree
    return None


def node_text(node: Any) -> str:
    text = node.text
    return text.decode("utf-8", "replace") if text is not None else ""
