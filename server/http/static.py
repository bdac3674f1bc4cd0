"""Serving the browser client: the static files of ``clients/web/`` at ``/``.

The files have no content hash in their names (there is no build step), so a browser may keep
them only briefly and then asks again with the ETag or Last-Modified that StaticFiles sends; an
unchanged file costs a 304. The page itself is always revalidated, so a new release shows at the
next load. Text is gzipped by the app's middleware (HTTP only: WebSockets pass through it).
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketClose

WEB_ROOT = Path(__file__).resolve().parents[2] / "clients" / "web"
"""The shipped browser client. Found by path, not imported: it is files, not Python, and it is
installed beside this package (see ``[tool.setuptools.package-data]``)."""

PAGE_CACHE = "no-cache"
ASSET_CACHE = "public, max-age=300"


class WebClient(StaticFiles):
    """StaticFiles with cache headers; ``/`` answers ``index.html``."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            # A socket to a path no WebSocket route serves: refuse it as an unknown route would.
            await WebSocketClose()(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        page = str(full_path).endswith(".html")
        response.headers["Cache-Control"] = PAGE_CACHE if page else ASSET_CACHE
        return response
