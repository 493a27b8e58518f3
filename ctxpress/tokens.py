"""Token counting: tiktoken ``o200k_base`` by default, a model's own tokenizer when configured.

tiktoken downloads its rank files on first use, which fails offline. The files are
rebuilt byte for byte from the ranks shipped in ``quicktok-v1`` (checked against
tiktoken's own expected SHA-256) into ``TIKTOKEN_CACHE_DIR`` or the user cache.
"""

from __future__ import annotations

import base64
import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctxpress.messages import Message, count_parts, message_text

if TYPE_CHECKING:
    from ctxpress.config import Config

# The chat-format overhead the OpenAI cookbook measures for current models.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
TOKENS_REPLY_PRIMING = 3
TOKENS_PER_IMAGE = 85  # a low-detail image; high detail costs more upstream

_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"
_QUICKTOK_NAMES = {"o200k_base": "o200k_base", "cl100k_base": "cl100k_base"}
_lock = threading.Lock()


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/ctxpress`` (default ``~/.cache/ctxpress``): models and tokenizer files."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ctxpress"


def _tiktoken_dir() -> Path:
    return Path(os.environ.get("TIKTOKEN_CACHE_DIR") or user_cache_dir() / "tiktoken")


def ensure_tiktoken_file(encoding: str) -> Path:
    """Write tiktoken's cache file for ``encoding`` if missing; return its path."""
    folder = _tiktoken_dir()
    path = folder / hashlib.sha1(_BLOB.format(encoding).encode()).hexdigest()
    if path.exists():
        return path
    if encoding not in _QUICKTOK_NAMES:
        raise ValueError(f"no offline source for tiktoken encoding {encoding!r}")
    import quicktok

    enc = quicktok.get_encoding(_QUICKTOK_NAMES[encoding])
    lines = []
    for rank in range(enc.n_vocab):
        if enc.is_special_token(rank):
            continue
        try:
            token = enc.decode_single_token_bytes(rank)
        except KeyError:  # ranks are not contiguous near the special tokens
            continue
        lines.append(base64.b64encode(token) + b" " + str(rank).encode())
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(b"\n".join(lines) + b"\n")
    tmp.replace(path)
    return path


@lru_cache(maxsize=8)
def _tiktoken_encoder(encoding: str) -> Callable[[str], int]:
    import tiktoken

    with _lock:
        ensure_tiktoken_file(encoding)
        os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(_tiktoken_dir()))
        enc = tiktoken.get_encoding(encoding)
    return lambda text: len(enc.encode_ordinary(text))


@lru_cache(maxsize=8)
def _hf_encoder(path: str) -> Callable[[str], int]:
    try:
        from transformers import AutoTokenizer
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError("a model tokenizer path needs `pip install ctxpress[hf]`") from exc
    tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    return lambda text: len(tok.encode(text, add_special_tokens=False))


class TokenCounter:
    """Counts text and chat messages with one tokenizer; memoises repeated texts."""

    def __init__(self, encode: Callable[[str], int]) -> None:
        self.text: Callable[[str], int] = lru_cache(maxsize=65536)(encode)

    def message(self, msg: Message) -> int:
        n = TOKENS_PER_MESSAGE + self.text(message_text(msg))
        n += TOKENS_PER_IMAGE * count_parts(msg.get("content"), "image_url")
        return n + (TOKENS_PER_NAME if msg.get("name") else 0)

    def messages(self, messages: Sequence[Message]) -> int:
        return TOKENS_REPLY_PRIMING + sum(self.message(m) for m in messages)

    def __call__(self, messages_or_text: str | Sequence[Message]) -> int:
        if isinstance(messages_or_text, str):
            return self.text(messages_or_text)
        return self.messages(messages_or_text)


@lru_cache(maxsize=32)
def _counter(kind: str, source: str) -> TokenCounter:
    if kind == "hf":
        return TokenCounter(_hf_encoder(source))
    return TokenCounter(_tiktoken_encoder(source))


def encoding_for(model: str | None, default: str = "o200k_base") -> str:
    """tiktoken's encoding for a known OpenAI model name, else ``default``."""
    if model:
        try:
            import tiktoken.model

            return tiktoken.model.encoding_name_for_model(model)
        except KeyError:
            pass
    return default


def get_counter(model: str | None = None, config: Config | None = None) -> TokenCounter:
    """The counter for ``model``: its configured local tokenizer, else tiktoken."""
    tokenizers: dict[str, str] = config.tokenizers if config else {}
    if model and model in tokenizers:
        return _counter("hf", tokenizers[model])
    return _counter("tiktoken", encoding_for(model, config.encoding if config else "o200k_base"))


def count_tokens(
    messages_or_text: str | Sequence[Message] | Any,
    model: str | None = None,
    config: Config | None = None,
) -> int:
    """Tokens of a text, or of a chat prompt including per-message format overhead."""
    if not isinstance(messages_or_text, str):
        from ctxpress.messages import validate_messages

        validate_messages(list(messages_or_text))
    return get_counter(model, config)(messages_or_text)
