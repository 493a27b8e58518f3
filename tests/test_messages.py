"""Every OpenAI chat message shape is accepted; invalid ones name index and field."""

from __future__ import annotations

from typing import Any

import pytest

import ctxpress
from ctxpress.messages import alternates, message_text, tool_groups, validate_messages

ALL_SHAPES: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "developer", "content": [{"type": "text", "text": "Use metric units."}]},
    {"role": "user", "content": "hello", "name": "ana"},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "What is in this picture?"},
            {
                "type": "image_url",
                "image_url": {"url": "https://example.com/a.png", "detail": "low"},
            },
        ],
    },
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "look", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "see", "arguments": '{"x":1}'}},
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "a cat"},
    {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "on a mat"}]},
    {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
    {"role": "function", "name": "f", "content": "42"},
    {"role": "assistant", "content": [{"type": "text", "text": "A cat."}], "refusal": None},
    {"role": "user", "content": "Thanks!", "x-vendor-field": {"kept": True}},
]


def test_every_shape_validates_and_compresses_unchanged() -> None:
    result = ctxpress.compress(ALL_SHAPES)
    assert result.messages == ALL_SHAPES
    # Nothing to compress: every message is the caller's own object.
    assert all(a is b for a, b in zip(result.messages, ALL_SHAPES, strict=True))
    assert result.tokens_before == result.tokens_after > 0


@pytest.mark.parametrize(
    ("messages", "where"),
    [
        ([], "messages"),
        ("not a list", "messages"),
        ([42], "messages[0]"),
        ([{"content": "x"}], "messages[0].role"),
        ([{"role": "robot", "content": "x"}], "messages[0].role"),
        ([{"role": "user"}], "messages[0].content"),
        ([{"role": "user", "content": 7}], "messages[0].content"),
        ([{"role": "user", "content": "a", "name": 3}], "messages[0].name"),
        ([{"role": "user", "content": [{"type": "text"}]}], "messages[0].content[0].text"),
        (
            [{"role": "system", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}],
            "messages[0].content[0].type",
        ),
        ([{"role": "user", "content": [{"type": "image_url"}]}], "content[0].image_url.url"),
        (
            [
                {"role": "user", "content": "q"},
                {"role": "tool", "tool_call_id": "zz", "content": "r"},
            ],
            "messages[1].tool_call_id",
        ),
        (
            [{"role": "assistant", "content": None, "tool_calls": [{"id": "a", "function": {}}]}],
            "messages[0].tool_calls[0].function.name",
        ),
        ([{"role": "function", "content": "x"}], "messages[0].name"),
    ],
)
def test_invalid_messages_name_index_and_field(messages: Any, where: str) -> None:
    with pytest.raises(ValueError, match=where.replace("[", r"\[").replace("]", r"\]")):
        ctxpress.compress(messages)


def test_text_access_includes_parts_and_tool_calls() -> None:
    assert message_text(ALL_SHAPES[3]) == "What is in this picture?"
    assert "look({})" in message_text(ALL_SHAPES[4])
    assert message_text(ALL_SHAPES[7]) == "\nf({})"


def test_tool_calls_and_results_group_together() -> None:
    validate_messages(ALL_SHAPES)
    groups = tool_groups(ALL_SHAPES)
    assert [4, 5, 6] in groups
    assert sorted(i for g in groups for i in g) == list(range(len(ALL_SHAPES)))


def test_alternation_ignores_system_messages() -> None:
    chat = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "user", "content": "c"},
    ]
    assert alternates(chat)
    assert not alternates([*chat, {"role": "user", "content": "d"}])
