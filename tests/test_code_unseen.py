"""Code-stage cases found on real code outside the benchmark corpora (small inline samples).

Each test goes through the public ``ctxpress.compress`` API: a code block with a
language tag that is missing or names a close relative must still be trimmed, parse,
and keep the focal function.
"""

from __future__ import annotations

import pytest

import ctxpress
from ctxpress.compressor.code import extract_focus
from ctxpress.compressor.code.fences import find_fences
from ctxpress.compressor.code.focal import find_focal
from ctxpress.compressor.code.languages import clean_parse, detect
from ctxpress.compressor.code.outline import build_outline

QUESTION = "Why does `{name}` return the wrong value?"


def _repeat(template: str, n: int) -> str:
    """``n`` helper definitions from ``template`` (``{i}`` is the index)."""
    return "".join(template.replace("{i}", str(i)) for i in range(n))


# `new` and `class` are identifiers in C, keywords in C++
C_HELPER = (
    "static int helper_{i}(int new, int class)\n{\n"
    "    int total = new * {i} + class;\n    total += {i} * 3;\n"
    "    return total - {i};\n}\n\n"
)
# an angle-bracket cast: TypeScript only (TSX reads `<number>` as a JSX tag)
TS_HELPER = (
    "export function helper{i}(x: unknown): number {\n"
    "  const y = <number>x * {i};\n  return y + {i};\n}\n\n"
)
TSX_HELPER = (
    "export function Row{i}(props: { label: string }) {\n"
    "  const text: string = props.label + '{i}';\n"
    '  return <div className="row{i}">{text}</div>;\n}\n\n'
)


PARSE_VALUE = (
    "export function parseValue(x: unknown): number {\n"
    "  const v = <number>x;\n  return helper3(v) + 1;\n}\n"
)
CASES = {
    # C that only the C grammar reads, fenced as ```cpp
    "c-under-cpp": (
        "cpp",
        "c",
        _repeat(C_HELPER, 10)
        + "int decode_one(int new)\n{\n    int r = helper_3(new, 1);\n    return r + 1;\n}\n",
        "decode_one",
        "int decode_one(int new)\n{\n    int r = helper_3(new, 1);\n    return r + 1;\n}\n",
    ),
    # TypeScript fenced as ```js
    "ts-under-js": (
        "js",
        "typescript",
        _repeat(TS_HELPER, 10) + PARSE_VALUE,
        "parseValue",
        PARSE_VALUE,
    ),
    # TSX with no tag and no file name: detection must reach the TSX grammar
    "tsx-untagged": (
        "",
        "tsx",
        "import React from 'react';\n\n"
        + _repeat(TSX_HELPER, 10)
        + "export function Table(props: { rows: string[] }) {\n"
        "  const items: string[] = props.rows;\n"
        "  return <ul>{items.map((r) => <Row3 label={r} />)}</ul>;\n}\n",
        "Table",
        "export function Table(props: { rows: string[] }) {\n"
        "  const items: string[] = props.rows;\n"
        "  return <ul>{items.map((r) => <Row3 label={r} />)}</ul>;\n}\n",
    ),
    # C with no tag and no `#include` (a file's middle pasted): its definitions are the cue
    "c-untagged": (
        "",
        "c",
        _repeat(C_HELPER.replace("static int", "int"), 10)
        + "int decode_one(int new)\n{\n    int r = helper_3(new, 1);\n    return r + 1;\n}\n",
        "decode_one",
        "int decode_one(int new)\n{\n    int r = helper_3(new, 1);\n    return r + 1;\n}\n",
    ),
    # TypeScript with no tag, no file name and none of the TypeScript line cues
    "ts-untagged-no-cues": (
        "",
        "typescript",
        _repeat(TS_HELPER, 10) + PARSE_VALUE,
        "parseValue",
        PARSE_VALUE,
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_relative_or_missing_tag_still_trims(case: str) -> None:
    tag, grammar, code, name, focal = CASES[case]
    question = QUESTION.format(name=name)
    content = f"Here is my code:\n```{tag}\n{code}```\n{question}"
    empty = f"Here is my code:\n```{tag}\n```\n{question}"
    assert clean_parse(grammar, code.encode()) is not None, "fixture must parse"
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": code}])
    budget = ctxpress.count_tokens([{"role": "user", "content": empty}]) + code_tokens // 2
    result = ctxpress.compress([{"role": "user", "content": content}], budget=budget)
    text = result.messages[0]["content"]
    fence = find_fences(text)[0]
    out = text[fence.code_start : fence.code_end]
    notes = [n for s in result.stages for n in s.notes]
    assert not any("left as is" in n for n in notes), notes
    assert len(out) < len(code) * 0.8, f"not trimmed: {notes}"
    assert clean_parse(grammar, out.encode()) is not None, out
    assert focal in out, out
    assert result.tokens_after <= budget
    assert text.endswith(f"```\n{question}")


# ------------------------------------------------------------- budget, focal and tables


def _trim(tag: str, code: str, name: str, share: float) -> tuple[str, int, int]:
    """(output block, tokens_after, budget) with ``share`` of the code's tokens to spend."""
    question = QUESTION.format(name=name)
    content = f"Here is my code:\n```{tag}\n{code}```\n{question}"
    empty = f"Here is my code:\n```{tag}\n```\n{question}"
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": code}])
    budget = ctxpress.count_tokens([{"role": "user", "content": empty}]) + int(share * code_tokens)
    result = ctxpress.compress([{"role": "user", "content": content}], budget=budget)
    text = result.messages[0]["content"]
    fence = find_fences(text)[0]
    assert text.endswith(f"```\n{question}")
    return text[fence.code_start : fence.code_end], result.tokens_after, budget


_DOC_LINES = "".join(
    f" * Example {i}: the collection is walked in order and each element is passed on.\n"
    for i in range(40)
)
_LEAD_DOC = {
    # language: (tag, grammar, helper(i), focal with its leading doc comment, focal alone)
    "javascript": (
        "js",
        "javascript",
        lambda i: (
            f"function helper{i}(xs) {{\n  const n = xs.length + {i};\n  return n * 2;\n}}\n\n"
        ),
        f"/**\n{_DOC_LINES} */\n",
        "function filter(xs, pred) {\n  const out = helper3(xs);\n  return out + pred;\n}\n",
    ),
    "java": (
        "java",
        "java",
        lambda i: (
            f"    static int helper{i}(int x) {{\n        int n = x + {i};\n"
            "        return n * 2;\n    }\n\n"
        ),
        f"    /**\n{_DOC_LINES}     */\n",
        "    static int filter(int xs, int pred) {\n"
        "        int out = helper3(xs);\n        return out + pred;\n    }\n",
    ),
    "rust": (
        "rust",
        "rust",
        lambda i: f"fn helper{i}(x: i32) -> i32 {{\n    let n = x + {i};\n    n * 2\n}}\n\n",
        "".join(
            f"/// Example {i}: the collection is walked in order, each element passed on.\n"
            for i in range(40)
        ),
        "pub fn filter(xs: i32, pred: i32) -> i32 {\n"
        "    let out = helper3(xs);\n    out + pred\n}\n",
    ),
    "go": (
        "go",
        "go",
        lambda i: f"func helper{i}(x int) int {{\n\tn := x + {i}\n\treturn n * 2\n}}\n\n",
        "".join(
            f"// Example {i}: the collection is walked in order, each element passed on.\n"
            for i in range(40)
        ),
        "func filter(xs int, pred int) int {\n\tout := helper3(xs)\n\treturn out + pred\n}\n",
    ),
}


@pytest.mark.parametrize("lang", sorted(_LEAD_DOC))
def test_focal_leading_doc_comment_gives_way_to_budget(lang: str) -> None:
    # A focal definition under a doc comment that alone is several times the budget:
    # the definition stays byte for byte, the comment goes, the budget holds.
    tag, grammar, helper, doc, focal = _LEAD_DOC[lang]
    body = "".join(helper(i) for i in range(12)) + doc + focal
    code = {"go": f"package util\n\n{body}", "java": f"class Util {{\n{body}}}\n"}.get(lang, body)
    assert clean_parse(grammar, code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim(tag, code, "filter", 0.15)
    assert focal in out, out
    assert "Example 7" not in out, out
    assert clean_parse(grammar, out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_java_constructor_named_like_class_opens_class() -> None:
    # `BSHTryStatement` names the class and its constructor: the constructor is the
    # focal definition, the class opens around it (not forced whole past the budget).
    big = "".join(f"        int v{i} = jjtGetChild({i}).hashCode() + {i};\n" for i in range(60))
    ctor = "\tTryStatement(int id)\n\t{\n\t\tsuper(id);\n\t}\n"
    code = (
        "package bsh;\n\nimport java.util.Vector;\n\n"
        "class TryStatement extends SimpleNode\n{\n" + ctor + "\n"
        "\tpublic Object eval(CallStack callstack, Interpreter interpreter)\n\t{\n"
        + big
        + "        return null;\n\t}\n}\n"
    )
    assert clean_parse("java", code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim("java", code, "TryStatement", 0.1)
    assert ctor in out, out
    assert "int v30 " not in out, out
    assert clean_parse("java", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_js_data_table_the_focal_reads_stays_defined() -> None:
    # `const table = { … }` read by the focal function: too big to keep whole, it stays
    # as its collapsed definition rather than vanishing (the focal would use an
    # undefined name).
    entries = "".join(
        f'  key{i}: {{\n    one: "one {i} value",\n    other: "{{{{count}}}} values {i}",\n  }},\n'
        for i in range(40)
    )
    helpers = "".join(
        f"function helper{i}(x) {{\n  const n = x + {i};\n  return n * 2;\n}}\n\n"
        for i in range(30)
    )
    focal = (
        "export const formatDistance = (token, count) => {\n"
        "  const group = formatDistanceLocale[token];\n"
        "  return count === 1 ? group.one : group.other.replace('{{count}}', String(count));\n"
        "};\n"
    )
    code = f"const formatDistanceLocale = {{\n{entries}}};\n\n{helpers}{focal}"
    assert clean_parse("javascript", code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim("js", code, "formatDistance", 0.15)
    assert focal in out, out
    assert "const formatDistanceLocale = {" in out, out
    assert clean_parse("javascript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_many_same_named_definitions_link_to_the_nearest(monkeypatch: pytest.MonkeyPatch) -> None:
    # Files pasted together (or many overloads / `#ifdef` variants) define one name many
    # times: a reference links to the nearest few definitions, not to every one, so the
    # relevance search stays linear in the size of the file.
    from ctxpress.compressor.code import outline as model

    copies = 40
    code = "".join(
        f"def helper(x):\n    y = other(x) + {i}\n    return y * 2\n\n\n"
        f"def other(x):\n    z = helper(x - 1) + {i}\n    return z - 1\n\n\n"
        for i in range(copies)
    )
    code += "def focal_entry(x):\n    r = helper(x)\n    return r + 1\n"
    edges = 0
    deps = model._deps

    def counting(outline: model.Outline, unit: model.Unit) -> list[tuple[float, model.Unit]]:
        nonlocal edges
        out = deps(outline, unit)
        edges += len(out)
        return out

    monkeypatch.setattr(model, "_deps", counting)
    out, after, budget = _trim("python", code, "focal_entry", 0.2)
    assert "def focal_entry(x):\n    r = helper(x)\n    return r + 1\n" in out, out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)
    assert edges <= 10 * (2 * copies + 1), edges


def test_go_cgo_preamble_is_not_forced_with_import_c() -> None:
    # The comment right above `import "C"` is C code for cgo: the focal function's `C.`
    # calls keep `import "C"`, but the preamble is an ordinary droppable part.
    preamble = "".join(
        f"static int c_helper_{i}(int x) {{ return x * {i} + 1; }}\n" for i in range(60)
    )
    helpers = "".join(
        f"func helper{i}(x int) int {{\n\tn := x + {i}\n\treturn n * 2\n}}\n\n" for i in range(8)
    )
    focal = (
        "func Next(x int) int {\n\tr := C.c_helper_3(C.int(x))\n\treturn int(r) + helper2(x)\n}\n"
    )
    code = (
        f'package sqlite3\n\n/*\n#include <stdlib.h>\n{preamble}*/\nimport "C"\n\n{helpers}{focal}'
    )
    assert clean_parse("go", code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim("go", code, "Next", 0.2)
    assert focal in out, out
    assert '\nimport "C"\n' in out, out
    assert "c_helper_40" not in out, out
    assert clean_parse("go", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_java_doc_comments_travel_with_their_methods() -> None:
    helpers = "".join(
        f"    /** Helper {i} scales its input. */\n"
        f"    static int helper{i}(int x) {{\n        int n = x * {i};\n"
        f"        n += {i} * 7;\n        return n - {i};\n    }}\n\n"
        for i in range(12)
    )
    focal = (
        "    /** Keeps what the predicate accepts. */\n"
        "    static int filter(int xs, int pred) {\n"
        "        int out = helper3(xs);\n        return out + pred;\n    }\n"
    )
    code = f"class Util {{\n{helpers}{focal}}}\n"
    out, after, budget = _trim("java", code, "filter", 0.3)
    assert clean_parse("java", out.encode()) is not None, out
    assert focal in out, out
    assert after <= budget
    for i in range(12):
        doc = f"/** Helper {i} scales its input. */"
        kept = f"        int n = x * {i};\n" in out
        assert (doc in out) == kept, f"helper{i}: its comment {'lost' if kept else 'orphaned'}"


@pytest.mark.parametrize("closing", ["}}\n", "} // namespace algo\n} // namespace lib\n"])
def test_cpp_namespaces_opened_on_one_line_trim_inside(closing: str) -> None:
    # `namespace lib { namespace algo {` (boost style): the pair opens as one block, so
    # the focal function does not drag the whole namespace in past the budget.
    helpers = _repeat(
        "template <typename T>\nT helper_{i}(T x) {\n    T y = x * {i};\n"
        "    y += {i} * 3;\n    return y - {i};\n}\n\n",
        14,
    )
    focal = "int decode_one(int c) {\n    return helper_3(c) + 1;\n}\n"
    code = f"#include <vector>\n\nnamespace lib {{ namespace algo {{\n\n{helpers}{focal}\n{closing}"
    assert clean_parse("cpp", code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim("cpp", code, "decode_one", 0.3)
    assert clean_parse("cpp", out.encode()) is not None, out
    assert focal in out, out
    assert after <= budget, (after, budget)


# ------------------------------------------------- what the focal uses, within the budget

_PY_FILLER = _repeat("def helper{i}(x):\n    y = x * {i} + 1\n    return y - {i}\n\n\n", 20)
_TABLES = {
    # language: (tag, table the focal reads, filler, focal, collapsed head kept)
    "python": (
        "python",
        "STYLE_MAP = {\n"
        + "".join(f'    {i}: "style number {i} with a long description",\n' for i in range(60))
        + "}\n\n\n",
        _PY_FILLER,
        "def decode(code):\n    style = STYLE_MAP.get(code)\n    return helper3(style)\n",
        "STYLE_MAP = {\n",
    ),
    "javascript": (
        "js",
        "export var extensions = {\n"
        + "".join(f'  key{i}: "extension number {i} with a long text",\n' for i in range(60))
        + "};\n\n",
        _repeat("function helper{i}(x) {\n  const y = x * {i} + 1;\n  return y - {i};\n}\n\n", 20),
        "function decode(code) {\n  const e = extensions[code];\n  return helper3(e);\n}\n",
        "export var extensions = {\n",
    ),
    "go": (
        "go",
        "package tables\n\nvar styleMap = map[int]string{\n"
        + "".join(f'\t{i}: "style number {i} with a long description",\n' for i in range(60))
        + "}\n\n",
        _repeat("func helper{i}(x int) int {\n\ty := x*{i} + 1\n\treturn y - {i}\n}\n\n", 20),
        "func decode(code int) int {\n\ts := styleMap[code]\n\treturn helper3(len(s))\n}\n",
        "var styleMap = map[int]string{\n",
    ),
    "rust": (
        "rust",
        "static STYLES: [&str; 60] = [\n"
        + "".join(f'    "style number {i} with a long description",\n' for i in range(60))
        + "];\n\n",
        _repeat(
            "fn helper{i}(x: usize) -> usize {\n    let y = x * {i} + 1;\n    y - {i}\n}\n\n", 20
        ),
        "fn decode(code: usize) -> usize {\n    let s = STYLES[code];\n    helper3(s.len())\n}\n",
        "static STYLES: [&str; 60] = [\n",
    ),
    "c": (
        "c",
        "static const char *styles[] = {\n"
        + "".join(f'    "style number {i} with a long description",\n' for i in range(60))
        + "};\n\n",
        _repeat(
            "static int helper{i}(int x)\n{\n    int y = x * {i} + 1;\n    return y - {i};\n}\n\n",
            20,
        ),
        "int decode(int code)\n{\n    const char *s = styles[code];\n"
        "    return helper3(s[0]);\n}\n",
        "static const char *styles[] = {\n",
    ),
}


@pytest.mark.parametrize("lang", sorted(_TABLES))
def test_table_the_focal_reads_collapses_within_budget(lang: str) -> None:
    # A module-level table the focal reads, bigger than the budget: it stays defined as
    # its head over an elided body (`X = {` … `}`) instead of being forced in whole.
    tag, table, filler, focal, head = _TABLES[lang]
    grammar = {"js": "javascript"}.get(tag, tag)
    code = table + filler + focal
    assert clean_parse(grammar, code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim(tag, code, "decode", 0.2)
    assert focal in out, out
    assert head in out, out
    assert "number 30" not in out, out
    assert clean_parse(grammar, out.encode()) is not None, out
    assert after <= budget, (after, budget)


_NAMES = [f"observableThing{i}" for i in range(40)]


@pytest.mark.parametrize("lang", ["typescript", "python", "rust"])
def test_long_import_list_keeps_the_lines_the_focal_uses(lang: str) -> None:
    # `import {` forty names `} from "../internal"`: past the budget whole, so only the
    # lines naming what the focal uses stay (whole lines; the list still parses).
    if lang == "typescript":
        imp = "import {\n" + "".join(f"  {n},\n" for n in _NAMES) + '} from "../internal"\n\n'
        filler = _repeat(
            "function helper{i}(x: number): number {\n  const y = x * {i} + 1;\n"
            "  return y - {i};\n}\n\n",
            20,
        )
        focal = (
            "export function revoke(x: number): number {\n"
            "  return observableThing7(helper3(x));\n}\n"
        )
    elif lang == "python":
        imp = "from .internal import (\n" + "".join(f"    {n},\n" for n in _NAMES) + ")\n\n\n"
        filler = _PY_FILLER
        focal = "def revoke(x):\n    return observableThing7(helper3(x))\n"
    else:
        imp = "use crate::internal::{\n" + "".join(f"    {n},\n" for n in _NAMES) + "};\n\n"
        filler = _repeat(
            "fn helper{i}(x: usize) -> usize {\n    let y = x * {i} + 1;\n    y - {i}\n}\n\n", 20
        )
        focal = "pub fn revoke(x: usize) -> usize {\n    observableThing7(helper3(x))\n}\n"
    code = imp + filler + focal
    assert clean_parse(lang, code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim({"typescript": "ts"}.get(lang, lang), code, "revoke", 0.12)
    assert focal in out, out
    assert "observableThing7," in out, out
    assert "observableThing30," not in out, out
    assert clean_parse(lang, out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_used_statement_keeps_its_definition_not_its_long_comment() -> None:
    # `let globalHydrated = false` under a long comment: the focal needs the name, not
    # the prose, so the statement stays without its comment when the whole does not fit.
    comment = "".join(
        f"// Note {i}: hydration is tracked once per page load here.\n" for i in range(30)
    )
    filler = _repeat(
        "function helper{i}(x) {\n  const y = x * {i} + 1;\n  return y - {i};\n}\n\n", 12
    )
    focal = "export function useHydrated() {\n  return helper3(globalHydrated);\n}\n"
    code = f"{comment}let globalHydrated = false\n\n{filler}{focal}"
    out, after, budget = _trim("js", code, "useHydrated", 0.2)
    assert focal in out, out
    assert "let globalHydrated = false\n" in out, out
    assert "Note 20" not in out, out
    assert clean_parse("javascript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_wildcard_import_of_another_module_block_is_not_forced() -> None:
    # `mod tests { use super::*; … }` blocks: their wildcard imports bring names into
    # their own module, not the focal function's, so they do not drag the blocks open.
    mods = _repeat(
        "#[cfg(test)]\nmod tests_{i} {\n    use super::*;\n\n    #[test]\n"
        "    fn check_{i}() {\n        assert_eq!(helper{i}(1), {i} + 1);\n    }\n}\n\n",
        10,
    )
    helpers = _repeat(
        "fn helper{i}(x: usize) -> usize {\n    let y = x * {i} + 1;\n    y - {i}\n}\n\n", 10
    )
    focal = "pub fn decode(code: usize) -> usize {\n    helper3(code) + 1\n}\n"
    code = helpers + focal + "\n" + mods
    assert clean_parse("rust", code.encode()) is not None, "fixture must parse"
    out, after, budget = _trim("rust", code, "decode", 0.1)
    assert focal in out, out
    assert out.count("use super::*;") < 2, out
    assert clean_parse("rust", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_one_definition_keeps_an_overloaded_name_defined() -> None:
    # `@t.overload` stubs before the implementation: one definition keeps `command`
    # defined (the last: it is the one Python binds); the stubs are not all forced in.
    stubs = _repeat(
        "@t.overload\ndef command(\n    name: t.Optional[str] = None,\n"
        "    cls: t.Type[Command{i}] = ...,\n    **attrs: t.Any,\n"
        ") -> t.Callable[..., Command{i}]:\n    ...\n\n\n",
        6,
    )
    impl = (
        "def command(name=None, cls=None, **attrs):\n"
        + "".join(f"    attrs.setdefault('k{k}', {k})  # option {k}\n" for k in range(10))
        + "    return make(name, cls, attrs)\n\n\n"
    )
    focal = "def help_option(*decls):\n    return command(*decls, is_flag=True)\n"
    code = "import typing as t\n\n\n" + stubs + impl + _PY_FILLER + focal
    out, after, budget = _trim("python", code, "help_option", 0.08)
    assert focal in out, out
    assert "def command(name=None, cls=None, **attrs):\n" in out, out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_focal_that_nearly_fills_the_budget_sheds_elision_lines() -> None:
    # The focal method takes 75 % of the budget: the class around it (it must, to parse)
    # and the package line stay, and the elision lines of dropped members give way rather
    # than the budget.
    # (It calls no sibling: what it calls is defined past the budget, as names are.)
    members = _repeat(
        "    /** Member {i}. */\n    public int value{i}(int x) {\n"
        "        int y = x * {i};\n        return y + {i};\n    }\n\n",
        6,
    )
    focal = (
        "    @Override\n    public String toString() {\n"
        "        StringBuilder sb = new StringBuilder();\n"
        + "".join(f'        sb.append("part {k}").append({k} * 2);\n' for k in range(2))
        + "        return sb.toString();\n    }\n"
    )
    code = (
        "package jdk.jshell;\n\nimport java.util.List;\nimport java.util.Map;\n\n"
        "public class MethodSnippet extends DeclarationSnippet {\n\n"
        f"    private final int field0 = 0;\n\n{members}{focal}\n"
        f"{members.replace('value', 'other')}}}\n"
    )
    assert clean_parse("java", code.encode()) is not None, "fixture must parse"
    focal_tokens = ctxpress.count_tokens(focal)
    code_tokens = ctxpress.count_tokens([{"role": "user", "content": code}])
    out, after, budget = _trim("java", code, "toString", focal_tokens / 0.75 / code_tokens)
    assert focal in out, out
    assert "public class MethodSnippet extends DeclarationSnippet {\n" in out, out
    assert clean_parse("java", out.encode()) is not None, out
    assert after <= budget, (after, budget)


# ------------------------------------------------------- error reports and maps (file:line)


def _send(head: str, code: str, post: str, share: float) -> tuple[str, int, int]:
    """(first output block, tokens_after, budget): ``code`` between ``head`` and ``post``."""
    empty = [{"role": "user", "content": f"{head}```\n{post}"}]
    budget = ctxpress.count_tokens(empty) + int(share * ctxpress.count_tokens(code))
    result = ctxpress.compress([{"role": "user", "content": f"{head}{code}```\n{post}"}], budget)
    text = result.messages[0]["content"]
    assert text.startswith(head) and text.endswith(post), text
    fence = find_fences(text)[0]
    return text[fence.code_start : fence.code_end], result.tokens_after, budget


# (tag, grammar, file, code before the helpers, helper, target, code after, report); the
# target is last (a map would fill bodies from the top) and named only where the format does.
_REPORTS: dict[str, tuple[str, str, str, str, str, str, str, str]] = {
    "tsc": (
        "ts", "typescript", "src/frame.ts", "",
        "export function helper{i}(x: number): number {\n"
        "  const y = x * {i};\n  return y + {i};\n}\n\n",
        "export function checksum(data: number[]): number {\n  let total = 0;\n"
        "  for (const b of data) {\n    total = total * 31 + b;\n  }\n  return total;\n}\n",
        "", "src/frame.ts({n},5): error TS2322: Type 'string' is not assignable to type 'number'.",
    ),
    "vite": (
        "tsx", "tsx", "src/frame.tsx", "",
        "export function Helper{i}(props: { x: number }) {\n  const y = props.x * {i};\n"
        "  return <b>{y}</b>;\n}\n\n",
        "export function Checksum(props: { data: number[] }) {\n  let total = 0;\n"
        "  for (const b of props.data) {\n    total = total * 31 + b;\n  }\n"
        "  return <span>{total}</span>;\n}\n",
        "", "Uncaught TypeError: Cannot read properties of undefined (reading 'map')\n"
        "    at http://localhost:5173/src/frame.tsx?t=1718000000000:{n}:5",
    ),
    "msvc": (
        "cpp", "cpp", "src/frame.cpp", "#include <vector>\n\n",
        "static int helper{i}(int x) {\n  int y = x * {i};\n  return y + {i};\n}\n\n",
        "int checksum(const std::vector<int>& data) {\n  int total = 0;\n"
        "  for (int b : data) {\n    total = total * 31 + b;\n  }\n  return total;\n}\n",
        "", "C:\\work\\src\\frame.cpp({n}): error C2440: 'return': cannot convert from 'int'",
    ),
    "gcc": (
        "c", "c", "frame.c", "#include <stddef.h>\n\n",
        "static int helper{i}(int x) {\n  int y = x * {i};\n  return y + {i};\n}\n\n",
        "int checksum(const int *data, size_t n) {\n  int total = 0;\n"
        "  for (size_t k = 0; k < n; k++) {\n    total = total * 31 + data[k];\n  }\n"
        "  return total;\n}\n",
        "", "frame.c:{n}:5: error: invalid operands to binary + (have 'int' and 'double')",
    ),
    "go": (
        "go", "go", "codec/frame.go", "package codec\n\n",
        "func helper{i}(x int) int {\n\ty := x * {i}\n\treturn y + {i}\n}\n\n",
        "func checksum(data []int) int {\n\ttotal := 0\n\tfor _, b := range data {\n"
        "\t\ttotal = total*31 + b\n\t}\n\treturn total\n}\n",
        "", "# example.com/codec\n./frame.go:{n}:3: cannot use nil as int value in assignment",
    ),
    "rustc": (
        "rust", "rust", "src/frame.rs", "",
        "fn helper{i}(x: i64) -> i64 {\n    let y = x * {i};\n    y + {i}\n}\n\n",
        "fn checksum(data: &[i64]) -> i64 {\n    let mut total = 0;\n    for b in data {\n"
        "        total = total * 31 + b;\n    }\n    total\n}\n",
        "", "error[E0308]: mismatched types\n  --> src/frame.rs:{n}:9\n   |",
    ),
    "mypy": (
        "python", "python", "frame.py", "",
        "def helper{i}(x):\n    y = x * {i}\n    return y + {i}\n\n\n",
        "def checksum(data):\n    total = 0\n    for b in data:\n"
        "        total = total * 31 + b\n    return total\n",
        "", '/srv/app/codec/frame.py:{n}: error: Unsupported operand types for * ("str" and "int")',
    ),
    "java": (
        "java", "java", "Frame.java", "package com.acme.codec;\n\nclass Frame {\n",
        "    static int helper{i}(int x) {\n"
        "        int y = x * {i};\n        return y + {i};\n    }\n\n",
        "    static int checksum(int[] data) {\n        int total = 0;\n"
        "        for (int b : data) {\n"
        "            total = total * 31 + b;\n        }\n        return total;\n    }\n",
        "}\n", 'Exception in thread "main" java.lang.IllegalStateException: bad\n'
        "\tat com.acme.codec.Frame.checksum(Frame.java:{n})\n\tat com.acme.Main.main(Main.java:9)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("fmt", sorted(_REPORTS))
def test_error_report_file_line_points_at_the_focal(fmt: str) -> None:
    # tsc / MSVC `file(12,5)`, a dev server URL with `?t=`, a path longer or shorter than
    # the one the prose names: the line inside `checksum` makes it focal, byte for byte.
    # A Java frame's package path (`com.acme.codec.Frame.`) makes no class focal.
    tag, grammar, name, pre, helper, target, end, report = _REPORTS[fmt]
    code = pre + _repeat(helper, 16) + target + end
    assert clean_parse(grammar, code.encode()) is not None, "fixture must parse"
    n = next(k for k, line in enumerate(code.split("\n"), 1) if "31" in line)
    post = f"I get this:\n```\n{report.format(n=n)}\n```\nWhat is wrong?"
    out, after, budget = _send(f"Here is `{name}`:\n```{tag}\n", code, post, 0.3)
    assert target in out, out
    assert clean_parse(grammar, out.encode()) is not None, out
    assert after <= budget, (after, budget)
    assert "y + 7" not in out, "not trimmed (the whole file or class kept)"


def test_file_line_goes_to_the_block_whose_path_ends_alike() -> None:
    # Two `util.py` blocks: `pkg_b/util.py:N` makes `pkg_b`'s function at line N focal,
    # not `pkg_a`'s at the same line.
    def code(tag: str) -> str:
        body = "".join(f"    v = v * {i} + {tag}_{i}(v)\n" for i in range(6))
        return _repeat("def helper{i}(x):\n    y = x * {i}\n    return y + {i}\n\n\n", 12) + (
            f"def run_{tag}(v):\n{body}    return v\n"
        )

    a, b = code("a"), code("b")
    n = next(k for k, line in enumerate(b.split("\n"), 1) if "b_3(v)" in line)
    head = f"Here is `pkg_a/util.py`:\n```python\n{a}```\nand `pkg_b/util.py`:\n```python\n"
    post = f"mypy says:\n```\npkg_b/util.py:{n}: error: Incompatible types in assignment\n```"
    empty = [{"role": "user", "content": head.replace(a, "") + "```\n" + post}]
    budget = ctxpress.count_tokens(empty) + int(0.3 * ctxpress.count_tokens(a + b))
    result = ctxpress.compress([{"role": "user", "content": f"{head}{b}```\n{post}"}], budget)
    text = result.messages[0]["content"]
    out_a, out_b = (text[f.code_start : f.code_end] for f in find_fences(text)[:2])
    assert "def run_b(v):\n" + b.split("def run_b(v):\n")[1] in out_b, out_b
    assert "a_3(v)" not in out_a, out_a
    assert result.tokens_after <= budget


def test_report_showing_the_source_line_finds_it_in_an_excerpt() -> None:
    # No file name for the block, and its lines are not the file's (an excerpt): the
    # line rustc prints under `--> src/codec.rs:412:9` finds the row it means.
    helpers = _repeat("fn helper{i}(x: i64) -> i64 {\n    let y = x * {i};\n    y + {i}\n}\n\n", 16)
    target = (
        "fn checksum(data: &[i64]) -> i64 {\n    let mut total = 0;\n    for b in data {\n"
        "        total = total * 31 + b;\n    }\n    total\n}\n"
    )
    report = (
        "error[E0308]: mismatched types\n   --> src/codec.rs:412:9\n    |\n"
        "412 |         total = total * 31 + b;\n    |         ^^^^^ expected `i64`"
    )
    post = f"The compiler says:\n```\n{report}\n```\nWhat is wrong?"
    out, after, budget = _send("Part of my code:\n```rust\n", helpers + target, post, 0.3)
    assert target in out, out
    assert clean_parse("rust", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_file_name_words_do_not_pull_a_definition_out_of_the_map() -> None:
    # "Here is `filter.js`", no focal: `filter` is named by the file, not by the prose;
    # weighed as a hint it went whole or nothing (its doc comment over the budget) and
    # the map lost its one signature.
    doc = "/**\n" + "".join(f" * Example {k}: _.filter(users, 'active');\n" for k in range(40))
    code = (
        "import baseFilter from './_baseFilter.js';\nimport isArray from './isArray.js';\n\n"
        f"{doc} */\nfunction filter(collection, predicate) {{\n"
        "  var func = isArray(collection) ? baseFilter : baseFilter;\n"
        "  return func(collection, predicate);\n}\n\nexport default filter;\n"
    )
    out, after, budget = _send("Here is `filter.js`:\n```js\n", code, "Summarize this file.", 0.5)
    assert "function filter(collection, predicate) {" in out, out
    assert clean_parse("javascript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_interface_stubs_are_not_the_task_of_a_map() -> None:
    # "Summarize this file." names nothing; the file's only empty methods are the
    # base class's `raise NotImplementedError` stubs its subclasses implement, and a
    # Protocol's `...` stubs. Taken for bodies to write, they pulled their class in
    # whole and the map lost the classes after it.
    body = "".join(f"        total = total * 31 + {k}  # step {k}\n" for k in range(10))
    impl = "    def {m}(self, key):\n        total = 0\n" + body + "        return total\n\n"
    stub = '    def {m}(self, key):\n        """{doc}"""\n        raise NotImplementedError()\n\n'
    doc = "Subclasses override this. " * 12
    code = (
        "import typing as t\n\n\nclass Client(t.Protocol):\n"
        "    def get(self, key: str) -> bytes:\n        ...\n\n"
        "    def set(self, key: str, value: bytes) -> None:\n        ...\n\n\n"
        "class Cache:\n" + stub.format(m="load", doc=doc) + stub.format(m="dump", doc=doc)
    )
    for i in range(6):
        code += f"\nclass Cache{i}(Cache):\n" + impl.format(m="load") + impl.format(m="dump")
    out, after, budget = _send(
        "Here is `cache.py`:\n```python\n", code, "Summarize this file.", 0.2
    )
    heads = ["class Client(t.Protocol):", "class Cache:"] + [
        f"class Cache{i}(Cache):" for i in range(6)
    ]
    rows = out.split("\n")
    assert all(h in rows for h in heads), out
    # every class's members listed, the stubs' included
    assert all(rows.count(f"    def {m}(self, key):") == 7 for m in ("load", "dump")), out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_typescript_map_keeps_type_aliases_before_member_signatures() -> None:
    # Type aliases are definitions: in a map they come with the other top-level
    # signatures, not after every method of the classes below them.
    aliases = "".join(f"export type Mode{i} = 'a{i}' | 'b{i}' | 'c{i}'\n" for i in range(8))
    aliases += (
        "export type Options = {\n  mode: Mode0\n  retries: number\n  verbose: boolean\n}\n\n"
    )
    methods = "".join(
        f"  method{k}(n: number): number {{\n    let acc = 0;\n"
        + "".join(f"    acc = acc + {j} * n; // step {j}\n" for j in range(6))
        + "    return acc;\n  }\n\n"
        for k in range(14)
    )
    code = aliases + "export class Engine {\n" + methods + "}\n"
    out, after, budget = _send("Here is `engine.ts`:\n```ts\n", code, "Summarize this file.", 0.15)
    rows = out.split("\n")
    assert all(f"export type Mode{i} = 'a{i}' | 'b{i}' | 'c{i}'" in rows for i in range(8)), out
    assert "export type Options = {" in rows and "export class Engine {" in rows, out
    assert clean_parse("typescript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_overload_stubs_give_way_to_the_definitions_in_a_map() -> None:
    # `@overload` stubs repeat the signature of a function defined below them: a map
    # lists every function once before it repeats any.
    body = "".join(f"    total = total * 31 + {k}  # step {k}\n" for k in range(8))
    code = "import typing as t\n\n\n"
    for i in range(8):
        for kind in ("int", "str", "bytes"):
            code += f"@t.overload\ndef convert_{i}(value: {kind}, strict: bool = ...) -> {kind}:\n"
            code += "    ...\n\n\n"
        code += (
            f"def convert_{i}(value, strict=False):\n    total = 0\n{body}    return total\n\n\n"
        )
    out, after, budget = _send("Here is `conv.py`:\n```python\n", code, "Summarize this file.", 0.1)
    rows = out.split("\n")
    assert all(f"def convert_{i}(value, strict=False):" in rows for i in range(8)), out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_long_union_type_alias_collapses_to_its_first_member_in_a_map() -> None:
    members = "".join(f"  | {{ type: 'event_{i}'; payload: Payload{i} }}\n" for i in range(30))
    funcs = "".join(
        f"export function handle{i}(e: Event): number {{\n  let n = 0;\n"
        + "".join(f"  n += {k};\n" for k in range(6))
        + "  return n;\n}\n\n"
        for i in range(6)
    )
    code = f"export type Event =\n{members}\n{funcs}"
    out, after, budget = _send("Here is `events.ts`:\n```ts\n", code, "Summarize this file.", 0.25)
    rows = out.split("\n")
    assert "export type Event =" in rows and "  | { type: 'event_0'; payload: Payload0 }" in rows
    assert "  | { type: 'event_29'; payload: Payload29 }" not in rows, out
    assert all(f"export function handle{i}(e: Event): number {{" in rows for i in range(6)), out
    assert clean_parse("typescript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


# (tag, grammar, first line of a long value, its content line k, closing line, helper i,
# focal): the focal uses the value, which must stay defined; collapsed between its
# delimiters (CSS-in-JS template literal, Python help text) it still parses and leaves room.
_LONG_VALUES: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "js-template-literal": (
        "js", "javascript", "const enter = (f) => `",
        "{k}% {{transform: translate3d(0,${{f * {k}}}%,0); opacity:.{k};}}", "`;",
        "function helper{i}(n) {{\n  let acc = 0;\n{steps}  return acc;\n}}\n\n",
        "export function animate(visible) {\n  return visible ? enter(1) : 'none';\n}\n",
    ),
    "python-string": (
        "python", "python", 'import sys\n\nUSAGE = """',
        "  --option-{k}  what option {k} does, in one line of help", '"""',
        "def helper_{i}(n):\n    acc = 0\n{steps}    return acc\n\n\n",
        "def animate(code=1):\n    print(USAGE, file=sys.stderr)\n    sys.exit(code)\n",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(_LONG_VALUES))
def test_a_long_value_the_focal_uses_collapses_to_stay_in_budget(case: str) -> None:
    tag, grammar, opening, line, closing, helper, focal = _LONG_VALUES[case]
    content = "".join(line.format(k=k) + "\n" for k in range(40))
    indent = "    " if grammar == "python" else "  "
    steps = "".join(f"{indent}acc = acc + {k} * n\n" for k in range(8))
    helpers = "".join(helper.format(i=i, steps=steps) for i in range(4))
    code = f"{opening}\n{content}{closing}\n\n\n{helpers}{focal}"
    post = "Why does `animate` return the wrong value?"
    out, after, budget = _send(f"Here is my code:\n```{tag}\n", code, post, 0.15)
    rows = out.split("\n")
    assert focal in out and opening.split("\n")[-1] in rows and closing in rows, out
    assert line.format(k=20) not in rows, out
    assert clean_parse(grammar, out.encode()) is not None, out
    assert after <= budget, (after, budget)


# ------------------------------------------------- callees kept whole (the closure)

# (tag, grammar, helpers, callee, focal name, focal): the focal calls the callee through a
# receiver of unknown type -- an attribute of an attribute, a call's result, a type
# assertion -- that no other method of the file shares a name with.
_CHAINS: dict[str, tuple[str, str, str, str, str, str]] = {
    "python-attribute-of-attribute": (
        "python", "python",
        "class Env:\n" + _repeat(
            "    def other{i}(self, x):\n        y = x * {i} + len(str(x))\n"
            "        return y - {i}\n\n", 14),
        "    def lookup(self, obj, name):\n        value = getattr(obj, name, None)\n"
        "        return value if value is not None else name\n\n",
        "get_field",
        "class Formatter:\n    def __init__(self, env):\n        self._env = env\n\n"
        "    def get_field(self, name, obj):\n        value = self._env.lookup(obj, name)\n"
        "        return value, name\n",
    ),
    "python-result-of-call": (
        "python", "python",
        "class Text:\n" + _repeat(
            "    def other{i}(self, x):\n        y = x * {i} + len(str(x))\n"
            "        return y - {i}\n\n", 14),
        "    def merge(self, lines):\n        out = [self] + list(lines)\n"
        "        return out\n\n",
        "with_guides",
        "    def with_guides(self, size):\n        text = self.copy_plain()\n"
        "        return text.blank(size).merge([text])\n",
    ),
    "rust-self-constructor-chain": (
        "rust", "rust",
        "pub struct Error {\n    kind: u32,\n    cmd: u32,\n}\n\nimpl Error {\n" + _repeat(
            "    pub fn other{i}(&self, x: u32) -> u32 {\n        let y = x * {i} + self.kind;\n"
            "        y - {i}\n    }\n\n", 14),
        "    pub fn with_cmd(mut self, cmd: u32) -> Self {\n        self.cmd = cmd;\n"
        "        self\n    }\n\n",
        "double_dash",
        "    pub fn double_dash(cmd: u32) -> Self {\n"
        "        let err = Self::default_for(7).with_cmd(cmd);\n        err\n    }\n}\n",
    ),
    "go-type-assertion": (
        "go", "go",
        "package cmp\n\ntype diffStats struct {\n\tN int\n}\n\n" + _repeat(
            "func other{i}(x int) int {\n\ty := x * {i}\n\treturn y - {i}\n}\n\n", 14),
        "func (s diffStats) Append(ds diffStats) diffStats {\n\ts.N += ds.N\n\treturn s\n}\n\n",
        "AppendEllipsis",
        "func AppendEllipsis(rec map[string]any, ds diffStats) {\n"
        "\trec[\"c\"] = rec[\"c\"].(diffStats).Append(ds)\n}\n",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(_CHAINS))
def test_a_method_called_through_a_chain_is_kept(case: str) -> None:
    # `self._env.lookup(…)`, `x.f().merge(…)`, `Self::new().with_cmd(…)`, `v.(T).Append(…)`:
    # the callee was never linked (only the first link of a chain was read), so it
    # went to the map as a signature though it fit.
    tag, grammar, helpers, callee, name, focal = _CHAINS[case]
    marker = {"python": ":\n", "rust": "impl Error {\n", "go": "}\n\n"}[tag]
    # the callee first: far from the focal, so nearness alone would not keep it
    code = helpers.replace(marker, marker + callee, 1) + focal
    out, after, budget = _send(
        f"Here is my code:\n```{tag}\n", code, f"Why does `{name}` return the wrong value?", 0.5
    )
    assert callee.rstrip("\n") in out, out
    assert clean_parse(grammar, out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_callee_whose_doc_comment_does_not_fit_keeps_its_code() -> None:
    doc = "/**\n" + _repeat(" * Example {i}: toValue('{i}') gives {i} back as a number.\n", 30)
    callee = (
        "function toValue(str: unknown) {\n  if (!str) return ''\n"
        "  if (str === 'false') return false\n  return +str\n}\n"
    )
    helpers = _repeat(
        "export function helper{i}(x: number): number {\n"
        "  const y = x * {i}\n  return y + {i}\n}\n\n",
        8,
    )
    focal = (
        "export function decode(str: string): unknown[] {\n  const out: unknown[] = []\n"
        "  for (const part of str.split('&')) out.push(toValue(part))\n  return out\n}\n"
    )
    code = f"{doc} */\n{callee}\n{helpers}{focal}"
    out, after, budget = _send(
        "Here is `qss.ts`:\n```ts\n", code, "Why does `decode` return the wrong value?", 0.5
    )
    assert focal in out and callee in out, out
    assert "Example 3:" not in out, out
    assert clean_parse("typescript", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_long_callee_comes_before_what_only_it_uses() -> None:
    helpers = _repeat(
        "def helper{i}(rows, scale):\n    total = 0\n    for r in rows:\n"
        "        if r > {i}:\n            total += r * scale + {i}\n"
        "        elif r < -{i}:\n            total -= r * scale - {i}\n"
        "    return total - {i}\n\n",
        24,
    )
    body = "".join(f"    acc += helper{i}(rows, {i})\n" for i in range(24))
    body += _repeat("    acc = acc * 3 + len(rows) - {i} if acc > {i} else acc + {i}\n", 20)
    run = f"def run(rows):\n    acc = 0\n{body}    return acc\n\n"
    focal = "def serve(rows):\n    result = run(rows)\n    return result * 2\n"
    code = helpers + run + focal
    out, after, budget = _send(
        "Here is my code:\n```python\n", code, "Why does `serve` return the wrong value?", 0.5
    )
    assert focal in out and run in out, out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_stub_whose_docstring_is_the_task_keeps_it() -> None:
    # "Implement `decode_line`." says nothing of what to write: the stub's docstring is
    # the specification and stays though it takes most of the room. Where the prose
    # states the task itself, the docstring gives way to code the body may use.
    steps = [
        f"Step {i}: the codes are read in order and each one styles the text." for i in range(4)
    ]
    stub = (
        "    def decode_line(self, line: str) -> Text:\n"
        + '        """Decode a line containing ansi codes.\n\n'
        + "".join(f"        {s}\n" for s in steps)
        + '        """\n        # TODO: implement\n        raise NotImplementedError\n'
    )
    others = "".join(
        f"    def other{i}(self, x):\n        y = x + {i}\n        z = y * 2\n"
        + "        return z - 1\n\n"
        for i in range(12)
    )
    code = (
        "import sys\n\nfrom .text import Text\n\n\nclass AnsiDecoder:\n"
        + "    def __init__(self):\n        self.style = None\n\n"
        + others
        + stub
        + '\n\nif __name__ == "__main__":\n    decoder = AnsiDecoder()\n'
        + "    for line in sys.stdin:\n        print(decoder.decode_line(line))\n"
    )
    head = "Here is my code:\n```python\n"
    out, after, budget = _send(head, code, "Implement `decode_line`.", 0.34)
    assert stub in out, out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)
    told = "Implement `decode_line`. " + " ".join(steps)
    out, after, budget = _send(head, code, told, 0.34)
    assert steps[2] not in out and "    def decode_line(self, line: str) -> Text:\n" in out, out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_stub_keeps_its_body_without_a_leading_comment_that_does_not_fit() -> None:
    # A budget smaller than the import and the stub the prose asks about: those stand,
    # the doc comment goes first, the stub keeps its TODO body (not an elision).
    doc = "/**\n" + "".join(
        f" * Example {i}: the options are merged in order and each one is passed on.\n"
        for i in range(20)
    )
    stub = "export function setDefaults(options) {\n  // TODO\n}\n"
    code = (
        "import {\n  getDefaults,\n  setDefaults as setInternalDefaults,\n}"
        + ' from "./lib/defaults.js";\n\n'
        + doc
        + " */\n"
        + stub
        + "\n// Fallback for modularized imports:\nexport default setDefaults;\n"
    )
    assert clean_parse("javascript", code.encode()) is not None, "fixture must parse"
    out, _, _ = _send("Here is my code:\n```js\n", code, "Implement `setDefaults`.", 0.05)
    assert stub in out and "Example" not in out, out
    assert clean_parse("javascript", out.encode()) is not None, out


@pytest.mark.parametrize(
    ("n_steps", "n_methods", "helper_lines", "share", "rest"),
    [
        (8, 10, 8, 0.4, "        pass\n"),  # a long docstring
        # a short one: it would fit, but not beside the helper
        (2, 40, 12, 0.1, "        # readings may be empty\n        pass\n"),
        (2, 40, 12, 0.1, ""),  # the docstring is all of the body
    ],
)
def test_a_docstring_the_prose_restates_gives_way_to_a_likely_helper(
    n_steps: int, n_methods: int, helper_lines: int, share: float, rest: str
) -> None:
    # The prose says what the docstring says: the room goes to the helper every sibling
    # uses (the body will likely use it too), not to the docstring a second time. The
    # rest of the stub stays as written (an elision where nothing else is left).
    steps = [
        f"Step {i}: scale reading {i} by the factor and add it to the total."
        for i in range(n_steps)
    ]
    helper = (
        "    def _scale(self, x):\n"
        + "".join(f"        x = x * self.factor + {k}\n" for k in range(helper_lines))
        + "        return x\n"
    )
    users = "".join(
        f"    def use{i}(self, x):\n        return self._scale(x) + {i}\n\n"
        for i in range(n_methods)
    )
    others = "".join(
        f"    def other{i}(self, x):\n        y = x + {i}\n        z = y * 2\n"
        + "        return z - 1\n\n"
        for i in range(n_methods)
    )
    stub = (
        "    def total(self, readings):\n"
        + '        """Sum the readings.\n\n'
        + "".join(f"        {s}\n" for s in steps)
        + '        """\n'
        + rest
    )
    code = (
        "class Meter:\n    def __init__(self, factor):\n        self.factor = factor\n\n"
        + others
        + helper
        + "\n"
        + users
        + stub
    )
    told = "Implement `total`. " + " ".join(steps)
    out, after, budget = _send("Here is my code:\n```python\n", code, told, share)
    assert helper in out and steps[1] not in out, out
    assert "    def total(self, readings):\n" + (rest or "        ...\n") in out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


@pytest.mark.parametrize(
    ("marked", "prose", "focal"),
    [
        (False, "Summarize this file.", set()),
        (False, "Please finish the code.", {"release"}),
        (True, "Summarize this file.", {"fill"}),
    ],
)
def test_an_unmarked_empty_body_is_the_task_only_when_code_is_asked_for(
    marked: bool, prose: str, focal: set[str]
) -> None:
    # With nothing named, an empty function is as likely a deliberate no-op
    # (`fn release(_: &Buf) {}`, bytes' `static_drop`) as a body to write: the map of
    # the file is not cut around it unless the prose asks for code. A stub marked TODO
    # is the task either way.
    code = (
        "pub struct Buf {\n    data: Vec<u8>,\n}\n\n"
        + "fn release(_: &Buf) {\n    // nothing to release\n}\n\n"
        + ("fn fill(b: &mut Buf) {\n    todo!()\n}\n\n" if marked else "")
        + "pub fn size(b: &Buf) -> usize {\n    b.data.len()\n}\n"
    )
    found = detect(code, "rust")
    assert found is not None
    o = build_outline(found[0], code, found[1])
    focus, _ = extract_focus(prose)
    seeds = find_focal(o, focus)
    assert {u.name for u, d in seeds.items() if d == 0.0} == focal


def test_with_half_the_file_in_room_a_long_likely_helper_beats_many_small_ones() -> None:
    # Size counts against a body less the more of the file fits: with half of it in
    # the budget, the long helper named like the stub is kept whole rather than giving
    # its room to a dozen small regexes and path checks that are each a little likely.
    helper = (
        "def _parse_step_log_records(records):\n    result = {}\n"
        + "".join(
            f"    for record in records:\n        if record.get('kind') == 'k{k}':\n"
            f"            result.setdefault('k{k}', []).append(record['message'].strip())\n"
            for k in range(8)
        )
        + "    return result\n"
    )
    consts = "".join(
        f"_STEP_{i}_RE = re.compile(r'^step {i}: (?P<value>\\d+) log line$')\n" for i in range(40)
    )
    checks = "".join(
        f"def _log_path_{i}(path):\n    return path.endswith('.log{i}')\n\n" for i in range(20)
    )
    code = f"import re\n\n{consts}\n{checks}{helper}\n\ndef parse_step_log(lines):\n    pass\n"
    prose = (
        "Implement `parse_step_log`. It parses the step log lines into a dictionary"
        " of records by kind."
    )
    out, after, budget = _send("Here is my code:\n```python\n", code, prose, 0.5)
    assert helper in out, out
    assert "def parse_step_log(lines):\n" in out
    assert clean_parse("python", out.encode()) is not None, out
    assert after <= budget, (after, budget)


def test_a_doc_comment_the_prose_restates_goes_and_the_todo_body_stays() -> None:
    # JavaScript: the documentation is the leading comment; where the prose restates it,
    # it is left out (the prose has it) and the stub's body, the TODO, stays as written.
    steps = [
        f"Step {i}: scale reading {i} by the factor and add it to the total." for i in range(2)
    ]
    helper = (
        "function scale(x, factor) {\n"
        + "".join(f"  x = x * factor + {k};\n" for k in range(12))
        + "  return x;\n}\n"
    )
    users = "".join(
        f"function use{i}(x) {{\n  return scale(x, 2) + {i};\n}}\n\n" for i in range(40)
    )
    others = "".join(
        f"function other{i}(x) {{\n  const y = x + {i};\n  return y * 2 - 1;\n}}\n\n"
        for i in range(40)
    )
    doc = "/**\n * Sum the readings.\n" + "".join(f" * {s}\n" for s in steps) + " */\n"
    stub = "function total(readings) {\n  // TODO\n}\n"
    told = "Implement `total`. " + " ".join(steps)
    code = f"{others}{helper}\n{users}{doc}{stub}"
    out, after, budget = _send("Here is my code:\n```javascript\n", code, told, 0.12)
    assert helper in out and stub in out and steps[1] not in out, out
    assert clean_parse("javascript", out.encode()) is not None, out
    assert after <= budget, (after, budget)
