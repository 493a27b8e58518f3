"""Logs stage: output too long for the budget keeps the lines that explain it.

An agent's current step is protected by the history stage: when one tool result (a test
run, a build, a verbose install) alone overruns the budget, it would go out whole and
over budget. This stage shortens such results (and logs pasted in a fence) line by line,
whole lines only and byte for byte, with a ``[… N lines omitted …]`` marker for each
gap. It keeps, in order:

* lines that report a failure (``error``, ``FAILED``, ``Traceback``, pytest's ``E``
  lines, ``undefined reference`` …), and the lines around them (a compiler's source
  excerpt, a traceback's frames);
* lines sharing rare words with the request (the user's message, the tool call);
* the end of the output (summaries, exit status) before its beginning;
* one line of each repeated shape (progress lines that differ only in numbers) rather
  than all of them.

Source files, fenced code and JSON are left to the code stage or whole: cut line by
line they would no longer parse. In the default pipeline it runs twice: before the code
and history stages on the agent's current output alone, leaving room for earlier turns;
after them on whatever is still over budget.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ctxpress.compressor.code.fences import find_fences, outside_fences
from ctxpress.compressor.code.languages import detect
from ctxpress.compressor.pipeline import Context
from ctxpress.messages import (
    SYSTEM_ROLES,
    Message,
    current_step,
    last_user_index,
    message_text,
    protected_indices,
)

__all__ = ["LogStage", "shorten_log"]

_FAILURE = re.compile(
    r"(?im)\b(errors?|exceptions?|traceback|fatal|fail(ed|ure|s)?|panic(ked)?|abort(ed)?|"
    r"denied|refused|segmentation fault|assert(ion)?\w*|undefined reference|cannot|"
    r"could not|not found|no such|timed out|killed|unresolved|mismatch)\b|^E {2,}"
    # an exception's name: `IndentationError`, `jinja2.exceptions.TemplateNotFound: x`
    r"|[a-z](Error|Exception|NotFound|Failure|Fault)\b"
)
_WARNING = re.compile(r"(?im)\bwarn(ing)?s?\b|\bdeprecat")
_MARKER = re.compile(r"\[… \d+ lines? omitted …\]\r?")
_SHAPE = re.compile(r"0x[0-9a-f]+|\d+")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{3,}")
_STOP = frozenset(
    re.findall(
        r"\w+",
        "this that with from have what when where which there their then than them they will "
        "would should could find make sure into about after before only also just file files "
        "line lines test tests build error errors fails failed failing please does done",
    )
)
# Scores: a failure line, a warning, a line beside a failure (per step away, at most
# _NEAR_STEPS), a word of the request, the tail (falling off over _TAIL lines).
_FAIL, _WARN, _NEAR, _NEAR_STEPS, _ASKED, _TAIL, _HEAD = 10.0, 2.0, 6.0, 3, 3.0, 40, 5
# A repeated shape keeps this share of its score per earlier occurrence.
_REPEAT = 0.3
# Fence tags of output rather than code (untagged too); a fence tagged with a language is
# the code stage's.
_LOG_TAGS = frozenset(
    {"", "text", "txt", "log", "logs", "console", "output", "stdout", "stderr", "plaintext"}
    | {"plain", "shell-session", "terminal"}
)
# Of non-blank lines, the share ending in `;`, `{` or `}` that marks text as code.
_CODE_SHARE = 0.3
# Lines in a row that do not fit before the rest are not tried.
_MISSES = 64
# Results shorter than this are left alone: there is little to gain and a lot to lose.
_MIN_TOKENS = 200


def marker(n: int) -> str:
    return f"[… {n} line{'s' if n != 1 else ''} omitted …]"


def _words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP)


def _lines_matching(pattern: re.Pattern[str], lines: Sequence[str]) -> set[int]:
    """Rows where ``pattern`` matches: one scan of the whole text (per-line calls cost 3x)."""
    text = "\n".join(lines)
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    return {bisect.bisect_right(starts, m.start()) - 1 for m in pattern.finditer(text)}


def _scores(lines: Sequence[str], asked: frozenset[str]) -> list[float]:
    n = len(lines)
    score = [0.0] * n
    # a word of the request on many lines (the command's file name on every test's line)
    # tells them apart no better than none
    where: dict[str, int] = {}
    for line in lines:
        for w in {w.lower() for w in _WORD.findall(line)} & asked:
            where[w] = where.get(w, 0) + 1
    asked = frozenset(w for w, k in where.items() if k <= max(2, n // 20))
    failures = _lines_matching(_FAILURE, lines)
    for i in _lines_matching(_WARNING, lines) - failures:
        score[i] += _WARN
    for i in failures:
        score[i] += _FAIL
    if asked:
        for i, line in enumerate(lines):
            hits = sum(1 for w in _WORD.findall(line) if w.lower() in asked)
            score[i] += _ASKED * min(hits, 3)
    for i in failures:
        for k in range(1, _NEAR_STEPS + 1):
            for j in (i - k, i + k):
                if 0 <= j < n:
                    score[j] = max(score[j], _NEAR / k)
    for k in range(min(_TAIL, n)):
        score[n - 1 - k] += 4.0 * (1 - k / _TAIL) + 0.5
    for k in range(min(_HEAD, n)):
        score[k] += 1.0
    seen: dict[str, int] = {}
    for i, line in enumerate(lines):
        shape = _SHAPE.sub("#", line.strip())
        times = seen.get(shape, 0)
        seen[shape] = times + 1
        if times:
            score[i] *= _REPEAT**times
        if not line.strip():
            score[i] = min(score[i], 0.1)
    return score


def _render(lines: Sequence[str], keep: set[int], mark: Callable[[int], str]) -> str:
    out: list[str] = []
    gap = 0
    for i, line in enumerate(lines):
        if i in keep:
            if gap:
                out.append(mark(gap))
                gap = 0
            out.append(line)
        else:
            gap += 1
    if gap:
        out.append(mark(gap))
    return "\n".join(out)


def shorten_log(
    text: str,
    budget: int,
    count: Callable[[str], int],
    asked: frozenset[str] = frozenset(),
    indent: str = "",
) -> str:
    """``text`` within ``budget`` tokens: its most telling lines, unchanged, in order, with a
    marker per gap. ``asked``: lower-cased words of the request (see ``request_words``);
    ``indent``: put before each marker (a fence's in a list item)."""
    if count(text) <= budget:
        return text
    if text.endswith("\n"):  # the line ending that closes a fence's body stays
        return shorten_log(text[:-1], budget - 1, count, asked, indent) + "\n"
    lines = text.split("\n")
    cr = "\r" if "\r\n" in text else ""  # markers end lines as the output does

    def mark(n: int) -> str:
        return indent + marker(n) + cr

    score = _scores(lines, asked)
    gap_cost = count(mark(len(lines)) + "\n")
    order = sorted(range(len(lines)), key=lambda i: (-score[i], -i))
    keep: set[int] = set()
    total, misses = gap_cost, 0
    for i in order:
        # lines are counted as they come up: once the budget is full, after a run of lines
        # too long for what is left, the rest (worth less still) are not read
        if budget - total < 2 or misses >= _MISSES:
            break
        # a line beside a kept one joins its run; one elsewhere may open a new gap
        extra = count(lines[i] + "\n") + (0 if (i - 1 in keep or i + 1 in keep) else gap_cost)
        if total + extra <= budget:
            keep.add(i)
            total += extra
            misses = 0
        else:
            misses += 1
    out = _render(lines, keep, mark)
    # markers and line joins make the estimate drift: drop the least telling lines till it fits
    by_worth = sorted(keep, key=lambda i: (score[i], i))
    while keep and count(out) > budget:
        keep.discard(by_worth.pop(0))
        out = _render(lines, keep, mark)
    return out if keep else mark(len(lines))


def request_words(messages: Sequence[Message]) -> frozenset[str]:
    """Words of the last user message's prose (not of what it pastes) and of the tool calls
    made after it."""
    last = last_user_index(messages)
    parts = [outside_fences(message_text(messages[last]))] if last is not None else []
    for m in messages[(last or 0) :]:
        for call in m.get("tool_calls") or ():
            parts.append(str(call.get("function", {}).get("arguments", "")))
    return _words("\n".join(parts))


def is_log(text: str) -> bool:
    """Plain output, not code or data: not a source file, not JSON. Code the code stage
    trimmed may have lost the cues ``detect`` goes by (a C excerpt without its
    ``#include``): lines that mostly end in ``;``, ``{`` or ``}`` are code too."""
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            json.loads(stripped)
            return False
        except ValueError:
            pass
    rows = [line.rstrip() for line in text.split("\n") if line.strip()]
    if sum(1 for r in rows if r[-1] in ";{}") >= _CODE_SHARE * len(rows):
        return False
    return detect(text) is None


@dataclass(frozen=True)
class _Piece:
    """A stretch of one message's text that may be shortened: ``text[a:b]`` of its content,
    or of its text part ``part``; ``fenced``: a fence's body, ``indent`` the fence's (for
    the marker lines)."""

    msg: int
    part: int | None
    a: int
    b: int
    fenced: bool = False
    indent: str = ""


def _texts(msg: Message) -> list[tuple[int | None, str]]:
    content = msg.get("content")
    if isinstance(content, str):
        return [(None, content)]
    if isinstance(content, list):
        return [(j, p["text"]) for j, p in enumerate(content) if p.get("type") == "text"]
    return []


def _pieces(messages: Sequence[Message]) -> list[_Piece]:
    """Plain-text tool results (fence-free), and fences of logs in any message: untagged
    or tagged as output, holding no code."""
    out = []
    for i, msg in enumerate(messages):
        if msg.get("role") in SYSTEM_ROLES:
            continue
        for j, text in _texts(msg):
            if len(text) < _MIN_TOKENS:  # (a token is a character at least)
                continue
            fences = find_fences(text)
            if not fences and msg.get("role") == "tool":
                if is_log(text):
                    out.append(_Piece(i, j, 0, len(text)))
                continue
            for f in fences:
                body = text[f.code_start : f.code_end]
                if f.tag in _LOG_TAGS and len(body) >= _MIN_TOKENS and is_log(body):
                    out.append(_Piece(i, j, f.code_start, f.code_end, True, " " * f.indent))
    return out


def _with(msg: Message, part: int | None, text: str) -> Message:
    if part is None:
        return {**msg, "content": text}
    parts = list(msg["content"])
    parts[part] = {**parts[part], "text": text}
    return {**msg, "content": parts}


class LogStage:
    """Shortens the longest plain-text tool results and fenced logs while the request is
    over budget, longest first. Before the code or history stage (``ctx.after``), only the
    agent's current output, leaving room for earlier turns."""

    name = "logs"
    over_budget_only = True

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        if ctx.budget is None or not ctx.over_budget(messages):
            return list(messages)
        count = ctx.counter.text
        texts = {(i, j): t for i, m in enumerate(messages) for j, t in _texts(m)}
        pieces = _pieces(messages)
        later = set(ctx.after)
        if later & {"code", "history"}:
            # Before them, only an agent's current output: the code stage reads a pasted
            # trace whole for the lines it points at, and trims code first; a later pass
            # cuts what is still over budget.
            step = set(current_step(messages))
            pieces = [p for p in pieces if p.msg in step and not p.fenced]
        sized = [(p, count(texts[p.msg, p.part][p.a : p.b])) for p in pieces]
        over = ctx.counter.messages(messages) - ctx.budget
        if "history" in later:
            # The history stage drops whole earlier turns next. What it cannot drop (system
            # prompts, the last user message, an agent's current step) must fit, and leave
            # room for earlier turns (an earlier read of the file the failing test runs):
            # as much as they hold, up to half the budget.
            keep = protected_indices(messages)
            floor = ctx.counter.messages([messages[i] for i in sorted(keep)])
            sized = [(p, size) for p, size in sized if p.msg in keep]
            spare = sum(max(0, size - _MIN_TOKENS // 2) for _, size in sized if size >= _MIN_TOKENS)
            reserve = min(over + ctx.budget - floor, ctx.budget // 2, ctx.budget - floor + spare)
            over = floor - (ctx.budget - max(0, reserve))
        # the longest first, each down to what the request is over by (a token a piece
        # spare: a cut body may count differently where it meets the text around it)
        plan: dict[_Piece, int] = {}
        for piece, size in sorted(sized, key=lambda ps: -ps[1]):
            if over <= 0 or size < _MIN_TOKENS:
                break
            plan[piece] = max(_MIN_TOKENS // 2, size - over - 1)
            over -= size - plan[piece]
        if not plan:
            return list(messages)
        asked = request_words(messages)
        out = list(messages)
        # each text's pieces from its end, so the offsets of the others hold
        for piece in sorted(plan, key=lambda p: (p.msg, p.part or 0, -p.a)):
            text = texts[piece.msg, piece.part]
            body = text[piece.a : piece.b]
            short = shorten_log(body, plan[piece], count, asked, piece.indent)
            texts[piece.msg, piece.part] = text[: piece.a] + short + text[piece.b :]
            out[piece.msg] = _with(out[piece.msg], piece.part, texts[piece.msg, piece.part])
            shown = sum(1 for line in short.split("\n") if not _MARKER.fullmatch(line.strip()))
            what = "fenced log" if piece.fenced else "tool output"
            ctx.note(
                f"m{piece.msg}: {what} {count(body)} -> {count(short)} tokens "
                f"({shown} of {body.count(chr(10)) + 1} lines shown)"
            )
        return out
