"""Tool logs: when a tool result must be shortened, does ctxpress keep why it failed?

Corpus: real logs made at run time on this machine, each by running a real tool on real
sources in a temporary directory (stdout and stderr together), after one edit that breaks
something (or none, where the sources fail on today's tools as they are). Nothing is kept
on disk and no text is made up. Kinds, each skipped with a note when its tool or sources
are missing:

* ``pytest``: the Jinja2 3.1.2 sdist's test files, ``pytest -v``, one line of the library
  changed (EDITS_PYTEST);
* ``unittest``: CPython's own ``test.test_*`` suites, ``unittest -v``, against a copy of the
  stdlib module with one line changed, put first on PYTHONPATH (EDITS_UNITTEST);
* ``make``: zlib's example programs (Debian's zlib1g-dev) built with make's built-in rules
  and ``-Wall -Wextra -Wconversion -Wsign-conversion -Wshadow``, one source edited (or,
  unedited, linked where a file has no ``main``);
* ``python``: Python runs with verbose output around a traceback: ``python -v`` and
  ``-X importtime`` on Jinja2's debugger example, an httpx client logging at DEBUG that
  mirrors the Jinja2 sdist's docs from a local ``http.server`` (one file removed),
  ``compileall`` over the pyramid and mrjob sdists with one syntax error;
* ``cargo``: Debian's memchr / unicode-width / base64 crates (code_todo.py ``--fetch``) as
  one offline workspace, ``cargo build`` and ``cargo clippy``.

The sdists are deveval.py's (``--extended`` for pyramid and mrjob) in
``~/.cache/ctxpress/bench/sdist``.

Labels: the lines a reader needs to say why it failed, parsed from the output: pytest's
``E`` lines (with a letter or digit) and ``FAILED``/``ERROR`` summary lines; unittest's
``FAIL:``/``ERROR:`` headers and each traceback's exception line; a compiler's ``error:``
line and the source excerpt under it, ``undefined reference`` lines and the ``make: ***``
line naming the target a link failed for; a traceback's exception line, ``ERROR:`` lines,
compileall's ``***`` line and error; cargo's ``error`` headers (not "could not compile") and
their ``-->`` locations. A log is used when it has labels and 2,000..40,000 tokens.

Request, an agent's step: system prompt, the user's question, the assistant's ``bash`` tool
call (the command) and the tool result (the log), through ``ctxpress.compress`` with the
default stages; budget = tokens of the request with an empty result + f x tokens(log), f in
0.10 / 0.25 / 0.50. Scores: ``recall`` the share of (distinct) label lines equal to a line of
the shortened result; ``within`` tokens_after <= budget; ``foreign`` lines of the result
not in the log and not an omission marker (must be 0); ms per call. Baselines on the log
alone with f x tokens(log), whole lines: ``head``, ``tail``, ``head+tail`` (a third of the
budget from the head, the rest from the tail). Printed: ctxpress's recall per log, then
per method and f the means, then recall per kind; the JSON has every log's runs and, per
log, its command and what it was made from (sdist or package, edit).

After a read: for the logs made by editing one file (pytest, unittest, make), the agent
first read that file (a ``read_file`` call and its result, the edited file), then ran the
command; budget = the rest + f x (tokens of the read + of the log). Scores: ``read`` the
share where the edited line is still in the read, ``recall`` as above; for the default
stages (``logs`` first: it leaves room for earlier turns) and for ``logs`` after
``history`` (which then keeps only the current step).

    .venv/bin/python benchmarks/tool_logs.py [--out benchmarks/results/tool_logs.json]
    .venv/bin/python benchmarks/tool_logs.py --kinds pytest,make  # some kinds only
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ctxpress
from ctxpress.tokens import get_counter, user_cache_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "tool_logs.json"
FRACTIONS = (0.10, 0.25, 0.50)
MIN_TOKENS, MAX_TOKENS = 2_000, 40_000
SDISTS = user_cache_dir() / "bench" / "sdist"  # deveval.py's fetch
JINJA, PYRAMID, MRJOB = "Jinja2-3.1.2", "pyramid-2.0.2", "mrjob-0.7.4"
STDLIB = Path(sysconfig.get_paths()["stdlib"])
ZLIB = Path("/usr/share/doc/zlib1g-dev/examples")
CRATES = user_cache_dir() / "bench" / "todo" / "root" / "usr" / "share" / "cargo" / "registry"
SYSTEM = "You are a coding agent. Use the tools to fix failures."
METHODS = ("ctxpress", "head", "tail", "head+tail")
# The stage's omission marker (``[… 12 lines omitted …]``), loosely: any bracketed line
# that counts lines.
MARKER = re.compile(r"^\s*\[.*\b\d[\d,]*\s+(more\s+)?lines?\b.*\]\s*$")
EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(:\s|:?$)")


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (found exactly once) by ``new`` in ``path``."""

    path: str
    old: str
    new: str

    def apply(self, root: Path) -> bool:
        f = root / self.path
        if not f.is_file():
            return False
        text = f.read_text(encoding="utf-8")
        if text.count(self.old) != 1:
            return False
        f.write_text(text.replace(self.old, self.new), encoding="utf-8")
        return True

    def read(self, root: Path) -> dict[str, Any]:
        """The edited file as an agent reads it, and its (first) edited line whole."""
        text = (root / self.path).read_text(encoding="utf-8")
        first = next(line for line in self.new.split("\n") if line.strip())
        line = next(line for line in text.split("\n") if first in line)
        return {"read": (self.path, text), "read_label": line}


# Jinja2 3.1.2 (src/jinja2/...): the edit, the test files run.
EDITS_PYTEST: list[tuple[str, Edit, list[str]]] = [
    (
        "capitalize-title",
        Edit("filters.py", "    return soft_str(s).capitalize()", "    return soft_str(s).title()"),
        ["tests/test_filters.py"],
    ),
    (
        "odd-is-even",
        Edit("tests.py", "    return value % 2 == 1", "    return value % 2 == 0"),
        ["tests/test_tests.py", "tests/test_filters.py"],
    ),
    (
        "loop-revindex",
        Edit(
            "runtime.py",
            "        return self.length - self.index0\n",
            "        return self.length - self.index\n",
        ),
        ["tests/test_core_tags.py", "tests/test_async.py"],
    ),
    (
        "native-single-node",
        Edit("nativetypes.py", "    if len(head) == 1:\n", "    if len(head) == 2:\n"),
        ["tests/test_nativetypes.py", "tests/test_api.py", "tests/test_imports.py"],
    ),
    (
        "round-precision",
        Edit(
            "filters.py",
            "        return round(value, precision)",
            "        return round(value, precision + 1)",
        ),
        ["tests"],
    ),
    (
        "truncate-leeway",
        Edit("defaults.py", '    "truncate.leeway": 5,', '    "truncate.leeway": 0,'),
        ["tests/test_filters.py", "tests/test_lexnparse.py", "tests/test_api.py"],
    ),
    (
        "join-unconverted",
        Edit(
            "filters.py",
            "        return str(d).join(map(str, value))",
            "        return str(d).join(value)",
        ),
        ["tests/test_filters.py", "tests/test_async_filters.py", "tests/test_regression.py"],
    ),
    (
        "filesize-base",
        Edit(
            "filters.py",
            "    base = 1024 if binary else 1000",
            "    base = 1000 if binary else 1024",
        ),
        ["tests"],
    ),
]
# CPython's stdlib (a copy of the module shadows it): the edit, the test modules run.
EDITS_UNITTEST: list[tuple[str, Edit, list[str]]] = [
    (
        "median-low",
        Edit("statistics.py", "        return data[n // 2 - 1]\n", "        return data[n // 2]\n"),
        ["test.test_statistics"],
    ),
    (
        "isleap-400",
        Edit(
            "calendar.py",
            "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)",
            "    return year % 4 == 0 and year % 100 != 0",
        ),
        ["test.test_calendar", "test.test_textwrap"],
    ),
    (
        "shorten-placeholder",
        Edit(
            "textwrap.py",
            "                 placeholder=' [...]'):",
            "                 placeholder=' ...'):",
        ),
        ["test.test_textwrap", "test.test_shlex", "test.test_base64", "test.test_fractions"],
    ),
    (
        "fraction-repr",
        Edit("fractions.py", "        return '%s(%s, %s)' % (", "        return '%s(%s/%s)' % ("),
        ["test.test_fractions", "test.test_calendar"],
    ),
    (
        "num-addresses",
        Edit(
            "ipaddress.py",
            "        return int(self.broadcast_address) - int(self.network_address) + 1",
            "        return int(self.broadcast_address) - int(self.network_address)",
        ),
        ["test.test_ipaddress"],
    ),
    (
        "boolean-on",
        Edit("configparser.py", "'on': True,", "'on': False,"),
        ["test.test_configparser"],
    ),
]
ZLIB_FILES = ["enough", "example", "fitblk", "gun", "gzappend", "gzjoin", "gzlog", "gznorm"]
ZLIB_FILES += ["minigzip", "zpipe", "zran"]  # infcover.c needs zlib's private headers
OBJECTS = [f"{f}.o" for f in ZLIB_FILES]
CFLAGS = "-Wall -Wextra -Wconversion -Wsign-conversion -Wshadow"
# zlib's examples: the edit (None: none), the make targets, make -k.
EDITS_MAKE: list[tuple[str, Edit | None, list[str], bool]] = [
    (
        "gzlog-semicolon",
        Edit("gzlog.c", "    strcpy(log->id, LOGID);", "    strcpy(log->id, LOGID)"),
        OBJECTS,
        True,
    ),
    (
        "gun-member",
        Edit("gun.c", "        strm->avail_in = have;", "        strm->avail_inn = have;"),
        OBJECTS,
        True,
    ),
    (
        "enough-arguments",
        Edit(
            "enough.c",
            "        got = count(syms - use, (left - use) << 1, len + 1);",
            "        got = count(syms - use, (left - use) << 1);",
        ),
        ["fitblk.o", "gun.o", "gzappend.o", "gznorm.o", "enough.o"],
        False,
    ),
    (
        "zran-undeclared",
        Edit(
            "zran.c",
            "    ret = fseeko(in, here->in - (here->bits ? 1 : 0), SEEK_SET);",
            "    ret = fseeko(in, here->in - (here->bits ? 1 : 0), SEEK_SETT);",
        ),
        OBJECTS,
        False,
    ),
    (
        "gzjoin-paren",
        Edit(
            "gzjoin.c",
            "    in->fd = open(name, O_RDONLY, 0);",
            "    in->fd = open(name, O_RDONLY, 0;",
        ),
        [f for f in ZLIB_FILES if f not in ("gzlog", "zran")],
        True,
    ),
    (
        "fitblk-brace",
        Edit("fitblk.c", "    exit(1);\n}\n", "    exit(1);\n"),
        ["example.o", "fitblk.o", "gzappend.o", "gzjoin.o", "gznorm.o", "minigzip.o"],
        True,
    ),
    # gzlog.c is a library and zran.c's main is under #ifdef TEST: nothing to link
    ("link-no-main", None, ZLIB_FILES, True),
]
# Python runs: an httpx client at DEBUG mirrors the sdist's docs and examples from a local
# http.server (MISSING_DOC removed), and compileall over a whole sdist with one edit.
MISSING_DOC = "docs/nativetypes.rst"
MIRROR = """\
import functools
import http.server
import logging
import sys
import threading

import httpx

logging.basicConfig(level=logging.DEBUG)
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=".")
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
with open("src/Jinja2.egg-info/SOURCES.txt") as f:
    names = [n for n in f.read().split() if n.startswith(("docs/", "examples/"))]
failed = 0
with httpx.Client(base_url=f"http://127.0.0.1:{server.server_port}") as client:
    for name in names:
        try:
            r = client.get("/" + name)
            r.raise_for_status()
            logging.info("fetched %s (%d bytes)", name, len(r.content))
        except httpx.HTTPError:
            logging.exception("could not fetch %s", name)
            failed += 1
server.shutdown()
sys.exit(1 if failed else 0)
"""
COMPILEALL = [
    (
        PYRAMID,
        Edit(
            "src/pyramid/url.py",
            "    def route_url(self, route_name, *elements, **kw):",
            "    def route_url(self, route_name, *elements, **kw)",
        ),
    ),
    (
        MRJOB,
        Edit(
            "mrjob/hadoop.py",
            "            raise Exception('no Hadoop streaming jar')",
            "      raise Exception('no Hadoop streaming jar')",
        ),
    ),
]
# Debian's crates as one offline workspace: (name, members, edit, cargo arguments). base64
# 0.13 has #![deny(warnings)]: today's rustc warns where it did not.
CRATE_NAMES = ("memchr-2.5.0", "unicode-width-0.1.10", "base64-0.13.0")
UW = "unicode-width-0.1.10/src/lib.rs"
CARGO_RUNS: list[tuple[str, tuple[str, ...], Edit | None, list[str]]] = [
    ("base64-deny-warnings", CRATE_NAMES, None, ["build", "--offline", "-j1"]),
    (
        "unicode-width-type",
        CRATE_NAMES[:2],
        Edit(UW, "cw::width(c, false).unwrap_or(0)).fold", "cw::width(c, false)).fold"),
        ["build", "--offline", "-j1"],
    ),
    (
        "clippy",
        CRATE_NAMES[:2],
        Edit(
            UW,
            "    fn width_cjk(self) -> Option<usize> { cw::width(self, true) }",
            "    fn width_cjk(self) -> usize { cw::width(self, true) }",
        ),
        ["clippy", "--offline", "-j1", "--keep-going"],
    ),
]


# ---------------------------------------------------------------------------- logs


@dataclass
class Log:
    kind: str
    name: str
    question: str
    command: str  # as the agent ran it
    text: str
    labels: list[str]
    source: dict[str, Any] = field(default_factory=dict)  # machine-independent
    # the broken file as the agent read it before the run (path, text), and its edited line
    read: tuple[str, str] | None = None
    read_label: str = ""


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 120) -> str:
    """Combined stdout and stderr of ``cmd``."""
    base = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="80", PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        env=base | (env or {}),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )
    return proc.stdout


def uniq(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(ln for ln in lines if ln.strip()))


def exception_lines(lines: list[str]) -> list[str]:
    """Each traceback's exception line: the first ``Name: ...`` line after it."""
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("Traceback (most recent call last):"):
            out += [x for x in lines[i + 1 :] if EXCEPTION.match(x)][:1]
    return out


def labels_pytest(text: str) -> list[str]:
    lines = text.split("\n")
    e = [ln for ln in lines if ln.startswith("E ") and re.search(r"\w", ln[1:])]
    return uniq(e + [ln for ln in lines if re.match(r"(FAILED|ERROR) \S+::", ln)])


def labels_unittest(text: str) -> list[str]:
    lines = text.split("\n")
    heads = [ln for ln in lines if ln.startswith(("FAIL: ", "ERROR: "))]
    return uniq(heads + exception_lines(lines))


def labels_make(text: str) -> list[str]:
    lines, out = text.split("\n"), []
    for i, ln in enumerate(lines):
        if re.search(r": (fatal )?error: ", ln):
            out.append(ln)
            if i + 1 < len(lines) and re.match(r"^\s*\d+ \| ", lines[i + 1]):
                out.append(lines[i + 1])
        elif "undefined reference to" in ln:
            out.append(ln)
        if ln.startswith("collect2: error") and i + 1 < len(lines):
            out += [lines[i + 1]] if lines[i + 1].startswith("make: *** ") else []  # the target
    return uniq(out)


def labels_python(text: str) -> list[str]:
    lines = text.split("\n")
    out = exception_lines(lines) + [ln for ln in lines if ln.startswith("ERROR:")]
    for i, ln in enumerate(lines):  # compileall: "***   File ..., line N", then the error
        if ln.startswith("***"):
            out += [ln, *[x for x in lines[i + 1 : i + 8] if EXCEPTION.match(x)][:1]]
    return uniq(out)


def labels_cargo(text: str) -> list[str]:
    lines, out = text.split("\n"), []
    for i, ln in enumerate(lines):
        if re.match(r"^error(\[E\d+\])?: ", ln) and not re.match(
            r"^error: (could not compile|aborting)", ln
        ):
            out.append(ln)
            if i + 1 < len(lines) and re.match(r"^\s*--> ", lines[i + 1]):
                out.append(lines[i + 1])
    return uniq(out)


def logs_pytest(tmp: Path) -> Iterator[Log]:
    src = SDISTS / JINJA
    if not (src / "tests").is_dir():
        print(f"pytest: skipped, no {src} (benchmarks/deveval.py fetches it)")
        return
    # the venv's own pytest plugins (pytest-asyncio) would turn their warnings into errors
    # under Jinja2's filterwarnings = error
    env = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONPATH": "src"}
    for name, edit, tests in EDITS_PYTEST:
        work = tmp / name
        shutil.copytree(src, work)
        where = Edit(f"src/jinja2/{edit.path}", edit.old, edit.new)
        if not where.apply(work):
            print(f"pytest {name}: the edit does not apply; skipped")
            continue
        cmd = ["python", "-m", "pytest", "-v", "-p", "no:cacheprovider", *tests]
        text = run([sys.executable, *cmd[1:]], work, env)
        yield Log(
            "pytest",
            name,
            "The tests fail. Find out why and fix it.",
            "PYTHONPATH=src " + " ".join(cmd),
            text,
            labels_pytest(text),
            {"sdist": JINJA, "edit": vars(edit) | {"path": f"src/jinja2/{edit.path}"}},
            **where.read(work),
        )


def logs_unittest(tmp: Path) -> Iterator[Log]:
    if not (STDLIB / "test" / "test_statistics.py").is_file():
        print(f"unittest: skipped, no test package in {STDLIB}")
        return
    version = ".".join(map(str, sys.version_info[:3]))
    for name, edit, modules in EDITS_UNITTEST:
        work = tmp / name
        work.mkdir()
        shutil.copy(STDLIB / edit.path, work / edit.path)
        if not edit.apply(work):
            print(f"unittest {name}: the edit does not apply to Python {version}; skipped")
            continue
        cmd = ["python", "-m", "unittest", "-v", *modules]
        text = run([sys.executable, *cmd[1:]], work, {"PYTHONPATH": str(work)})
        yield Log(
            "unittest",
            name,
            "The tests fail. Find out why and fix it.",
            "PYTHONPATH=. " + " ".join(cmd),
            text,
            labels_unittest(text),
            {"python": version, "edit": vars(edit) | {"path": f"Lib/{edit.path}"}},
            **edit.read(work),
        )


def logs_make(tmp: Path) -> Iterator[Log]:
    if not shutil.which("make") or not shutil.which("cc"):
        print("make: skipped, no make or cc")
        return
    if not all((ZLIB / f"{f}.c").is_file() for f in ZLIB_FILES):
        print(f"make: skipped, no zlib examples in {ZLIB} (apt-get install zlib1g-dev)")
        return
    for name, edit, targets, keep_going in EDITS_MAKE:
        work = tmp / name
        shutil.copytree(ZLIB, work)
        if edit is not None and not edit.apply(work):
            print(f"make {name}: the edit does not apply; skipped")
            continue
        cmd = ["make", *(["-k"] if keep_going else []), f"CFLAGS={CFLAGS}", "LDLIBS=-lz"]
        cmd += targets
        text = run(cmd, work)
        shown = " ".join(f"'{c}'" if " " in c else c for c in cmd)
        yield Log(
            "make",
            name,
            "The build fails. Find out why and fix it.",
            shown,
            text,
            labels_make(text),
            {"sources": "zlib1g-dev examples", "edit": vars(edit) if edit else None},
            **(edit.read(work) if edit else {}),
        )


def logs_python(tmp: Path) -> Iterator[Log]:
    jinja = SDISTS / JINJA
    if not (jinja / "examples" / "basic" / "debugger.py").is_file():
        print(f"python: Jinja2 runs skipped, no {jinja} (benchmarks/deveval.py fetches it)")
    else:
        # Jinja2's debugger example: from its folder a template divides by zero; from the
        # sdist's root its templates are not found.
        work = tmp / "jinja"
        shutil.copytree(jinja, work)
        runs = [
            ("debugger-verbose", "examples/basic", ["-v", "debugger.py"], "../../src"),
            ("debugger-importtime", ".", ["-X", "importtime", "examples/basic/debugger.py"], "src"),
        ]
        for name, cwd, args, path in runs:
            text = run([sys.executable, *args], work / cwd, {"PYTHONPATH": path})
            yield Log(
                "python",
                name,
                "This command fails. Find out why and fix it.",
                f"cd {cwd} && PYTHONPATH={path} python {' '.join(args)}",
                text,
                labels_python(text),
                {"sdist": JINJA, "cwd": cwd, "edit": None},
            )
        try:
            import httpx  # noqa: F401
        except ImportError:
            print("python: httpx-debug skipped, no httpx")
        else:
            (work / MISSING_DOC).unlink()
            (work / "mirror_docs.py").write_text(MIRROR)
            text = run([sys.executable, "mirror_docs.py"], work)
            yield Log(
                "python",
                "httpx-debug",
                "The docs mirror script fails. Find out why and fix it.",
                "python mirror_docs.py",
                text,
                labels_python(text),
                {"sdist": JINJA, "script": MIRROR, "removed": MISSING_DOC},
            )
    for sdist, edit in COMPILEALL:
        if not (SDISTS / sdist).is_dir():
            print(f"python: compileall skipped, no {SDISTS / sdist} (deveval.py --extended)")
            continue
        work = tmp / sdist
        shutil.copytree(SDISTS / sdist, work)
        if not edit.apply(work):
            print(f"python: compileall {sdist}: the edit does not apply; skipped")
            continue
        cmd = ["python", "-m", "compileall", "-f", "."]
        text = run([sys.executable, *cmd[1:]], work)
        yield Log(
            "python",
            f"compileall-{sdist.split('-')[0]}",
            "Byte-compiling the package fails. Find out why and fix it.",
            " ".join(cmd),
            text,
            labels_python(text),
            {"sdist": sdist, "edit": vars(edit)},
        )


def offline_manifest(text: str) -> str | None:
    """A crate's Cargo.toml without what an offline build cannot fetch: optional, dev and
    target dependencies (features no longer name them), profiles, benches; None if it has
    a dependency it needs."""

    def dump(table: dict[str, Any]) -> str:
        ok = [(k, v) for k, v in table.items() if isinstance(v, str | bool | list)]
        return "".join(f"{k} = {json.dumps(v)}\n" for k, v in ok)

    d = tomllib.loads(text)
    deps = d.get("dependencies", {})
    gone = {k for k, v in deps.items() if isinstance(v, dict) and v.get("optional")}
    if set(deps) - gone:
        return None
    feats = {
        k: [x for x in v if x.removeprefix("dep:").split("/")[0].rstrip("?") not in gone]
        for k, v in d.get("features", {}).items()
        if k not in gone
    }
    out = "[package]\n" + dump(d["package"])
    if "lib" in d:
        out += "\n[lib]\n" + dump(d["lib"])
    return out + "\n[features]\n" + dump(feats)


def logs_cargo(tmp: Path) -> Iterator[Log]:
    if not shutil.which("cargo"):
        print("cargo: skipped, no cargo")
        return
    if not all((CRATES / c / "Cargo.toml").is_file() for c in CRATE_NAMES):
        print(f"cargo: skipped, no crates in {CRATES} (run benchmarks/code_todo.py --fetch)")
        return
    clippy = run(["cargo", "clippy", "--version"], tmp).startswith("clippy")
    for name, crates, edit, args in CARGO_RUNS:
        if args[0] == "clippy" and not clippy:
            print(f"cargo {name}: skipped, no clippy")
            continue
        work = tmp / name
        for c in crates:
            shutil.copytree(CRATES / c, work / c)
            manifest = offline_manifest((work / c / "Cargo.toml").read_text())
            if manifest is None:
                print(f"cargo {name}: {c} needs a dependency; skipped")
                break
            (work / c / "Cargo.toml").write_text(manifest)
        else:
            if edit is not None and not edit.apply(work):
                print(f"cargo {name}: the edit does not apply; skipped")
                continue
            members = ", ".join(f'"{c}"' for c in crates)
            (work / "Cargo.toml").write_text(f"[workspace]\nmembers = [{members}]\n")
            env = {"CARGO_HOME": str(tmp / "cargo-home"), "CARGO_TERM_COLOR": "never"}
            text = run(["cargo", *args], work, env, timeout=300)
            yield Log(
                "cargo",
                name,
                "cargo fails. Find out why and fix it.",
                " ".join(["cargo", *args]),
                text,
                labels_cargo(text),
                {"crates": "Debian librust-*-dev " + " ".join(crates), "edit": edit and vars(edit)},
            )


GENERATORS: list[tuple[str, Callable[[Path], Iterator[Log]]]] = [
    ("pytest", logs_pytest),
    ("unittest", logs_unittest),
    ("make", logs_make),
    ("python", logs_python),
    ("cargo", logs_cargo),
]


def corpus(kinds: list[str], count: Callable[[str], int]) -> list[Log]:
    """The logs of ``kinds``, each kept if it has labels and MIN..MAX_TOKENS tokens."""
    logs = []
    for kind, make in GENERATORS:
        if kind not in kinds:
            continue
        with tempfile.TemporaryDirectory(prefix=f"tool_logs_{kind}_") as tmp:
            for log in make(Path(tmp)):
                n = count(log.text)
                if not log.labels:
                    print(f"{kind} {log.name}: no label lines in the output; skipped")
                elif not MIN_TOKENS <= n <= MAX_TOKENS:
                    print(f"{kind} {log.name}: {n} tokens, out of range; skipped")
                else:
                    logs.append(log)
    return logs


# ---------------------------------------------------------------------------- baselines


def fit(lines: list[str], budget: int, count: Callable[[str], int], end: bool = False) -> int:
    """How many whole lines from the start (``end``: the end) fit in ``budget`` tokens."""
    lo, hi = 0, len(lines)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        part = lines[len(lines) - mid :] if end else lines[:mid]
        if count("\n".join(part)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo


def baseline(method: str, lines: list[str], budget: int, count: Callable[[str], int]) -> str:
    if method == "head":
        return "\n".join(lines[: fit(lines, budget, count)])
    if method == "tail":
        k = fit(lines, budget, count, end=True)
        return "\n".join(lines[len(lines) - k :])
    head = lines[: fit(lines, budget // 3, count)]
    rest = lines[len(head) :]
    k = fit(rest, budget - count("\n".join(head)) - 1, count, end=True)
    while k and count("\n".join(head + rest[len(rest) - k :])) > budget:
        k -= 1
    return "\n".join(head + rest[len(rest) - k :])


# ---------------------------------------------------------------------------- runs


def request(log: Log, content: str) -> list[dict[str, Any]]:
    """An agent's step: the question, the bash call and its result."""
    call = {"name": "bash", "arguments": json.dumps({"command": log.command})}
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": log.question},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": content},
    ]


def request_after_read(log: Log, read: str, content: str) -> list[dict[str, Any]]:
    """The agent read the broken file first (``call_0``), then ran the command."""
    assert log.read is not None
    call = {"name": "read_file", "arguments": json.dumps({"path": log.read[0]})}
    first, *rest = request(log, content)[1:]
    return [
        {"role": "system", "content": SYSTEM},
        first,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_0", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_0", "content": read},
        *rest,
    ]


def tool_text(messages: list[dict[str, Any]], call: str = "call_1") -> str:
    """The tool result's text after compression ("" if it was dropped)."""
    for m in messages:
        if m.get("role") == "tool" and m.get("tool_call_id") == call:
            c = m.get("content")
            if isinstance(c, list):
                return "\n".join(p.get("text", "") for p in c if isinstance(p, dict))
            return c if isinstance(c, str) else ""
    return ""


def score(out: str, log: Log, inputs: set[str]) -> dict[str, Any]:
    lines = out.split("\n") if out else []
    kept = set(lines)
    foreign = [ln for ln in lines if ln not in inputs]
    markers = sum(bool(MARKER.match(ln)) for ln in foreign)
    return {
        "recall": sum(lb in kept for lb in log.labels) / len(log.labels),
        "foreign": len(foreign) - markers,
        "markers": markers,
    }


def run_log(log: Log, count: Callable[[str], int]) -> dict[str, Any]:
    """ctxpress and the baselines at every f."""
    tokens = count(log.text)
    lines = log.text.split("\n")
    inputs = set(lines)
    base = ctxpress.count_tokens(request(log, ""))
    runs = []
    for f in FRACTIONS:
        budget = base + int(f * tokens)
        t0 = time.perf_counter()
        res = ctxpress.compress(request(log, log.text), budget=budget)
        ms = 1000 * (time.perf_counter() - t0)
        row: dict[str, Any] = {"f": f, "budget": budget}
        row["ctxpress"] = score(tool_text(res.messages), log, inputs) | {
            "within": res.tokens_after <= budget,
            "tokens_after": res.tokens_after,
            "ms": round(ms, 1),
            "stages": {s.name: s.tokens_before - s.tokens_after for s in res.stages},
            "errors": [f"{s.name}: {s.error}" for s in res.stages if s.error],
        }
        for method in METHODS[1:]:
            t0 = time.perf_counter()
            out = baseline(method, lines, int(f * tokens), count)
            ms = 1000 * (time.perf_counter() - t0)
            within = count(out) <= int(f * tokens)
            row[method] = score(out, log, inputs) | {"within": within, "ms": round(ms, 1)}
        runs.append(row)
    return {"kind": log.kind, "name": log.name, "tokens": tokens, "lines": len(lines)} | {
        "n_labels": len(log.labels),
        "label_tokens": count("\n".join(log.labels)),  # above f x tokens: recall < 1 at best
        "runs": runs,
    }


# The stage orders compared after a read: the default (logs first, leaving room for earlier
# turns, then code and history) and logs last (history keeps only the protected step).
ORDERS = {
    "ctxpress": None,
    "logs-last": ("system", "code", "history", "logs"),
}


def run_after_read(log: Log, count: Callable[[str], int]) -> dict[str, Any]:
    """With the broken file read before the run: is its edited line still there, and why
    the run failed? Budget: the rest + f x (tokens of the read + of the log)."""
    assert log.read is not None
    read = log.read[1]
    tokens = count(read) + count(log.text)
    base = ctxpress.count_tokens(request_after_read(log, "", ""))
    inputs = set(log.text.split("\n"))
    runs = []
    for f in FRACTIONS:
        budget = base + int(f * tokens)
        row: dict[str, Any] = {"f": f, "budget": budget}
        for method, stages in ORDERS.items():
            res = ctxpress.compress(
                request_after_read(log, read, log.text), budget=budget, stages=stages
            )
            got = tool_text(res.messages, "call_0").split("\n")
            row[method] = score(tool_text(res.messages), log, inputs) | {
                "read_kept": log.read_label in got,
                "within": res.tokens_after <= budget,
                "errors": [f"{s.name}: {s.error}" for s in res.stages if s.error],
            }
        runs.append(row)
    return {"kind": log.kind, "name": log.name, "tokens": tokens, "runs": runs}


def summarize(rows: list[dict[str, Any]], method: str, f: float) -> dict[str, Any]:
    got = [r[method] for row in rows for r in row["runs"] if r["f"] == f]
    return {
        "logs": len(got),
        "recall": round(statistics.mean(g["recall"] for g in got), 4),
        "within": round(statistics.mean(g["within"] for g in got), 4),
        "foreign": sum(g["foreign"] for g in got),
        "ms": round(statistics.mean(g["ms"] for g in got), 1),
        "errors": sum(len(g.get("errors", ())) for g in got),
    }


def tool_versions() -> dict[str, str]:
    """First line of each tool's version (what the logs were made with)."""
    out = {"python": sys.version.split()[0]}
    for tool, flag in (("cc", "--version"), ("make", "--version"), ("cargo", "--version")):
        if shutil.which(tool):
            out[tool] = run([tool, flag], Path.cwd()).split("\n")[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default=",".join(k for k, _ in GENERATORS))
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    counter = get_counter(None, ctxpress.Config())
    logs = corpus(args.kinds.split(","), counter.text)
    if not logs:
        raise SystemExit("no logs")
    rows = [run_log(log, counter.text) for log in logs]

    print(f"\n{len(logs)} logs; stages {', '.join(ctxpress.Config().stages)}")
    print(  # lab_tok: the labels' own tokens (recall 1 needs f x tokens above it)
        f"{'kind':10}{'name':22}{'tokens':>7}{'labels':>7}{'lab_tok':>8}"
        + "".join(f"{'ctx ' + str(f):>9}" for f in FRACTIONS)
    )
    for row in rows:
        cells = "".join(f"{r['ctxpress']['recall']:9.2f}" for r in row["runs"])
        sizes = f"{row['tokens']:7d}{row['n_labels']:7d}{row['label_tokens']:8d}"
        print(f"{row['kind']:10}{row['name']:22}{sizes}{cells}")

    summary = {m: {str(f): summarize(rows, m, f) for f in FRACTIONS} for m in METHODS}
    print(f"\n{'method':11}{'f':>5}{'recall':>8}{'within':>8}{'foreign':>8}{'ms':>8}{'err':>5}")
    for m in METHODS:
        for f, s in summary[m].items():
            print(
                f"{m:11}{float(f):5.2f}{s['recall']:8.3f}{s['within']:8.2f}"
                f"{s['foreign']:8d}{s['ms']:8.1f}{s['errors']:5d}"
            )

    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    per_kind: dict[str, dict[str, dict[str, float]]] = {}
    print(f"\n{'kind':10}{'logs':>5}{'f':>6}" + "".join(f"{m:>11}" for m in METHODS))
    for kind in kinds:
        mine = [r for r in rows if r["kind"] == kind]
        per_kind[kind] = {
            str(f): {m: summarize(mine, m, f)["recall"] for m in METHODS} for f in FRACTIONS
        }
        for f, rec in per_kind[kind].items():
            cells = "".join(f"{rec[m]:11.3f}" for m in METHODS)
            print(f"{kind:10}{len(mine):5d}{float(f):6.2f}{cells}")

    reads = [run_after_read(log, counter.text) for log in logs if log.read is not None]
    after_read: dict[str, dict[str, dict[str, float]]] = {}
    print(f"\nafter a read of the broken file ({len(reads)} logs): edited line kept / recall")
    print(f"{'order':11}{'f':>5}{'read':>8}{'recall':>8}{'within':>8}{'err':>5}")
    for m in ORDERS:
        after_read[m] = {}
        for f in FRACTIONS:
            got = [r[m] for row in reads for r in row["runs"] if r["f"] == f]
            cell = {
                "read_kept": round(statistics.mean(g["read_kept"] for g in got), 4),
                "recall": round(statistics.mean(g["recall"] for g in got), 4),
                "within": round(statistics.mean(g["within"] for g in got), 4),
                "errors": sum(len(g["errors"]) for g in got),
            }
            after_read[m][str(f)] = cell
            print(
                f"{m:11}{f:5.2f}{cell['read_kept']:8.3f}{cell['recall']:8.3f}"
                f"{cell['within']:8.2f}{cell['errors']:5d}"
            )

    report = {
        "fractions": FRACTIONS,
        "tokens_range": [MIN_TOKENS, MAX_TOKENS],
        "stages": list(ctxpress.Config().stages),
        "tools": tool_versions(),
        "summary": summary,
        "kinds": per_kind,
        "corpus": [
            {"kind": x.kind, "name": x.name, "command": x.command} | {"source": x.source}
            for x in logs
        ],
        "logs": rows,
        "after_read": {"summary": after_read, "orders": ORDERS, "logs": reads},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
