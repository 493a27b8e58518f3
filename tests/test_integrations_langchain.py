"""LangChain integration with the real langchain-core and its own fake chat models."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_example

import ctxpress

pytest.importorskip("langchain_core")

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    convert_to_messages,
    convert_to_openai_messages,
)
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool

from ctxpress.integrations.langchain import (
    CompressingChatModel,
    CtxpressDocumentCompressor,
    with_compression,
)

ROOT = Path(__file__).resolve().parent.parent
REPLY = "the export failed on an expired credential"


class Recorder(BaseCallbackHandler):
    """What the inner model was called with, seen through LangChain's own callbacks."""

    def __init__(self) -> None:
        self.messages: list[list[BaseMessage]] = []
        self.params: list[dict[str, Any]] = []

    def on_chat_model_start(
        self, serialized: Any, messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        self.messages.append(messages[0])
        self.params.append(kwargs.get("invocation_params") or {})


@pytest.fixture
def chat(long_chat: dict[str, Any]) -> list[BaseMessage]:
    return convert_to_messages(copy.deepcopy(long_chat["messages"]))


def budget_for(messages: list[BaseMessage]) -> int:
    return ctxpress.count_tokens(convert_to_openai_messages(messages)) // 2


def fake(recorder: Recorder | None = None) -> FakeListChatModel:
    return FakeListChatModel(responses=[REPLY], callbacks=[recorder] if recorder else None)


def check_sent(model: CompressingChatModel, recorder: Recorder, chat: list[BaseMessage]) -> None:
    """Compression ran and the inner model got exactly its output."""
    report = model.last_result
    assert report is not None
    assert report.tokens_after <= report.tokens_before
    assert report.tokens_before == ctxpress.count_tokens(convert_to_openai_messages(chat))
    sent = recorder.messages[-1]
    assert convert_to_openai_messages(sent) == report.messages
    # A message sent unchanged is the caller's own object, not a copy.
    unchanged = [m for m in sent if m in chat]
    assert unchanged
    assert all(any(m is c for c in chat) for m in unchanged)


def test_is_a_chat_model_and_invoke(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    assert isinstance(model, BaseChatModel)
    reply = model.invoke(chat)
    check_sent(model, recorder, chat)
    expected = fake().invoke(recorder.messages[-1])
    assert type(reply) is type(expected) is AIMessage
    assert reply.model_dump(exclude={"id"}) == expected.model_dump(exclude={"id"})


async def test_ainvoke(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = with_compression(fake(recorder), budget=budget_for(chat))
    reply = await model.ainvoke(chat)
    check_sent(model, recorder, chat)
    assert reply.content == REPLY


def test_stream(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    chunks = list(model.stream(chat))
    check_sent(model, recorder, chat)
    expected = list(fake().stream(recorder.messages[-1]))
    assert [type(c) for c in chunks] == [type(c) for c in expected]
    assert [c.content for c in chunks] == [c.content for c in expected]
    assert "".join(str(c.content) for c in chunks) == REPLY


async def test_astream(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    text = "".join([str(c.content) async for c in model.astream(chat)])
    check_sent(model, recorder, chat)
    assert text == REPLY


def test_batch_and_abatch(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    short = [HumanMessage("hello")]
    replies = model.batch([chat, short])
    assert [r.content for r in replies] == [REPLY, REPLY]
    sent = sorted(recorder.messages, key=len)
    assert sent[0] == short
    assert (
        convert_to_openai_messages(sent[1])
        == ctxpress.compress(convert_to_openai_messages(chat), budget_for(chat)).messages
    )


async def test_abatch(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    replies = await model.abatch([chat, chat])
    assert [r.content for r in replies] == [REPLY, REPLY]
    assert len(recorder.messages) == 2
    assert recorder.messages[0] == recorder.messages[1]


class ToolFake(GenericFakeChatModel):
    """The library's fake chat model plus the usual ``bind_tools``."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)


@tool
def get_ticket(ticket_id: str) -> str:
    """Look a ticket up by its id."""
    return ticket_id


def test_bind_tools(chat: list[BaseMessage]) -> None:
    call = {"name": "get_ticket", "args": {"ticket_id": "OPS-4411"}, "id": "call_1"}
    recorder = Recorder()
    inner = ToolFake(messages=iter([AIMessage("", tool_calls=[call])]), callbacks=[recorder])
    model = CompressingChatModel(model=inner, budget=budget_for(chat))
    bound = model.bind_tools([get_ticket], tool_choice="auto")
    reply = bound.invoke(chat)
    assert reply.tool_calls[0]["name"] == "get_ticket"
    assert reply.tool_calls[0]["args"] == {"ticket_id": "OPS-4411"}
    params = recorder.params[-1]
    assert params["tools"][0]["function"]["name"] == "get_ticket"
    assert params["tool_choice"] == "auto"
    check_sent(model, recorder, chat)

    structured = model.with_structured_output(convert_to_openai_tool(get_ticket))
    assert structured is not None


def test_per_call_control(chat: list[BaseMessage]) -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=budget_for(chat))
    model.invoke(chat, ctxpress=False)
    assert model.last_result is None
    assert all(a is b for a, b in zip(recorder.messages[-1], chat, strict=True))

    model.invoke(chat, ctxpress={"budget": 300, "stages": ["system"]})
    assert model.last_result is not None
    assert model.last_result.budget == 300
    assert [s.name for s in model.last_result.stages] == ["system"]


def test_unreadable_input_passes_through() -> None:
    recorder = Recorder()
    model = CompressingChatModel(model=fake(recorder), budget=5)
    odd = [ToolMessage("orphan result", tool_call_id="nobody"), HumanMessage("hi")]
    assert model.invoke(odd).content == REPLY
    assert model.last_result is None
    assert recorder.messages[-1] == odd


# --- documents --------------------------------------------------------------------

UNRELATED = """

def unrelated_{i}(x):
    total = 0
    for i in range(x):
        total += i * {i}
    return [str(t) for t in range(total) if t % 3 == 0]
"""
CODE = (
    'import json\n\n\ndef load(path):\n    """Read a JSON file."""\n'
    "    with open(path) as f:\n        return json.load(f)\n"
    + "".join(UNRELATED.format(i=i) for i in range(8))
    + '\n\ndef save(path, data):\n    with open(path, "w") as f:\n        json.dump(data, f)\n'
)


def docs() -> list[Document]:
    topics = ["bananas grow in bunches", "invoice export to S3 failed", "cats sleep a lot"]
    out = [
        Document(page_content=("\n\n".join(f"{t}, note {i}." for i in range(12))), id=str(n))
        for n, t in enumerate(topics)
    ]
    out.append(Document(page_content=CODE, metadata={"source": "store.py"}, id="code"))
    return out


def test_document_compressor_fits_the_budget_by_relevance() -> None:
    documents = docs()
    sizes = {d.id: ctxpress.count_tokens(d.page_content) for d in documents}
    budget = sizes["1"] + sizes["code"] // 2
    compressor = CtxpressDocumentCompressor(budget=budget)
    out = compressor.compress_documents(documents, "why did the invoice export to S3 fail?")
    assert sum(ctxpress.count_tokens(d.page_content) for d in out) <= budget
    kept = {d.id: d for d in out}
    assert kept["1"] is documents[1]  # the relevant one, whole and untouched
    order = [d.id for d in documents]
    assert [d.id for d in out] == sorted(kept, key=order.index)
    for doc in out:
        if doc.metadata.get("ctxpress"):
            assert (
                doc.metadata["ctxpress"]["tokens_after"] < doc.metadata["ctxpress"]["tokens_before"]
            )


def test_document_compressor_keeps_everything_under_budget() -> None:
    documents = docs()
    out = CtxpressDocumentCompressor(budget=100_000).compress_documents(documents, "anything")
    assert all(a is b for a, b in zip(out, documents, strict=True))


def test_code_document_is_trimmed_or_dropped_never_broken() -> None:
    doc = Document(page_content=CODE, metadata={"source": "store.py"})
    budget = ctxpress.count_tokens(CODE) * 2 // 3
    out = CtxpressDocumentCompressor(budget=budget).compress_documents([doc], "fix `load`")
    assert sum(ctxpress.count_tokens(d.page_content) for d in out) <= budget
    for d in out:  # with the code stage installed the trimmed file still parses
        compile(d.page_content, "store.py", "exec")
        assert 'def load(path):\n    """Read a JSON file."""' in d.page_content
        assert d.metadata["ctxpress"]["tokens_after"] <= budget


def test_with_contextual_compression_retriever() -> None:
    classic = pytest.importorskip("langchain_classic.retrievers")

    class ListRetriever(BaseRetriever):
        documents: list[Document]

        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return list(self.documents)

    documents = docs()
    budget = ctxpress.count_tokens(documents[1].page_content) + 20
    retriever = classic.ContextualCompressionRetriever(
        base_compressor=CtxpressDocumentCompressor(budget=budget),
        base_retriever=ListRetriever(documents=documents),
    )
    out = retriever.invoke("invoice export to S3")
    assert documents[1] in out
    assert sum(ctxpress.count_tokens(d.page_content) for d in out) <= budget


def test_example_runs() -> None:
    out, before, after = run_example("langchain_chat.py")
    assert after <= before
    assert re.search(r"documents: \d+ tokens -> \d+ tokens", out), out
