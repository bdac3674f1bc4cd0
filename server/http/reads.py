"""A viewer's reads of one campaign: its events, its state at any version, its timeline."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from projections.log import seen_log
from projections.views import view_at
from server.campaigns.points import Points
from server.campaigns.service import SEED_HASH
from server.context import context
from server.http import unplayed
from server.http.respond import campaign_id, endpoint, json, query, seat_of
from server.protocol.messages import (
    Count,
    EventsOut,
    EventsQuery,
    Limit,
    PointsOut,
    StateOut,
    StateQuery,
    StatsOut,
    TimelineOut,
    TimelineQuery,
    Version,
    seed_text,
)
from server.protocol.openapi import operation

MAX_EVENTS = 1000


@operation(
    "The viewer's copy of the events; as stored (raw: true) for a ruleset this server does not "
    "play: whole for a seat's holder, their type alone for a spectator.",
    EventsOut,
    query={"after": Count, "limit": Limit},
    seat_token=True,
)
@endpoint
async def events(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    asked = query(request, EventsQuery)
    after, limit = asked.after, min(asked.limit, MAX_EVENTS)
    ruleset = await ctx.service.unplayed(cid)
    if ruleset is not None:
        return await unplayed.events(ctx, cid, ruleset, seat, after=after, limit=limit)
    head = await ctx.spectators.head_for(await ctx.service.head(cid), seat)
    ended = head.outcome != "running"
    recorded = await ctx.service.events(cid, after, head.version, limit)
    own_from = head.facts.own_from
    log = seen_log(head.game, recorded, seat, ended=ended, own_from=own_from)
    return json(EventsOut(head.version, log))


@operation("The viewer's view at a version.", StateOut, query={"at": Version}, seat_token=True)
@endpoint
async def state(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    at = query(request, StateQuery).at
    live = await ctx.service.head(cid)
    if at is not None:
        await ctx.spectators.visible(live, seat, at)
    head = await ctx.spectators.head_for(live, seat)
    seeding = await ctx.service.revealed(cid, head)
    points = await ctx.service.points(head, at)
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
        view, legal, outcome = view_at(game, current, seat, version), [], game.outcome(current)
    out = StateOut(
        version=version,
        view=view,
        legal_actions=legal,
        outcome=outcome,
        head=head.version,
        seat=seat,
        seed_hash=head.facts.attrs.get(SEED_HASH, ""),
        seed=None if seeding is None else seed_text(seeding.seed),
        salt=None if seeding is None else seeding.salt,
        points=points_out(points),
        known_luck=await ctx.service.luck_known(cid, head.facts),
    )
    return json(out)


@operation(
    "The readable log; for a ruleset this server does not play, one line per stored event, "
    "without the game's words.",
    TimelineOut,
    query={"after": Count, "limit": Limit, "near": Version},
    seat_token=True,
)
@endpoint
async def timeline_of(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    asked = query(request, TimelineQuery)
    ruleset = await ctx.service.unplayed(cid)
    if ruleset is not None:
        return await unplayed.timeline(ctx, cid, ruleset, after=asked.after, limit=asked.limit)
    version, lines = await ctx.timelines.lines(cid, after=asked.after, limit=asked.limit)
    # The points as of the version the lines reach, around the version asked for.
    head = await ctx.service.head(cid)
    shown = await ctx.spectators.head_for(head, seat)
    if shown is not head:
        version = min(version, shown.version)
        lines = [each for each in lines if each.version <= version]
    near = version if asked.near is None else asked.near
    points = await ctx.service.points(head, near, upto=version)
    return json(TimelineOut(version, lines, points_out(points)))


def points_out(points: Points) -> PointsOut:
    return PointsOut(
        points.near,
        list(points.fork),
        list(points.rewind),
        points.more_before,
        points.more_after,
    )


@operation("Statistics per game and chapter.", StatsOut)
@endpoint
async def stats(request: Request) -> Response:
    ctx = context(request)
    await ctx.catalog.run_once()
    return json(StatsOut(ctx.catalog.statistics()))
