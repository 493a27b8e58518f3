"""``ctxpress serve``: run the proxy under uvicorn (uvloop and httptools when installed).

SIGTERM: uvicorn stops accepting, waits up to ``drain_timeout`` seconds for
in-flight requests (streams included) to finish, then runs the app's shutdown.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from ctxpress.middleware.settings import ProxySettings, load_settings


def uvicorn_options(settings: ProxySettings) -> dict[str, Any]:
    """The uvicorn settings the proxy runs with (the fast loop and parser when present)."""
    has = importlib.util.find_spec
    return {
        "host": settings.host,
        "port": settings.port,
        "loop": "uvloop" if has("uvloop") else "asyncio",
        "http": "httptools" if has("httptools") else "h11",
        "lifespan": "on",
        "access_log": False,  # ctxpress.access logs requests itself, without prompt text
        "server_header": False,
        "timeout_graceful_shutdown": settings.drain_timeout,
        "backlog": 4096,
        "log_level": "info",
    }


def serve(
    host: str | None = None,
    port: int | None = None,
    config: str | Path | None = None,
) -> None:
    """Load settings (flags > ``CTXPRESS_*`` env > config file) and serve until stopped."""
    import uvicorn

    from ctxpress.middleware.app import create_app

    settings = load_settings(config, host=host, port=port)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if not settings.access_log:
        logging.getLogger("ctxpress.access").setLevel(logging.WARNING)
    uvicorn.run(create_app(settings), **uvicorn_options(settings))
