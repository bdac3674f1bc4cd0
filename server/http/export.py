"""``GET /api/campaigns/{id}/export``: a seat's holder takes the campaign as an export file.

Once the campaign has ended, and every campaign it was forked from (their seeds are in its
history), the file is complete, as ``tabletale export`` writes it; until then the file is
partial, taken as the seat sees the campaign (:mod:`server.export.writing`), and no import
accepts it. Spectators have no export: the file is a player's record.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from server.campaigns.fresh import wall_clock_ms
from server.context import context
from server.errors import ApiError
from server.export.format import MEDIA_TYPE
from server.export.writing import export_lines
from server.http import unplayed
from server.http.respond import campaign_id, endpoint, seat_of
from server.protocol.openapi import operation


@operation(
    "The campaign as an export file (JSON Lines, docs/export.md): complete once it has ended, "
    "partial while it runs; raw (every event as stored, not verified by replay) for a ruleset "
    "this server does not play. For a seat's holder.",
    str,
    media_type=MEDIA_TYPE,
    seat_token=True,
)
@endpoint
async def export(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    if seat is None:
        raise ApiError(
            "forbidden",
            "Only a player of this campaign may export it: open it with your seat's link.",
        )
    ruleset = await ctx.service.unplayed(cid)
    if ruleset is not None:
        return await unplayed.export(ctx, cid, ruleset, seat)
    head = await ctx.service.head(cid)
    partial_for = None if await ctx.service.history_revealed(head) else seat
    lines = export_lines(ctx.service, cid, taken_ms=wall_clock_ms(), partial_for=partial_for)
    # The first lines are produced before answering, so that an error is still a typed answer.
    first = [await anext(lines), await anext(lines)]

    async def body() -> AsyncIterator[bytes]:
        for line in first:
            yield line
        async for line in lines:
            yield line

    scope = "partial" if partial_for is not None else "complete"
    disposition = f'attachment; filename="{cid}-{scope}.jsonl"'
    return StreamingResponse(
        body(), media_type=MEDIA_TYPE, headers={"Content-Disposition": disposition}
    )
