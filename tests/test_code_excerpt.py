"""A file read before a failing build keeps what the error points at, not lost whole: by
lines where it does not parse, cut around the failing statement where it does."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import ctxpress
from ctxpress.compressor.code.excerpt import error_rows, excerpt, reads_as_source
from ctxpress.compressor.code.languages import SPECS, clean_parse, parse

HELPER = {
    "c": "int helper{i}(int x)\n{\n    int y = x * {i};\n    for (int j = 0; j < y; j++)\n"
    "        y += j % 7;\n    return y;\n}\n\n",
    "python": "def helper{i}(a, b):\n    r = a * {i} + b\n    return r if r > 10 else -r\n\n\n",
}
# the function the agent broke: a `;` missing in C, a `)` in Python
BROKEN = {
    "c": "int parse_header(const char *buf, int len)\n{\n    int total = 0;\n"
    "    for (int i = 0; i < len; i++)\n        total += buf[i]\n    return total;\n}\n\n",
    "python": "def parse_header(buf):\n    total = 0\n    for b in buf:\n"
    "        total += int(b\n    return total\n\n\n",
}
BAD_LINE = {"c": "        total += buf[i]", "python": "        total += int(b"}
MARK = {
    "c": re.compile(r"^\s*// … (\d+) lines? omitted …$"),
    "python": re.compile(r"^\s*# … (\d+) lines? omitted …$"),
}


def _file(lang: str) -> str:
    fill = HELPER[lang]
    return (
        "".join(fill.replace("{i}", str(i)) for i in range(40))
        + BROKEN[lang]
        + "".join(fill.replace("{i}", str(i)) for i in range(40, 80))
    )


def _report(lang: str, path: str, code: str) -> str:
    row = code.split("\n").index(BAD_LINE[lang]) + 1
    if lang == "c":
        return (
            f"cc -c -o util.o {path}\n{path}: In function 'parse_header':\n"
            f"{path}:{row}:24: error: expected ';' before 'return'\n"
            f"  {row} |         total += buf[i]\n      |                        ^\n"
            "make: *** [Makefile:4: util.o] Error 1\n"
        )
    return (
        f'Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n'
        f'    import util\n  File "{path}", line {row}\n{BAD_LINE[lang]}\n'
        "                       ^\nSyntaxError: '(' was never closed\n"
    )


def _agent(code: str, path: str, report: str, **read: int) -> list[dict[str, Any]]:
    """The agent read the file (``read``: more arguments), then ran the build: the build's
    output is its current step."""
    args = {"name": "read_file", "arguments": json.dumps({"path": path, **read})}
    run = {"name": "bash", "arguments": json.dumps({"command": "make"})}
    return [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "The build fails. Fix it."},
        {"role": "assistant", "content": None, "tool_calls": [_call("c0", args)]},
        {"role": "tool", "tool_call_id": "c0", "content": code},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", run)]},
        {"role": "tool", "tool_call_id": "c1", "content": report},
    ]


def _sent_read(msgs: list[dict[str, Any]], share: float) -> tuple[ctxpress.CompressResult, str]:
    """The result with ``share`` of the read's tokens in the budget beside the rest, and
    the read as sent ("" if dropped)."""
    rest = ctxpress.count_tokens([*msgs[:3], {**msgs[3], "content": ""}, *msgs[4:]])
    budget = rest + int(share * (ctxpress.count_tokens(msgs) - rest))
    result = ctxpress.compress(msgs, budget=budget)
    assert not result.fail_open and result.tokens_after <= budget
    kept = [m["content"] for m in result.messages if m.get("tool_call_id") == "c0"]
    return result, kept[0] if kept else ""


def _call(i: str, function: dict[str, str]) -> dict[str, Any]:
    return {"id": i, "type": "function", "function": function}


@pytest.mark.parametrize(("lang", "path"), [("c", "src/util.c"), ("python", "pkg/util.py")])
@pytest.mark.parametrize("share", [0.15, 0.4])
def test_a_broken_file_read_before_the_failing_build_keeps_what_the_error_points_at(
    lang: str, path: str, share: float
) -> None:
    code = _file(lang)
    assert parse(lang, code.encode()).root_node.has_error  # (the file does not parse)
    msgs = _agent(code, path, _report(lang, path, code))
    result, out = _sent_read(msgs, share)
    assert out, "the read was dropped whole"
    # the broken function whole, the build's output whole
    assert BROKEN[lang].rstrip("\n") in out
    assert result.messages[-1] == msgs[-1]
    # every other line is the file's, in order, and each gap says how long it is
    rows, shown = code.split("\n"), out.split("\n")
    pos = 0
    for line in shown:
        m = MARK[lang].match(line)
        if m:
            pos += int(m.group(1))
        else:
            assert line == rows[pos], line
            pos += 1
    assert pos == len(rows)
    notes = [n for s in result.stages if s.name == "code" for n in s.notes]
    assert any("excerpt around line" in n for n in notes), notes


def test_a_file_the_parser_gives_up_on_after_the_break_is_still_excerpted() -> None:
    # a call left open as the last line of a function: tree-sitter wraps the rest of the
    # file in one ERROR node (half the rows), yet the functions it still finds before it
    # say this is source, not a log
    fill = [HELPER["python"].replace("{i}", str(i)) for i in range(40)]
    mid = "def mid(x):\n    return g(x, h(1)\n\n\n"
    code = "".join(fill[:20]) + mid + "".join(fill[20:])
    row = code.split("\n").index("    return g(x, h(1)") + 1
    report = f'  File "pkg/util.py", line {row}\n    return g(x, h(1)\nSyntaxError: never closed\n'
    result, out = _sent_read(_agent(code, "pkg/util.py", report), 0.2)
    assert mid.rstrip("\n") in out, out
    assert any("excerpt around line" in n for s in result.stages for n in s.notes)


def test_a_broken_file_is_left_whole_within_budget() -> None:
    code = _file("c")
    msgs = _agent(code, "src/util.c", _report("c", "src/util.c", code))
    result = ctxpress.compress(msgs, budget=ctxpress.count_tokens(msgs) + 10)
    assert result.messages[3]["content"] == code


def test_a_broken_file_the_user_pastes_is_left_whole() -> None:
    # the question's own code is what the user asks about: never excerpted
    code = _file("c")
    ask = f"Why does this not compile?\n```c\n{code}```\n"
    msgs = [{"role": "user", "content": ask}]
    result = ctxpress.compress(msgs, budget=ctxpress.count_tokens(msgs) // 3)
    assert result.messages[-1]["content"] == ask


def test_excerpt_keeps_rows_by_their_distance_from_the_anchors() -> None:
    code = "\r\n".join(f"int v{i} = {i};" for i in range(200)) + "\r\n"
    count = ctxpress.count_tokens
    tree = parse("c", code.replace("\r\n", "\n").encode())
    out = excerpt(code, "c", tree, [100], 60, lambda t: count([{"role": "user", "content": t}]))
    assert out is not None and out.endswith("\r\n")
    lines = out.split("\r\n")
    kept = [int(ln.split()[1][1:]) for ln in lines if ln.startswith("int v")]
    assert 100 in kept and kept == list(range(kept[0], kept[-1] + 1))  # one window
    assert abs((100 - kept[0]) - (kept[-1] - 100)) <= 1  # around the anchor
    assert lines[0] == f"// … {kept[0]} lines omitted …"
    assert excerpt(code, "c", tree, [100], 1, len) is None  # not even one row fits


def test_error_rows_are_where_the_parser_fails() -> None:
    code = _file("c")
    row = code.split("\n").index(BAD_LINE["c"])
    rows = error_rows(parse("c", code.encode()))
    assert rows and all(abs(r - row) <= 1 for r in rows), (rows, row)


def test_a_test_log_the_call_names_a_python_file_for_is_not_excerpted_as_source() -> None:
    # `pytest tests/test_util.py` names a .py file; its output is a log, not broken Python
    log = "".join(
        f"tests/test_util.py::test_case_{i} PASSED{' ' * 20}[{i:3d}%]\n" for i in range(300)
    ) + ("FAILED tests/test_util.py::test_case_7 - assert 1 == 2\n= 1 failed, 299 passed =\n")
    run = {"name": "bash", "arguments": json.dumps({"command": "pytest tests/test_util.py"})}
    msgs = [
        {"role": "user", "content": "Why does test_case_7 fail?"},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", run)]},
        {"role": "tool", "tool_call_id": "c1", "content": log},
    ]
    result = ctxpress.compress(msgs, budget=ctxpress.count_tokens(msgs) // 3, stages=["code"])
    assert result.messages[-1]["content"] == log
    notes = [n for s in result.stages for n in s.notes]
    assert not any("excerpt" in n for n in notes), notes


def test_a_numbered_read_from_an_offset_is_located_by_the_file_s_line_numbers() -> None:
    # `cat -n`-style listing from line 101: the compiler's line 425 is the listing's row 325
    rows = _file("c").split("\n")[:-1]
    listing = "\n".join(f"{k + 101:6d}\t{r}" for k, r in enumerate(rows)) + "\n"
    line = rows.index(BAD_LINE["c"]) + 101
    report = f"src/util.c:{line}:24: error: x\n"
    _, out = _sent_read(_agent(listing, "src/util.c", report, offset=100), 0.2)
    first = rows.index(BROKEN["c"].split("\n")[0])
    assert "\n".join(f"{k + 101:6d}\t{rows[k]}" for k in range(first, first + 7)) in out


def test_a_reported_function_too_long_for_the_read_s_share_is_cut_around_the_error() -> None:
    # the file parses; the function the error is in alone overruns what the read may keep
    steps = "".join(f"    acc = acc * {k} + mix(acc, {k});\n" for k in range(60))
    long_fn = (
        "int checksum(const char *buf, int len)\n{\n    int acc = 0;\n    int tail = len % 4;\n"
        + steps
        + "    acc = acc + undeclared_seed;\n    return acc + tail;\n}\n\n"
    )
    fill = "".join(HELPER["c"].replace("{i}", str(i)) for i in range(30))
    code = "int mix(int a, int b)\n{\n    return a ^ b;\n}\n\n" + fill + long_fn
    row = code.split("\n").index("    acc = acc + undeclared_seed;") + 1
    _, out = _sent_read(_agent(code, "src/sum.c", f"src/sum.c:{row}:17: error: x\n"), 0.1)
    assert out, "the read was dropped whole"
    assert parse("c", out.encode()).root_node.has_error is False, out
    assert "int checksum(const char *buf, int len)\n{\n" in out
    assert "    acc = acc + undeclared_seed;\n" in out
    assert out.count("acc = acc * ") < 10  # cut around the failing statement


def test_a_file_the_parser_wraps_whole_in_one_error_is_still_read_as_source() -> None:
    # `parser("125def",` lost its `)`: tree-sitter-rust makes the whole file one ERROR and
    # finds next to no function in it; the paragraphs around the mistake still parse alone
    code = "".join(
        f'#[test]\nfn case_{i}() {{\n    assert_eq!(\n        parser("12{i}def"),\n'
        f'        Ok(("def", {i}))\n    );\n}}\n\n'
        for i in range(40)
    ).replace('parser("125def"),', 'parser("125def",')
    assert parse("rust", code.encode()).root_node.is_error  # (the whole file)
    row = code.split("\n").index('        parser("125def",') + 1
    report = (
        "error: mismatched closing delimiter: `)`\n"
        f'  --> tests/parse.rs:{row}:15\n   |\n{row} |         parser("125def",\n'
        'error: could not compile `nom` (test "parse") due to 1 previous error\n'
    )
    _, out = _sent_read(_agent(code, "tests/parse.rs", report), 0.2)
    assert '        parser("125def",' in out
    rows = out.split("\n")
    assert any(MARK["c"].match(r) for r in rows)  # cut by lines, each kept one the file's
    assert all(r in code.split("\n") or MARK["c"].match(r) for r in rows)


def test_a_long_log_is_told_from_source_by_a_bounded_sample_of_its_paragraphs() -> None:
    # 3,000 paragraphs: a sample is parsed, not each one (a log would cost one parse per
    # blank line); the log is no source, the broken Rust file above still is
    log = "".join(
        f"test_case_{i} ... FAILED ({i} ms)\nE   assert {i} == 0\n\n" for i in range(3000)
    )
    calls: list[str] = []

    def parses(text: str) -> bool:
        calls.append(text)
        return clean_parse("python", text.encode()) is not None

    lines = log.split("\n")
    functions = SPECS["python"].functions
    assert not reads_as_source(parse("python", log.encode()), lines, functions, parses)
    assert 0 < len(calls) <= 64
    code = "".join(
        f'#[test]\nfn case_{i}() {{\n    assert_eq!(parser("12{i}def"), Ok(("def", {i})));\n}}\n\n'
        for i in range(3000)
    ).replace('parser("125def"),', 'parser("125def",')
    rust = code.split("\n")
    check = lambda text: clean_parse("rust", text.encode()) is not None  # noqa: E731
    assert reads_as_source(parse("rust", code.encode()), rust, SPECS["rust"].functions, check)
