"""A terminal client: a readable board of the seat's view, what just happened, the numbered legal
actions, and at the end the outcome, its reason and the revealed seed.

tabletale play --game eila                     # a new campaign, as its only seat
tabletale play --campaign ID --token TOKEN     # join a seat (without a token: spectate)
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from typing import Any

from clients.connection import ProtocolError, Seat, create_campaign
from clients.http import campaign_url, content_url, get
from clients.screens import board, numbered

Read = Callable[[str], str]
Write = Callable[[str], None]
HELP = "Type an action's number, r to refresh, q to quit."
RECENT = 6
"""Timeline lines shown at most after each change."""


def ws_base(http_base: str) -> str:
    return "ws" + http_base.removeprefix("http") if http_base.startswith("http") else http_base


def seed_commitment(seed: int, salt: str) -> str:
    """The hash a campaign publishes at creation (docs/protocol.md, "Seed secrecy")."""
    return hashlib.sha256(f"tabletale-seed:{salt}:{seed}".encode()).hexdigest()


def render(seat: Seat, content: Any = None, title: str = "") -> list[str]:
    """The screen for ``seat``: a header, the board, the numbered actions."""
    who = f"playing as {seat.seat}" if seat.seat else "watching as a spectator"
    name = title or seat.replica.game
    lines = [f"== {name} · version {seat.version} · {who} · {seat.outcome} =="]
    lines += board(seat.replica.game, seat.view, content, seat.seat)
    if seat.legal_actions:
        lines.append("Actions:")
        lines += numbered(seat.replica.game, seat.view, seat.legal_actions)
    return lines


class Story:
    """The campaign's readable timeline, printed as it grows."""

    def __init__(self, http_base: str, campaign: str, token: str | None) -> None:
        self.url = campaign_url(http_base, campaign, "/timeline")
        self.token = token
        self.shown = 0
        self.last = ""

    async def lines(self) -> list[dict[str, Any]]:
        try:
            answer = await asyncio.to_thread(get, self.url, token=self.token)
        except (ProtocolError, OSError):
            return []
        lines: list[dict[str, Any]] = answer.get("lines", [])
        if lines:
            self.last = str(lines[-1]["text"])
        return lines

    async def tell(self, write: Write, *, heading: str = "What just happened:") -> None:
        """Write the lines after the last version told (at most the last few)."""
        fresh = [line for line in await self.lines() if line["version"] > self.shown]
        if not fresh:
            return
        self.shown = fresh[-1]["version"]
        write(heading)
        if len(fresh) > RECENT:
            write(f"  ... {len(fresh) - RECENT} earlier lines")
        for line in fresh[-RECENT:]:
            write(f"  v{line['version']:<4} {line['text']}")


async def ending(
    http_base: str, campaign: str, token: str | None, story: Story, write: Write
) -> None:
    """The end screen: the outcome, its reason (the timeline's last line) and the seed, revealed
    now and checked against the hash published at the start."""
    await story.tell(write)
    try:
        about = await asyncio.to_thread(get, campaign_url(http_base, campaign), token=token)
    except (ProtocolError, OSError):
        about = {}
    outcome = about.get("entry", {}).get("status", "over")
    write(f"== The campaign is over: {outcome} ==")
    if story.last:
        write(f"  Why: {story.last}")
    seed, salt = about.get("seed"), about.get("salt")
    if seed is not None and salt is not None:
        published = str(about.get("seed_hash", ""))
        verdict = "matches" if seed_commitment(seed, salt) == published else "does NOT match"
        write(f"  Seed: {seed} (salt {salt}); its hash {verdict} the one published at the start.")


async def _game_facts(http_base: str, game: str) -> tuple[Any, str]:
    """The game's public content and title (empty when the server does not say)."""
    try:
        content = await asyncio.to_thread(get, content_url(http_base, game))
        games = await asyncio.to_thread(get, f"{http_base.rstrip('/')}/api/games")
    except (ProtocolError, OSError):
        return {}, ""
    titles = {g["info"]["name"]: g["info"]["title"] for g in games.get("games", [])}
    return content, str(titles.get(game, ""))


async def play(
    http_base: str,
    campaign: str,
    token: str | None,
    *,
    read: Read = input,
    write: Write = print,
) -> int:
    """Play (or watch) ``campaign`` until it ends or the player quits."""
    async with Seat.connect(ws_base(http_base), campaign, token=token) as seat:
        game = seat.replica.game
        content, title = await _game_facts(http_base, game)
        story = Story(http_base, campaign, token)
        write(HELP)
        await story.tell(write, heading="So far:")
        while True:
            for line in render(seat, content, title):
                write(line)
            if seat.outcome != "running" and not seat.legal_actions:
                await ending(http_base, campaign, token, story, write)
                return 0
            if not seat.legal_actions:
                write("Waiting for the other seats...")
                await seat.next_update()
                await story.tell(write)
                continue
            answer = (await asyncio.to_thread(read, "> ")).strip().lower()
            if answer in ("q", "quit"):
                return 0
            if answer in ("r", ""):
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= len(seat.legal_actions):
                write(f"{answer!r} is not one of the actions. {HELP}")
                continue
            try:
                await seat.act(seat.legal_actions[int(answer) - 1]["id"])
            except ProtocolError as error:
                write(f"Refused: {error.reply.get('message') or error}")
            await story.tell(write)


async def start(
    http_base: str, game: str, *, seed: int | None, options: dict[str, Any], write: Write = print
) -> tuple[str, str]:
    """Create a campaign of ``game`` and return its id and its first seat's token."""
    created = await create_campaign(http_base, game, seed=seed, options=options)
    seat, token = next(iter(created["seats"].items()))
    write(f"Campaign {created['id']} ({game}); playing seat {seat}.")
    write(f"Seed hash {created['seed_hash']}; your token: {token}")
    return str(created["id"]), str(token)
