"""The Starlette application: routes, shared context, and background tasks."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

from domain.core.errors import UnsupportedRuleset
from domain.core.game import Game
from projections.catalog import StoredRuleset
from projections.runner import CatalogRunner
from server.analysis.analyst import Analyst
from server.bots.driver import BotDriver
from server.bots.seats import BotSeats
from server.campaigns.census import Census
from server.campaigns.repository import NotReady
from server.campaigns.service import CampaignService
from server.campaigns.timeline_cache import Timelines
from server.context import Context
from server.http import (
    analysis,
    bots,
    campaigns,
    commands,
    export,
    games,
    lineage,
    ops,
    proposals,
    reads,
    upgrade,
)
from server.http.static import WEB_ROOT, WebClient
from server.lineage.family import Lineages
from server.lineage.proposals import BotSeatsOf, Proposals
from server.live import presence
from server.live.hub import Hub
from server.ops.metrics import Metrics
from server.protocol import openapi
from server.settings import BotSettings, load
from server.store.analyses import analyses_of
from server.store.feed import LocalFeed
from server.store.leases import BotTable, bot_table_of
from server.store.redis_store import RedisStore
from server.throttle import Throttle
from server.ws.direct import DirectSockets
from server.ws.replay import replay_socket
from server.ws.session import campaign_socket, play_socket


def bots_of(table: BotTable | None) -> BotSeatsOf:
    """The seats bots play in a campaign, as the bot table keeps them (none without one)."""

    async def seats(campaign_id: str) -> set[str]:
        return set() if table is None else set(await table.seats(campaign_id))

    return seats


class CatalogSource:
    """The catalog runner's view of the service."""

    def __init__(self, service: CampaignService) -> None:
        self._service = service

    async def campaigns(self, *, offset: int, limit: int) -> list[Any]:
        # The listed campaigns only: the statistics must not reveal private ones.
        return list(await self._service.catalog(offset=offset, limit=limit, listed_only=True))

    async def head(self, campaign_id: str) -> tuple[Game, int, Any]:
        unplayed = await self._service.unplayed(campaign_id)
        if unplayed is not None:  # known from its first event, read once for the entry too
            raise UnsupportedRuleset(unplayed.unplayed or "")
        head = await self._service.head(campaign_id)
        return head.game, head.version, head.state

    async def ruleset(self, campaign_id: str) -> StoredRuleset:
        found = await self._service.rulesets.of(campaign_id)
        if found is None:
            raise NotReady(campaign_id)
        return found


def routes() -> list[Route | WebSocketRoute]:
    api = "/api/campaigns"
    return [
        Route(api, campaigns.create_campaign, methods=["POST"]),
        Route(api, campaigns.list_campaigns, methods=["GET"]),
        Route(api + "/{id}", campaigns.get_campaign, methods=["GET"]),
        Route(api + "/{id}/events", reads.events, methods=["GET"]),
        Route(api + "/{id}/state", reads.state, methods=["GET"]),
        Route(api + "/{id}/timeline", reads.timeline_of, methods=["GET"]),
        Route(api + "/{id}/lineage", lineage.lineage, methods=["GET"]),
        Route(api + "/{id}/compare/{b}", lineage.compare, methods=["GET"]),
        Route(api + "/{id}/export", export.export, methods=["GET"]),
        Route(api + "/{id}/actions", commands.act, methods=["POST"]),
        Route(api + "/{id}/fork", commands.fork, methods=["POST"]),
        Route(api + "/{id}/rewind", commands.rewind, methods=["POST"]),
        Route(api + "/{id}/upgrade", upgrade.upgrade_plan, methods=["GET"]),
        Route(api + "/{id}/upgrade", upgrade.upgrade, methods=["POST"]),
        Route(api + "/{id}/proposal", proposals.open_proposal, methods=["GET"]),
        Route(api + "/{id}/proposals", proposals.propose, methods=["POST"]),
        Route(api + "/{id}/proposal/answer", proposals.answer, methods=["POST"]),
        Route(api + "/{id}/bots", bots.list_bots, methods=["GET"]),
        Route(api + "/{id}/bots", bots.hand_over, methods=["POST"]),
        Route(api + "/{id}/bots/take-back", bots.take_back, methods=["POST"]),
        Route(api + "/{id}/hint", bots.hint, methods=["POST"]),
        Route(api + "/{id}/analysis", analysis.start_analysis, methods=["POST"]),
        Route(api + "/{id}/analysis", analysis.analysis_progress, methods=["GET"]),
        Route(api + "/{id}/analysis", analysis.cancel_analysis, methods=["DELETE"]),
        Route(api + "/{id}/analysis/try", analysis.try_preferred_move, methods=["POST"]),
        Route("/api/stats", reads.stats, methods=["GET"]),
        Route("/api/bots", bots.driver_status, methods=["GET"]),
        Route("/api/games", games.list_games, methods=["GET"]),
        Route("/api/games/{name}/content", games.game_content, methods=["GET"]),
        Route("/healthz", ops.healthz, methods=["GET"]),
        Route("/readyz", ops.readyz, methods=["GET"]),
        Route("/metrics", ops.metrics, methods=["GET"]),
        Route("/openapi.json", ops.openapi, methods=["GET"]),
        WebSocketRoute("/ws/campaigns/{id}", campaign_socket),
        WebSocketRoute("/ws/play", play_socket),
        WebSocketRoute("/ws/campaigns/{id}/replay", replay_socket),
    ]


def create_app(
    service: CampaignService,
    *,
    catalog_interval: float = 10.0,
    audit_interval: float = 5.0,
    presence_refresh: float = presence.REFRESH_S,
    throttle: Throttle | None = None,
    close_store: bool = False,
    web_root: Path | None = WEB_ROOT,
    bot_settings: BotSettings | None = None,
) -> Starlette:
    """The app for a ready service; ``close_store`` closes the store when the app stops.
    ``web_root`` is the browser client's folder, served at ``/`` (None: no browser client).
    ``audit_interval``: how often watched heads are checked against a store that other
    processes share (a store only this process writes needs no check). ``presence_refresh``:
    how often who is connected is shared again with other processes (:mod:`server.live.presence`).
    ``throttle``: the
    clients' limits (by default the default limits, counted in this process's memory).
    ``bot_settings``: how the process drives bot seats (by default ``TABLETALE_BOT_*``)."""
    metrics = Metrics()
    metrics.sample(metrics.campaigns_cached, lambda: len(service.heads))
    store = service.store
    if isinstance(store, RedisStore):
        metrics.sample(metrics.redis_in_flight, lambda: store.commands_in_flight)
    feed = store.changes()
    hub = Hub(
        service.heads,
        feed,
        pushed=metrics.updates_pushed.inc,
        presence_refresh_s=presence_refresh,
    )
    audit_every = 0.0 if isinstance(feed, LocalFeed) else audit_interval
    runner = CatalogRunner(CatalogSource(service))
    census = Census(store, service.rulesets)
    limits = throttle or Throttle.in_memory()
    bot_table = bot_table_of(store)
    driver, seats_api = None, None
    if bot_table is not None:
        driver = BotDriver(service, bot_table, bot_settings or load().bots())
        # Who is connected, over every process, as the hub's presence sharing knows it.
        sharing = hub._presence
        seats_api = BotSeats(driver, lambda cid: {s.seat for s in sharing.everyone(cid).seated})
        driver.connected = seats_api.connected
    ctx = Context(
        service, hub, metrics, runner, limits, Timelines(service.heads), bot_seats=seats_api
    )
    analyses_table = analyses_of(store)
    analyst = None
    if driver is not None and analyses_table is not None:
        # Analyses think in the bots' worker processes, at their priority, one point a call.
        analyst = Analyst(service, analyses_table, driver.run, parallel=driver.settings.workers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        metrics.time_collections()
        hub.start(audit_every=audit_every)
        if driver is not None:
            driver.start()
        tasks = [
            asyncio.create_task(census.run(interval=catalog_interval)),
            asyncio.create_task(ctx.catalog.run(interval=catalog_interval)),
        ]
        if metrics.directory is not None:
            tasks.append(asyncio.create_task(metrics.keep_sampled()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if analyst is not None:
                await analyst.close()  # before the workers it thinks in stop
            if driver is not None:
                await driver.close()
            await hub.close()
            await limits.close()
            metrics.close()
            if close_store:
                await service.store.close()

    table = routes()
    served: list[BaseRoute] = list(table)
    if web_root is not None and web_root.is_dir():
        served.append(Mount("/", app=WebClient(web_root), name="web"))
    # Level 6: nearly the size of 9 for a fraction of the CPU. The middleware leaves WebSocket
    # scopes alone, so frames are never touched; small answers (actions) stay uncompressed.
    gzip = Middleware(GZipMiddleware, minimum_size=512, compresslevel=6)
    # Sockets skip the layers below, which hold a frame per socket for nothing (see its module);
    # their routes stay in the table for the API description and url_path_for.
    sockets = [route for route in table if isinstance(route, WebSocketRoute)]
    direct = Middleware(DirectSockets, routes=sockets)
    app = Starlette(routes=served, lifespan=lifespan, middleware=[direct, gzip])
    app.state.ctx = ctx
    app.state.lineages = Lineages(service, runner)
    app.state.census = census
    app.state.bot_seats = seats_api
    app.state.proposals = Proposals(service, hub, ctx.timelines, bots_of(bot_table))
    app.state.analyses = analyst
    app.state.openapi = openapi.build(table)
    return app
