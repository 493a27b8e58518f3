"""Proxy settings: one TOML or YAML file plus ``CTXPRESS_*`` environment variables.

Environment variables win over the file, so a deployment can override one knob
without editing it. ``CTXPRESS_UPSTREAM=http://127.0.0.1:8000/v1`` alone is a
complete configuration: one group named ``default`` whose models are learnt from
its ``/v1/models``. Compression knobs stay in :class:`ctxpress.config.Config`
(the file's ``[compression]`` table feeds it), so the compressor never imports this.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

from ctxpress.config import Config

DEFAULT_UPSTREAM = "http://127.0.0.1:8000/v1"


def _split(value: Any) -> Any:
    """Accept ``"a,b"`` as well as a list: environment variables are flat strings."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


class UpstreamGroup(BaseModel):
    """Replicas that serve the same models; requests pick the least busy healthy one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    urls: Annotated[list[str], Field(min_length=1)]
    models: list[str] = Field(
        default_factory=list,
        description="Models this group serves; empty = learn them from /v1/models; '*' = any.",
    )
    api_key_env: str | None = Field(
        default=None, description="Environment variable holding the upstream API key."
    )
    forward_authorization: bool = Field(
        default=True, description="Forward the client's Authorization header (if no key is set)."
    )
    max_concurrency: int = Field(default=256, ge=1, description="In-flight requests per replica.")

    _split_urls = field_validator("urls", "models", mode="before")(_split)

    @field_validator("urls")
    @classmethod
    def _strip(cls, urls: list[str]) -> list[str]:
        for url in urls:
            if not url.startswith(("http://", "https://")):
                raise ValueError(f"{url!r} is not an http(s) URL")
        return [url.rstrip("/") for url in urls]


class DifficultyRoute(BaseModel):
    """An alias (e.g. ``auto``) that sends easy requests to ``small`` and hard ones to ``large``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    small: str
    large: str
    threshold: float = Field(default=0.5, description="Score at or above which a request is hard.")


class ProxySettings(BaseSettings):
    """Everything ``ctxpress serve`` reads; see the README's config file reference."""

    model_config = SettingsConfigDict(env_prefix="CTXPRESS_", extra="ignore", frozen=True)

    host: str = "127.0.0.1"
    port: int = 8080
    upstream: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Shorthand: replica URLs of the group 'default'."
    )
    upstream_api_key_env: str | None = Field(
        default=None, description="Env variable with the key for the 'default' group."
    )
    upstreams: list[UpstreamGroup] = Field(default_factory=list)
    aliases: dict[str, str] = Field(default_factory=dict, description="Model alias -> model.")
    routes: dict[str, DifficultyRoute] = Field(
        default_factory=dict, description="Difficulty-routing aliases, e.g. 'auto'."
    )
    api_keys: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Proxy API keys; empty = no authentication."
    )
    compression: bool = Field(default=True, description="Compress chat requests by default.")
    max_body_bytes: int = Field(default=32 * 2**20, ge=1024)
    connect_timeout: float = Field(default=5.0, gt=0)
    first_byte_timeout: float = Field(default=600.0, gt=0)
    idle_timeout: float = Field(default=120.0, gt=0)
    retries: int = Field(default=2, ge=0, description="Other replicas tried on connect failure.")
    health_interval: float = Field(default=5.0, gt=0)
    queue_size: int = Field(default=1024, ge=0, description="Waiting requests per group.")
    batch_reserve: int = Field(
        default=1, ge=0, description="Slots per replica that batch requests may never take."
    )
    inline_compress_bytes: int = Field(
        default=4096,
        ge=0,
        description="Bodies up to this size compress on the event loop (a thread hop costs more).",
    )
    drain_timeout: float = Field(default=30.0, ge=0, description="SIGTERM: wait for streams.")
    affinity: bool = Field(
        default=True, description="Route by (model, system prompt) to the same replica."
    )
    affinity_epsilon: float = Field(
        default=0.25, ge=0, description="Skip a replica over (1+epsilon) x the mean in-flight."
    )
    warmup: bool = Field(default=True, description="Warm new and hot prefixes on every replica.")
    warmup_rate: float = Field(default=4.0, gt=0, description="Warm-up requests per second.")
    warmup_rewarm: float = Field(
        default=300.0, gt=0, description="Seconds after which a hot prefix is warmed again."
    )
    warmup_min_tokens: int = Field(
        default=64, ge=0, description="Shorter system prompts are not worth a warm-up."
    )
    access_log: bool = True
    max_connections: int = Field(default=1000, ge=1)
    compression_settings: dict[str, Any] = Field(
        default_factory=dict, description="The file's [compression] table (ctxpress.Config)."
    )

    _split_lists = field_validator("upstream", "api_keys", mode="before")(_split)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment overrides the file (passed as init kwargs).
        return (env_settings, init_settings)

    @model_validator(mode="after")
    def _check(self) -> ProxySettings:
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names):
            raise ValueError(f"upstream group names must be unique: {names}")
        return self

    @property
    def groups(self) -> list[UpstreamGroup]:
        """Configured groups, plus ``default`` from ``CTXPRESS_UPSTREAM``."""
        groups = list(self.upstreams)
        if self.upstream and not any(g.name == "default" for g in groups):
            groups.append(
                UpstreamGroup(
                    name="default", urls=self.upstream, api_key_env=self.upstream_api_key_env
                )
            )
        return groups

    def compressor_config(self) -> Config:
        """The file's ``[compression]`` table over ``CTXPRESS_*``; history defaults to the
        cache-aligned mode here, since the proxy sits in front of an engine's prefix cache."""
        settings = dict(self.compression_settings)
        if "history_mode" not in settings and "CTXPRESS_HISTORY_MODE" not in os.environ:
            settings["history_mode"] = "aligned"
        return Config(**settings)


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Parse a TOML (``.toml``) or YAML (``.yaml``/``.yml``) config file into a dict."""
    path = Path(path)
    text = path.read_text("utf-8")
    if path.suffix in (".yaml", ".yml"):
        import yaml

        data = yaml.safe_load(text) or {}
    else:
        data = tomllib.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the top level must be a table/mapping")
    return data


def load_settings(config_file: str | Path | None = None, **overrides: Any) -> ProxySettings:
    """Build settings from the file (``CTXPRESS_CONFIG`` if none given), env, then overrides.

    ``overrides`` (command-line flags) win over both; ``None`` values are ignored.
    """
    path = config_file or os.environ.get("CTXPRESS_CONFIG")
    data = read_config_file(path) if path else {}
    if "compression" in data and isinstance(data["compression"], dict):
        data["compression_settings"] = data.pop("compression")
    for group in data.get("upstreams", []) or []:
        if isinstance(group, dict) and "url" in group and "urls" not in group:
            group["urls"] = [group.pop("url")]
    settings = ProxySettings(**data)
    extra = {k: v for k, v in overrides.items() if v is not None}
    if extra:
        settings = settings.model_copy(update=extra)
    if not settings.groups:  # a local engine on vLLM's default port
        settings = settings.model_copy(update={"upstream": [DEFAULT_UPSTREAM]})
    return settings
