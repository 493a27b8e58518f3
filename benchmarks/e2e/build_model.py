"""Build the tiny random-weight Llama and its tokenizer that the end-to-end tests serve.

Nothing is downloaded: a byte-level BPE tokenizer is trained with ``tokenizers`` on the
Python standard library's own sources (on disk with every Python), and a Llama of a
few million random float32 weights is written with safetensors. The output is a
normal Hugging Face model folder that vLLM loads and that ctxpress counts with
(``CTXPRESS_TOKENIZERS='{"<served name>": "<folder>"}'``).

The chat template is chosen so that the engine's prompt length equals ctxpress's
count (3 tokens per message + 3 priming): ``<|begin|>`` then, per message,
``<|role|>`` ``\\n`` content ``<|end|>``, then ``<|assistant|>`` ``\\n``.

Run with the vLLM venv's Python (its transformers is the one vLLM reads with):

    .venv-vllm/bin/python benchmarks/e2e/build_model.py --out ~/.cache/ctxpress/e2e-model

Rebuilding is skipped when the folder already holds a model built with the same spec.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SPEC_VERSION = 1
BEGIN, END, PAD = "<|begin|>", "<|end|>", "<|pad|>"
ROLES = ("system", "developer", "user", "assistant", "tool")
SPECIAL = [PAD, BEGIN, END, *(f"<|{r}|>" for r in ROLES)]
CHAT_TEMPLATE = (
    "{{- '<|begin|>' -}}"
    "{%- for message in messages -%}"
    "{{- '<|' + message['role'] + '|>\\n' + (message['content'] or '') + '<|end|>' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|assistant|>\\n' -}}{%- endif -%}"
)


def default_out() -> Path:
    return Path.home() / ".cache" / "ctxpress" / "e2e-model"


def corpus_files(limit_bytes: int) -> list[Path]:
    """Standard-library sources, sorted so the tokenizer is the same on every machine."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "test", "tests", "idlelib", "__pycache__", "lib2to3", "ensurepip"}
    files = sorted(
        p for p in stdlib.rglob("*.py") if not skip.intersection(p.relative_to(stdlib).parts)
    )
    # pydoc_data/topics.py is the language reference in English prose: put it first.
    files.sort(key=lambda p: p.name != "topics.py")
    out, total = [], 0
    for path in files:
        size = path.stat().st_size
        if total + size > limit_bytes:
            continue
        out.append(path)
        total += size
    if not out:
        raise SystemExit(f"no training text found under {stdlib}")
    return out


def iter_text(files: list[Path]) -> Iterator[str]:
    for path in files:
        yield path.read_text(encoding="utf-8", errors="replace")


def train_tokenizer(files: list[Path], vocab_size: int) -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(iter_text(files), trainer=trainer)
    return tok


def build(out: Path, spec: dict[str, Any]) -> dict[str, Any]:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    t0 = time.perf_counter()
    files = corpus_files(spec["corpus_bytes"])
    raw = train_tokenizer(files, spec["vocab_size"])
    tokenizer = PreTrainedTokenizerFast(  # type: ignore[no-untyped-call]
        tokenizer_object=raw,
        bos_token=BEGIN,
        eos_token=END,
        pad_token=PAD,
        additional_special_tokens=[t for t in SPECIAL if t not in (PAD, BEGIN, END)],
        model_max_length=spec["max_position_embeddings"],
        clean_up_tokenization_spaces=False,
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    t_tok = time.perf_counter() - t0

    torch.manual_seed(spec["seed"])
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=spec["hidden_size"],
        intermediate_size=spec["intermediate_size"],
        num_hidden_layers=spec["num_layers"],
        num_attention_heads=spec["num_heads"],
        num_key_value_heads=spec["num_kv_heads"],
        max_position_embeddings=spec["max_position_embeddings"],
        rms_norm_eps=1e-5,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        dtype="float32",
    )
    model = LlamaForCausalLM(config)  # float32: the torch default dtype
    params = sum(p.numel() for p in model.parameters())

    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    model.save_pretrained(tmp, safe_serialization=True)
    tokenizer.save_pretrained(tmp)
    # Older and newer transformers read the template from either place: write both.
    (tmp / "chat_template.jinja").write_text(CHAT_TEMPLATE, encoding="utf-8")
    cfg_path = tmp / "tokenizer_config.json"
    tok_cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    tok_cfg["chat_template"] = CHAT_TEMPLATE
    tok_cfg["tokenizer_class"] = "PreTrainedTokenizerFast"
    cfg_path.write_text(json.dumps(tok_cfg, indent=2), encoding="utf-8")
    info = {
        "spec": spec,
        "parameters": params,
        "vocab": len(tokenizer),
        "corpus_files": len(files),
        "tokenizer_s": round(t_tok, 2),
        "total_s": round(time.perf_counter() - t0, 2),
    }
    (tmp / "ctxpress_e2e.json").write_text(json.dumps(info, indent=2), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return info


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=default_out())
    p.add_argument("--vocab-size", type=int, default=8192)
    p.add_argument("--hidden-size", type=int, default=256)
    p.add_argument("--intermediate-size", type=int, default=768)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=4)
    p.add_argument("--max-position-embeddings", type=int, default=8192)
    p.add_argument("--corpus-mb", type=float, default=16.0, help="training text to read")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--force", action="store_true", help="rebuild even if the spec matches")
    args = p.parse_args(argv)
    spec = {
        "version": SPEC_VERSION,
        "vocab_size": args.vocab_size,
        "hidden_size": args.hidden_size,
        "intermediate_size": args.intermediate_size,
        "num_layers": args.layers,
        "num_heads": args.heads,
        "num_kv_heads": args.kv_heads,
        "max_position_embeddings": args.max_position_embeddings,
        "corpus_bytes": int(args.corpus_mb * 1e6),
        "seed": args.seed,
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
    }
    out = args.out.expanduser().resolve()
    marker = out / "ctxpress_e2e.json"
    if not args.force and marker.exists():
        old = json.loads(marker.read_text(encoding="utf-8"))
        if old.get("spec") == spec:
            print(f"e2e model up to date: {out}")
            return 0
    info = build(out, spec)
    print(
        f"built {out}: {info['parameters'] / 1e6:.1f}M parameters, vocab {info['vocab']}, "
        f"tokenizer {info['tokenizer_s']} s, total {info['total_s']} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
