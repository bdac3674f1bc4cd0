"""The OpenAPI 3.1 schema, built from the route table and the msgspec message types."""

from __future__ import annotations

from typing import Any

import msgspec

from server.errors import ErrorResponse
from server.messages import (
    ActedOut,
    ActRequest,
    CampaignOut,
    CatalogPage,
    ClientMessage,
    CreateCampaign,
    CreatedOut,
    EventsOut,
    ForkRequest,
    GamesOut,
    RewindRequest,
    ServerMessage,
    StateOut,
    StatsOut,
    TimelineOut,
)

REF = "#/components/schemas/{name}"


class Operation(msgspec.Struct, frozen=True):
    path: str
    method: str
    summary: str
    response: Any = None
    request: Any = None
    query: tuple[str, ...] = ()
    text: bool = False


def _ref(kind: Any) -> dict[str, str]:
    return {"$ref": REF.format(name=kind.__name__)}


def _params(op: Operation) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    for name in ("id", "name"):
        if "{" + name + "}" in op.path:
            schema = {"type": "string"}
            params.append({"name": name, "in": "path", "required": True, "schema": schema})
    kinds = {"speed": "number"}
    for name in op.query:
        schema = {"type": kinds.get(name, "integer")}
        params.append({"name": name, "in": "query", "required": False, "schema": schema})
    return params


def _operation(op: Operation) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": op.summary, "parameters": _params(op)}
    if op.text:
        out["responses"] = {"200": {"description": "OK", "content": {"text/plain": {}}}}
        return out
    ok = "201" if op.method == "post" and op.response is CreatedOut else "200"
    body = {"application/json": {"schema": _ref(op.response)}} if op.response else {}
    out["responses"] = {
        ok: {"description": "OK", "content": body},
        "default": {
            "description": "A typed error: a stable code and a sentence.",
            "content": {"application/json": {"schema": _ref(ErrorResponse)}},
        },
    }
    if op.request is not None:
        out["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(op.request)}},
        }
    if op.path.startswith("/api/campaigns/"):
        out["security"] = [{}, {"seatToken": []}]
    return out


def build(operations: list[Operation]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    types: list[Any] = [ErrorResponse, ClientMessage, ServerMessage]
    for op in operations:
        types.extend(kind for kind in (op.request, op.response) if kind is not None)
    _, components = msgspec.json.schema_components(types, ref_template=REF)
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


OPERATIONS = [
    Operation("/api/campaigns", "post", "Create a campaign.", CreatedOut, CreateCampaign),
    Operation(
        "/api/campaigns",
        "get",
        "The catalog, newest first.",
        CatalogPage,
        query=("offset", "limit"),
    ),
    Operation("/api/campaigns/{id}", "get", "One campaign's catalog entry.", CampaignOut),
    Operation(
        "/api/campaigns/{id}/events",
        "get",
        "The viewer's copy of the events.",
        EventsOut,
        query=("after", "limit"),
    ),
    Operation(
        "/api/campaigns/{id}/state",
        "get",
        "The viewer's view at a version.",
        StateOut,
        query=("at",),
    ),
    Operation("/api/campaigns/{id}/timeline", "get", "The readable log.", TimelineOut),
    Operation("/api/campaigns/{id}/actions", "post", "Take an action.", ActedOut, ActRequest),
    Operation("/api/campaigns/{id}/fork", "post", "Fork at a version.", CreatedOut, ForkRequest),
    Operation(
        "/api/campaigns/{id}/rewind", "post", "Rewind to a version.", ActedOut, RewindRequest
    ),
    Operation("/api/stats", "get", "Statistics per game and chapter.", StatsOut),
    Operation("/api/games", "get", "The games hosted: facts and options.", GamesOut),
    Operation("/api/games/{name}/content", "get", "A game's public content (its own shape)."),
    Operation("/healthz", "get", "The process is up.", text=True),
    Operation("/readyz", "get", "The store answers.", text=True),
    Operation("/metrics", "get", "Prometheus metrics.", text=True),
    Operation("/openapi.json", "get", "This schema.", text=True),
    Operation(
        "/ws/campaigns/{id}", "get", "WebSocket play session (see docs/protocol.md).", text=True
    ),
    Operation(
        "/ws/campaigns/{id}/replay",
        "get",
        "WebSocket replay (see docs/protocol.md).",
        query=("from", "speed"),
        text=True,
    ),
]
