"""Fit the weights of ``ctxpress.compressor.code.usage`` on real code, self-supervised.

For documented functions in the standard library and the installed site-packages (the
DevEval projects boltons, Jinja2, mrjob and pyramid excluded), the docstring stands in
for the request ("Implement `name`." + docstring), the candidates are the units
``focal.predicted`` proposes for the function as if its body were still empty, and the
labels are the units its real body uses. A logistic regression (L2, Newton steps) over
``usage.features`` is fitted; the AUC on held-out functions is printed, and the weights
are written to ``ctxpress/compressor/code/usage_weights.py``.

    .venv/bin/python benchmarks/fit_usage.py [--files 4000]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import site
import sysconfig
import time
from pathlib import Path

import numpy as np

from ctxpress.compressor.code import extract_focus
from ctxpress.compressor.code.languages import detect
from ctxpress.compressor.code.outline import Outline, Unit, _deps, build_outline
from ctxpress.compressor.code.usage import FEATURES, features

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "ctxpress" / "compressor" / "code" / "usage_weights.py"
RESULTS = ROOT / "benchmarks" / "results" / "fit_usage.json"
EXCLUDE = ("boltons", "jinja2", "mrjob", "pyramid")  # the DevEval projects
PER_PACKAGE, PER_FILE, L2 = 40, 12, 1.0


def corpus(limit: int, seed: int) -> list[Path]:
    roots = [Path(sysconfig.get_paths()["stdlib"]), *map(Path, site.getsitepackages())]
    files: list[Path] = []
    for root in roots:
        by_package: dict[str, list[Path]] = {}
        for p in sorted(root.rglob("*.py")):
            rel = p.relative_to(root).as_posix()
            low = rel.lower()
            if "site-packages" in rel or "/test" in low or low.startswith("test"):
                continue
            if any(e in low for e in EXCLUDE) or not 3000 < p.stat().st_size < 150_000:
                continue
            by_package.setdefault(rel.split("/")[0], []).append(p)
        for paths in by_package.values():
            random.Random(seed).shuffle(paths)
            files.extend(paths[:PER_PACKAGE])
    random.Random(seed).shuffle(files)
    return files[:limit]


def labels(o: Outline, f: Unit) -> set[Unit]:
    """What the real body of ``f`` uses: references and the special methods it calls."""
    return {u for cost, u in _deps(o, f) if cost <= 1.5 and u is not f}


def rows(path: Path, rng: random.Random) -> list[tuple[list[float], int]]:
    try:
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return []
    docs = {
        (n.name, n.lineno - 1): d
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and (d := ast.get_docstring(n))
        and len(d) > 20
    }
    found = detect(src, "python") if docs else None
    if found is None:
        return []
    o = build_outline(found[0], src, found[1])

    def doc_of(u: Unit) -> str | None:
        return next(
            (docs[(u.name, r)] for r in range(u.start, u.head_end + 1) if (u.name, r) in docs), None
        )

    funcs = [u for u in o.units if u.kind == "func" and doc_of(u)]
    rng.shuffle(funcs)
    out: list[tuple[list[float], int]] = []
    taken = 0
    for f in funcs:
        used = labels(o, f)
        if not used or taken >= PER_FILE:
            continue
        focus, _ = extract_focus(f"Here is `{path.name}`:\nImplement `{f.name}`.\n{doc_of(f)}")
        feats = features(o, f, focus)
        if feats:
            taken += 1
            out.extend((x, int(u in used)) for u, x in feats.items())
    return out


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """L2-regularised logistic regression by Newton steps (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], L2)
    penalty[0] = 0.0
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def auc(score: np.ndarray, y: np.ndarray) -> float:
    order = np.argsort(score)
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    pos = y == 1
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(args.seed)
    data: list[tuple[list[float], int, int]] = []
    files = corpus(args.files, args.seed)
    for i, path in enumerate(files):
        data.extend((x, label, i) for x, label in rows(path, rng))
    x = np.array([d[0] for d in data])
    y = np.array([d[1] for d in data])
    held = np.array([d[2] % 5 == 0 for d in data])
    held_auc = auc(x[held] @ fit(x[~held], y[~held]), y[held])
    w = fit(x, y)
    print(
        f"{len(files)} files, {len(y)} candidates, {int(y.sum())} used; held-out AUC {held_auc:.3f}"
    )
    for name, v in zip(FEATURES, w, strict=True):
        print(f"  {name:22} {v:+.3f}")
    values = "".join(f"    {v:.4f},  # {name}\n" for name, v in zip(FEATURES, w, strict=True))
    WEIGHTS.write_text(
        '"""Weights of ``usage.likelihood``, in ``usage.FEATURES`` order.\n\n'
        'Generated by ``benchmarks/fit_usage.py``; do not edit by hand.\n"""\n\n'
        f"WEIGHTS: tuple[float, ...] = (\n{values})\n"
    )
    RESULTS.write_text(
        json.dumps(
            {
                "files": len(files),
                "candidates": len(y),
                "used": int(y.sum()),
                "held_out_auc": round(held_auc, 4),
                "weights": dict(zip(FEATURES, [round(float(v), 4) for v in w], strict=True)),
                "seconds": round(time.time() - t0, 1),
            },
            indent=1,
        )
    )
    took = time.time() - t0
    print(f"wrote {WEIGHTS.relative_to(ROOT)} and {RESULTS.relative_to(ROOT)} ({took:.0f} s)")


if __name__ == "__main__":
    main()
