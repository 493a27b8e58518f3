"""OpenAI chat messages: validation and text access.

Messages stay plain dicts end to end: a kept message must be the caller's own
object, so nothing here copies or normalises. Validation is strict on the fields
whose shape compression relies on (role, content, tool pairing) and silent on
everything else, so engine-specific keys pass through untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Any

Message = dict[str, Any]

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
SYSTEM_ROLES = frozenset({"system", "developer"})
_PART_TYPES = {
    "system": {"text"},
    "developer": {"text"},
    "user": {"text", "image_url", "input_audio", "file"},
    "assistant": {"text", "refusal"},
    "tool": {"text"},
    "function": {"text"},
}


def _fail(index: int, field: str, problem: str) -> ValueError:
    return ValueError(f"messages[{index}].{field}: {problem}")


def _check_parts(i: int, role: str, parts: list[Any]) -> None:
    allowed = _PART_TYPES[role]
    for j, part in enumerate(parts):
        where = f"content[{j}]"
        if not isinstance(part, dict):
            raise _fail(i, where, "must be an object")
        kind = part.get("type")
        if not isinstance(kind, str) or kind not in allowed:
            raise _fail(i, f"{where}.type", f"{kind!r} is not allowed for role {role!r}")
        if kind == "text" and not isinstance(part.get("text"), str):
            raise _fail(i, f"{where}.text", "must be a string")
        if kind == "refusal" and not isinstance(part.get("refusal"), str):
            raise _fail(i, f"{where}.refusal", "must be a string")
        if kind == "image_url":
            image = part.get("image_url")
            if not isinstance(image, dict) or not isinstance(image.get("url"), str):
                raise _fail(i, f"{where}.image_url.url", "must be a string")


def _check_tool_calls(i: int, calls: Any) -> list[str]:
    if not isinstance(calls, list):
        raise _fail(i, "tool_calls", "must be a list")
    ids = []
    for j, call in enumerate(calls):
        where = f"tool_calls[{j}]"
        if not isinstance(call, dict):
            raise _fail(i, where, "must be an object")
        if not isinstance(call.get("id"), str):
            raise _fail(i, f"{where}.id", "must be a string")
        function = call.get("function")
        if not isinstance(function, dict):
            raise _fail(i, f"{where}.function", "must be an object")
        if not isinstance(function.get("name"), str):
            raise _fail(i, f"{where}.function.name", "must be a string")
        if not isinstance(function.get("arguments", ""), str):
            raise _fail(i, f"{where}.function.arguments", "must be a JSON string")
        ids.append(call["id"])
    return ids


def validate_messages(messages: Any) -> list[Message]:
    """Check an OpenAI ``messages`` array; raise ``ValueError`` naming index and field."""
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages: must be a non-empty list of message objects")
    open_calls: set[str] = set()
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict):
            raise ValueError(f"messages[{i}]: must be an object, got {type(msg).__name__}")
        role = msg.get("role")
        if not isinstance(role, str) or role not in ROLES:
            raise _fail(i, "role", f"{role!r} is not one of {', '.join(sorted(ROLES))}")
        if "name" in msg and not isinstance(msg["name"], str):
            raise _fail(i, "name", "must be a string")
        content = msg.get("content")
        may_be_empty = role == "assistant" and (
            msg.get("tool_calls") or msg.get("function_call") or "refusal" in msg
        )
        if content is None:
            if not (may_be_empty or role == "function"):
                raise _fail(i, "content", f"is required for role {role!r}")
        elif isinstance(content, list):
            _check_parts(i, role, content)
        elif not isinstance(content, str):
            raise _fail(i, "content", "must be a string or a list of content parts")
        if msg.get("tool_calls") is not None:  # text access reads them on any role
            ids = _check_tool_calls(i, msg["tool_calls"])
            if role == "assistant":
                open_calls.update(ids)
        if msg.get("function_call") is not None and not isinstance(msg["function_call"], dict):
            raise _fail(i, "function_call", "must be an object")
        if role == "tool":
            call_id = msg.get("tool_call_id")
            if not isinstance(call_id, str):
                raise _fail(i, "tool_call_id", "must be a string")
            if call_id not in open_calls:
                raise _fail(
                    i, "tool_call_id", f"{call_id!r} answers no earlier assistant tool call"
                )
        if role == "function" and not isinstance(msg.get("name"), str):
            raise _fail(i, "name", "is required for role 'function'")
    return messages


def content_text(content: Any) -> str:
    """The text a model reads from a ``content`` value (text and refusal parts)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    texts = []
    for part in content:
        if part.get("type") == "text":
            texts.append(part["text"])
        elif part.get("type") == "refusal":
            texts.append(part["refusal"])
    return "\n".join(texts)


def message_text(msg: Message) -> str:
    """All text of one message, tool-call names and arguments included."""
    text = content_text(msg.get("content"))
    calls = msg.get("tool_calls") or []
    if msg.get("function_call"):
        calls = [*calls, {"function": msg["function_call"]}]
    extra = [
        f"{c['function'].get('name', '')}({c['function'].get('arguments', '')})" for c in calls
    ]
    return "\n".join([text, *extra]) if extra else text


def count_parts(content: Any, kind: str) -> int:
    """How many content parts of ``kind`` (e.g. ``image_url``) a content value holds."""
    if not isinstance(content, list):
        return 0
    return sum(1 for part in content if isinstance(part, dict) and part.get("type") == kind)


def last_user_index(messages: Sequence[Message]) -> int | None:
    """Index of the last ``user`` message: the query that compression must serve."""
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].get("role") == "user":
            return i
    return None


def alternates(messages: Sequence[Message]) -> bool:
    """Whether the non-system turns strictly alternate user/assistant."""
    roles = [m["role"] for m in messages if m["role"] not in SYSTEM_ROLES]
    if any(r not in ("user", "assistant") for r in roles) or len(roles) < 2:
        return False
    return all(a != b for a, b in pairwise(roles))


def tool_groups(messages: Sequence[Message]) -> list[list[int]]:
    """Indices grouped so an assistant ``tool_calls`` message stays with its ``tool`` results.

    Every other message is a group of its own. Compression keeps or drops whole groups.
    """
    groups: list[list[int]] = []
    owner: dict[str, int] = {}
    for i, msg in enumerate(messages):
        if msg.get("role") == "tool" and msg.get("tool_call_id") in owner:
            groups[owner[msg["tool_call_id"]]].append(i)
            continue
        groups.append([i])
        for call in msg.get("tool_calls") or []:
            owner[call.get("id")] = len(groups) - 1
    return groups


def current_step(messages: Sequence[Message]) -> list[int]:
    """An agent's current step: the tool calls the model made since the last user message,
    whose results end the request (indices), or ``[]``. It is what the model must answer now."""
    groups = tool_groups(messages)
    last_user = last_user_index(messages)
    step = groups[-1] if groups else []
    if (
        len(step) > 1
        and step[-1] == len(messages) - 1
        and (last_user is None or step[0] > last_user)
    ):
        return step
    return []


def protected_indices(messages: Sequence[Message]) -> set[int]:
    """What compression never drops: system prompts, the last user message, and an agent's
    current step (dropped, the agent would only make the same calls again)."""
    last = last_user_index(messages)
    keep = {i for i, m in enumerate(messages) if m.get("role") in SYSTEM_ROLES}
    return keep | ({last} if last is not None else set()) | set(current_step(messages))
