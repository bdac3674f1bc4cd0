"""Eila over the real server with the Python client: lose chapter 0, retry, win, carry on.

The moves are chosen by a local "brain" that reads the full state from the store behind the
server (a thin client never could); everything a player does still goes over the socket.
"""

from __future__ import annotations

from typing import Any

from clients.connection import Seat, create_campaign
from domain.bots.eila_greedy import greedy_choice
from domain.core.rng import Chance, Rng
from domain.eila import GAME
from server.campaigns.service import CampaignService
from server.store.redis_store import RedisStore
from tests.server.conftest import Live

MAX_STEPS = 2_000


def careless(seat: Seat, chance: Chance) -> str:
    """Any legal action but abandoning the campaign."""
    playing = [a for a in seat.legal_actions if not a["label"].startswith("Abandon")]
    return str(playing[chance.below(len(playing))]["id"])


async def test_chapter_zero_lost_retried_won_then_chapter_one_begins(live: Live) -> None:
    assert live.redis_url is not None and live.prefix is not None
    created = await create_campaign(live.http, "eila", seed=31, options={"chapter": 0})
    behind = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    brain = CampaignService(behind)
    chance = Chance(Rng(5))
    try:
        async with Seat.connect(live.ws, created["id"], token=created["seats"]["player"]) as seat:
            assert seat.view["chapter"] == 0 and seat.view["day"] == 1
            # carelessly, until the chapter is lost
            while seat.view["chapter_outcome"] == "running":
                await seat.act(careless(seat, chance))
                assert len(seat.events) < MAX_STEPS
            assert seat.view["chapter_outcome"] == "lost"
            await seat.act(seat.action_id("Try chapter 0 again"))
            assert (seat.view["chapter"], seat.view["attempt"], seat.view["day"]) == (0, 2, 1)
            # then sensibly, until it is won
            while seat.view["chapter_outcome"] == "running":
                _, state = await brain.state_at(created["id"])
                legal = GAME.legal_actions(state, "player")
                await seat.act(greedy_choice(GAME.pack, state, legal).id)
                assert len(seat.events) < MAX_STEPS
            assert seat.view["chapter_outcome"] == "won"
            await seat.act(seat.action_id("Begin chapter 1"))
            assert seat.view["chapter"] == 1 and seat.view["chapter_outcome"] == "running"
            assert seat.view["present"] is not None, "chapter 1's first card is revealed"
    finally:
        await behind.close()


async def test_the_player_sees_counts_not_the_hidden_order(live: Live) -> None:
    created = await create_campaign(live.http, "eila", seed=8)
    chance = Chance(Rng(2))
    async with Seat.connect(live.ws, created["id"], token=created["seats"]["player"]) as seat:
        view: dict[str, Any] = seat.view
        assert isinstance(view["upcoming_count"], int) and view["upcoming_count"] > 0
        assert "upcoming" not in view and "rng" not in view
        options = [a for a in seat.legal_actions if a["label"] != "Abandon the campaign"]
        assert all(a["label"][:3] in ("A: ", "B: ", "C: ") for a in options)
        # play on until a night shuffles the Future into the upcoming deck
        shuffles: list[dict[str, Any]] = []
        while not shuffles and seat.outcome == "running" and len(seat.events) < MAX_STEPS:
            # The upcoming deck is empty at night: the whole Future is shuffled into it.
            future = seat.view["future_count"]
            await seat.act(careless(seat, chance))
            shuffles = [e for e in seat.events if e["event"]["type"] == "eila/future_shuffled"]
        assert shuffles, "a night came"
        shuffled = shuffles[0]["event"]
        assert shuffled["order"] == [] and shuffled["count"] == future
