"""Compress before vLLM offline inference: ``wrap(vllm.LLM(...)).chat(messages)``.

Run it with the Python that has vLLM (and ctxpress) installed, e.g. the e2e venv with
the tiny model that ``make e2e-model`` builds:

    .venv-vllm/bin/python examples/vllm_offline.py --model ~/.cache/ctxpress/e2e-model

Prints ctxpress's token counts before and after, and the prompt length vLLM saw.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_MODEL = Path.home() / ".cache" / "ctxpress" / "e2e-model"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="a local model folder")
    parser.add_argument("--budget", type=int, default=900, help="max prompt tokens")
    parser.add_argument("--max-tokens", type=int, default=8)
    args = parser.parse_args()

    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    os.environ.setdefault("VLLM_NO_USAGE_STATS", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from vllm import LLM, SamplingParams

    from ctxpress.integrations.vllm import wrap

    # The tiny model's chat template renders content only, so tool-call turns are left out.
    chat = json.loads((HERE / "long_chat.json").read_text("utf-8"))["messages"]
    messages = [m for m in chat if m["role"] != "tool" and not m.get("tool_calls")]

    engine = LLM(
        model=str(args.model.expanduser()),
        dtype="float32",
        enforce_eager=True,
        max_model_len=8192,
        seed=0,
    )
    llm = wrap(engine, budget=args.budget)
    params = SamplingParams(max_tokens=args.max_tokens, temperature=0.0)
    outputs = llm.chat(messages, params, use_tqdm=False)
    report = llm.ctxpress_last  # type: ignore[attr-defined]
    assert report is not None
    print(f"tokens before: {report.tokens_before}  after: {report.tokens_after}")
    print(f"messages sent: {len(report.messages)} of {len(messages)}")
    print(f"vllm prompt tokens: {len(outputs[0].prompt_token_ids)}")
    print(f"output: {outputs[0].outputs[0].text!r}")

    batch = llm.chat([messages, messages[:3]], params, use_tqdm=False)
    reports = llm.ctxpress_reports  # type: ignore[attr-defined]
    print(
        "batch prompt tokens: "
        + ", ".join(
            f"{len(o.prompt_token_ids)} (ctxpress {r.tokens_after if r else 'off'})"
            for o, r in zip(batch, reports, strict=True)
        )
    )


if __name__ == "__main__":
    main()
