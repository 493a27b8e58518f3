"""A tiny stand-in for an OpenAI-compatible server, standard library only.

The examples start it when no ``--base-url`` is given, and the integration tests
use it to see exactly what a wrapped client sent. It answers
``POST /v1/chat/completions`` (``stream`` true or false) with a reply that names
how many messages arrived, and ``GET /v1/models``. A request for the model
``bad-model`` gets a 400 error in OpenAI's error shape.

    python examples/stub_openai_server.py --port 8000
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class StubServer(ThreadingHTTPServer):
    """Threaded HTTP server that keeps the JSON body of every chat request."""

    daemon_threads = True

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__((host, port), _Handler)
        self.requests: list[dict[str, Any]] = []
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> StubServer:
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


def reply_text(body: dict[str, Any]) -> str:
    return f"stub reply to {len(body.get('messages') or [])} messages"


class _Handler(BaseHTTPRequestHandler):
    server: StubServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            model = {"id": "stub-model", "object": "model", "created": 0, "owned_by": "stub"}
            self._json(200, {"object": "list", "data": [model]})
        else:
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        self.server.requests.append(body)
        if body.get("model") == "bad-model":
            error = {"message": "model 'bad-model' does not exist", "type": "invalid_request_error"}
            self._json(400, {"error": {**error, "param": "model", "code": "model_not_found"}})
            return
        text = reply_text(body)
        base = {"id": "chatcmpl-stub", "created": int(time.time()), "model": body.get("model")}
        prompt = sum(len(json.dumps(m)) // 4 for m in body.get("messages") or [])
        usage = {"prompt_tokens": prompt, "completion_tokens": 5, "total_tokens": prompt + 5}
        if not body.get("stream"):
            choice = {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
            self._json(
                200, {**base, "object": "chat.completion", "choices": [choice], "usage": usage}
            )
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        deltas = [{"role": "assistant", "content": ""}] + [
            {"content": word} for word in text.split(" ")
        ]
        for i, delta in enumerate(deltas):
            if i > 1:
                delta = {"content": " " + delta["content"]}
            chunk = {
                **base,
                "object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
            }
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        last = {
            **base,
            "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
        }
        self.wfile.write(f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n".encode())
        self.wfile.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = StubServer(args.host, args.port)
    print(f"stub OpenAI server at {server.base_url}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
