"""Properties of random legal playthroughs of every game, through the campaign service.

Every game ends; replay rebuilds the stored state hash at every version; a fork at N plus the same
later actions reproduces the original; a rewind to N plus the same actions does too.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.engine import states
from domain.core.game import Game
from domain.games import GAMES, get_game
from server.campaigns.fresh import Counted
from server.campaigns.points import versions
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.support.random_play import Picks, playing

MAX_ACTIONS = 5_000
LAYOUTS = [(name, seats) for name in sorted(GAMES) for seats in GAMES[name].info.seat_layouts]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Playthrough:
    """One finished random game: the service, the campaign, and each command with its versions."""

    def __init__(self, service: CampaignService, campaign: str, origin: int) -> None:
        self.service = service
        self.campaign = campaign
        self.origin = origin
        self.commands: list[tuple[int, str, str]] = []  # (version it was chosen at, seat, id)


def result(game: Game, state: Any) -> str:
    """The campaign's outcome, or the current chapter attempt's in games played in chapters."""
    attempt = game.progress(state).chapter_outcome
    return game.outcome(state) if attempt is None else attempt


async def play(game_name: str, seats: tuple[str, ...], seed: int, bot_seed: int) -> Playthrough:
    game = get_game(game_name)
    # Salts are part of the luck: a counted one keeps each example reproducible.
    service = CampaignService(MemoryStore(), fresh=Counted("prop", seed))
    created = await service.create(game_name, seed=seed, seats=seats)
    run = Playthrough(service, created.id, created.version)
    # Any legal action but abandoning, which would end most of Eila's campaigns within a few
    # actions: each plays its chapter attempt out.
    picks = Picks(bot_seed)
    version, state = await service.state_at(created.id)
    while result(game, state) == "running":
        assert len(run.commands) < MAX_ACTIONS, "the game did not end"
        seat = picks.pick(game.to_act(state))
        choice = picks.pick(playing(game.legal_actions(state, seat)))
        await service.act(created.id, seat, choice.id, expected_version=version)
        run.commands.append((version, seat, choice.id))
        version, state = await service.state_at(created.id)
    return run


async def replay_commands(
    service: CampaignService, campaign: str, commands: list[tuple[int, str, str]]
) -> None:
    for _, seat, action in commands:
        version, _ = await service.state_at(campaign)
        await service.act(campaign, seat, action, expected_version=version)


def hashes(events: list[Any]) -> list[str]:
    return [e.hash for e in events]


@pytest.mark.parametrize(("game_name", "seats"), LAYOUTS)
@PROPERTY
@given(seed=SEEDS, bot_seed=SEEDS)
def test_every_game_ends_and_replays_to_the_stored_hashes(
    game_name: str, seats: tuple[str, ...], seed: int, bot_seed: int
) -> None:
    async def check() -> None:
        run = await play(game_name, seats, seed, bot_seed)
        game = get_game(game_name)
        version, state = await run.service.state_at(run.campaign)
        assert result(game, state) in ("won", "lost")
        report = await run.service.verify(run.campaign)
        assert report.ok, report.first_divergence
        assert report.events == version
        assert all(chosen_at < version for chosen_at, _, _ in run.commands)
        # every version an action was chosen at, and the end, are decision points
        head = await run.service.head(run.campaign)
        points = await run.service.points(head, limit=10**6)
        fork_points = set(versions(points.fork))
        assert {chosen_at for chosen_at, _, _ in run.commands} | {version} <= fork_points
        if head.outcome != "running":
            assert points.rewind == ()  # a finished campaign is not rewound
        rebuilt = CampaignService(run.service.store)
        _, again = await rebuilt.replay(run.campaign)
        assert again == state
        # every version, the ones inside a command included, can be viewed and asked for actions
        events = [(e.version, e.event) for e in await run.service.events(run.campaign)]
        for version, each in states(game, events):
            for seat in (*seats, None):
                assert game.view(each, seat) is not None, version
                if seat is not None:
                    game.legal_actions(each, seat)

    asyncio.run(check())


@pytest.mark.parametrize(("game_name", "seats"), LAYOUTS)
@PROPERTY
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_fork_plus_same_actions_equals_original(
    game_name: str, seats: tuple[str, ...], seed: int, bot_seed: int, data: st.DataObject
) -> None:
    async def check() -> None:
        run = await play(game_name, seats, seed, bot_seed)
        cut = data.draw(st.integers(0, len(run.commands)), label="commands kept")
        at = run.commands[cut][0] if cut < len(run.commands) else None
        original = await run.service.events(run.campaign)
        at = original[-1].version if at is None else at
        fork = await run.service.fork(run.campaign, at)
        await replay_commands(run.service, fork.id, run.commands[cut:])
        assert hashes(await run.service.events(fork.id)) == hashes(original)

    asyncio.run(check())


@pytest.mark.parametrize(("game_name", "seats"), LAYOUTS)
@PROPERTY
@given(seed=SEEDS, bot_seed=SEEDS, data=st.data())
def test_rewind_plus_same_actions_equals_original(
    game_name: str, seats: tuple[str, ...], seed: int, bot_seed: int, data: st.DataObject
) -> None:
    async def check() -> None:
        run = await play(game_name, seats, seed, bot_seed)
        if len(run.commands) < 2:
            return
        original = await run.service.events(run.campaign)
        # A finished campaign is not rewound: play the same game again short of its last action.
        service = CampaignService(MemoryStore(), fresh=Counted("prop", seed))
        campaign = (await service.create(game_name, seed=seed, seats=seats)).id
        await replay_commands(service, campaign, run.commands[:-1])
        cut = data.draw(st.integers(0, len(run.commands) - 2), label="commands kept")
        at = run.commands[cut][0]
        rewound = await service.rewind(campaign, at)
        await replay_commands(service, campaign, run.commands[cut:])
        again = await service.events(campaign, rewound.last)
        assert hashes(again) == hashes(original[at:])
        _, now = await service.state_at(campaign)
        _, then = await run.service.state_at(run.campaign)
        assert now == then
        assert (await service.verify(campaign)).ok

    asyncio.run(check())
