"""Errors in OpenAI's JSON shape, so SDKs raise the matching exception class.

``{"error": {"message": ..., "type": ..., "param": ..., "code": ...}}``; the
status picks the SDK's class (400 BadRequestError, 404 NotFoundError, ...).
"""

from __future__ import annotations

import orjson

_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "invalid_request_error",
    429: "rate_limit_error",
    502: "upstream_error",
    503: "service_unavailable",
    504: "timeout_error",
}


class ProxyError(Exception):
    """A request the proxy answers itself with an OpenAI-shaped error."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code
        self.headers = headers or {}

    def body(self) -> bytes:
        return error_body(self.message, self.status, param=self.param, code=self.code)


def error_body(
    message: str, status: int, *, param: str | None = None, code: str | None = None
) -> bytes:
    """The JSON bytes of an OpenAI error object."""
    return orjson.dumps(
        {
            "error": {
                "message": message,
                "type": _TYPES.get(status, "api_error"),
                "param": param,
                "code": code,
            }
        }
    )


def invalid(param: str, problem: str) -> ProxyError:
    """400 naming the offending field, e.g. ``messages[2].content: must be a string``."""
    return ProxyError(400, f"{param}: {problem}", param=param, code="invalid_request")


def from_value_error(exc: ValueError) -> ProxyError:
    """Map a validator's ``"field: problem"`` message to a 400 that names the field."""
    text = str(exc)
    param, sep, _ = text.partition(":")
    return ProxyError(400, text, param=param if sep and " " not in param else None)
