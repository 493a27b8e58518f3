"""The code stage on unseen real code in nine languages, through the public API.

Corpus in ~/.cache/ctxpress/bench/real: pinned npm packages (JS / TS / TSX), Debian 12
packages (Python, Go, Rust, C, C++, BeanShell's Java) and five modules of the local JDK's
src.zip. Per language a seeded sample of files; in each clean file up to two focal
functions, each through ``ctxpress.compress`` at f = 0.10 / 0.25 / 0.50 of the code tokens.
Checked: output parses, focal definition byte-identical, tokens_after <= budget, no
exception / fail-open; at f = 0.5, in-file direct callees kept when they fit (0.8 f code).
A direct callee: a call `f()` of an in-file function ``f`` the focal does not bind itself
(parameter, local, nested definition, local import), or `x.f()` / `X::f()` where ``x`` is
the focal's own object (self, this, super, Self, a Go receiver) or ``X`` its own or an
in-file type or namespace; not `cache.get()`, `iter.next()`, `cmp::min()` on other objects.

Four prompt kinds over the same files, one table each (``--kinds``):
``why``   "Why does `name` return the wrong value?";
``trace`` an error report in the language's own format (Python traceback / mypy, Node and
          browser stacks, tsc, go build / panic, rustc / panic, gcc / ASan / MSVC, Java
          stack / javac) pointing by file:line at a statement inside the focal function,
          the function not named in the prose (frames name it where the format does);
``todo``  the focal body replaced by the language's TODO stub, "Implement `name`.": the
          stub kept (``f-sig``: its signature line), and the definitions the real body
          called kept at f = 0.5 where they fit (``c-sig``: their signature lines);
``map``   "Summarize this file." (no focal): parses, within budget, and the share of
          top-level definitions whose signature line survives (``sigs``; ``s|fits``
          where all of them fit in 0.8 f; ``sigs+m`` with their direct members).

    .venv/bin/python benchmarks/code_real.py --fetch      # once: npm pack + apt-get download
    .venv/bin/python benchmarks/code_real.py [--per-lang 70] [--langs go,rust] [--kinds map]

Setup: ``npm``, ``apt-get`` + ``dpkg``, and a JDK with lib/src.zip (else Java is BeanShell only).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import re
import subprocess
import tarfile
import time
import urllib.parse
import urllib.request
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ctxpress
from ctxpress.compressor.code.fences import find_fences
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.tokens import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_real.json"
CACHE = user_cache_dir() / "bench" / "real"
R, N, JDK = CACHE / "root", CACHE / "npm", CACHE / "jdk"
FRACS = (0.10, 0.25, 0.50)
NPM_PKGS = re.findall(
    r"\S+",
    "date-fns@4.4.0 immer@11.2.13 lodash-es@4.18.1 mobx@7.1.3 preact@11.2.0 react-hook-form@7.92.0"
    " react-hot-toast@2.6.1 @tanstack/query-core@5.108.4 @tanstack/react-form@1.33.5"
    " @tanstack/react-query@5.108.4 @tanstack/react-router@1.170.46"
    " @tanstack/react-router-devtools@1.167.3 @tanstack/react-table@9.3.1"
    " @tanstack/router-core@1.171.39 @tanstack/router-devtools-core@1.168.3"
    " @tanstack/solid-router@1.170.36 valibot@1.5.0 zustand@5.1.0",
)
DEBS = re.findall(
    r"\S+",
    "bsh-src=2.0b4-20 gnulib=20230209+stable-1 golang-github-google-go-cmp-dev=0.5.9-1"
    " golang-github-gorilla-mux-dev=1.8.0-1 golang-github-mattn-go-sqlite3-dev=1.14.16~ds1-1"
    " golang-github-spf13-cobra-dev=1.6.1-1 golang-github-stretchr-testify-dev=1.8.1-1"
    " googletest=1.12.1-0.2 libboost1.74-dev=1.74.0+ds1-21 libcurl4-doc=7.88.1-10+deb12u15"
    " libfmt-dev=9.1.0+ds1-2 libgtest-dev=1.12.1-0.2 librust-anyhow-dev=1.0.69-1"
    " librust-bytes-dev=1.2.1-1 librust-clap-dev=4.0.32-1 librust-itertools-dev=0.10.3-1"
    " librust-nom-dev=7.1.1-1 libspdlog-dev=1:1.10.0+ds-0.4"
    " libstb-dev=0.0~git20220908.8b5f1f3+ds-1 libxxhash-dev=0.8.1-1"
    " nlohmann-json3-dev=3.11.2-2 python3-click=8.1.3-2 python3-jinja2=3.1.2-1+deb12u3"
    " python3-rich=13.3.1-1",
)
JDK_MODULES = ("jdk.compiler", "java.net.http", "jdk.httpserver", "java.sql", "jdk.jshell")
TAGS = {"python": "python", "javascript": "js", "typescript": "ts", "tsx": "tsx", "go": "go"}
TAGS |= {"rust": "rust", "c": "c", "cpp": "cpp", "java": "java"}  # gather.py's sampling order
JS = ("javascript", "typescript", "tsx")
FUNC = {"python": {"function_definition"}, "go": {"function_declaration", "method_declaration"}}
FUNC |= {"java": {"method_declaration", "constructor_declaration"}, "rust": {"function_item"}}
FUNC |= {"c": {"function_definition"}, "cpp": {"function_definition"}}
_JSF = ("function_declaration", "generator_function_declaration", "method_definition")
FUNC |= {lang: set(_JSF) for lang in JS}
ARROW = {"arrow_function", "function_expression", "function", "generator_function"}
CALL, CE = {"python": "call", "java": "method_invocation"}, "call_expression"
COLS = [  # (summary key, header, width, format)
    ("files", "files", 6, "d"), ("clean_share", "clean", 7, ".2f"), ("cases", "cases", 6, "d"),
    ("parse_share", "parse", 7, ".3f"), ("focal_share", "focal", 7, ".3f"),
    ("within_share", "within", 8, ".3f"), ("within_share_fits", "w|fits", 8, ".3f"),
    ("callee_recall_f05", "callee", 8, ".3f"), ("fail_open", "f-open", 7, "d"),
    ("exceptions", "exc", 5, "d"), ("ms_per_case", "ms/case", 9, ".1f"),
]  # fmt: skip
NAMES = ("identifier", "field_identifier", "property_identifier", "type_identifier")


def _run(cmd: list[str], cwd: Path) -> bool:
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        print(f"  {' '.join(cmd)} failed: {(r.stderr or r.stdout).strip()[-300:]}")
    return r.returncode == 0


def fence_for(code: str) -> str:
    """A fence longer than any backtick fence inside the code (CommonMark)."""
    return "`" * max(3, 1 + max((len(m) for m in re.findall(r"`{3,}", code)), default=2))


def fetch_npm(specs: list[str], folder: Path) -> None:
    """``npm pack`` each ``name@version`` and unpack it into ``folder``, once."""
    folder.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        name, ver = spec.rsplit("@", 1)
        stem = f"{name.lstrip('@').replace('/', '-')}-{ver}"
        if (folder / stem / "package").is_dir():
            continue
        tgz = folder / f"{stem}.tgz"
        if not tgz.exists() and not _run(["npm", "pack", spec, "--silent"], folder):
            continue
        with tarfile.open(tgz) as tf:
            tf.extractall(folder / stem, filter="data")
        print(f"npm {spec}")


def fetch_sdist(name: str, version: str, dest: Path) -> None:
    """Download the sdist of ``name==version`` from the index into ``dest`` and unpack it
    there. The file itself, sha256 checked: ``pip download`` would build the project's
    metadata to find it (for some, compiling their extensions for minutes)."""
    dest.mkdir(parents=True, exist_ok=True)
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
    url = f"{index}/{re.sub(r'[-_.]+', '-', name).lower()}/"
    ask = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(ask, timeout=120) as r:
        files = json.load(r)["files"]
    # (an sdist spells the name with `_` or `-`, in any case: `prometheus_client-0.20.0`)
    stem = re.escape(name.replace("_", "-"))
    wanted = re.compile(rf"{stem}-{re.escape(version)}\.(tar\.gz|zip)", re.I)
    found = [f for f in files if wanted.fullmatch(f["filename"].replace("_", "-"))]
    if not found:
        raise LookupError(f"no sdist of {name}=={version} at {url}")
    archive = dest / found[0]["filename"]
    if not archive.exists():
        with urllib.request.urlopen(urllib.parse.urljoin(url, found[0]["url"]), timeout=300) as r:
            data = r.read()
        digest = found[0].get("hashes", {}).get("sha256")
        if digest and hashlib.sha256(data).hexdigest() != digest:
            raise ValueError(f"{archive.name}: sha256 does not match the index")
        archive.write_bytes(data)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(dest)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(dest, filter="data")


def fetch_sdists(folders: list[str], dest: Path) -> None:
    """The sdist of each ``name-version`` folder, unpacked into ``dest`` once (sdists, not
    wheels: the sources, at that version)."""
    for folder in folders:
        if (dest / folder).is_dir():
            continue
        name, ver = folder.rsplit("-", 1)
        try:
            fetch_sdist(name, ver, dest)
        except (OSError, LookupError, ValueError) as e:
            print(f"  skipped {folder}: {e}")
            continue
        print(f"pypi {folder}")


def fetch_debs(specs: list[str], cache: Path, root: Path, unpinned: bool) -> None:
    """``apt-get download`` each ``name=version`` into ``cache/debs`` and unpack it into
    ``root``, once; with ``unpinned``, a version the archive no longer has is replaced by
    its current one (else the package is skipped: the corpus stays what it was)."""
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        name = spec.split("=")[0]
        if (root / f".x-{name}").exists():
            continue
        if not list(debs.glob(f"{name}_*.deb")) and not _run(["apt-get", "download", spec], debs):
            if not unpinned:
                print(f"  skipped {name}: not downloaded (apt-get update? the archive moved on?)")
                continue
            print(f"  retrying {name} unpinned")  # the archive may have moved on
            if not _run(["apt-get", "download", name], debs):
                continue
        deb = sorted(debs.glob(f"{name}_*.deb"))[-1]
        if _run(["dpkg", "-x", str(deb), str(root)], debs):
            (root / f".x-{name}").touch()
            print(f"deb {deb.name}")


def fetch() -> None:
    """Download and unpack the corpus into CACHE; skips whatever is already there."""
    fetch_npm(NPM_PKGS, N)
    fetch_debs(DEBS, CACHE, R, unpinned=True)
    bsh = R / "usr/src/bsh-src/bsh.tar.gz"
    if bsh.exists() and not (R / "bsh").is_dir():
        with tarfile.open(bsh) as tf:
            tf.extractall(R / "bsh", filter="data")
    zips = sorted(glob.glob("/usr/lib/jvm/*/lib/src.zip"), key=lambda p: ("25" not in p, p))
    if not zips:
        print("no JDK src.zip under /usr/lib/jvm: Java uses BeanShell only")
    elif not (JDK / ".done").exists():
        with zipfile.ZipFile(zips[0]) as zf:
            for n in zf.namelist():
                big = n.endswith(".java") and zf.getinfo(n).file_size > 1500
                if big and n.split("/")[0] in JDK_MODULES:
                    (JDK / n).parent.mkdir(parents=True, exist_ok=True)
                    (JDK / n).write_bytes(zf.read(n))
        (JDK / ".done").write_text(zips[0])
        print(f"jdk {zips[0]}")


def _g(*pats: str) -> list[str]:
    out = {f for p in pats for f in glob.glob(p, recursive=True)}
    return sorted(f for f in out if not f.endswith(".d.ts") and Path(f).stat().st_size > 1500)


def samples(per_lang: int) -> dict[str, list[str]]:
    """gather.py's rule: one Random(7) drawn in TAGS order, then the JDK draw."""
    js = ("lodash-es", "preact", "date-fns", "mobx", "zustand")
    ts = ("immer", "mobx", "tanstack-query-core", "tanstack-router-core")
    sets = {
        "python": _g(f"{R}/usr/lib/python3/dist-packages/**/*.py"),
        "javascript": _g(*(f"{N}/{p}*/**/*.js" for p in js)),
        "typescript": _g(*(f"{N}/{p}*/**/*.ts" for p in ts)),
        "tsx": _g(f"{N}/**/*.tsx"),
        "go": _g(f"{R}/usr/share/gocode/src/**/*.go"),
        "rust": _g(f"{R}/usr/share/cargo/registry/**/*.rs"),
        "c": _g(*(f"{R}/usr/{p}" for p in ("share/gnulib/lib/*.c", "include/xxhash.h")),
                f"{R}/usr/share/doc/libcurl4-doc/examples/*.c", f"{R}/usr/include/stb/*.h"),
        "cpp": _g(*(f"{R}/usr/{p}" for p in (
            "src/googletest/**/*.cc", "include/fmt/*.h", "include/spdlog/**/*.h",
            "include/nlohmann/**/*.hpp", "include/boost/algorithm/**/*.hpp",
            "include/boost/container/*.hpp", "include/boost/asio/*.hpp"))),
        "java": _g(f"{R}/bsh/**/*.java"),
    }  # fmt: skip
    rnd, half = random.Random(7), per_lang * 4 // 7  # java: 40 BeanShell + 40 JDK at 70
    picks = {  # in order: each draw advances the one generator
        k: v if len(v) <= per_lang else sorted(rnd.sample(v, per_lang)) for k, v in sets.items()
    }
    picks["java"] = picks["java"][:half]
    jdk = sorted(str(p.relative_to(JDK)) for p in JDK.glob("**/*.java"))
    picks["java"] += [str(JDK / n) for n in sorted(rnd.sample(jdk, min(half, len(jdk))))]
    return picks


def _last_name(node: Any) -> str | None:
    if node is None:
        return None
    if node.type in (*NAMES, "destructor_name"):
        return node.text.decode("utf-8", "replace")
    for f in ("name", "field", "property", "attribute", "declarator", "function"):
        if (c := node.child_by_field_name(f)) is not None:
            return _last_name(c)
    return None


def name_declarator(node: Any) -> Any:
    """The declarator holding a C/C++ function definition's name, under the ones around it
    (``*f``, ``&f``, ``(*f(int))(int)``): ``f`` or ``A::f``; None where there is none."""
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    return None if d is None else d.child_by_field_name("declarator")


def _func_name(lang: str, node: Any) -> str | None:
    if lang in ("c", "cpp"):
        return _last_name(name_declarator(node))
    if node.type in ARROW:  # `const name = () => {}`: focals() checked the parent
        return _last_name(node.parent.child_by_field_name("name"))
    return _last_name(node.child_by_field_name("name"))


def focals(lang: str, tree: Any, per_file: int = 2) -> list[tuple[str, Any, set[str], dict]]:
    """check.py's pick: unique top-level 4..80-line functions, one with in-file callees first.

    The pick still ranks by any call whose last name is an in-file function (as when the
    cases were drawn, so they stay the same); the callees returned are ``callees``'s.
    """
    found, stack = [], [(tree.root_node, False)]
    while stack:
        n, in_func = stack.pop()
        is_f, node = n.type in FUNC[lang], n
        p = n.parent
        arrow = not is_f and n.type in ARROW and lang in JS and p is not None
        if arrow and p.type == "variable_declarator":  # the whole `const f = () => {}`
            is_f, node = True, p.parent
        if is_f and (name := _func_name(lang, n)):
            found.append((name, node, not in_func, n))
        stack.extend((c, in_func or is_f) for c in n.children)
    counts = Counter(d[0] for d in found)
    byname = {d[0]: d[1] for d in found if counts[d[0]] == 1}
    types = {t for x in _walk(tree.root_node) if x.type in TYPES[lang] for t in _type_names(x)}
    cands = []
    for name, node, top, fn in found:
        lines = node.end_point[0] - node.start_point[0] + 1
        if counts[name] != 1 or not top or len(name) < 4 or not 4 <= lines <= 80:
            continue
        if fn.type == "constructor_declaration":
            continue  # `Pair` names the class as much as its constructor
        field = "name" if lang == "java" else "function"
        calls = (x.child_by_field_name(field) for x in _walk(fn) if x.type == CALL.get(lang, CE))
        named = {_last_name(f) for f in calls}
        cs = callees(lang, fn, byname, types) - {name}
        cands.append((bool(named & set(byname) - {name}), node.start_byte, name, node, cs))
    first = [c for c in cands if c[0]][: (per_file + 1) // 2]
    pick = (first + [c for c in cands if not c[0]])[:per_file]
    if len(pick) < per_file:
        pick = ([c for c in cands if c[0]] + [c for c in cands if not c[0]])[:per_file]
    return [(c[2], c[3], c[4], byname) for c in pick]


TYPES = {  # definitions whose name may qualify a call of an in-file function: `Foo.f()`
    "python": {"class_definition"}, "go": {"type_spec"}, "c": set(),
    "rust": {"struct_item", "enum_item", "union_item", "trait_item", "type_item", "mod_item"},
    "cpp": {"class_specifier", "struct_specifier", "union_specifier", "namespace_definition",
            "alias_declaration", "type_definition"},
    "java": {"class_declaration", "interface_declaration", "enum_declaration",
             "record_declaration"},
}  # fmt: skip
for _l in JS:
    TYPES[_l] = {"class_declaration", "abstract_class_declaration", "class", "internal_module"}
BINDS = {  # node -> its fields that bind names in the function (() = all its children)
    "python": {"parameters": (), "lambda_parameters": (), "assignment": ("left",),
               "augmented_assignment": ("left",), "for_statement": ("left",),
               "for_in_clause": ("left",), "as_pattern_target": (), "named_expression": ("name",),
               "function_definition": ("name",), "class_definition": ("name",),
               "import_statement": ("name",), "import_from_statement": ("name",)},
    "go": {"parameter_list": (), "short_var_declaration": ("left",), "var_spec": ("name",),
           "const_spec": ("name",), "range_clause": ("left",), "type_switch_statement": ("alias",),
           "receive_statement": ("left",)},
    "rust": {"parameters": (), "closure_parameters": (), "let_declaration": ("pattern",),
             "for_expression": ("pattern",), "let_condition": ("pattern",),
             "match_arm": ("pattern",), "function_item": ("name",),
             "use_declaration": ("argument",)},
    "c": {"parameter_list": (), "declaration": ("declarator",), "for_range_loop": ("declarator",)},
    "java": {"formal_parameters": (), "local_variable_declaration": ("declarator",),
             "enhanced_for_statement": ("name",), "catch_formal_parameter": ("name",),
             "lambda_expression": ("parameters",), "resource": ("name",)},
}  # fmt: skip
BINDS["cpp"] = BINDS["c"]
for _l in JS:
    BINDS[_l] = {"formal_parameters": (), "arrow_function": ("parameter",),
                 "variable_declarator": ("name",), "for_in_statement": ("left",),
                 "catch_clause": ("parameter",), "function_declaration": ("name",),
                 "generator_function_declaration": ("name",),
                 "class_declaration": ("name",)}  # fmt: skip
PICK = {  # inside a pattern: the field that binds (first present)
    "pair_pattern": ("value",), "assignment_pattern": ("left",),
    "object_assignment_pattern": ("left",), "required_parameter": ("pattern",),
    "optional_parameter": ("pattern",), "default_parameter": ("name",),
    "typed_default_parameter": ("name",), "aliased_import": ("alias",),
    "parameter_declaration": ("declarator", "name"), "parameter": ("pattern",),
    "field_pattern": ("pattern", "name"), "formal_parameter": ("name",),
    "variable_declarator": ("name",), "variadic_parameter_declaration": ("name",),
    "use_as_clause": ("alias",), "scoped_use_list": ("list",),
}  # fmt: skip
SKIP = {"type", "value", "right", "key", "default_value", "size", "parameters", "arguments"}
NOT_BOUND = {  # expressions in a pattern position: `self.x = …`, `a[i] = …`, `Foo::Bar(x)`
    "attribute", "subscript", "member_expression", "subscript_expression", "field_expression",
    "selector_expression", "index_expression", "scoped_identifier", "qualified_identifier",
    "call", "call_expression",
}  # fmt: skip


def _type_names(node: Any) -> list[str]:
    """The name(s) a type / class / namespace definition gives (`a::b` both)."""
    specifier = node.type in ("struct_specifier", "class_specifier", "union_specifier")
    if specifier and node.child_by_field_name("body") is None:
        return []  # `struct foo *p`: a use, not a definition
    n = node.child_by_field_name("name") or node.child_by_field_name("declarator")
    return [] if n is None else re.findall(r"\w+", _s(n))


def _bound(lang: str, fn: Any) -> set[str]:
    """Names the function binds anywhere in it: parameters, locals, nested definitions."""
    out: set[str] = set()

    def pattern(n: Any) -> None:
        if n.type in ("identifier", "shorthand_property_identifier_pattern",
                      "shorthand_field_identifier"):  # fmt: skip
            out.add(_s(n))
        elif n.type == "dotted_name":  # `import a.b` binds `a`
            pattern(n.named_children[0])
        elif n.type == "scoped_identifier" and n.parent.type in ("use_declaration", "use_list"):
            pattern(n.child_by_field_name("name"))  # `use a::b::{c, d}` binds c, d
        elif n.type in PICK:
            for f in PICK[n.type]:
                if kids := n.children_by_field_name(f):
                    for k in kids:
                        pattern(k)
                    break
        elif n.type not in NOT_BOUND:
            skip = {k.id for f in SKIP for k in n.children_by_field_name(f)}
            for k in n.named_children:
                if k.id not in skip:
                    pattern(k)

    for x in [fn, *_walk(fn)]:
        fields = BINDS[lang].get(x.type)
        for k in x.named_children if fields == () else ():
            pattern(k)
        for k in (k for f in fields or () for k in x.children_by_field_name(f)):
            pattern(k)
    return out


def _own(lang: str, fn: Any) -> set[str]:
    """Names that stand for the function's own object or type: receiver, enclosing type."""
    own = {"python": {"self", "cls"}, "rust": {"Self"}}.get(lang, set())
    recv = fn.child_by_field_name("receiver") if lang == "go" else None
    for p in recv.named_children if recv is not None else ():
        own |= {_s(n) for n in p.children_by_field_name("name")}
        t = p.child_by_field_name("type")
        own |= set(re.findall(r"\w+", _s(t))[:1]) if t is not None else set()
    d = fn.child_by_field_name("declarator") if lang == "cpp" else None
    while d is not None and d.type != "qualified_identifier":  # `void Foo::bar()`
        d = d.child_by_field_name("declarator")
    if d is not None and (scope := d.child_by_field_name("scope")) is not None:
        own |= set(re.findall(r"\w+", _s(scope))[-1:])
    p = fn.parent
    while p is not None:  # `impl Foo` (maybe of a type from elsewhere); `super::` in a `mod`
        if p.type == "impl_item" and (t := p.child_by_field_name("type")) is not None:
            own |= set(re.findall(r"\w+", _s(t))[:1])
        own |= {"super"} if p.type == "mod_item" else set()  # `super::f()` names the file
        p = p.parent
    return own


def callees(lang: str, fn: Any, byname: dict[str, Any], types: set[str]) -> set[str]:
    """The in-file functions ``fn`` calls directly (``_callee``)."""
    bound, own = _bound(lang, fn), _own(lang, fn)
    names = (_callee(lang, x, bound, own | types - bound) for x in _walk(fn))
    return {n for n in names if n in byname}


def _callee(lang: str, x: Any, bound: set[str], own: set[str]) -> str | None:
    """The name ``x`` calls if it is a call of an in-file function: `f()` where ``f`` is no
    name the focal binds (a parameter, local, nested definition); `x.f()` / `X::f()` where
    ``x`` is the focal's own object (self, this, super, a Go receiver) or names its own or
    an in-file type or namespace (``own``), not any other expression (`cache.get()`)."""
    if x.type != CALL.get(lang, CE):
        return None
    f = x.child_by_field_name("name" if lang == "java" else "function")
    while f is not None and f.type in ("generic_function", "template_function"):
        f = f.child_by_field_name("function") or f.child_by_field_name("name")
    if f is None:
        return None
    recv = x.child_by_field_name("object") if lang == "java" else None
    if f.type in ("attribute", "member_expression", "selector_expression", "field_expression"):
        fields = ("object", "operand", "value", "argument")
        recv = next(k for fl in fields if (k := f.child_by_field_name(fl)) is not None)
    elif f.type in ("scoped_identifier", "qualified_identifier"):
        while (n := f.child_by_field_name("name")) is not None and n.type == f.type:
            f = n  # C++ `a::b::f`: the qualifier next to the name
        recv = f.child_by_field_name("path" if lang == "rust" else "scope")
        if recv is None:  # C++ `::f()`: the global f, never a local
            return _last_name(f)
    elif f.type != "identifier" and lang != "java":
        return None  # `(cond ? a : b)()`, `fns[i]()`
    name = _last_name(f)
    if recv is None:  # a bare call; Java's is always a method
        return name if lang == "java" or name not in bound else None
    if recv.type == "parenthesized_expression" and recv.named_children:
        recv = recv.named_children[0]  # `(*this).f()`
    if recv.type == "pointer_expression":
        recv = recv.child_by_field_name("argument")
    if recv.type in ("this", "super") or (recv.type == "self" and f.type != "scoped_identifier"):
        return name  # `self::f()` in Rust is a path to the module: below
    r = _s(recv)
    if lang == "python" and r.startswith("super("):
        return name
    words = re.findall(r"\w+", r.split("<")[0])  # `Foo<T>::f()`, Rust `a::b::f()`
    if f.type == "scoped_identifier" and words and words[-1] != "crate":
        return name if all(w in own | {"self", "crate"} for w in words) else None
    return name if len(words) == 1 and words[0] in own else None


DEFS = {  # top-level definitions a map of the file shows (``map`` prompts)
    "python": {"function_definition", "class_definition"},
    "go": {"function_declaration", "method_declaration", "type_spec"},
    "rust": {"function_item", "struct_item", "enum_item", "union_item", "trait_item",
             "impl_item", "type_item", "macro_definition"},
    "c": {"function_definition", "type_definition", "struct_specifier", "union_specifier",
          "enum_specifier"},
    "java": {"class_declaration", "interface_declaration", "enum_declaration",
             "record_declaration", "annotation_type_declaration"},
}  # fmt: skip
DEFS["cpp"] = DEFS["c"] | {"class_specifier"}
for _l in JS:
    DEFS[_l] = set(_JSF) | {"class_declaration", "abstract_class_declaration",
                            "lexical_declaration", "interface_declaration",
                            "type_alias_declaration", "enum_declaration"}  # fmt: skip
# Nodes a map looks through: wrappers, namespaces, include guards, `type (...)` groups.
THROUGH = {"decorated_definition", "export_statement", "template_declaration", "declaration_list",
           "namespace_definition", "linkage_specification", "preproc_ifdef", "preproc_if",
           "preproc_else", "preproc_elif", "type_declaration", "ambient_declaration",
           "expression_statement", "internal_module", "statement_block", "mod_item"}  # fmt: skip
BODIES = {"block", "class_body", "declaration_list", "field_declaration_list", "interface_body"}
KINDS = {
    "why": "Why does `name` return the wrong value?",
    "trace": "an error trace points at a line of the focal function (file:line)",
    "todo": "Implement `name`. (its body a TODO stub)",
    "map": "Summarize this file. (no focal: a map)",
}
EXTRA = {  # kind -> extra columns (summary key, header, width, format)
    "todo": [("focal_sig_share", "f-sig", 7, ".3f"), ("callee_sig_f05", "c-sig", 7, ".3f")],
    "map": [("sigs_share", "sigs", 7, ".3f"), ("sigs_share_fits", "s|fits", 8, ".3f"),
            ("members_share", "sigs+m", 8, ".3f")],
}  # fmt: skip
STUB = {  # the body of a function still to be written
    "python": "# TODO: implement\n{i}raise NotImplementedError",
    "javascript": "{{\n{i}// TODO\n{o}}}",
    "typescript": "{{\n{i}throw new Error('Not implemented'); // TODO\n{o}}}",
    "tsx": "{{\n{i}/* TODO */\n{o}}}",
    "go": '{{\n{i}panic("TODO: implement")\n{o}}}',
    "rust": "{{\n{i}todo!()\n{o}}}",
    "c": "{{\n{i}/* TODO */\n{o}}}",
    "cpp": "{{\n{i}// TODO: implement\n{o}}}",
    "java": '{{\n{i}throw new UnsupportedOperationException("TODO");\n{o}}}',
}


def _text(src: bytes, node: Any, end: Any = None) -> str:
    return src[node.start_byte : (end or node).end_byte].decode("utf-8", "replace")


def _s(node: Any) -> str:
    return str(node.text, "utf-8", "replace")


def _lead(node: Any) -> Any:
    """The first of the comments right above ``node`` (its documentation), else ``node``."""
    lead = node
    while (p := lead.prev_sibling) is not None and "comment" in p.type:
        if p.end_point[0] < lead.start_point[0] - 1:
            break
        lead = p
    return lead


def _name_row(lang: str, node: Any) -> int:
    """Row of the line that names a definition (its signature line)."""
    if node.type == "lexical_declaration":
        node = node.named_children[0] if node.named_children else node
    elif node.type in ("type_definition", "function_definition") or node.type in FUNC[lang]:
        d = node.child_by_field_name("declarator")
        while d is not None and d.child_by_field_name("declarator") is not None:
            d = d.child_by_field_name("declarator")
        if d is not None:
            return int(d.start_point[0])
    c = node.child_by_field_name("name") or node.child_by_field_name("type")
    return int((c or node).start_point[0])


def definitions(lang: str, tree: Any) -> tuple[list[int], list[int]]:
    """Signature rows of the file's top-level definitions, and of their direct members."""
    top: list[int] = []
    members: list[int] = []
    stack = list(reversed(tree.root_node.named_children))
    while stack:
        n = stack.pop()
        if n.type in DEFS[lang] and (n.type != "lexical_declaration" or _arrow_decl(n)):
            top.append(_name_row(lang, n))
            body = n.child_by_field_name("body")
            body = body if body is not None and body.type in BODIES else None
            for m in body.named_children if body is not None else ():
                core = m.named_children[-1] if m.type in THROUGH and m.named_children else m
                if core.type in DEFS[lang] or core.type in FUNC[lang]:
                    members.append(_name_row(lang, core))
        elif n.type in THROUGH:
            body = n.child_by_field_name("body")
            inner = body.named_children if body is not None else n.named_children
            stack.extend(reversed(inner))
    return top, members


def _arrow_decl(n: Any) -> bool:
    """`const f = () => …` / `= function …`: a function in a variable."""
    v = n.named_children[0].child_by_field_name("value") if n.named_children else None
    return v is not None and v.type in ARROW


def _body(lang: str, fn: Any) -> Any:
    """The body node of a function (for JS arrows in `const f = …`: the arrow's)."""
    return fn.child_by_field_name("body")


def _trace_row(lang: str, fn: Any) -> tuple[int, int]:
    """(row, col) of a statement in the middle of the body: where an error would point."""
    body = _body(lang, fn)
    rows: dict[int, int] = {}
    st = [body] if body is not None else []
    while st:
        x = st.pop()
        t = x.type
        doc = (
            t == "expression_statement"
            and x.named_children
            and x.named_children[0].type == "string"
        )
        if (
            x is not body
            and not doc
            and ("statement" in t or "declaration" in t or t == "let_declaration")
        ):
            rows.setdefault(x.start_point[0], x.start_point[1])
        st.extend(c for c in x.named_children if "comment" not in c.type)
    if not rows:  # a one-expression body
        return fn.start_point[0] + 1, 4
    row = sorted(rows)[len(rows) // 2]
    return row, rows[row]


def _paths(lang: str, path: str) -> tuple[str, str]:
    """(absolute path as the error shows it, short path as the user names it)."""
    rel = Path(path).relative_to(CACHE).as_posix()
    kind, rest = rel.split("/", 1)
    if kind == "npm":
        pkg, sub = rest.split("/package/", 1)
        name = re.sub(r"-\d[\w.]*$", "", pkg).replace("tanstack-", "@tanstack/")
        full = f"/srv/app/node_modules/{name}/{sub}"
    elif kind == "jdk":
        full = "/src/" + rest.split("/", 1)[1]
    else:
        full = "/" + rest
    if "/registry/" in full:  # a crate: rustc shows paths from the crate root
        return full, full.split("/registry/", 1)[1].split("/", 1)[1]
    return full, "/".join(full.split("/")[-2:])


def trace_text(lang: str, k: int, path: str, code: str, name: str, fn: Any) -> str:
    """An error report in ``lang``'s own format pointing at a line inside ``fn``."""
    full, short = _paths(lang, path)
    base = full.rsplit("/", 1)[-1]
    row, col = _trace_row(lang, fn)
    n, c, line = row + 1, col + 1, code.split("\n")[row]
    src = line.strip()
    if lang == "python":
        if k:
            return f'{short}:{n}: error: Incompatible return value type (got "int", expected "str")'
        return (
            "Traceback (most recent call last):\n"
            '  File "/srv/app/main.py", line 14, in <module>\n    run()\n'
            f'  File "{full}", line {n}, in {name}\n    {src}\nValueError: unexpected value'
        )
    if lang == "javascript":
        at = f"at {name} ({full}:{n}:{c})" if not k else f"at file://{full}:{n}:{c}"
        return (
            "TypeError: Cannot read properties of undefined (reading 'length')\n"
            f"    {at}\n    at ModuleJob.run (node:internal/modules/esm/module_job:195:25)"
        )
    if lang == "tsx" and not k:
        return (
            "Uncaught TypeError: Cannot read properties of undefined (reading 'map')\n"
            f"    at {name} (http://localhost:5173/src/{short}?t=1718000000000:{n}:{c})\n"
            "    at renderWithHooks (http://localhost:5173/node_modules/.vite/deps/"
            "react-dom.js?v=9c4b1f2a:11548:26)"
        )
    if lang in JS:
        msg = "error TS2322: Type 'string' is not assignable to type 'number'."
        if k:
            return f"{short}:{n}:{c} - {msg}\n\n{n} {line}\n{' ' * (len(str(n)) + c)}~~~~~~"
        return f"{short}({n},{c}): {msg}"
    if lang == "go":
        if k:
            pkg = full.split("/src/", 1)[-1].rsplit("/", 1)[0]
            recv = fn.child_by_field_name("receiver")
            m = (
                re.search(r"(\*?)\s*(\w+)(?:\[[^\]]*\])?\s*\)$", _text(code.encode(), recv))
                if recv
                else None
            )
            owner = f"({m.group(1)}{m.group(2)})." if m else ""
            return (
                "panic: runtime error: index out of range [3] with length 3\n\n"
                "goroutine 1 [running]:\n"
                f"{pkg}.{owner}{name}(...)\n\t{full}:{n} +0x1d\nmain.main()\n"
                "\t/srv/app/main.go:12 +0x25\nexit status 2"
            )
        msg = "cannot use nil as int value in return statement"
        return f"# {full.rsplit('/', 2)[-2]}\n./{base}:{n}:{c}: {msg}"
    if lang == "rust":
        if k:
            return (
                f"thread 'main' panicked at {short}:{n}:{c}:\nattempt to subtract with overflow\n"
                "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
            )
        pad = " " * len(str(n))
        return (
            f"error[E0308]: mismatched types\n{pad}--> {short}:{n}:{c}\n{pad} |\n{n} | {line}\n"
            f"{pad} | {' ' * col}^^^^ expected `usize`, found `u32`"
        )
    if lang in ("c", "cpp"):
        if k and lang == "cpp":
            win = "C:\\src\\" + short.replace("/", "\\")
            return f"{win}({n}): error C2440: 'return': cannot convert from 'int' to 'std::string'"
        if k:
            return (
                "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014\n"
                "READ of size 4 at 0x602000000014 thread T0\n"
                f"    #0 0x55d4c3 in {name} {full}:{n}:{c}\n"
                "    #1 0x55d4c4 in main /srv/app/main.c:12:5"
            )
        return (
            f"{short}:{n}:{c}: error: invalid operands to binary + (have 'char *' and 'double')\n"
            f"{n:5} | {line}\n      | {' ' * col}^"
        )
    assert lang == "java"
    if k:
        msg = "error: incompatible types: possible lossy conversion from long to int"
        return f"{short}:{n}: {msg}\n{line}\n{' ' * col}^"
    m = re.search(r"^package ([\w.]+);", code, re.M)
    cls = base.removesuffix(".java")
    where = f"{m.group(1)}.{cls}" if m else cls
    return (
        'Exception in thread "main" java.lang.IllegalStateException: unexpected state\n'
        f"\tat {where}.{name}({base}:{n})\n\tat app.Main.main(Main.java:10)"
    )


def stub_file(lang: str, src: bytes, fn: Any, node: Any) -> tuple[str, int, int] | None:
    """The file with ``fn``'s body replaced by a TODO stub; the byte span of ``node`` then."""
    body = _body(lang, fn)
    if body is None:
        return None
    line = src.split(b"\n")[fn.start_point[0]]
    outer = line[: len(line) - len(line.lstrip(b" \t"))].decode()
    step = "\t" if lang == "go" or outer.startswith("\t") else "    "
    if lang == "python":
        first: Any = body.named_children[0] if body.named_children else None
        doc = first is not None and first.type == "expression_statement" and first.named_children
        doc = doc and first.named_children[0].type == "string"
        inner = outer + step
        stub = STUB[lang].format(i=inner)
        start = body.start_byte
        if doc and first.end_point[0] < body.end_point[0]:
            start, stub = first.end_byte, f"\n{inner}{stub}"
        elif doc:
            return None  # the docstring is the whole body
    else:
        if body.type not in ("statement_block", "block", "compound_statement", "constructor_body"):
            outer = ""  # `=> expr`: the braces open and close on lines of their own below
        start, stub = body.start_byte, STUB[lang].format(i=outer + step, o=outer)
    new = src[:start] + stub.encode() + src[body.end_byte :]
    end = node.end_byte - (body.end_byte - start) + len(stub.encode())
    return new.decode("utf-8", "replace"), node.start_byte, end


@dataclass
class Prompt:
    """One prompt shape over one file: ``code`` pasted between ``head`` and ``post``."""

    kind: str
    code: str
    head: str
    post: str
    case: dict[str, Any]
    focal: str | None = None  # must stay byte-identical
    doc_tok: int = 0  # tokens of the focal with its leading comment
    callees: tuple[tuple[str, str], ...] = ()  # (definition, signature line)
    sigs: tuple[list[str], list[str]] | None = None  # top-level, member signature lines
    focal_sig: str | None = None  # the focal's signature line


def run_case(lang: str, p: Prompt, row: dict[str, float], fails: list[dict[str, Any]]) -> None:
    """The prompt at each fraction of its code tokens through ``compress``; checks."""
    code, head, post, focal, doc_tok, callees, sigs = (
        p.code, p.head, p.post, p.focal, p.doc_tok, p.callees, p.sigs
    )  # fmt: skip
    code_tok = ctxpress.count_tokens(code)
    fence = head.split("\n")[-2].removesuffix(TAGS[lang])  # head ends with ```python
    sig_tok = sum(ctxpress.count_tokens(s) for s in sigs[0]) if sigs else 0
    for f in FRACS:
        empty = [{"role": "user", "content": f"{head}{fence}\n{post}"}]
        budget = ctxpress.count_tokens(empty) + int(f * code_tok)
        msgs = [{"role": "user", "content": f"{head}{code}{fence}\n{post}"}]
        row["cases"] += 1
        c = {**p.case, "kind": p.kind, "f": f}
        fits = doc_tok <= 0.8 * f * code_tok
        t0 = time.perf_counter()
        try:
            res = ctxpress.compress(msgs, budget=budget)
        except Exception as e:
            fails.append({**c, "problem": f"{type(e).__name__}: {e}"})
            row["exceptions"] += 1
            continue
        finally:
            row["ms"] += 1000 * (time.perf_counter() - t0)
        text = res.messages[-1]["content"]
        blocks = find_fences(text)
        out = text[blocks[0].code_start : blocks[0].code_end] if blocks else text
        ok = {
            "parse": clean_parse(lang, out.encode()) is not None,
            "focal": focal in out if focal else True,
        }
        ok["within"] = res.tokens_after <= budget
        row["fits"] += fits
        for k, v in ok.items():
            row[k] += v
            row[f"{k}_fits"] += v and fits
        row["fail_open"] += res.fail_open
        row["focal_sig"] += p.focal_sig is not None and p.focal_sig in out.split("\n")
        probs = [m for bad, m in (
            (res.fail_open, "fail-open"),
            (not ok["parse"], "output does not parse"),
            (fits and not ok["focal"], "focal dropped though it fits"),
            (fits and not ok["within"], f"over budget: {res.tokens_after} > {budget}"),
            (not (text.startswith(head) and text.endswith(f"{fence}\n{post}")), "prose changed"),
        ) if bad]  # fmt: skip
        # a block left as is because its focal code needs all of it is not a failure
        notes = [
            n for s in res.stages for n in s.notes if "left as is (" in n and "smaller" not in n
        ]
        probs += [f"note: {n}" for n in notes[:1]]
        if f == 0.5 and callees:
            need = doc_tok + sum(ctxpress.count_tokens(t) for t, _ in callees)
            if need <= 0.8 * f * code_tok:
                row["callees"] += len(callees)
                row["callees_kept"] += sum(t in out for t, _ in callees)
                kept = set(out.split("\n"))
                row["callees_sig"] += sum(sig in kept for _, sig in callees)
        if sigs:
            kept = set(out.split("\n"))
            top = sum(s in kept for s in sigs[0])
            row["sigs"] += len(sigs[0])
            row["sigs_kept"] += top
            row["members"] += len(sigs[0]) + len(sigs[1])
            row["members_kept"] += top + sum(s in kept for s in sigs[1])
            if sig_tok <= 0.8 * f * code_tok:
                row["sigs_fits"] += len(sigs[0])
                row["sigs_kept_fits"] += top
            if top < len(sigs[0]) and sig_tok <= 0.8 * f * code_tok:
                probs.append(
                    f"map: {len(sigs[0]) - top}/{len(sigs[0])} top-level signatures dropped"
                )
        fails.extend({**c, "problem": p} for p in probs)


def run_file(
    lang: str, path: str, rows: dict[str, dict[str, float]], fails: list[dict[str, Any]]
) -> None:
    code = Path(path).read_text(encoding="utf-8", errors="replace")
    code += "" if code.endswith("\n") else "\n"
    src = code.encode()
    for row in rows.values():
        row["files"] += 1
    tree = clean_parse(lang, src)
    if tree is None:
        return
    for row in rows.values():
        row["clean"] += 1
    fence = fence_for(code)
    rel = str(Path(path).relative_to(CACHE))
    short = _paths(lang, path)[1]
    for k, (name, node, cs, byname) in enumerate(focals(lang, tree) if set(rows) - {"map"} else ()):
        fn = next(n for n in [node, *_walk(node)] if n.type in FUNC[lang] or n.type in ARROW)
        dtext = _text(src, node)
        doc_tok = ctxpress.count_tokens(_text(src, _lead(node), node))
        lines = code.split("\n")
        callees = tuple(
            (_text(src, byname[c]), lines[_name_row(lang, byname[c])]) for c in sorted(cs)
        )
        case = {"file": rel, "focal": name}
        head = f"Here is `{Path(path).name}`:\n{fence}{TAGS[lang]}\n"
        if "why" in rows:
            post = f"Why does `{name}` return the wrong value?"
            why = Prompt("why", code, head, post, case, dtext, doc_tok, callees)
            run_case(lang, why, rows["why"], fails)
        if "trace" in rows:  # the second focal's file named by its path
            named = f"Here is `{short}`:\n{fence}{TAGS[lang]}\n" if k else head
            trace = trace_text(lang, k, path, code, name, fn)
            post = f"I get this:\n```\n{trace}\n```\nWhat is wrong?"
            tp = Prompt("trace", code, named, post, case, dtext, doc_tok, callees)
            run_case(lang, tp, rows["trace"], fails)
        if "todo" in rows and (stub := stub_file(lang, src, fn, node)) is not None:
            scode, s0, s1 = stub
            sfocal = scode.encode()[s0:s1].decode()
            sdoc = ctxpress.count_tokens(scode.encode()[_lead(node).start_byte : s1].decode())
            if clean_parse(lang, scode.encode()) is None:
                bad = "stub does not parse (skipped)"
                fails.append({**case, "kind": "todo", "f": None, "problem": bad})
                continue
            post = f"Implement `{name}`."
            todo = Prompt("todo", scode, head, post, case, sfocal, sdoc, callees)
            todo.focal_sig = scode.split("\n")[_name_row(lang, fn)]
            run_case(lang, todo, rows["todo"], fails)
    if "map" in rows:
        lines = code.split("\n")
        top, members = definitions(lang, tree)
        if top:
            head = f"Here is `{Path(path).name}`:\n{fence}{TAGS[lang]}\n"
            sigs = ([lines[r] for r in top], [lines[r] for r in members])
            mp = Prompt("map", code, head, "Summarize this file.", {"file": rel, "focal": None})
            mp.sigs = sigs
            run_case(lang, mp, rows["map"], fails)


def _walk(node: Any) -> list[Any]:
    out, st = [], list(node.children)
    while st:
        x = st.pop(0)
        out.append(x)
        st.extend(x.children)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--per-lang", type=int, default=70)
    ap.add_argument("--langs", default=",".join(TAGS))
    ap.add_argument("--kinds", default=",".join(KINDS), help="prompt kinds: " + ", ".join(KINDS))
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch()
    picks = samples(args.per_lang)
    kinds = [k for k in KINDS if k in args.kinds.split(",")]
    keys = "files clean cases parse focal within fits parse_fits focal_fits within_fits"
    keys += " callees callees_kept callees_sig sigs sigs_kept sigs_fits sigs_kept_fits members"
    keys += " members_kept focal_sig fail_open exceptions ms"
    summary: dict[str, dict[str, Any]] = {k: {} for k in kinds}
    fails: list[dict[str, Any]] = []
    t_all = time.perf_counter()
    rows = {lang: {k: dict.fromkeys(keys.split(), 0.0) for k in kinds} for lang in TAGS}
    langs = [lang for lang in args.langs.split(",") if lang in TAGS]
    for lang in langs:
        for path in picks.get(lang, ()):
            run_file(lang, path, rows[lang], fails)
    for kind in kinds:
        cols = COLS + EXTRA.get(kind, [])
        print(f"\n{kind}: {KINDS[kind]}")
        print(f"{'language':11}" + "".join(f"{h:>{w}}" for _, h, w, _ in cols))
        for lang in langs:
            if not picks.get(lang):
                print(f"{lang:11} skipped: no corpus in {CACHE} (run with --fetch)")
                summary[kind][lang] = {"skipped": "no corpus"}
                continue
            summary[kind][lang] = s = _summary(rows[lang][kind])
            cells = (f"{float('nan') if s[k] is None else s[k]:{w}{x}}" for k, _, w, x in cols)
            print(f"{lang:11}" + "".join(cells), flush=True)
    secs = time.perf_counter() - t_all
    print(f"{len(fails)} failing case checks; {secs:.0f} s")
    for kind in kinds:
        mine = [x for x in fails if x.get("kind") == kind]
        for x in mine[:8]:
            print(f"  [{kind}] {x['file']} {x['focal']} f={x['f']}: {x['problem']}")
        if len(mine) > 8:
            print(f"  [{kind}] ... {len(mine) - 8} more")
    if not any("skipped" not in v for k in kinds for v in summary[k].values()):
        print(f"no corpus found under {CACHE}: run with --fetch first")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1)}
    report |= {"kinds": KINDS, "summary": summary.get("why", {})}
    report |= {"summary_by_kind": summary, "failures": fails}
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


def _summary(row: dict[str, float]) -> dict[str, Any]:
    n, nf = max(1, row["cases"] - row["exceptions"]), max(1, row["fits"])
    s: dict[str, Any] = {k: int(v) for k, v in row.items() if k != "ms"}

    def share(a: str, b: str) -> float | None:
        return row[a] / row[b] if row[b] else None

    s |= {
        "clean_share": row["clean"] / max(1, row["files"]),
        "callee_recall_f05": share("callees_kept", "callees"),
        "callee_sig_f05": share("callees_sig", "callees"),
        "sigs_share": share("sigs_kept", "sigs"),
        "sigs_share_fits": share("sigs_kept_fits", "sigs_fits"),
        "members_share": share("members_kept", "members"),
        "focal_sig_share": row["focal_sig"] / n,
        "ms_per_case": row["ms"] / max(1, row["cases"]),
    }
    for k in ("parse", "focal", "within"):  # focal: whole definition kept byte-identical
        s[f"{k}_share"], s[f"{k}_share_fits"] = row[k] / n, row[f"{k}_fits"] / nf
    return s


if __name__ == "__main__":
    main()
