"""Typed errors on the wire: a stable code, a sentence, and the HTTP status that goes with it."""

from __future__ import annotations

import msgspec
from starlette import status

from domain.core.errors import DomainError
from projections.views import ViewUnavailable
from server.store.base import StoreError


class ApiError(Exception):
    """An error raised by the server layer itself (bad input, auth, unknown routes' objects)."""

    def __init__(self, code: str, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status_code = status_code or STATUS.get(code, status.HTTP_400_BAD_REQUEST)


class RateLimited(ApiError):
    """A client went past one of its limits (``server.throttle``); ``retry_after`` seconds
    until it may try again."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


STATUS: dict[str, int] = {
    "bad_request": status.HTTP_400_BAD_REQUEST,
    "unauthorized": status.HTTP_401_UNAUTHORIZED,
    "forbidden": status.HTTP_403_FORBIDDEN,
    "not_visible_yet": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "unknown_campaign": status.HTTP_404_NOT_FOUND,
    "stale_version": status.HTTP_409_CONFLICT,
    "conflict": status.HTTP_409_CONFLICT,
    "unsupported_ruleset": status.HTTP_409_CONFLICT,
    "illegal_action": status.HTTP_422_UNPROCESSABLE_CONTENT,
    "not_your_turn": status.HTTP_422_UNPROCESSABLE_CONTENT,
    "too_large": status.HTTP_413_CONTENT_TOO_LARGE,
    "rate_limited": status.HTTP_429_TOO_MANY_REQUESTS,
    "unavailable": status.HTTP_503_SERVICE_UNAVAILABLE,
    "internal": status.HTTP_500_INTERNAL_SERVER_ERROR,
    "view_unavailable": status.HTTP_500_INTERNAL_SERVER_ERROR,
}


class ErrorBody(msgspec.Struct, frozen=True):
    code: str
    message: str


class ErrorResponse(msgspec.Struct, frozen=True):
    error: ErrorBody


def classify(error: Exception) -> ErrorBody | None:
    """The wire form of an error the server knows how to explain, or None for a bug."""
    match error:
        case ApiError(code=code, message=message):
            return ErrorBody(code, message)
        case DomainError() | StoreError() | ViewUnavailable():
            return ErrorBody(error.code, str(error))
        case msgspec.ValidationError() | msgspec.DecodeError():
            return ErrorBody("bad_request", f"The request could not be read: {error}.")
    return None


def status_for(body: ErrorBody) -> int:
    return STATUS.get(body.code, status.HTTP_400_BAD_REQUEST)
