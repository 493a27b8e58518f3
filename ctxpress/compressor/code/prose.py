"""What the prose around the code says: focal names and file:line references.

``extract_focus`` reads the non-code text of a conversation for the symbols it names
(backticks, calls, code-shaped words, stack frames), the words it uses, and the
file:line references of tracebacks, compiler errors and stack traces; ``ref_rows`` maps
those references onto a block's rows.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import replace

from ctxpress.compressor.code.outline import IDENT, OPERATOR, Focus, operator_name

_EXTS = r"py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|go|java|rs|c|h|cc|cpp|cxx|hpp|hh|hxx"
# (matched from the start of a run of path characters only: the same matches, and linear
# in a long run where a match at every start would backtrack over the rest of it)
_PATH_START = r"(?<![\w./\\-])"
FILE_NAME = re.compile(rf"{_PATH_START}([\w./\\-]*[\w-]+\.(?:{_EXTS}))\b")
# file:line as tracebacks, compilers and linters write it: `x.py", line 12`, `x.go:12`,
# `x.rs:12:5`, tsc and MSVC `x.ts(12,5)` / `x.cpp(12)`, a dev server's `x.tsx?t=17:12:5`
_FILE_LINE = re.compile(
    rf"{_PATH_START}([\w./\\-]*[\w-]+\.(?:{_EXTS}))(?:\?[^\s:()\"']*)?"
    r"(?:\"?, line |:|\((?=\d+(?:,\s*\d+)?\)))(\d+)"
)
# a line of the pasted code named without a file: "what's wrong on line 12?", "lines 4-9"
_BARE_LINE = re.compile(r"(?<!\", )\b[Ll]ines? (\d{1,6})(?:\s*(?:-|–|to)\s*(\d{1,6}))?\b")
# the source line rustc and gcc show under a file:line: `12 |     code`
_NUMBERED = re.compile(r"[ \t]*(\d+) \|(.*)")
_GUTTER = re.compile(r"(?m)^[ \t]*\d+[ \t]+\|.*$")
# tsc's error line (`src/a.ts:12:5 - error TS2345: …`), which prints the line `12 …` below
_TSC_ERROR = re.compile(r"[ \t]*\S+?:\d+:\d+ - (?:error|warning) TS\d+:")
# how test runners report a passed test: jest, vitest and mocha `✓` (`√` on Windows), TAP
_PASSED_LINE = re.compile(r"(?m)^[ \t]*(?:[✓✔√]|ok \d+\b).*$")
_TAP_RESULT = re.compile(r"(?m)^[ \t]*(?:not )?ok \d")  # (a run's output, not a heading)
_TAP_HEAD = re.compile(r"[ \t]*# \S")
_TAP_FAILED = re.compile(r"[ \t]*not ok\b")
_PY_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ([A-Za-z_]\w*)')
# `at pkg.Class.method(`, `at Class.method (`, `at name (`: the frame's method and owner
_AT_FRAME = re.compile(r"\bat (?:new |async )?((?:[\w$]+\.)*)([A-Za-z_$][\w$]*) ?\(")
# a Go stack frame: `github.com/x/dns.(*Msg).Pack(0xc0…)` over `\t/path/msg.go:42 +0x3c`
_GO_FRAME = re.compile(
    r"(?m)^[ \t]*(?:[\w.~-]+/)*([\w.-]+?)\.(?:\(\*?(\w+)\)\.)?(\w+)\([^\n]*\)\n"
    r"\t+([^\s:]+\.go):(\d+)"
)
_GO_CLOSURE = re.compile(r"func\d+")
# a Rust backtrace frame: `   1: quick_check::is_nfkd` over `at ./src/quick_check.rs:139:5`
_RUST_FRAME = re.compile(
    r"(?m)^[ \t]*\d+: +((?:[A-Za-z_]\w*::)*)([A-Za-z_]\w*)(?:::\{\{closure\}\})?[ \t]*"
    r"(?:\n[ \t]+at ([^\s:]+):(\d+))?"
)
# the file such a frame is in: `at f (/app/x.js:3:9)`, `at a.B.f(B.java:12)`
_AT_FILE = re.compile(r"([^():\s]+\.\w+):(\d+)")
_BACKTICK = re.compile(r"`([^`\n]{1,200})`")
_QUALIFIED = re.compile(r"([^\W\d]\w*)(?:\.|::|#)([^\W\d]\w*)")
_CALL = re.compile(r"\b([^\W\d]\w*)\(")
_CODE_SHAPED = re.compile(r"\b(\w*_\w*|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)\b")
_WORD = re.compile(r"[A-Za-z_]\w{2,}")
_PRIVATE = re.compile(r"#[A-Za-z_$][\w$]*")
# what a quoted snippet defines (`def f`, `function f`, `class C`, `fn f`, `type T` …)
_DEFINES = re.compile(
    r"\b(?:def|function|class|fn|func|struct|interface|type)\s+([A-Za-z_$][\w$]*)"
)
_PROPER = re.compile(r"(?<=[a-z,] )[A-Z][a-z]+[a-z0-9]*\b")
# a C++ destructor, `~Box` or `Box::~Box`: named apart from its class and constructors
_DESTRUCTOR = re.compile(r"(?:([^\W\d]\w*)::)?~([^\W\d]\w*)")


def extract_focus(prose: str) -> tuple[Focus, list[tuple[str, int, str | None]]]:
    """Focal hints in the non-code text: strong names, weak words, qualified names, and
    file:line references as (path, line, the source line the report shows or None)."""
    strong: set[str] = set()
    qualified: set[tuple[str, str]] = set()
    refs: list[tuple[str, int, str | None]] = []
    kinds: list[str] = []
    lines = prose.split("\n")
    starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    shown_rows: set[int] = set()
    for m in _FILE_LINE.finditer(prose):
        shown = _shown(lines, bisect.bisect_right(starts, m.start()) - 1, m)
        if shown is not None:
            shown_rows.add(shown[0])
        refs.append((m.group(1).replace("\\", "/"), int(m.group(2)), shown and shown[1]))
        kinds.append(_severity(prose, m))
    # a build that fails reports its errors among its warnings: those locate the question
    if "warning" in kinds and "" in kinds:
        refs = [r for r, k in zip(refs, kinds, strict=True) if k != "warning"]
    # a line named without a file is one of the pasted code's (its path left empty)
    for m in _BARE_LINE.finditer(_FILE_LINE.sub(" ", prose)):
        first = int(m.group(1))
        last = min(int(m.group(2) or first), first + 200)
        refs.extend(("", line, None) for line in range(first, last + 1))
    # a stack frame's package path (`at com.acme.Parser.parse(`) names no symbols; its
    # function, and the file it is in where that follows (`x.js:3:9`, `Parser.java:12`)
    framed_names: set[str] = set()
    framed_qualified: set[tuple[str, str]] = set()
    lined: set[tuple[str, int, str]] = set()  # (file, line, name): every frame with a file
    for m in _AT_FRAME.finditer(prose):
        path, name = m.groups()
        framed_names.add(name)
        if path:
            framed_qualified.add((path[:-1].rsplit(".", 1)[-1].rsplit("$", 1)[-1], name))
        at = _AT_FILE.match(prose, m.end())
        if at is not None:
            lined.add((at.group(1).replace("\\", "/"), int(at.group(2)), name))
    for path, line, name in _PY_FRAME.findall(prose):
        framed_names.add(name)
        lined.add((path.replace("\\", "/"), int(line), name))
    for package, receiver, name, path, line in _GO_FRAME.findall(prose):
        while _GO_CLOSURE.fullmatch(name) and "." in package:  # `main.main.func1`: in main
            package, name = package.rsplit(".", 1)
        framed_names.add(name)
        framed_qualified.add((receiver or package.rsplit(".", 1)[-1], name))
        lined.add((path, int(line), name))
    for path, name, file, line in _RUST_FRAME.findall(prose):
        if not (path or file):
            continue  # (`1: parse`: a numbered list's line, not a frame)
        framed_names.add(name)
        if path:  # (`quick_check::is_nfkd`: a module's path, or a type's)
            framed_qualified.add((path[:-2].rsplit("::", 1)[-1], name))
        if file:
            lined.add((file.replace("\\", "/"), int(line), name))
    # a test a run lists as passed is not what is asked about: its title names nothing
    # (its lines are blanked, not removed: the rows of `prose` stay those of `kept`)
    kept = unpassed(prose)
    # a source line a compiler quotes (`12 |     total = weigh(v);`) or a traceback prints
    # under its frame says where, not what is asked about: its every call would be kept
    # whole (the line locates its function; what it calls ranks as that function's callee)
    scan = _GUTTER.sub(
        " ", "\n".join("" if i in shown_rows else t for i, t in enumerate(kept.split("\n")))
    )
    # a file name's words (`pkg/setutils.py`) name the file, not symbols in it
    scan = _RUST_FRAME.sub(lambda m: " " if m[1] or m[3] else m[0], scan)
    scan = _AT_FRAME.sub(" ", FILE_NAME.sub(" ", _GO_FRAME.sub(" ", scan)))
    for owner, name in _DESTRUCTOR.findall(scan):
        strong.add("~" + name)
        qualified.add((owner or name, "~" + name))
    scan = _DESTRUCTOR.sub(" ", scan)
    for span in _BACKTICK.findall(scan):
        strong.update(IDENT.findall(span))
        strong.update(_PRIVATE.findall(span))  # JS `#count`, a name of its own
        qualified.update(_QUALIFIED.findall(span))
    strong.update(_CALL.findall(scan))
    strong.update(_CODE_SHAPED.findall(scan))
    strong.update(operator_name(m) for m in OPERATOR.findall(scan))
    qualified.update(_QUALIFIED.findall(scan))
    for _, b in qualified:
        strong.add(b)
    # a capitalised word inside a sentence is a name (`what Transitioner does`)
    strong.update(_PROPER.findall(scan))
    # (the frames a name is said in alone: a frame of another file names nothing here)
    frames = frozenset((path, name) for path, _, name in lined if name not in strong)
    strong |= framed_names
    qualified |= framed_qualified
    weak = set(_WORD.findall(scan)) - strong
    focus = Focus(frozenset(strong), frozenset(weak), frozenset(qualified), prose=kept)
    return replace(focus, frames=frames, frame_lines=frozenset(lined)), refs


# a failing test as its runner names it: pytest's `FAILED a.py::Cls::test_x` and its
# `___ Cls.test_x ___` heading, unittest's `FAIL: test_x (mod.Cls.test_x)`, Go's
# `--- FAIL: TestX`, cargo's `test mod::test_x ... FAILED`
_FAILED_TEST = re.compile(
    r"(?m)^(?:FAILED \S*::|_{3,} (?:\w+\.)?|(?:FAIL|ERROR): |\s*--- FAIL: |test (?:\w+::)*)"
    r"([Tt]est\w*)(?:[\[\s]|\Z)(?:.*\bFAILED\b|(?!.*\.\.\. ok))"
)


def failing_tests(prose: str) -> list[str]:
    """Names of the tests a run reports as failing (the test functions, not their files)."""
    return list(dict.fromkeys(_FAILED_TEST.findall(prose)))


def unpassed(text: str) -> str:
    """``text`` without the tests a run reports as passed: `✓ title` lines, TAP `ok 3 -
    title` lines, and TAP (tape) `# title` heads that no `not ok` follows before the
    next head."""
    tap = _TAP_RESULT.search(text) is not None
    text = _PASSED_LINE.sub(" ", text)
    if not tap:
        return text
    lines = text.split("\n")
    heads = [k for k, line in enumerate(lines) if _TAP_HEAD.match(line)] + [len(lines)]
    for a, b in itertools.pairwise(heads):
        if not any(_TAP_FAILED.match(line) for line in lines[a + 1 : b]):
            lines[a] = " "
    return "\n".join(lines)


def with_quoted(focus: Focus, code: str) -> Focus:
    """``focus`` with code quoted beside the question (by an assistant, in the system
    prompt, in a document or a diff): what it defines is named, its other words are
    context. Read as prose, its every call would name a definition to keep whole, so one
    quoted line could force its callees past the budget."""
    named = set(_DEFINES.findall(code))
    words = set(_WORD.findall(code)) - focus.strong - named
    return replace(focus, strong=focus.strong | named, weak=focus.weak | words)


# what follows a compiler's file:line:col on a warning's or a note's line (gcc, clang,
# tsc, MSVC), or what a rustc `  --> file:line:col` line follows
_SEVERITY_AFTER = re.compile(r"(?:[:,] ?\d+)?\)?:? *(warning|note)\b", re.IGNORECASE)
_SEVERITY_HEAD = re.compile(r"^(warning|note)\b")


def _severity(prose: str, m: re.Match[str]) -> str:
    """ "warning" or "note" where the file:line ``m`` matched is where a compiler warns or
    notes something; "" for an error, a stack frame, a file:line in a sentence."""
    after = _SEVERITY_AFTER.match(prose, m.end())
    if after:
        return after.group(1).lower()
    start = prose.rfind("\n", 0, m.start()) + 1
    if prose[start : m.start()].strip() != "-->":
        return ""
    head = _SEVERITY_HEAD.match(prose[: max(0, start - 1)].rsplit("\n", 1)[-1])
    return head.group(1) if head else ""


def _shown(lines: list[str], row: int, m: re.Match[str]) -> tuple[int, str] | None:
    """The row and the stripped text of the source line a report prints under the
    file:line ``m`` matched on ``row``: a Python traceback's indented next line, tsc's
    `12   code` or rustc's and gcc's `12 |   code` within the next lines."""
    after = range(row + 1, min(row + 3, len(lines)))
    if '", line ' in m.group(0):  # a Python traceback frame: the line, indented
        shown = lines[row + 1].strip() if after and lines[row + 1][:1] in " \t" else ""
        return (row + 1, shown) if shown else None
    number = m.group(2)
    tsc = _TSC_ERROR.match(lines[row]) is not None
    for r in range(row + 1, min(row + 4, len(lines))) if tsc else after:
        if tsc and lines[r].startswith(number + " "):
            shown = lines[r][len(number) :].strip()
            return (r, shown) if shown else None
        n = _NUMBERED.fullmatch(lines[r])
        if n and n.group(1) == number:
            return (r, n.group(2).strip()) if n.group(2).strip() else None
    return None


def _parts(path: str) -> list[str]:
    return [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]


def shared_tail(a: str, b: str) -> int:
    """How many trailing path parts two spellings of a path share: 0 for other files,
    2 for ``rich/bar.py`` and ``/usr/lib/python3/dist-packages/rich/bar.py``."""
    x, y = _parts(a), _parts(b)
    n = 0
    while n < min(len(x), len(y)) and x[-1 - n] == y[-1 - n]:
        n += 1
    return n


def ref_rows(
    lines: list[str], refs: list[tuple[str, int, str | None]], trusted: bool
) -> frozenset[int]:
    """0-based rows of ``lines`` the references point at. Where a report shows the source
    line and the row holds other text, the one row holding that text (a pasted excerpt
    numbers its lines differently); otherwise the row as given if the file is ``trusted``
    (named by the block), else nothing."""
    out = set()
    for _, line, shown in refs:
        row = line - 1
        fits = 0 <= row < len(lines)
        if shown is not None and not (fits and lines[row].strip() == shown):
            hits = [r for r, text in enumerate(lines) if text.strip() == shown]
            if len(hits) == 1:
                out.add(hits[0])
                continue
            fits = fits and trusted
        if fits:
            out.add(row)
    return frozenset(out)
