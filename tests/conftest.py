"""Shared fixtures: paths to the repository's examples and the team's shared data."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def long_chat() -> dict[str, Any]:
    """The bundled example request the README's main command compresses."""
    data: dict[str, Any] = json.loads((ROOT / "examples" / "long_chat.json").read_text("utf-8"))
    return data


def shared_path(*parts: str) -> Path:
    """A file under ../shared, or skip the test with the reason."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (the team's shared data), which is absent here")
    return path


def run_example(script: str, *args: str) -> tuple[str, int, int]:
    """Run ``examples/<script>`` as a user would; its output and tokens before/after."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    match = re.search(r"tokens before: (\d+)\s+after: (\d+)", out)
    assert match, out
    return out, int(match[1]), int(match[2])
