"""Bot seats and hints: which seats bots play, handing an away seat to a bot, taking it back,
and what the bot would do now for a seat (a hint is never stored)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from server.bots.seats import BotSeats, BotsOut
from server.context import context
from server.errors import ApiError
from server.http.respond import body, campaign_id, endpoint, json, read_body, seat_of
from server.protocol.messages import Name
from server.protocol.openapi import operation

Level = Annotated[int, msgspec.Meta(ge=0, le=99)]


class HandOver(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: Name
    bot: Name = "search"
    level: Level | None = None


class HintRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    level: Level | None = None


class HintAction(msgspec.Struct, frozen=True):
    id: str
    label: str


class HintOut(msgspec.Struct, frozen=True):
    action: HintAction
    reason: str
    """Why, in the game's words."""
    version: int
    """The version the hint was worked out at."""


class DriverOut(msgspec.Struct, frozen=True):
    """This process's bot driver (each process behind one address answers for itself)."""

    owner: str
    """The name its leases are held under."""
    driving: list[str]
    """The campaigns whose bots it drives now."""
    moves: int
    conflicts: int
    """Bot moves refused for a stale version (two drivers, or a person at the same moment)."""
    duplicates: int
    """Bot moves the store already held under the same command id (after a takeover)."""


_hint_request = msgspec.json.Decoder(HintRequest)


def bot_seats(request: Request) -> BotSeats:
    seats = getattr(request.app.state, "bot_seats", None)
    if not isinstance(seats, BotSeats):
        raise ApiError("unavailable", "This server runs no bots: its store keeps no bot seats.")
    return seats


@operation("This process's bot driver: its leases and counts.", DriverOut)
@endpoint
async def driver_status(request: Request) -> Response:
    driver = bot_seats(request).driver
    out = DriverOut(
        driver.owner, driver.driving(), driver.moves, driver.conflicts, driver.duplicates
    )
    return json(out)


@operation("The campaign's bot seats, and the seats that may be handed to a bot.", BotsOut)
@endpoint
async def list_bots(request: Request) -> Response:
    cid = campaign_id(request)
    await seat_of(request)
    head = await context(request).service.head(cid)
    return json(await bot_seats(request).listing(head))


@operation(
    "Hand an away seat (or the token's own) to a bot.", BotsOut, request=HandOver,
    seat_token=True,
)  # fmt: skip
@endpoint
async def hand_over(request: Request) -> Response:
    cid = campaign_id(request)
    by = await seat_of(request)
    if by is None:
        raise ApiError("forbidden", "Only a seat of the campaign may hand a seat to a bot.")
    asked = await body(request, HandOver)
    seats = bot_seats(request)
    head = await context(request).service.head(cid)
    await seats.hand_over(head, by, asked.seat, asked.bot, asked.level)
    return json(await seats.listing(head))


@operation("Take the token's seat back from its bot.", BotsOut, seat_token=True)
@endpoint
async def take_back(request: Request) -> Response:
    cid = campaign_id(request)
    seat = await seat_of(request)
    if seat is None:
        raise ApiError("forbidden", "Only the seat's own token takes it back from its bot.")
    seats = bot_seats(request)
    head = await context(request).service.head(cid)
    await seats.take_back(head, seat)
    return json(await seats.listing(head))


@operation(
    "What the bot would do now for the token's seat, and why; nothing is stored.", HintOut,
    request=HintRequest, seat_token=True,
)  # fmt: skip
@endpoint
async def hint(request: Request) -> Response:
    cid = campaign_id(request)
    seat = await seat_of(request)
    data = await read_body(request)
    asked = _hint_request.decode(data) if data.strip() else HintRequest()
    head = await context(request).service.head(cid)
    action_id, label, reason = await bot_seats(request).hint(head, seat, asked.level)
    return json(HintOut(HintAction(action_id, label), reason, head.version))
