"""ctxpress: send an LLM fewer, better-arranged tokens.

Public API: :func:`compress`, :func:`count_tokens`, :class:`Config`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from ctxpress.compressor.pipeline import CompressResult, StageReport, compress
from ctxpress.config import Config
from ctxpress.tokens import count_tokens

try:
    __version__ = version("ctxpress")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["CompressResult", "Config", "StageReport", "__version__", "compress", "count_tokens"]
