"""A campaign's family tree and where two campaigns part (:mod:`server.lineage.family`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.campaigns.tokens import bearer
from server.context import context
from server.errors import ApiError
from server.http.respond import campaign_id, endpoint, json, query
from server.lineage.delayed import delayed_compare, delayed_lineage
from server.lineage.family import Lineages, Viewer
from server.lineage.messages import BranchLimit, CompareOut, Cursor, LineageOut, LineageQuery
from server.lineage.pages import page, read_cursor
from server.protocol.openapi import operation
from server.store.base import UnknownCampaign
from server.throttle import client_of

UNKNOWN = "unknown_campaign"


def lineages(request: Request) -> Lineages:
    found: Lineages = request.app.state.lineages
    return found


def unknown(cid: str) -> ApiError:
    # The same answer for a private campaign the viewer may not see: never confirm its id.
    return ApiError(UNKNOWN, f"There is no campaign {cid!r}.")


async def _viewer(request: Request, cid: str) -> Viewer:
    token = bearer(request.headers.get("authorization"))
    if token is not None:
        context(request).throttle.check_auth(client_of(request), cid)
    return Viewer(token)


async def _refused(request: Request, cid: str, viewer: Viewer) -> None:
    """Count a token that opened nothing it was shown to (the limits on failed tokens)."""
    if viewer.token is not None:
        await context(request).throttle.failed_auth(client_of(request), cid)


@operation(
    "The campaign's family: its root, every fork and every stretch a rewind undid.",
    LineageOut,
    query={"after": Cursor, "limit": BranchLimit},
    seat_token=True,
)
@endpoint
async def lineage(request: Request) -> Response:
    cid = campaign_id(request)
    asked = query(request, LineageQuery)
    cursor = None if asked.after is None else read_cursor(asked.after)
    viewer = await _viewer(request, cid)
    try:
        root = None if cursor is None else cursor.root
        seen = await lineages(request).seen(cid, viewer, root=root)
    except UnknownCampaign:
        await _refused(request, cid, viewer)
        raise unknown(cid) from None
    if viewer.token is not None and not seen.opened:
        await _refused(request, cid, viewer)
        raise ApiError("unauthorized", "The token does not open a seat of any campaign here.")
    chosen, following = page(seen, cursor, asked.limit)
    branches = await lineages(request).described(chosen)
    # A delayed campaign's spectators see its line only as far as its delayed version.
    spectators = context(request).spectators
    branches = await delayed_lineage(spectators, seen.branches, chosen, branches, viewer.seat_in)
    return json(LineageOut(seen.root, cid, branches, following))


@operation("Where two campaigns' histories part.", CompareOut, seat_token=True)
@endpoint
async def compare(request: Request) -> Response:
    cid = campaign_id(request)
    other: str = request.path_params["b"]
    viewer = await _viewer(request, cid)
    try:
        compared = await lineages(request).compare(cid, other, viewer)
        spectators = context(request).spectators
        return json(await delayed_compare(spectators, compared, viewer.seat_in))
    except UnknownCampaign as error:
        await _refused(request, cid, viewer)
        raise unknown(error.campaign_id) from None
