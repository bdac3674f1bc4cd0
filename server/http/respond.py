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

from projections.views import ViewUnavailable
from server.campaigns.tokens import bearer
from server.context import MAX_BODY, authenticate, context
from server.errors import ApiError, ErrorBody, ErrorResponse, RateLimited, classify, status_for
from server.ops import logs
from server.protocol.messages import SEED_FIELDS, SEED_HINT
from server.throttle import client_of, retry_after

log = logging.getLogger("tabletale.http")
T = TypeVar("T")

_encoder = msgspec.json.Encoder()
_decoders: dict[type, msgspec.json.Decoder[Any]] = {}


def json(body: Any, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(_encoder.encode(body), status_code, media_type="application/json")


def error_response(body: ErrorBody, *, error: Exception | None = None) -> Response:
    response = json(ErrorResponse(body), status_for(body))
    if isinstance(error, RateLimited):
        response.headers["Retry-After"] = retry_after(error.retry_after)
    return response


def decoder(kind: type[T]) -> msgspec.json.Decoder[T]:
    """One decoder per request type, built on first use and reused."""
    found = _decoders.get(kind)
    if found is None:
        found = _decoders[kind] = msgspec.json.Decoder(kind)
    return found


async def read_body(request: Request, *, limit: int = MAX_BODY) -> bytes:
    """The request's body, refused (``too_large``) by its ``Content-Length`` before any of it
    is read, or as soon as a body without one (chunked) passes ``limit``."""
    too_large = ApiError("too_large", f"A request body may hold at most {limit} bytes.")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


async def body(request: Request, kind: type[T]) -> T:
    data = await read_body(request)
    if not data:
        raise ApiError("bad_request", "The request needs a JSON body.")
    try:
        return decoder(kind).decode(data)
    except msgspec.ValidationError as error:
        # A seed is read by messages.seed_of, except a number too large for any reader at all.
        if str(error).endswith(SEED_FIELDS):
            raise ApiError("bad_request", f"The request could not be read: {SEED_HINT}.") from None
        raise


def query(request: Request, kind: type[T]) -> T:
    """The query parameters decoded into ``kind`` (a Struct whose fields carry their bounds);
    parameters it does not name are ignored."""
    try:
        return msgspec.convert(dict(request.query_params), kind, strict=False)
    except msgspec.ValidationError as error:
        raise ApiError("bad_request", f"A query parameter is not valid: {error}.") from None


def campaign_id(request: Request) -> str:
    value: str = request.path_params["id"]
    return value


async def seat_of(request: Request) -> str | None:
    """The viewer's seat from the bearer token (None: spectator); checks the campaign exists."""
    token = bearer(request.headers.get("authorization"))
    return await authenticate(context(request), client_of(request), campaign_id(request), token)


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
            elif isinstance(error, ViewUnavailable):  # a fault of a game's view code, typed
                log.error("%s", error, exc_info=error.__cause__)
            return error_response(known, error=error)
        finally:
            logs.command_id.reset(command)
            logs.campaign_id.reset(campaign)

    return wrapped
