"""What every handler reaches through ``app.state.ctx``: the service and the process's helpers."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from projections.runner import CatalogRunner
from server.fanout import Hub
from server.metrics import Metrics
from server.service import CampaignService
from server.throttle import Throttle
from server.timelines import Timelines
from server.ws.outbox import Drain

MAX_BODY = 64 * 1024


@dataclass(frozen=True)
class Context:
    service: CampaignService
    hub: Hub
    metrics: Metrics
    catalog: CatalogRunner
    throttle: Throttle
    timelines: Timelines
    drain: Drain = field(default_factory=Drain)
    """Writes the sockets' frames straight to them (:mod:`server.ws.outbox`)."""


def context(connection: HTTPConnection) -> Context:
    ctx: Context = connection.app.state.ctx
    return ctx
