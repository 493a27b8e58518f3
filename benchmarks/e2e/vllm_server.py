"""Start and stop a real vLLM server (and, when it exists, ``ctxpress serve``) for e2e runs.

Both are context managers that pick a free loopback port, start the process in its
own session, wait until it answers, yield its ``/v1`` base URL, and stop exactly that
process group on exit (SIGTERM, then SIGKILL after a grace period). Used by
``benchmarks/e2e_vllm.py``, ``tests/test_e2e_vllm.py`` and ``make e2e``.

As a command it keeps one vLLM server up while another command runs, with the
server's URL in ``CTXPRESS_E2E_VLLM_URL``:

    .venv/bin/python benchmarks/e2e/vllm_server.py -- .venv/bin/pytest -q tests/test_e2e_vllm.py
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PYTHON = ROOT / ".venv-vllm" / "bin" / "python"
DEFAULT_MODEL = Path.home() / ".cache" / "ctxpress" / "e2e-model"
SERVED_NAME = "ctxpress-e2e-llama"
MAX_MODEL_LEN = 8192
URL_ENV = "CTXPRESS_E2E_VLLM_URL"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, n: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError:
        return ""


def wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    """Poll ``url`` until it answers 200; fail early, with the log's tail, if ``proc`` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode}; log {log}:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        time.sleep(0.5)
    raise TimeoutError(f"{url} not ready after {timeout:.0f} s; log {log}:\n{_tail(log)}")


def stop(proc: subprocess.Popen[bytes], grace: float = 30.0) -> None:
    """SIGTERM the process group we started, then SIGKILL it if it lingers."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


@contextlib.contextmanager
def _process(
    cmd: Sequence[str], env: Mapping[str, str], log: Path, ready_url: str, timeout: float
) -> Iterator[subprocess.Popen[bytes]]:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            list(cmd),
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        wait_ready(ready_url, proc, log, timeout)
        yield proc
    finally:
        stop(proc)


def vllm_command(
    python: Path,
    model: Path,
    port: int,
    served_name: str,
    max_model_len: int,
    extra_args: Sequence[str] = (),
) -> list[str]:
    return [
        str(python),
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(model),
        "--served-model-name",
        served_name,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--dtype",
        "float32",
        "--enforce-eager",
        "--enable-prefix-caching",
        "--enable-prompt-tokens-details",
        "--max-model-len",
        str(max_model_len),
        "--disable-log-stats",
        *extra_args,
    ]


@contextlib.contextmanager
def vllm_server(
    model: Path = DEFAULT_MODEL,
    python: Path = DEFAULT_PYTHON,
    served_name: str = SERVED_NAME,
    max_model_len: int = MAX_MODEL_LEN,
    log: Path | None = None,
    timeout: float = 600.0,
    extra_args: Sequence[str] = (),
) -> Iterator[str]:
    """A vLLM OpenAI server on a free port; yields ``http://127.0.0.1:PORT/v1``."""
    model = model.expanduser()
    if not (model / "config.json").exists():
        raise FileNotFoundError(f"no model at {model}: run benchmarks/e2e/build_model.py")
    if not Path(python).exists():
        raise FileNotFoundError(f"no vLLM python at {python}: run `make e2e-venv`")
    port = free_port()
    env = dict(os.environ)
    env.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    env.setdefault("VLLM_NO_USAGE_STATS", "1")
    env.setdefault("DO_NOT_TRACK", "1")
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    log = log or Path(f"/tmp/ctxpress-e2e-vllm-{port}.log")
    base = f"http://127.0.0.1:{port}/v1"
    cmd = vllm_command(python, model, port, served_name, max_model_len, extra_args)
    with _process(cmd, env, log, f"{base}/models", timeout):
        yield base


def proxy_available() -> bool:
    """True once ``ctxpress serve`` exists in this install (another module provides it)."""
    exe = shutil.which("ctxpress", path=str(Path(sys.executable).parent)) or shutil.which(
        "ctxpress"
    )
    if not exe:
        return False
    try:
        res = subprocess.run([exe, "serve", "--help"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return res.returncode == 0


@contextlib.contextmanager
def ctxpress_proxy(
    upstream: str | None,
    extra_env: Mapping[str, str] | None = None,
    log: Path | None = None,
    timeout: float = 120.0,
    extra_args: Sequence[str] = (),
) -> Iterator[str]:
    """``ctxpress serve`` in front of ``upstream`` on a free port; yields its ``/v1`` URL.

    ``upstream=None`` leaves the upstreams to a config file (``extra_args=["--config", F]``
    or ``CTXPRESS_CONFIG`` in ``extra_env``), e.g. for several replicas."""
    exe = shutil.which("ctxpress", path=str(Path(sys.executable).parent)) or "ctxpress"
    port = free_port()
    env = dict(os.environ)
    env.update(extra_env or {})
    if upstream is not None:
        env["CTXPRESS_UPSTREAM"] = upstream
    log = log or Path(f"/tmp/ctxpress-e2e-proxy-{port}.log")
    cmd = [exe, "serve", "--host", "127.0.0.1", "--port", str(port), *extra_args]
    with _process(cmd, env, log, f"http://127.0.0.1:{port}/health", timeout):
        yield f"http://127.0.0.1:{port}/v1"


def tokenizers_env(model: Path = DEFAULT_MODEL, served_name: str = SERVED_NAME) -> str:
    """``CTXPRESS_TOKENIZERS`` value mapping the served name to the model's tokenizer."""
    return json.dumps({served_name: str(model.expanduser())})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Run a command while a vLLM server is up.")
    p.add_argument("--python", type=Path, default=DEFAULT_PYTHON, help="the vLLM venv's python")
    p.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--served-model-name", default=SERVED_NAME)
    p.add_argument("--max-model-len", type=int, default=MAX_MODEL_LEN)
    p.add_argument("--log", type=Path, default=None)
    p.add_argument("--vllm-args", default="", help="extra vLLM flags, one shell-quoted string")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    args = p.parse_args(argv)
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        p.error("give a command after --")
    # A SIGTERM (make interrupted, CI timeout) must still stop the server: exit via finally.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t0 = time.monotonic()
    with vllm_server(
        args.model,
        args.python,
        args.served_model_name,
        args.max_model_len,
        args.log,
        extra_args=shlex.split(args.vllm_args),
    ) as url:
        print(f"vLLM ready at {url} after {time.monotonic() - t0:.1f} s", flush=True)
        env = dict(os.environ)
        env[URL_ENV] = url
        env["CTXPRESS_E2E_MODEL"] = args.served_model_name
        env["CTXPRESS_E2E_MODEL_DIR"] = str(args.model.expanduser())
        env.setdefault("CTXPRESS_TOKENIZERS", tokenizers_env(args.model, args.served_model_name))
        return subprocess.call(cmd, env=env)


if __name__ == "__main__":
    sys.exit(main())
