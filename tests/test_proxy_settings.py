"""Proxy settings: CTXPRESS_UPSTREAM alone, TOML and YAML files, env over file, flags over env."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from ctxpress.middleware.settings import ProxySettings, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CTXPRESS_UPSTREAM", "CTXPRESS_CONFIG", "CTXPRESS_PORT", "CTXPRESS_API_KEYS"):
        monkeypatch.delenv(name, raising=False)


def test_upstream_variable_alone_is_a_full_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTXPRESS_UPSTREAM", "http://127.0.0.1:8000/v1/")
    settings = load_settings()
    [group] = settings.groups
    assert group.name == "default" and group.urls == ["http://127.0.0.1:8000/v1"]
    assert group.models == []  # learnt from /v1/models
    assert (settings.host, settings.port) == ("127.0.0.1", 8080)


TOML = """
port = 9000
api_keys = ["k1"]
[aliases]
fast = "llama-8b"
[routes.auto]
small = "llama-8b"
large = "llama-70b"
threshold = 0.4
[compression]
budget = 3000
[[upstreams]]
name = "small"
urls = ["http://a:8000/v1", "http://b:8000/v1"]
max_concurrency = 32
[[upstreams]]
name = "large"
url = "http://c:8000/v1"
models = ["llama-70b"]
api_key_env = "LARGE_KEY"
"""

YAML = """
port: 9000
upstreams:
  - name: small
    urls: [http://a:8000/v1]
"""


def test_toml_file_env_override_and_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ctxpress.toml"
    path.write_text(TOML)
    settings = load_settings(path)
    assert settings.port == 9000
    assert [g.name for g in settings.groups] == ["small", "large"]
    assert settings.groups[1].urls == ["http://c:8000/v1"]
    assert settings.routes["auto"].threshold == 0.4
    assert settings.compressor_config().budget == 3000
    monkeypatch.setenv("CTXPRESS_PORT", "9100")
    monkeypatch.setenv("CTXPRESS_API_KEYS", "a,b")
    monkeypatch.setenv("CTXPRESS_CONFIG", str(path))
    from_env = load_settings()
    assert from_env.port == 9100 and from_env.api_keys == ["a", "b"]
    assert load_settings(port=9200).port == 9200


def test_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "ctxpress.yaml"
    path.write_text(YAML)
    assert load_settings(path).groups[0].urls == ["http://a:8000/v1"]


def test_invalid_upstream_url(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[upstreams]]\nname = "x"\nurls = ["ftp://x"]\n')
    with pytest.raises(ValidationError, match="http"):
        load_settings(path)


def test_proxy_defaults_to_cache_aligned_history(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CTXPRESS_HISTORY_MODE", raising=False)
    base = {"upstream": ["http://127.0.0.1:9/v1"]}
    assert ProxySettings(**base).compressor_config().history_mode == "aligned"
    file_says = {**base, "compression_settings": {"history_mode": "relevance"}}
    assert ProxySettings(**file_says).compressor_config().history_mode == "relevance"
    monkeypatch.setenv("CTXPRESS_HISTORY_MODE", "relevance")
    assert ProxySettings(**base).compressor_config().history_mode == "relevance"


def test_no_upstream_configured_means_a_local_engine_on_port_8000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("CTXPRESS_UPSTREAM", "CTXPRESS_UPSTREAMS", "CTXPRESS_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    groups = load_settings().groups
    assert [(g.name, g.urls) for g in groups] == [("default", ["http://127.0.0.1:8000/v1"])]
