"""The learned re-ranking of what a body still to be written will use."""

from __future__ import annotations

from ctxpress.compressor.code import extract_focus
from ctxpress.compressor.code.focal import find_focal
from ctxpress.compressor.code.languages import detect
from ctxpress.compressor.code.outline import Outline, build_outline
from ctxpress.compressor.code.usage import FEATURES, features, rescored
from ctxpress.compressor.code.usage_weights import WEIGHTS

CODE = """\
class Registry:
    def __init__(self):
        self._items = {}
        self._hits = 0

    def _lookup(self, key):
        self._hits += 1
        return self._items.get(key)

    def __repr__(self):
        return "Registry(%d items, %d hits, first %r)" % (
            len(self._items), self._hits, next(iter(self._items), None))

    def has(self, key):
        return self._lookup(key) is not None

    def require(self, key):
        value = self._lookup(key)
        if value is None:
            raise KeyError(key)
        return value

    def describe(self, key):
        return "%s=%r" % (key, self._lookup(key))

    def get(self, key, default=None):
        pass
"""
PROSE = "Implement `get`: look the key up and return the default when it is missing."


def _outline() -> Outline:
    found = detect(CODE, "python")
    assert found is not None
    return build_outline(found[0], CODE, found[1])


def test_every_candidate_has_one_value_per_feature() -> None:
    o = _outline()
    focus, _ = extract_focus(PROSE)
    (f,) = [u for u, d in find_focal(o, focus).items() if d == 0.0]
    feats = features(o, f, focus)
    assert feats and len(WEIGHTS) == len(FEATURES)
    assert all(len(x) == len(FEATURES) for x in feats.values())


def test_a_helper_the_siblings_use_ranks_above_an_unused_special_method() -> None:
    o = _outline()
    focus, _ = extract_focus(PROSE)
    (f,) = [u for u, d in find_focal(o, focus).items() if d == 0.0]
    dist = {u.name: d for u, d in rescored(o, [f], focus).items()}
    assert dist["_lookup"] < dist["__repr__"], dist
    assert dist["__init__"] < dist["__repr__"], dist
