"""Commands: actions (the same path the WebSocket takes), fork and rewind."""

from __future__ import annotations

from starlette import status
from starlette.requests import Request
from starlette.responses import Response

from server.campaigns.delay import delay_attrs
from server.campaigns.tokens import new_tokens, token_attrs
from server.context import context, perform
from server.errors import ApiError
from server.http.respond import body, campaign_id, endpoint, json, seat_of
from server.lineage.family import forked_by
from server.ops import logs
from server.protocol.messages import ActedOut, ActRequest, CreatedOut, ForkRequest, RewindRequest
from server.protocol.openapi import operation
from server.throttle import client_of


def _seated(seat: str | None, doing: str) -> str:
    if seat is None:
        raise ApiError(
            "forbidden",
            f"Only a player of this campaign may {doing}: open it with your seat's link.",
        )
    return seat


@operation("Take an action.", ActedOut, request=ActRequest, seat_token=True)
@endpoint
async def act(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    asked = await body(request, ActRequest)
    logs.command_id.set(asked.command_id)  # until the endpoint wrapper resets it
    acted = await perform(
        ctx,
        cid,
        seat,
        asked.action,
        expected_version=asked.expected_version,
        command_id=asked.command_id,
    )
    return json(ActedOut(acted.first, acted.last, acted.duplicate, asked.command_id))


@operation(
    "Fork at a version.",
    CreatedOut,
    request=ForkRequest,
    status=status.HTTP_201_CREATED,
    seat_token=True,
)
@endpoint
async def fork(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    asked = await body(request, ForkRequest)
    head = await ctx.service.head(cid)
    await ctx.spectators.visible(head, seat, asked.at)
    if seat is None and not await ctx.service.history_revealed(head, asked.at):
        # A fork hands out every seat's token, so its holder sees all hidden information: of
        # this campaign while it runs, and of one it was forked from that still runs when the
        # version is in their shared history.
        why = (
            "while it runs"
            if head.outcome == "running"
            else "at this move while the campaign it was forked from runs"
        )
        raise ApiError(
            "forbidden",
            f"A spectator cannot fork this campaign {why}: a fork deals out every seat, and with"
            " them the cards the players keep hidden. Forking opens to everyone once it is over.",
        )
    await ctx.throttle.created(client_of(request))
    tokens = new_tokens(head.facts.seats)
    # The service keeps a private campaign's forks private (and out of the catalog).
    attrs = token_attrs(tokens) | delay_attrs(asked.spectator_delay) | forked_by(seat)
    created = await ctx.service.fork(cid, asked.at, reseed=asked.reseed, attrs=attrs)
    out = CreatedOut(created.id, created.game, tokens, created.seed_hash, created.version)
    return json(out, status.HTTP_201_CREATED)


@operation(
    "Rewind to a version (alone: a solo table, or a seat's own last move; else see proposals).",
    ActedOut,
    request=RewindRequest,
    seat_token=True,
)
@endpoint
async def rewind(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = _seated(await seat_of(request), "rewind it")
    asked = await body(request, RewindRequest)
    logs.command_id.set(asked.command_id)  # until the endpoint wrapper resets it
    head = await ctx.service.head(cid)
    proposals = getattr(request.app.state, "proposals", None)
    asked_of = await proposals.needed(head, seat, asked.to) if proposals is not None else ()
    if asked_of:
        raise ApiError(
            "conflict",
            f"Rewinding undoes moves the other players have seen, so {', '.join(asked_of)} must"
            f" agree first: ask them with POST /api/campaigns/{cid}/proposals.",
        )
    acted = await ctx.service.rewind(
        cid,
        asked.to,
        expected_version=asked.expected_version,
        command_id=asked.command_id,
        seat=seat,
    )
    return json(ActedOut(acted.first, acted.last, acted.duplicate, asked.command_id))
