"""Moving a campaign forward to today's ruleset of its game (:mod:`server.lineage.moving`):
the plan in words, for a seat holder to read before they agree, and the move itself."""

from __future__ import annotations

from starlette import status
from starlette.requests import Request
from starlette.responses import Response

from server.campaigns.forward import Plan
from server.campaigns.tokens import new_tokens, token_attrs
from server.context import context
from server.errors import ApiError
from server.http.respond import campaign_id, endpoint, json, seat_of
from server.lineage.family import forked_by
from server.lineage.messages import UpgradedOut, UpgradePlanOut
from server.lineage.moving import check_movable, move_forward, plan_of
from server.protocol.openapi import operation
from server.throttle import client_of


def plan_out(plan: Plan) -> UpgradePlanOut:
    return UpgradePlanOut(
        plan.campaign,
        plan.game,
        plan.ruleset,
        plan.today,
        plan.kind,
        plan.moves,
        plan.applied,
        plan.at,
        plan.why,
        plan.summary,
    )


async def _holder(request: Request, doing: str) -> str:
    seat = await seat_of(request)
    if seat is None:
        raise ApiError(
            "forbidden",
            f"Only a player of this campaign may {doing}: open it with your seat's link.",
        )
    return seat


@operation("What moving the campaign to today's ruleset would do.", UpgradePlanOut, seat_token=True)
@endpoint
async def upgrade_plan(request: Request) -> Response:
    cid = campaign_id(request)
    await _holder(request, "ask what moving it forward would do")
    return json(plan_out(await plan_of(context(request).service, cid)))


@operation(
    "Move the campaign to today's ruleset, as a new campaign of its family.",
    UpgradedOut,
    status=status.HTTP_201_CREATED,
    seat_token=True,
)
@endpoint
async def upgrade(request: Request) -> Response:
    ctx = context(request)
    cid = campaign_id(request)
    seat = await _holder(request, "move it forward")
    plan = await plan_of(ctx.service, cid)
    await check_movable(ctx.service, cid, plan)  # refused before any limit is counted
    await ctx.throttle.created(client_of(request))
    tokens = new_tokens(plan.seats)
    created = await move_forward(
        ctx.service, cid, plan, attrs=token_attrs(tokens) | forked_by(seat)
    )
    out = UpgradedOut(
        created.id,
        created.game,
        plan.today,
        tokens,
        created.seed_hash,
        created.version,
        plan_out(plan),
    )
    return json(out, status.HTTP_201_CREATED)
