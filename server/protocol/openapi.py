"""The OpenAPI 3.1 document, generated from the route table.

Each handler declares its operation next to itself with :func:`operation`: a summary, the msgspec
types of its request and response bodies, its query parameters. :func:`build` walks the routes,
takes path parameters from each route's path and methods from the route, and turns the declared
types into component schemas with ``msgspec.json.schema_components``. A route whose handler
declares nothing fails the build, so the document cannot fall behind the routes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec
from starlette import status
from starlette.convertors import FloatConvertor, IntegerConvertor
from starlette.routing import BaseRoute, Route, WebSocketRoute

from server.errors import ErrorResponse

REF = "#/components/schemas/{name}"
JSON = "application/json"
_ATTRIBUTE = "__operation__"
_CONVERTOR = re.compile(r":\w+}")  # "/{id:int}" is "/{id}" in the document

F = TypeVar("F", bound=Callable[..., Any])


class Operation(msgspec.Struct, frozen=True, kw_only=True):
    summary: str
    response: Any
    """The type of the body answered (of the messages the server sends, on a socket)."""
    request: Any = None
    """The type of the body taken (of the messages the client sends, on a socket)."""
    status: int = status.HTTP_200_OK
    query: dict[str, Any] = {}
    """Query parameter name -> its type."""
    media_type: str = JSON
    seat_token: bool = False
    """Reads the viewer's seat from an optional bearer token."""


def operation(
    summary: str,
    response: Any,
    *,
    request: Any = None,
    status: int = status.HTTP_200_OK,
    query: dict[str, Any] | None = None,
    media_type: str = JSON,
    seat_token: bool = False,
) -> Callable[[F], F]:
    """Declare what a handler's route takes and answers, for the document."""
    declared = Operation(
        summary=summary,
        response=response,
        request=request,
        status=status,
        query=query or {},
        media_type=media_type,
        seat_token=seat_token,
    )

    def attach(handler: F) -> F:
        # An attribute rather than a registry: functools.wraps carries it through wrappers.
        setattr(handler, _ATTRIBUTE, declared)
        return handler

    return attach


def operation_of(route: Route | WebSocketRoute) -> Operation:
    declared = getattr(route.endpoint, _ATTRIBUTE, None)
    if not isinstance(declared, Operation):
        raise LookupError(
            f"The handler of {route.path} declares no operation; "
            "decorate it with server.protocol.openapi.operation."
        )
    return declared


def _parameters(route: Route | WebSocketRoute, op: Operation) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    for name, convertor in route.param_convertors.items():
        kind = {IntegerConvertor: "integer", FloatConvertor: "number"}.get(type(convertor))
        schema = {"type": kind or "string"}
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    for name, kind in op.query.items():
        schema = msgspec.json.schema(kind)
        params.append({"name": name, "in": "query", "required": False, "schema": schema})
    return params


def _http(route: Route, op: Operation, schema: Callable[[Any], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "operationId": route.name,
        "summary": op.summary,
        "parameters": _parameters(route, op),
        "responses": {
            str(op.status): {
                "description": "OK",
                "content": {op.media_type: {"schema": schema(op.response)}},
            },
            "default": {
                "description": "A typed error: a stable code and a sentence.",
                "content": {JSON: {"schema": schema(ErrorResponse)}},
            },
        },
    }
    if op.request is not None:
        out["requestBody"] = {"required": True, "content": {JSON: {"schema": schema(op.request)}}}
    if op.seat_token:
        out["security"] = [{}, {"seatToken": []}]
    return out


def _socket(route: WebSocketRoute, op: Operation, schema: Callable[[Any], Any]) -> dict[str, Any]:
    return {
        "operationId": route.name,
        "summary": op.summary,
        "description": "A WebSocket; its messages are described in docs/protocol.md.",
        "parameters": _parameters(route, op),
        "responses": {"101": {"description": "Switching Protocols to a WebSocket."}},
        "x-client-messages": schema(op.request),
        "x-server-messages": schema(op.response),
    }


def build(routes: Sequence[BaseRoute]) -> dict[str, Any]:
    documented = [
        (route, operation_of(route))
        for route in routes
        if isinstance(route, Route | WebSocketRoute)
    ]
    kinds: list[Any] = [ErrorResponse]
    for _, op in documented:
        kinds += [kind for kind in (op.request, op.response) if kind is not None]
    kinds = list(dict.fromkeys(kinds))
    schemas, components = msgspec.json.schema_components(kinds, ref_template=REF)
    schema_of = dict(zip(kinds, schemas, strict=True))
    paths: dict[str, dict[str, Any]] = {}
    for route, op in documented:
        methods = paths.setdefault(_CONVERTOR.sub("}", route.path), {})
        if isinstance(route, WebSocketRoute):
            methods["get"] = _socket(route, op, schema_of.__getitem__)
            continue
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                methods[method.lower()] = _http(route, op, schema_of.__getitem__)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tabletale",
            "version": "1",
            "description": "Campaign server. WebSocket protocol: see docs/protocol.md.",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        },
    }
