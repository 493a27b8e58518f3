"""CommonMark fenced code blocks, found without a Markdown library.

Only what the code stage needs: where each fenced block's code starts and ends in the
message text, and its info string. The rules are CommonMark's (section 4.5): an opening
fence is three or more backticks or tildes indented by at most three spaces (counted
from the content column of the list item it is in, if any); a backtick
fence's info string holds no backtick; the closing fence uses the same character, is at
least as long, and carries nothing but spaces after it; an unclosed fence runs to the
end of the text. Code between the fences is never touched by this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"^( *)(`{3,}|~{3,})(.*)$")
_CLOSE = re.compile(r"^( *)(`{3,}|~{3,})[ \t]*$")
# A list item's marker: its content starts after the marker and 1-4 spaces
_ITEM = re.compile(r"^( *)([-+*]|\d{1,9}[.)])( {1,4})\S")


@dataclass(frozen=True)
class Fence:
    """One fenced block: ``text[code_start:code_end]`` is its code, verbatim."""

    start: int  # offset of the opening fence line
    end: int  # offset just past the closing fence line (or the text's end)
    code_start: int
    code_end: int
    marker: str  # the opening fence, e.g. "````"
    info: str  # the info string, stripped
    indent: int  # spaces before the opening fence (CommonMark strips these from code lines)
    closed: bool

    @property
    def tag(self) -> str:
        """First word of the info string (the language tag), lower-cased; ``{.py}`` unwrapped,
        rustdoc's attributes after a comma (``rust,ignore``) left off."""
        word = self.info.split(maxsplit=1)[0] if self.info else ""
        return word.strip("{}").lstrip(".").split(",")[0].lower()


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its line ending) for every line of ``text``."""
    out = []
    pos = 0
    for line in text.splitlines(keepends=True):
        out.append((pos, line.rstrip("\r\n")))
        pos += len(line)
    return out


def find_fences(text: str) -> list[Fence]:
    """Every fenced code block of ``text`` in order (CommonMark rules, top level only)."""
    fences: list[Fence] = []
    lines = _lines(text)
    items: list[int] = []  # content columns of the list items the line is in
    i = 0
    while i < len(lines):
        offset, line = lines[i]
        if line.strip():
            spaces = len(line) - len(line.lstrip(" "))
            while items and items[-1] > spaces:
                items.pop()
            item = _ITEM.match(line)
            if item:
                items.append(len(item.group(1)) + len(item.group(2)) + len(item.group(3)))
        # a fence opens up to three spaces past the content column of its list item
        base = items[-1] if items else 0
        m = _OPEN.match(line)
        if (
            not m
            or (len(m.group(1)) > 3 and not base <= len(m.group(1)) <= base + 3)
            or (m.group(2)[0] == "`" and "`" in m.group(3))
        ):
            i += 1
            continue
        indent, marker, info = len(m.group(1)), m.group(2), m.group(3).strip()
        limit = base + 3 if indent > 3 else 3
        code_start = lines[i + 1][0] if i + 1 < len(lines) else len(text)
        j = i + 1
        while j < len(lines):
            c = _CLOSE.match(lines[j][1])
            if (
                c
                and len(c.group(1)) <= limit
                and c.group(2)[0] == marker[0]
                and len(c.group(2)) >= len(marker)
            ):
                break
            j += 1
        if j < len(lines):
            code_end = lines[j][0]
            end = lines[j + 1][0] if j + 1 < len(lines) else len(text)
            closed = True
        else:
            code_end = end = len(text)
            closed = False
        fences.append(Fence(offset, end, code_start, code_end, marker, info, indent, closed))
        i = j + 1
    return fences


def outside_fences(text: str, fences: list[Fence] | None = None) -> str:
    """The text with every fenced block's code removed (the prose the focal symbols come from)."""
    fences = find_fences(text) if fences is None else fences
    parts, pos = [], 0
    for f in fences:
        parts.append(text[pos : f.code_start])
        pos = f.code_end
    parts.append(text[pos:])
    return "".join(parts)
