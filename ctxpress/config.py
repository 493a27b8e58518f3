"""Configuration: one pydantic-settings model, read from ``CTXPRESS_*`` variables.

Nested values use JSON in the variable (``CTXPRESS_TOKENIZERS='{"my-llama": "/models/tok"}'``).
The proxy adds a config file on top (see ``middleware``); compression reads only this.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_STAGES = ("system",)


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

    # --- store ---------------------------------------------------------------------
    redis_url: str | None = Field(
        default=None, description="Redis for the shared store (None: in-memory, one process)."
    )
    namespace: str = Field(default="ctxpress", description="Prefix of every store key.")
