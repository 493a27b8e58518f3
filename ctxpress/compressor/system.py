"""System prompts in one canonical form, with repeated instructions removed.

Engines reuse cached KV blocks only for byte-identical prefixes. Two clients whose
system prompts differ by a trailing space or a Windows line ending should share
one cache entry, so every system prompt is rewritten to a canonical form. The
rewrite keeps the meaning: only whitespace and exact repeats change.
"""

from __future__ import annotations

import re
from typing import Any

from ctxpress.compressor.pipeline import Context
from ctxpress.config import Config
from ctxpress.messages import SYSTEM_ROLES, Message

_BLANK_RUNS = re.compile(r"\n{3,}")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A line counts as an instruction worth deduplicating only if it says something:
# short lines (list bullets, separators, table rows, braces) repeat legitimately.
_MIN_WORDS, _MIN_CHARS = 3, 20


def canonicalize(text: str) -> str:
    """``\\r\\n`` to ``\\n``, no trailing spaces, at most one blank line in a row."""
    text = "\n".join(line.rstrip(" \t") for line in text.replace("\r\n", "\n").split("\n"))
    return _BLANK_RUNS.sub("\n\n", text).strip("\n")


def _is_instruction(line: str) -> bool:
    stripped = line.strip()
    return (
        len(stripped) >= _MIN_CHARS
        and len(stripped.split()) >= _MIN_WORDS
        and not stripped.startswith("|")
    )


def dedup_lines(text: str) -> tuple[str, int]:
    """Drop later exact repeats of instruction lines outside code fences; return (text, removed)."""
    seen: set[str] = set()
    kept: list[str] = []
    fence: str | None = None
    removed = 0
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif (
                marker[0] == fence[0]
                and len(marker) >= len(fence)
                and not line.strip()[len(marker) :]
            ):
                fence = None
        elif fence is None and _is_instruction(line):
            if line.strip() in seen:
                removed += 1
                continue
            seen.add(line.strip())
        kept.append(line)
    return (canonicalize("\n".join(kept)) if removed else text), removed


class SystemStage:
    """Canonicalise every system/developer prompt and drop repeated instructions."""

    name = "system"

    def __init__(self, config: Config) -> None:
        self.dedup = config.system_dedup

    def _rewrite(self, text: str) -> tuple[str, int]:
        canonical = canonicalize(text)
        return dedup_lines(canonical) if self.dedup else (canonical, 0)

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        out: list[Message] = []
        changed = removed = 0
        for msg in messages:
            content: Any = msg.get("content")
            if msg.get("role") not in SYSTEM_ROLES or content is None:
                out.append(msg)
                continue
            new_content: str | list[Any]
            if isinstance(content, str):
                new_content, n = self._rewrite(content)
            else:
                parts = []
                n = 0
                for part in content:
                    if part.get("type") == "text":
                        text, k = self._rewrite(part["text"])
                        n += k
                        part = part if text == part["text"] else {**part, "text": text}
                    parts.append(part)
                new_content = parts
            if new_content != content:
                changed += 1
                removed += n
                msg = {**msg, "content": new_content}
            out.append(msg)
        if changed:
            ctx.note(
                f"canonicalised {changed} system prompt(s), removed {removed} repeated line(s)"
            )
        return out
