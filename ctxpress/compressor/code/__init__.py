"""The code stage: trim pasted source to what the conversation is about.

Finds fenced code blocks (CommonMark) and messages that are whole source files,
parses them with tree-sitter, and, only while the request is over budget, keeps the
focal definitions and what they use, collapses other bodies to their signatures and
drops the least related units. A trimmed block that does not parse is left as it was.
So is a block that does not parse to begin with (a file an agent just broke), unless the
request is still over budget and it is not in the newest user message: then it is cut by
lines around what the conversation and the parser point at (``excerpt``), rather than
dropped whole by the history stage.
Prose around the blocks is never touched; a message is copied only if a block changed.
The blocks of one request are one context: what the focal code of one uses from another,
and a few of its callers there, are kept too, and the budget goes first to what the
question needs of each block.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tree_sitter import Tree

from ctxpress.compressor.code.excerpt import error_rows, excerpt, reads_as_source
from ctxpress.compressor.code.fences import Fence, find_fences, outside_fences
from ctxpress.compressor.code.focal import (
    find_focal,
    frames_elsewhere,
    used_elsewhere,
    users_elsewhere,
)
from ctxpress.compressor.code.languages import (
    SPECS,
    candidates,
    clean_parse,
    detect,
    family,
    from_filename,
    from_tag,
    node_text,
    related,
)
from ctxpress.compressor.code.numbered import listing_span, renumber, strip_numbers
from ctxpress.compressor.code.outline import (
    IDENT,
    Focus,
    Outline,
    Unit,
    build_outline,
    code_names,
    defined_names,
    node_at,
    refs,
    with_body,
)
from ctxpress.compressor.code.prose import (
    FILE_NAME,
    extract_focus,
    ref_rows,
    shared_tail,
    with_quoted,
)
from ctxpress.compressor.code.trim import TrimResult, elision, trim_outline
from ctxpress.compressor.pipeline import Context
from ctxpress.config import Config
from ctxpress.messages import SYSTEM_ROLES, Message, last_user_index, message_text

__all__ = ["CodeStage", "Focus", "extract_focus", "find_fences", "trim_code"]

# What follows a file name a report cites by line: `x.py", line 3`, `x.c:3`, `X.java:3)`.
_CITED = re.compile(r"\"?, line \d|:\d|\(\d")
_PY_TRACEBACK = "Traceback (most recent call last)"
# A line this long holding most of the code is a minified bundle: trimming keeps whole lines.
# (A `//` line is a comment, such as a bundle's inline source map, `//# sourceMappingURL=
# data:…`, which may be most of a file whose code is not minified at all.)
_MINIFIED = 400
# A string on one line: a row long only for one (a 90 kB test expression in Go's backquotes)
# is no minified code, and trims like any other. So is a JS regex literal (mathjs' 16 kB
# Unicode identifier class), read where an operand starts: after `(,=:[!&|?{};`.
_LITERAL = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`\n]*`'
    r"|(?<=[(,=:\[!&|?{};])\s*/(?![/*])(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*"
)


@dataclass
class _Block:
    msg: int
    part: int | None  # index into a content-part list, None for string content
    start: int  # code offsets in the text
    end: int
    code: str
    lang: str
    outline: Outline
    tokens: int
    filename: str | None
    indent: int = 0  # spaces of an indented fence (in a list item), taken off every line
    crlf: bool = False  # Windows line endings, read as "\n" and written back
    bom: bool = False  # a byte-order mark, read off (written back if the first row stays)
    numbers: list[str] | None = None  # each row's line-number prefix, read off (``numbered``)
    shown: int = 0  # tokens as the message holds it (line numbers too)
    # Python the running interpreter compiles: its trimmed output must compile too (tree-sitter
    # accepts some code CPython rejects, e.g. a misindented elision); read when first needed
    compiles: bool | None = None

    @property
    def first_line(self) -> int:
        """The file's line its first row is: a listing read from an offset starts at 300."""
        return _first_number(self.numbers)

    @property
    def lines(self) -> list[str]:
        return self.outline.lines


# where a block sits: (message, part, start, end) code offsets in the text
_Span = tuple[int, int | None, int, int]


def _first_number(numbers: list[str] | None) -> int:
    return int(numbers[0].strip(" \t→:|")) if numbers else 1


@dataclass
class _Broken:
    """A block in a language we parse that does not parse cleanly (a file an agent broke):
    left as is, unless the history stage would drop it whole (see ``excerpt``)."""

    msg: int
    part: int | None
    start: int  # code offsets in the text
    end: int
    lang: str
    filename: str | None
    tokens: int  # of the code as the message holds it
    lines: list[str]  # rows, line numbers and a fence's indent read off
    first_line: int
    tree: Tree


def _texts(msg: Message) -> list[tuple[int | None, str]]:
    content = msg.get("content")
    if isinstance(content, str):
        return [(None, content)]
    if isinstance(content, list):
        return [
            (j, p["text"])
            for j, p in enumerate(content)
            if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
        ]
    return []


def _fence_filename(text: str, fence: Fence) -> str | None:
    """The file a block holds: named in its info string, else on the line just before it
    (`Here is `app.py`:`). Else a report's file:line reference: the first (the file the
    report is about, before the library frames and header notes that follow it), or of a
    Python traceback, which lists the outermost call first, the last. Else the last file
    named before it (a test runner's `FAIL  x.test.js` names the test, not this block)."""
    m = FILE_NAME.search(fence.info)
    if m:
        return m.group(1)
    window = text[max(0, fence.start - 300) : fence.start]
    named: list[str] = []
    cited: list[str] = []
    for m in FILE_NAME.finditer(window):
        (cited if _CITED.match(window, m.end()) else named).append(m.group(1))
    last_line = window.rstrip("\n").rsplit("\n", 1)[-1]
    beside = [
        m.group(1) for m in FILE_NAME.finditer(last_line) if not _CITED.match(last_line, m.end())
    ]
    if beside:
        return beside[-1]
    if cited:
        return cited[-1] if _PY_TRACEBACK in window else cited[0]
    return named[-1] if named else None


def _tool_paths(messages: list[Message]) -> dict[str, str]:
    """tool_call_id -> a file path named in the call's arguments (for whole-file results)."""
    out = {}
    for msg in messages:
        for call in msg.get("tool_calls") or []:
            args = str((call.get("function") or {}).get("arguments", ""))
            m = FILE_NAME.search(args)
            if m and isinstance(call.get("id"), str):
                out[call["id"]] = m.group(1)
    return out


def trim_code(
    code: str,
    lang: str | None,
    budget: int,
    count: Any,
    focus: Focus | None = None,
) -> str | None:
    """Trim one piece of source to ``budget`` tokens; None if it cannot be parsed cleanly.

    A convenience for callers outside the pipeline (benchmarks, tools).
    """
    found = detect(code, lang)
    if found is None:
        return None
    name, tree = found
    outline = build_outline(name, code, tree)
    result = trim_outline(outline, focus or Focus(), budget, count)
    return result.code if detect(result.code, name) else None


class CodeStage:
    """Pipeline stage ``code`` (see module docstring)."""

    name = "code"
    over_budget_only = True

    def __init__(self, config: Config) -> None:
        self.config = config

    def _blocks(
        self, messages: list[Message], ctx: Context
    ) -> tuple[list[_Block], list[_Broken], list[_Span]]:
        """The blocks to trim, the unparseable sources to excerpt, and the minified code
        left as is (no prose: a bundle's thousands of words name no focal symbol)."""
        min_tokens = self.config.code_min_tokens
        last_user = last_user_index(messages)
        paths = _tool_paths(messages)
        blocks: list[_Block] = []
        broken: list[_Broken] = []
        minified: list[_Span] = []
        for i, msg in enumerate(messages):
            if msg.get("role") in SYSTEM_ROLES:
                continue  # protected: the same bytes on every request keep the prefix cached
            for part, text in _texts(msg):
                if len(text) < 200:
                    continue
                fences = find_fences(text)
                whole = self.config.code_whole_files and i != last_user and text.count("\n") >= 8
                path = paths.get(str(msg.get("tool_call_id", "")))
                if fences and whole and _is_source(text, fences, path):
                    fences = []  # fences in a file's comments (a module docstring's example)
                for fence in fences:
                    code = _dedent(text[fence.code_start : fence.code_end], fence.indent)
                    if code is None or not code.strip():
                        continue
                    filename = _fence_filename(text, fence)
                    lang = from_tag(fence.tag) if fence.tag else None
                    if fence.tag and lang is None:
                        # a language we do not parse: left alone, and said where it is large
                        if ctx.counter.text(code) >= min_tokens:
                            ctx.note(f"m{i}: {fence.tag} block left as is (no grammar for it)")
                        continue
                    if lang is None and filename:
                        lang = from_filename(filename)
                    self._add(
                        (blocks, broken, minified),
                        ctx,
                        i,
                        part,
                        fence.code_start,
                        fence.code_end,
                        code,
                        lang,
                        filename,
                        min_tokens,
                        explicit=bool(fence.tag),
                        indent=fence.indent,
                    )
                if not fences and whole:
                    lang = from_filename(path) if path else None
                    start, end = listing_span(text) or (0, len(text))
                    args = (i, part, start, end, text[start:end], lang, path, min_tokens)
                    self._add((blocks, broken, minified), ctx, *args, explicit=False)
        return blocks, broken, minified

    def _add(
        self,
        into: tuple[list[_Block], list[_Broken], list[_Span]],
        ctx: Context,
        i: int,
        part: int | None,
        start: int,
        end: int,
        code: str,
        lang: str | None,
        filename: str | None,
        min_tokens: int,
        explicit: bool,
        indent: int = 0,
    ) -> None:
        crlf = "\r\n" in code and code.count("\r\n") == code.count("\n")
        if crlf:
            code = code.replace("\r\n", "\n")
        bom = code.startswith("\ufeff")  # on the first row it would hide a leading comment
        if bom:
            code = code[1:]
        numbered = code
        listing = strip_numbers(code)
        if listing is not None:
            code = listing[0]
        tokens = ctx.counter.text(code)
        if tokens < min_tokens:
            return
        rows = [r for r in code.split("\n") if not r.lstrip().startswith("//")]
        widths = [len(r) for r in rows]
        longest = max(widths, default=0)
        if (
            longest > _MINIFIED
            and 2 * longest > sum(widths)
            and len(_LITERAL.sub('""', max(rows, key=len))) > _MINIFIED
        ):
            ctx.note(f"m{i}: {lang or 'code'} block left as is (minified: lines are kept whole)")
            into[2].append((i, part, start, end))
            return
        failed: dict[str, Tree] = {}
        found = detect(code, lang, failed)
        if found is None:
            if lang:  # (a fence's tag always names one, or the block was skipped)
                ctx.note(f"m{i}: {lang} block left as is (does not parse cleanly)")
                # (none where the text is no UTF-8, lone surrogates: no grammar reads it)
                tree = failed.get(lang)
                lines = code.split("\n")
                functions = SPECS[lang].functions
                if tree is not None and reads_as_source(tree, lines, functions, _parser(lang)):
                    shown = ctx.counter.text(numbered)
                    first = _first_number(listing[1] if listing else None)
                    into[1].append(
                        _Broken(i, part, start, end, lang, filename, shown, lines, first, tree)
                    )
            return
        name, tree = found
        try:
            outline = build_outline(name, code, tree)
        except RecursionError:
            ctx.note(f"m{i}: {name} block left as is (nested too deeply to outline)")
            return
        if (
            not explicit
            and name not in _NO_DATA
            and not any(
                u.kind in ("func", "class", "import") or u.title or u.commonjs
                for u in outline.units
            )
            and not _holds_functions(tree, SPECS[name].functions)
        ):
            # JSON, CSV, YAML, a file listing read as expressions: data, not a source
            # file; only a fence's language tag says such text is code to trim (or the
            # functions it defines or passes, `it("…", () => { … })`, the modules it
            # imports, a library wrapped in one call, or a grammar no data parses in: a C
            # table, a Rust `lib.rs` of `mod` and `pub use`)
            return
        block = _Block(
            i, part, start, end, code, name, outline, tokens, filename, indent, crlf, bom
        )
        block.shown = tokens
        if listing is not None:
            block.numbers, block.shown = listing[1], ctx.counter.text(numbered)
        into[0].append(block)

    def run(self, messages: list[Message], ctx: Context) -> list[Message]:
        if ctx.budget is None or not ctx.over_budget(messages):
            return messages
        blocks, broken, minified = self._blocks(messages, ctx)
        if not blocks and not broken:
            return messages
        prose_parts: list[str] = []
        quoted: list[str] = []  # code beside the question (see ``with_quoted``)
        block_spans = {(b.msg, b.part): [] for b in blocks}  # type: dict[tuple[int, int | None], list[tuple[int, int]]]
        for b in blocks:
            block_spans[(b.msg, b.part)].append((b.start, b.end))
        for i, part, start, end in minified:
            block_spans.setdefault((i, part), []).append((start, end))
        for i, msg in enumerate(messages):
            text = message_text(msg)
            if any(k[0] == i for k in block_spans):
                pieces = []
                for part, t in _texts(msg):
                    spans = sorted(block_spans.get((i, part), []))
                    pos = 0
                    for s, e in spans:
                        pieces.append(t[pos:s])
                        pos = e
                    pieces.append(t[pos:])
                text = "\n".join(pieces)
            # code an assistant quotes or the instructions hold is context, not a question;
            # so is what a document or a diff holds (its calls are no names to keep whole)
            quoting = msg.get("role") == "assistant" or msg.get("role") in SYSTEM_ROLES
            aside = [f for f in find_fences(text) if quoting or f.tag in _QUOTED_TAGS]
            if aside:
                quoted.extend(text[f.code_start : f.code_end] for f in aside)
                text = outside_fences(text, aside)
            prose_parts.append(text)
        whole, refs = extract_focus("\n".join(prose_parts))
        focus = with_quoted(whole, "\n".join(quoted)) if quoted else whole
        newest = last_user_index(messages)
        if newest is not None:  # (the newest message's names; one message: the whole's)
            mine = whole if len(prose_parts) == 1 else extract_focus(prose_parts[newest])[0]
            focus = replace(focus, current=mine.strong)
        excess = ctx.counter.messages(messages) - ctx.budget
        results: dict[int, str] = {}
        # a file read or pasted again: its earlier copies say nothing the last one does not
        last = {b.code: k for k, b in enumerate(blocks)}
        repeats = {k: blocks[last[b.code]].msg for k, b in enumerate(blocks) if last[b.code] != k}
        # an agent's read of a file it has read again since (after an edit): stale
        stale = {k: m for k, m in _superseded(blocks, messages).items() if k not in repeats}
        repeats |= stale
        total_code = sum(b.shown for k, b in enumerate(blocks) if k not in repeats)
        freed = sum(b.shown for k, b in enumerate(blocks) if k in repeats)
        keep = max(0, total_code - max(0, excess - freed))
        # each block's share of what may stay, in tokens of its code (line numbers aside)
        targets = [
            1 if k in repeats else max(1, b.tokens * keep // max(1, total_code))
            for k, b in enumerate(blocks)
        ]
        current = messages
        focal: dict[int, str] = {}
        rows = _block_rows(blocks, refs, newest)
        focuses = [
            Focus() if k in repeats else _own(replace(focus, rows=rows[k]), b)
            for k, b in enumerate(blocks)
        ]
        if len(blocks) > 1:
            focuses, needs = _across_files(blocks, focuses, set(repeats), ctx.counter.text)
            # (``keep`` counts line numbers too, as the message shows them; shares do not)
            code = sum(b.tokens for k, b in enumerate(blocks) if k not in repeats)
            targets = _shares(blocks, needs, keep * code // max(1, total_code), set(repeats))
        cut: set[int] = set()  # blocks whose focal code is cut to fit
        one = len(blocks) == 1
        for _ in range(3):
            sizes = [b.tokens for b in blocks]  # tokens of each block as it now stands
            for k, b in enumerate(blocks):
                # (with several blocks, the room one leaves goes to the others: _spend_room)
                res = trim_outline(
                    b.outline, focuses[k], targets[k], ctx.counter.text, b.tokens, fill=one
                )
                if res.code == b.code or res.tokens_estimate >= b.tokens:
                    results.pop(k, None)
                    focal[k] = _named(res, b, focuses[k])
                    continue
                sizes[k] = res.tokens_estimate
                if not _parses(b, res.code):
                    ctx.note(f"m{b.msg}: {b.lang} block left as is (trimmed output did not parse)")
                    results.pop(k, None)
                    focal.pop(k, None)
                    continue
                results[k] = res.code
                focal[k] = _named(res, b, focuses[k])
                if res.short:
                    cut.add(k)
                else:
                    cut.discard(k)
            current = _apply(messages, blocks, results)
            over = ctx.counter.messages(current) - ctx.budget
            short = [k for k, t in enumerate(targets) if sizes[k] > t]
            if over <= 0:
                break
            # A block whose focal code alone overruns its share cannot give more: the
            # blocks that met theirs take the whole cut, in proportion to their shares.
            met = [k for k, t in enumerate(targets) if sizes[k] <= t] or list(range(len(blocks)))
            pool = max(1, sum(targets[k] for k in met))
            for k in met:  # from what the block came to, which may be under its target
                base = min(targets[k], sizes[k])
                targets[k] = max(1, base - over * targets[k] // pool - 1)
        if over < 0 and len(blocks) > 1:
            results, current = _spend_room(
                messages, blocks, focuses, (results, current), sizes, targets, cut, ctx
            )
        undefined: set[int] = set()
        if over > 0:
            # Still over: the history stage would drop whole messages, a block's with it. A
            # block it may drop (not in the newest user message) fits its share without the
            # definitions its focal code uses rather than be lost whole: each such block
            # gives up its part of the excess (its target was cut past that in the loop).
            droppable = [k for k in short if blocks[k].msg != newest and k not in repeats]
            pool = max(1, sum(sizes[k] for k in droppable))
            # (where that estimate overruns when counted, the target the loop came to)
            for k in droppable:
                b = blocks[k]
                share = max(targets[k], sizes[k] - over * sizes[k] // pool - 1)
                for room in dict.fromkeys((share, targets[k])):
                    res = trim_outline(
                        b.outline, focuses[k], room, ctx.counter.text, b.tokens, define_used=False
                    )
                    if res.tokens_estimate >= sizes[k] or not _parses(b, res.code):
                        continue
                    results[k] = res.code
                    focal[k] = _named(res, b, focuses[k])
                    undefined.add(k)
                    current = _apply(messages, blocks, results)
                    if ctx.counter.messages(current) <= ctx.budget:
                        break
            if undefined:
                current = _apply(messages, blocks, results)
                over = ctx.counter.messages(current) - ctx.budget
        if over > 0 and broken:
            # Still over: a block that does not parse, outside the newest user message,
            # would be dropped whole by the history stage; an excerpt of it instead.
            excerpts = _excerpts(messages, blocks, broken, (refs, newest), over, ctx)
            if excerpts:
                current = _apply(messages, blocks, results, excerpts)
        for k, b in enumerate(blocks):
            if k in results and k in repeats:
                again = "a newer read of it" if k in stale else "it again"
                ctx.note(f"m{b.msg}: {b.lang} block elided: m{repeats[k]} holds {again}")
            elif k in results:
                after = ctx.counter.text(results[k])
                loose = " (names it uses left undefined to fit)" if k in undefined else ""
                ctx.note(
                    f"m{b.msg}: {b.lang} block {b.tokens}->{after} tokens; focal: {focal[k]}{loose}"
                )
            elif k in focal:  # what the focal code needs is the whole block
                ctx.note(f"m{b.msg}: {b.lang} block left as is (no smaller); focal: {focal[k]}")
        return current


# Grammars in which no data format (JSON, CSV, YAML, INI) parses cleanly
_NO_DATA = frozenset({"c", "cpp", "rust", "java"})


def _holds_functions(tree: Tree, functions: frozenset[str]) -> bool:
    """Whether a function is defined anywhere in it: a whole library in one statement (an
    IIFE, a UMD or AMD wrapper, a bundle: `(function (root, factory) {…})(this, function ()
    {…})`), a script whose one statement is a `try { … }` around its functions
    (rn-fetch-blob's `prelink.js`). No data format reads as a function."""
    stack = list(tree.root_node.named_children)
    while stack:
        node = stack.pop()
        if node.type in functions:
            return True
        stack.extend(node.named_children)
    return False


# Fence tags of documents and data: text beside the code, read as quoted code
_QUOTED_TAGS = frozenset(
    {
        "markdown",
        "md",
        "mdx",
        "rst",
        "diff",
        "patch",
        "json",
        "jsonc",
        "yaml",
        "yml",
        "toml",
        "csv",
        "xml",
        "html",
        "ini",
    }
)


def _across_files(
    blocks: list[_Block], focuses: list[Focus], skip: set[int], count: Any
) -> tuple[list[Focus], list[int]]:
    """Each block's focus with what the focal code of the other blocks (of its language
    family) uses and does not define itself (an import is no definition), and what it
    defines: a function asked about in one pasted file keeps what it calls in another,
    and a few of its callers there (its tests). In a module that imports by name
    (Python, JS, TS), a bare name it does not import is a local or a builtin, not another
    file's. With the tokens each block's focal code and those definitions and callers
    need (``_shares``)."""
    used: list[tuple[frozenset[str], frozenset[str]]] = []
    defined: list[frozenset[str]] = []  # the names of each block's focal units
    wanted: list[list[Unit]] = []
    for k, b in enumerate(blocks):
        bare: set[str] = set()
        members: set[tuple[str, str]] = set()
        focal_lines: list[str] = []
        mine: list[Unit] = []
        if k not in skip:
            for u, d in find_focal(b.outline, focuses[k]).items():
                if d == 0.0:
                    mine.append(u)
                    lines = b.outline.lines[u.start : u.last + 1]
                    focal_lines += lines
                    # its parameters and locals are its own, whatever another file defines
                    local = _parameters(b.outline, u) | _locals("\n".join(lines))
                    bases = b.outline.bases.get(u.owner or "", [])
                    for v in with_body(u):
                        bare |= code_names(b.outline, v) - local
                        # `this.log` is a member of its own class or of a base class
                        # (perhaps defined in another file), not of any other file's class
                        for r, m in refs(b.outline, v)[2]:
                            if r in _SELF:
                                members.update((base, m) for base in bases)
                            elif r not in local:
                                members.add((r, m))
                    bare.update(bases)
        wanted.append(mine)
        defined.append(frozenset(u.label for u in mine if u.label))
        o = b.outline
        bare -= defined_names(o)
        imports = [u for u in o.units if u.kind == "import"]
        text = "\n".join(o.lines[r] for u in imports for r in range(u.start, u.last + 1))
        # and what the focal code imports itself (a deferred `from .x import y`)
        text += "\n" + "\n".join(x for x in focal_lines if _IMPORT_LINE.match(x))
        if family(b.lang) in _BY_NAME and imports and not _STAR_IMPORT.search(text):
            bare &= set(IDENT.findall(text))
            # a member of what the module imports (`F.flow`), not of any object
            members = {(r, m) for r, m in members if r in bare}
        used.append((frozenset(bare), frozenset(m for _, m in members)))
    out = []
    for j, b in enumerate(blocks):
        kin = [k for k in range(len(blocks)) if k != j and family(blocks[k].lang) == family(b.lang)]
        names = frozenset().union(*(used[k][0] for k in kin))
        called = frozenset().union(*(used[k][1] for k in kin))
        asked = frozenset().union(*(defined[k] for k in kin))
        if j in skip or not (names or called or asked):
            out.append(focuses[j])
            continue
        out.append(replace(focuses[j], uses=names, uses_members=called, defined_elsewhere=asked))
        wanted[j] += [u for u, d in used_elsewhere(b.outline, out[j]).items() if d == 1.0]
        wanted[j] += users_elsewhere(b.outline, out[j])
    needs = []
    for b, units in zip(blocks, wanted, strict=True):
        rows = sorted({r for u in units for r in range(u.first, u.last + 1)})
        needs.append(count("\n".join(b.outline.lines[r] for r in rows)) if rows else 0)
    return out, needs


def _spend_room(
    messages: list[Message],
    blocks: list[_Block],
    focuses: list[Focus],
    done: tuple[dict[int, str], list[Message]],
    sizes: list[int],
    targets: list[int],
    short: set[int],
    ctx: Context,
) -> tuple[dict[int, str], list[Message]]:
    """The room the trimmed blocks (``done``: results by block, the messages with them)
    left unused, given to those whose focal code was cut to fit (``short``), by what
    each still leaves out: a focal test cut to fit its share beside a block that could
    not use its own (the map of a file that is one long function) stays whole. With no
    focal code cut, only a quarter of the budget or more is worth trimming the blocks
    again for (a read file elided to one marker beside a table that had to collapse).
    Up to three rounds, while a block grows; a round is kept only if the whole fits."""
    results, current = done
    budget = ctx.budget or 0
    stuck: set[int] = set()
    for _ in range(3):
        room = budget - ctx.counter.messages(current)
        grow = [k for k in results if k not in stuck and sizes[k] > 1]  # (1: a repeat)
        hungry = [k for k in grow if k in short]
        if hungry:
            grow = hungry
        elif room < budget // 4:
            break
        if room < max(16, budget // 50) or not grow:
            break
        pool = max(1, sum(blocks[k].tokens - sizes[k] for k in grow))
        more = dict(results)
        for k in grow:
            b = blocks[k]
            targets[k] = sizes[k] + room * (b.tokens - sizes[k]) // pool
            res = trim_outline(b.outline, focuses[k], targets[k], ctx.counter.text, b.tokens)
            if res.tokens_estimate >= b.tokens:
                more.pop(k)  # the whole block fits
            elif res.tokens_estimate > sizes[k] and _parses(b, res.code):
                more[k], sizes[k] = res.code, res.tokens_estimate
                if not res.short:
                    short.discard(k)
            else:
                stuck.add(k)
        fuller = _apply(messages, blocks, more)
        if more == results or ctx.counter.messages(fuller) > budget:
            break
        results, current = more, fuller
    return results, current


def _shares(blocks: list[_Block], needs: list[int], keep: int, skip: set[int]) -> list[int]:
    """Each block's share of the ``keep`` tokens of code that may stay (``skip``: blocks
    elided as repeats, 1 token each): first what the question needs of it (``needs``),
    then the rest by size. (By size alone, a long file holding one helper another file's
    function calls takes most of the room for its map while the helper does not fit.)"""
    live = [k for k in range(len(blocks)) if k not in skip]
    need = {k: min(needs[k], blocks[k].tokens) for k in live}
    total = sum(need.values())
    out = [1] * len(blocks)
    if total > keep:
        for k in live:
            out[k] = max(1, keep * need[k] // max(1, total))
        return out
    rest = {k: blocks[k].tokens - need[k] for k in live}
    pool = max(1, sum(rest.values()))
    for k in live:
        out[k] = max(1, need[k] + (keep - total) * rest[k] // pool)
    return out


def _parameters(outline: Outline, u: Unit) -> set[str]:
    """The names a function's parameter list binds (not its types or defaults)."""
    node = node_at(outline, u.start) if outline.tree is not None else None
    while node is not None and node.type not in outline.spec.functions:
        node = node.parent
    if node is None:
        return set()
    params = next((n for n in _preorder(node, u.head_end) if n.type in _PARAMETER_LISTS), None)
    out: set[str] = set()
    stack = [params] if params is not None else []
    while stack:
        n = stack.pop()
        if n.type in ("identifier", "shorthand_property_identifier_pattern"):
            out.add(node_text(n))
        for i, c in enumerate(n.children):
            if n.field_name_for_child(i) not in ("type", "value", "default_value"):
                stack.append(c)
    return out


def _preorder(node: Any, last_row: int) -> Any:
    """Nodes under ``node`` in source order, down to those starting by ``last_row``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.start_point[0] > last_row:
            continue
        yield n
        stack.extend(reversed(n.children))


_PARAMETER_LISTS = frozenset(
    {"parameters", "formal_parameters", "parameter_list", "lambda_parameters"}
)
# A local a body declares or assigns (`const x =`, `x :=`, `let mut x =`, `x = …`)
_LOCAL = re.compile(
    r"\b(?:const|let|var|auto)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)\s*(?::(?!:)[^=;]*)?=(?!=)|"
    r"([A-Za-z_$][\w$]*)\s*:=|^[ \t]+([A-Za-z_$][\w$]*)[ \t]*=(?!=)",
    re.M,
)
_SELF = frozenset({"self", "this", "cls", "super", "Self"})


def _locals(text: str) -> set[str]:
    return {g for m in _LOCAL.findall(text) for g in m if g}


# Languages whose modules import what they use from another file by name
_BY_NAME = frozenset({"python", "javascript"})
_IMPORT_LINE = re.compile(r"\s*(?:from\s+\S+\s+)?import\b")
# `from x import *`: names come in unlisted (not JS `import * as ns`, which binds ns alone;
# `export * from` binds none here)
_STAR_IMPORT = re.compile(r"\bimport\s+\*(?!\s*as\b)")


def _is_source(text: str, fences: list[Fence], path: str | None) -> bool:
    """Whether a message holding fences is itself a source file: what lies outside them
    reads like code, and the whole parses (a fence line is valid in no grammar outside a
    comment or string, so a chat message with fenced code never does)."""
    lang = from_filename(path) if path else None
    # (a file its path names as source needs no cue outside them: a module docstring's
    # `~~~~` underline reads as a fence opened to the end of the file; so the whole text's
    # cues where the last fence is never closed)
    outside = outside_fences(text, fences) if fences[-1].closed else text
    if lang is None and not candidates(outside):
        return False
    return detect(text, lang) is not None


def _parser(lang: str) -> Callable[[str], bool]:
    """Whether a piece of code parses cleanly in ``lang``."""
    return lambda code: clean_parse(lang, code.encode()) is not None


def _parses(b: _Block, code: str) -> bool:
    """Whether trimmed ``code`` of ``b`` parses (and compiles, where the input did)."""
    if clean_parse(b.lang, code.encode()) is None:
        return False
    return b.lang != "python" or _compiles(code) or not _input_compiles(b)


def _compiles(code: str) -> bool:
    """Whether CPython parses ``code`` (Python 2, or syntax newer than this interpreter's,
    does not: such blocks are checked by tree-sitter alone)."""
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _input_compiles(b: _Block) -> bool:
    if b.compiles is None:
        b.compiles = _compiles(b.code)
    return b.compiles


def _dedent(code: str, indent: int) -> str | None:
    """The code of a fence indented ``indent`` spaces, as CommonMark reads it; None when a
    line is indented less (its original indentation could not be put back)."""
    if not indent:
        return code
    pad = " " * indent
    lines = code.splitlines(True)
    if any(line.strip() and not line.startswith(pad) for line in lines):
        return None
    # a whitespace-only line stays as it is: any grammar reads it as blank, and it goes
    # back unchanged (with fewer spaces than the indent, it could not be told apart)
    return "".join(line[indent:] if line.strip() else line for line in lines)


def _excerpts(
    messages: list[Message],
    blocks: list[_Block],
    broken: list[_Broken],
    cited: tuple[list[tuple[str, int, str | None]], int | None],
    over: int,
    ctx: Context,
) -> list[tuple[int, int | None, int, int, str]]:
    """Excerpts (message, part, span, text) of the ``broken`` blocks outside the newest
    user message, together ``over`` tokens smaller, around the rows the conversation's
    file:line references (``cited``: refs, newest user message) and the parser point at."""
    refs, newest = cited
    rows = _block_rows([*blocks, *broken], refs, newest)[len(blocks) :]
    losable = [k for k, w in enumerate(broken) if w.msg != newest]
    pool = max(1, sum(broken[k].tokens for k in losable))
    out = []
    for k in losable:
        w = broken[k]
        # first what a report points at where the parser fails too, then the rest of the
        # report's rows, then the parser's (in a file that never parsed here, noise)
        errors = error_rows(w.tree)
        near = sorted(rows[k], key=lambda r: all(abs(r - e) > 2 for e in errors))
        at = list(dict.fromkeys([*near, *errors]))
        text = _text_of(messages[w.msg], w.part)[w.start : w.end]
        target = w.tokens - over * w.tokens // pool - 1
        new = excerpt(text, w.lang, w.tree, at, target, ctx.counter.text)
        if new is None:
            continue
        out.append((w.msg, w.part, w.start, w.end, new))
        where = ", ".join(str(r + w.first_line) for r in at[:4])
        ctx.note(
            f"m{w.msg}: {w.lang} block {w.tokens}->{ctx.counter.text(new)} tokens; "
            f"excerpt around line {where} (it does not parse cleanly)"
        )
    return out


def _own(focus: Focus, b: _Block) -> Focus:
    """``focus`` for block ``b``: without the names only stack frames of other files give
    (the caller's `main` in `cli.py` is no `main` of this file), nor the frames of another
    file of its name (``frames_elsewhere``)."""
    filename = b.filename
    if not filename or not focus.frame_lines:  # (no frame: nothing to set aside)
        return focus
    here = {name for path, name in focus.frames if shared_tail(filename, path)}
    other = {name for path, name in focus.frames if not shared_tail(filename, path)} - here
    focus = replace(focus, strong=focus.strong - other) if other else focus
    return frames_elsewhere(b.outline, focus, filename, b.first_line)


def _block_rows(
    blocks: Sequence[_Block | _Broken],
    refs: list[tuple[str, int, str | None]],
    newest: int | None,
) -> list[frozenset[int]]:
    """Rows each block's file:line references point at. A reference goes to the blocks
    whose file name shares the most trailing path parts with it; one that matches no
    name goes to the one unnamed block, if its language can be that file's. A line named
    without a file goes to the one block the newest user message holds, or else to the
    one block there is."""
    mine: list[list[tuple[str, int, str | None]]] = [[] for _ in blocks]
    unnamed = [k for k, b in enumerate(blocks) if not b.filename]
    asked = [k for k, b in enumerate(blocks) if b.msg == newest] or list(range(len(blocks)))
    for r in refs:
        if not r[0]:
            if len(asked) == 1:
                mine[asked[0]].append(r)
            continue
        tails = [shared_tail(b.filename, r[0]) if b.filename else 0 for b in blocks]
        best = max(tails, default=0)
        if best:
            for k, t in enumerate(tails):
                if t == best:
                    mine[k].append(r)
        elif len(unnamed) == 1 and related(blocks[unnamed[0]].lang, from_filename(r[0])):
            mine[unnamed[0]].append(r)
    out = []
    for k, b in enumerate(blocks):
        refs_k = [(path, line - b.first_line + 1, shown) for path, line, shown in mine[k]]
        out.append(ref_rows(b.lines, refs_k, trusted=bool(b.filename)))
    return out


def _named(res: TrimResult, b: _Block, focus: Focus) -> str:
    """The focal units a note names (four at most); with none, what of the block the
    focal code of other blocks uses."""
    if res.focal:
        return ", ".join(res.focal[:4])
    called = focus.uses | focus.uses_members
    used = [
        # (of a `type ( … )` group, the name used)
        f"{u.owner}.{u.label}" if u.owner else next((w for w in u.defs if w in called), u.label)
        for u, d in used_elsewhere(b.outline, focus).items()
        if d == 1.0
    ]
    used = list(dict.fromkeys(used))
    if used:
        return f"none; used by other blocks' focal code: {', '.join(used[:4])}"
    users = [u.label for u in users_elsewhere(b.outline, focus)]
    if users:
        return f"none; uses other blocks' focal code: {', '.join(users)}"
    return "none (signature map)"


def _superseded(blocks: list[_Block], messages: list[Message]) -> dict[int, int]:
    """Tool results holding a file that a later tool result reads again, as much of it or
    more (by line numbers where the reads show them, else by the same call arguments):
    block -> the later read's message. An agent's edits in between make the earlier read
    stale; a user's pasted versions are left (one may be asked to be compared with the
    other)."""
    calls = {
        c.get("id"): str((c.get("function") or {}).get("arguments", ""))
        for m in messages
        for c in m.get("tool_calls") or []
    }

    def rows(b: _Block) -> tuple[int, int]:
        return b.first_line, b.first_line + b.code.count("\n")

    def same_call(b: _Block, c: _Block) -> bool:
        ids = (messages[b.msg].get("tool_call_id"), messages[c.msg].get("tool_call_id"))
        return calls.get(ids[0]) == calls.get(ids[1])

    reads = [
        k for k, b in enumerate(blocks) if b.filename and messages[b.msg].get("role") == "tool"
    ]
    latest = {blocks[k].filename: k for k in reads}
    out = {}
    for k in reads:
        j = latest[blocks[k].filename]
        (a, z), (a2, z2) = rows(blocks[k]), rows(blocks[j])
        # as much of the file (an edit may shorten it), and not another window of it
        covers = a2 <= a and 5 * z2 >= 4 * z
        window = bool(blocks[k].numbers and blocks[j].numbers) or same_call(blocks[k], blocks[j])
        if j != k and covers and window:
            out[k] = blocks[j].msg
    return out


def _text_of(msg: Message, part: int | None) -> str:
    return str(msg["content"] if part is None else msg["content"][part]["text"])


def _indent(code: str, indent: int, original: str) -> str:
    """``code`` put back in a fence indented ``indent`` spaces. Whitespace-only lines were
    never dedented (``_dedent``) and stay; an empty one the trimmer wrote gets the indent
    where every blank line of the original had it."""
    pad = " " * indent
    blank_pad = all(line.startswith(pad) for line in original.splitlines() if not line.strip())
    return "".join(
        pad + line if line.strip() or (blank_pad and not line.strip("\r\n")) else line
        for line in code.splitlines(True)
    )


def _apply(
    messages: list[Message],
    blocks: list[_Block],
    results: dict[int, str],
    raw: Sequence[tuple[int, int | None, int, int, str]] = (),
) -> list[Message]:
    """New message list with changed blocks spliced in (and ``raw`` edits: message, part,
    span, text as it goes in); untouched messages are the originals."""
    edits: dict[tuple[int, int | None], list[tuple[int, int, str]]] = {}
    for i, part, s, e, new in raw:
        edits.setdefault((i, part), []).append((s, e, new))
    for k, b in enumerate(blocks):
        if k in results:
            new = results[k]
            if b.numbers:
                new = renumber(new, b.code, b.numbers, elision(b.outline))
            new = new.replace("\n", "\r\n") if b.crlf else new
            if b.bom and results[k].split("\n", 1)[0] == b.code.split("\n", 1)[0]:
                new = "\ufeff" + new  # only on the row it began (a mark, not a line's text)
            if b.indent:
                new = _indent(new, b.indent, _text_of(messages[b.msg], b.part)[b.start : b.end])
            edits.setdefault((b.msg, b.part), []).append((b.start, b.end, new))
    if not edits:
        return list(messages)
    out = list(messages)
    for (i, part), spans in edits.items():
        msg = out[i]
        text = _text_of(msg, part)
        pieces, pos = [], 0
        for s, e, new in sorted(spans):
            pieces.append(text[pos:s])
            pieces.append(new)
            pos = e
        pieces.append(text[pos:])
        new_text = "".join(pieces)
        if part is None:
            out[i] = {**msg, "content": new_text}
        else:
            content = list(msg["content"])
            content[part] = {**content[part], "text": new_text}
            out[i] = {**msg, "content": content}
    return out
