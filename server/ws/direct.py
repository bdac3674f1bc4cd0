"""Sockets go straight to their endpoint, past the HTTP middleware and the router.

A socket lives for hours, and every ASGI layer it passes through keeps a coroutine frame (and
what that frame holds) alive for as long: GZip, Starlette's exception middleware, the router,
the route and its exception wrapper came to about 5 KiB of an idle socket's ~32 KiB. None of
them does anything for a socket here: compression and error pages are HTTP's, and the socket
endpoints answer their own errors on the socket. So this middleware, placed first, matches a
socket against the socket routes alone (with the routes' own matching: path parameters and
their convertors) and calls the endpoint itself; HTTP and lifespan scopes pass on unchanged.
An unknown socket path is refused as the router would refuse it.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketClose


class DirectSockets:
    def __init__(self, app: ASGIApp, routes: Sequence[WebSocketRoute]) -> None:
        self.app = app
        self._routes = tuple(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        for route in self._routes:
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                await route.endpoint(WebSocket(scope, receive, send))
                return
        await WebSocketClose()(scope, receive, send)
