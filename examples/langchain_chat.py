"""Compress a LangChain chat model's input, and fit retrieved documents to a budget.

    .venv/bin/python examples/langchain_chat.py

Runs on langchain-core's own fake chat model, so it needs no server or key; swap in
any ``BaseChatModel`` (``ChatOpenAI(...)``, ...) for a real one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import convert_to_messages

import ctxpress
from ctxpress.integrations.langchain import CompressingChatModel, CtxpressDocumentCompressor

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=1200, help="max prompt tokens")
    args = parser.parse_args()

    chat = json.loads((HERE / "long_chat.json").read_text("utf-8"))["messages"]
    messages = convert_to_messages(chat)
    model = CompressingChatModel(
        model=FakeListChatModel(responses=["The export failed on an expired credential."]),
        budget=args.budget,
    )
    reply = model.invoke(messages)
    report = model.last_result
    assert report is not None
    print(f"tokens before: {report.tokens_before}  after: {report.tokens_after}")
    print(f"messages sent: {len(report.messages)} of {len(messages)}")
    print(f"reply: {reply.content}")
    print("streamed: " + "".join(str(chunk.content) for chunk in model.stream(messages)))

    # Retrieved documents: the last user question is the query.
    question = chat[-1]["content"]
    documents = [
        Document(page_content=m["content"], metadata={"turn": i})
        for i, m in enumerate(chat)
        if m["role"] in ("user", "assistant") and m.get("content")
    ]
    compressor = CtxpressDocumentCompressor(budget=300)
    kept = compressor.compress_documents(documents, question)
    before = sum(ctxpress.count_tokens(d.page_content) for d in documents)
    after = sum(ctxpress.count_tokens(d.page_content) for d in kept)
    print(f"documents: {before} tokens -> {after} tokens ({len(kept)} of {len(documents)} kept)")


if __name__ == "__main__":
    main()
