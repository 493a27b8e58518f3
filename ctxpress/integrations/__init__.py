"""Compression inside the code users already have, no proxy needed.

- :mod:`ctxpress.integrations.openai`: ``ctxpress.wrap(OpenAI() | AsyncOpenAI())``.
- :mod:`ctxpress.integrations.langchain`: ``CompressingChatModel``,
  ``CtxpressDocumentCompressor`` (extra ``[langchain]``).
- :mod:`ctxpress.integrations.llamaindex`: ``CompressingLLM``,
  ``CtxpressNodePostprocessor`` (extra ``[llamaindex]``).
- :mod:`ctxpress.integrations.vllm`: ``wrap(vllm.LLM(...))`` for offline ``chat``.

Each calls only :func:`ctxpress.compress`, and imports its framework only when used.
"""
