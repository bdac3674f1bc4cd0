"""Running the server: pick the store, build the app, hand it to uvicorn.

With a Redis URL the Redis Streams store is used (``TABLETALE_REDIS_PREFIX`` sets its key prefix,
default ``tt``); without one the embedded SQLite store under the data directory. The first log line
says which.
"""

from __future__ import annotations

import logging

import uvicorn

from server.app import create_app
from server.service import CampaignService
from server.stores import open_store
from server.ws.frames import MAX_FRAME

log = logging.getLogger("tabletale.serve")


def serve(*, host: str, port: int, redis_url: str | None, data_dir: str) -> None:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    store, which = open_store(redis_url=redis_url, data_dir=data_dir)
    log.info(which)
    app = create_app(CampaignService(store), close_store=True)
    # uvicorn's own limit sits above the app's, so the app is the one that answers an oversized
    # frame (close code 1009) and a runaway frame is still cut off early.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_FRAME * 4,
        log_level="info",
        proxy_headers=True,
    )
