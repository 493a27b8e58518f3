"""A failing test points at what it is named after, in a file the agent read before the run."""

from __future__ import annotations

import json
from typing import Any

import pytest

import ctxpress
from ctxpress.compressor.code.prose import failing_tests

FILTER = "def do_{name}(value, n={i}):\n    out = value * n\n    return out - {i}\n\n\n"
ROUND = (
    "def do_round(value, precision=0, method='common'):\n"
    "    if method == 'common':\n        return round(value, precision + 1)\n"
    "    func = getattr(math, method)\n    return func(value * 10**precision) / 10**precision\n\n\n"
)
NAMES = ["indent", "trim", "title", "upper", "lower", "center", "wordwrap", "wordcount"]
# four definitions a `test_scale` could be named after: too many to tell
SCALES = "".join(
    f"def {p}_scale(value):\n    factor = value.{p}_factor\n    return factor * 2\n\n\n"
    for p in ("to", "from", "get", "set")
)


def _module() -> str:
    fill = [FILTER.format(name=f"{n}{i}", i=i) for i in range(6) for n in NAMES]
    return "import math\n\n\n" + "".join(fill[:30]) + ROUND + SCALES + "".join(fill[30:])


def _log(test: str) -> str:
    """pytest -v: the assertion fails in the test; no frame points into the module."""
    passed = "".join(
        f"tests/test_filters.py::TestFilter::test_{n}{i} PASSED{' ' * 12}[{i:3d}%]\n"
        for i in range(4)
        for n in NAMES
    )
    return (
        passed
        + "=================================== FAILURES ===================================\n"
        f"__________________________ TestFilter.{test} __________________________\n\n"
        f"    def {test}(self, env):\n"
        '        tmpl = env.from_string("{{ 2.7|round }}")\n'
        '>       assert tmpl.render() == "3.0"\n'
        "E       AssertionError: assert '2.7' == '3.0'\n\n"
        "tests/test_filters.py:456: AssertionError\n"
        f"FAILED tests/test_filters.py::TestFilter::{test} - AssertionError\n"
        "========================= 1 failed, 32 passed in 0.31s =========================\n"
    )


def _agent(code: str, log: str) -> list[dict[str, Any]]:
    read = {"name": "read_file", "arguments": json.dumps({"path": "src/filters.py"})}
    run = {"name": "bash", "arguments": json.dumps({"command": "pytest -v tests/test_filters.py"})}
    return [
        {"role": "user", "content": "The round filter is broken. Fix it."},
        {"role": "assistant", "content": None, "tool_calls": [_call("c0", read)]},
        {"role": "tool", "tool_call_id": "c0", "content": code},
        {"role": "assistant", "content": None, "tool_calls": [_call("c1", run)]},
        {"role": "tool", "tool_call_id": "c1", "content": log},
    ]


def _call(i: str, function: dict[str, str]) -> dict[str, Any]:
    return {"id": i, "type": "function", "function": function}


def _sent_read(test: str) -> str:
    """The read as sent, with a fifth of its tokens in the budget beside the rest."""
    msgs = _agent(_module(), _log(test))
    without = ctxpress.count_tokens([*msgs[:2], {**msgs[2], "content": ""}, *msgs[3:]])
    budget = without + (ctxpress.count_tokens(msgs) - without) // 5
    result = ctxpress.compress(msgs, budget=budget)
    assert not result.fail_open and result.tokens_after <= budget
    return str(next(m for m in result.messages if m.get("tool_call_id") == "c0")["content"])


@pytest.mark.parametrize("test", ["test_round_positive", "test_round"])
def test_the_read_keeps_what_the_failing_test_is_named_after(test: str) -> None:
    read = _sent_read(test)
    assert ROUND.rstrip("\n") in read  # whole, its body too
    assert "    out = value * n\n    return out - 3\n" not in read  # the others are a map


def test_a_test_named_after_many_definitions_points_at_none() -> None:
    # `test_scale` fits `to_scale`, `from_scale`, `get_scale`, `set_scale`: no hint
    read = _sent_read("test_scale")
    assert "    return factor * 2" not in read


def test_failing_tests_as_each_runner_reports_them() -> None:
    report = (
        "tests/test_x.py::test_abs PASSED\n"
        "FAILED tests/test_x.py::TestX::test_parse_header - AssertionError\n"
        "FAILED tests/test_x.py::test_split[a-b] - assert 1 == 2\n"
        "______________________ TestX.test_parse_header ______________________\n"
        "FAIL: test_median_low (test.test_statistics.TestMedian.test_median_low)\n"
        "ERROR: testStringification (test.test_fractions.FractionTest)\n"
        "--- FAIL: TestReadConfig (0.00s)\n"
        "test parser::tests::test_tokens ... FAILED\n"
        "test parser::tests::test_ok ... ok\n"
    )
    assert failing_tests(report) == [
        "test_parse_header",
        "test_split",
        "test_median_low",
        "testStringification",
        "TestReadConfig",
        "test_tokens",
    ]
