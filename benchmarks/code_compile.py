"""Names a trimmed focal function uses, checked by each language's own compiler.

The stdlib check (``stdlib_trim.py``) asks pyflakes whether a trimmed Python module still
defines every name its focal function uses. This does the same for Java, Rust, C, C++ and
TypeScript on code no benchmark here was tuned on, with javac, rustc, gcc, g++ and the
TypeScript checker as the oracle: the
original file and the trimmed one are compiled alike, and an unresolved-name error
inside the focal function of the trimmed file that the original does not have at the same
place is a name trimming left undefined.

Corpus (``--fetch``, into ~/.cache/ctxpress/bench/compile): Java from modules of the local
JDK's src.zip that ``code_real`` does not use (java.xml, java.logging, java.prefs,
java.desktop's java/awt/geom, java.management's openmbean), compiled into their module
with ``--patch-module``; Rust from Debian's crates rand, toml, url, chrono, memchr, syn,
tokio, each file compiled alone as a crate (rustc stops after name resolution there, so
this checks paths, not methods); C from GNU binutils 2.40 (Debian's binutils-source:
libiberty, gprof, binutils, bfd, opcodes, gas, ld), with an empty config.h; C++ from its
gold linker, through g++ (undeclared names and members a class lacks); TypeScript from the
npm packages of msw, @mswjs/interceptors, @trpc/client and five ProseMirror modules (their
``src/*.ts``), each file checked alone by TypeScript 5.9 (imports unresolved, so what
they bring in is ``any``: names and members the file itself must define).

Per language a seeded sample of files that parse cleanly; in each up to two functions
of a unique name (Java: methods, not constructors; C++: by the name after `::`), each
asked about as "Why does `name` return the wrong value?" through ``ctxpress.compress``
at a budget of f = 0.1 / 0.3 / 0.6 of the code tokens (one drawn per case).

    .venv/bin/python benchmarks/code_compile.py --fetch   # once (~1 min)
    .venv/bin/python benchmarks/code_compile.py [--cases 300] [--langs java,rust,c,cpp,ts]

Setup: ``apt-get`` + ``dpkg``, ``rustc``, ``gcc``, ``g++``, a JDK with javac and lib/src.zip,
``npm`` and ``node``.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from code_real import fence_for, fetch_debs, fetch_npm

import ctxpress
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.tokens import get_counter, user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "code_compile.json"
CACHE = user_cache_dir() / "bench" / "compile"
R, JDK_SRC = CACHE / "root", CACHE / "jdk"
BINUTILS = CACHE / "binutils-2.40"
DEBS = re.findall(
    r"\S+",
    "librust-rand-dev=0.8.5-1 librust-toml-dev=0.5.11-1 librust-url-dev=2.3.1-1"
    " librust-chrono-dev=0.4.23-2 librust-memchr-dev=2.5.0-1 librust-syn-dev=1.0.107-1"
    " librust-tokio-dev=1.24.2-1 binutils-source=2.40-2",
)
JDK_PARTS = (
    "java.xml/",
    "java.logging/",
    "java.prefs/",
    "java.desktop/java/awt/geom/",
    "java.management/javax/management/openmbean/",
)
C_DIRS = ("libiberty", "gprof", "binutils", "bfd", "opcodes", "gas", "ld")
CPP_DIRS = ("gold", "elfcpp")  # binutils' C++: the gold linker
NPM, TSC = CACHE / "npm", CACHE / "tsc"
NPM_PKGS = re.findall(
    r"\S+",
    "msw@2.15.0 @mswjs/interceptors@0.41.9 @trpc/client@11.25.2 prosemirror-model@1.25.13"
    " prosemirror-state@1.4.4 prosemirror-transform@1.12.7 prosemirror-view@1.44.0"
    " prosemirror-commands@1.7.2",
)
TYPESCRIPT = "typescript@5.9.3"
GRAMMAR = {"ts": "typescript"}
# TypeScript's codes for a name or member it cannot find (2304 `Cannot find name`, 2552
# the same with a suggestion, 2503 a namespace, 2339 / 2551 a property of a type)
TS_CODES = frozenset({2304, 2552, 2503, 2339, 2551})
# One checker for every file: the TypeScript API in a node process, lib files parsed once;
# reads {"name", "text"} per line, writes the unresolved names as [[row, name], …].
CHECKER = """
const ts = require(process.argv[2]);
const codes = new Set(JSON.parse(process.argv[3]));
const opts = {noEmit: true, noResolve: true, skipLibCheck: true, types: [],
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
  moduleDetection: ts.ModuleDetectionKind.Force, jsx: ts.JsxEmit.Preserve,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"]};
const host = ts.createCompilerHost(opts);
const read = host.getSourceFile.bind(host), exists = host.fileExists.bind(host);
const libs = new Map();
let cur = {name: "", text: ""};
host.getSourceFile = (name, lang) => name === cur.name
  ? ts.createSourceFile(name, cur.text, lang, true)
  : (libs.has(name) ? libs.get(name) : libs.set(name, read(name, lang)).get(name));
host.fileExists = (name) => name === cur.name || exists(name);
require("readline").createInterface({input: process.stdin}).on("line", (line) => {
  cur = JSON.parse(line);
  const program = ts.createProgram([cur.name], opts, host);
  const file = program.getSourceFile(cur.name);
  const out = program.getSemanticDiagnostics(file).filter((d) => codes.has(d.code))
    .map((d) => [file.getLineAndCharacterOfPosition(d.start).line,
      d.file.text.slice(d.start, d.start + d.length)]);
  process.stdout.write(JSON.stringify(out) + "\\n");
});
"""
FRACS = (0.1, 0.3, 0.6)
FUNCS = {
    "java": {"method_declaration"},
    "rust": {"function_item"},
    "c": {"function_definition"},
    "cpp": {"function_definition"},
    "ts": {"function_declaration", "method_definition"},
}
# rustc's codes for a name it cannot resolve (value, type, path, struct, pattern, trait)
RUST_CODES = frozenset(
    {"E0425", "E0412", "E0433", "E0422", "E0423", "E0531", "E0532", "E0405", "E0574"}
)


def jdk() -> Path | None:
    """A JDK home with both javac and the sources it was built from."""
    for home in sorted(glob.glob("/usr/lib/jvm/*"), reverse=True):
        if (Path(home) / "bin/javac").exists() and (Path(home) / "lib/src.zip").exists():
            return Path(home)
    return None


def fetch() -> None:
    fetch_debs(DEBS, CACHE, R, unpinned=False)
    tarball = R / "usr/src/binutils/binutils-2.40.tar.xz"
    if tarball.exists() and not BINUTILS.is_dir():
        parts = [f"binutils-2.40/{d}" for d in ("include", *C_DIRS, *CPP_DIRS)]
        subprocess.run(["tar", "xf", str(tarball), "-C", str(CACHE), *parts], check=True)
        (CACHE / "cfg").mkdir(exist_ok=True)
        (CACHE / "cfg/config.h").write_text("")  # what configure would write: nothing needed
        shutil.copy(BINUTILS / "bfd/bfd-in2.h", CACHE / "cfg/bfd.h")
        print("binutils 2.40")
    home = jdk()
    if home is not None and not JDK_SRC.is_dir():
        with zipfile.ZipFile(home / "lib/src.zip") as z:
            z.extractall(JDK_SRC, [n for n in z.namelist() if n.startswith(JDK_PARTS)])
        print(f"jdk sources {home}")
    fetch_npm(NPM_PKGS, NPM)
    if not (TSC / "node_modules/typescript").is_dir():
        subprocess.run(["npm", "install", "-s", "--prefix", str(TSC), TYPESCRIPT], check=True)
        print(TYPESCRIPT)


def files_of(lang: str) -> list[Path]:
    if lang == "java":
        found = JDK_SRC.glob("**/*.java")
    elif lang == "rust":
        found = R.glob("usr/share/cargo/registry/*/src/**/*.rs")
    elif lang == "cpp":
        found = (BINUTILS / "gold").glob("*.cc")
    elif lang == "ts":
        found = NPM.glob("*/package/src/**/*.ts")
    else:
        found = (p for d in C_DIRS for p in (BINUTILS / d).glob("*.c"))
    # (not a trimmed copy another run is compiling beside its original)
    keep = (p for p in found if not p.name.startswith(".trim-"))
    return sorted(p for p in keep if 1500 < p.stat().st_size < 120_000)


_C_NAMES = frozenset({"identifier", "field_identifier", "qualified_identifier"})


def functions(lang: str, tree: Any) -> list[tuple[str, int, int]]:
    """(name, first row, last row) of each function of three lines or more."""
    out, todo = [], [tree.root_node]
    while todo:
        n = todo.pop()
        todo.extend(n.children)
        if n.type not in FUNCS[lang] or n.end_point[0] - n.start_point[0] < 3:
            continue
        c_like = lang in ("c", "cpp")
        d = n.child_by_field_name("declarator" if c_like else "name")
        while c_like and d is not None and d.type not in _C_NAMES:
            d = d.child_by_field_name("declarator")
        if d is not None:  # (a C++ method defined outside its class: its own name)
            name = re.split(r"::", re.sub(r"<[^<>]*>", "", d.text.decode()))[-1]
            out.append((name, n.start_point[0], n.end_point[0]))
    return out


class Compiler:
    """Unresolved names a compiler reports for a file, as (0-based row, name)."""

    def __init__(self, lang: str, work: Path) -> None:
        self.lang, self.work = lang, work
        self.javac = str(jdk() / "bin/javac") if lang == "java" else ""
        self.node: subprocess.Popen[str] | None = None
        if lang == "ts":
            (work / "check.js").write_text(CHECKER)
            ts = str(TSC / "node_modules/typescript")
            cmd = ["node", str(work / "check.js"), ts, json.dumps(sorted(TS_CODES))]
            self.node = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )

    def close(self) -> None:
        if self.node is not None:
            self.node.communicate()  # (its stdin closed, it ends)

    def errors(self, original: Path, text: str) -> set[tuple[int, str]]:
        if self.lang == "java":
            return self._java(original, text)
        if self.lang == "rust":
            return self._rust(text)
        if self.lang == "ts":
            return self._ts(text)
        return self._c(original, text, self.lang == "cpp")

    def _java(self, original: Path, text: str) -> set[tuple[int, str]]:
        module, rel = original.relative_to(JDK_SRC).parts[0], original.relative_to(JDK_SRC)
        patch = self.work / "patch"
        shutil.rmtree(patch, ignore_errors=True)
        path = patch / Path(*rel.parts[1:])
        path.parent.mkdir(parents=True)
        path.write_text(text)
        cmd = [self.javac, "-Xmaxerrs", "100000", "-proc:none", "-d", str(self.work / "out")]
        r = subprocess.run(
            [*cmd, "--patch-module", f"{module}={patch}", str(path)], capture_output=True, text=True
        )
        found = re.finditer(
            r"^.*?:(\d+): error: cannot find symbol\n(?:.*\n){2}\s*symbol:\s+\w+ (\S+)",
            r.stdout + r.stderr,
            re.M,
        )
        return {(int(m.group(1)) - 1, m.group(2)) for m in found}

    def _ts(self, text: str) -> set[tuple[int, str]]:
        assert self.node is not None and self.node.stdin and self.node.stdout
        name = str(self.work / "file.ts")
        self.node.stdin.write(json.dumps({"name": name, "text": text}) + "\n")
        self.node.stdin.flush()
        return {(row, what) for row, what in json.loads(self.node.stdout.readline())}

    def _rust(self, text: str) -> set[tuple[int, str]]:
        path = self.work / "lib.rs"
        path.write_text(text)
        cmd = ["rustc", "--edition", "2021", "--crate-type", "lib", "--emit", "metadata"]
        cmd += ["-o", str(self.work / "lib.rmeta"), "--error-format", "json", "--cap-lints"]
        r = subprocess.run([*cmd, "allow", str(path)], capture_output=True, text=True)
        out = set()
        for line in r.stderr.splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            code = (d.get("code") or {}).get("code")
            if code not in RUST_CODES and not d["message"].startswith("cannot find"):
                continue
            spans = [s for s in d["spans"] if s.get("is_primary")] or d["spans"]
            name = re.search(r"`([^`]*)`", d["message"])
            if spans:
                out.add((spans[0]["line_start"] - 1, name.group(1) if name else d["message"]))
        return out

    def _c(self, original: Path, text: str, cpp: bool) -> set[tuple[int, str]]:
        # beside the original: its own `#include "…"` resolve as they do for it
        fd, name = tempfile.mkstemp(suffix=original.suffix, prefix=".trim-", dir=original.parent)
        path = Path(name)
        try:
            with open(fd, "w") as fh:
                fh.write(text)
            cmd = ["g++", "-fsyntax-only", "-std=gnu++17", "-w", "-I../elfcpp"] if cpp else []
            cmd = cmd or ["gcc", "-fsyntax-only", "-std=gnu11", "-w"]
            cmd += ["-Werror=implicit-function-declaration", "-I.", "-I../include", "-I../bfd"]
            cmd += [f"-I{CACHE / 'cfg'}", "-DHAVE_STRING_H", "-DHAVE_STDLIB_H", str(path)]
            r = subprocess.run(cmd, capture_output=True, text=True, cwd=original.parent)
        finally:
            path.unlink()
        found = re.finditer(
            rf"^{re.escape(str(path))}:(\d+):\d+: error: (?:‘(\w+)’ undeclared|implicit "
            r"declaration of function ‘(\w+)’|‘(\w+)’ was not declared in this scope|.* has "
            r"no member named ‘(\w+)’)",
            r.stderr,
            re.M,
        )
        return {(int(m.group(1)) - 1, next(g for g in m.groups()[1:] if g)) for m in found}


def run(lang: str, cases: int, seed: int, counter: Any) -> dict[str, Any]:
    rnd = random.Random(seed)
    files = files_of(lang)
    rnd.shuffle(files)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        compiler = Compiler(lang, Path(work))
        for path in files:
            if len(rows) >= cases:
                break
            src = path.read_text(errors="replace")
            tree = clean_parse(GRAMMAR.get(lang, lang), src.encode())
            if tree is None:
                continue
            found = functions(lang, tree)
            count: dict[str, int] = {}
            for name, _, _ in found:
                count[name] = count.get(name, 0) + 1
            found = [f for f in found if count[f[0]] == 1]
            if not found:
                continue
            before = compiler.errors(path, src)
            lines = src.split("\n")
            for name, a, b in rnd.sample(found, min(2, len(found))):
                f = rnd.choice(FRACS)
                fence = fence_for(src)
                ask = f"\n{fence}\nWhy does `{name}` return the wrong value?"
                head = f"Here is `{path.name}`:\n{fence}{lang}\n"
                block = src if src.endswith("\n") else src + "\n"  # (a fence's code ends so)
                base = ctxpress.count_tokens([{"role": "user", "content": head + ask}])
                msgs = [{"role": "user", "content": head + block + ask[1:]}]
                res = ctxpress.compress(msgs, budget=base + int(f * counter.text(src)))
                text = res.messages[-1]["content"]
                code = text[len(head) : text.rindex(ask[1:])]
                out = code.split("\n")
                focal = lines[a : b + 1]
                at = next((i for i in range(len(out)) if out[i : i + len(focal)] == focal), None)
                row: dict[str, Any] = {"file": str(path.relative_to(CACHE)), "name": name, "f": f}
                row["parse"] = clean_parse(GRAMMAR.get(lang, lang), code.encode()) is not None
                row["focal"] = at is not None
                row["trimmed"] = code != block
                row["undefined"] = []
                if at is not None and row["trimmed"]:
                    was = {(r - a, n) for r, n in before if a <= r <= b}
                    now = {
                        (r - at, n) for r, n in compiler.errors(path, code) if at <= r <= at + b - a
                    }
                    row["undefined"] = sorted({n for _, n in now - was})
                rows.append(row)
        compiler.close()
    n = max(1, len(rows))
    return {
        "files": len({r["file"] for r in rows}),
        "cases": len(rows),
        "trimmed": sum(r["trimmed"] for r in rows),
        "parse_share": sum(r["parse"] for r in rows) / n,
        "focal_share": sum(r["focal"] for r in rows) / n,
        "undefined_cases": sum(bool(r["undefined"]) for r in rows),
        "undefined_names": sum(len(r["undefined"]) for r in rows),
        "seconds": round(time.perf_counter() - t0, 1),
        "failures": [r for r in rows if r["undefined"] or not r["parse"] or not r["focal"]],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--cases", type=int, default=300, help="cases per language")
    ap.add_argument("--langs", default="java,rust,c,cpp,ts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch()
    counter = get_counter(None, ctxpress.Config())
    tools = {"java": jdk() is not None, "rust": shutil.which("rustc"), "c": shutil.which("gcc")}
    tools["cpp"] = shutil.which("g++")
    tools["ts"] = shutil.which("node") and (TSC / "node_modules/typescript").is_dir()
    summary: dict[str, Any] = {}
    header = (
        f"{'lang':6} {'files':>6} {'cases':>6} {'parse':>7} {'focal':>7} {'undef':>6} {'names':>6}"
    )
    print(header + "\n" + "-" * len(header))
    for lang in args.langs.split(","):
        if not tools[lang] or not files_of(lang):
            print(f"{lang:6} skipped: no compiler or no corpus (run with --fetch)")
            continue
        s = summary[lang] = run(lang, args.cases, args.seed, counter)
        print(
            f"{lang:6} {s['files']:6d} {s['cases']:6d} {s['parse_share']:7.3f} "
            f"{s['focal_share']:7.3f} {s['undefined_cases']:6d} {s['undefined_names']:6d}"
        )
        for r in s["failures"][:10]:
            print(f"  {r['file']} {r['name']} f={r['f']}: {' '.join(r['undefined'][:8])}")
    args.out.write_text(json.dumps({"seed": args.seed, "summary": summary}, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
