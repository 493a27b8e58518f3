"""The code stage on fresh real code: five prompt shapes, focals of every kind, two pipelines.

Corpus in ~/.cache/ctxpress/bench/fresh, none of it in code_real.py's: pinned PyPI sdists
(Python; C in zstandard, lz4, ujson, Brotli, psutil; C++ in pybind11, kiwisolver, greenlet,
JPype1; Java in JPype1), npm packages (JS / TS / TSX; cordova-android's Java, better-sqlite3's
C++) and Debian 12 packages (Go, Rust, cJSON's C, header-only C++). Per language the sorted
file list (1.5-400 kB, no .d.ts, no .min.) is shuffled by Random(2024 + len(language)) and
taken in turn until --per-lang files parse cleanly and have a focal: a function of 3..150 lines
whose name (4+ chars) is unique in the file, 70 % of the time one that is not plain top level
(a method, nested function, arrow const, class-field arrow, Go receiver, Rust impl, C++
template), and a second focal where there is one. The first 8 unclean files per language get
one ``why`` prompt at f = 0.25 (``unclean_why``): they must come back unchanged.

Prompt kinds; budget = tokens of the messages with the file taken out + f x the file's tokens:
``why``     "Here is `x.py`:", tagged fence, "Why does `name` return the wrong value?": the
            first focal at f = 0.10 / 0.25 / 0.50, the second at one drawn f;
``trace``   a Python traceback / Node stack / tsc error / Go panic / Rust panic / ASan report /
            Java stack pointing at a statement in the focal's body, once per focal;
``plain``   an untagged fence and no file name: the language is detected;
``nofence`` the file as a message of its own, the question in a second user message;
``multi``   system, user pastes the file, assistant quotes 4 lines of the second focal, user
            asks about the first: the newest question must win.
Each prompt goes through ``compress`` twice: ``stages=["code"]`` for the checks, then the
default pipeline for what a user loses (the history stage dropping the file's message).

Columns, per language summed over kinds (per kind in the JSON): prm prompts; trim block changed;
parse trimmed block fails clean_parse in the detected language (parseT: in the true one); lmis
detected language is not the true one; alter output lines that are not an in-order subsequence
of the input's (elision lines aside); prose text, roles or other messages changed; focDrp focal
definition not kept whole though its tokens <= 0.8 f code tokens (fits); overF tokens_after >
budget where it fits; exc / fopen exceptions / fail-open (either pipeline); slow calls > 1 s;
asis "left as is" notes; hOmit / hOmF (default pipeline) the file's message replaced by "[1
earlier message omitted]" / of those, where the focal fits; othChg (default pipeline) other
messages changed.

    .venv/bin/python benchmarks/code_fresh.py --fetch  # once: pip download, npm pack, apt-get
    .venv/bin/python benchmarks/code_fresh.py [--per-lang 40] [--langs go,rust]

Setup: pip, ``npm``, ``apt-get`` + ``dpkg`` (Debian 12 package lists).
"""

from __future__ import annotations

import argparse
import functools
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

from code_real import JS, TAGS, _g, fence_for, fetch_debs, fetch_npm, fetch_sdists, name_declarator

import ctxpress
from ctxpress.compressor.code.languages import clean_parse, parse
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_fresh.json"
CACHE = user_cache_dir() / "bench" / "fresh"
P, N, R = CACHE / "pypi", CACHE / "npm", CACHE / "root"
FRACS = (0.10, 0.25, 0.50)
PYPI = re.findall(  # sdist folder names: name-version
    r"\S+",
    "Brotli-1.1.0 JPype1-1.5.0 attrs-24.2.0 greenlet-3.1.1 httpx-0.27.2 kiwisolver-1.4.7"
    " lz4-4.3.3 marshmallow-3.22.0 marshmallow_dataclass-8.7.0 psutil-6.0.0 py4j-0.10.9.7"
    " pybind11-2.13.6 pygments-2.18.0 requests-2.32.3 sqlparse-0.5.1 ujson-5.10.0"
    " zstandard-0.23.0",
)
NPM_PKGS = re.findall(
    r"\S+",
    "axios@1.7.7 better-sqlite3@11.3.0 commander@12.1.0 cordova-android@12.0.1 express@4.21.0"
    " @headlessui/react@2.1.8 @react-aria/combobox@3.10.3 @react-aria/dialog@3.5.17"
    " react-router@6.26.2 react-router-dom@6.26.2 @react-spectrum/button@3.16.7"
    " @react-spectrum/table@3.14.0 redux@5.0.1 @reduxjs/toolkit@2.2.7 swr@2.2.5"
    " @tiptap/core@2.6.6 @tiptap/react@2.6.6 @trpc/server@10.45.2 yup@1.4.0 zod@3.23.8",
)
DEBS = re.findall(
    r"\S+",
    "golang-github-gin-gonic-gin-dev=1.8.1-1 golang-github-pkg-errors-dev=0.9.1-2"
    " golang-github-sirupsen-logrus-dev=1.9.0-1"
    " golang-github-spf13-pflag-dev=1.0.6~git20210604-d5e0c0615ace-1"
    " golang-gopkg-yaml.v3-dev=3.0.1-3 libcjson-dev=1.7.15-1+deb12u4 libcli11-dev=2.1.2+ds-1"
    " libcxxopts-dev=3.1.1-1 libglm-dev=0.9.9.8+ds-6 libmsgsl-dev=4.0.0-2+deb12u1"
    " librust-hashbrown-dev=0.12.3-1 librust-log-dev=0.4.17-3 librust-regex-syntax-dev=0.6.27-1"
    " librust-semver-dev=1.0.14-1 librust-serde-json-dev=1.0.87-1"
    " libtomlplusplus-dev=3.3.0+ds-1",
)
# Python, C and C++ files under CACHE (Debian headers under root/usr/include), by glob
PY_GLOBS = ["pypi/**/*.py"]
INCLUDE = "root/usr/include"
C_GLOBS = [f"pypi/{p}*/**/*.{x}" for p in ("zstandard", "lz4", "ujson") for x in "ch"]
C_GLOBS += [f"{INCLUDE}/cjson/*.h", "pypi/Brotli*/c/**/*.[ch]", "pypi/psutil*/**/*.c"]
CPP_GLOBS = [
    f"{INCLUDE}/{p}"
    for p in ("CLI/*.hpp", "toml++/**/*.h", "toml++/**/*.hpp", "glm/**/*.hpp", "glm/**/*.inl")
]
CPP_GLOBS += [f"{INCLUDE}/gsl/*", f"{INCLUDE}/cxxopts.hpp"]
CPP_GLOBS += ["pypi/pybind11*/**/*.h", "pypi/kiwisolver*/**/*.h", "pypi/kiwisolver*/**/*.cpp"]
CPP_GLOBS += ["pypi/greenlet*/**/*.[ch]pp", "pypi/JPype1*/native/**/*.cpp"]
CPP_GLOBS += ["pypi/JPype1*/native/**/*.h", "npm/better-sqlite3*/package/src/*.[ch]pp"]
KINDS = ("why", "trace", "plain", "nofence", "multi", "unclean_why")
FUNCS = {"python": {"function_definition"}, "go": {"function_declaration", "method_declaration"}}
FUNCS |= {"rust": {"function_item"}, "java": {"method_declaration"}}
FUNCS |= {"c": {"function_definition"}, "cpp": {"function_definition"}}
_JSF = ("function_declaration", "generator_function_declaration", "method_definition")
FUNCS |= {lang: set(_JSF) for lang in JS}
ARROW = {"arrow_function", "function_expression", "function"}
SCOPES = {"class_definition", "class_body", "impl_item", "declaration_list"}
SCOPES |= {"field_declaration_list", "namespace_definition", "trait_item"}
FIELDS = ("public_field_definition", "field_definition")  # `handle = () => {}` in a class
NAMES = ("identifier", "field_identifier", "property_identifier", "type_identifier")
ELIDE = re.compile(r"^[ \t]*(\.\.\.|// …|\{/\* … \*/\})$")
OMITTED = re.compile(r"\[\d+ earlier messages? omitted\]")
COLS = [  # (counter key, header): analyze.py's, so its numbers compare one to one
    ("prompts", "prm"), ("trimmed", "trim"), ("parse_fail", "parse"),
    ("parse_fail_truelang", "parseT"), ("lang_mismatch", "lmis"), ("altered", "alter"),
    ("prose_changed", "prose"), ("focal_dropped_fits", "focDrp"), ("fits", "fits"),
    ("over_fits", "overF"), ("exc", "exc"), ("fail_open", "fopen"), ("slow", "slow"),
    ("left_as_is", "asis"), ("code_msg_omitted_by_history", "hOmit"),
    ("code_msg_omitted_fits", "hOmF"), ("other_msgs_changed_default", "othChg"),
]  # fmt: skip


def fetch() -> None:
    """Download and unpack the corpus into CACHE; skips whatever is already there."""
    fetch_sdists(PYPI, P)
    fetch_npm(NPM_PKGS, N)
    fetch_debs(DEBS, CACHE, R, unpinned=False)


def corpus() -> dict[str, list[str]]:
    """Per language the sorted candidate files: 1.5-400 kB, no .d.ts, no minified JS."""

    def files(*pats: str) -> list[str]:
        found = _g(*(str(CACHE / p) for p in pats))
        return [f for f in found if Path(f).stat().st_size < 400_000]

    js = files("npm/**/*.js", "npm/**/*.mjs", "npm/**/*.cjs")
    return {
        "python": files(*PY_GLOBS),
        "javascript": [f for f in js if ".min." not in f],
        "typescript": files("npm/**/*.ts"),
        "tsx": files("npm/**/*.tsx"),
        "go": files("root/usr/share/gocode/**/*.go"),
        "rust": files("root/usr/share/cargo/**/*.rs"),
        "c": files(*C_GLOBS),
        "cpp": files(*CPP_GLOBS),
        "java": files("pypi/**/*.java", "npm/**/*.java"),
    }


class Def(NamedTuple):
    """A function-like definition: ``node`` is all of it (decorators, template, ``const``)."""

    name: str
    node: Any
    fn: Any
    cat: str  # top, member, impl, trait_impl, nested, receiver, template, namespace, arrow_*


def _preorder(node: Any) -> Iterator[Any]:
    """Nodes in source order; code_real's _walk goes breadth-first, which would change the draw."""
    stack = [node]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.children))


def _last_name(node: Any) -> str | None:
    """The innermost name, ``operator==`` included (code_real's skips it: another draw)."""
    if node is None:
        return None
    if node.type in (*NAMES, "destructor_name", "operator_name"):
        return str(node.text.decode())
    for f in ("name", "declarator", "property", "field"):
        if (c := node.child_by_field_name(f)) is not None:
            return _last_name(c)
    return None


def _func_name(lang: str, n: Any) -> str | None:
    """A function node's name; C and C++ keep it under nested declarators (``*f``, ``A::f``)."""
    if lang in ("c", "cpp"):
        return _last_name(name_declarator(n))
    return _last_name(n.child_by_field_name("name"))


def _category(lang: str, n: Any) -> tuple[Any, str]:
    """A function node's whole definition and where it sits (what makes a focal hard)."""
    node, cat, anc = n, None, []
    p = n.parent
    while p is not None:
        anc.append(p.type)
        p = p.parent
    if lang == "python" and n.parent.type == "decorated_definition":
        node = n.parent
    if lang == "cpp" and n.parent.type == "template_declaration":
        node, cat = n.parent, "template"
    if any(t in FUNCS[lang] or t in ARROW for t in anc):
        cat = "nested"
    elif SCOPES.intersection(anc):
        cat = cat or ("impl" if "impl_item" in anc else "member")
    elif lang == "go" and n.type == "method_declaration":
        cat = "receiver"
    if lang == "rust" and "impl_item" in anc:
        impl = n.parent
        while impl.type != "impl_item":
            impl = impl.parent
        cat = "trait_impl" if impl.child_by_field_name("trait") is not None else "impl"
    if lang == "cpp" and "namespace_definition" in anc and cat is None:
        cat = "namespace"
    if lang == "cpp" and "template_declaration" in anc and cat in (None, "namespace", "member"):
        cat = "template"
    return node, cat or "top"


def definitions(lang: str, tree: Any) -> list[Def]:
    """Every named function-like definition, in source order."""
    out = []
    for n in _preorder(tree.root_node):
        p = n.parent
        if n.type in FUNCS[lang]:
            node, cat = _category(lang, n)
            d = Def(_func_name(lang, n) or "", node, n, cat)
        elif n.type in ARROW and lang in JS and p is not None and p.type == "variable_declarator":
            d = Def(_last_name(p.child_by_field_name("name")) or "", p.parent, n, "arrow_const")
        elif n.type in ARROW and lang in JS and p is not None and p.type in FIELDS:
            key = p.child_by_field_name("name") or p.child_by_field_name("property")
            d = Def(_last_name(key) or "", p, n, "class_field_arrow")
        else:
            continue
        if d.name:
            out.append(d)
    return out


def pick_focals(lang: str, tree: Any, rnd: random.Random) -> list[Def]:
    """Up to two unique 3..150-line definitions, the first one nested in something 70 % of
    the time (the shapes a focal finder misses)."""
    ds = definitions(lang, tree)
    counts = Counter(d.name for d in ds)
    cands = [
        d
        for d in ds
        if counts[d.name] == 1
        and len(d.name) >= 4
        and 3 <= d.node.end_point[0] - d.node.start_point[0] + 1 <= 150
    ]
    if not cands:
        return []
    rnd.shuffle(cands)
    special = [c for c in cands if c.cat != "top"]
    first = special[0] if special and rnd.random() < 0.7 else cands[0]
    return [first, *[c for c in cands if c is not first][:1]]


def body_point(fn: Any) -> tuple[int, int]:
    """(row, column) of the middle statement of ``fn``'s body: where a trace points."""
    body = fn.child_by_field_name("body")
    rows: set[tuple[int, int]] = set()
    for x in _preorder(body) if body is not None else ():
        stmt = "statement" in x.type or "declaration" in x.type
        if x is not body and stmt and x.start_point[0] > fn.start_point[0]:
            rows.add(tuple(x.start_point))
    if not rows:
        return fn.start_point[0] + (fn.end_point[0] > fn.start_point[0]), 4
    return sorted(rows)[len(rows) // 2]


def trace_text(lang: str, path: str, name: str, code: str, fn: Any) -> str:
    """An error report in the language's usual format pointing into the focal's body."""
    row, col = body_point(fn)
    n, c, line = row + 1, col + 1, code.split("\n")[row]
    rel = "/".join(Path(path).parts[-3:])
    if lang == "python":
        return (
            'Traceback (most recent call last):\n  File "/home/me/app/cli.py", line 88, in main\n'
            "    result = handler(args)\n"
            f'  File "/home/me/.venv/lib/python3.11/site-packages/{rel}", line {n}, in {name}\n'
            f"    {line.strip()}\nKeyError: 'content-type'"
        )
    if lang == "javascript":
        return (
            "TypeError: Cannot read properties of null (reading 'headers')\n"
            f"    at {name} (/home/me/app/node_modules/{rel}:{n}:{c})\n"
            "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"
        )
    if lang in ("typescript", "tsx"):
        msg = "error TS2345: Argument of type 'undefined' is not assignable to parameter of type"
        return f"{rel}:{n}:{c} - {msg} 'string'.\n\n{n} {line}"
    if lang == "go":
        recv = fn.child_by_field_name("receiver")
        rx = r"(\*?)\s*(\w+)(?:\[[^\]]*\])?\s*\)$"
        m = re.search(rx, recv.text.decode()) if recv is not None else None
        owner = f"({m.group(1)}{m.group(2)})." if m else ""
        return (
            "panic: runtime error: invalid memory address or nil pointer dereference\n"
            "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a5b1c]\n\n"
            f"goroutine 1 [running]:\ngithub.com/x/{Path(path).parent.name}.{owner}{name}"
            f"(0xc000012345)\n\t/home/me/go/pkg/mod/{rel}:{n} +0x3c\n"
            "main.main()\n\t/home/me/app/main.go:21 +0x65\nexit status 2"
        )
    if lang == "rust":
        return (
            "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', "
            f"{rel}:{n}:{c}\nstack backtrace:\n   0: rust_begin_unwind\n"
            f"   1: {Path(path).stem}::{name}\n             at ./{rel}:{n}:{c}\n"
            "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose"
            " backtrace."
        )
    if lang in ("c", "cpp"):
        return (
            "==31337==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd1c2a\n"
            f"READ of size 8 at 0x7ffd1c2a thread T0\n    #0 0x4f2e1a in {name} /home/me/src/"
            f"{rel}:{n}:{c}\n    #1 0x4f3b77 in main /home/me/src/main.c:40:3"
        )
    return (
        'Exception in thread "main" java.lang.NullPointerException\n'
        f"\tat org.example.{Path(path).stem}.{name}({Path(path).name}:{n})\n"
        "\tat org.example.Main.main(Main.java:15)"
    )


@dataclass
class Prompt:
    """Messages with the file pasted between ``head`` and ``post`` after ``before``."""

    kind: str
    head: str
    post: str
    before: list[dict[str, str]] = field(default_factory=list)
    after: list[dict[str, str]] = field(default_factory=list)

    def messages(self, code: str) -> list[dict[str, str]]:
        pasted = {"role": "user", "content": self.head + code + self.post}
        return [*self.before, pasted, *self.after]


def build(kind: str, lang: str, path: str, code: str, foc: Def, foc2: Def | None) -> Prompt:
    """The prompt of ``kind`` asking about ``foc`` (``multi``: after ``foc2`` was quoted)."""
    fence = fence_for(code)
    tag, why = TAGS[lang], f"Why does `{foc.name}` return the wrong value?"
    head = f"Here is `{Path(path).name}`:\n{fence}{tag}\n"
    if kind in ("why", "unclean_why"):
        return Prompt(kind, head, f"{fence}\n{why}")
    if kind == "trace":
        trace = trace_text(lang, path, foc.name, code, foc.fn)
        return Prompt(
            kind, head, f"{fence}\nI get this when I run it:\n```\n{trace}\n```\nWhat is wrong?"
        )
    if kind == "plain":
        return Prompt(kind, f"Here is my code:\n{fence}\n", f"{fence}\n{why}")
    if kind == "nofence":
        return Prompt(kind, "", "", after=[{"role": "user", "content": why}])
    assert kind == "multi" and foc2 is not None
    snippet = "\n".join(foc2.node.text.decode().split("\n")[:4])
    quote = f"Sure. The core is `{foc2.name}`:\n```{tag}\n{snippet}\n```\n"
    quote += "It looks fine to me, apart from missing input validation."
    return Prompt(
        kind,
        f"Here is `{Path(path).name}` from our repo:\n{fence}{tag}\n",
        f"{fence}\nCan you review it?",
        [{"role": "system", "content": "You are a careful senior engineer. Answer concisely."}],
        [
            {"role": "assistant", "content": quote},
            {
                "role": "user",
                "content": f"Thanks. And why does `{foc.name}` return the wrong value?",
            },
        ],
    )


class Outcome(NamedTuple):
    """What became of the file's message: ``block`` is the code left between head and post
    (None when the prose around it changed or the message is gone)."""

    block: str | None
    omitted: bool  # replaced by the history stage's "[n earlier messages omitted]"
    prose_ok: bool
    others_ok: bool  # every other message kept as it was
    roles_ok: bool


def outcome(p: Prompt, msgs: list[dict[str, str]], out: list[dict[str, Any]]) -> Outcome:
    """Find the file's message in ``out`` by its unchanged prose (nofence: as the message that
    is not the question), else by its position if the history stage replaced it."""
    mi = len(p.before)
    if p.kind == "nofence":
        q = p.after[0]["content"]
        cand = [i for i, m in enumerate(out) if m["content"] != q]
        text = out[cand[0]]["content"] if cand else None
        prose_ok = bool(cand)
    else:
        cand = [
            i
            for i, m in enumerate(out)
            if isinstance(m["content"], str) and m["content"].startswith(p.head)
        ]
        text = out[cand[0]]["content"] if cand else None
        whole = len(p.head) + len(p.post)
        prose_ok = text is not None and text.endswith(p.post) and len(text) >= whole
    omitted = text is not None and OMITTED.fullmatch(text) is not None
    if not omitted and len(out) == len(msgs) and isinstance(out[mi]["content"], str):
        omitted = OMITTED.fullmatch(out[mi]["content"]) is not None
        cand = [mi] if omitted else cand
    if omitted:
        text, prose_ok = None, False
    rest = [m for i, m in enumerate(out) if not cand or i != cand[0]]
    others = [m for i, m in enumerate(msgs) if i != mi]
    others_ok = len(rest) == len(others) and all(m in rest for m in others)
    roles_ok = [m["role"] for m in out] == [m["role"] for m in msgs]
    block = text[len(p.head) : len(text) - len(p.post)] if text is not None and prose_ok else None
    return Outcome(block, omitted, prose_ok, others_ok, roles_ok)


def altered_lines(code: str, block: str, elide: re.Pattern[str] = ELIDE) -> int:
    """Block lines that are neither elision markers (``elide``) nor the next input lines in
    order."""
    lines, j, bad = code.split("\n"), 0, 0
    for ln in block.split("\n"):
        if elide.match(ln):
            continue
        while j < len(lines) and lines[j] != ln:
            j += 1
        bad, j = (bad + 1, 0) if j == len(lines) else (bad, j + 1)
    return bad


@dataclass
class Tally:
    """Counts per (language, kind), plus what the summary lines and the JSON list."""

    rows: defaultdict[tuple[str, str], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    over: defaultdict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    notes: Counter[str] = field(default_factory=Counter)
    secs: list[float] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)


def run_prompt(
    t: Tally, lang: str, path: str, code: str, kind: str, focs: tuple[Def, Def | None], f: float
) -> None:
    """One prompt through the code stage alone and the default pipeline; counts and problems."""
    foc, foc2 = focs
    p = build(kind, lang, path, code, foc, foc2)
    msgs = p.messages(code)
    code_tok = ctxpress.count_tokens(code)
    budget = ctxpress.count_tokens(p.messages("")) + int(f * code_tok)
    focal = foc.node.text.decode()
    fits = ctxpress.count_tokens(focal) <= 0.8 * f * code_tok
    c = t.rows[(lang, kind)]
    c["prompts"] += 1
    case: dict[str, Any] = {"lang": lang, "kind": kind, "file": str(Path(path).relative_to(CACHE))}
    case |= {"focal": foc.name, "cat": foc.cat, "f": f, "budget": budget, "fits": fits}

    def problem(pipe: str, what: str, **more: Any) -> None:
        t.problems.append({**case, "pipe": pipe, "problem": what, **more})

    # default first, as in the probe: the process-wide cache (frozen blocks) then holds the
    # same entries at every call, whichever languages run
    for pipe in ("default", "code"):
        t0 = time.perf_counter()
        try:
            res = ctxpress.compress(
                msgs, budget=budget, stages=None if pipe == "default" else ["code"]
            )
        except Exception as e:
            res, err = None, f"{type(e).__name__}: {e}"
        sec = time.perf_counter() - t0
        t.secs.append(sec)
        c["slow"] += sec > 1
        if res is None:
            c["exc"] += 1
            problem(pipe, err)
            continue
        o = outcome(p, msgs, res.messages)
        c["fail_open"] += res.fail_open
        for bad, what in (
            (sec > 1, "slow"),
            (res.fail_open, "fail-open"),
            (o.omitted and fits, "file dropped by the history stage though its focal fits"),
            (pipe == "default" and not (o.others_ok and o.roles_ok), "other messages changed"),
        ):
            if bad:
                problem(pipe, what, sec=round(sec, 3))
        if pipe == "default":
            c["code_msg_omitted_by_history"] += o.omitted
            c["code_msg_omitted_fits"] += o.omitted and fits
            c["other_msgs_changed_default"] += not (o.others_ok and o.roles_ok)
            continue
        trimmed = o.block is not None and o.block != code
        if kind == "unclean_why":
            c["unclean_trimmed"] += trimmed
            if trimmed:
                problem(pipe, "unclean file changed")
            continue
        notes = [n for s in res.stages for n in s.notes]
        said = (re.match(rf"m{len(p.before)}: (\w+) block", n) for n in notes)
        det = next((m.group(1) for m in said if m), None)  # the language the stage detected
        over = res.tokens_after - budget
        c["fits"] += fits
        checks = {
            "prose_changed": not (o.prose_ok and o.others_ok and o.roles_ok),
            "over_fits": fits and over > 0,
        }
        if o.block is not None and trimmed:
            c["trimmed"] += 1
            c["lang_mismatch"] += det != lang
            src = o.block.encode()
            checks |= {
                "parse_fail": (det or lang) in TAGS and clean_parse(det or lang, src) is None,
                "parse_fail_truelang": clean_parse(lang, src) is None,
                "altered": altered_lines(code, o.block) > 0,
                "focal_dropped_fits": fits and focal not in o.block,
            }
        for key, bad in checks.items():
            c[key] += bad
            if bad:
                problem(pipe, key, tokens_after=res.tokens_after, over=over)
        if checks["over_fits"]:
            t.over[lang].append(over)
        left = [n.split(": ", 1)[1].split(";")[0] for n in notes if "left as is" in n]
        c["left_as_is"] += bool(left)
        t.notes.update(left)
        if left:
            problem(pipe, f"note: {left[0]}")


def run_lang(lang: str, paths: list[str], per_lang: int, t: Tally) -> dict[str, list[str]]:
    """Draw and run one language's files; the clean and unclean files drawn."""
    rnd = random.Random(2024 + len(lang))
    drawn: dict[str, list[str]] = {"clean": [], "unclean": []}
    paths = list(paths)
    rnd.shuffle(paths)
    for path in paths:
        if len(drawn["clean"]) >= per_lang:
            break
        code = Path(path).read_text(encoding="utf-8", errors="replace")
        code += "" if code.endswith("\n") else "\n"
        rel = str(Path(path).relative_to(CACHE))
        tree = clean_parse(lang, code.encode())
        if tree is None:
            drawn["unclean"].append(rel)
            if len(drawn["unclean"]) <= 8:
                whole = definitions(lang, parse(lang, code.encode()))
                ds = [d for d in whole if len(d.name) >= 4 and not d.fn.has_error]
                if ds:
                    run_prompt(t, lang, path, code, "unclean_why", (ds[len(ds) // 2], ds[0]), 0.25)
            continue
        focs = pick_focals(lang, tree, rnd)
        if not focs:
            continue
        drawn["clean"].append(rel)
        done = len(drawn["clean"])
        a, b = focs[0], focs[1] if len(focs) > 1 else None

        go = functools.partial(run_prompt, t, lang, path, code)
        for f in FRACS:
            go("why", (a, b), f)
        if b is not None:
            go("why", (b, a), rnd.choice(FRACS))
        go("trace", (a, b), FRACS[done % 3])
        if b is not None:
            go("trace", (b, a), FRACS[(done + 1) % 3])
        go("plain", (a, b), FRACS[(done + 2) % 3])
        go("nofence", (b or a, a), FRACS[done % 3])
        if b is not None:
            go("multi", (a, b), FRACS[(done + 1) % 3])
    return drawn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--per-lang", type=int, default=40, help="clean files per language")
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
    keys = [k for k, _ in COLS]
    by_kind: dict[str, dict[str, dict[str, int]]] = {}
    summary: dict[str, dict[str, int]] = {}
    total: Counter[str] = Counter()
    print("language".ljust(12) + "".join(h.rjust(7) for _, h in COLS))
    for lang in drawn:
        by_kind[lang] = {k: dict(t.rows[(lang, k)]) for k in KINDS if (lang, k) in t.rows}
        row: Counter[str] = sum((t.rows[(lang, k)] for k in KINDS), Counter())
        total.update(row)
        summary[lang] = {k: row[k] for k in [*keys, "unclean_trimmed"]}
        print(lang.ljust(12) + "".join(str(row[k]).rjust(7) for k in keys))
    summary["TOTAL"] = {k: total[k] for k in [*keys, "unclean_trimmed"]}
    print("TOTAL".ljust(12) + "".join(str(total[k]).rjust(7) for k in keys))
    unclean = {lang: len(d["unclean"]) for lang, d in drawn.items()}
    print(f"unclean files met: {unclean}; unclean files changed: {total['unclean_trimmed']}")
    overshoot: dict[str, dict[str, float]] = {}
    everywhere = [x for v in t.over.values() for x in v]
    for lang, over in [*t.over.items(), ("all", everywhere)]:
        if over:
            q = sorted(over)
            overshoot[lang] = {"n": len(q), "median": statistics.median(q), "max": q[-1]}
            overshoot[lang] |= {"p25": q[len(q) // 4], "p75": q[3 * len(q) // 4]}
    print("over budget where the focal fits, tokens over:")
    for lang, s in overshoot.items():
        print(f"  {lang:11} n={s['n']:<4} median={s['median']:<7} max={s['max']}")
    left = ", ".join(f"{n} {why}" for why, n in sorted(t.notes.items()))
    print(f"left as is: {left or 'none'}")
    print(
        f"{len(t.secs)} calls, mean {1000 * statistics.mean(t.secs or [0]):.1f} ms,"
        f" max {max(t.secs or [0]):.2f} s; {secs:.0f} s in all"
    )
    for what in sorted({x["problem"] for x in t.problems}):
        mine = [x for x in t.problems if x["problem"] == what]
        for x in mine[:3]:
            print(f"  [{what}] {x['kind']} {x['pipe']} {x['file']} {x['focal']} f={x['f']}")
        if len(mine) > 3:
            print(f"  [{what}] ... {len(mine) - 3} more")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1)}
    report |= {"columns": dict(COLS), "summary": summary, "by_kind": by_kind}
    report |= {"overshoot": overshoot, "left_as_is": dict(t.notes), "unclean_files": unclean}
    report |= {"calls": len(t.secs), "ms_mean": round(1000 * statistics.mean(t.secs or [0]), 2)}
    report |= {"sample": drawn, "problems": t.problems}
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
