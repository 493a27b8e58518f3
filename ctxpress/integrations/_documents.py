"""Fit retrieved documents to a token budget by relevance: shared by LangChain and LlamaIndex.

Retrievers already rank by relevance (often densely); a lexical match with the query
(BM25, the history stage's scorer when it is installed) sharpens that order. The best
documents are kept whole while they fit. One that does not fit is trimmed rather than
lost: code through ctxpress's code stage (by way of :func:`ctxpress.compress`, so the
focal symbols come from the query), prose to its most relevant paragraphs. Kept
documents stay in the retriever's order, since prompts read best in that order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import numpy as np

import ctxpress
from ctxpress.config import Config

# File extensions of the languages the code stage parses, for documents loaded from files.
CODE_EXTENSIONS = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
}
_PATH_KEYS = ("source", "file_path", "path", "file_name", "filename")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_BACKTICKS = re.compile(r"`+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# Below this many tokens of room, a trimmed document is more noise than help.
MIN_PIECE_TOKENS = 16


@dataclass(frozen=True)
class Fitted:
    """One kept document: its position in the input and its text (``trimmed`` if cut)."""

    index: int
    text: str
    trimmed: bool
    tokens_before: int
    tokens_after: int


def language_of(metadata: Mapping[str, Any]) -> str | None:
    """The programming language a document's metadata names, directly or by file extension."""
    language = metadata.get("language")
    if language:
        return str(getattr(language, "value", language)).lower()
    for key in _PATH_KEYS:
        value = metadata.get(key)
        if isinstance(value, str) and value:
            found = CODE_EXTENSIONS.get(PurePath(value).suffix.lower())
            if found:
                return found
    return None


def lexical_scores(query: str, texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """BM25 of each text against ``query`` scaled to 0..1; zeros when nothing matches."""
    if not query.strip() or not texts:
        return np.zeros(len(texts), dtype=np.float32)
    try:
        from ctxpress.compressor.history.scoring import bm25_scores, scale
    except ImportError:  # pragma: no cover - an install without the history stage
        return np.zeros(len(texts), dtype=np.float32)
    return np.asarray(scale(bm25_scores(query, list(texts))), dtype=np.float32)


def _prior(n: int, scores: Sequence[float | None] | None) -> np.ndarray[Any, np.dtype[np.float32]]:
    """The retriever's own relevance on 0..1: its scores if all given, else its rank."""
    if scores is not None and len(scores) == n and all(s is not None for s in scores):
        values = np.asarray(scores, dtype=np.float32)
        low, high = float(values.min()), float(values.max())
        if high - low > 1e-9:
            return np.asarray((values - low) / (high - low), dtype=np.float32)
    return np.asarray(1.0 - np.arange(n, dtype=np.float32) / max(n, 1), dtype=np.float32)


def _fence_for(code: str) -> str:
    longest = max((len(m) for m in _BACKTICKS.findall(code)), default=0)
    return "`" * max(3, longest + 1)


def trim_code(
    query: str, code: str, language: str | None, room: int, *, model: str | None, config: Config
) -> str | None:
    """``code`` cut to ``room`` tokens by the code stage, or ``None`` when it cannot be.

    The code goes in one user message after the query, the query alone follows it as
    the last message (which compression protects), so the focal symbols are the ones
    the query names. A raw file is fenced first; Markdown with fences goes as it is.
    """
    fenced = language is not None or not _FENCE.search(code)
    fence = _fence_for(code)
    prefix = f"{query}\n\n"
    body = f"{fence}{language or ''}\n{code}\n{fence}" if fenced else code
    messages = [
        {"role": "user", "content": prefix + body},
        {"role": "user", "content": query or "."},
    ]
    counter = ctxpress.count_tokens
    whole = counter(code, model, config)
    budget = counter(messages, model, config) - whole + room
    try:
        result = ctxpress.compress(messages, max(budget, 1), model, config, stages=["code"])
    except Exception:  # no code stage (or its parser) installed, or an input it rejects
        return None
    content = result.messages[0].get("content") if result.messages else None
    if not isinstance(content, str) or not content.startswith(prefix):
        return None
    out = content[len(prefix) :]
    if fenced:
        head, tail = f"{fence}{language or ''}\n", f"\n{fence}"
        if not (out.startswith(head) and out.endswith(tail)):
            return None
        out = out[len(head) : -len(tail)]
    if out == code or counter(out, model, config) > room:
        return None
    return out


def _units(text: str) -> list[str]:
    for pattern in (_PARAGRAPH, re.compile(r"\n"), _SENTENCE):
        parts = [p for p in pattern.split(text) if p.strip()]
        if len(parts) > 1:
            return parts
    return [text]


def trim_text(query: str, text: str, room: int, *, model: str | None, config: Config) -> str | None:
    """The most relevant paragraphs (else lines, else sentences) of ``text`` within ``room``.

    Whole units only, in their original order, joined by a blank line; ``None`` if
    no unit fits or nothing would be cut.
    """
    units = _units(text)
    if len(units) < 2:
        return None
    sizes = [ctxpress.count_tokens(u, model, config) for u in units]
    order = np.argsort(-(lexical_scores(query, units) + _prior(len(units), None) * 0.1))
    kept: list[int] = []
    used = 0
    for i in order.tolist():
        if used + sizes[i] + 2 <= room:
            kept.append(i)
            used += sizes[i] + 2
    if not kept or len(kept) == len(units):
        return None
    return "\n\n".join(units[i] for i in sorted(kept))


def fit_documents(
    query: str,
    texts: Sequence[str],
    budget: int,
    *,
    languages: Sequence[str | None] | None = None,
    scores: Sequence[float | None] | None = None,
    lexical_weight: float = 0.5,
    trim: bool = True,
    model: str | None = None,
    config: Config | None = None,
) -> list[Fitted]:
    """Choose and trim documents so their texts total at most ``budget`` tokens.

    ``scores`` are the retriever's (higher = more relevant; rank order when absent),
    ``languages`` mark code documents for the code stage. Returns the kept documents
    in input order.
    """
    config = config or Config()
    n = len(texts)
    langs = list(languages) if languages is not None else [None] * n
    sizes = [ctxpress.count_tokens(t, model, config) for t in texts]
    if sum(sizes) <= budget:
        return [Fitted(i, t, False, sizes[i], sizes[i]) for i, t in enumerate(texts)]
    relevance = (1 - lexical_weight) * _prior(n, scores)
    relevance = relevance + lexical_weight * lexical_scores(query, texts)
    room = budget
    kept: list[Fitted] = []
    for i in np.argsort(-relevance, kind="stable").tolist():
        if sizes[i] <= room:
            kept.append(Fitted(i, texts[i], False, sizes[i], sizes[i]))
            room -= sizes[i]
            continue
        if not trim or room < MIN_PIECE_TOKENS:
            continue
        is_code = langs[i] is not None or bool(_FENCE.search(texts[i]))
        cut = (
            trim_code(query, texts[i], langs[i], room, model=model, config=config)
            if is_code
            else None
        )
        if cut is None and langs[i] is None:
            cut = trim_text(query, texts[i], room, model=model, config=config)
        if cut is not None:
            size = ctxpress.count_tokens(cut, model, config)
            if size <= room:
                kept.append(Fitted(i, cut, True, sizes[i], size))
                room -= size
    return sorted(kept, key=lambda f: f.index)
