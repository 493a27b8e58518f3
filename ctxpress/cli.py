"""The ``ctxpress`` command: compress a chat file, prepare offline files, serve the proxy."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from ctxpress import __version__

app = typer.Typer(
    help="ctxpress: prompt and context compression for LLM serving.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()


def _fail(message: str) -> NoReturn:
    """One clear line on stderr and exit status 2: the convention for bad input."""
    typer.echo(f"ctxpress: error: {message}", err=True)
    raise typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ctxpress {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """ctxpress: prompt and context compression for LLM serving."""


def load_request(path: Path) -> tuple[Any, str | None, Any]:
    """Read a chat request (``{"messages": [...]}``) or a bare messages list from JSON."""
    try:
        data = json.loads(sys.stdin.read() if str(path) == "-" else path.read_text("utf-8"))
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        _fail(f"{path} is not valid JSON: {exc}")
    if isinstance(data, dict):
        model, max_tokens = data.get("model"), data.get("max_tokens")
        data = data.get("messages")
        return data, model if isinstance(model, str) else None, max_tokens
    return data, None, None


def _report_table(result: Any) -> Table:
    table = Table(title="ctxpress compress", show_footer=True)
    table.add_column("stage", footer="total")
    table.add_column("tokens before", justify="right", footer=str(result.tokens_before))
    table.add_column("tokens after", justify="right", footer=str(result.tokens_after))
    saved = result.tokens_before - result.tokens_after
    pct = f"{100 * saved / result.tokens_before:.1f}%" if result.tokens_before else "0%"
    table.add_column("saved", justify="right", footer=f"{saved} ({pct})")
    table.add_column("ms", justify="right", footer=f"{result.ms:.1f}")
    table.add_column("status / notes")
    for s in result.stages:
        status = f"[red]failed open: {s.error}[/red]" if s.error else "; ".join(s.notes) or "ok"
        table.add_row(
            s.name,
            str(s.tokens_before),
            str(s.tokens_after),
            str(s.tokens_before - s.tokens_after),
            f"{s.ms:.1f}",
            status,
        )
    return table


@app.command()
def compress(
    file: Annotated[Path, typer.Argument(help="JSON chat request or messages list; - for stdin.")],
    budget: Annotated[
        int | None, typer.Option(min=1, help="Max prompt tokens after compression.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name (picks the tokenizer).")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the compressed messages and report as JSON.")
    ] = False,
) -> None:
    """Compress a chat and show what each stage saved."""
    from ctxpress import compress as run

    messages, request_model, _ = load_request(file)
    try:
        result = run(messages, budget=budget, model=model or request_model)  # type: ignore[arg-type]
    except ValueError as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    console.print(_report_table(result))
    if result.over_budget:
        console.print(
            f"[yellow]{result.tokens_after} tokens is still over the budget of {result.budget}: "
            "the stages that ran could not remove more without touching protected messages"
            "[/yellow]"
        )


@app.command()
def setup() -> None:
    """Prepare offline files (tokenizer ranks) in the user cache; safe to run again."""
    from ctxpress.tokens import ensure_tiktoken_file

    for encoding in ("o200k_base", "cl100k_base"):
        typer.echo(f"tiktoken {encoding}: {ensure_tiktoken_file(encoding)}")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8080).")] = None,
    config: Annotated[
        Path | None, typer.Option(help="Config file (TOML or YAML); else CTXPRESS_CONFIG.")
    ] = None,
) -> None:
    """Run the OpenAI-compatible proxy (flags > CTXPRESS_* env > config file)."""
    from ctxpress.middleware.serve import serve as run_proxy

    try:
        run_proxy(host=host, port=port, config=config)
    except (ValueError, OSError) as exc:
        _fail(str(exc))


@app.command()
def warm(
    file: Annotated[Path, typer.Argument(help="JSON list of system prompts (strings).")],
    model: Annotated[str, typer.Option(help="Model whose replicas get warmed.")],
    url: Annotated[str, typer.Option(help="Base URL of a running ctxpress proxy.")] = (
        "http://127.0.0.1:8080"
    ),
    api_key: Annotated[
        str | None, typer.Option(envvar="CTXPRESS_API_KEY", help="Proxy API key, if enabled.")
    ] = None,
) -> None:
    """Register system prompts with a running proxy and warm every replica of MODEL."""
    import urllib.error
    import urllib.request

    try:
        prompts = json.loads(file.read_text("utf-8"))
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        _fail(f"{file} is not valid JSON: {exc}")
    if not isinstance(prompts, list) or not all(isinstance(p, str) and p for p in prompts):
        _fail(f"{file} must hold a JSON list of non-empty strings")
    table = Table(title=f"ctxpress warm ({model})")
    for column in ("prefix id", "tokens", "new", "replicas warmed"):
        table.add_column(column)
    headers = {"content-type": "application/json"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    for text in prompts:
        body = json.dumps({"text": text, "model": model}).encode()
        request = urllib.request.Request(f"{url.rstrip('/')}/v1/prefixes", body, headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                entry = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            _fail(f"proxy answered {exc.code}: {exc.read().decode(errors='replace')[:300]}")
        except (urllib.error.URLError, OSError) as exc:
            _fail(f"cannot reach the proxy at {url}: {exc}")
        table.add_row(
            entry["id"], str(entry["tokens"]), str(entry["created"]), str(entry["warmed"])
        )
    console.print(table)


if __name__ == "__main__":  # pragma: no cover
    app()
