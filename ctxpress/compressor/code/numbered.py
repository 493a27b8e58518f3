"""Source listings with line numbers: what `cat -n` and coding agents' file-reading tools
return (`     1\timport os`, `     1→import os`, `12: x = 1`).

The numbers are taken off so the code parses, and put back on the kept lines after
trimming, so every kept line is still byte-identical and still says where it is in the
file; an elision has no number (the gap in the numbers shows what was left out).
"""

from __future__ import annotations

import bisect
import re

# a row's number and the separator after it; the code follows
_ROW = re.compile(r" *\d{1,7}(?:\t|→|: |\| )")
# SWE-agent's window: `12:code`, the code right after the colon (tried when _ROW fails)
_TIGHT = re.compile(r" *\d{1,7}:")
# fewer rows than this are no listing worth reading apart
_MIN_ROWS = 8
# lines a file viewer may write before and after the rows it numbers
_FRAME_ROWS = 3
# how far ahead an output line that occurs once is looked for, and how many rows a line
# is tried at (a blank line or a brace: linear time on huge listings)
_LOOKAHEAD, _CANDIDATES = 64, 256


def listing_span(text: str) -> tuple[int, int] | None:
    """Offsets of the numbered rows of ``text`` between the lines a file viewer writes
    around them (OpenHands' "Here's the result of running `cat -n` on x.py:", SWE-agent's
    "(12 more lines above)"), up to ``_FRAME_ROWS`` each side; None without such lines or
    where the rows are no listing."""
    rows = text.split("\n")
    n = len(rows) - (rows[-1] == "")  # a final newline ends the listing, or its frame

    def numbered(row: str) -> bool:
        return bool(_ROW.match(row + " ") or _TIGHT.match(row))

    head = 0
    while head < min(_FRAME_ROWS, n) and not numbered(rows[head]):
        head += 1
    tail = n
    while tail > head and n - tail < _FRAME_ROWS and not numbered(rows[tail - 1]):
        tail -= 1
    if (head, tail) == (0, n) or strip_numbers("\n".join(rows[head:tail])) is None:
        return None
    start = sum(len(r) + 1 for r in rows[:head])
    return start, start + len("\n".join(rows[head:tail])) + (tail == n < len(rows))


def strip_numbers(code: str) -> tuple[str, list[str]] | None:
    """``code`` without its line numbers, and each row's number prefix; None unless every
    row is numbered, one after the other, with the same separator."""
    return _strip(code, _ROW) or _strip(code, _TIGHT)


def _strip(code: str, row_re: re.Pattern[str]) -> tuple[str, list[str]] | None:
    rows = code.split("\n")
    end = rows.pop() if rows and rows[-1] == "" else None
    if len(rows) < _MIN_ROWS:
        return None
    prefixes: list[str] = []
    body: list[str] = []
    numbers: list[int] = []
    sep = ""
    for row in rows:
        m = row_re.match(row) or row_re.match(row + " ")  # a blank row may end at `12:`
        if m is None:
            return None
        prefix = m.group(0)[: len(row)]
        number = prefix.lstrip(" ")
        digits = len(number) - len(number.lstrip("0123456789"))
        if numbers and (int(number[:digits]) != numbers[-1] + 1 or number[digits] != sep):
            return None
        numbers.append(int(number[:digits]))
        sep = number[digits]
        prefixes.append(prefix)
        body.append(row[len(prefix) :])
    return "\n".join(body) + ("\n" if end is not None else ""), prefixes


def renumber(out: str, code: str, prefixes: list[str], marker: str) -> str:
    """The trimmed ``out`` of ``code`` with the number of each kept row put back; a line
    found nowhere (an elision) gets no number. Rows are found in order. A line that occurs
    once in the rows still ahead is where it is; each line before it is taken at the row
    from which most of those lines can still be found in order before it (a closing
    ``}`` after an elision is not the first ``}`` of the elided body, nor one past the
    next definition), then the row the longest run of lines follows on from, then the
    latest. An elision (a line that is ``marker``) is only numbered inside such a run."""
    rows = code.split("\n")
    lines = out.split("\n")
    where: dict[str, list[int]] = {}
    for r, text in enumerate(rows):
        where.setdefault(text, []).append(r)

    def ahead(text: str, pos: int) -> tuple[list[int], int]:
        """The rows holding ``text``, and the index of the first at or after ``pos``."""
        found = where.get(text, [])
        return found, bisect.bisect_left(found, pos)

    def follows(r: int, i: int, j: int, bound: int) -> int:
        """How many of lines ``i`` to ``j`` can be found in order from row ``r`` on."""
        found = 0
        for t in range(i, j):
            at, k = ahead(lines[t], r)
            if k < len(at) and at[k] < bound:
                found, r = found + 1, at[k] + 1
        return found

    result: list[str] = []
    pos = 0
    i = 0
    while i < len(lines):
        bound, anchor = len(rows), min(len(lines), i + _LOOKAHEAD)
        for j in range(i, anchor):
            at, k = ahead(lines[j], pos)
            if len(at) - k == 1 and lines[j].strip() != marker:
                bound, anchor = at[k] + (1 if j == i else 0), j
                break
        best, score = -1, (0, 0)
        at, k = ahead(lines[i], pos) if lines[i].strip() != marker else ([], 0)
        for r in at[k : k + _CANDIDATES]:
            if r >= bound:
                break
            n = 1
            while i + n < len(lines) and r + n < len(rows) and rows[r + n] == lines[i + n]:
                n += 1
            mine = (follows(r, i, anchor, bound), n)
            if mine >= score:
                best, score = r, mine
        run = score[1]
        if best < 0:
            result.append(lines[i])
            i += 1
            continue
        for n in range(run):
            r = best + n
            # a trailing empty row ends the text: it has no number of its own
            result.append(prefixes[r] + lines[i + n] if r < len(prefixes) else lines[i + n])
        pos, i = best + run, i + run
    return "\n".join(result)
