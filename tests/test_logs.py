"""Logs stage: an agent's tool result too long for the budget keeps the lines that explain it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ctxpress

MARKER = re.compile(r"\[… (\d+) lines? omitted …\]")


def agent(log: str, question: str = "The tests fail. Find out why and fix it.") -> list[Any]:
    """An agent's request ending with its current step: a command and its output."""
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "bash", "arguments": json.dumps({"command": "make check"})},
    }
    return [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": question},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": log},
    ]


def squeeze(log: str, share: float, **kw: Any) -> tuple[str, ctxpress.CompressResult, int]:
    """The tool output sent at ``share`` of the log's tokens, the result, and the budget."""
    base = ctxpress.count_tokens(agent("", **kw))
    budget = base + int(share * (ctxpress.count_tokens(agent(log, **kw)) - base))
    result = ctxpress.compress(agent(log, **kw), budget=budget)
    return result.messages[-1]["content"], result, budget


def check_lines(log: str, out: str) -> None:
    """Kept lines are the log's own, in order; each marker counts the lines it stands for."""
    src = log.split("\n")
    at = 0
    for line in out.split("\n"):
        m = MARKER.fullmatch(line)
        if m:
            at += int(m.group(1))
        else:
            assert src[at] == line, f"line {at} changed or out of order"
            at += 1
    assert at == len(src), "every line is either kept or counted by a marker"


@pytest.fixture(scope="module")
def pytest_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A real `pytest -v` run: 400 passing cases and one failure."""
    root = tmp_path_factory.mktemp("run")
    (root / "test_totals.py").write_text(
        "import pytest\n\n\n"
        "@pytest.mark.parametrize('n', range(400))\n"
        "def test_sizes(n):\n    assert n * 2 >= n\n\n\n"
        "def test_invoice_total():\n"
        "    lines = [('widget', 3, 250), ('bolt', 12, 15)]\n"
        "    total = sum(q * p for _, q, p in lines)\n"
        "    assert total == 940, f'total {total} != 940'\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "test_totals.py"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    return run.stdout


@pytest.mark.parametrize("share", [0.05, 0.15, 0.4])
def test_a_failing_run_keeps_the_failure_and_the_summary_within_budget(
    pytest_log: str, share: float
) -> None:
    out, result, budget = squeeze(pytest_log, share)
    assert result.tokens_after <= budget and not result.over_budget
    lines = out.split("\n")
    assert "E       AssertionError: total 930 != 940" in lines
    assert any(line.startswith("FAILED test_totals.py::test_invoice_total") for line in lines)
    last = out.rstrip("\n").split("\n")[-1]
    assert last.startswith("=") and "1 failed, 400 passed" in last
    check_lines(pytest_log, out)
    logs = next(s for s in result.stages if s.name == "logs")
    assert logs.notes and logs.notes[0].startswith("m3: tool output")


def test_repeated_progress_lines_give_way_to_distinct_ones(pytest_log: str) -> None:
    out, _, _ = squeeze(pytest_log, 0.15)
    passed = [line for line in out.split("\n") if " PASSED " in line]
    assert len(passed) < 400 * 0.15, "most passing cases are elided"
    # the failing test's own lines come whole: the code it ran and where
    for line in ("    def test_invoice_total():", "test_totals.py:12: AssertionError"):
        assert line in out.split("\n")


def test_a_compiler_error_keeps_its_source_excerpt() -> None:
    warn = "src/util{0}.c:{0}:5: warning: unused variable 'tmp{0}' [-Wunused-variable]"
    log = "\n".join(
        [*(f"gcc -Wall -c src/util{i}.c -o build/util{i}.o" for i in range(120))]
        + [warn.format(i) for i in range(40)]
        + [
            "src/parse.c: In function 'parse_header':",
            "src/parse.c:88:23: error: 'hdr' undeclared (first use in this function)",
            "   88 |     size_t len = strlen(hdr);",
            "      |                         ^~~",
            "make: *** [Makefile:14: build/parse.o] Error 1",
        ]
    )
    out, result, _ = squeeze(log, 0.15, question="The build breaks, fix it.")
    lines = out.split("\n")
    for line in log.split("\n")[-5:]:
        assert line in lines
    assert not result.over_budget
    check_lines(log, out)


def test_a_line_the_request_names_is_kept_though_it_reports_no_failure() -> None:
    log = "\n".join(
        f"{i:05d} worker-{i % 7} processed batch {i} in {i * 7 % 300} ms" for i in range(800)
    )
    log = log.replace("00412 worker-6 processed", "00412 worker-6 (shard kestrel) processed")
    out, _, _ = squeeze(log, 0.1, question="Why is the kestrel shard slow?")
    assert "00412 worker-6 (shard kestrel) processed batch 412 in 184 ms" in out.split("\n")
    check_lines(log, out)


def test_code_and_json_results_are_not_cut_line_by_line() -> None:
    source = (Path(ctxpress.__file__).parent / "compressor" / "logs.py").read_text()
    data = json.dumps([{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(600)])
    for text in (source, data):
        out, result, _ = squeeze(text, 0.1)
        assert not MARKER.search(out)
        assert not any(s.notes for s in result.stages if s.name == "logs")


def test_a_request_within_budget_is_left_alone(pytest_log: str) -> None:
    messages = agent(pytest_log)
    result = ctxpress.compress(messages, budget=ctxpress.count_tokens(messages) + 10)
    assert all(a is b for a, b in zip(result.messages, messages, strict=True))


def test_windows_line_endings_stay_on_every_line_markers_included() -> None:
    log = "\r\n".join(f"step {i}: copied shard-{i}.bin ({i * 13 % 97} MB)" for i in range(600))
    log = log.replace("step 300: copied", "step 300: FAILED to copy")
    out, result, _ = squeeze(log, 0.1, question="Why did the copy stop?")
    assert not result.over_budget
    assert "step 300: FAILED to copy shard-300.bin (20 MB)\r" in out.split("\n")
    assert all(line.endswith("\r") for line in out.split("\n")[:-1])
    check_lines(log, out.replace(" …]\r", " …]"))


def build_log() -> str:
    lines = [f"[{i:4d}/900] CC src/module_{i}.o" for i in range(900)]
    lines[610] = "src/module_610.c:41:9: error: implicit declaration of function 'crc32_fold'"
    return "\n".join(lines)


@pytest.mark.parametrize("indent", ["", "   "], ids=["fence", "fence-in-list-item"])
def test_a_log_pasted_in_a_fence_is_shortened_inside_it_and_the_prose_kept(indent: str) -> None:
    log = build_log()
    fenced = "".join(f"{indent}{line}\n" for line in ["```text", *log.split("\n"), "```"])
    head = "My build stops, what is wrong?\n\n" + ("1. The log:\n\n" if indent else "")
    message = {"role": "user", "content": head + fenced + "\nIt worked yesterday."}
    budget = ctxpress.count_tokens([message]) // 8
    result = ctxpress.compress([message], budget=budget)
    out = result.messages[0]["content"]
    assert result.tokens_after <= budget
    assert out.startswith(head + indent + "```text\n")
    assert out.endswith(indent + "```\n\nIt worked yesterday.")
    body = out[len(head + indent + "```text\n") : -len(indent + "```\n\nIt worked yesterday.")]
    lines = body.rstrip("\n").split("\n")
    assert f"{indent}{log.split(chr(10))[610]}" in lines
    assert all(line.startswith(indent) for line in lines), "markers stay inside the list item"
    check_lines(log, "\n".join(line[len(indent) :] for line in lines))


def test_a_tool_result_in_text_parts_is_shortened_part_by_part() -> None:
    messages = agent("")
    messages[-1]["content"] = [
        {"type": "text", "text": "exit status 2"},
        {"type": "text", "text": build_log()},
    ]
    base = ctxpress.count_tokens(agent(""))
    result = ctxpress.compress(messages, budget=base + 300)
    parts = result.messages[-1]["content"]
    assert parts[0] == {"type": "text", "text": "exit status 2"}
    assert "error: implicit declaration of function 'crc32_fold'" in parts[1]["text"]
    assert not result.over_budget
    check_lines(build_log(), parts[1]["text"])


def test_code_the_code_stage_trimmed_is_not_taken_for_a_log() -> None:
    # trimmed, this C loses the `#include` that tells its language; over budget still (the
    # focal function alone does not fit), it must stay code and nothing may fail open
    helpers = "".join(
        f"Item *helper{i}(Ctx *c)\n{{\n    Item *it = c->items[{i}];\n    return it;\n}}\n\n"
        for i in range(30)
    )
    body = "".join(f"    total->sum += ctx->items[n + {i}]->size;\n" for i in range(30))
    code = f"#include <stdio.h>\n\n{helpers}Total *tally(Ctx *ctx, size_t n)\n{{\n"
    code += f"    Total *total = new_total();\n{body}    return total;\n}}\n"
    message = {"role": "user", "content": f"Here is my code:\n```\n{code}```\nWhy is `tally` off?"}
    result = ctxpress.compress([message], budget=120)
    assert not result.fail_open
    assert not MARKER.search(result.messages[0]["content"])
    assert "Total *tally(Ctx *ctx, size_t n)" in result.messages[0]["content"]


def test_room_is_left_for_the_earlier_read_of_the_file_the_run_fails_in(pytest_log: str) -> None:
    source = (
        "import pytest\n\n\n"
        + "".join(
            f"def helper_{i}(rows):\n    return [r * {i} for r in rows]\n\n\n" for i in range(12)
        )
        + "def test_invoice_total():\n"
        "    lines = [('widget', 3, 250), ('bolt', 12, 15)]\n"
        "    total = sum(q * p for _, q, p in lines)\n"
        "    assert total == 940, f'total {total} != 940'\n"
    )
    read = {"id": "r1", "type": "function", "function": {"name": "read", "arguments": "{}"}}
    earlier = [
        {"role": "assistant", "content": None, "tool_calls": [read]},
        {"role": "tool", "tool_call_id": "r1", "content": source},
    ]
    messages = agent(pytest_log)
    messages[2:2] = earlier  # the read, then the run that is the current step
    budget = ctxpress.count_tokens(messages[:4]) + 500
    result = ctxpress.compress(messages, budget=budget)
    assert result.tokens_after <= budget
    kept = [m for m in result.messages if m.get("tool_call_id") == "r1"]
    assert kept and "    assert total == 940, f'total {total} != 940'" in kept[0]["content"]
    run = result.messages[-1]["content"].split("\n")
    assert "E       AssertionError: total 930 != 940" in run
    check_lines(pytest_log, result.messages[-1]["content"])


def test_a_pasted_trace_is_read_whole_by_the_code_stage_before_any_cut() -> None:
    # the frame that points into the pasted code is what makes `parse_row` focal (the prose
    # names nothing): the trace is cut, if at all, only after the code stage has read it
    helpers = "".join(f"def helper_{i}(x):\n    return x * {i} + 1\n\n\n" for i in range(40))
    code = helpers + "def parse_row(row):\n    key, value = row.split('=')\n    return key, value\n"
    row = code.split("\n").index("    key, value = row.split('=')") + 1
    frames = "".join(
        f'  File "/usr/lib/python3.11/site-packages/etl/stage{i}.py", line {10 + i}, in run\n'
        f"    out = step{i}(rows)\n"
        for i in range(12)
    )
    half = len(frames.split("\n")) // 2 // 2 * 2
    trace = (  # the pasted code's frame amid the library's, far from the error line
        "Traceback (most recent call last):\n"
        + "\n".join(frames.split("\n")[:half])
        + f'\n  File "app.py", line {row}, in parse_row\n'
        + "    key, value = row.split('=')\n"
        + "\n".join(frames.split("\n")[half:])
        + "ValueError: too many values to unpack (expected 2)\n"
    )
    text = f"Here is `app.py`:\n```python\n{code}```\nRunning it I get:\n```\n{trace}```\nWhy?"
    message = {"role": "user", "content": text}
    result = ctxpress.compress([message], budget=ctxpress.count_tokens([message]) // 3)
    out = result.messages[0]["content"]
    assert "    key, value = row.split('=')\n    return key, value\n" in out
    assert "ValueError: too many values to unpack (expected 2)" in out
    assert not result.over_budget
