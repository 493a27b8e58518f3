"""The pipeline's contract: stages run in order, are timed and reported, and fail open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import ctxpress
from ctxpress.compressor import STAGES, Context
from ctxpress.config import Config

CHAT: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief.\r\n\r\n\r\n\r\nUse SI units.   "},
    {"role": "user", "content": "How far is the moon?"},
    {"role": "assistant", "content": "About 384,400 km."},
    {"role": "user", "content": "And the sun?"},
]


class Boom:
    name = "boom"

    def __init__(self, config: Config) -> None:
        pass

    def run(self, messages: list[dict[str, Any]], ctx: Context) -> list[dict[str, Any]]:
        raise RuntimeError("kaput")


class DropLastUser:
    """A buggy stage that loses the protected last user message."""

    name = "drop-last-user"

    def __init__(self, config: Config) -> None:
        pass

    def run(self, messages: list[dict[str, Any]], ctx: Context) -> list[dict[str, Any]]:
        return messages[:-1]


class Garbage:
    name = "garbage"

    def __init__(self, config: Config) -> None:
        pass

    def run(self, messages: list[dict[str, Any]], ctx: Context) -> list[dict[str, Any]]:
        return [*messages, {"role": "nobody"}]


@pytest.fixture
def faulty_stages() -> Iterator[None]:
    STAGES.update({"boom": Boom, "drop-last-user": DropLastUser, "garbage": Garbage})
    yield
    for name in ("boom", "drop-last-user", "garbage"):
        STAGES.pop(name)


@pytest.mark.usefixtures("faulty_stages")
@pytest.mark.parametrize("bad", ["boom", "drop-last-user", "garbage"])
def test_failing_stage_is_skipped_and_reported(bad: str) -> None:
    result = ctxpress.compress(CHAT, stages=[bad, "system"])
    assert result.fail_open
    failed, system = result.stages
    assert failed.name == bad and failed.error
    assert failed.tokens_before == failed.tokens_after == result.tokens_before
    assert system.error is None
    # The stage after the failure still ran on the untouched input.
    assert result.messages[0]["content"] == "Be brief.\n\nUse SI units."
    assert result.messages[1:] == CHAT[1:]


def test_report_times_and_counts_every_stage() -> None:
    result = ctxpress.compress(CHAT)
    assert [s.name for s in result.stages] == list(Config().stages)
    assert result.stages[0].tokens_before == result.tokens_before
    assert result.stages[-1].tokens_after == result.tokens_after
    assert all(s.ms >= 0 for s in result.stages)
    assert result.tokens_after == ctxpress.count_tokens(result.messages)
    assert not result.fail_open


def test_input_is_never_mutated() -> None:
    before = repr(CHAT)
    ctxpress.compress(CHAT, budget=5)
    assert repr(CHAT) == before


def test_budget_comes_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CTXPRESS_BUDGET", "7")
    assert ctxpress.compress(CHAT).budget == 7
    assert ctxpress.compress(CHAT, budget=9).budget == 9


@pytest.mark.parametrize("budget", [0, -3, 2.5, "100"])
def test_bad_budget_is_rejected(budget: Any) -> None:
    with pytest.raises(ValueError, match="budget"):
        ctxpress.compress(CHAT, budget=budget)


def test_unknown_stage_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown stage"):
        ctxpress.compress(CHAT, stages=["nope"])


def test_stage_that_cannot_be_built_fails_open() -> None:
    def missing_dependency(config: Config) -> Boom:
        raise ImportError("No module named 'tree_sitter'")

    STAGES["needs-extra"] = missing_dependency
    try:
        result = ctxpress.compress(CHAT, stages=["needs-extra", "system"])
    finally:
        STAGES.pop("needs-extra")
    assert result.stages[0].error == "ImportError: No module named 'tree_sitter'"
    assert result.stages[1].error is None
    assert result.messages[1:] == CHAT[1:]
