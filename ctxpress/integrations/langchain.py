"""LangChain: compress a chat model's input, and fit retrieved documents to a budget.

``CompressingChatModel(model=any_chat_model, budget=N)`` is itself a ``BaseChatModel``,
so it goes wherever a chat model goes (chains, agents, ``bind_tools``,
``with_structured_output``). It converts the input to OpenAI messages, compresses
them with :func:`ctxpress.compress`, maps kept messages back to the caller's own
objects, and hands the result to the inner model through its public ``invoke`` /
``stream`` (so the inner model's callbacks, cache and rate limiter still apply).
Per call: ``model.invoke(msgs, ctxpress={"budget": N})`` or ``ctxpress=False``.

``CtxpressDocumentCompressor(budget=N)`` plugs into ``ContextualCompressionRetriever``.

Needs ``pip install 'ctxpress[langchain]'`` (langchain-core).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
    Callbacks,
)
from langchain_core.documents import BaseDocumentCompressor, Document
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    BaseMessageChunk,
    convert_to_messages,
    convert_to_openai_messages,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig
from pydantic import ConfigDict, Field, PrivateAttr

from ctxpress.compressor.pipeline import CompressResult
from ctxpress.config import Config
from ctxpress.integrations._common import CONTROL_KEY, Options, restore, run
from ctxpress.integrations._documents import fit_documents, language_of


def _chunk(message: BaseMessage) -> BaseMessageChunk:
    """A streamed piece as a chunk (a model without streaming yields one whole message)."""
    if isinstance(message, BaseMessageChunk):
        return message
    if isinstance(message, AIMessage):
        return AIMessageChunk(**message.model_dump(exclude={"type"}))
    raise TypeError(f"chat model streamed a {type(message).__name__}, not an AI message chunk")


class CompressingChatModel(BaseChatModel):
    """Any LangChain chat model, with its input messages compressed by ctxpress first.

    ``budget``, ``stages``, ``ctxpress_config`` and ``ctxpress_cache`` are the arguments
    of :func:`ctxpress.compress`; ``tokenizer`` picks the token counter (a model name).
    ``last_result`` is the latest report; pass ``on_compress`` to see every one.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: BaseChatModel
    budget: int | None = None
    stages: tuple[str, ...] | None = None
    ctxpress_config: Config | None = None
    ctxpress_cache: Any = None
    tokenizer: str | None = None
    context_length: int | None = None
    on_compress: Callable[[CompressResult], None] | None = Field(default=None, exclude=True)
    _last: CompressResult | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return f"ctxpress-{self.model._llm_type}"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model": self.model._identifying_params,
            "budget": self.budget,
            "stages": self.stages,
        }

    @property
    def last_result(self) -> CompressResult | None:
        """The report of the latest call (``None`` when it was not compressed)."""
        return self._last

    def _options(self) -> Options:
        return Options(
            budget=self.budget,
            stages=self.stages,
            config=self.ctxpress_config,
            cache=self.ctxpress_cache,
            model=self.tokenizer,
            context_length=self.context_length,
            on_compress=self.on_compress,
        )

    def compress_messages(
        self, messages: Sequence[BaseMessage], control: Any = None
    ) -> list[BaseMessage]:
        """The messages the inner model gets: kept ones are the caller's own objects."""
        self._last = None
        originals = list(messages)
        options = self._options().with_control(control)
        if not options.enabled or not originals:
            return originals
        try:
            dicts = convert_to_openai_messages(originals)
        except Exception:  # content ctxpress cannot read passes through untouched
            return originals
        result = run(dicts, options)
        self._last = result
        if result is None:
            return originals
        return restore(originals, dicts, result.messages, lambda m: convert_to_messages([m])[0])

    def _inner_config(self, run_manager: Any) -> RunnableConfig:
        # The wrapper's own run already reports to the caller's handlers: the inner
        # model keeps only its own callbacks, so no token or cost is reported twice.
        return {"callbacks": []}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        sent = self.compress_messages(messages, kwargs.pop(CONTROL_KEY, None))
        reply = self.model.invoke(sent, self._inner_config(run_manager), stop=stop, **kwargs)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        control = kwargs.pop(CONTROL_KEY, None)
        sent = await asyncio.to_thread(self.compress_messages, messages, control)
        config = self._inner_config(run_manager)
        reply = await self.model.ainvoke(sent, config, stop=stop, **kwargs)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        sent = self.compress_messages(messages, kwargs.pop(CONTROL_KEY, None))
        config = self._inner_config(run_manager)
        for piece in self.model.stream(sent, config, stop=stop, **kwargs):
            # The base class reports each chunk to the callbacks.
            yield ChatGenerationChunk(message=_chunk(piece))

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        control = kwargs.pop(CONTROL_KEY, None)
        sent = await asyncio.to_thread(self.compress_messages, messages, control)
        config = self._inner_config(run_manager)
        async for piece in self.model.astream(sent, config, stop=stop, **kwargs):
            yield ChatGenerationChunk(message=_chunk(piece))

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Bind tools the way the inner model formats them; compression still runs first."""
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        bound = self.model.bind_tools(tools, **kwargs)
        if not isinstance(bound, RunnableBinding) or bound.bound is not self.model:
            raise NotImplementedError(
                f"{type(self.model).__name__}.bind_tools does not return a plain binding"
            )
        return self.bind(**bound.kwargs).with_config(bound.config)


def with_compression(model: BaseChatModel, **options: Any) -> CompressingChatModel:
    """``CompressingChatModel(model=model, **options)``: the short spelling."""
    return CompressingChatModel(model=model, **options)


class CtxpressDocumentCompressor(BaseDocumentCompressor):
    """Fits retrieved documents into ``budget`` tokens, most relevant to the query first.

    For ``ContextualCompressionRetriever(base_compressor=..., base_retriever=...)``.
    Documents are scored by the retriever's order (or ``score_key`` in metadata) and
    BM25 against the query; the best are kept whole while they fit, and one that does
    not is trimmed — code (by ``language`` or file extension in metadata, or fenced
    blocks) with the code stage, prose to its most relevant paragraphs. Kept documents
    keep the retriever's order; trimmed ones are copies with ``metadata["ctxpress"]``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    budget: int = Field(gt=0)
    lexical_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    trim: bool = True
    score_key: str | None = None
    tokenizer: str | None = None
    ctxpress_config: Config | None = None

    def compress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        docs = list(documents)
        if not docs:
            return []
        scores = None
        if self.score_key is not None:
            scores = [d.metadata.get(self.score_key) for d in docs]
        fitted = fit_documents(
            query,
            [d.page_content for d in docs],
            self.budget,
            languages=[language_of(d.metadata) for d in docs],
            scores=scores,
            lexical_weight=self.lexical_weight,
            trim=self.trim,
            model=self.tokenizer,
            config=self.ctxpress_config,
        )
        out: list[Document] = []
        for f in fitted:
            doc = docs[f.index]
            if f.trimmed:
                report = {"tokens_before": f.tokens_before, "tokens_after": f.tokens_after}
                metadata = {**doc.metadata, "ctxpress": report}
                doc = doc.model_copy(update={"page_content": f.text, "metadata": metadata})
            out.append(doc)
        return out


__all__ = ["CompressingChatModel", "CtxpressDocumentCompressor", "with_compression"]
