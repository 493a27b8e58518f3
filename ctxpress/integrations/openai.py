"""``ctxpress.wrap(client)``: compression inside the OpenAI Python SDK, no proxy needed.

The wrapper is a thin proxy, not a subclass or a patch: the caller's client is left
untouched, every attribute passes through, and only the ``chat.completions`` methods
that take ``messages`` (``create``, ``parse``, ``stream`` and their ``with_raw_response``
/ ``with_streaming_response`` forms) compress first. Responses, streams and errors are
the SDK's own. ``AsyncOpenAI`` compresses in a worker thread so the event loop stays free.

Per call, mirroring the proxy: ``ctxpress={"budget": N, "stages": [...]}`` or
``ctxpress=False`` as a keyword, the same under ``extra_body={"ctxpress": ...}``
(removed before sending), or the header ``x-ctxpress: off`` in ``extra_headers``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from ctxpress.compressor.pipeline import CompressResult
from ctxpress.config import Config
from ctxpress.integrations._common import (
    CONTROL_KEY,
    OnCompress,
    Options,
    header_off,
    restore,
    run,
)
from ctxpress.messages import Message
from ctxpress.store import Cache

C = TypeVar("C")
_OWN = ("_ctxpress_", "ctxpress_")


@dataclass
class _State:
    """The last report of one wrapped client (and of its ``chat`` views)."""

    last: CompressResult | None = None


def _as_dict(message: Any) -> Message:
    """A message as the SDK will send it: dicts as they are, pydantic models dumped."""
    if isinstance(message, dict):
        return message
    dump = getattr(message, "model_dump", None)
    if callable(dump):
        return cast(Message, dump(exclude_unset=True, mode="json"))
    return cast(Message, message)


def _prepare(kwargs: dict[str, Any], options: Options, state: _State) -> dict[str, Any]:
    """Pop the per-call control, compress ``messages``, return the SDK's keyword arguments."""
    control = kwargs.pop(CONTROL_KEY, None)
    extra_body = kwargs.get("extra_body")
    if isinstance(extra_body, Mapping) and CONTROL_KEY in extra_body:
        body = dict(extra_body)
        options = options.with_control(body.pop(CONTROL_KEY))
        kwargs["extra_body"] = body or None
    options = options.with_control(control)
    if header_off(kwargs.get("extra_headers")):
        options = options.with_control(False)
    state.last = None
    messages = kwargs.get("messages")
    if messages is None or not options.enabled:
        return kwargs
    originals = list(messages)
    dicts = [_as_dict(m) for m in originals]
    reserve = kwargs.get("max_completion_tokens") or kwargs.get("max_tokens")
    model = kwargs.get("model")
    result = run(dicts, options, reserve=reserve, model=model if isinstance(model, str) else None)
    state.last = result
    if result is None:
        kwargs["messages"] = originals
    else:
        kwargs["messages"] = restore(originals, dicts, result.messages, lambda m: m)
    return kwargs


class _Proxy:
    """Attribute passthrough to ``_ctxpress_inner``; own names start with ``ctxpress_``."""

    _ctxpress_inner: Any

    def __getattr__(self, name: str) -> Any:
        if name.startswith(_OWN):  # not set yet (e.g. while copying): no recursion
            raise AttributeError(name)
        return getattr(self._ctxpress_inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith(_OWN):
            object.__setattr__(self, name, value)
        else:
            setattr(self._ctxpress_inner, name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(self._ctxpress_inner)) | set(super().__dir__()))

    def __repr__(self) -> str:
        return f"ctxpress.wrap({self._ctxpress_inner!r})"

    @property
    def __wrapped__(self) -> Any:
        """The object this proxy wraps (the ``functools.wraps`` convention)."""
        return self._ctxpress_inner


class _ResponseViews(_Proxy):
    """``.with_raw_response`` / ``.with_streaming_response`` built around this wrapper."""

    @property
    def with_raw_response(self) -> Any:
        # The SDK's view classes only call ``.create``/``.parse`` on what they are given.
        return type(self._ctxpress_inner.with_raw_response)(self)

    @property
    def with_streaming_response(self) -> Any:
        return type(self._ctxpress_inner.with_streaming_response)(self)


class _Completions(_ResponseViews):
    def __init__(self, inner: Any, options: Options, state: _State) -> None:
        self._ctxpress_inner = inner
        self._ctxpress_options = options
        self._ctxpress_state = state

    def _ctxpress_prepare(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return _prepare(kwargs, self._ctxpress_options, self._ctxpress_state)

    def create(self, *args: Any, **kwargs: Any) -> Any:
        return self._ctxpress_inner.create(*args, **self._ctxpress_prepare(kwargs))

    def parse(self, *args: Any, **kwargs: Any) -> Any:
        return self._ctxpress_inner.parse(*args, **self._ctxpress_prepare(kwargs))

    def stream(self, *args: Any, **kwargs: Any) -> Any:
        return self._ctxpress_inner.stream(*args, **self._ctxpress_prepare(kwargs))


class _AsyncStreamManager:
    """``async with client.chat.completions.stream(...)``, compressing on entry."""

    def __init__(self, open_manager: Callable[[], Any]) -> None:
        self._open = open_manager
        self._manager: Any = None

    async def __aenter__(self) -> Any:
        self._manager = await self._open()
        return await self._manager.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._manager.__aexit__(*exc)


class _AsyncCompletions(_Completions):
    async def _ctxpress_aprepare(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return await asyncio.to_thread(self._ctxpress_prepare, kwargs)

    async def create(self, *args: Any, **kwargs: Any) -> Any:
        kwargs = await self._ctxpress_aprepare(kwargs)
        return await self._ctxpress_inner.create(*args, **kwargs)

    async def parse(self, *args: Any, **kwargs: Any) -> Any:
        kwargs = await self._ctxpress_aprepare(kwargs)
        return await self._ctxpress_inner.parse(*args, **kwargs)

    def stream(self, *args: Any, **kwargs: Any) -> Any:
        async def open_manager() -> Any:
            prepared = await self._ctxpress_aprepare(kwargs)
            return self._ctxpress_inner.stream(*args, **prepared)

        return _AsyncStreamManager(open_manager)


class _Chat(_ResponseViews):
    def __init__(self, inner: Any, completions: _Completions) -> None:
        self._ctxpress_inner = inner
        self._ctxpress_completions = completions

    @property
    def completions(self) -> _Completions:
        return self._ctxpress_completions


class CompressingClient(_Proxy):
    """An OpenAI client (sync or async) whose chat completions are compressed first.

    ``ctxpress_last`` is the report of the latest call (``None`` when it was not
    compressed); with concurrent calls on one client, pass ``on_compress`` instead.
    """

    def __init__(self, inner: Any, options: Options, is_async: bool) -> None:
        self._ctxpress_inner = inner
        self._ctxpress_options = options
        self._ctxpress_async = is_async
        self._ctxpress_state = _State()
        kind = _AsyncCompletions if is_async else _Completions
        completions = kind(inner.chat.completions, options, self._ctxpress_state)
        self._ctxpress_chat = _Chat(inner.chat, completions)

    @property
    def chat(self) -> _Chat:
        return self._ctxpress_chat

    @property
    def ctxpress_last(self) -> CompressResult | None:
        return self._ctxpress_state.last

    @property
    def ctxpress_options(self) -> Options:
        return self._ctxpress_options

    def _ctxpress_rewrap(self, inner: Any) -> CompressingClient:
        return CompressingClient(inner, self._ctxpress_options, self._ctxpress_async)

    def with_options(self, *args: Any, **kwargs: Any) -> CompressingClient:
        return self._ctxpress_rewrap(self._ctxpress_inner.with_options(*args, **kwargs))

    def copy(self, *args: Any, **kwargs: Any) -> CompressingClient:
        return self._ctxpress_rewrap(self._ctxpress_inner.copy(*args, **kwargs))

    def __enter__(self) -> CompressingClient:
        self._ctxpress_inner.__enter__()
        return self

    def __exit__(self, *exc: Any) -> Any:
        return self._ctxpress_inner.__exit__(*exc)

    async def __aenter__(self) -> CompressingClient:
        await self._ctxpress_inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._ctxpress_inner.__aexit__(*exc)


def _is_async(client: Any) -> bool:
    try:
        import openai
    except ImportError:  # pragma: no cover - duck-typed clients without the SDK
        return inspect.iscoroutinefunction(client.chat.completions.create)
    if isinstance(client, openai.AsyncOpenAI):
        return True
    if isinstance(client, openai.OpenAI):
        return False
    return inspect.iscoroutinefunction(client.chat.completions.create)


def wrap(
    client: C,
    *,
    budget: int | None = None,
    stages: Sequence[str] | None = None,
    config: Config | None = None,
    cache: Cache | None = None,
    model: str | None = None,
    context_length: int | None = None,
    on_compress: OnCompress | None = None,
) -> C:
    """Return ``client`` (``openai.OpenAI`` or ``AsyncOpenAI``) compressing chat prompts.

    ``budget``/``stages``/``config``/``cache`` are :func:`ctxpress.compress`'s; ``model``
    picks the tokenizer (default: the request's ``model``). Without a budget (here, per
    call, or ``CTXPRESS_BUDGET``) and without ``context_length``, only lossless stages
    change anything. The result is typed as the client so editors keep completing the
    SDK; ``client.ctxpress_last`` holds the latest report.
    """
    if isinstance(client, CompressingClient):
        client = client.__wrapped__
    options = Options(
        budget=budget,
        stages=tuple(stages) if stages is not None else None,
        config=config,
        cache=cache,
        model=model,
        context_length=context_length,
        on_compress=on_compress,
    )
    return cast(C, CompressingClient(client, options, _is_async(client)))


def last_report(client: Any) -> CompressResult | None:
    """The latest report of a wrapped client (typed access to ``ctxpress_last``)."""
    if not isinstance(client, CompressingClient):
        raise TypeError("not a client returned by ctxpress.wrap()")
    return client.ctxpress_last


__all__ = ["CompressingClient", "last_report", "wrap"]
