"""Encoding responses, decoding bodies and query parameters, and turning errors into answers."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from starlette import status
from starlette.requests import Request
from starlette.responses import Response

from server import logs
from server.auth import bearer, viewer
from server.errors import ApiError, ErrorBody, ErrorResponse, classify, status_for
from server.http.context import MAX_BODY, context

log = logging.getLogger("tabletale.http")
T = TypeVar("T")

_encoder = msgspec.json.Encoder()
_decoders: dict[type, msgspec.json.Decoder[Any]] = {}


def json(body: Any, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(_encoder.encode(body), status_code, media_type="application/json")


def error_response(body: ErrorBody) -> Response:
    return json(ErrorResponse(body), status_for(body))


def decoder(kind: type[T]) -> msgspec.json.Decoder[T]:
    """One decoder per request type, built on first use and reused."""
    found = _decoders.get(kind)
    if found is None:
        found = _decoders[kind] = msgspec.json.Decoder(kind)
    return found


async def body(request: Request, kind: type[T]) -> T:
    data = await request.body()
    if len(data) > MAX_BODY:
        raise ApiError("too_large", f"A request body may hold at most {MAX_BODY} bytes.")
    if not data:
        raise ApiError("bad_request", "The request needs a JSON body.")
    return decoder(kind).decode(data)


def query_int(request: Request, name: str, default: int | None, *, low: int = 0) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError("bad_request", f"Query parameter {name!r} must be a whole number.") from None
    if value < low:
        raise ApiError("bad_request", f"Query parameter {name!r} must be at least {low}.")
    return value


def campaign_id(request: Request) -> str:
    value: str = request.path_params["id"]
    return value


async def seat_of(request: Request) -> str | None:
    """The viewer's seat from the bearer token (None: spectator); checks the campaign exists."""
    token = bearer(request.headers.get("authorization"))
    return await viewer(context(request).service, campaign_id(request), token)


Handler = Callable[[Request], Awaitable[Response]]


def endpoint(handler: Handler) -> Handler:
    """Answer known errors with ``{"error": {"code", "message"}}`` and the matching status;
    bind the campaign id of the path for the logs (a handler binds the command id it reads)."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        campaign = logs.campaign_id.set(request.path_params.get("id"))
        command = logs.command_id.set(None)
        try:
            return await handler(request)
        except Exception as error:
            known = classify(error)
            if known is None:
                log.exception("Unexpected error in %s %s", request.method, request.url.path)
                known = ErrorBody("internal", "The server failed to handle this request.")
            return error_response(known)
        finally:
            logs.command_id.reset(command)
            logs.campaign_id.reset(campaign)

    return wrapped
