"""LlamaIndex: an LLM wrapper that compresses chat messages, and a node postprocessor.

``CompressingLLM(llm=any_llm, budget=N)`` is a LlamaIndex ``LLM`` (a
``FunctionCallingLLM``, delegating tool calling to the inner model when it has it):
``chat``/``achat``/``stream_chat``/``astream_chat`` compress the messages with
:func:`ctxpress.compress` first; completions pass straight through. Kept messages
are the caller's own ``ChatMessage`` objects. Per call: ``llm.chat(msgs, ctxpress=False)``
or ``ctxpress={"budget": N}``.

``CtxpressNodePostprocessor(budget=N)`` fits retrieved nodes into ``N`` tokens by
relevance to the query, trimming code nodes with the code stage.

Needs ``pip install 'ctxpress[llamaindex]'`` (llama-index-core).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseAsyncGen,
    ChatResponseGen,
    CompletionResponse,
    CompletionResponseAsyncGen,
    CompletionResponseGen,
    LLMMetadata,
    TextBlock,
    ToolCallBlock,
)
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
from llama_index.core.llms import LLM
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

from ctxpress.compressor.pipeline import CompressResult
from ctxpress.config import Config
from ctxpress.integrations._common import CONTROL_KEY, Options, restore, run
from ctxpress.integrations._documents import fit_documents, language_of
from ctxpress.messages import Message, content_text

_ROLE_TO_OPENAI = {"chatbot": "assistant", "model": "assistant"}


def _tool_call(call: Any) -> dict[str, Any]:
    if not isinstance(call, dict):
        dump = getattr(call, "model_dump", None)
        call = dump() if callable(dump) else dict(call)
    return dict(call)


def to_openai(message: ChatMessage) -> Message:
    """A LlamaIndex message as an OpenAI dict, for counting and selection only."""
    role = _ROLE_TO_OPENAI.get(message.role.value, message.role.value)
    texts = [b.text for b in message.blocks if isinstance(b, TextBlock)]
    out: Message = {"role": role, "content": "\n".join(texts)}
    extra = message.additional_kwargs
    calls = [_tool_call(c) for c in extra.get("tool_calls") or []]
    for block in message.blocks:
        if isinstance(block, ToolCallBlock):
            args = block.tool_kwargs
            calls.append(
                {
                    "id": block.tool_call_id or "",
                    "type": "function",
                    "function": {
                        "name": block.tool_name,
                        "arguments": args if isinstance(args, str) else json.dumps(args),
                    },
                }
            )
    if calls:
        out["tool_calls"] = calls
    for key in ("tool_call_id", "name"):
        if key in extra:
            out[key] = extra[key]
    return out


def from_openai(message: Message) -> ChatMessage:
    """A new or rewritten OpenAI dict (a marker, trimmed code) as a LlamaIndex message."""
    extra = {k: message[k] for k in ("tool_calls", "tool_call_id", "name") if k in message}
    return ChatMessage(
        role=message["role"],
        content=content_text(message.get("content")),
        additional_kwargs=extra,
    )


class CompressingLLM(FunctionCallingLLM):
    """Any LlamaIndex LLM, with chat messages compressed by ctxpress first.

    ``budget``, ``stages``, ``ctxpress_config``, ``ctxpress_cache`` are the arguments of
    :func:`ctxpress.compress`; ``tokenizer`` picks the token counter (a model name).
    ``last_result`` is the latest report; ``on_compress`` sees every one.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    llm: LLM
    budget: int | None = None
    stages: tuple[str, ...] | None = None
    ctxpress_config: Config | None = None
    ctxpress_cache: Any = None
    tokenizer: str | None = None
    context_length: int | None = None
    on_compress: Callable[[CompressResult], None] | None = Field(default=None, exclude=True)
    _last: CompressResult | None = PrivateAttr(default=None)

    @classmethod
    def class_name(cls) -> str:
        return "CompressingLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return self.llm.metadata

    @property
    def last_result(self) -> CompressResult | None:
        """The report of the latest chat call (``None`` when it was not compressed)."""
        return self._last

    def compress_messages(
        self, messages: Sequence[ChatMessage], control: Any = None
    ) -> list[ChatMessage]:
        """The messages the inner LLM gets: kept ones are the caller's own objects."""
        self._last = None
        originals = list(messages)
        options = Options(
            budget=self.budget,
            stages=self.stages,
            config=self.ctxpress_config,
            cache=self.ctxpress_cache,
            model=self.tokenizer,
            context_length=self.context_length,
            on_compress=self.on_compress,
        ).with_control(control)
        if not options.enabled or not originals:
            return originals
        dicts = [to_openai(m) for m in originals]
        result = run(dicts, options)
        self._last = result
        if result is None:
            return originals
        return restore(originals, dicts, result.messages, from_openai)

    async def _acompress(self, messages: Sequence[ChatMessage], control: Any) -> list[ChatMessage]:
        return await asyncio.to_thread(self.compress_messages, messages, control)

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        sent = self.compress_messages(messages, kwargs.pop(CONTROL_KEY, None))
        return self.llm.chat(sent, **kwargs)

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        sent = self.compress_messages(messages, kwargs.pop(CONTROL_KEY, None))
        return self.llm.stream_chat(sent, **kwargs)

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        sent = await self._acompress(messages, kwargs.pop(CONTROL_KEY, None))
        return await self.llm.achat(sent, **kwargs)

    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        sent = await self._acompress(messages, kwargs.pop(CONTROL_KEY, None))
        return await self.llm.astream_chat(sent, **kwargs)

    # Completions are one prompt string, not a conversation: nothing to select from.
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return self.llm.complete(prompt, formatted=formatted, **kwargs)

    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        return self.llm.stream_complete(prompt, formatted=formatted, **kwargs)

    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        return await self.llm.acomplete(prompt, formatted=formatted, **kwargs)

    async def astream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseAsyncGen:
        return await self.llm.astream_complete(prompt, formatted=formatted, **kwargs)

    # Tool calling is the inner model's: it formats the tools, ctxpress only compresses.
    def _tools_llm(self) -> FunctionCallingLLM:
        if not isinstance(self.llm, FunctionCallingLLM):
            raise NotImplementedError(f"{type(self.llm).__name__} does not support tool calling")
        return self.llm

    def _prepare_chat_with_tools_compat(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self._tools_llm()._prepare_chat_with_tools_compat(*args, **kwargs)

    def _prepare_chat_with_tools(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self._tools_llm()._prepare_chat_with_tools(*args, **kwargs)

    def _validate_chat_with_tools_response(
        self, response: ChatResponse, *args: Any, **kwargs: Any
    ) -> ChatResponse:
        return self._tools_llm()._validate_chat_with_tools_response(response, *args, **kwargs)

    def get_tool_calls_from_response(
        self, response: ChatResponse, *args: Any, **kwargs: Any
    ) -> Any:
        return self._tools_llm().get_tool_calls_from_response(response, *args, **kwargs)


class CtxpressNodePostprocessor(BaseNodePostprocessor):
    """Fits retrieved nodes into ``budget`` tokens, most relevant to the query first.

    Nodes are scored by their retrieval score (rank when absent) and BM25 against the
    query; the best are kept whole while they fit, and one that does not is trimmed —
    code (``language`` or a code file's path in metadata, or fenced blocks) with the
    code stage, prose to its most relevant paragraphs. The budget counts node text
    (``MetadataMode.NONE``). Kept nodes keep their order; trimmed ones are copies.
    """

    budget: int = Field(gt=0)
    lexical_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    trim: bool = True
    tokenizer: str | None = None
    ctxpress_config: Config | None = None

    @classmethod
    def class_name(cls) -> str:
        return "CtxpressNodePostprocessor"

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        if not nodes:
            return []
        query = query_bundle.query_str if query_bundle is not None else ""
        fitted = fit_documents(
            query,
            [n.node.get_content(metadata_mode=MetadataMode.NONE) for n in nodes],
            self.budget,
            languages=[language_of(n.node.metadata) for n in nodes],
            scores=[n.score for n in nodes],
            lexical_weight=self.lexical_weight,
            trim=self.trim,
            model=self.tokenizer,
            config=self.ctxpress_config,
        )
        out: list[NodeWithScore] = []
        for f in fitted:
            item = nodes[f.index]
            if f.trimmed:
                node = item.node.model_copy()
                node.set_content(f.text)
                item = NodeWithScore(node=node, score=item.score)
            out.append(item)
        return out


__all__ = ["CompressingLLM", "CtxpressNodePostprocessor", "from_openai", "to_openai"]
