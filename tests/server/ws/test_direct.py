"""Sockets reach their endpoint directly; everything else passes to the application below."""

from __future__ import annotations

from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from server.ws.direct import DirectSockets


async def nothing() -> dict[str, Any]:
    return {"type": "websocket.connect"}


class Sent:
    """The messages the middleware sends back."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def __call__(self, message: Any) -> None:
        self.messages.append(message)


async def never_reached(websocket: WebSocket) -> None:
    raise AssertionError("the socket route was not to be reached")


class Below:
    """The application the middleware wraps: it records the scopes that reach it."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.scopes.append(scope)


def socket_scope(path: str) -> dict[str, Any]:
    return {"type": "websocket", "path": path, "root_path": "", "headers": [], "query_string": b""}


async def test_a_socket_route_gets_its_path_parameters_and_the_app_below_sees_nothing() -> None:
    reached: list[str] = []

    async def endpoint(websocket: WebSocket) -> None:
        reached.append(websocket.path_params["id"])

    below = Below()
    direct = DirectSockets(below, [WebSocketRoute("/ws/campaigns/{id}", endpoint)])
    sent = Sent()
    await direct(socket_scope("/ws/campaigns/abc"), nothing, sent)
    assert reached == ["abc"] and below.scopes == [] and sent.messages == []


async def test_an_unknown_socket_path_is_closed_before_it_is_accepted() -> None:
    below = Below()
    direct = DirectSockets(below, [WebSocketRoute("/ws/campaigns/{id}", never_reached)])
    sent = Sent()
    await direct(socket_scope("/ws/elsewhere"), nothing, sent)
    assert [m["type"] for m in sent.messages] == ["websocket.close"] and below.scopes == []


async def test_http_and_lifespan_scopes_pass_to_the_app_below_unchanged() -> None:
    below = Below()
    direct = DirectSockets(below, [WebSocketRoute("/ws/campaigns/{id}", never_reached)])
    http = {"type": "http", "path": "/ws/campaigns/abc"}
    lifespan = {"type": "lifespan"}
    sent = Sent()
    await direct(http, nothing, sent)
    await direct(lifespan, nothing, sent)
    assert below.scopes == [http, lifespan] and sent.messages == []
