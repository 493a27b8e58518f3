"""vLLM offline inference: ``wrap(vllm.LLM(...))`` compresses ``.chat`` conversations first.

Nothing here imports vLLM: the wrapper only calls the object it is given, so this
module loads anywhere, and the proxy passes every other attribute through.

Without an explicit budget the budget is the engine's own: ``max_model_len`` minus
the request's ``max_tokens``, exactly what the proxy uses against a vLLM server.
Tokens are counted with the model's own tokenizer when its folder is local (needs
``transformers``, which vLLM has), so ctxpress's count is the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

from ctxpress.compressor.pipeline import CompressResult
from ctxpress.config import Config
from ctxpress.integrations._common import CONTROL_KEY, OnCompress, Options, run
from ctxpress.messages import Message
from ctxpress.store import Cache

L = TypeVar("L")


def _model_config(llm: Any) -> Any:
    config = getattr(llm, "model_config", None)
    if config is None:
        config = getattr(getattr(llm, "llm_engine", None), "model_config", None)
    return config


def _local_tokenizer(llm: Any) -> str | None:
    """The engine's tokenizer folder, when it is a local path ctxpress can load."""
    config = _model_config(llm)
    path = getattr(config, "tokenizer", None) or getattr(config, "model", None)
    return str(path) if isinstance(path, str) and Path(path).is_dir() else None


def _max_tokens(params: Any, llm: Any) -> int | None:
    if params is None:
        defaults = getattr(llm, "get_default_sampling_params", None)
        params = defaults() if callable(defaults) else None
    value = getattr(params, "max_tokens", None)
    return value if isinstance(value, int) else None


class CompressingVLLM:
    """A ``vllm.LLM`` whose ``chat`` compresses each conversation first.

    ``ctxpress_last`` is the report of the latest conversation (``None`` when it was
    not compressed), ``ctxpress_reports`` one per conversation of the latest call.
    """

    def __init__(self, llm: Any, options: Options) -> None:
        self._ctxpress_llm = llm
        self._ctxpress_options = options
        self.ctxpress_reports: list[CompressResult | None] = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_ctxpress_"):
            raise AttributeError(name)
        return getattr(self._ctxpress_llm, name)

    def __repr__(self) -> str:
        return f"ctxpress.integrations.vllm.wrap({self._ctxpress_llm!r})"

    @property
    def __wrapped__(self) -> Any:
        return self._ctxpress_llm

    @property
    def ctxpress_last(self) -> CompressResult | None:
        return self.ctxpress_reports[-1] if self.ctxpress_reports else None

    def compress_conversation(
        self, messages: list[Message], sampling_params: Any = None, control: Any = None
    ) -> list[Message]:
        """One conversation as the engine will get it."""
        options = self._ctxpress_options.with_control(control)
        result = run(
            list(messages), options, reserve=_max_tokens(sampling_params, self._ctxpress_llm)
        )
        self.ctxpress_reports.append(result)
        return list(messages) if result is None else result.messages

    def chat(self, messages: Any, sampling_params: Any = None, *args: Any, **kwargs: Any) -> Any:
        control = kwargs.pop(CONTROL_KEY, None)
        self.ctxpress_reports = []
        single = bool(messages) and isinstance(messages[0], dict)
        conversations = [messages] if single else list(messages)
        per_conversation = (
            list(sampling_params)
            if isinstance(sampling_params, Sequence) and not isinstance(sampling_params, str)
            else [sampling_params] * len(conversations)
        )
        sent = [
            self.compress_conversation(list(conv), params, control)
            for conv, params in zip(conversations, per_conversation, strict=False)
        ]
        return self._ctxpress_llm.chat(
            sent[0] if single else sent, sampling_params, *args, **kwargs
        )


def wrap(
    llm: L,
    *,
    budget: int | None = None,
    stages: Sequence[str] | None = None,
    config: Config | None = None,
    cache: Cache | None = None,
    tokenizer: str | None = None,
    on_compress: OnCompress | None = None,
) -> L:
    """Return ``llm`` (a ``vllm.LLM``) compressing ``.chat`` messages first.

    ``tokenizer`` names the token counter; by default the engine's own local tokenizer
    folder is used (added to ``config.tokenizers``), else tiktoken.
    """
    if isinstance(llm, CompressingVLLM):
        llm = cast(L, llm.__wrapped__)
    config = config or Config()
    if tokenizer is None:
        tokenizer = _local_tokenizer(llm)
        if tokenizer is not None and tokenizer not in config.tokenizers:
            tokenizers = {**config.tokenizers, tokenizer: tokenizer}
            config = config.model_copy(update={"tokenizers": tokenizers})
    model_config = _model_config(llm)
    length = getattr(model_config, "max_model_len", None)
    options = Options(
        budget=budget,
        stages=tuple(stages) if stages is not None else None,
        config=config,
        cache=cache,
        model=tokenizer,
        context_length=length if isinstance(length, int) else None,
        on_compress=on_compress,
    )
    return cast(L, CompressingVLLM(llm, options))


__all__ = ["CompressingVLLM", "wrap"]
