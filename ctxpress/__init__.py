"""ctxpress: send an LLM fewer, better-arranged tokens.

Public API: :func:`compress`, :func:`count_tokens`, :class:`Config`, :func:`wrap`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from ctxpress.compressor.pipeline import CompressResult, StageReport, compress
from ctxpress.config import Config
from ctxpress.tokens import count_tokens

if TYPE_CHECKING:
    from ctxpress.integrations.openai import wrap

try:
    __version__ = version("ctxpress")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"


def __getattr__(name: str) -> Any:
    # ``wrap`` (the OpenAI SDK wrapper) loads on first use: ``import ctxpress`` stays lean.
    if name == "wrap":
        from ctxpress.integrations.openai import wrap

        return wrap
    raise AttributeError(f"module 'ctxpress' has no attribute {name!r}")


__all__ = [
    "CompressResult",
    "Config",
    "StageReport",
    "__version__",
    "compress",
    "count_tokens",
    "wrap",
]
