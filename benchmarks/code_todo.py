"""The code stage on "implement X" prompts: does it keep what the real body used?

Corpus in ~/.cache/ctxpress/bench/todo, none of it in the other code benchmarks': PyPI sdists
(Python; C in cmarkgfm, mmh3, pyahocorasick, rapidfuzz; C++ in pyclipper, rapidfuzz,
python-rapidjson), npm packages (JS / TS / TSX; the Cordova plugins' Java), Debian 12 packages
(Go, Rust, jansson's C, header-only C++: cereal, utfcpp, msgpack), versions pinned in SDISTS,
NPM_PKGS and DEBS, and java.base's java/util and java/text from the local JDK's lib/src.zip
(Temurin 25.0.3 when measured; without one, Java is skipped). Per language the sorted candidate
files (1.5-120 kB; no tests, .d.ts, node_modules, minified JS, and JS only from a package's
sources or a single bundle) are shuffled and read in turn, at most 3 tasks per file and 30 per
package, until --per-lang tasks; one Random(11) draws everything in language order, every
language drawn whatever --langs, so a task is the same whichever languages run. A task: a
function or method of 3..80 lines whose name (3+ chars) is unique in the file and whose real
body refers to in-file definitions, its body replaced by the language's TODO stub (``pass``,
``todo!()``, ``panic("TODO")``, ``/* TODO */``, a throw or a ``// TODO: implement``). Gold: the
in-file definitions the real body referred to, found with tree-sitter: a bare name of a
top-level function, type, constant or macro the function does not bind itself; a member of its
own type through self / this / cls / super / Self / the Go receiver (in Java and C++ also a
bare name); ``T.x`` / ``T::x`` with ``T`` an in-file type.

Prompt, DevEval's shape: "Here is `{path}`:", the stubbed file in a tagged fence, "Implement
`{name}`." and the requirement (Python: the removed docstring; else the comment above the
function). Each task through ``compress(..., stages=["code"])`` at f = 0.10 / 0.25 / 0.50;
budget = tokens of the message with the file taken out + f x the file's tokens. Two baselines
get the code budget (f x the file's tokens) for the file alone: ``nearest`` the stubbed
function, then whole innermost definitions nearest to it first while they fit; ``oracle`` its
signature, then gold definitions cheapest first while they fit.

Columns, per language and f (ALL: every language): tasks; ctxpr / near / oracle recall of
ctxpress and the baselines (per-task mean of gold definitions kept / gold definitions; kept:
all of a definition's lines appear, contiguous, in the output); sig the stubbed function's
signature lines kept; parse the output block, its final newline restored (a trimmed block ends
without one), passes clean_parse in the true language; over calls with tokens_after > budget;
err calls that raised or failed open, or whose prose around the fence changed (then nothing
counts as kept); ms mean per call. The JSON has every task's runs, a gold mask each.

    .venv/bin/python benchmarks/code_todo.py --fetch  # once: pip download, npm pack, apt-get
    .venv/bin/python benchmarks/code_todo.py [--per-lang 110] [--langs go,rust] [--jobs 2]

Setup: pip, ``npm``, ``apt-get`` + ``dpkg`` (Debian 12 package lists), a JDK with lib/src.zip.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import statistics
import time
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from code_fresh import _preorder
from code_real import JS, TAGS, _g, fence_for, fetch_debs, fetch_npm, fetch_sdists, name_declarator

import ctxpress
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_todo.json"
CACHE = user_cache_dir() / "bench" / "todo"
P, N, R, JDK = CACHE / "pypi", CACHE / "npm", CACHE / "root", CACHE / "jdk"
FRACS = (0.10, 0.25, 0.50)
SDISTS = re.findall(  # folder names: name-version
    r"\S+",
    "cachetools-8.0.2 cmarkgfm-2025.10.22 django_filter-26.2 djangorestframework-3.18.3"
    " funcy-2.1 humanize-4.17.0 mmh3-5.3.1 parsimonious-0.11.0 pint-0.25.3 pyahocorasick-2.3.1"
    " pyclipper-1.4.0 python_dateutil-4.0.0 python_rapidjson-1.25 rapidfuzz-3.14.6"
    " schedule-1.2.2 tabulate-0.10.0 toolz-1.2.0 transitions-0.9.3 uncertainties-3.2.3",
)
NPM_PKGS = re.findall(
    r"\S+",
    "acorn@8.19.0 cordova-plugin-camera@8.0.0 cordova-plugin-file@8.1.3 dayjs@1.11.23"
    " @docusaurus/theme-classic@3.10.2 effect@3.10.0 eventemitter3@5.0.4 fp-ts@2.16.11"
    " io-ts@2.2.22 marked@18.2.1 mitt@3.0.1 neverthrow@8.2.0 path-to-regexp@9.0.0 qs@6.17.1"
    " react-day-picker@8.10.1 semver@7.8.6 @tanstack/form-core@1.33.5 @tanstack/store@0.11.2"
    " @tanstack/virtual-core@3.19.11 yargs-parser@22.0.0",
)
DEBS = re.findall(
    r"\S+",
    "golang-github-burntsushi-toml-dev=1.2.0-2 golang-github-cespare-xxhash-dev=2.1.1-2"
    " golang-github-dustin-go-humanize-dev=1.0.0-3 golang-github-google-btree-dev=1.0.0-1"
    " golang-github-gorilla-websocket-dev=1.5.0-2 golang-github-hashicorp-go-version-dev=1.3.0-1"
    " libcereal-dev=1.3.2+dfsg-4 libjansson-dev=2.14-2 libmsgpack-dev=4.0.0-3"
    " librust-base64-dev=0.13.0-1 librust-memchr-dev=2.5.0-1 librust-textwrap-dev=0.16.0-2"
    " librust-toml-dev=0.5.11-1 librust-unicode-width-dev=0.1.10-1 librust-url-dev=2.3.1-1"
    " libutfcpp-dev=3.2.3-1",
)
JDK_DIRS = ("java.base/java/util/", "java.base/java/text/")
PACKAGE = re.compile(  # what the 30-task cap counts by
    r"root/usr/share/gocode/src/([^/]+/[^/]+/[^/]+)|root/usr/share/cargo/registry/([^/]+)"
    r"|root/usr/include/([^/]+)|jdk/java.base/java/([^/]+)|(?:pypi|npm)/([^/]+)"
)
PER_FILE, PER_PACKAGE = 3, 30
STUBS = {"python": ["pass"], "go": ['panic("TODO")'], "rust": ["todo!()"], "c": ["/* TODO */"]}
STUBS |= {"cpp": ["/* TODO */", "// TODO: implement"]}
STUBS |= {"java": ['throw new UnsupportedOperationException("TODO");', "// TODO: implement"]}
STUBS |= {lang: ['throw new Error("TODO");', "// TODO: implement"] for lang in JS}
FUNC = {"python": {"function_definition"}, "go": {"function_declaration", "method_declaration"}}
FUNC |= {"rust": {"function_item"}, "c": {"function_definition"}, "cpp": {"function_definition"}}
FUNC |= {"java": {"method_declaration", "constructor_declaration"}}
_JSF = {"function_declaration", "generator_function_declaration", "method_definition"}
FUNC |= {lang: _JSF for lang in JS}
ARROW = {"arrow_function", "function_expression", "function"}
TYPEDEF = {
    "python": {"class_definition"},
    "go": {"type_spec"},
    "rust": {"struct_item", "enum_item", "union_item", "trait_item", "type_item", "mod_item"},
    "c": {"struct_specifier", "union_specifier", "enum_specifier", "type_definition"},
    "cpp": {"struct_specifier", "union_specifier", "enum_specifier", "type_definition"}
    | {"class_specifier", "alias_declaration"},
    "java": {"class_declaration", "interface_declaration", "enum_declaration"}
    | {"record_declaration"},
}
_JST = {"class_declaration", "abstract_class_declaration", "interface_declaration"}
TYPEDEF |= {lang: _JST | {"type_alias_declaration", "enum_declaration"} for lang in JS}
RECORDS = ("struct_specifier", "union_specifier", "enum_specifier", "class_specifier")
OWNERS = {"class_declaration", "class", "class_specifier", "struct_specifier", "trait_item"}
WRAPPERS = ("decorated_definition", "export_statement", "template_declaration")
NAMES = {"identifier", "type_identifier", "field_identifier", "property_identifier"}
NAMES |= {"constant", "shorthand_property_identifier", "namespace_identifier"}
PARAMS = {"parameters", "formal_parameters", "parameter_list", "lambda_parameters"}
PARAMS |= {"closure_parameters"}
BINDERS = {"assignment", "augmented_assignment", "for_statement", "for_in_clause"}
BINDERS |= {"short_var_declaration", "var_spec", "const_spec", "range_clause"}
BINDERS |= {"let_declaration", "variable_declarator", "for_in_statement", "init_declarator"}
BINDERS |= {"local_variable_declaration", "enhanced_for_statement", "catch_clause"}
BINDERS |= {"catch_formal_parameter", "with_item", "as_pattern"}
PATTERNS = {"identifier", "pattern_list", "tuple_pattern", "expression_list", "object_pattern"}
PATTERNS |= {"array_pattern", "tuple", "variable_declarator", "init_declarator"}
PATTERNS |= {"pointer_declarator", "as_pattern_target", "as_pattern"}
MEMBER = {  # node type: (field of the member's name, field of the object it is read from)
    "attribute": ("attribute", "object"), "member_expression": ("property", "object"),
    "selector_expression": ("field", "operand"), "field_expression": ("field", "argument"),
    "field_access": ("field", "object"), "method_invocation": ("name", "object"),
    "scoped_identifier": ("name", "path"), "qualified_identifier": ("name", "scope"),
}  # fmt: skip
OWN = {"self", "this", "cls", "super", "Self"}
COLS = [  # (summary key, header, width, format)
    ("tasks", "tasks", 6, "d"), ("ctxpress", "ctxpr", 7, ".3f"), ("nearest", "near", 7, ".3f"),
    ("oracle", "oracle", 7, ".3f"), ("sig", "sig", 6, ".2f"), ("parse", "parse", 6, ".2f"),
    ("over", "over", 5, "d"), ("err", "err", 4, "d"), ("ms", "ms", 7, ".1f"),
]  # fmt: skip


def fetch() -> None:
    """Download and unpack the corpus into CACHE; skips whatever is already there."""
    fetch_sdists(SDISTS, P)
    fetch_npm(NPM_PKGS, N)
    fetch_debs(DEBS, CACHE, R, unpinned=False)
    zips = sorted(glob.glob("/usr/lib/jvm/*/lib/src.zip"), key=lambda p: ("25" not in p, p))
    if not zips:
        print("no JDK src.zip under /usr/lib/jvm: Java is skipped")
    elif not (JDK / ".done").exists():
        with zipfile.ZipFile(zips[0]) as zf:
            for n in zf.namelist():
                if n.endswith(".java") and n.startswith(JDK_DIRS):
                    (JDK / n).parent.mkdir(parents=True, exist_ok=True)
                    (JDK / n).write_bytes(zf.read(n))
        (JDK / ".done").write_text(zips[0])
        print(f"jdk {zips[0]}")


def corpus() -> dict[str, list[str]]:
    """Per language the sorted candidate files."""

    def files(*pats: str) -> list[str]:
        found = _g(*(str(CACHE / p) for p in pats))
        rels = ["/" + str(Path(f).relative_to(CACHE)) for f in found]
        return [
            f
            for f, rel in zip(found, rels, strict=True)
            if Path(f).stat().st_size < 120_000
            and "/test" not in rel.lower()
            and not rel.endswith("_test.go")
            and "/node_modules/" not in rel
            and "min.js" not in rel
        ]

    def sources(f: str) -> bool:
        """JS outside build folders, but these packages ship their only copy in one."""
        rel = "/" + str(Path(f).relative_to(CACHE))
        build = re.search(r"/(dist|umd|esm|cjs|lib|es|locale|plugin)/", rel)
        return not build or any(p in rel for p in ("marked", "acorn", "qs", "semver"))

    inc = "root/usr/include"
    cpp = [f"{inc}/cereal/**/*.hpp", f"{inc}/utf8/**/*.h", f"{inc}/msgpack/v1/**/*.hpp"]
    cpp += ["pypi/pyclipper*/**/*.cpp", "pypi/**/*.hpp", "pypi/python_rapidjson*/**/*.h"]
    java = files("npm/**/*.java", "jdk/**/*.java")
    if not (JDK / ".done").exists():
        print(f"java: skipped, no JDK sources in {JDK} (--fetch needs a JDK's lib/src.zip)")
        java = []
    return {
        "python": files("pypi/**/*.py"),
        "javascript": [f for f in files("npm/**/*.js", "npm/**/*.mjs") if sources(f)],
        "typescript": files("npm/**/src/**/*.ts"),
        "tsx": files("npm/**/*.tsx"),
        "go": files("root/usr/share/gocode/src/**/*.go"),
        "rust": files("root/usr/share/cargo/registry/**/*.rs"),
        "c": files("pypi/**/*.c", f"{inc}/jansson*.h"),
        "cpp": files(*cpp),
        "java": java,
    }


def _text(node: Any) -> str:
    return str(node.text.decode("utf-8", "replace"))


def _words(node: Any) -> list[str]:
    return re.findall(r"\w+", _text(node))


def _name(node: Any) -> str | None:
    """The innermost name under ``node``."""
    if node is None:
        return None
    if node.type in NAMES or node.type == "destructor_name":
        return _text(node)
    for f in ("name", "declarator", "field", "property"):
        if (c := node.child_by_field_name(f)) is not None:
            return _name(c)
    return None


def _func_name(lang: str, n: Any) -> str | None:
    """A function node's name; C and C++ keep it under nested declarators (``*f``, ``A::f``)."""
    if lang in ("c", "cpp"):
        return _name(name_declarator(n))
    return _name(n.child_by_field_name("name"))


def _owner(lang: str, n: Any) -> str | None:
    """The type a definition is a member of: its class, impl, Go receiver or C++ ``A::``;
    ``<local>`` inside a function, None at top level."""
    if lang == "go" and n.type == "method_declaration":
        words = _words(n.child_by_field_name("receiver"))
        return words[-1] if words else None
    if lang in ("c", "cpp") and n.type == "function_definition":
        d = n.child_by_field_name("declarator")
        while d is not None and d.type not in ("qualified_identifier", "function_declarator"):
            d = d.child_by_field_name("declarator")
        if d is not None and d.type == "function_declarator":
            q = d.child_by_field_name("declarator")
            scope = q.child_by_field_name("scope") if q is not None else None
            if q is not None and q.type == "qualified_identifier" and scope is not None:
                words = re.findall(r"\w+", _text(scope).split("<")[0])
                return words[-1] if words else None
    p = n.parent
    while p is not None:
        if p.type in FUNC[lang] or p.type in ARROW:
            return "<local>"
        if p.type == "impl_item":
            t = p.child_by_field_name("type")
            return _words(t)[0] if t is not None else None
        if p.type in TYPEDEF[lang] or p.type in OWNERS:
            nm = p.child_by_field_name("name")
            return _text(nm) if nm is not None else "<anon>"
        p = p.parent
    return None


@dataclass(eq=False)  # by identity: a C typedef names its struct tag and itself, one node
class Def:
    """A named definition; ``node`` and its rows ``a..b`` with decorators, export, template."""

    name: str
    node: Any
    owner: str | None  # see _owner
    kind: str  # func, type, var
    a: int = field(init=False)
    b: int = field(init=False)

    def __post_init__(self) -> None:
        while self.node.parent is not None and self.node.parent.type in WRAPPERS:
            self.node = self.node.parent
        self.a, self.b = self.node.start_point[0], self.node.end_point[0]


def _unless_local(lang: str, n: Any, name: str | None, kind: str) -> list[Def]:
    owner = _owner(lang, n)
    return [Def(name, n, owner, kind)] if name and owner != "<local>" else []


def _only(node: Any, t: str) -> bool:
    """Whether ``node`` is the only ``t`` in its declaration (Go `type ( ... )` groups)."""
    return len([c for c in node.parent.named_children if c.type == t]) == 1


def _type_defs(lang: str, n: Any) -> list[Def]:
    """The type definitions a TYPEDEF node makes (none for a forward declaration)."""
    t, parent = n.type, n.parent.type if n.parent is not None else None
    nm = _name(n.child_by_field_name("name"))
    if t in RECORDS:
        if n.child_by_field_name("body") is None or parent == "type_definition":
            return []  # a use, or the typedef is the definition
        if parent == "declaration":  # `struct A {...} a;`: the whole declaration
            return [Def(nm, n.parent, _owner(lang, n), "type")] if nm else []
    elif t == "type_definition":  # `typedef struct tag {...} name;` defines both
        ty = n.child_by_field_name("type")
        tag = ty.child_by_field_name("name") if ty is not None else None
        tagged = tag is not None and ty.child_by_field_name("body") is not None
        tags = [Def(_text(tag), n, _owner(lang, n), "type")] if tagged else []
        return tags + _unless_local(lang, n, _name(n.child_by_field_name("declarator")), "type")
    elif t == "type_spec":
        return [Def(nm, n.parent if _only(n, t) else n, None, "type")] if nm else []
    return _unless_local(lang, n, nm, "type")


def _var_defs(lang: str, n: Any) -> list[Def]:
    """The variables, constants, fields and macros node ``n`` defines, if any."""
    t, parent = n.type, n.parent.type if n.parent is not None else None
    if lang == "python" and t == "expression_statement" and parent in ("module", "block"):
        a = n.named_children[0] if n.named_children else None
        left = a.child_by_field_name("left") if a is not None and a.type == "assignment" else None
        if left is None or left.type != "identifier":
            return []
        owner = _owner(lang, n)  # module level, or a class attribute
        ok = owner != "<local>" and (parent == "module" or owner)
        return [Def(_text(left), n, owner, "var")] if ok else []
    if lang in JS and t in ("lexical_declaration", "variable_declaration"):
        if _owner(lang, n) is not None or parent not in ("program", "export_statement"):
            return []
        out = []
        for d in n.named_children:
            nm = d.child_by_field_name("name") if d.type == "variable_declarator" else None
            if nm is not None and nm.type == "identifier":
                v = d.child_by_field_name("value")
                out.append(
                    Def(_text(nm), n, None, "func" if v is not None and v.type in ARROW else "var")
                )
        return out
    if lang in JS and t in ("public_field_definition", "field_definition"):
        nm = _name(n.child_by_field_name("name") or n.child_by_field_name("property"))
        v = n.child_by_field_name("value")
        return _unless_local(lang, n, nm, "func" if v is not None and v.type in ARROW else "var")
    if lang == "go" and t in ("const_spec", "var_spec") and n.parent.parent is not None:
        if n.parent.parent.type != "source_file":
            return []
        node = n.parent if _only(n, t) else n
        return [Def(_text(x), node, None, "var") for x in n.children_by_field_name("name")]
    if (lang == "rust" and t in ("const_item", "static_item", "macro_definition")) or (
        lang in ("c", "cpp") and t in ("preproc_def", "preproc_function_def")
    ):
        return _unless_local(lang, n, _name(n.child_by_field_name("name")), "var")
    if lang in ("c", "cpp") and t == "declaration" and _owner(lang, n) is None:
        txt = _text(n)  # initialised variables only, not prototypes
        if parent not in ("translation_unit", "declaration_list", "preproc_ifdef", "preproc_if"):
            return []
        if "=" not in txt or "(" in txt.split("=")[0]:
            return []
        found = (_name(d) for d in n.children_by_field_name("declarator"))
        return [Def(nm, n, None, "var") for nm in found if nm]
    if lang == "java" and t == "enum_constant":
        nm = _name(n.child_by_field_name("name"))
        return [Def(nm, n, _owner(lang, n), "var")] if nm else []
    if lang == "java" and t in ("field_declaration", "constant_declaration"):
        decls = n.children_by_field_name("declarator")
        found = (_name(d.child_by_field_name("name")) for d in decls)
        return [Def(nm, n, _owner(lang, n), "var") for nm in found if nm]
    owned = lang == "cpp" and t == "field_declaration" and _owner(lang, n) is not None
    if owned and "static" in (txt := _text(n)) and "=" in txt:  # `static const int x = 1;`
        return _unless_local(lang, n, _name(n.child_by_field_name("declarator")), "var")
    return []


def definitions(lang: str, root: Any) -> list[Def]:
    """Named functions, types, variables and macros (not inside functions), in source order."""
    defs: list[Def] = []
    for n in _preorder(root):
        if n.type in FUNC[lang]:
            defs += _unless_local(lang, n, _func_name(lang, n), "func")
        elif n.type in TYPEDEF[lang]:
            defs += _type_defs(lang, n)
        elif not (lang in JS and n.type in ARROW):  # a JS function expression: no name of its own
            defs += _var_defs(lang, n)
    return defs


def bound(lang: str, fn: Any) -> set[str]:
    """Names ``fn`` binds itself (parameters, locals, nested definitions), read crudely: any
    identifier in a binding slot."""
    out = set()
    for x in _preorder(fn):
        t = x.type
        if t in PARAMS:
            out |= {_text(i) for i in _preorder(x) if i.type == "identifier"}
        elif t in BINDERS:
            fields = ("left", "pattern", "name", "declarator", "parameter", "alias")
            f = next((c for k in fields if (c := x.child_by_field_name(k)) is not None), None)
            if f is None and t in ("with_item", "as_pattern"):
                f = x
            if f is not None and f.type in PATTERNS:
                names = ("identifier", "shorthand_property_identifier_pattern")
                out |= {_text(i) for i in _preorder(f) if i.type in names}
        elif lang in ("c", "cpp") and t == "declaration":
            out |= {nm for d in x.children_by_field_name("declarator") if (nm := _name(d))}
        elif t in ("function_definition", "function_declaration", "class_definition"):
            nm = x.child_by_field_name("name")
            if nm is not None and x is not fn:
                out.add(_text(nm))
    return out


@dataclass
class Refs:
    """What a body refers to: top-level names, its own members, ``T.x`` by type ``T``."""

    top: set[str] = field(default_factory=set)
    own: set[str] = field(default_factory=set)
    qualified: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def references(lang: str, d: Def, fn: Any, own: set[str], types: set[str]) -> Refs:
    """The names ``fn``'s body refers to that it does not bind; ``own`` names its own object
    (its type, a Go receiver)."""
    local, refs = bound(lang, fn), Refs()
    for x in _preorder(fn.child_by_field_name("body")):
        if x.type not in NAMES:
            continue
        name, p, obj = _text(x), x.parent, None
        if p is not None and p.type in MEMBER:
            member, of = (p.child_by_field_name(k) for k in MEMBER[p.type])
            if member is not None and member.id == x.id:
                if of is None and p.type == "method_invocation":  # Java `f()`: this.f()
                    if lang == "java" and name not in local:
                        refs.own.add(name)
                    continue
                obj = "" if of is None else _text(of)
            elif of is None or of.id != x.id:
                continue  # not the object either: a name that is neither
        if obj is not None:
            words = re.findall(r"\w+", obj.split("<")[0])
            if obj.startswith("super(") or (len(words) == 1 and words[0] in OWN | own):
                refs.own.add(name)
            elif words and words[-1] in types and words[-1] not in local:
                refs.qualified[words[-1]].add(name)
            elif obj == "" and lang == "cpp":  # `::f()`
                refs.top.add(name)
            continue
        if name in local:
            continue
        refs.top.add(name)
        if lang in ("java", "cpp") and d.owner:  # an implicit this
            refs.own.add(name)
    return refs


def nested(x: Def, d: Def) -> bool:
    """Whether one of ``x`` and ``d`` holds the other."""
    return (x.a <= d.a and d.b <= x.b) or (d.a <= x.a and x.b <= d.b)


def gold_of(d: Def, refs: Refs, by_name: dict[str, list[Def]]) -> list[Def]:
    """The definitions ``refs`` resolve to, not ``d`` and not one enclosing it."""
    found = [x for nm in refs.top for x in by_name.get(nm, []) if x.owner is None]
    if d.owner:
        found += [x for nm in refs.own for x in by_name.get(nm, []) if x.owner == d.owner]
    for t, nms in refs.qualified.items():
        found += [x for nm in nms for x in by_name.get(nm, []) if x.owner == t]
    gold = {x for x in found if x is not d and not (x.a <= d.a and d.b <= x.b)}
    return sorted(gold, key=lambda x: (x.a, x.b, x.name, x.kind))


def leading_comment(lines: list[str], row: int) -> str:
    """The comment lines right above ``row`` (annotations skipped), markers stripped."""
    out: list[str] = []
    r = row - 1
    pre = ("#include", "#define", "#if", "#endif", "#[", "#!")
    while r >= 0:
        t = lines[r].strip()
        if t.startswith(("//", "*", "/*", "#")) and not t.startswith(pre):
            out.append(t)
        elif not (t.startswith("@") and not out):
            break
        r -= 1
    out.reverse()
    marks = r"^(///?|/\*\*?|\*/?|#)\s?"
    return "\n".join(re.sub(marks, "", t).rstrip("*/ ").rstrip() for t in out).strip()


def docstring(body: Any) -> Any:
    """The docstring node opening a Python body, if any."""
    first = body.named_children[0] if body.named_children else None
    if first is None or first.type != "expression_statement" or not first.named_children:
        return None
    return first if first.named_children[0].type == "string" else None


@dataclass
class Task:
    """A stubbed file; rows are the stubbed file's: ``target`` the function's first and last,
    ``gold`` (name, a, b, lines), ``units`` every other definition not around or in it."""

    lang: str
    rel: str
    name: str
    code: str
    req: str
    target: tuple[int, int]
    sig: list[str]
    gold: list[tuple[str, int, int, list[str]]]
    units: list[tuple[int, int]]


def core_of(lang: str, d: Def) -> Any:
    """The function node of a definition; JS: the arrow a declaration or field holds (None if
    it holds something else)."""
    core = d.node
    while core.type in WRAPPERS:
        core = core.named_children[-1]
    if lang in JS and core.type in ("lexical_declaration", "variable_declaration"):
        core = core.named_children[0].child_by_field_name("value")
    elif lang in JS and core.type in ("public_field_definition", "field_definition"):
        core = core.child_by_field_name("value")
    else:
        return core
    return core if core is not None and core.type in ARROW else None


def candidates(lang: str, defs: list[Def]) -> list[tuple[Def, Any, list[Def]]]:
    """(definition, function node, gold) of every function a task may be made of."""
    types = {d.name for d in defs if d.kind == "type"}
    by_name: dict[str, list[Def]] = defaultdict(list)
    for d in defs:
        by_name[d.name].append(d)
    counts = Counter(d.name for d in defs)
    out = []
    for d in (d for d in defs if d.kind == "func"):
        core = core_of(lang, d)
        body = core.child_by_field_name("body") if core is not None else None
        if body is None or (lang in JS and body.type != "statement_block"):
            continue
        if not 3 <= d.b - d.a + 1 <= 80 or counts[d.name] != 1 or len(d.name) < 3:
            continue
        if d.name in ("__init__", "main", "constructor") or core.type == "constructor_declaration":
            continue
        own = {d.owner} if d.owner else set()
        recv = core.child_by_field_name("receiver") if lang == "go" else None
        for p in recv.named_children if recv is not None else ():
            own |= {_text(x) for x in p.children_by_field_name("name")}
        if gold := gold_of(d, references(lang, d, core, own, types), by_name):
            out.append((d, core, gold))
    return out


def stubbed(
    lang: str, src: bytes, d: Def, core: Any, rnd: random.Random
) -> tuple[str, str, int] | None:
    """The file with ``core``'s body replaced by a stub, the requirement and how many rows
    what follows moved; None where there is no task (Python: a one-line function, one with a
    docstring alone)."""
    lines = src.decode().split("\n")
    body = core.child_by_field_name("body")
    ws = lines[d.a][: len(lines[d.a]) - len(lines[d.a].lstrip(" \t"))]
    inner = ws + ("\t" if lang == "go" or ws.startswith("\t") else "    ")
    rows = body.end_point[0] - body.start_point[0]
    if lang == "python":  # the docstring goes with the body: it becomes the requirement
        doc = docstring(body)
        if doc is not None and doc.end_point[0] >= body.end_point[0]:
            return None
        if body.start_point[0] == core.start_point[0]:
            return None
        req = _text(doc.named_children[0]).strip("\"' \n\rbrRuU") if doc else ""
        req = "\n".join(x.strip() for x in req.split("\n")).strip()
        stub, shift = f"{inner}pass", -rows
        start = body.start_byte - body.start_point[1]  # from the start of its first line
    else:
        req = leading_comment(lines, d.a)
        stub = "{\n" + inner + rnd.choice(STUBS[lang]) + "\n" + ws + "}"
        shift, start = 2 - rows, body.start_byte
    return (src[:start] + stub.encode() + src[body.end_byte :]).decode(), req[:1200], shift


def tasks_in(lang: str, rel: str, src: str, rnd: random.Random) -> list[Task]:
    """Up to PER_FILE drawn tasks in one file; none if a gold definition shares rows with the
    replaced body (bundled code): its lines would not be the original ones."""
    raw = src.encode()
    tree = clean_parse(lang, raw)
    if tree is None:
        return []
    lines = src.split("\n")
    defs = definitions(lang, tree.root_node)
    cands = candidates(lang, defs)
    rnd.shuffle(cands)
    out = []
    for d, core, gold in cands[:PER_FILE]:
        made = stubbed(lang, raw, d, core, rnd)
        if made is None or clean_parse(lang, made[0].encode()) is None:
            continue
        code, req, shift = made
        new = code.split("\n")
        moved = {id(x): (x.a + shift, x.b + shift) if x.a > d.b else (x.a, x.b) for x in defs}
        golds = [(x.name, a, b, new[a : b + 1]) for x in gold for a, b in [moved[id(x)]]]
        if any(g[3] != lines[x.a : x.b + 1] for g, x in zip(golds, gold, strict=True)):
            return []
        units = [moved[id(x)] for x in defs if x is not d and not nested(x, d)]
        body_row = core.child_by_field_name("body").start_point[0]
        sig = new[d.a : body_row + (lang != "python")]
        out.append(Task(lang, rel, d.name, code, req, (d.a, d.b + shift), sig, golds, units))
    return out


def draw(files: dict[str, list[str]], per_lang: int) -> dict[str, list[Task]]:
    """Per language up to ``per_lang`` tasks: files in a shuffled order, at most PER_PACKAGE
    tasks a package; one generator for all, languages in TAGS order."""
    rnd, out = random.Random(11), {}
    for lang in TAGS:
        paths = list(files[lang])
        rnd.shuffle(paths)
        got: list[Task] = []
        per_pkg: Counter[str] = Counter()
        for path in paths:
            try:
                src = Path(path).read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            rel = str(Path(path).relative_to(CACHE))
            m = PACKAGE.match(rel)
            pkg = next((x for x in m.groups() if x), rel) if m else rel
            if per_pkg[pkg] >= PER_PACKAGE:
                continue
            new = tasks_in(lang, rel, src, rnd)
            per_pkg[pkg] += len(new)
            got += new
            if len(got) >= per_lang:
                break
        out[lang] = got[:per_lang]
        print(f"{lang}: {len(out[lang])} tasks from {len(paths)} files")
    return out


def frame(t: Task, fence: str) -> tuple[str, str]:
    """The prose before and after the file: DevEval's prompt."""
    head = f"Here is `{t.rel}`:\n{fence}{TAGS[t.lang]}\n"
    return head, f"\n{fence}\nImplement `{t.name}`." + (f"\n{t.req}" if t.req else "")


def contains(lines: list[str], block: list[str]) -> bool:
    """Whether ``block`` appears in ``lines``, contiguous."""
    n = len(block)
    return any(ln == block[0] and lines[i : i + n] == block for i, ln in enumerate(lines))


def innermost(units: list[tuple[int, int]], target: tuple[int, int]) -> list[tuple[int, int]]:
    """Definitions holding no other (a class gives way to its members), nearest first."""
    a, b = target
    spans = sorted(set(units), key=lambda u: (min(abs(u[0] - b), abs(u[1] - a)), u))
    return [u for u in spans if not any(v != u and u[0] <= v[0] and v[1] <= u[1] for v in spans)]


def cost(lines: list[str], rows: set[int]) -> int:
    return ctxpress.count_tokens("\n".join(lines[r] for r in sorted(rows)))


def nearest(lines: list[str], rows: set[int], spans: list[set[int]], budget: int) -> list[str]:
    """``rows``, then each of ``spans`` in turn that still fits in ``budget`` tokens."""
    for span in spans:
        if span - rows and cost(lines, rows | span) <= budget:
            rows = rows | span
    return [lines[r] for r in sorted(rows)]


def oracle(t: Task, lines: list[str], budget: int) -> list[str]:
    """The signature, then gold definitions while they fit, the cheapest addition first."""
    rows = set(range(t.target[0], t.target[0] + len(t.sig)))
    pending = {i: set(range(a, b + 1)) for i, (_, a, b, _) in enumerate(t.gold)}
    while pending:
        now = cost(lines, rows)
        best = min(pending, key=lambda i: (cost(lines, rows | pending[i]) - now, i))
        if cost(lines, rows | pending[best]) <= budget:
            rows |= pending[best]
        del pending[best]
    return [lines[r] for r in sorted(rows)]


def run_task(t: Task) -> dict[str, Any]:
    """One task at every f: ctxpress and both baselines; a gold mask each ("101": 1st, 3rd
    kept)."""
    fence = fence_for(t.code)
    head, tail = frame(t, fence)
    base = ctxpress.count_tokens([{"role": "user", "content": head + tail}])
    code_tok = ctxpress.count_tokens(t.code)
    lines = t.code.split("\n")
    target = set(range(t.target[0], t.target[1] + 1))
    nearby = [set(range(a, b + 1)) for a, b in innermost(t.units, t.target)]

    def mask(out: list[str]) -> str:
        return "".join("01"[contains(out, g[3])] for g in t.gold)

    runs = []
    for f in FRACS:
        budget, code_budget = base + int(f * code_tok), int(f * code_tok)
        msgs = [{"role": "user", "content": head + t.code + tail}]
        t0 = time.perf_counter()
        try:
            res = ctxpress.compress(msgs, budget=budget, stages=["code"])
            text, after, failed = res.messages[-1]["content"], res.tokens_after, res.fail_open
        except Exception:
            text, after, failed = None, None, True
        ms = 1000 * (time.perf_counter() - t0)
        framed = isinstance(text, str) and len(text) >= len(head) + len(tail)
        ok = framed and text.startswith(head) and text.endswith(tail)
        block = text[len(head) : len(text) - len(tail)] if ok else None
        out = block.split("\n") if block is not None else []
        src = block if block is None or block.endswith("\n") else block + "\n"  # cut lines
        runs.append(
            {
                "f": f,
                "budget": budget,
                "after": after,
                "kept": mask(out),
                "near": mask(nearest(lines, target, nearby, code_budget)),
                "oracle": mask(oracle(t, lines, code_budget)),
                "sig": block is not None and contains(out, t.sig),
                "parse": src is not None and clean_parse(t.lang, src.encode()) is not None,
                "err": failed or block is None,
                "ms": round(ms, 1),
            }
        )
    row = {"lang": t.lang, "file": t.rel, "name": t.name, "gold": [g[0] for g in t.gold]}
    return row | {"code_tok": code_tok, "runs": runs}


def summarize(rows: list[dict[str, Any]], f: float) -> dict[str, Any]:
    """COLS over the runs at ``f`` of ``rows``."""
    runs = [r for row in rows for r in row["runs"] if r["f"] == f]
    if not runs:
        return {}

    def recall(key: str) -> float:
        return statistics.mean(r[key].count("1") / len(r[key]) for r in runs)

    s: dict[str, Any] = {"tasks": len(runs)}
    s |= {"ctxpress": recall("kept"), "nearest": recall("near"), "oracle": recall("oracle")}
    s |= {k: statistics.mean(r[k] for r in runs) for k in ("sig", "parse")}
    s |= {"over": sum(r["after"] is not None and r["after"] > r["budget"] for r in runs)}
    return s | {"err": sum(r["err"] for r in runs), "ms": statistics.mean(r["ms"] for r in runs)}


def table(
    langs: list[str], rows: list[dict[str, Any]], summarize: Any, cols: list[Any]
) -> dict[str, dict[str, Any]]:
    """Print per language (and ALL) and f the ``cols`` of ``summarize(rows, f)``; return
    the summaries."""
    summary: dict[str, dict[str, Any]] = {}
    print("language".ljust(12) + "f".rjust(5) + "".join(h.rjust(w) for _, h, w, _ in cols))
    for lang in [*langs, "ALL"]:
        mine = [r for r in rows if lang in (r["lang"], "ALL")]
        summary[lang] = {str(f): s for f in FRACS if (s := summarize(mine, f))}
        for f, s in summary[lang].items():
            cells = "".join(format(s[k], fmt).rjust(w) for k, _, w, fmt in cols)
            print(f"{lang:12}{float(f):5.2f}{cells}")
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--per-lang", type=int, default=110, help="tasks per language")
    ap.add_argument("--langs", default=",".join(TAGS))
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch()
    t_all = time.perf_counter()
    files = corpus()
    langs = [lang for lang in TAGS if lang in args.langs.split(",")]
    for lang in langs:
        if not files[lang]:
            print(f"{lang}: no corpus in {CACHE} (run with --fetch)")
    drawn = draw(files, args.per_lang)
    with Pool(args.jobs) as pool:
        rows = pool.map(run_task, [t for lang in langs for t in drawn[lang]], chunksize=2)
    secs = time.perf_counter() - t_all
    summary = table(langs, rows, summarize, COLS)
    print(f"{len(rows) * len(FRACS)} calls; {secs:.0f} s in all")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    jdk = (JDK / ".done").read_text() if (JDK / ".done").exists() else None
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1), "jdk": jdk}
    report |= {"columns": {k: h for k, h, _, _ in COLS}, "summary": summary, "tasks": rows}
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
