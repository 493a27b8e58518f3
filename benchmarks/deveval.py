"""DevEval code fidelity (BENCHMARKS.md §2): does the code stage keep what a task needs?

Per task with at least one in-file dependency: the target's file (from the PyPI sdist at
the benchmark's version) with the target body replaced by ``pass``, sent as one user
message; budget = tokens(message without the code) + f x tokens(code). A dependency
survives if every line of its definition appears, in order and contiguous, in the output
code block. Baselines in the same run: nearest-code-first and BM25 over units, and an
oracle that knows the labels (an upper bound: whole dependency definitions, cheapest
first, into the same code budget; its output need not parse).

    .venv/bin/python benchmarks/deveval.py            # boltons 23.0.0 + Jinja2 3.1.2
    .venv/bin/python benchmarks/deveval.py --extended # + per-task verified mrjob, pyramid
    .venv/bin/python benchmarks/deveval.py --broad    # 57 other projects, never looked at
    .venv/bin/python benchmarks/deveval.py --ranker labels  # the planner's ceiling
    .venv/bin/python benchmarks/deveval.py --ranker hand    # without the learned re-ranking

Sources are the sdists on PyPI, downloaded (not built) into ``~/.cache/ctxpress/bench``
(outside the repository). Labels are read from
``../shared/data/deveval/data.jsonl``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from code_real import fetch_sdist  # (this folder is the script's path)

import ctxpress
from ctxpress.compressor.code import focal as code_focal
from ctxpress.compressor.code import trim as code_trim
from ctxpress.compressor.code import usage as code_usage
from ctxpress.compressor.code.languages import clean_parse
from ctxpress.tokens import get_counter, user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "deveval" / "data.jsonl"
CACHE = user_cache_dir() / "bench" / "sdist"
RESULTS = ROOT / "benchmarks" / "results" / "deveval.json"
FRACTIONS = (0.10, 0.25, 0.50)
# project_path -> (pip requirement, folder in the sdist). Primary projects match every
# task (checked below, task by task); extended ones are filtered to the tasks that match.
PRIMARY = {
    "Utilities/boltons": ("boltons==23.0.0", "boltons-23.0.0"),
    "Internet/Jinja2": ("Jinja2==3.1.2", "Jinja2-3.1.2"),
}
EXTENDED = {
    "System/mrjob": ("mrjob==0.7.4", "mrjob-0.7.4"),
    "Internet/pyramid": ("pyramid==2.0.2", "pyramid-2.0.2"),
}
# Every other DevEval project with in-file dependencies whose lines some sdist on PyPI
# matches, at the release that matches the most tasks (filtered task by task, as the
# extended ones). None was looked at while the code stage was built: unseen code.
BROAD = {
    "Communications/IMAPClient": ("IMAPClient==3.1.0", "imapclient-3.1.0"),
    "Communications/Telethon": ("telethon==1.34.0", "Telethon-1.34.0"),
    "Communications/Wikipedia-API": ("Wikipedia-API==0.6.0", "Wikipedia-API-0.6.0"),
    "Communications/chatette": ("chatette==1.6.3", "chatette-1.6.3"),
    "Communications/ehforwarderbot": ("ehforwarderbot==2.1.1", "ehforwarderbot-2.1.1"),
    "Communications/hl7": ("hl7==0.4.5", "hl7-0.4.5"),
    "Communications/twilio-fatisar": ("twilio==8.11.1", "twilio-8.11.1"),
    "Communications/twtxt": ("twtxt==1.3.1", "twtxt-1.3.1"),
    "Communications/zulip-term": ("zulip-term==0.7.0", "zulip-term-0.7.0"),
    "Database/bplustree": ("bplustree==0.0.3", "bplustree-0.0.3"),
    "Database/datasette": ("datasette==0.64.6", "datasette-0.64.6"),
    "Database/litecli": ("litecli==1.10.0", "litecli-1.10.0"),
    "Database/sqlite-utils": ("sqlite-utils==3.35.1", "sqlite-utils-3.35.1"),
    "Database/sqlitedict": ("sqlitedict==2.1.0", "sqlitedict-2.1.0"),
    "Internet/Authlib": ("Authlib==1.3.0", "Authlib-1.3.0"),
    "Internet/boto": ("boto==2.49.0", "boto-2.49.0"),
    "Internet/djangorestframework": ("djangorestframework==3.14.0", "djangorestframework-3.14.0"),
    "Internet/falcon": ("falcon==3.1.1", "falcon-3.1.1"),
    "Internet/google-api-python-client": (
        "google-api-python-client==2.114.0",
        "google-api-python-client-2.114.0",
    ),
    "Internet/kinto": ("kinto==16.2.3", "kinto-16.2.3"),
    "Internet/sumy": ("sumy==0.11.0", "sumy-0.11.0"),
    "Multimedia/Mopidy": ("Mopidy==3.4.2", "Mopidy-3.4.2"),
    "Multimedia/mingus": ("mingus==0.6.1", "mingus-0.6.1"),
    "Scientific-Engineering/bentoml": ("bentoml==1.1.10", "bentoml-1.1.10"),
    "Security/asyncssh": ("asyncssh==2.14.2", "asyncssh-2.14.2"),
    "Security/barf": ("barf==0.6.0", "barf-0.6.0"),
    "Security/capirca": ("capirca==2.0.6", "capirca-2.0.6"),
    "Security/diffprivlib": ("diffprivlib==0.6.3", "diffprivlib-0.6.3"),
    "Security/msticpy": ("msticpy==2.10.0", "msticpy-2.10.0"),
    "Security/oletools": ("oletools==0.60.1", "oletools-0.60.1"),
    "Security/pycoin": ("pycoin==0.92.20230326", "pycoin-0.92.20230326"),
    "Security/python-taint": ("python-taint==0.42", "python-taint-0.42"),
    "Security/trailscraper": ("trailscraper==0.8.1", "trailscraper-0.8.1"),
    "Security/zxcvbn-python": ("zxcvbn==4.5.0", "zxcvbn-4.5.0"),
    "Software-Development/Faker": ("Faker==22.2.0", "Faker-22.2.0"),
    "Software-Development/dash": ("dash==2.15.0", "dash-2.15.0"),
    "Software-Development/discord-py": ("discord.py==2.3.2", "discord.py-2.3.2"),
    "Software-Development/pandas-profiling": ("ydata-profiling==4.6.4", "ydata-profiling-4.6.4"),
    "Software-Development/peewee": ("peewee==3.17.0", "peewee-3.17.0"),
    "System/exodus-bundler": ("exodus-bundler==2.0.4", "exodus-bundler-2.0.4"),
    "System/fs": ("fs==2.4.16", "fs-2.4.16"),
    "System/prometheus-client": ("prometheus-client==0.20.0", "prometheus_client-0.20.0"),
    "System/pyinfra": ("pyinfra==3.0.dev0", "pyinfra-3.0.dev0"),
    "System/sslyze": ("sslyze==5.2.0", "sslyze-5.2.0"),
    "System/viztracer": ("viztracer==0.16.1", "viztracer-0.16.1"),
    "System/wal-e": ("wal-e==1.1.1", "wal-e-1.1.1"),
    "Text-Processing/dominate": ("dominate==2.9.0", "dominate-2.9.0"),
    "Text-Processing/mistune": ("mistune==3.0.2", "mistune-3.0.2"),
    "Text-Processing/pycorrector": ("pycorrector==0.4.4", "pycorrector-0.4.4"),
    "Text-Processing/rows": ("rows==0.4.0", "rows-0.4.0"),
    "Utilities/PyJWT": ("PyJWT==2.8.0", "PyJWT-2.8.0"),
    "Utilities/gunicorn": ("gunicorn==21.2.0", "gunicorn-21.2.0"),
    "Utilities/jc": ("jc==1.23.6", "jc-1.23.6"),
    "Utilities/mackup": ("mackup==0.8.39", "mackup-0.8.39"),
    "Utilities/praw": ("praw==7.7.1", "praw-7.7.1"),
    "Utilities/python-for-android": (
        "python-for-android==2023.9.16",
        "python-for-android-2023.9.16",
    ),
    "Utilities/sacred": ("sacred==0.8.5", "sacred-0.8.5"),
}


# ---------------------------------------------------------------------------- sources


def fetch(requirement: str, folder: str) -> Path:
    """The unpacked sdist of ``requirement`` in the cache, downloaded once."""
    target = CACHE / folder
    if not target.is_dir():
        name, version = requirement.split("==")
        try:
            fetch_sdist(name, version, CACHE)
        except (OSError, LookupError, ValueError) as e:
            raise SystemExit(f"could not fetch {requirement}: {e}") from e
    if not target.is_dir():
        raise SystemExit(f"could not unpack {requirement} into {target}")
    return target


# ---------------------------------------------------------------------------- tasks


@dataclass
class Task:
    project: str
    namespace: str
    name: str
    path: str  # path inside the project
    code: str  # the file with the target body replaced by `pass`
    signature: list[str]
    deps: dict[str, list[tuple[str, tuple[int, int], tuple[int, int] | None]]]
    requirement: str
    target_span: tuple[int, int]  # 1-based lines of the target in ``code``
    unresolved: list[str] = field(default_factory=list)


def _find_def(tree: ast.Module, line: int, name: str) -> ast.AST | None:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name == name
            and node.lineno == line
        ):
            return node
    return None


def _binds(stmt: ast.stmt, name: str) -> bool:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return stmt.name == name
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
        targets = [stmt.target]
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and n.id == name:
                return True
    return False


def _stmts(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements of a suite, descending into if/try blocks (not into defs)."""
    out: list[ast.stmt] = []
    for s in body:
        out.append(s)
        if isinstance(s, ast.If):
            out.extend(_stmts(s.body) + _stmts(s.orelse))
        elif isinstance(s, ast.Try):
            out.extend(_stmts(s.body) + _stmts(s.orelse) + _stmts(s.finalbody))
            for h in s.handlers:
                out.extend(_stmts(h.body))
    return out


def _span(stmt: ast.stmt) -> tuple[int, int]:
    start = stmt.lineno
    decos = getattr(stmt, "decorator_list", None)
    if decos:
        start = min(start, min(d.lineno for d in decos))
    return start, stmt.end_lineno or stmt.lineno


def _header(stmt: ast.stmt) -> tuple[int, int] | None:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and stmt.body:
        first = stmt.body[0].lineno
        if first > stmt.lineno:
            return _span(stmt)[0], first - 1
    return None


def resolve(
    tree: ast.Module, parts: list[str]
) -> list[tuple[str, tuple[int, int], tuple[int, int] | None]]:
    """Definition spans (whole statement, header) of a dotted name inside the module."""
    scope = tree.body
    classes = {s.name: s for s in _stmts(tree.body) if isinstance(s, ast.ClassDef)}
    for depth, part in enumerate(parts):
        hits = [s for s in _stmts(scope) if _binds(s, part)]
        last = depth == len(parts) - 1
        if not hits and depth > 0:
            # an instance attribute: its first `self.part = ...` in the class (or its bases)
            owner = parts[depth - 1]
            seen: set[str] = set()
            while owner in classes and owner not in seen:
                seen.add(owner)
                cls = classes[owner]
                for node in sorted(ast.walk(cls), key=lambda n: getattr(n, "lineno", 0)):
                    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                        for t in targets:
                            for n in ast.walk(t):
                                if (
                                    isinstance(n, ast.Attribute)
                                    and n.attr == part
                                    and isinstance(n.value, ast.Name)
                                    and n.value.id in ("self", "cls")
                                ):
                                    return [("attr", _span(node), None)] if last else []
                bases = [b.id for b in cls.bases if isinstance(b, ast.Name)]
                owner = bases[0] if bases else ""
                hits = (
                    [s for s in _stmts(classes[owner].body) if _binds(s, part)]
                    if owner in classes
                    else []
                )
                if hits:
                    break
        if not hits:
            return []
        if last:
            kind = {ast.ClassDef: "class"}.get(type(hits[0]), "def")
            if not isinstance(hits[0], ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                kind = "var"
            return [(kind, _span(h), _header(h)) for h in hits]
        cls_hits = [h for h in hits if isinstance(h, ast.ClassDef)]
        if not cls_hits:
            return []
        scope = cls_hits[0].body
    return []


def load_tasks(projects: dict[str, tuple[str, str]]) -> tuple[list[Task], dict[str, Any]]:
    roots = {p: fetch(req, folder) for p, (req, folder) in projects.items()}
    tasks: list[Task] = []
    check: dict[str, Any] = {p: {"tasks": 0, "match": 0, "in_file": 0} for p in projects}
    for line in DATA.read_text().splitlines():
        d = json.loads(line)
        project = d["project_path"]
        if project not in projects:
            continue
        check[project]["tasks"] += 1
        rel = d["completion_path"][len(project) + 1 :]
        src = (roots[project] / rel).read_text()
        name = d["namespace"].split(".")[-1]
        sig0, _sig1 = d["signature_position"]
        body0, body1 = d["body_position"]
        node = _find_def(ast.parse(src), sig0, name)
        if node is None or node.end_lineno != body1:
            continue  # the sdist's lines do not agree with the label: not used
        check[project]["match"] += 1
        deps = d["dependency"]["intra_class"] + d["dependency"]["intra_file"]
        if not deps:
            continue
        check[project]["in_file"] += 1
        lines = src.split("\n")
        new_lines = [*lines[: body0 - 1], " " * d["indent"] + "pass", *lines[body1:]]
        code = "\n".join(new_lines)
        tree = ast.parse(code)
        module = rel[:-3].replace("/", ".")
        module = module[4:] if module.startswith("src.") else module
        spans: dict[str, list[tuple[str, tuple[int, int], tuple[int, int] | None]]] = {}
        unresolved = []
        for dep in d["dependency"]["intra_class"] + d["dependency"]["intra_file"]:
            if not dep.startswith(module + "."):
                unresolved.append(dep)
                continue
            found = resolve(tree, dep[len(module) + 1 :].split("."))
            if found:
                spans[dep] = found
            else:
                unresolved.append(dep)
        if not spans:
            continue  # no dependency found where its name says (not counted)
        target = _find_def(tree, sig0, name)
        assert target is not None
        req = d["requirement"]
        tasks.append(
            Task(
                project=project,
                namespace=d["namespace"],
                name=name,
                path=rel,
                code=code,
                signature=new_lines[sig0 - 1 : d["signature_position"][1]],
                deps=spans,
                requirement=f"{req['Functionality']}\n{req['Arguments']}",
                target_span=_span(target),
                unresolved=unresolved,
            )
        )
    return tasks, check


# ---------------------------------------------------------------------------- scoring


def fence_for(code: str) -> str:
    runs = [len(m) for m in re.findall(r"`+", code)]
    return "`" * max(3, max(runs, default=0) + 1)


def message(task: Task, code: str, fence: str) -> str:
    return (
        f"Here is `{task.path}`:\n{fence}python\n{code}\n{fence}\n"
        f"Implement `{task.name}`.\n{task.requirement}"
    )


def extract(text: str, fence: str) -> str:
    start = text.index(fence + "python\n") + len(fence) + len("python\n")
    end = text.index("\n" + fence + "\n", start)
    return text[start:end]


def contains(out_lines: list[str], block: list[str]) -> bool:
    """Whether ``block`` appears as a contiguous run of ``out_lines``."""
    if not block:
        return True
    n = len(block)
    first = block[0]
    return any(line == first and out_lines[i : i + n] == block for i, line in enumerate(out_lines))


def header_only(out_lines: list[str], header: list[str]) -> bool:
    n = len(header)
    for i, line in enumerate(out_lines):
        if line == header[0] and out_lines[i : i + n] == header:
            nxt = out_lines[i + n].strip() if i + n < len(out_lines) else ""
            return nxt in ("...", "pass")
    return False


def score(task: Task, out: str) -> dict[str, Any]:
    src = task.code.split("\n")
    out_lines = out.split("\n")
    res: dict[str, Any] = {"intra_class": [], "intra_file": [], "header_only": 0}
    for dep, spans in task.deps.items():
        kind = "intra_class" if _is_class_dep(task, dep) else "intra_file"
        kept = all(contains(out_lines, src[a - 1 : b]) for _, (a, b), _ in spans)
        res[kind].append(kept)
        if not kept and spans[0][2] is not None:
            a, b = spans[0][2]
            if header_only(out_lines, src[a - 1 : b]):
                res["header_only"] += 1
    res["signature"] = contains(out_lines, task.signature)
    try:
        ast.parse(out)
        res["ast"] = True
    except SyntaxError:
        res["ast"] = False
    res["ts"] = clean_parse("python", out.encode()) is not None
    return res


_CLASS_DEPS: dict[str, set[str]] = {}


def _is_class_dep(task: Task, dep: str) -> bool:
    return dep in _CLASS_DEPS.get(task.namespace, set())


# ---------------------------------------------------------------------------- baselines


def _fit_lines(keep_order: list[int], lines: list[str], budget: int, count: Any) -> str:
    """Add lines in ``keep_order`` while the code stays within ``budget`` tokens."""
    chosen: set[int] = set()
    total = 0
    for i in keep_order:
        t = count(lines[i] + "\n")
        if total + t > budget:
            continue
        chosen.add(i)
        total += t
    out = "\n".join(lines[i] for i in sorted(chosen))
    while count(out) > budget and chosen:
        chosen.discard(max(chosen, key=lambda i: abs(i - keep_order[0])))
        out = "\n".join(lines[i] for i in sorted(chosen))
    return out


def nearest(task: Task, budget: int, count: Any) -> str:
    lines = task.code.split("\n")
    a, b = task.target_span[0] - 1, task.target_span[1] - 1
    order = sorted(
        range(len(lines)), key=lambda i: (0 if a <= i <= b else min(abs(i - a), abs(i - b)), i)
    )
    return _fit_lines(order, lines, budget, count)


def bm25(task: Task, budget: int, count: Any) -> str:
    import bm25s

    lines = task.code.split("\n")
    tree = ast.parse(task.code)
    units: list[tuple[int, int]] = []
    for s in tree.body:
        if isinstance(s, ast.ClassDef):
            a, _ = _span(s)
            head = s.body[0].lineno - 1 if s.body else s.lineno
            units.append((a, head))
            units.extend(_span(m) for m in s.body)
        else:
            units.append(_span(s))
    texts = ["\n".join(lines[a - 1 : b]) for a, b in units]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
    query = f"{task.name} {task.requirement}"
    docs, _scores = retriever.retrieve(
        bm25s.tokenize([query], show_progress=False), k=len(texts), show_progress=False
    )
    ta, tb = task.target_span
    order_units = [i for i, (a, b) in enumerate(units) if a <= ta and tb <= b]
    order_units += [int(i) for i in docs[0] if int(i) not in order_units]
    order: list[int] = []
    for u in order_units:
        a, b = units[u]
        order.extend(range(a - 1, b))
    return _fit_lines(order, lines, budget, count)


# ---------------------------------------------------------------------------- oracle


def oracle(task: Task, budget: int, count: Any) -> str:
    """The most dependencies a trimmer that knew the labels could keep in ``budget`` tokens.

    The target signature first, then whole dependency definitions, cheapest extra
    tokens first (lines already taken are free), as long as the code still fits. With
    equal value per dependency this greedy order maximises the count per task up to
    shared lines. An upper bound for recall, not a valid trimmer output (it need not
    parse): it only says whether a recall target is reachable at a budget at all.
    """
    lines = task.code.split("\n")
    sig_a = task.target_span[0]
    while lines[sig_a - 1] != task.signature[0]:
        sig_a += 1  # decorators come before the signature
    chosen = set(range(sig_a - 1, sig_a - 1 + len(task.signature)))

    def rows(spans: list[tuple[str, tuple[int, int], tuple[int, int] | None]]) -> set[int]:
        return {r for _, (a, b), _ in spans for r in range(a - 1, b)}

    def cost(rs: set[int]) -> int:
        return int(count("\n".join(lines[r] for r in sorted(rs))))

    pending = {dep: rows(spans) for dep, spans in task.deps.items()}
    while pending:
        current = cost(chosen)
        best = min(pending, key=lambda d: (cost(chosen | pending[d]) - current, d))
        extra = pending.pop(best)
        if cost(chosen | extra) <= budget:
            chosen |= extra
    return "\n".join(lines[r] for r in sorted(chosen))


# ---------------------------------------------------------------------------- rankers


def ranked_by(ranker: str, task: Task) -> contextlib.AbstractContextManager[Any]:
    """ctxpress with the likelihoods of the candidates for the empty body replaced.

    ``labels``: the task's dependencies 0.95, every other candidate a fifth of what the
    model says: what the planner keeps with a near-perfect ranking (its ceiling, below
    the oracle by what a valid output needs: headers, the focal stub, elisions).
    ``hand``: the hand-set distances of ``focal.predicted`` alone: what the model adds.
    """
    if ranker == "model":
        return contextlib.nullcontext()
    spans = [(a - 1, b - 1) for found in task.deps.values() for _, (a, b), _ in found]
    learned = code_usage.rescored

    def is_gold(u: Any) -> bool:
        # a leaf holding a dependency's lines (a constructor for an attribute); a class
        # only when it is itself the dependency, not when it holds one
        if u.children is not None:
            return any(a <= u.start and u.last <= b for a, b in spans)
        return any(a <= u.last and u.start <= b for a, b in spans)

    def by_labels(outline: Any, focal: Any, focus: Any) -> dict[Any, float]:
        out = {}
        for u, d in learned(outline, focal, focus).items():
            p = math.exp(-(d - code_usage._BASE) / code_usage._SCALE)
            p = 0.95 if is_gold(u) else 0.2 * p
            out[u] = code_usage._BASE + code_usage._SCALE * -math.log(p)
        return out

    def by_hand(outline: Any, focal: Any, focus: Any) -> dict[Any, float]:
        out: dict[Any, float] = {}
        for f in focal:
            for u, d in code_focal.predicted(outline, f, focus).items():
                out[u] = min(d, out.get(u, 99.0))
        return out

    return mock.patch.object(code_trim, "rescored", by_labels if ranker == "labels" else by_hand)


# ---------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--extended", action="store_true", help="add per-task verified mrjob, pyramid")
    ap.add_argument("--broad", action="store_true", help="the 57 other projects instead (unseen)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--ranker",
        choices=("model", "labels", "hand"),
        default="model",
        help="what ranks ctxpress's guesses for the empty body (see ranked_by)",
    )
    args = ap.parse_args()
    if args.out is None:
        stem = "deveval" + ("_broad" if args.broad else "")
        stem += "" if args.ranker == "model" else f"_{args.ranker}"
        args.out = RESULTS.with_stem(stem)
    if not DATA.exists():
        raise SystemExit(f"missing {DATA}: the DevEval labels come from ../shared/data")
    for line in DATA.read_text().splitlines():
        d = json.loads(line)
        _CLASS_DEPS[d["namespace"]] = set(d["dependency"]["intra_class"])
    projects = BROAD if args.broad else {**PRIMARY, **(EXTENDED if args.extended else {})}
    tasks, check = load_tasks(projects)
    if args.limit:
        tasks = tasks[: args.limit]
    counter = get_counter(None, ctxpress.Config())
    methods = ("ctxpress", "nearest", "bm25", "oracle")
    agg: dict[str, dict[float, dict[str, list[float]]]] = {
        m: {f: {} for f in FRACTIONS} for m in methods
    }
    per_task = []
    for task in tasks:
        fence = fence_for(task.code)
        empty_msg = [{"role": "user", "content": message(task, "", fence)}]
        base = ctxpress.count_tokens(empty_msg)
        code_tokens = counter.text(task.code)
        for f in FRACTIONS:
            budget = base + int(f * code_tokens)
            msgs = [{"role": "user", "content": message(task, task.code, fence)}]
            t0 = time.perf_counter()
            with ranked_by(args.ranker, task):
                result = ctxpress.compress(msgs, budget=budget)
            ms = (time.perf_counter() - t0) * 1000
            out = extract(result.messages[-1]["content"], fence)
            outs = {
                "ctxpress": (out, ms, result.tokens_after),
            }
            t0 = time.perf_counter()
            near = nearest(task, int(f * code_tokens), counter.text)
            outs["nearest"] = (near, (time.perf_counter() - t0) * 1000, 0)
            t0 = time.perf_counter()
            bm = bm25(task, int(f * code_tokens), counter.text)
            outs["bm25"] = (bm, (time.perf_counter() - t0) * 1000, 0)
            t0 = time.perf_counter()
            best = oracle(task, int(f * code_tokens), counter.text)
            outs["oracle"] = (best, (time.perf_counter() - t0) * 1000, 0)
            for m, (code_out, ms_m, tok_after) in outs.items():
                s = score(task, code_out)
                a = agg[m][f]
                all_deps = s["intra_class"] + s["intra_file"]
                if all_deps:
                    a.setdefault("recall", []).append(sum(all_deps) / len(all_deps))
                if s["intra_class"]:
                    a.setdefault("intra_class", []).append(
                        sum(s["intra_class"]) / len(s["intra_class"])
                    )
                if s["intra_file"]:
                    a.setdefault("intra_file", []).append(
                        sum(s["intra_file"]) / len(s["intra_file"])
                    )
                if all_deps:
                    a.setdefault("header_only", []).append(s["header_only"] / len(all_deps))
                a.setdefault("signature", []).append(float(s["signature"]))
                a.setdefault("ast_parse", []).append(float(s["ast"]))
                a.setdefault("ts_parse", []).append(float(s["ts"]))
                a.setdefault("ms", []).append(ms_m)
                if m == "ctxpress":
                    a.setdefault("within_budget", []).append(float(tok_after <= budget))
                    per_task.append(
                        {
                            "namespace": task.namespace,
                            "f": f,
                            "deps": len(all_deps),
                            "kept": sum(all_deps),
                            "oracle_kept": None,
                            "signature": s["signature"],
                            "parse": s["ts"],
                            "ms": round(ms_m, 2),
                        }
                    )
                if m == "oracle":
                    per_task[-1]["oracle_kept"] = sum(all_deps)
    summary: dict[str, Any] = {}
    print(
        f"DevEval in-file dependencies: {len(tasks)} tasks "
        f"({sum(len(t.deps) for t in tasks)} resolved deps, "
        f"{sum(len(t.unresolved) for t in tasks)} unresolved and not counted)"
    )
    header = (
        f"{'method':10} {'f':>5} {'recall':>7} {'class':>7} {'file':>7} {'hdr-only':>8} "
        f"{'sig':>5} {'ast':>5} {'ts':>5} {'ms/task':>8} {'in-budget':>9}"
    )
    print(header)
    print("-" * len(header))
    for m in methods:
        summary[m] = {}
        for f in FRACTIONS:
            a = agg[m][f]
            row = {k: (sum(v) / len(v) if v else None) for k, v in a.items()}
            row["n"] = len(a.get("recall", []))
            summary[m][str(f)] = row
            print(
                f"{m:10} {f:5.2f} {row.get('recall') or 0:7.3f} {row.get('intra_class') or 0:7.3f} "
                f"{row.get('intra_file') or 0:7.3f} {row.get('header_only') or 0:8.3f} "
                f"{row['signature']:5.2f} {row['ast_parse']:5.2f} {row['ts_parse']:5.2f} "
                f"{row['ms']:8.2f} "
                + (f"{row['within_budget']:9.3f}" if "within_budget" in row else f"{'':9}")
            )
    # recall per project (the extended projects were never tuned on: a held-out check)
    project_of = {t.namespace: t.project for t in tasks}
    by_project: dict[str, dict[str, dict[str, float]]] = {}
    for row in per_task:
        cell = by_project.setdefault(project_of[row["namespace"]], {}).setdefault(
            str(row["f"]), {"ctxpress": 0.0, "oracle": 0.0, "n": 0}
        )
        cell["ctxpress"] += row["kept"] / row["deps"]
        cell["oracle"] += (row["oracle_kept"] or 0) / row["deps"]
        cell["n"] += 1
    for project, cells in by_project.items():
        for cell in cells.values():
            cell["ctxpress"] = round(cell["ctxpress"] / cell["n"], 4)
            cell["oracle"] = round(cell["oracle"] / cell["n"], 4)
        print(
            f"{project:20} ctxpress/oracle recall "
            + "  ".join(f"{f}: {c['ctxpress']:.3f}/{c['oracle']:.3f}" for f, c in cells.items())
        )
    payload = {
        "protocol": "BENCHMARKS.md §2",
        "fractions": list(FRACTIONS),
        "projects": {p: {"requirement": projects[p][0], **check[p]} for p in check},
        "tasks": len(tasks),
        "ranker": args.ranker,
        "unresolved_deps": sorted({d for t in tasks for d in t.unresolved}),
        "summary": summary,
        "by_project": by_project,
        "per_task": per_task,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=1))
    print(f"projects: {json.dumps(payload['projects'])}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main()
