"""What both edges reach: the process's rooms (:class:`Context`, through ``app.state.ctx``) and
the steps requests and sockets share, in one place so that HTTP and WebSockets cannot drift
apart: who a token seats (:func:`authenticate`), a seat's action, counted (:func:`perform`), and
a new campaign with its seats' tokens (:func:`create_campaign`). The edges (:mod:`server.http`,
:mod:`server.ws`) import this; it imports neither of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

from starlette.requests import HTTPConnection

from domain.games import get_game
from projections.runner import CatalogRunner
from server.bots.seats import BotSeats, creation_specs, spec_attrs
from server.bots.specs import BotSpec
from server.campaigns.delay import delay_attrs
from server.campaigns.results import Acted
from server.campaigns.service import CampaignService
from server.campaigns.timeline_cache import Timelines
from server.campaigns.tokens import PRIVATE, new_tokens, seat_for, token_attrs
from server.errors import ApiError, classify
from server.live.hub import Hub
from server.live.outbox import Drain
from server.live.spectators import Spectators
from server.ops import phases
from server.ops.metrics import Metrics
from server.protocol.messages import CreateCampaign, CreatedOut
from server.throttle import Throttle

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
    """Writes the sockets' frames straight to them (:mod:`server.live.outbox`)."""
    bot_seats: BotSeats | None = None
    """Bot seats, where the store keeps the bots' leases (:mod:`server.bots.seats`)."""

    @property
    def spectators(self) -> Spectators:
        """What a delayed campaign's spectators may see (the hub's view of the delay)."""
        return self.hub.spectators


def context(connection: HTTPConnection) -> Context:
    ctx: Context = connection.app.state.ctx
    return ctx


async def authenticate(ctx: Context, client: str, cid: str, token: str | None) -> str | None:
    """The seat ``token`` opens in campaign ``cid`` (None: a spectator), within the limits on
    failed tokens: a client or campaign past them is refused before its token is looked at."""
    if await ctx.service.unplayed(cid) is None:
        attrs = (await ctx.service.facts(cid)).attrs
    else:
        # A campaign this server does not play keeps its seats' tokens: its stored events and
        # its export answer to them.
        attrs = (await ctx.service.info(cid)).attrs
    if token is None:
        return seat_for(attrs, None)
    ctx.throttle.check_auth(client, cid)
    try:
        return seat_for(attrs, token)
    except ApiError as error:
        if error.code == "unauthorized":
            await ctx.throttle.failed_auth(client, cid)
        raise


async def perform(
    ctx: Context,
    cid: str,
    seat: str | None,
    action: str,
    *,
    expected_version: int,
    command_id: str | None,
    origin: object = None,
) -> Acted:
    """Apply a seat's action, counting it as accepted or rejected (by code)."""
    started = time.perf_counter()
    timing = phases.sampled()
    timed = phases.clock.set(timing)
    try:
        if seat is None:
            raise ApiError("forbidden", "Spectators cannot act; present a seat token.")
        acted = await ctx.service.act(
            cid,
            seat,
            action,
            expected_version=expected_version,
            command_id=command_id,
            origin=origin,
        )
    except Exception as error:
        known = classify(error)
        ctx.metrics.rejected.labels("internal" if known is None else known.code).inc()
        raise
    finally:
        phases.clock.reset(timed)
    ctx.metrics.append_seconds.observe(time.perf_counter() - started)
    ctx.metrics.accepted.inc()
    if timing is not None:
        for phase, seconds in timing.done().items():
            ctx.metrics.phase_seconds[phase].observe(seconds)
    return acted


def seats_of(asked: CreateCampaign) -> tuple[str, ...]:
    """The seats a campaign created as ``asked`` has: those asked for, or the game's first
    layout (the service checks the layout)."""
    return tuple(asked.seats) if asked.seats else get_game(asked.game).info.seat_layouts[0]


class Plan(NamedTuple):
    """A campaign about to be created: everything decided, nothing stored."""

    asked: CreateCampaign
    seats: tuple[str, ...]
    specs: dict[str, BotSpec]
    tokens: dict[str, str]
    attrs: dict[str, str]


async def plan_campaign(ctx: Context, client: str, asked: CreateCampaign) -> Plan:
    """Check a creation as ``asked`` by ``client`` (within its limit on creations) and mint its
    seats' tokens; refused here, nothing is stored."""
    await ctx.throttle.created(client)
    game = get_game(asked.game)
    seats = seats_of(asked)
    specs = creation_specs(game, seats, asked.bots)
    if specs and ctx.bot_seats is None:
        raise ApiError("unavailable", "This server runs no bots: its store keeps no bot seats.")
    tokens = new_tokens(seats)
    attrs = token_attrs(tokens) | spec_attrs(specs)
    if asked.private:
        attrs[PRIVATE] = "1"
    attrs |= delay_attrs(asked.spectator_delay)
    return Plan(asked, seats, specs, tokens, attrs)


async def make_campaign(ctx: Context, plan: Plan, *, campaign_id: str | None = None) -> CreatedOut:
    """Create the campaign ``plan`` decided (as ``campaign_id``, when the caller chose it), its
    bot seats registered; its seats' tokens are stored as hashes only."""
    asked = plan.asked
    created = await ctx.service.create(
        asked.game,
        seed=asked.seed,
        options=asked.options,
        seats=plan.seats,
        attrs=plan.attrs,
        campaign_id=campaign_id,
    )
    if plan.specs:
        assert ctx.bot_seats is not None  # checked by plan_campaign
        await ctx.bot_seats.register(created.id, plan.specs)
    return CreatedOut(created.id, created.game, plan.tokens, created.seed_hash, created.version)


async def create_campaign(ctx: Context, client: str, asked: CreateCampaign) -> CreatedOut:
    """:func:`plan_campaign`, then :func:`make_campaign`."""
    return await make_campaign(ctx, await plan_campaign(ctx, client, asked))
