"""A viewer's reads of one campaign: its events, its state at any version, its timeline."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from projections.log import seen_log
from projections.timeline import timeline
from projections.views import seat_view
from server.http.context import context
from server.http.respond import campaign_id, endpoint, json, query_int, seat_of
from server.messages import EventsOut, StateOut, StatsOut, TimelineOut
from server.openapi import operation
from server.service import SEED_HASH

MAX_EVENTS = 1000


@operation(
    "The viewer's copy of the events.",
    EventsOut,
    query={"after": int, "limit": int},
    seat_token=True,
)
@endpoint
async def events(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    after = query_int(request, "after", 0) or 0
    limit = min(query_int(request, "limit", MAX_EVENTS, low=1) or MAX_EVENTS, MAX_EVENTS)
    head = await ctx.service.head(cid)
    ended = head.outcome != "running"
    recorded = await ctx.service.events(cid, after, head.version, limit)
    return json(EventsOut(head.version, seen_log(head.game, recorded, seat, ended=ended)))


@operation("The viewer's view at a version.", StateOut, query={"at": int}, seat_token=True)
@endpoint
async def state(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    at = query_int(request, "at", None, low=1)
    head = await ctx.service.head(cid)
    seeding = await ctx.service.revealed(cid, head)
    points = await ctx.service.points(head)
    if at is None or at == head.version:
        version, view, legal, outcome = (
            head.version,
            head.view(seat),
            head.choices(seat),
            head.outcome,
        )
    else:
        version, current = await ctx.service.state_at(cid, at)
        game = head.game
        view, legal, outcome = seat_view(game, current, seat), [], game.outcome(current)
    out = StateOut(
        version=version,
        view=view,
        legal_actions=legal,
        outcome=outcome,
        head=head.version,
        seat=seat,
        seed_hash=head.facts.attrs.get(SEED_HASH, ""),
        seed=None if seeding is None else seeding.seed,
        salt=None if seeding is None else seeding.salt,
        fork_points=list(points.fork),
        rewind_points=list(points.rewind),
    )
    return json(out)


@operation("The readable log.", TimelineOut, seat_token=True)
@endpoint
async def timeline_of(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    await seat_of(request)
    head = await ctx.service.head(cid)
    points = await ctx.service.points(head)
    recorded = await ctx.service.events(cid, 0, head.version)
    lines = timeline(head.game, recorded)
    return json(TimelineOut(head.version, lines, list(points.fork), list(points.rewind)))


@operation("Statistics per game and chapter.", StatsOut)
@endpoint
async def stats(request: Request) -> Response:
    ctx = context(request)
    await ctx.catalog.run_once()
    return json(StatsOut(ctx.catalog.statistics()))
