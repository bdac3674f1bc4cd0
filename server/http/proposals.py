"""Rewinds the other people at the table agree to: the open proposal, asking, answering."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from server.errors import ApiError
from server.http.respond import body, campaign_id, endpoint, json, seat_of
from server.lineage.proposals import Proposals
from server.ops import logs
from server.protocol.openapi import operation
from server.protocol.proposal_io import AnswerRequest, ProposalOut, ProposeRequest


def proposals_of(request: Request) -> Proposals:
    found = getattr(request.app.state, "proposals", None)
    if not isinstance(found, Proposals):
        raise ApiError("unavailable", "This server keeps no rewind proposals.")
    return found


async def _seat(request: Request, doing: str) -> str:
    seat = await seat_of(request)
    if seat is None:
        raise ApiError(
            "forbidden",
            f"Only a player of this campaign may {doing}: open it with your seat's link.",
        )
    return seat


@operation("The rewind a seat asks the others to agree to, if one is open.", ProposalOut)
@endpoint
async def open_proposal(request: Request) -> Response:
    cid = campaign_id(request)
    return json(ProposalOut(await proposals_of(request).open(cid)))


@operation(
    "Rewind, or ask the other people's seats to agree to the rewind.",
    ProposalOut,
    request=ProposeRequest,
    seat_token=True,
)
@endpoint
async def propose(request: Request) -> Response:
    cid = campaign_id(request)
    seat = await _seat(request, "ask to rewind it")
    asked = await body(request, ProposeRequest)
    if asked.command_id is not None:
        logs.command_id.set(asked.command_id)  # until the endpoint wrapper resets it
    out = await proposals_of(request).propose(
        cid, seat, asked.to, expected_version=asked.expected_version, command_id=asked.command_id
    )
    return json(out)


@operation(
    "Accept or decline a proposed rewind (the asking seat declines to withdraw it).",
    ProposalOut,
    request=AnswerRequest,
    seat_token=True,
)
@endpoint
async def answer(request: Request) -> Response:
    cid = campaign_id(request)
    seat = await _seat(request, "answer a proposal")
    asked = await body(request, AnswerRequest)
    return json(await proposals_of(request).answer(cid, seat, asked.id, asked.accept))
