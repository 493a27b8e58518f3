"""The ``ctxpress`` command as users run it: a real subprocess, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ctxpress
from ctxpress.messages import validate_messages

ROOT = Path(__file__).resolve().parent.parent


def ctxpress_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ctxpress.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd="/",  # works from any directory: no paths relative to the checkout
        timeout=120,
    )


def test_version() -> None:
    out = ctxpress_cli("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"ctxpress {ctxpress.__version__}"


def test_compress_json_on_the_bundled_example(long_chat: dict[str, Any]) -> None:
    budget = 1200
    out = ctxpress_cli(
        "compress", str(ROOT / "examples" / "long_chat.json"), "--json", "--budget", str(budget)
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    validate_messages(report["messages"])
    assert report["tokens_before"] == ctxpress.count_tokens(long_chat["messages"], model="gpt-4o")
    assert report["tokens_after"] == ctxpress.count_tokens(report["messages"], model="gpt-4o")
    assert [s["name"] for s in report["stages"]] == list(ctxpress.Config().stages)
    assert report["budget"] == budget
    assert report["over_budget"] == (report["tokens_after"] > budget)
    assert report["messages"][-1] == long_chat["messages"][-1]


def test_compress_table_shows_every_stage(long_chat: dict[str, Any]) -> None:
    out = ctxpress_cli("compress", "-", stdin=json.dumps(long_chat["messages"]))
    assert out.returncode == 0, out.stderr
    for stage in ctxpress.Config().stages:
        assert stage in out.stdout
    assert "total" in out.stdout


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"messages": []}', "messages: must be a non-empty list"),
        ('[{"role": "user", "content": 1}]', "messages[0].content"),
        ('"just a string"', "messages: must be a non-empty list"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, payload: str, message: str) -> None:
    path = tmp_path / "req.json"
    path.write_text(payload)
    out = ctxpress_cli("compress", str(path))
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


def test_unreadable_file(tmp_path: Path) -> None:
    out = ctxpress_cli("compress", str(tmp_path / "missing.json"))
    assert out.returncode == 2
    assert out.stderr.startswith("ctxpress: error: cannot read")
