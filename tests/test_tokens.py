"""Token counts: tiktoken o200k_base offline, chat overhead, a model's own tokenizer."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import ctxpress
from ctxpress.config import Config
from ctxpress.tokens import ensure_tiktoken_file

O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def test_o200k_file_is_rebuilt_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    path = ensure_tiktoken_file("o200k_base")
    assert path.parent == tmp_path
    assert hashlib.sha256(path.read_bytes()).hexdigest() == O200K_SHA256


def test_text_counts_match_tiktoken_reference() -> None:
    # Reference ids from tiktoken's own test-suite for o200k_base: "hello world" -> 2 tokens.
    assert ctxpress.count_tokens("hello world") == 2
    assert ctxpress.count_tokens("") == 0


def test_message_counts_include_chat_overhead() -> None:
    text = "The quick brown fox jumps over the lazy dog."
    one = [{"role": "user", "content": text}]
    two = [*one, {"role": "assistant", "content": text}]
    n = ctxpress.count_tokens(text)
    assert ctxpress.count_tokens(one) == n + 3 + 3
    assert ctxpress.count_tokens(two) == 2 * n + 2 * 3 + 3
    named = [{"role": "user", "content": text, "name": "ana"}]
    assert ctxpress.count_tokens(named) == ctxpress.count_tokens(one) + 1


def test_images_and_tool_calls_are_counted() -> None:
    plain = [{"role": "user", "content": [{"type": "text", "text": "look"}]}]
    image = {"type": "image_url", "image_url": {"url": "https://e.x/a.png"}}
    with_image = [{"role": "user", "content": [*plain[0]["content"], image]}]
    assert ctxpress.count_tokens(with_image) == ctxpress.count_tokens(plain) + 85
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"q": "x"}'}}
    calls = [{"role": "assistant", "content": None, "tool_calls": [call]}]
    assert ctxpress.count_tokens(calls) > ctxpress.count_tokens(
        [{"role": "assistant", "content": ""}]
    )


def test_known_openai_model_picks_its_encoding() -> None:
    # cl100k_base and o200k_base split this differently; gpt-4 uses cl100k_base.
    text = "ctxpress tokenizes 東京 and naïve café strings"
    assert ctxpress.count_tokens(text, model="gpt-4") != ctxpress.count_tokens(text)


def test_model_tokenizer_from_local_path(tmp_path: Path) -> None:
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]")
    fast.save_pretrained(tmp_path)
    config = Config(tokenizers={"tiny": str(tmp_path)})
    # A word-level tokenizer: one token per whitespace-separated word.
    assert ctxpress.count_tokens("a b c d e", model="tiny", config=config) == 5
    chat = [{"role": "user", "content": "a b c"}]
    assert ctxpress.count_tokens(chat, model="tiny", config=config) == 3 + 3 + 3
