"""Creating campaigns and reading the catalog."""

from __future__ import annotations

from starlette import status
from starlette.requests import Request
from starlette.responses import Response

from server.campaigns.delay import delay_of
from server.campaigns.service import SEED_HASH
from server.campaigns.tokens import is_private
from server.context import context
from server.context import create_campaign as create
from server.errors import ApiError
from server.http import unplayed
from server.http.respond import body, campaign_id, endpoint, json, query, seat_of
from server.protocol.messages import (
    CampaignOut,
    CatalogPage,
    CatalogQuery,
    Count,
    CreateCampaign,
    CreatedOut,
    Limit,
    seed_text,
)
from server.protocol.openapi import operation
from server.throttle import client_of

MAX_PAGE = 200


@operation("Create a campaign.", CreatedOut, request=CreateCampaign, status=status.HTTP_201_CREATED)
@endpoint
async def create_campaign(request: Request) -> Response:
    asked = await body(request, CreateCampaign)
    out = await create(context(request), client_of(request), asked)
    return json(out, status.HTTP_201_CREATED)


@operation(
    "The catalog, newest first, private campaigns left out; campaigns of a ruleset this server "
    "does not play are listed too (played: false).",
    CatalogPage,
    query={"offset": Count, "limit": Limit},
)
@endpoint
async def list_campaigns(request: Request) -> Response:
    ctx = context(request)
    asked = query(request, CatalogQuery)
    offset, limit = asked.offset, min(asked.limit, MAX_PAGE)
    # Private campaigns are stored unlisted, so the store's page holds public ones only and is
    # full unless it is the last.
    infos = await ctx.service.catalog(offset=offset, limit=limit, listed_only=True)
    entries = await ctx.spectators.entries(infos, await ctx.catalog.entries(infos))
    next_offset = offset + limit if len(infos) == limit else None
    return json(CatalogPage(entries, offset, limit, next_offset))


@operation("One campaign's catalog entry.", CampaignOut, seat_token=True)
@endpoint
async def get_campaign(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)  # a private campaign's entry is for its seats
    ruleset = await ctx.service.unplayed(cid)
    if ruleset is not None:
        return await unplayed.campaign(ctx, cid, ruleset)
    info = await ctx.service.info(cid)
    entries = await ctx.catalog.entries([info])
    if seat is None:
        entries = await ctx.spectators.entries([info], entries)
    if not entries:
        raise ApiError("not_found", f"Campaign {cid} is still being created.")
    entry = entries[0]
    head = await ctx.service.head(cid)
    seeding = await ctx.service.revealed(cid, head)
    out = CampaignOut(
        entry=entry,
        seats=list(head.facts.seats),
        private=is_private(head.facts.attrs),
        seed_hash=head.facts.attrs.get(SEED_HASH, ""),
        seed=None if seeding is None else seed_text(seeding.seed),
        salt=None if seeding is None else seeding.salt,
        spectator_delay=delay_of(head.facts.attrs),
    )
    return json(out)
