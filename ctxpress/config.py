"""Configuration: one pydantic-settings model, read from ``CTXPRESS_*`` variables.

Nested values use JSON in the variable (``CTXPRESS_TOKENIZERS='{"my-llama": "/models/tok"}'``).
The proxy adds a config file on top (see ``middleware``); compression reads only this.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_STAGES = ("system", "logs", "code", "history", "logs")


class Config(BaseSettings):
    """Every knob of ctxpress; defaults are what the benchmarks in the README measured."""

    model_config = SettingsConfigDict(env_prefix="CTXPRESS_", extra="ignore", frozen=True)

    # --- compression --------------------------------------------------------------
    budget: int | None = Field(
        default=None, ge=1, description="Max prompt tokens after compression (None: model context)."
    )
    stages: tuple[str, ...] = Field(default=DEFAULT_STAGES, description="Stages to run, in order.")
    encoding: str = Field(default="o200k_base", description="tiktoken encoding for token counts.")
    tokenizers: dict[str, str] = Field(
        default_factory=dict,
        description="Model name -> local Hugging Face tokenizer path, for exact counts.",
    )
    system_dedup: bool = Field(
        default=True, description="Drop exact repeats of an instruction inside one system prompt."
    )
    system_hoist_volatile: bool = Field(
        default=False,
        description="Move system-prompt lines with dates, times, UUIDs below the static lines.",
    )

    # --- code ---------------------------------------------------------------------
    code_min_tokens: int = Field(
        default=150, ge=1, description="Code blocks smaller than this are never trimmed."
    )
    code_whole_files: bool = Field(
        default=True,
        description="Also trim messages (not the last user one) that are a whole source file.",
    )

    # --- history --------------------------------------------------------------------
    history_embedder: Literal["static", "minilm", "none"] = Field(
        default="static",
        description="Dense scorer: distilled static model (fast), MiniLM, or none (BM25 only).",
    )
    history_keep_recent: int = Field(
        default=4, ge=0, description="Newest turns (or tool-call groups) always kept verbatim."
    )
    history_dense_weight: float = Field(
        default=0.5, ge=0, le=1, description="Dense share of relevance; the rest is BM25."
    )
    history_neighbour_weight: float = Field(
        default=0.7, ge=0, le=1, description="Share of a neighbour's relevance a turn inherits."
    )
    history_context_weight: float = Field(
        default=0.5, ge=0, description="Weight of the mean relevance of the turns around a turn."
    )
    history_context_radius: int = Field(
        default=2, ge=0, description="Turns on each side that count as a turn's context."
    )
    history_recency_weight: float = Field(
        default=0.05, ge=0, description="Bonus for the newest turn, halving every half-life."
    )
    history_recency_half_life: float = Field(
        default=20.0, gt=0, description="Recency half-life in turns."
    )
    history_markers: bool = Field(
        default=True, description="Replace each dropped run by an '[N ... omitted]' message."
    )
    history_cache_ttl: float | None = Field(
        default=7 * 24 * 3600.0, description="Seconds cached turn embeddings live (None: no TTL)."
    )

    # --- history: cache-aligned mode (prefix caching) -------------------------------------
    history_mode: Literal["relevance", "aligned"] = Field(
        default="relevance",
        description="'aligned' keeps older history in frozen blocks so engine prefix caches hit.",
    )
    # Defaults measured with benchmarks/prefix_replay.py (LoCoMo replay, budget 2048).
    history_block_tokens: int = Field(
        default=704,
        ge=16,
        description="Aligned mode: history frozen per step; larger = rarer cache breaks, "
        "smaller = more recent turns kept raw.",
    )
    history_tail_share: float = Field(
        default=0.95,
        gt=0,
        lt=1,
        description="Aligned mode: most of the budget the raw recent tail may use.",
    )
    history_frozen_share: float = Field(
        default=0.05, ge=0, lt=1, description="Aligned mode: budget share of condensed history."
    )
    history_recall_share: float = Field(
        default=0.2, ge=0, lt=1, description="Aligned mode: at most this share for recalled turns."
    )
    history_recall_min_score: float = Field(
        default=0.8,
        ge=0,
        le=1,
        description="Aligned mode: recall only turns scoring at least this share of the best.",
    )
    history_recall_vs_shown: float = Field(
        default=0.9,
        ge=0,
        description="Aligned mode: recall only turns scoring at least this share of the best "
        "turn already in the prompt (an older turn must beat what the prompt has).",
    )

    # --- store ---------------------------------------------------------------------
    redis_url: str | None = Field(
        default=None, description="Redis for the shared store (None: in-memory, one process)."
    )
    namespace: str = Field(default="ctxpress", description="Prefix of every store key.")
