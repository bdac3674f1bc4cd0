"""Where did it turn: start a campaign's analysis, follow it, cancel it, and try a turning
point's preferred move in a fork (:mod:`server.analysis`)."""

from __future__ import annotations

from starlette import status
from starlette.requests import Request
from starlette.responses import Response

from domain.analysis.levels import DEFAULT_LEVEL
from server.analysis.access import scope_of
from server.analysis.analyst import Analyst
from server.analysis.messages import (
    AnalysisOut,
    AnalysisQuery,
    AnalysisRequest,
    Level,
    TriedOut,
    TryRequest,
)
from server.analysis.trying import try_it
from server.campaigns.head import Head
from server.campaigns.tokens import new_tokens, token_attrs
from server.context import context
from server.errors import ApiError
from server.http.respond import (
    body,
    campaign_id,
    decoder,
    endpoint,
    json,
    query,
    read_body,
    seat_of,
)
from server.lineage.family import forked_by
from server.protocol.messages import CreatedOut
from server.protocol.openapi import operation
from server.throttle import client_of


def analyst(request: Request) -> Analyst:
    found = getattr(request.app.state, "analyses", None)
    if not isinstance(found, Analyst):
        raise ApiError("unavailable", "This server analyses nothing: its store keeps no bots.")
    return found


@operation(
    "Start (or join) the campaign's analysis at a level; answers its progress so far.",
    AnalysisOut, request=AnalysisRequest, status=status.HTTP_202_ACCEPTED, seat_token=True,
)  # fmt: skip
@endpoint
async def start_analysis(request: Request) -> Response:
    ctx = context(request)
    seat = await seat_of(request)
    data = await read_body(request)
    asked = decoder(AnalysisRequest).decode(data) if data.strip() else AnalysisRequest()
    head = await ctx.service.head(campaign_id(request))
    scope = await scope_of(ctx.service, head, seat)
    out = await analyst(request).start(head, asked.level, scope)
    return json(out, status.HTTP_202_ACCEPTED)


@operation(
    "The campaign's analysis as far as it has gone: progress and the points so far.",
    AnalysisOut, query={"level": Level}, seat_token=True,
)  # fmt: skip
@endpoint
async def analysis_progress(request: Request) -> Response:
    head, level, scope = await _asked(request)
    return json(await analyst(request).read(head, level, scope))


@operation(
    "Stop the campaign's analysis between two points; what it computed stays kept.",
    AnalysisOut, query={"level": Level}, seat_token=True,
)  # fmt: skip
@endpoint
async def cancel_analysis(request: Request) -> Response:
    head, level, scope = await _asked(request)
    found = analyst(request)
    await found.cancel(head, level)
    return json(await found.read(head, level, scope))


async def _asked(request: Request) -> tuple[Head, int | None, str | None]:
    """The campaign's head, the level asked for and what the viewer may see of its analysis."""
    ctx = context(request)
    seat = await seat_of(request)
    asked = query(request, AnalysisQuery)
    head = await ctx.service.head(campaign_id(request))
    return head, asked.level, await scope_of(ctx.service, head, seat)


@operation(
    "Try a decision point's preferred move: a fork there with fresh luck, that move played.",
    TriedOut, request=TryRequest, status=status.HTTP_201_CREATED, seat_token=True,
)  # fmt: skip
@endpoint
async def try_preferred_move(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await seat_of(request)
    asked = await body(request, TryRequest)
    head = await ctx.service.head(cid)
    scope = await scope_of(ctx.service, head, seat)
    found = analyst(request)
    level = DEFAULT_LEVEL if asked.level is None else asked.level
    point = await found.point(head, level, scope, asked.version)
    await ctx.throttle.created(client_of(request))
    tokens = new_tokens(head.facts.seats)
    attrs = token_attrs(tokens) | forked_by(seat)
    created, acted = await try_it(ctx.service, cid, point, level, attrs)
    fork = CreatedOut(created.id, created.game, tokens, created.seed_hash, created.version)
    out = TriedOut(fork, point.seat, point.preferred, acted.last)
    return json(out, status.HTTP_201_CREATED)
