"""A terminal client: shows a seat's view and numbered legal actions, and sends the one typed.

tabletale play --game eila                     # a new campaign, as its only seat
tabletale play --campaign ID --token TOKEN     # join a seat (without a token: spectate)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from clients.connection import ProtocolError, Seat, create_campaign

Read = Callable[[str], str]
Write = Callable[[str], None]
HELP = "Type an action's number, r to refresh, q to quit."


def ws_base(http_base: str) -> str:
    return "ws" + http_base.removeprefix("http") if http_base.startswith("http") else http_base


def render(seat: Seat) -> list[str]:
    """The screen for ``seat``: a header, the view's fields, the numbered actions."""
    who = seat.seat or "spectator"
    lines = [f"== version {seat.version} · {who} · {seat.outcome} =="]
    view = seat.view if isinstance(seat.view, dict) else {"view": seat.view}
    for key, value in view.items():
        if value in (None, "", [], {}, ()):
            continue
        lines.append(f"  {key.replace('_', ' ')}: {_show(value)}")
    if seat.legal_actions:
        lines.append("Actions:")
        for number, action in enumerate(seat.legal_actions, start=1):
            lines.append(f"  {number:>2}. {action['label']}")
    return lines


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_show(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    return str(value)


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
        write(HELP)
        while True:
            for line in render(seat):
                write(line)
            if seat.outcome != "running" and not seat.legal_actions:
                write(f"The campaign is over: {seat.outcome}.")
                return 0
            if not seat.legal_actions:
                write("Waiting for the other seats...")
                await seat.next_update()
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
                write(f"Refused: {error}")


async def start(
    http_base: str, game: str, *, seed: int | None, options: dict[str, Any], write: Write = print
) -> tuple[str, str]:
    """Create a campaign of ``game`` and return its id and its first seat's token."""
    created = await create_campaign(http_base, game, seed=seed, options=options)
    seat, token = next(iter(created["seats"].items()))
    write(f"Campaign {created['id']} ({game}); playing seat {seat}.")
    write(f"Seed hash {created['seed_hash']}; your token: {token}")
    return str(created["id"]), str(token)
