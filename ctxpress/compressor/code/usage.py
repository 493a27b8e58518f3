"""How likely a body still to be written is to use each candidate unit of its file.

``focal.predicted`` proposes candidates with hand-set distances; alone they rank almost
every member of the focal class alike. This module re-ranks the same candidates by a
logistic model over features of the unit and the request: its kind and privacy, how
many sibling methods use it, what same-named implementations elsewhere use, the words
it shares with the prose, where it sits, its size, and the hand-set distance itself.

The weights (``usage_weights.py``) are fitted self-supervised on real code by
``benchmarks/fit_usage.py``: each documented function's docstring stands in for the
request, its body is removed, and what the real body used are the labels. None of the
DevEval projects are in that corpus. One rule sits on top: a private definition that
nothing else in the file names ranks closer (``_ORPHAN``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ctxpress.compressor.code.focal import (
    class_level,
    class_view,
    data_kind,
    is_docstring,
    predicted,
    prose_words,
    subwords,
)
from ctxpress.compressor.code.outline import (
    IDENT,
    Focus,
    Outline,
    Unit,
    ancestors,
    head_text,
    refs,
)
from ctxpress.compressor.code.usage_weights import WEIGHTS

FEATURES = (
    "bias",
    "init",
    "dunder",
    "private",
    "public",
    "property",
    "classmethod",
    "base_class",
    "class_attribute",
    "module_function",
    "module_class",
    "module_statement",
    "other_class",
    "name_words",
    "any_name_word",
    "named",
    "used_by_siblings",
    "used_share",
    "used_by_same_name",
    "attributes_defined",
    "neighbour_1",
    "neighbour_2",
    "module_callers",
    "log_size",
    "signature_type",
    "module_private",
    "focal_is_module_level",
    "focal_name_words",
    "text_idf",
    "text_share",
    "prior",
)
# How far the first lines of a unit are read for the words it shares with the prose.
_TEXT_ROWS = 12
# Candidate distance = _BASE + _SCALE * -ln(likelihood): the scale the planner ranks on.
_BASE, _SCALE = 0.6, 0.35
# Distance taken off a private definition that nothing else in the file names: it was
# written for a caller, and with a body missing, that body is the likely one.
_ORPHAN = 0.2


def likelihood(x: Sequence[float]) -> float:
    z = sum(w * v for w, v in zip(WEIGHTS, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def rescored(outline: Outline, focal: Sequence[Unit], focus: Focus) -> dict[Unit, float]:
    """Candidates for the focal units' bodies with distances from the model (closest)."""
    out: dict[Unit, float] = {}
    if not focal:
        return out  # (the file's names are counted only for a body still to be written)
    named = Counter(IDENT.findall("\n".join(outline.lines)))
    for f in focal:
        for u, x in features(outline, f, focus).items():
            d = _BASE + _SCALE * -math.log(likelihood(x))
            if _orphan(outline, u, named):
                d -= _ORPHAN
            if d < out.get(u, 99.0):
                out[u] = d
    return out


def _orphan(outline: Outline, u: Unit, named: Counter[str]) -> bool:
    """Whether ``u`` is a private function, class or statement (``_name``: Python's
    convention, and others') whose names occur nowhere in the file but in its own lines."""
    names = [u.name] if u.kind in ("func", "class") else sorted(u.defs) if u.kind == "stmt" else []
    if not names or not all(n.startswith("_") and not n.startswith("__") for n in names):
        return False
    own = Counter(IDENT.findall("\n".join(outline.lines[u.start : u.last + 1])))
    return all(named[n] <= own[n] for n in names)


def features(o: Outline, f: Unit, focus: Focus) -> dict[Unit, list[float]]:
    """One feature vector (in ``FEATURES`` order) per candidate ``focal.predicted`` proposes."""
    view = class_view(o, f)
    prior = predicted(o, f, focus, view)
    words = prose_words(focus)
    focal_words = set(subwords(f.name))
    calls: dict[str, int] = {}
    for u in o.units:
        if u.kind == "func" and u is not f:
            for w in refs(o, u)[0]:
                calls[w] = calls.get(w, 0) + 1
    inside = set(ancestors(f))
    cands = [
        u
        for u in prior
        if u is not f
        and u not in inside
        and data_kind(u) in ("func", "class", "stmt")
        and not (u.kind == "stmt" and not u.defs)
        and not is_docstring(o, u)
    ]
    # words of each candidate's first lines, weighted by how rare they are in the file
    texts = {
        u: set(subwords(" ".join(o.lines[u.start : min(u.last, u.start + _TEXT_ROWS) + 1])))
        for u in cands
    }
    df: dict[str, int] = {}
    for t in texts.values():
        for w in t:
            df[w] = df.get(w, 0) + 1
    n = max(1, len(texts))
    out: dict[Unit, list[float]] = {}
    for u in cands:
        name = u.label
        mine = u.owner in view.owners if u.owner else False
        method = mine and u.kind == "func"
        head = head_text(o, u)
        subs = subwords(name)
        shared = texts[u] & words
        size = max(1, sum(len(o.lines[r]) for r in range(u.first, u.last + 1)) // 4)
        out[u] = [
            1.0,
            float(method and name == "__init__"),
            float(method and name.startswith("__") and name != "__init__"),
            float(method and name.startswith("_") and not name.startswith("__")),
            float(method and not name.startswith("_")),
            float(method and ("@property" in head or ".setter" in head)),
            float(method and class_level(head)),
            float(mine and view.owners.get(u.owner or "", 0) > 0),
            float(mine and data_kind(u) == "stmt"),
            float(u.owner is None and u.kind == "func"),
            float(u.owner is None and u.kind == "class"),
            float(u.owner is None and data_kind(u) == "stmt"),
            float(u.owner is not None and not mine),
            sum(1 for w in subs if w in words) / len(subs) if subs else 0.0,
            float(any(w in words for w in subs)),
            float(bool(focus.strong.intersection(u.defs)) or name in focus.strong),
            math.log1p(view.used.get(name, 0)) if mine else 0.0,
            view.used.get(name, 0) / view.methods if mine and view.methods else 0.0,
            float(u in view.same),
            math.log1p(view.attrs.get(u, 0)),
            float(abs(view.near.get(u, 0)) == 1),
            float(abs(view.near.get(u, 0)) == 2),
            math.log1p(calls.get(name, 0)) if u.owner is None else 0.0,
            math.log(size),
            float(bool((u.owner and u.owner in f.header_words) or name in f.header_words)),
            float(u.owner is None and name.startswith("_")),
            float(f.owner is None),
            sum(1 for w in subs if w in focal_words) / len(subs) if subs else 0.0,
            math.log1p(sum(math.log(n / df[w]) for w in shared)),
            len(shared) / (len(texts[u]) + 1),
            min(3.0, prior[u]),
        ]
    return out
