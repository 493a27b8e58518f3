"""The code stage on new prompt shapes: error formats, ways of naming code, message layouts.

Corpus in ~/.cache/ctxpress/bench/shapes, none of it in code_real.py's or code_fresh.py's:
pinned PyPI sdists (Python in typer, starlette, pluggy, tomlkit, more-itertools, black's src/;
C in pycryptodome and bitarray; C++ in pikepdf's src/core), npm packages (JS in hono, ky, jotai,
lit-html, @tanstack/table-core, @vue/runtime-core, cmdk, react-resizable-panels; TS in rxjs's
src, @preact/signals-core, @blocknote/react; its TSX; @capacitor/android's Java) and Debian 12
packages (Go: uuid, isatty, x/sync, golang-lru, x/exp; Rust: thiserror-impl, either, smallvec,
indexmap; C++: Eigen, yaml-cpp, pugixml, jsoncpp; C: inih, lz4 headers). Per language the sorted
file list (1.5-120 kB, no .d.ts, no .min.) is shuffled by Random(77 + len(language)) and read in
turn until --per-lang + 6 files parse cleanly (the extra ones are second files for two_fences);
the first --per-lang of them with a focal are asked about. A focal: a function of 3..150 lines
whose name (3+ chars) is unique in the file, 60 % of the time one with a feature (decorated,
async, match, getter, generic, Rust ``where``, C++ template / ``A::f`` / lambda, @Override,
anonymous class, static) where there is one.

Shapes by group; budget = tokens of the messages with every code block emptied + f x the code
tokens, f taking 0.25 / 0.50 / 0.10 in turn over a language's prompts:
``error`` two reports per language pointing by file:line into the focal's body: pytest failure
          / traceback through several files, Node stack / Firefox ``fn@url``, tsc ``(N,C)`` /
          vitest, go build / go test panic, rustc gutter / new-format panic, gcc / clang with
          the ``N | line`` gutter, javac / Java ``Caused by:``;
``name``  `Class.method`, `Class::method`, obj.name(x) without backticks, the bare name in
          prose, two functions at once, a name defined in several places (dup_name) and one
          of those with its owner (dup_qualified), a name that is nowhere (missing_name), a
          class (ask_class), a constant / enum / interface / type alias / macro (ask_type);
``msg``   two fences with the focal in the first or the second file, the file pasted again
          with a line added (edit_twice: the new copy is asked about), a read_file tool call
          whose result is the file, content as a list of parts, a 20-turn chat asking at the
          end, a ```diff fence before the file, info strings ``title="x.py"`` and ``:src/x.ts``.
Each prompt goes through ``compress`` with ``stages=["code"]`` for the checks, then the default
pipeline for what a user loses; in that order, the probe's, so its counts compare one to one.

Columns, per language summed over shapes (per shape in the JSON), those of the probe's
analyze.py: prm prompts; fits prompts whose asked definitions take <= 0.8 f x the tokens of
the block holding them; exc / fopen / stage_err exceptions, fail-open, stage errors (either
pipeline); count message count or roles changed; prose text around a fence, part or tool
result changed; others a message without code, or tool_calls / tool_call_id, changed; parse a
trimmed block fails clean_parse in its true language; alter output lines that are not an
in-order subsequence of the input's (elision lines aside); focDrp asked definition not kept
whole where it fits; overF tokens_after > budget where it fits; focDrpNF not kept where it does
not fit (missing_name aside); slow calls > 1 s; D_focLost (default pipeline) asked code gone
from every message where it fits; D_omit messages replaced by "[n earlier messages omitted]";
D_overF over budget where it fits. The JSON lists every flagged call under ``problems``.

    .venv/bin/python benchmarks/code_shapes.py --fetch  # once: pip download, npm pack, apt-get
    .venv/bin/python benchmarks/code_shapes.py [--per-lang 25] [--langs go,rust]

Setup: pip, ``npm``, ``apt-get`` + ``dpkg`` (Debian 12 package lists).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from code_fresh import Def, _preorder, altered_lines, body_point, definitions
from code_real import TAGS, _g, fence_for, fetch_debs, fetch_npm, fetch_sdists

import ctxpress
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.messages import content_text
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_shapes.json"
CACHE = user_cache_dir() / "bench" / "shapes"
P, N, R = CACHE / "pypi", CACHE / "npm", CACHE / "root"
SDISTS = re.findall(  # folder names: name-version
    r"\S+",
    "bitarray-3.12.3 black-26.10.1 more_itertools-11.2.1 pikepdf-10.18.0 pluggy-0.6.0"
    " pycryptodome-4.4.0 starlette-1.10.0 tomlkit-0.15.2 typer-0.29.2",
)
NPM_PKGS = re.findall(
    r"\S+",
    "@blocknote/react@0.55.0 @capacitor/android@8.5.2 cmdk@1.1.1 hono@4.13.19 jotai@2.20.3"
    " ky@1.14.3 lit-html@3.3.3 @preact/signals-core@1.14.5 react-resizable-panels@4.24.0"
    " rxjs@7.8.2 @tanstack/table-core@9.3.1 @vue/runtime-core@3.5.45",
)
DEBS = re.findall(
    r"\S+",
    "golang-github-google-uuid-dev=1.3.0-1 golang-github-hashicorp-golang-lru-dev=0.5.4-2"
    " golang-github-mattn-go-isatty-dev=0.0.17-1"
    " golang-golang-x-exp-dev=0.0~git20221028.83b7d23-2 golang-golang-x-sync-dev=0.1.0-1"
    " libeigen3-dev=3.4.0-4 libinih-dev=55-1 libjsoncpp-dev=1.9.5-4 liblz4-dev=1.9.4-1"
    " libpugixml-dev=1.13-0.2 librust-either-dev=1.6.1-1 librust-indexmap-dev=1.9.2-1"
    " librust-smallvec-dev=1.9.0-1 librust-thiserror-impl-dev=1.0.38-1"
    " libyaml-cpp-dev=0.7.0+dfsg-8+b1",
)
FRACS = (0.10, 0.25, 0.50)
ELIDE = re.compile(r"^[ \t]*(\.\.\.|// …|# …|/\* … \*/|\{/\* … \*/\})$")
OMITTED = re.compile(r"^\[\d+ earlier messages? omitted\]$")
COLS = re.findall(  # analyze.py's, in its order
    r"\S+",
    "prm fits exc fopen stage_err count prose others parse alter focDrp overF focDrpNF slow"
    " D_focLost D_omit D_overF",
)
OWNERS = {"class_definition", "class_declaration", "class", "abstract_class_declaration"}
OWNERS |= {"class_specifier", "struct_specifier", "impl_item", "trait_item", "object"}
OWNERS |= {"interface_declaration", "enum_declaration", "record_declaration"}
TYPES = {  # definitions asked about by name (ask_class / ask_type)
    "python": {"class_definition"},
    "javascript": {"class_declaration"},
    "typescript": {"class_declaration", "abstract_class_declaration", "interface_declaration"}
    | {"enum_declaration", "type_alias_declaration"},
    "go": {"type_spec"},
    "rust": {"struct_item", "enum_item", "trait_item", "type_item", "const_item", "static_item"},
    "c": {"struct_specifier", "enum_specifier", "type_definition"},
    "cpp": {"class_specifier", "struct_specifier", "enum_specifier", "alias_declaration"},
    "java": {"class_declaration", "interface_declaration", "enum_declaration"}
    | {"record_declaration"},
}
TYPES["tsx"] = TYPES["typescript"]
CLASSES = {"class_definition", "class_declaration", "abstract_class_declaration"}
CLASSES |= {"class_specifier", "struct_specifier", "struct_item", "type_spec"}


def fetch() -> None:
    """Download and unpack the corpus into CACHE; skips whatever is already there."""
    fetch_sdists(SDISTS, P)
    fetch_npm(NPM_PKGS, N)
    fetch_debs(DEBS, CACHE, R, unpinned=False)


def corpus() -> dict[str, list[str]]:
    """Per language the sorted candidate files: 1.5-120 kB, no .d.ts, no minified JS."""

    def files(*pats: str, excl: tuple[str, ...] = ()) -> list[str]:
        found = _g(*(str(CACHE / p) for p in pats))
        small = [f for f in found if Path(f).stat().st_size < 120_000 and ".min." not in f]
        return [f for f in small if not any(e in f for e in excl)]

    py = ["typer", "starlette", "pluggy", "tomlkit", "more_itertools"]
    js = ["hono-*/**/dist/*.js", "hono-*/**/dist/*/*.js", "ky-*/**/*.js", "jotai-*/**/*.mjs"]
    js += ["jotai-*/**/*.js", "lit-html-*/**/development/**/*.js"]
    js += ["tanstack-table-core-*/**/*.js", "vue-runtime-core-*/**/*.js", "cmdk-*/**/*.mjs"]
    js += ["react-resizable-panels-*/**/*.js"]
    ts = ["rxjs-*/package/src/**/*.ts", "preact-signals-core-*/**/src/*.ts"]
    gocode, gox = "root/usr/share/gocode/src/github.com", "root/usr/share/gocode/src/golang.org/x"
    go = [f"{gocode}/google/uuid/*.go", f"{gocode}/mattn/**/*.go", f"{gox}/sync/**/*.go"]
    go += [f"{gocode}/hashicorp/**/*.go"]
    go += [f"{gox}/exp/{p}/*.go" for p in ("slices", "maps", "slog", "constraints")]
    rs = ["thiserror-impl", "either", "smallvec", "indexmap"]
    c = ["pycryptodome-*/src/*.c", "pycryptodome-*/src/*.h", "bitarray-*/bitarray/*.[ch]"]
    inc = "root/usr/include"
    cpp = [f"{inc}/eigen3/Eigen/src/**/*.h", f"{inc}/yaml-cpp/**/*.h", f"{inc}/pugi*.hpp"]
    cpp += [f"{inc}/json/*.h", "pypi/pikepdf-*/src/core/*.cpp", "pypi/pikepdf-*/src/core/*.h"]
    return {
        "python": files(
            *(f"pypi/{p}-*/**/*.py" for p in py), "pypi/black-*/src/**/*.py", excl=("tests/data",)
        ),
        "javascript": files(*(f"npm/{p}" for p in js)),
        "typescript": files(*(f"npm/{p}" for p in ts), "npm/blocknote-react-*/**/src/**/*.ts"),
        "tsx": files("npm/blocknote-react-*/**/src/**/*.tsx"),
        "go": files(*go),
        "rust": files(*(f"root/usr/share/cargo/registry/{p}*/**/*.rs" for p in rs)),
        "c": files(*(f"pypi/{p}" for p in c), f"{inc}/ini.h", f"{inc}/lz4*.h"),
        "cpp": files(*cpp),
        "java": files("npm/capacitor-android-*/**/*.java"),
    }


def owner_of(lang: str, d: Def) -> str | None:
    """The class, impl, Go receiver or C++ scope ``A::`` a definition belongs to, if any."""
    if lang == "go":
        recv = d.fn.child_by_field_name("receiver")
        if recv is None:
            return None
        m = re.search(r"(\w+)(?:\[[^\]]*\])?\s*\)$", recv.text.decode())
        return m.group(1) if m else None
    if lang in ("c", "cpp"):
        x = d.fn.child_by_field_name("declarator")
        while x is not None and x.type != "function_declarator":
            x = x.child_by_field_name("declarator")
        q = x.child_by_field_name("declarator") if x is not None else None
        sc = q.child_by_field_name("scope") if q is not None else None
        if q is not None and q.type == "qualified_identifier" and sc is not None:
            return re.sub(r"<.*", "", sc.text.decode()).split("::")[-1]
    p = d.node.parent
    while p is not None and p.type not in OWNERS:
        p = p.parent
    if p is None:
        return None
    if p.type == "impl_item":
        t = p.child_by_field_name("type")
        return re.sub(r"<.*", "", t.text.decode()) if t is not None else None
    n = p.child_by_field_name("name")
    return str(n.text.decode()) if n is not None else None


def types_of(lang: str, tree: Any) -> list[tuple[str, Any, str]]:
    """(name, node, kind) of the classes, types, constants and macros one can ask about."""
    out = []
    for n in _preorder(tree.root_node):
        parent = n.parent.type if n.parent is not None else None
        if n.type in TYPES[lang]:
            body = n.type in ("struct_specifier", "class_specifier", "enum_specifier")
            if body and n.child_by_field_name("body") is None:
                continue
            nm = n.child_by_field_name("name")
            if n.type == "type_definition":  # typedef struct {...} name_t;
                x = n.child_by_field_name("declarator")
                nm = x if x is not None and x.type == "type_identifier" else None
                t = n.child_by_field_name("type")
                if t is None or t.child_by_field_name("body") is None:
                    continue
            if nm is None:
                continue
            node = n.parent if lang == "go" or parent == "decorated_definition" else n
            out.append((nm.text.decode(), node, n.type))
        elif lang == "python" and n.type == "expression_statement" and parent == "module":
            if m := re.match(r"([A-Z][A-Z0-9_]{3,})\s*[:=]", n.text.decode()):
                out.append((m.group(1), n, "constant"))
        elif lang in ("javascript", "typescript", "tsx") and n.type == "lexical_declaration":
            whole = n.parent if parent == "export_statement" else n
            rx = r"(?:export\s+)?const\s+([A-Z][A-Z0-9_]{3,})\s*[:=]"
            if parent in ("program", "export_statement") and (
                m := re.match(rx, whole.text.decode())
            ):
                out.append((m.group(1), whole, "constant"))
        elif lang == "go" and n.type == "const_declaration" and parent == "source_file":
            if m := re.search(r"\b([A-Za-z]\w{3,})\b", n.text.decode()[5:]):
                out.append((m.group(1), n, "const"))
        elif lang in ("c", "cpp") and n.type == "preproc_function_def":
            out.append((n.child_by_field_name("name").text.decode(), n, "fmacro"))
        elif lang == "rust" and n.type == "macro_definition":
            out.append((n.child_by_field_name("name").text.decode(), n, "macro_rules"))
    return out


ASYNC = re.compile(r"\s*(export\s+)?(static\s+)?(pub(\(crate\))?\s+)?async\b")
MATCH = re.compile(r"^\s+match .*:$", re.M)
ACCESSOR = re.compile(r"\s*(static\s+)?(get|set)\s+\w")
GENERIC = re.compile(  # the first line: `func F[T any]`, `fn f<T: X>`, `<T extends X>` ...
    r"^\s*(func|fn|function|pub fn|export function)[^(\n]*\[[A-Z]\w* |<[A-Z]\w*(,|>|:| extends)"
)


def feats(lang: str, node: Any) -> list[str]:
    """The features a definition has: most focals are drawn among those with one."""
    t = node.text.decode()
    first, head, sig = t.split("\n")[0], t.split("{")[0], t.split("(")[0]
    has = {
        "decorated": lang == "python" and node.type == "decorated_definition",
        "async": ASYNC.match(t) is not None,
        "match": lang == "python" and "\n" in t and MATCH.search(t) is not None,
        "property": "@property" in first or ACCESSOR.match(t) is not None,
        "generic": GENERIC.search(first) is not None,
        "where": lang == "rust" and "where" in head,
        "template": lang == "cpp" and node.type == "template_declaration",
        "qualified": lang == "cpp" and "::" in sig,
        # as the probe drew it: `[=]` and `[this]` count in every language
        "lambda": (lang == "cpp" and "[&]" in t) or "[=]" in t or "[this]" in t,
        "override": "@Override" in first or "override" in head,
        "anon_class": lang == "java" and "new " in t and "() {" in t,
        "static": lang in ("c", "cpp") and t.startswith("static"),
    }
    return [k for k, v in has.items() if v]


ERRORS = {  # per language two (shape, report); fields filled in by errors()
    "python": [
        (
            "pytest",
            "I ran the tests:\n```\n"
            "=================================== FAILURES ===================================\n"
            "________________________________ test_roundtrip ________________________________\n"
            "\n    def test_roundtrip():\n        data = make_fixture()\n"
            ">       assert run(data) == expected\nE       assert None == {{'a': 1}}\n\n"
            "tests/test_core.py:41: \n"
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\n"
            "\ndata = {{'a': 1}}\n\n    {sig}\n        ...\n>       {strip}\n"
            "E       KeyError: 'a'\n"
            "\n{rel}:{n}: KeyError\n"
            "=========================== short test summary info ============================\n"
            "FAILED tests/test_core.py::test_roundtrip - KeyError: 'a'\n```\nHow do I fix it?",
        ),
        (
            "multiframe",
            "```\nTraceback (most recent call last):\n"
            '  File "/home/me/app/main.py", line 12, in <module>\n    sys.exit(cli())\n'
            '  File "/home/me/app/commands/export.py", line 57, in run\n'
            "    rows = loader.load(path)\n"
            '  File "/home/me/.venv/lib/python3.12/site-packages/{pkg}/{base}", line {n}, in'
            " {name}\n    {strip}\n"
            '  File "/home/me/.venv/lib/python3.12/site-packages/{pkg}/_compat.py", line 210,'
            " in coerce\n    return int(value)\n"
            "ValueError: invalid literal for int() with base 10: 'x'\n```\n"
            "Only `{base}` is mine to change. What is wrong?",
        ),
    ],
    "javascript": [
        (
            "node_stack_owner",
            "```\nTypeError: Cannot read properties of undefined (reading 'length')\n"
            "    at {own}.{name} (file:///home/me/app/node_modules/pkg/dist/{base}:{n}:{c})\n"
            "    at async Promise.all (index 0)\n"
            "    at async main (file:///home/me/app/index.mjs:14:3)\n```\nWhat's wrong?",
        ),
        (
            "firefox_stack",
            "Firefox console shows:\n```\nUncaught TypeError: e is undefined\n"
            "    {name}@http://localhost:5173/node_modules/.vite/deps/{base}?v=1a2b3c:{n}:{c}\n"
            "    onClick@http://localhost:5173/src/App.jsx:22:7\n```",
        ),
    ],
    "typescript": [
        (
            "tsc_paren",
            "`tsc --noEmit` says:\n```\n{rel}({n},{c}): error TS2345: Argument of type"
            " 'string | undefined' is not assignable to parameter of type 'string'.\n"
            "  Type 'undefined' is not assignable to type 'string'.\n```\nHow do I fix it?",
        ),
        (
            "vitest",
            "```\n FAIL  src/__tests__/{stem}.test.ts > {name} > handles empty input\n"
            "TypeError: Cannot read properties of undefined (reading 'map')\n"
            " ❯ {name} {rel}:{n}:{c}\n ❯ src/__tests__/{stem}.test.ts:18:5\n```",
        ),
    ],
    "go": [
        (
            "go_build",
            "`go build ./...` fails:\n```\n# example.com/{pkg}\n./{base}:{n}:{c}: cannot use v"
            " (variable of type int) as string value in argument to strconv.Quote\n```",
        ),
        (
            "go_test_panic",
            "```\n--- FAIL: Test{Name} (0.00s)\n"
            "panic: runtime error: index out of range [3] with length 3 [recovered]\n"
            "\tpanic: runtime error: index out of range [3] with length 3\n\n"
            "goroutine 7 [running]:\ntesting.tRunner.func1.2({{0x5d6b40, 0xc0000b6018}})\n"
            "\t/usr/lib/go-1.21/src/testing/testing.go:1545 +0x238\n"
            "panic({{0x5d6b40?, 0xc0000b6018?}})\n"
            "\t/usr/lib/go-1.21/src/runtime/panic.go:914 +0x21f\n"
            "example.com/{pkg}.{recv}{name}(...)\n\t/home/me/src/{pkg}/{base}:{n}\n"
            "example.com/{pkg}.TestX(0xc000007ba0)\n"
            "\t/home/me/src/{pkg}/{stem}_test.go:33 +0x1d\n"
            "testing.tRunner(0xc000007ba0, 0x60a0d8)\n"
            "\t/usr/lib/go-1.21/src/testing/testing.go:1595 +0xff\n"
            "FAIL\texample.com/{pkg}\t0.004s\n```",
        ),
    ],
    "rust": [
        (
            "rustc_gutter",
            "```\nerror[E0308]: mismatched types\n  --> src/{base}:{n}:{c}\n   |\n{n:<3}|{line}\n"
            "   |{pad}^^^^^ expected `usize`, found `u32`\n   |\n"
            "help: you can convert a `u32` to a `usize` and panic if the converted value"
            " doesn't fit\n```\nHow do I fix this?",
        ),
        (
            "rust_panic_new",
            "```\nthread 'main' panicked at src/{base}:{n}:{c}:\n"
            "index out of bounds: the len is 3 but the index is 3\n"
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n```",
        ),
    ],
    "c": [
        (
            "gcc_error",
            "```\n{base}: In function '{name}':\n"
            "{base}:{n}:{c}: error: invalid operands to binary + (have 'struct x' and 'int')\n"
            "{n:>5} | {line}\n      | {pad}^\n```",
        ),
        (
            "clang_warning",
            "Clang says:\n```\nsrc/{base}:{n}:{c}: warning: comparison of integers of"
            " different signs: 'int' and 'size_t' [-Wsign-compare]\n{n:>5} | {line}\n"
            "1 warning generated.\n```\nIs this a real bug?",
        ),
    ],
    "java": [
        (
            "javac",
            "```\nsrc/main/java/com/getcapacitor/{base}:{n}: error: incompatible types:"
            " possible lossy conversion from long to int\n{line}\n{pad}^\n1 error\n```",
        ),
        (
            "java_caused_by",
            "```\njava.lang.RuntimeException: Unable to start activity"
            " ComponentInfo{{com.example/com.example.MainActivity}}\n"
            "\tat android.app.ActivityThread.performLaunchActivity(ActivityThread.java:3449)\n"
            "\tat android.os.Handler.dispatchMessage(Handler.java:106)\n"
            "Caused by: java.lang.NullPointerException: Attempt to invoke virtual method"
            " 'int java.lang.String.length()' on a null object reference\n"
            "\tat com.getcapacitor.{own}.{name}({base}:{n})\n"
            "\tat com.getcapacitor.Bridge.<init>(Bridge.java:212)\n\t... 11 more\n```",
        ),
    ],
}
ERRORS |= {"tsx": ERRORS["typescript"], "cpp": ERRORS["c"]}
CHAT_Q = (
    "Unrelated question {k}: what is the difference between a process and a thread, and when"
    " would I prefer one over the other in a web server that handles around {rps} requests per"
    " second?"
)
CHAT_A = (
    "Answer {k}: a process has its own address space while threads share one. For {rps}"
    " requests per second either works; prefer processes for CPU-bound work and isolation,"
    " threads or async for I/O-bound work."
)


def errors(lang: str, path: str, d: Def, owner: str | None, code: str) -> list[tuple[str, str]]:
    """The language's two error reports, pointing at the middle statement of the focal."""
    row, col = body_point(d.fn)
    line, base, stem = code.split("\n")[row], Path(path).name, Path(path).stem
    fill = {"n": row + 1, "c": col + 1, "line": line, "strip": line.strip(), "base": base}
    fill |= {"stem": stem, "rel": f"src/{base}", "own": owner or stem, "name": d.name}
    fill |= {"pkg": Path(path).parent.name, "pad": " " * col, "sig": f"def {d.name}(...):"}
    fill |= {"Name": d.name[:1].upper() + d.name[1:], "recv": f"(*{owner})." if owner else ""}
    return [(shape, text.format(**fill)) for shape, text in ERRORS[lang]]


Seg = tuple[str, str]  # ("p", prose) or ("c", key of a code block)


def txt(s: str) -> Seg:
    """Prose that must come back unchanged."""
    return ("p", s)


def blk(key: str) -> Seg:
    """Where code block ``key`` goes (and what the stage may trim)."""
    return ("c", key)


@dataclass
class Turn:
    """A message to be: ``segs`` its content (one list of segments per part when ``parts``,
    else a single list), None for a message without content of ours (a tool call)."""

    role: str
    segs: list[list[Seg]] | None
    parts: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class Target(NamedTuple):
    """A definition asked about: in block ``key``, any one of ``alts`` (duplicates) counts."""

    key: str
    alts: tuple[str, ...]


@dataclass
class Prompt:
    """One prompt of a shape: the code blocks by key, the definitions it asks about, f."""

    shape: str
    group: str
    turns: list[Turn]
    codes: dict[str, str]
    targets: list[Target]
    f: float
    meta: dict[str, Any]


def user(*segs: Seg) -> Turn:
    """A user message with plain string content."""
    return Turn("user", [list(segs)])


def render(turns: list[Turn], codes: dict[str, str]) -> list[dict[str, Any]]:
    """The messages, code blocks filled in from ``codes``."""
    out = []
    for t in turns:
        m: dict[str, Any] = {"role": t.role, **t.extra}
        if t.segs is not None:
            texts = ["".join(s if k == "p" else codes[s] for k, s in part) for part in t.segs]
            m["content"] = [{"type": "text", "text": x} for x in texts] if t.parts else texts[0]
        out.append(m)
    return out


def extract(text: str, segs: list[Seg]) -> dict[str, str] | None:
    """The code blocks in ``text`` between its prose segments, or None if the prose changed."""
    if not segs:
        return {}
    if segs[0][0] != "p" or not text.startswith(segs[0][1]):
        return None
    pos, res = len(segs[0][1]), {}
    for i in range(1, len(segs), 2):
        key, nxt = segs[i][1], segs[i + 1][1]
        if i + 1 == len(segs) - 1:  # the last prose ends the text
            if not text.endswith(nxt) or len(text) - len(nxt) < pos:
                return None
            res[key] = text[pos : len(text) - len(nxt)]
        else:
            j = text.find(nxt, pos)
            if j < 0:
                return None
            res[key], pos = text[pos:j], j + len(nxt)
    return res


def prompts(
    lang: str,
    path: str,
    code: str,
    tree: Any,
    other: tuple[str, str] | None,
    rnd: random.Random,
    fs: Iterator[float],
) -> Iterator[Prompt]:
    """Every shape over one file, in the probe's order (``rnd`` and ``fs`` advance as in it);
    ``other`` is the (path, code) of a second file for two_fences."""
    ds = definitions(lang, tree)
    cnt = Counter(d.name for d in ds)
    cands = [d for d in ds if cnt[d.name] == 1 and len(d.name) >= 3]
    cands = [d for d in cands if 3 <= d.node.end_point[0] - d.node.start_point[0] + 1 <= 150]
    if not cands:
        return
    rnd.shuffle(cands)
    withf = [c for c in cands if feats(lang, c.node)]
    foc = withf[0] if withf and rnd.random() < 0.6 else cands[0]
    name, owner, ftext = foc.name, owner_of(lang, foc), foc.node.text.decode()
    tag, fence, base = TAGS[lang], fence_for(code), Path(path).name
    head = f"Here is `{base}`:\n{fence}{tag}\n"
    q = f"Why does `{name}` return the wrong value?"
    meta = {"focal": name, "owner": owner, "cat": foc.cat, "feats": feats(lang, foc.node)}
    a, focal = {"a": code}, [Target("a", (ftext,))]

    def single(
        shape: str, post: str, targets: list[Target], group: str = "name", **more: Any
    ) -> Prompt:
        turns = [user(txt(head), blk("a"), txt(f"{fence}\n{post}"))]
        return Prompt(shape, group, turns, a, targets, next(fs), {**meta, **more})

    for shape, report in errors(lang, path, foc, owner, code):
        yield single(shape, report, focal, "error")
    if owner:
        yield single("Class.method", f"Why does `{owner}.{name}` return the wrong value?", focal)
        yield single("Class::method", f"Why does `{owner}::{name}` return the wrong value?", focal)
    yield single("obj.call()", f"When I call obj.{name}(x) it returns the wrong value. Why?", focal)
    yield single("bare_prose", f"Why does {name} return the wrong value?", focal)
    if len(cands) > 1:
        n2 = cands[1] if cands[1] is not foc else cands[0]
        both = [*focal, Target("a", (n2.node.text.decode(),))]
        ask = f"Why do `{name}` and `{n2.name}` disagree on empty input?"
        yield single("two_funcs", ask, both, focal2=n2.name)
    dups = [d for d in ds if cnt[d.name] >= 2 and len(d.name) >= 4]
    dups = [d for d in dups if d.node.end_point[0] - d.node.start_point[0] >= 2]
    if dups:
        dn = dups[rnd.randrange(len(dups))]
        copies = [d for d in ds if d.name == dn.name]
        anyone = [Target("a", tuple(c.node.text.decode() for c in copies))]
        ask = f"Why does `{dn.name}` return the wrong value?"
        yield single("dup_name", ask, anyone, focal=dn.name, ncopies=len(copies))
        ow = owner_of(lang, dn)
        if ow and [c for c in copies if c is not dn and owner_of(lang, c) != ow]:
            ask = f"Why does `{ow}.{dn.name}` return the wrong value?"
            only = [Target("a", (dn.node.text.decode(),))]
            yield single("dup_qualified", ask, only, focal=f"{ow}.{dn.name}")
    yield single("missing_name", "Why does `frobnicateWidgetz` return the wrong value?", [])
    ts = types_of(lang, tree)
    tcnt = Counter(t[0] for t in ts)
    ts = [t for t in ts if tcnt[t[0]] == 1 and len(t[0]) >= 3]
    cls = [t for t in ts if t[2] in CLASSES and "\n" in t[1].text.decode()]
    oth = [t for t in ts if t not in cls and t[1].end_point[0] > t[1].start_point[0]]
    for shape, ask, kinds in (
        ("ask_class", "What is wrong with the `{}` class?", cls),
        ("ask_type", "Why is `{}` defined like this?", oth),
    ):
        if kinds:
            tn, node, kind = kinds[rnd.randrange(len(kinds))]
            asked = [Target("a", (node.text.decode(),))]
            yield single(shape, ask.format(tn), asked, focal=tn, tkind=kind)

    def msg(shape: str, turns: list[Turn], codes: dict[str, str] = a) -> Prompt:
        return Prompt(shape, "msg", turns, codes, focal, next(fs), meta)

    if other:
        opath, ocode = other
        of, obase = fence_for(ocode), Path(opath).name
        two = {"a": code, "b": ocode}
        mid = txt(f"{fence}\nand `{obase}`:\n{of}{tag}\n")
        yield msg(
            "two_fences_focal1", [user(txt(head), blk("a"), mid, blk("b"), txt(f"{of}\n{q}"))], two
        )
        first, mid = (
            txt(f"Here is `{obase}`:\n{of}{tag}\n"),
            txt(f"{of}\nand `{base}`:\n{fence}{tag}\n"),
        )
        yield msg(
            "two_fences_focal2", [user(first, blk("b"), mid, blk("a"), txt(f"{fence}\n{q}"))], two
        )
    row = body_point(foc.fn)[0]
    lines = code.split("\n")
    indent = lines[row][: len(lines[row]) - len(lines[row].lstrip(" \t"))]
    mark = "#" if lang == "python" else "//"
    added = f"{indent}{mark} guard against empty input"
    code2 = "\n".join([*lines[:row], added, *lines[row:]])
    tree2 = clean_parse(lang, code2.encode())
    again = [d for d in definitions(lang, tree2) if d.name == name] if tree2 is not None else []
    if len(again) == 1:
        turns = [
            user(txt(head), blk("a"), txt(f"{fence}\nCan you review this?")),
            Turn(
                "assistant",
                [[txt("Looks reasonable overall; the error handling could be tighter.")]],
            ),
            user(
                txt(f"I changed it a bit:\n{fence}{tag}\n"),
                blk("b"),
                txt(f"{fence}\nNow why does `{name}` return the wrong value?"),
            ),
        ]
        edited = Target("b", (again[0].node.text.decode(),))
        yield Prompt("edit_twice", "msg", turns, {"a": code, "b": code2}, [edited], next(fs), meta)
    call = {"name": "read_file", "arguments": json.dumps({"path": f"src/{base}"})}
    yield msg(
        "tool_call",
        [
            user(txt(f"Open src/{base} and tell me why `{name}` returns the wrong value.")),
            Turn(
                "assistant",
                None,
                extra={
                    "content": None,
                    "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
                },
            ),
            Turn("tool", [[txt(""), blk("a"), txt("")]], extra={"tool_call_id": "call_1"}),
            user(txt("That's the file. Why does it return the wrong value?")),
        ],
    )
    yield msg("parts", [Turn("user", [[txt(head), blk("a"), txt(fence)], [txt(q)]], parts=True)])
    chat = [
        Turn("system", [[txt("You are a helpful assistant.")]]),
        user(txt(head), blk("a"), txt(f"{fence}\nKeep this file in mind.")),
        Turn("assistant", [[txt("Sure, I have read it.")]]),
    ]
    for k in range(8):
        rps = 100 * (k + 1)
        chat.append(user(txt(CHAT_Q.format(k=k, rps=rps))))
        chat.append(Turn("assistant", [[txt(CHAT_A.format(k=k, rps=rps))]]))
    chat.append(user(txt(f"Back to the file from the start: {q}")))
    yield msg("long_chat", chat)
    fl = ftext.split("\n")
    k, at = min(2, len(fl) - 1), foc.node.start_point[0] + 1
    diff = f"--- a/src/{base}\n+++ b/src/{base}\n@@ -{at},3 +{at},3 @@\n {fl[0]}\n-{fl[k]}\n"
    diff += f"+{fl[k]}  {mark} changed\n"
    patch = txt(f"This patch:\n```diff\n{diff}```\nwas applied to `{base}`:\n{fence}{tag}\n")
    then = txt(f"{fence}\nSince then `{name}` returns the wrong value. Why?")
    yield msg("diff_plus_file", [user(patch, blk("a"), then)])
    for shape, info in (("info_title", f' title="{base}"'), ("info_colon_path", f":src/{base}")):
        h = f"Here is the file:\n{fence}{tag}{info}\n"
        yield msg(shape, [user(txt(h), blk("a"), txt(f"{fence}\n{q}"))])


def code_blocks(
    p: Prompt, msgs: list[dict[str, Any]], out: list[dict[str, Any]]
) -> tuple[dict[str, str], list[str]]:
    """The code blocks found in ``out`` by their unchanged prose, and what else changed
    (count, prose, others)."""
    if len(out) != len(msgs) or [m["role"] for m in out] != [m["role"] for m in msgs]:
        return {}, ["count"]
    blocks: dict[str, str] = {}
    prose_ok, others_ok = True, True
    for m_in, m_out, turn in zip(msgs, out, p.turns, strict=True):
        if turn.segs is None or not any(k == "c" for part in turn.segs for k, _ in part):
            others_ok = others_ok and m_in == m_out
            continue
        rest_in = {k: v for k, v in m_in.items() if k != "content"}
        others_ok = others_ok and rest_in == {k: v for k, v in m_out.items() if k != "content"}
        content = m_out["content"]
        if turn.parts and (not isinstance(content, list) or len(content) != len(turn.segs)):
            prose_ok = False
            continue
        if turn.parts:
            texts = [x.get("text", "") for x in content]
        else:
            texts = [content if isinstance(content, str) else ""]
        for text, segs in zip(texts, turn.segs, strict=True):
            found = extract(text, segs)
            prose_ok = prose_ok and found is not None
            blocks.update(found or {})
    return blocks, [k for k, ok in (("prose", prose_ok), ("others", others_ok)) if not ok]


def call(
    lang: str, p: Prompt, msgs: list[dict[str, Any]], budget: int, fits: bool, pipe: str
) -> tuple[list[str], dict[str, Any]]:
    """One ``compress`` call: its flags (analyze.py's) and what a problem case shows."""
    t0 = time.perf_counter()
    try:
        res = ctxpress.compress(msgs, budget=budget, stages=["code"] if pipe == "code" else None)
    except Exception as e:
        return ["exc"], {"sec": time.perf_counter() - t0, "exc": f"{type(e).__name__}: {e}"}
    sec = time.perf_counter() - t0
    within = res.tokens_after <= budget
    notes = [n for s in res.stages for n in s.notes]
    info: dict[str, Any] = {"sec": sec, "tokens_after": res.tokens_after, "notes": notes[:8]}
    flags = [k for k, bad in (("fopen", res.fail_open), ("slow", sec > 1)) if bad]
    flags += ["stage_err"] if any(s.error for s in res.stages) else []
    if pipe == "default":
        everything = "\n".join(content_text(m.get("content")) for m in res.messages)
        kept = all(any(x in everything for x in tg.alts) for tg in p.targets)
        omitted = [
            OMITTED.match(content_text(m.get("content")) or "x") is not None for m in res.messages
        ]
        lost = (("D_focLost", fits and not kept), ("D_omit", any(omitted)))
        flags += [k for k, bad in (*lost, ("D_overF", fits and not within)) if bad]
        return flags, info
    blocks, changed = code_blocks(p, msgs, res.messages)
    flags += changed
    for key, code in p.codes.items():
        b = blocks.get(key)
        if b is not None and b != code:  # every trimmed block: once per block, as analyze.py
            flags += ["parse"] if clean_parse(lang, b.encode()) is None else []
            flags += ["alter"] if altered_lines(code, b, ELIDE) else []
    found = [tg.key in blocks and any(x in blocks[tg.key] for x in tg.alts) for tg in p.targets]
    dropped = bool(p.targets) and not all(found)
    info["focal_kept"] = all(found) if p.targets else None
    nf = not fits and dropped and p.shape != "missing_name"
    flags += [k for k, bad in (("focDrp", fits and dropped), ("focDrpNF", nf)) if bad]
    flags += ["overF"] if fits and not within else []
    return flags, info


@dataclass
class Tally:
    """Counts per (language, group, shape), call times and the flagged calls."""

    rows: defaultdict[tuple[str, str, str], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    secs: list[float] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)


def run_prompt(t: Tally, lang: str, rel: str, p: Prompt) -> None:
    """One prompt through the code stage alone, then the default pipeline."""
    msgs = render(p.turns, p.codes)
    code_tok = sum(ctxpress.count_tokens(c) for c in p.codes.values())
    budget = ctxpress.count_tokens(render(p.turns, dict.fromkeys(p.codes, ""))) + int(
        p.f * code_tok
    )
    ttok = sum(min(ctxpress.count_tokens(x) for x in tg.alts) for tg in p.targets)
    holding = {ctxpress.count_tokens(p.codes[tg.key]) for tg in p.targets}
    share = p.f * min(holding, default=code_tok)
    fits = bool(p.targets) and ttok <= 0.8 * share
    c = t.rows[(lang, p.group, p.shape)]
    c["prm"] += 1
    c["fits"] += fits
    case = {"lang": lang, "shape": p.shape, "file": rel, **p.meta, "f": p.f, "budget": budget}
    case |= {"target_tok": ttok, "fits": fits}
    for pipe in ("code", "default"):
        flags, info = call(lang, p, msgs, budget, fits, pipe)
        t.secs.append(info["sec"])
        c.update(flags)
        if flags:
            info["sec"] = round(info["sec"], 3)
            t.problems.append({**case, "pipe": pipe, "flags": flags, **info})


def run_lang(lang: str, paths: list[str], per_lang: int, t: Tally) -> dict[str, list[str]]:
    """Draw and run one language's files; the files asked about and the unclean ones met."""
    rnd = random.Random(77 + len(lang))
    paths = list(paths)
    rnd.shuffle(paths)
    clean: list[tuple[str, str, Any]] = []
    drawn: dict[str, list[str]] = {"files": [], "unclean": []}
    for path in paths:
        code = Path(path).read_text(encoding="utf-8", errors="replace")
        code += "" if code.endswith("\n") else "\n"
        tree = clean_parse(lang, code.encode())
        if tree is None:
            drawn["unclean"].append(str(Path(path).relative_to(CACHE)))
            continue
        clean.append((path, code, tree))
        if len(clean) >= per_lang + 6:
            break
    fs = itertools.islice(itertools.cycle(FRACS), 1, None)  # the probe's 0.25, 0.5, 0.1, ...
    for i, (path, code, tree) in enumerate(clean):
        if len(drawn["files"]) >= per_lang:
            break
        small = [(q, c) for q, c, _ in clean if q != path and len(c) < 15_000]
        other = small[i % len(small)] if small else None
        rel = str(Path(path).relative_to(CACHE))
        n = 0
        for p in prompts(lang, path, code, tree, other, rnd, fs):
            run_prompt(t, lang, rel, p)
            n += 1
        if n:
            drawn["files"].append(rel)
    return drawn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--per-lang", type=int, default=25, help="files asked about per language")
    ap.add_argument("--langs", default=",".join(TAGS))
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch()
    files = corpus()
    langs = [lang for lang in TAGS if lang in args.langs.split(",")]
    t, t_all = Tally(), time.perf_counter()
    drawn: dict[str, dict[str, list[str]]] = {}
    for lang in langs:
        if files[lang]:
            drawn[lang] = run_lang(lang, files[lang], args.per_lang, t)
        else:
            print(f"{lang}: no corpus in {CACHE} (run with --fetch)")
    secs = time.perf_counter() - t_all
    width = {k: max(6, len(k) + 1) for k in COLS}
    summary: dict[str, dict[str, int]] = {}
    by_shape: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    everywhere: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for (lang, g, s), c in sorted(t.rows.items()):
        by_shape[lang][f"{g}/{s}"] = {k: c[k] for k in COLS}
        everywhere[f"{g}/{s}"].update(c)
    by_shape["all"] = {k: {x: c[x] for x in COLS} for k, c in sorted(everywhere.items())}
    print("language".ljust(12) + "".join(k.rjust(width[k]) for k in COLS))
    for lang in [*drawn, "TOTAL"]:
        row: Counter[str] = sum(
            (c for (lg, _, _), c in t.rows.items() if lang in (lg, "TOTAL")), Counter()
        )
        summary[lang] = {k: row[k] for k in COLS}
        print(lang.ljust(12) + "".join(str(row[k]).rjust(width[k]) for k in COLS))
    ms = [1000 * s for s in t.secs] or [0.0]
    unclean = {lang: len(d["unclean"]) for lang, d in drawn.items()}
    print(f"{len(t.secs)} calls, mean {statistics.mean(ms):.1f} ms, max {max(ms) / 1000:.2f} s;")
    print(f"  {secs:.0f} s in all; unclean files met: {unclean}")
    flagged = Counter(f for x in t.problems for f in set(x["flags"]))
    for what, n in sorted(flagged.items()):
        some = [x for x in t.problems if what in x["flags"]][:2]
        eg = "; ".join(
            f"{x['lang']} {x['shape']} {Path(x['file']).name} {x['focal']}" for x in some
        )
        print(f"  [{what}] {n} calls, e.g. {eg}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1)}
    report |= {"columns": COLS, "summary": summary, "by_shape": by_shape}
    report |= {"calls": len(t.secs), "ms_mean": round(statistics.mean(ms), 2)}
    report |= {"ms_max": round(max(ms), 1), "sample": drawn, "problems": t.problems}
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
