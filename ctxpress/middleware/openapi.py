"""A hand-written OpenAPI 3.1 document of the proxy's own endpoints (``GET /openapi.json``).

Why by hand: the proxy is raw ASGI (no framework to derive a schema from), and the
document is a contract that ``tests/test_reliability.py`` checks with schemathesis.
Request schemas state exactly what the proxy validates (model, messages, stream,
the ``ctxpress`` control field) and leave every other field open, since unknown
fields pass through to the engine untouched. Upstream statuses and bodies are
relayed as they come, so success bodies are described loosely.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    text = {
        400: "Invalid request; `error.param` names the field.",
        401: "Missing or wrong proxy API key (only when keys are configured).",
        404: "No upstream serves the model.",
        405: "Method not allowed.",
        413: "Request body larger than `max_body_bytes`.",
        429: "Admission queue full; see `Retry-After`.",
        502: "The upstream failed after connecting.",
        503: "No upstream could be reached.",
        504: "The upstream sent nothing within the first-byte timeout.",
    }
    return {str(s): _json(_ERROR, text[s]) for s in statuses}


_FORWARDED = (400, 401, 404, 405, 413, 429, 502, 503, 504)

_MESSAGE: dict[str, Any] = {
    "type": "object",
    "required": ["role"],
    "properties": {
        "role": {
            "type": "string",
            "enum": ["system", "developer", "user", "assistant", "tool", "function"],
        },
        "content": {
            "oneOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/components/schemas/ContentPart"}},
                {"type": "null"},
            ]
        },
        "name": {"type": "string"},
        "tool_calls": {"type": ["array", "null"], "items": {"type": "object"}},
    },
}

_CONTROL: dict[str, Any] = {
    "description": "Per-request ctxpress control; removed before forwarding.",
    "oneOf": [
        {"type": "string", "enum": ["off"]},
        {"type": "boolean"},
        {"type": "null"},
        {
            "type": "object",
            "properties": {
                "budget": {"type": ["integer", "null"], "minimum": 1},
                "stages": {"type": ["array", "null"], "items": {"type": "string"}},
                "prefix": {"type": "string", "description": "A registered prefix id."},
                "enabled": {"type": "boolean"},
            },
        },
    ],
}

_CHAT: dict[str, Any] = {
    "type": "object",
    "required": ["model", "messages"],
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "messages": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/components/schemas/Message"},
        },
        "stream": {"type": "boolean"},
        "ctxpress": {"$ref": "#/components/schemas/Control"},
    },
    "additionalProperties": True,
}

_COMPLETION: dict[str, Any] = {
    "type": "object",
    "required": ["model", "prompt"],
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "prompt": {"oneOf": [{"type": "string"}, {"type": "array"}]},
        "stream": {"type": "boolean"},
    },
    "additionalProperties": True,
}

_COMPRESS: dict[str, Any] = {
    "type": "object",
    "required": ["messages"],
    "properties": {
        "messages": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/components/schemas/Message"},
        },
        "model": {"type": ["string", "null"]},
        "budget": {"type": ["integer", "null"], "minimum": 1},
        "stages": {"type": ["array", "null"], "items": {"type": "string"}},
    },
}

_STREAM_OR_JSON: dict[str, Any] = {
    "description": "The engine's answer, relayed (JSON, or SSE events when `stream` is true).",
    "content": {
        "application/json": {"schema": {"type": "object"}},
        "text/event-stream": {"schema": {"type": "string"}},
    },
}

_PREFIX: dict[str, Any] = {
    "type": "object",
    "required": ["id", "object", "text", "tokens", "hits"],
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
        "object": {"const": "ctxpress.prefix"},
        "text": {"type": "string"},
        "tokens": {"type": "integer"},
        "first_seen": {"type": "number"},
        "last_seen": {"type": "number"},
        "hits": {"type": "integer"},
        "warmed_replicas": {"type": "integer"},
        "created": {"type": "boolean"},
        "warmed": {"type": "integer"},
    },
}


def _post(summary: str, schema: dict[str, Any], ok: dict[str, Any]) -> dict[str, Any]:
    return {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}},
        "responses": {"200": ok, **_errors(*_FORWARDED)},
    }


OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "ctxpress proxy",
        "version": "1",
        "description": "OpenAI-compatible proxy that compresses prompts before the engine. "
        "Errors use OpenAI's JSON shape. Other /v1/* paths pass through to the upstream.",
    },
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {
                    "error": {
                        "type": "object",
                        "required": ["message", "type"],
                        "properties": {
                            "message": {"type": "string", "minLength": 1},
                            "type": {"type": "string"},
                            "param": {"type": ["string", "null"]},
                            "code": {"type": ["string", "null"]},
                        },
                    }
                },
            },
            "ContentPart": {
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"type": "string"}},
            },
            "Message": _MESSAGE,
            "Control": _CONTROL,
        },
    },
    "paths": {
        "/v1/chat/completions": {
            "post": _post("Chat completion, compressed then forwarded", _CHAT, _STREAM_OR_JSON)
        },
        "/v1/completions": {
            "post": _post("Text completion, forwarded", _COMPLETION, _STREAM_OR_JSON)
        },
        "/v1/compress": {
            "post": {
                "summary": "Dry run: the compressed messages and the per-stage report",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _COMPRESS}},
                },
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["messages", "tokens_before", "tokens_after", "stages"],
                            "properties": {
                                "messages": {"type": "array"},
                                "tokens_before": {"type": "integer"},
                                "tokens_after": {"type": "integer"},
                                "stages": {"type": "array"},
                            },
                        },
                        "Compression result.",
                    ),
                    **_errors(400, 401, 404, 405, 413),
                },
            }
        },
        "/v1/prefixes": {
            "get": {
                "summary": "The caller's registered system prompts",
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["object", "data"],
                            "properties": {
                                "object": {"const": "list"},
                                "data": {"type": "array", "items": _PREFIX},
                            },
                        },
                        "Registered prefixes, most used first.",
                    ),
                    **_errors(401),
                },
            },
            "post": {
                "summary": "Register a system prompt; returns its content-hash id",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["text"],
                                "properties": {
                                    "text": {"type": "string", "minLength": 1},
                                    "model": {"type": ["string", "null"]},
                                    "warm": {"type": "boolean"},
                                },
                            }
                        }
                    },
                },
                "responses": {
                    "200": _json(_PREFIX, "Already registered."),
                    "201": _json(_PREFIX, "Newly registered."),
                    **_errors(400, 401, 404, 413, 503),
                },
            },
        },
        "/v1/models": {
            "get": {
                "summary": "Models of every upstream group, merged, plus aliases",
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "required": ["object", "data"],
                            "properties": {"object": {"const": "list"}, "data": {"type": "array"}},
                        },
                        "Model list.",
                    ),
                    **_errors(401, 503),
                },
            }
        },
        "/health": {
            "get": {
                "summary": "Liveness: 200 while the process serves",
                "responses": {
                    "200": _json(
                        {"type": "object", "properties": {"status": {"const": "ok"}}}, "Alive."
                    )
                },
            }
        },
        "/ready": {
            "get": {
                "summary": "Readiness: 503 when no upstream is healthy",
                "responses": {
                    "200": _json({"type": "object", "required": ["status", "upstreams"]}, "Ready."),
                    "503": _json(
                        {"type": "object", "required": ["status", "upstreams"]}, "Not ready."
                    ),
                },
            }
        },
        "/metrics": {
            "get": {
                "summary": "Prometheus metrics",
                "responses": {
                    "200": {
                        "description": "Text exposition format.",
                        "content": {"text/plain": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
        "/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1 document.")},
            }
        },
    },
}


@cache
def document() -> bytes:
    """The serialised document (built once)."""
    return orjson.dumps(OPENAPI)
