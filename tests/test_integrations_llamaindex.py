"""LlamaIndex integration with the real llama-index-core and its own mock LLMs."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_example

import ctxpress

pytest.importorskip("llama_index.core")

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, ToolCallBlock
from llama_index.core.llms import LLM
from llama_index.core.llms.mock import (
    MockFunctionCallingLLMWithChatMemoryOfLastCall,
    MockLLM,
    MockLLMWithChatMemoryOfLastCall,
)
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from llama_index.core.tools import FunctionTool

from ctxpress.integrations.llamaindex import (
    CompressingLLM,
    CtxpressNodePostprocessor,
    from_openai,
    to_openai,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def openai_chat(long_chat: dict[str, Any]) -> list[dict[str, Any]]:
    return copy.deepcopy(long_chat["messages"])


@pytest.fixture
def chat(openai_chat: list[dict[str, Any]]) -> list[ChatMessage]:
    return [from_openai(m) for m in openai_chat]


def budget_for(messages: list[ChatMessage]) -> int:
    return ctxpress.count_tokens([to_openai(m) for m in messages]) // 2


def test_messages_convert_both_ways(openai_chat: list[dict[str, Any]]) -> None:
    back = [to_openai(from_openai(m)) for m in openai_chat]
    for before, after in zip(openai_chat, back, strict=True):
        assert after["role"] == before["role"]
        assert after["content"] == (before["content"] or "")
        assert after.get("tool_calls") == before.get("tool_calls")
        assert after.get("tool_call_id") == before.get("tool_call_id")
    block = ToolCallBlock(tool_call_id="c1", tool_name="f", tool_kwargs={"a": 1})
    converted = to_openai(ChatMessage(role="assistant", blocks=[block]))
    assert converted["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"a": 1}'}


def check_sent(
    llm: CompressingLLM, inner: Any, chat: list[ChatMessage], *, identity: bool = True
) -> None:
    report = llm.last_result
    assert report is not None
    assert report.tokens_after <= report.tokens_before
    assert report.tokens_before == ctxpress.count_tokens([to_openai(m) for m in chat])
    sent = list(inner.last_chat_messages)
    assert [to_openai(m) for m in sent] == report.messages
    # A message sent unchanged is the caller's own object, not a copy.
    unchanged = [m for m in sent if to_openai(m) in [to_openai(c) for c in chat]]
    assert unchanged
    assert not identity or all(any(m is c for c in chat) for m in unchanged)


def echo_of(messages: list[ChatMessage]) -> str:
    """What the echoing MockLLM answers to ``messages``: their prompt."""
    return str(MockLLM().chat(messages).message.content)


def test_is_an_llm_and_chat(chat: list[ChatMessage]) -> None:
    inner = MockLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(chat))
    assert isinstance(llm, LLM)
    assert llm.metadata == inner.metadata
    reply = llm.chat(chat)
    check_sent(llm, inner, chat)
    assert isinstance(reply, ChatResponse)
    sent = list(inner.last_chat_messages)
    # The echo mock answers with the prompt it got: that of the compressed messages.
    assert reply.message.content == echo_of(sent)
    assert reply == MockLLM().chat(sent)


async def test_achat(chat: list[ChatMessage]) -> None:
    inner = MockLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(chat))
    reply = await llm.achat(chat)
    check_sent(llm, inner, chat)
    assert reply.message.content == echo_of(list(inner.last_chat_messages))


def test_stream_chat(chat: list[ChatMessage]) -> None:
    inner = MockLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(chat))
    pieces = list(llm.stream_chat(chat))
    check_sent(llm, inner, chat)
    expected = list(MockLLM().stream_chat(list(inner.last_chat_messages)))
    assert [p.delta for p in pieces] == [p.delta for p in expected]
    assert pieces[-1].message.content == expected[-1].message.content


async def test_astream_chat(chat: list[ChatMessage]) -> None:
    inner = MockLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(chat))
    stream = await llm.astream_chat(chat)
    pieces = [p async for p in stream]
    # The mock's astream_chat records a deep copy (it goes through its stream_chat).
    check_sent(llm, inner, chat, identity=False)
    assert "".join(p.delta or "" for p in pieces) == echo_of(list(inner.last_chat_messages))


def test_per_call_control_and_completion(chat: list[ChatMessage]) -> None:
    inner = MockLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(chat))
    llm.chat(chat, ctxpress=False)
    assert llm.last_result is None
    assert all(a is b for a, b in zip(inner.last_chat_messages, chat, strict=True))
    llm.chat(chat, ctxpress={"budget": 500})
    assert llm.last_result is not None and llm.last_result.budget == 500
    assert llm.complete("just a prompt").text == "just a prompt"


def test_tool_calling_goes_to_the_inner_model(chat: list[ChatMessage]) -> None:
    def get_ticket(ticket_id: str = "OPS-4411") -> str:
        """Look a ticket up."""
        return ticket_id

    history = [m for m in chat if m.role.value in ("system", "user")]
    inner = MockFunctionCallingLLMWithChatMemoryOfLastCall()
    llm = CompressingLLM(llm=inner, budget=budget_for(history))
    tool = FunctionTool.from_defaults(fn=get_ticket)
    reply = llm.chat_with_tools([tool], user_msg="Look up OPS-4411", chat_history=history)
    calls = llm.get_tool_calls_from_response(reply)
    assert [c.tool_name for c in calls] == ["get_ticket"]
    assert llm.last_result is not None
    assert [to_openai(m) for m in inner.last_chat_messages] == llm.last_result.messages

    with pytest.raises(NotImplementedError):
        CompressingLLM(llm=MockLLM()).chat_with_tools([tool], user_msg="hi")


# --- nodes ------------------------------------------------------------------------


def nodes() -> list[NodeWithScore]:
    topics = ["bananas grow in bunches", "invoice export to S3 failed", "cats sleep a lot"]
    texts = ["\n\n".join(f"{t}, note {i}." for i in range(12)) for t in topics]
    return [
        NodeWithScore(node=TextNode(text=t, id_=str(i)), score=0.5) for i, t in enumerate(texts)
    ]


def size(items: list[NodeWithScore]) -> int:
    return sum(ctxpress.count_tokens(n.node.get_content()) for n in items)


def test_postprocess_nodes_by_relevance() -> None:
    items = nodes()
    budget = ctxpress.count_tokens(items[1].node.get_content()) + 40
    out = CtxpressNodePostprocessor(budget=budget).postprocess_nodes(
        items, query_bundle=QueryBundle("why did the invoice export to S3 fail?")
    )
    assert size(out) <= budget
    assert out[[n.node.node_id for n in out].index("1")] is items[1]
    order = [n.node.node_id for n in items]
    assert [n.node.node_id for n in out] == sorted((n.node.node_id for n in out), key=order.index)
    for n in out:  # trimmed copies, originals untouched
        if n is not items[int(n.node.node_id)]:
            assert n.node.get_content() != items[int(n.node.node_id)].node.get_content()
    assert size(items) > budget


def test_postprocess_nodes_keeps_all_under_budget() -> None:
    items = nodes()
    out = CtxpressNodePostprocessor(budget=100_000).postprocess_nodes(items, query_str="cats")
    assert all(a is b for a, b in zip(out, items, strict=True))


def test_postprocessor_in_a_query_engine() -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding

    items = nodes()
    budget = ctxpress.count_tokens(items[1].node.get_content()) + 40
    index = VectorStoreIndex([n.node for n in items], embed_model=MockEmbedding(embed_dim=8))
    engine = index.as_query_engine(
        llm=MockLLM(),
        similarity_top_k=3,
        node_postprocessors=[CtxpressNodePostprocessor(budget=budget)],
    )
    response = engine.query("invoice export to S3")
    assert response.source_nodes
    assert size(response.source_nodes) <= budget
    assert "1" in [n.node.node_id for n in response.source_nodes]


def test_example_runs() -> None:
    out, before, after = run_example("llamaindex_chat.py")
    assert after <= before
    assert re.search(r"nodes: \d+ tokens -> \d+ tokens", out), out
