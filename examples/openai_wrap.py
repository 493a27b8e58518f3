"""Compress inside the OpenAI SDK with ``ctxpress.wrap`` (no proxy).

    .venv/bin/python examples/openai_wrap.py                      # local stand-in server
    .venv/bin/python examples/openai_wrap.py --base-url http://localhost:8000/v1 --model M

Sends the bundled ``long_chat.json`` conversation once plainly and once streamed, and
prints the prompt tokens before and after compression.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import openai

import ctxpress

HERE = Path(__file__).resolve().parent


def load_chat() -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = json.loads((HERE / "long_chat.json").read_text("utf-8"))[
        "messages"
    ]
    return messages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="an OpenAI-compatible /v1 URL (default: a stand-in)")
    parser.add_argument("--model", default="gpt-4o")
    parser.add_argument("--budget", type=int, default=1200, help="max prompt tokens")
    args = parser.parse_args()

    server = None
    base_url = args.base_url
    if base_url is None:
        sys.path.insert(0, str(HERE))
        from stub_openai_server import StubServer

        server = StubServer().start()
        base_url = server.base_url
    api_key = os.environ.get("OPENAI_API_KEY", "sk-local")
    messages = load_chat()
    try:
        client = ctxpress.wrap(
            openai.OpenAI(base_url=base_url, api_key=api_key), budget=args.budget
        )
        reply = client.chat.completions.create(model=args.model, messages=messages)
        report = client.ctxpress_last  # type: ignore[attr-defined]
        print(f"tokens before: {report.tokens_before}  after: {report.tokens_after}")
        print(f"messages sent: {len(report.messages)} of {len(messages)}")
        print(f"reply: {reply.choices[0].message.content}")

        stream = client.chat.completions.create(model=args.model, messages=messages, stream=True)
        text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
        print(f"streamed reply: {text}")

        async def run_async() -> None:
            aclient = ctxpress.wrap(openai.AsyncOpenAI(base_url=base_url, api_key=api_key))
            off = await aclient.chat.completions.create(
                model=args.model, messages=messages, extra_body={"ctxpress": False}
            )
            print(f"async, compression off: {off.choices[0].message.content}")

        asyncio.run(run_async())
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
