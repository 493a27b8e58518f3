"""Relevance of earlier turns to the query: lexical (BM25), dense, recency, neighbours.

Each signal is put on a comparable 0..1 scale *within one conversation* before they
are mixed, because raw BM25 scores grow with the query length and cosine scores
depend on the embedder; only the order inside a conversation matters for selection.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

# Words are runs of letters/digits; scripts written without spaces (CJK, Thai, ...)
# are split into overlapping character bigrams, the usual trick for BM25 on them.
_WORD = re.compile(r"\w+", re.UNICODE)
_NO_SPACE_SCRIPTS = re.compile(
    r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
# A short English stop list: the queries are questions, whose function words
# ("what", "did", "the") would otherwise match every turn.
_STOP_TEXT = """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t d ll m re ve"""
_STOPWORDS = frozenset(_STOP_TEXT.split())


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """Snowball English stemmer when PyStemmer is installed, else none (exact words)."""
    try:
        import Stemmer
    except ImportError:  # pragma: no cover - depends on the install
        return None
    return Stemmer.Stemmer("english")


@lru_cache(maxsize=65536)
def analyze(text: str) -> tuple[str, ...]:
    """Lower-cased, stemmed word tokens without stop words; CJK-like runs as bigrams.

    Memoised like token counts: a conversation's turns are analysed once per process.
    """
    words: list[str] = []
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        if _NO_SPACE_SCRIPTS.search(word):
            chars = [c for c in word if not c.isspace()]
            words.extend(chars if len(chars) < 2 else [a + b for a, b in itertools.pairwise(chars)])
        elif word not in _STOPWORDS:
            words.append(word)
    stemmer = _stemmer()
    return tuple(stemmer.stemWords(words) if stemmer is not None and words else words)


def bm25_scores(query: str, docs: Sequence[str]) -> FloatArray:
    """BM25 (Lucene variant, via bm25s) of every doc against ``query``; zeros if no overlap."""
    if not docs:
        return np.zeros(0, dtype=np.float32)
    query_tokens = list(dict.fromkeys(analyze(query)))
    if not query_tokens:
        return np.zeros(len(docs), dtype=np.float32)
    import bm25s

    retriever = bm25s.BM25()
    retriever.index([list(analyze(d)) for d in docs], show_progress=False)
    vocab = retriever.vocab_dict
    known = [t for t in query_tokens if t in vocab]
    if not known:
        return np.zeros(len(docs), dtype=np.float32)
    return np.asarray(retriever.get_scores(known), dtype=np.float32)


def scale(scores: FloatArray) -> FloatArray:
    """Map to 0..1 by the conversation's own range (max → 1, min → 0); flat → zeros."""
    if scores.size == 0:
        return scores
    low, high = float(scores.min()), float(scores.max())
    if high - low < 1e-9:
        return np.zeros_like(scores)
    return ((scores - low) / (high - low)).astype(np.float32)


def dense_scores(query_vec: FloatArray, doc_vecs: FloatArray) -> FloatArray:
    """Cosine similarity of unit-normalised vectors."""
    if doc_vecs.size == 0:
        return np.zeros(len(doc_vecs), dtype=np.float32)
    return np.asarray(doc_vecs @ query_vec, dtype=np.float32)


def recency_scores(n: int, half_life: float) -> FloatArray:
    """1 for the newest unit, halving every ``half_life`` units back."""
    if n == 0:
        return np.zeros(0, dtype=np.float32)
    age = np.arange(n - 1, -1, -1, dtype=np.float32)
    return np.asarray(0.5 ** (age / max(half_life, 1e-6)), dtype=np.float32)


def spread_to_neighbours(scores: FloatArray, weight: float) -> FloatArray:
    """Let each unit inherit ``weight`` × the better score of its two neighbours.

    An answer usually sits right after the turn that matches the question (and a
    question right before the answer that matches), so a strong match lifts both.
    """
    if scores.size < 2 or weight <= 0:
        return scores
    left = np.concatenate([[0.0], scores[:-1]])
    right = np.concatenate([scores[1:], [0.0]])
    spread = np.maximum(scores, weight * np.maximum(left, right))
    return np.asarray(spread, dtype=np.float32)


def topic_context(scores: FloatArray, radius: int, weight: float) -> FloatArray:
    """``weight`` × the mean score of the ``radius`` units on each side (zeros past the ends).

    Conversations stay on one topic for a stretch of turns; a turn inside a relevant
    stretch is more likely needed than an isolated one with the same score.
    """
    if scores.size == 0 or radius <= 0 or weight <= 0:
        return np.zeros_like(scores)
    kernel = np.full(2 * radius + 1, 1.0 / (2 * radius + 1), dtype=np.float32)
    window = np.convolve(scores, kernel, mode="same")[: scores.size]
    return np.asarray(weight * window, dtype=np.float32)
