"""Machina over the real server: two explorers on two sockets and a spectator, to the end.

The explorers pick among the legal actions each socket is sent; whoever may act, acts, and the
other socket catches up from the pushes. Nobody ever sees a deck's order.
"""

from __future__ import annotations

import random
from typing import Any

import httpx

from clients.connection import Seat, create_campaign
from tests.server.conftest import Live, auth

MAX_STEPS = 3_000
HIDDEN = ("map_deck", "monster_deck", "horror_deck", "item_deck", "chapter_deck", "rng")


def _view_without_seat(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seat"}


async def test_two_explorers_play_a_whole_expedition_over_sockets(
    live: Live, api: httpx.AsyncClient
) -> None:
    created = await create_campaign(live.http, "machina", seed=5, seats=["ada", "bram"])
    tokens = created["seats"]
    chooser = random.Random(3)
    async with (
        Seat.connect(live.ws, created["id"], token=tokens["ada"]) as ada,
        Seat.connect(live.ws, created["id"], token=tokens["bram"]) as bram,
        Seat.connect(live.ws, created["id"]) as spectator,
    ):
        explorers = {"ada": ada, "bram": bram}
        assert ada.view["chapter"]["id"] == "gates" and ada.view["map_deck_count"] > 0
        assert not set(HIDDEN) & set(ada.view)
        for _ in range(MAX_STEPS):
            if ada.outcome != "running":
                break
            ready = [name for name, seat in explorers.items() if seat.legal_actions]
            assert ready, "a running expedition always offers someone an action"
            seat = explorers[chooser.choice(ready)]
            await seat.act(chooser.choice(seat.legal_actions)["id"])
            for other in (*explorers.values(), spectator):
                await other.until(seat.version)
        assert ada.outcome in ("won", "lost")
        assert ada.legal_actions == [] and bram.legal_actions == []
        assert spectator.legal_actions == []
        assert _view_without_seat(ada.view) == _view_without_seat(bram.view)
        assert _view_without_seat(spectator.view) == _view_without_seat(ada.view)
        shuffles = [e["event"] for e in ada.events if e["event"]["type"] == "machina/shuffled"]
        # Every pile the rules shuffle holds cards (an empty one is never shuffled): the count
        # survives the order's redaction.
        assert shuffles and all(s["order"] == [] and s["count"] > 0 for s in shuffles)
        version = ada.version
    state = await api.get(f"/api/campaigns/{created['id']}/state", headers=auth(tokens["bram"]))
    body = state.json()
    assert body["version"] == version and body["outcome"] == ada.outcome
    log = (await api.get(f"/api/campaigns/{created['id']}/events", params={"limit": 1000})).json()
    for entry in log["events"]:
        if entry["event"]["type"] in ("machina/shuffled", "machina/map_tiles_returned"):
            assert entry["event"]["order"] == []
    timeline = (await api.get(f"/api/campaigns/{created['id']}/timeline")).json()["lines"]
    assert any("Chapter: The Gatehouse" in line["text"] for line in timeline)
