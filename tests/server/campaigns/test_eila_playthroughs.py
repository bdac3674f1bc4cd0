"""Random playthroughs of Eila chapters 0 to 5 in both modes, through the campaign service:
every stored state hash is rebuilt by replay, and a fork plus the same actions reproduces the
original stream."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.rng import Chance, Rng
from domain.eila import GAME, chapter_outcome
from domain.eila.actions import Abandon
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PLAYTHROUGHS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MAX_ACTIONS = 3_000


async def _play(
    chapter: int, mode: str, seed: int, bot_seed: int
) -> tuple[CampaignService, str, list[tuple[int, str]]]:
    # Counted salts: the same seeds must give the same attempt, or hypothesis cannot replay it.
    service = CampaignService(MemoryStore(), fresh=Counted("play", seed))
    created = await service.create(
        "eila", seed=seed, seats=["player"], options={"chapter": chapter, "mode": mode}
    )
    chance = Chance(Rng(bot_seed))
    commands: list[tuple[int, str]] = []
    version, state = await service.state_at(created.id)
    while chapter_outcome(state) == "running":
        assert len(commands) < MAX_ACTIONS, "the attempt did not end"
        legal = [
            la for la in GAME.legal_actions(state, "player") if not isinstance(la.action, Abandon)
        ]
        choice = legal[chance.below(len(legal))]
        await service.act(created.id, "player", choice.id, expected_version=version)
        commands.append((version, choice.id))
        version, state = await service.state_at(created.id)
    return service, created.id, commands


@pytest.mark.parametrize("mode", ["normal", "advanced"])
@pytest.mark.parametrize("chapter", [0, 1, 2, 3, 4, 5])
@PLAYTHROUGHS
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_an_attempt_replays_to_its_hashes_and_a_fork_reproduces_it(
    chapter: int, mode: str, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    async def check() -> None:
        service, campaign, commands = await _play(chapter, mode, seed, bot_seed)
        report = await service.verify(campaign)
        assert report.ok, report.first_divergence
        original = await service.events(campaign)
        cut = data.draw(st.integers(0, len(commands) - 1), label="commands kept")
        fork = await service.fork(campaign, commands[cut][0])
        for _, action in commands[cut:]:
            version, _ = await service.state_at(fork.id)
            await service.act(fork.id, "player", action, expected_version=version)
        assert [e.hash for e in await service.events(fork.id)] == [e.hash for e in original]

    asyncio.run(check())
