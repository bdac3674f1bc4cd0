from __future__ import annotations

import re

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from server.protocol import openapi
from server.protocol.messages import ActRequest, CreatedOut


async def undeclared(request: Request) -> Response:
    return PlainTextResponse("")


@openapi.operation("Count.", CreatedOut, request=ActRequest, query={"n": int}, status=201)
async def declared(request: Request) -> Response:
    return PlainTextResponse("")


def test_a_route_whose_handler_declares_nothing_fails_the_build() -> None:
    with pytest.raises(LookupError, match=re.escape("/things/{id} declares no operation")):
        openapi.build([Route("/counts", declared), Route("/things/{id}", undeclared)])


def test_an_operation_comes_from_its_route_and_its_declaration() -> None:
    document = openapi.build([Route("/counts/{id:int}", declared, methods=["POST"])])
    (op,) = document["paths"]["/counts/{id}"].values()
    assert op["operationId"] == "declared"
    assert [(p["name"], p["in"], p["schema"]) for p in op["parameters"]] == [
        ("id", "path", {"type": "integer"}),
        ("n", "query", {"type": "integer"}),
    ]
    assert op["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CreatedOut"
    }
    components = document["components"]["schemas"]
    assert {"ActRequest", "CreatedOut", "ErrorResponse", "ErrorBody"} <= components.keys()
