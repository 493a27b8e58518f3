"""The names an import binds, read from its syntax tree.

Every identifier in an import is not a name it defines: `from a.b import c as d` binds
`d` alone, `import Link, {type Props as LinkProps}` binds `Link` and `LinkProps`,
`use std::collections::HashMap` binds `HashMap`, and `#include <sys/stat.h>` binds nothing
the file can show (`struct stat` is declared in the header). Counting the others links a
body that says `b`, `c`, `Props` or `stat` to an import it does not use, which then takes
the room of what it does use (or is forced in as a definition the focal code needs).
"""

from __future__ import annotations

import re
from typing import Any

from ctxpress.compressor.code.languages import node_text

_WORD = re.compile(r"[A-Za-z_]\w*")
_GO_MAJOR = re.compile(r"v\d+$")


def bound_names(node: Any) -> list[str] | None:
    """Names ``node`` (an import statement, or a node around one) binds; ``None`` where
    its syntax does not say (a wildcard, `using namespace`, a grammar not read here)."""
    t = node.type
    if t in ("import_statement", "import_from_statement", "future_import_statement"):
        return _python_or_js(node)
    if t == "use_declaration":
        arg = node.child_by_field_name("argument")
        return _rust(arg, None) if arg is not None else None
    if t == "import_declaration":
        specs = [c for c in node.named_children if c.type in ("import_spec", "import_spec_list")]
        if specs or any(c.type == "interpreted_string_literal" for c in node.children):
            return _go(node)
        return _java(node)
    if t == "preproc_include":
        return []  # what a header declares is not in the file
    if t == "using_declaration":
        named = [c for c in node.named_children if c.type == "qualified_identifier"]
        name = named[0].child_by_field_name("name") if named else None
        return [node_text(name)] if name is not None else None
    for c in node.named_children:
        if c.type in ("import_statement", "import_from_statement"):
            return bound_names(c)
    return None


def _python_or_js(node: Any) -> list[str] | None:
    if any(c.type in ("wildcard_import", "import_require_clause") for c in node.children):
        return None
    out: list[str] = []
    for c in node.children_by_field_name("name"):  # Python
        if c.type == "aliased_import":
            alias = c.child_by_field_name("alias")
            out.extend([node_text(alias)] if alias is not None else [])
        elif c.type == "dotted_name":
            parts = [node_text(x) for x in c.named_children]
            # `import a.b` binds `a`; `from m import b` binds `b`
            out.append(parts[0] if node.type == "import_statement" else parts[-1])
    for clause in (c for c in node.children if c.type == "import_clause"):  # JS / TS
        for c in clause.named_children:
            if c.type == "identifier":  # the default import
                out.append(node_text(c))
            elif c.type == "namespace_import":  # `* as ns`
                out.extend(node_text(x) for x in c.named_children if x.type == "identifier")
            elif c.type == "named_imports":
                for spec in c.named_children:
                    x = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                    if spec.type == "import_specifier" and x is not None:
                        out.append(node_text(x))
    return out


def _rust(n: Any, parent: str | None) -> list[str] | None:
    """`a::b::C` binds `C`; `x as y` binds `y`; `d::{self, E}` binds `d` and `E`."""
    if n.type == "identifier":
        return [node_text(n)]
    if n.type == "scoped_identifier":
        name = n.child_by_field_name("name")
        return [node_text(name)] if name is not None else None
    if n.type == "use_as_clause":
        alias = n.child_by_field_name("alias")
        return [node_text(alias)] if alias is not None else None
    if n.type == "self":
        return [parent] if parent else []
    if n.type in ("scoped_use_list", "use_list"):
        path = n.child_by_field_name("path")
        last = _rust(path, None) if path is not None else None
        here = last[-1] if last else parent
        items = n.child_by_field_name("list") if n.type == "scoped_use_list" else n
        out: list[str] = []
        for c in items.named_children if items is not None else ():
            got = _rust(c, here)
            if got is None:
                return None
            out.extend(got)
        return out
    return None  # a wildcard, `crate`, `super`


def _java(node: Any) -> list[str] | None:
    """`import java.util.List` binds `List` (a static import, the member)."""
    if any(c.type == "asterisk" for c in node.children):
        return None
    for c in node.named_children:
        if c.type == "scoped_identifier":
            name = c.child_by_field_name("name")
            return [node_text(name)] if name is not None else None
        if c.type == "identifier":
            return [node_text(c)]
    return None


def _go(node: Any) -> list[str] | None:
    """`str "strings"` binds `str`; `"gopkg.in/yaml.v3"` the package named in its last
    part (`yaml`; the package clause of the imported code decides, which is not here)."""
    specs: list[Any] = []
    stack = list(node.named_children)
    while stack:
        c = stack.pop()
        if c.type == "import_spec":
            specs.append(c)
        elif c.type == "import_spec_list":
            stack.extend(c.named_children)
    out: list[str] = []
    for spec in specs:
        names = go_spec_names(spec)
        if names is None:
            return None
        out.extend(names)
    return out


def go_spec_names(spec: Any) -> list[str] | None:
    """What one Go `import_spec` binds: its alias, else its path's last part (not the
    other words of the path: `…/go-nft/tests/testlib` binds `testlib`, not `nft`);
    ``None`` for a dot import, whose names come in unqualified."""
    name = spec.child_by_field_name("name")
    if name is not None:
        if node_text(name) == ".":
            return None
        return [node_text(name)] if node_text(name) != "_" else []
    path = spec.child_by_field_name("path")
    parts = node_text(path).strip('"`').split("/") if path is not None else []
    if len(parts) > 1 and _GO_MAJOR.match(parts[-1]):
        parts.pop()
    words = _WORD.findall(parts[-1]) if parts else []
    return [w for w in words if w != "go" and not _GO_MAJOR.match(w)]
