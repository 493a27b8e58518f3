"""Compress a LlamaIndex LLM's chat messages, and fit retrieved nodes to a budget.

    .venv/bin/python examples/llamaindex_chat.py

Runs on LlamaIndex's own ``MockLLM`` (which answers with the prompt it received), so
it needs no server or key; wrap any LlamaIndex ``LLM`` the same way for a real one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from llama_index.core.llms.mock import MockLLM
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

import ctxpress
from ctxpress.integrations.llamaindex import CompressingLLM, CtxpressNodePostprocessor, from_openai

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=1200, help="max prompt tokens")
    args = parser.parse_args()

    chat = json.loads((HERE / "long_chat.json").read_text("utf-8"))["messages"]
    messages = [from_openai(m) for m in chat]
    llm = CompressingLLM(llm=MockLLM(), budget=args.budget)
    reply = llm.chat(messages)
    report = llm.last_result
    assert report is not None
    print(f"tokens before: {report.tokens_before}  after: {report.tokens_after}")
    print(f"messages sent: {len(report.messages)} of {len(messages)}")
    print(f"reply (the mock echoes its prompt): {len(str(reply.message.content))} characters")
    streamed = "".join(r.delta or "" for r in llm.stream_chat(messages))
    print(f"streamed: {len(streamed)} characters")

    # Retrieved nodes: the last user question is the query.
    question = chat[-1]["content"]
    nodes = [
        NodeWithScore(node=TextNode(text=m["content"]), score=None)
        for m in chat
        if m["role"] in ("user", "assistant") and m.get("content")
    ]
    kept = CtxpressNodePostprocessor(budget=300).postprocess_nodes(
        nodes, query_bundle=QueryBundle(question)
    )
    before = sum(ctxpress.count_tokens(n.node.get_content()) for n in nodes)
    after = sum(ctxpress.count_tokens(n.node.get_content()) for n in kept)
    print(f"nodes: {before} tokens -> {after} tokens ({len(kept)} of {len(nodes)} kept)")


if __name__ == "__main__":
    main()
