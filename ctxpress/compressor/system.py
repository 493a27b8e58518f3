"""System prompts in one canonical form, with repeated instructions removed.

Engines reuse cached KV blocks only for byte-identical prefixes. Two clients whose
system prompts differ by a trailing space or a Windows line ending should share
one cache entry, so every system prompt is rewritten to a canonical form. The
rewrite keeps the meaning: only whitespace and exact repeats change.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ctxpress.compressor.pipeline import Context
from ctxpress.config import Config
from ctxpress.messages import SYSTEM_ROLES, Message

_BLANK_RUNS = re.compile(r"\n{3,}")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Content that changes from request to request and so ends the cacheable prefix where it sits.
VOLATILE = {
    "uuid": re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
    "date": re.compile(
        rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b"
        rf"|\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}\b|\b\d{{1,2}} {_MONTH},? \d{{4}}\b",
        re.I,
    ),
    "time": re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:\s?[ap]\.?m\.?)?\b", re.I),
}
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


def volatile_kinds(text: str) -> Counter[str]:
    """How many dates, times and UUIDs a prompt holds (each ends the cacheable prefix)."""
    return Counter({kind: n for kind, rx in VOLATILE.items() if (n := len(rx.findall(text)))})


def hoist_volatile(text: str) -> str:
    """Move the lines holding volatile content below the static ones, order otherwise kept.

    The static part then forms a prefix that is identical on every request.
    """
    lines = text.split("\n")
    moving = [any(rx.search(line) for rx in VOLATILE.values()) for line in lines]
    if not any(moving) or all(moving):
        return text
    static = [line for line, m in zip(lines, moving, strict=True) if not m]
    tail = [line for line, m in zip(lines, moving, strict=True) if m]
    return canonicalize("\n".join(static)) + "\n\n" + "\n".join(tail)


class SystemStage:
    """Canonicalise every system/developer prompt and drop repeated instructions."""

    name = "system"

    def __init__(self, config: Config) -> None:
        self.dedup = config.system_dedup
        self.hoist = config.system_hoist_volatile
        self.volatile: Counter[str] = Counter()

    def _rewrite(self, text: str) -> tuple[str, int]:
        text, removed = dedup_lines(canonicalize(text)) if self.dedup else (canonicalize(text), 0)
        kinds = volatile_kinds(text)
        self.volatile.update(kinds)
        return (hoist_volatile(text) if self.hoist and kinds else text), removed

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        self.volatile = Counter()
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
        if self.volatile:
            found = ", ".join(f"{n} {kind}" for kind, n in sorted(self.volatile.items()))
            action = "hoisted below the static part" if self.hoist else "ends the cacheable prefix"
            ctx.note(f"volatile content in system prompt ({found}): {action}")
        return out
