"""Line excerpts of source that does not parse: what a build error points at, kept whole.

A file an agent has just broken (a missing ``;``, an unclosed brace) cannot be trimmed
by its tree: a trimmed block must parse, and this one never did. Left whole, an earlier
read of it is dropped whole by the history stage once the request is over budget, and
the model sees the compiler's error but not the code it points at. Where that is the
alternative, the code stage keeps an excerpt instead: the top-level definitions holding
the rows the conversation points at (file:line) and the parser's error nodes, whole
where they fit, then every row by its distance from those, while the budget lasts. Kept
lines are byte-identical; each gap is one comment line saying how many lines it stands for.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any


def _errors(tree: Any) -> Iterator[Any]:
    """The ERROR and MISSING nodes of ``tree`` (outermost; only into what holds errors)."""
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            yield node
        elif node.has_error:
            stack.extend(node.children)


def _rows(node: Any) -> range:
    return range(node.start_point.row, node.end_point.row + 1)


def error_rows(tree: Any) -> list[int]:
    """Rows where the parser found an ERROR or a MISSING node (an ERROR's first row)."""
    return sorted({node.start_point.row for node in _errors(tree)})


# Paragraphs parsed at most to tell source from a log (evenly spaced beyond): a long log
# would otherwise cost as many parses as it has blank lines.
_PARAGRAPHS = 64


def reads_as_source(
    tree: Any, lines: Sequence[str], functions: frozenset[str], parses: Callable[[str], bool]
) -> bool:
    """Whether text with parse errors is still source with a mistake, not text of another
    kind (a test log a call names a `.py` file for): at most a tenth of its ``lines``
    inside ERROR nodes (a missing ``;``: two hundredths), or a fifth inside the definitions
    of ``functions`` the parser still finds, or a quarter in paragraphs that ``parses`` on
    their own. (After a missing bracket tree-sitter may wrap the rest of a file in one
    ERROR, and find no definition in it; the paragraphs around the mistake still parse. A
    log read as Python or C holds next to no definition, and at most a tenth of its rows in
    paragraphs that parse.)"""
    rows = len(lines)
    if len({r for node in _errors(tree) for r in _rows(node)}) <= rows / 10:
        return True
    defined: set[int] = set()
    stack = [tree.root_node]
    while stack:  # (not into the definitions found)
        node = stack.pop()
        if node.type in functions:
            defined.update(_rows(node))
        else:
            stack.extend(node.children)
    if len(defined) >= rows / 5:
        return True
    spans = list(_paragraphs(lines))
    step = -(-len(spans) // _PARAGRAPHS)  # an even sample of a long text's paragraphs
    filled = clean = 0
    for a, b in spans[::step]:
        n = sum(1 for line in lines[a:b] if line.strip())
        filled += n
        if n and parses("\n".join(lines[a:b])):
            clean += n
    return filled > 0 and clean >= filled / 4


def _paragraphs(lines: Sequence[str]) -> Iterator[tuple[int, int]]:
    """Row spans that each start at a row at the margin after a blank one (a top-level
    definition with its leading comment, mostly)."""
    start = 0
    for i in range(1, len(lines)):
        if lines[i][:1].strip() and not lines[i - 1].strip():
            yield start, i
            start = i
    yield start, len(lines)


def _top_span(tree: Any, row: int) -> tuple[int, int] | None:
    """Rows of the top-level node holding ``row`` (a function, a declaration)."""
    for node in tree.root_node.children:
        first, last = node.start_point.row, node.end_point.row
        if node.end_point.column == 0 and last > first:
            last -= 1  # (ends at the start of the next row)
        if first <= row <= last:
            return first, last
    return None


def marker(lang: str, indent: str, n: int) -> str:
    """The line standing for ``n`` rows left out: a comment in the block's language."""
    mark = "#" if lang == "python" else "//"
    return f"{indent}{mark} … {n} line{'s' if n != 1 else ''} omitted …"


def excerpt(
    text: str,
    lang: str,
    tree: Any,
    anchors: Sequence[int],
    budget: int,
    count: Callable[[str], int],
) -> str | None:
    """The rows of ``text`` (whose rows ``tree`` and ``anchors`` number) worth most,
    within ``budget`` tokens: the top-level definition around each of ``anchors`` (in
    order of importance) where it fits, then rows by their distance from the nearest
    anchor. None if not even one row fits or nothing would be left out."""
    end = "\n" if text.endswith("\n") else ""  # the newline that closes a fence stays
    lines = (text[:-1] if end else text).split("\n")
    eol = "\r" if lines[0].endswith("\r") else ""
    anchors = [r for r in dict.fromkeys(anchors) if 0 <= r < len(lines)]
    if not anchors:
        return None
    cost = [count(line) + 1 for line in lines]
    order: list[int] = []
    seen: set[int] = set()
    used = 0
    for a in anchors:
        span = _top_span(tree, a)
        if span is None:
            continue
        rows = [r for r in range(span[0], min(span[1], len(lines) - 1) + 1) if r not in seen]
        extra = sum(cost[r] for r in rows)
        if used + extra <= budget:
            order.extend(sorted(rows, key=lambda r: (abs(r - a), r)))
            seen.update(rows)
            used += extra
    marks = sorted(anchors)

    def gap(r: int) -> int:  # rows to the nearest anchor
        i = bisect_left(marks, r)
        return min(abs(r - marks[j]) for j in (i - 1, i) if 0 <= j < len(marks))

    near = sorted(range(len(lines)), key=lambda r: (gap(r), r))
    order.extend(r for r in near if r not in seen)

    def render(k: int) -> str:
        kept = sorted(order[:k])
        out: list[str] = []
        prev = -1
        for r in [*kept, len(lines)]:
            if r > prev + 1:
                left = lines[prev + 1]  # the gap's first row: its indent is the marker's
                out.append(marker(lang, left[: len(left) - len(left.lstrip())], r - prev - 1) + eol)
            if r < len(lines):
                out.append(lines[r])
            prev = r
        return "\n".join(out) + end

    # the longest prefix of ``order`` that fits when counted (each row only adds text)
    lo, hi = 0, len(order) - 1  # all rows would leave nothing out
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(render(mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return None
    return render(lo)
