"""Bot seats of a campaign: given at creation, handed over when a player is away, taken back.

What the API answers with, and the checks behind each refusal (a typed error that says what is
allowed; nothing is stored when one is raised).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import msgspec

from domain.core.errors import IllegalAction, InvalidOptions
from domain.core.game import Game
from server.bots.driver import BotDriver
from server.bots.shared import Waiting
from server.bots.specs import POLICIES, BotSpec, check_spec, levels_of, parse_spec
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.head import Head
from server.errors import ApiError
from server.protocol.messages import BotSeatIn

BOT_ATTR = "bot:"
"""A campaign attribute per seat a bot played from the start: ``bot:<seat>`` -> its spec."""
LAST_MOVES = 256
"""How many of the newest events are read to find a seat's last move."""

Connected = Callable[[str], set[str]]
"""The seats that have a socket open to a campaign now, over every process."""


class BotSeatOut(msgspec.Struct, frozen=True):
    seat: str
    bot: str
    level: int
    name: str
    """The bot's name as the log shows it: ``search bot (level 2)``."""


class BotsOut(msgspec.Struct, frozen=True):
    seats: list[BotSeatOut]
    """The seats bots play now."""
    away: list[str]
    """The people's seats that may be handed to a bot now: no socket open to the campaign and
    no move for ``away_after_s`` seconds."""
    away_after_s: float
    bots: dict[str, list[int]]
    """The policies a seat may be given, each with its levels (empty: a game without bots)."""
    away_for_s: dict[str, float] = {}
    """For each seat in ``away``: how long since its player was last here (a socket open, or
    a move), in seconds, as this process knows it."""
    waiting: list[Waiting] = []
    """Bot seats that leave a shared decision to the people, each with what it would choose."""


def creation_specs(
    game: Game, seats: tuple[str, ...], asked: Mapping[str, BotSeatIn] | None
) -> dict[str, BotSpec]:
    """The bot seats asked for at creation, checked; InvalidOptions says what is allowed."""
    if not asked:
        return {}
    specs: dict[str, BotSpec] = {}
    for seat, bot in asked.items():
        if seat not in seats:
            raise InvalidOptions(
                f"{seat!r} is not a seat of this campaign; its seats are {', '.join(seats)}."
            )
        specs[seat] = check_spec(game, bot.bot, bot.level)
    if len(specs) == len(seats):
        raise InvalidOptions("A campaign needs at least one seat that a person plays.")
    return specs


def spec_attrs(specs: Mapping[str, BotSpec]) -> dict[str, str]:
    return {BOT_ATTR + seat: spec.text for seat, spec in specs.items()}


class BotSeats:
    """The API's side of bot seats, over the driver's table."""

    def __init__(self, driver: BotDriver, connected: Connected) -> None:
        self.driver = driver
        self.connected = connected
        self._seen: dict[str, dict[str, int]] = {}
        """Per campaign, when each seat was last seen connected by a listing here (epoch ms)."""

    async def register(self, campaign_id: str, specs: Mapping[str, BotSpec]) -> None:
        for seat, spec in specs.items():
            await self.driver.table.set_seat(campaign_id, seat, spec.text)
        if specs:
            self.driver.adopt()

    async def listing(self, head: Head) -> BotsOut:
        seats = await self.driver.table.seats(head.facts.id)
        out = []
        for seat in head.facts.seats:
            if seat in seats:
                spec = parse_spec(seats[seat])
                out.append(BotSeatOut(seat, spec.policy, spec.level, spec.name))
        people = [seat for seat in head.facts.seats if seat not in seats]
        away: dict[str, float] = {}
        if head.outcome == "running" and len(head.facts.seats) >= 2:
            away = await self._away(head, people)
        levels = levels_of(head.game)
        policies = {policy: list(levels) for policy in POLICIES} if levels else {}
        waiting = self.driver.waiting.get(head.facts.id)
        held = [waiting] if waiting is not None and waiting.version == head.version else []
        return BotsOut(out, list(away), self.driver.settings.away_s, policies, away, held)

    async def _away(self, head: Head, seats: list[str]) -> dict[str, float]:
        """The seats of ``seats`` away long enough, each with how long it has been away."""
        now = wall_clock_ms()
        connected = self.connected(head.facts.id)
        seen = self._seen.setdefault(head.facts.id, {})
        for seat in connected:
            seen[seat] = now
        candidates = [seat for seat in seats if seat not in connected]
        if not candidates:
            return {}
        service = self.driver.service
        since = now - int(self.driver.settings.away_s * 1000)
        info = await service.info(head.facts.id)
        if info.created_ms > since:
            return {}  # nobody has been away that long from a campaign this young
        recent = await service.events(head.facts.id, max(0, head.version - LAST_MOVES))
        last = {r.seat: r.at_ms for r in recent if r.seat is not None}
        here = {
            seat: max(info.created_ms, last.get(seat, 0), seen.get(seat, 0)) for seat in candidates
        }
        return {seat: (now - at) / 1000 for seat, at in here.items() if at <= since}

    async def hand_over(self, head: Head, by: str, seat: str, bot: str, level: int | None) -> None:
        """``by`` hands ``seat`` to the bot ``bot`` at ``level``: another seat once its player
        has been away, or its own seat at once (a player who has to leave; taken back later)."""
        facts = head.facts
        if len(facts.seats) < 2:
            raise ApiError(
                "bad_request", "Only a campaign of several seats can hand one over to a bot."
            )
        if seat not in facts.seats:
            raise ApiError(
                "bad_request",
                f"{seat!r} is not a seat of this campaign; its seats are {', '.join(facts.seats)}.",
            )
        if head.outcome != "running":
            raise IllegalAction(f"Campaign {facts.id} has ended ({head.outcome}); no bot may join.")
        spec = check_spec(head.game, bot, level)
        listing = await self.listing(head)
        if any(bot_seat.seat == seat for bot_seat in listing.seats):
            raise ApiError("conflict", f"A bot already plays {seat!r}.")
        if seat != by and seat not in listing.away:
            raise ApiError(
                "conflict",
                f"{seat!r} may be handed to a bot once its player has been away (no socket open"
                f" and no move) for {listing.away_after_s:g} seconds.",
            )
        await self.register(facts.id, {seat: spec})

    async def take_back(self, head: Head, seat: str) -> None:
        """The person of ``seat`` plays it again."""
        if not await self.driver.table.clear_seat(head.facts.id, seat):
            raise ApiError("conflict", f"No bot plays {seat!r}; it is yours already.")

    async def hint(self, head: Head, seat: str | None, level: int | None) -> tuple[str, str, str]:
        if seat is None:
            raise ApiError("forbidden", "Only a seat of the campaign may ask for a hint.")
        if head.outcome != "running":
            raise IllegalAction(
                f"Campaign {head.facts.id} has ended ({head.outcome}); there is nothing to hint."
            )
        spec = check_spec(head.game, POLICIES[0], level)
        if not head.legal(seat):
            raise IllegalAction(f"Seat {seat!r} has nothing to decide now; no hint to give.")
        return await self.driver.hint(head, seat, spec)
