"""The terminal client asks for a hint with h: the bot's action and its reason, nothing played."""

from __future__ import annotations

import httpx

from clients.terminal import play, start
from tests.server.bots.test_bots import table
from tests.server.conftest import Live

__all__ = ["table"]  # the fixture, for pytest


async def test_h_shows_a_hint_and_plays_nothing(table: Live) -> None:
    screen: list[str] = []
    campaign, token = await start(table.http, "gil-ennis", seed=4, options={}, write=screen.append)
    async with httpx.AsyncClient(base_url=table.http) as api:
        before = (await api.get(f"/api/campaigns/{campaign}/events")).json()["head"]
        typed = iter(["h", "q"])
        status = await play(
            table.http, campaign, token, read=lambda _: next(typed), write=screen.append
        )
        after = (await api.get(f"/api/campaigns/{campaign}/events")).json()["head"]
    assert status == 0
    at = [i for i, line in enumerate(screen) if line.startswith("Hint: ")]
    assert len(at) == 1, screen
    # the hint wraps between words: its lines go on, indented, after the first
    rest = screen[at[0] + 1 :]
    more = rest[: next((i for i, line in enumerate(rest) if not line.startswith("  ")), len(rest))]
    hint = " ".join(" ".join([screen[at[0]], *more]).split())
    assert " imagined journeys to Mount Humbaba" in hint, hint
    assert after == before, "a hint appends nothing"
