"""The reads of a campaign whose ruleset this server does not play, answered from what is
stored (:mod:`server.campaigns.raw`), never replayed: its catalog entry, its events, its timeline
and a raw export. Its states, its actions and its forks answer ``409 unsupported_ruleset``
(:mod:`server.campaigns.played` says which ruleset, and which this server plays).

What is stored holds what a seat may not see (the seed, face-down cards, other seats' secrets),
and without the game's rules nothing can be taken out: a spectator reads each event's type
alone; a seat's holder reads the events whole, and takes the export. Either gives that seat the
campaign's luck, so the campaign is marked as played on known luck first
(:data:`projections.catalog.KNOWN_LUCK`), as a rewind past a draw marks it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.responses import Response, StreamingResponse

from projections.catalog import KNOWN_LUCK, StoredRuleset, known_luck, unplayed_entry
from projections.timeline import MoveCount
from server.campaigns.delay import delay_of
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.raw import read_stored, seen_stored, stored_lines
from server.campaigns.service import SEED_HASH
from server.campaigns.tokens import is_private
from server.context import Context
from server.errors import ApiError
from server.export.format import MEDIA_TYPE
from server.export.raw import raw_export_lines
from server.http.respond import json
from server.protocol.messages import CampaignOut, EventsOut, TimelineOut


async def campaign(ctx: Context, cid: str, ruleset: StoredRuleset) -> Response:
    info = await ctx.service.info(cid)
    entry = unplayed_entry(
        ruleset,
        campaign_id=cid,
        version=info.head,
        created_ms=info.created_ms,
        updated_ms=info.updated_ms,
        parent=info.parent,
        fork_version=info.fork_version,
        known_luck=known_luck(info.attrs),
    )
    out = CampaignOut(
        entry=entry,
        seats=list(ruleset.seats),
        private=is_private(info.attrs),
        seed_hash=info.attrs.get(SEED_HASH, ""),
        spectator_delay=delay_of(info.attrs),
    )
    return json(out)


async def _reveal(ctx: Context, cid: str) -> None:
    """Mark the campaign as played on known luck before a seat reads it whole."""
    if not known_luck((await ctx.service.info(cid)).attrs):
        await ctx.service.store.add_attrs(cid, {KNOWN_LUCK: "1"})


async def events(
    ctx: Context, cid: str, ruleset: StoredRuleset, seat: str | None, *, after: int, limit: int
) -> Response:
    head = (await ctx.service.info(cid)).head
    if seat is not None:
        await _reveal(ctx, cid)
    recorded = await read_stored(ctx.service.store, cid, after, head, limit)
    seen = [seen_stored(each, whole=seat is not None) for each in recorded]
    return json(EventsOut(head, seen, raw=True, unplayed=ruleset.unplayed))


async def timeline(
    ctx: Context, cid: str, ruleset: StoredRuleset, *, after: int, limit: int | None
) -> Response:
    """The lines from version 1 up to the head (moves are counted from the start), those
    above ``after`` answered."""
    head = (await ctx.service.info(cid)).head
    moves = MoveCount()
    lines = []
    read = 0
    while read < head:
        page = await read_stored(ctx.service.store, cid, read, head)
        if not page:
            break
        lines.extend(stored_lines(ruleset, page, moves))
        read = page[-1].version
    shown = [each for each in lines if each.version > after]
    if limit is not None:
        shown = shown[:limit]
    return json(TimelineOut(read, shown, None, unplayed=ruleset.unplayed))


async def export(ctx: Context, cid: str, ruleset: StoredRuleset, seat: str | None) -> Response:
    if seat is None:
        raise ApiError(
            "forbidden",
            "Only a player of this campaign may export it: open it with your seat's link.",
        )
    await _reveal(ctx, cid)
    lines = raw_export_lines(ctx.service, cid, ruleset, taken_ms=wall_clock_ms())
    first = [await anext(lines), await anext(lines)]

    async def body() -> AsyncIterator[bytes]:
        for line in first:
            yield line
        async for line in lines:
            yield line

    disposition = f'attachment; filename="{cid}-raw.jsonl"'
    return StreamingResponse(
        body(), media_type=MEDIA_TYPE, headers={"Content-Disposition": disposition}
    )
