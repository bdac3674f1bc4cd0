"""Fork and rewind points: only versions where a seat has a decision to make (or the campaign has
ended) may be forked at or rewound to, and a finished campaign is not rewound."""

from __future__ import annotations

import re

import pytest

from domain.bots.uniform_random import UniformRandom
from domain.core.engine import states, waits
from domain.core.errors import IllegalAction
from domain.gil_ennis import GAME
from server.campaigns.fresh import Counted
from server.campaigns.head import Head
from server.campaigns.points import versions
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore


@pytest.fixture
def service() -> CampaignService:
    return CampaignService(MemoryStore(), fresh=Counted("p", 3), clock=lambda: 0)


async def play_until(
    service: CampaignService, cid: str, *, actions: int | None = None, bot_seed: int = 1
) -> int:
    """Play random legal actions (all of them, or ``actions``); returns the head version."""
    bot = UniformRandom(bot_seed)
    version, state = await service.state_at(cid)
    taken = 0
    while GAME.outcome(state) == "running" and (actions is None or taken < actions):
        seat, choice = bot.choose(GAME, state)
        await service.act(cid, seat, choice.id, expected_version=version, command_id=f"a{taken}")
        taken += 1
        version, state = await service.state_at(cid)
    return version


async def every_point(service: CampaignService, head: Head) -> tuple[list[int], list[int]]:
    """Every fork and every rewind point of a short campaign, from one window."""
    points = await service.points(head, limit=10_000)
    assert not points.more_before and not points.more_after
    return list(versions(points.fork)), list(versions(points.rewind))


async def test_only_the_last_event_of_an_append_is_settled(service: CampaignService) -> None:
    created = await service.create("gil-ennis", seed=7)
    events = await service.events(created.id)
    # Created, two characters' rolls, the shuffle: one append, settled only at its end.
    assert [e.settled for e in events] == [False, False, False, True]


async def test_versions_inside_an_action_are_not_fork_or_rewind_points(
    service: CampaignService,
) -> None:
    created = await service.create("gil-ennis", seed=2)  # still running after forty actions
    head_version = await play_until(service, created.id, actions=40)
    head = await service.head(created.id)
    fork_points, rewind_points = await every_point(service, head)
    events = await service.events(created.id)
    inside = [e.version for e in events if not e.settled and e.version > created.version]
    assert inside, "forty actions include some that append several events"
    pairs = [(e.version, e.event) for e in events]
    for (version, state), recorded in zip(states(GAME, pairs), events, strict=True):
        expected = recorded.settled and waits(GAME, state) and version >= created.version
        assert (version in fork_points) == expected, version
    assert rewind_points == [v for v in fork_points if v < head_version]
    middle = inside[len(inside) // 2]
    below = max(v for v in fork_points if v < middle)
    above = min(v for v in fork_points if v > middle)
    nearest = f"the nearest are versions {below} and {above}"
    with pytest.raises(IllegalAction, match=re.escape(nearest)):
        await service.fork(created.id, middle)
    with pytest.raises(IllegalAction, match=r"inside the resolution of an action"):
        await service.rewind(created.id, middle)
    fork = await service.fork(created.id, below)
    fork_head = await service.head(fork.id)
    assert fork_head.version == below and any(fork_head.legal(s) for s in ("player",))


async def test_a_new_campaign_says_what_it_can_be_rewound_to(service: CampaignService) -> None:
    created = await service.create("gil-ennis", seed=7)
    points = await service.points(await service.head(created.id))
    assert points.fork == ((created.version, created.version),) and points.rewind == ()
    with pytest.raises(IllegalAction) as refused:
        await service.rewind(created.id, created.version)
    message = str(refused.value)
    assert "it is the current version" in message
    assert "no earlier version where a seat had a decision to make" in message
    assert f"versions {created.version} to {created.version - 1}" not in message
    with pytest.raises(IllegalAction, match="still being set up until version 4"):
        await service.fork(created.id, 2)
    with pytest.raises(IllegalAction, match="has versions 1 to 4; the nearest is version 4"):
        await service.fork(created.id, 9)


async def test_a_finished_campaign_is_not_rewound_but_a_reseeded_fork_plays_on(
    service: CampaignService,
) -> None:
    created = await service.create("gil-ennis", seed=7)
    end = await play_until(service, created.id)
    head = await service.head(created.id)
    assert head.outcome in ("won", "lost")
    fork_points, rewind_points = await every_point(service, head)
    assert rewind_points == [] and end in fork_points
    earlier = fork_points[len(fork_points) // 2]
    with pytest.raises(IllegalAction, match=r"has ended .* seed and salt are revealed"):
        await service.rewind(created.id, earlier)
    assert (await service.head(created.id)).version == end  # nothing was written
    fork = await service.fork(created.id, earlier, reseed=True)
    child = await service.head(fork.id)
    assert child.outcome == "running" and fork.seed_hash != created.seed_hash
    assert (await service.points(child)).rewind == ()  # the reseed is its origin
    await play_until(service, fork.id, actions=3)
    assert (await service.points(await service.head(fork.id))).rewind


async def test_points_grow_with_the_head_and_match_a_cold_rebuild(
    service: CampaignService,
) -> None:
    created = await service.create("gil-ennis", seed=11, seats=("gil", "ennis"))
    await play_until(service, created.id, actions=15, bot_seed=4)
    first, _ = await every_point(service, await service.head(created.id))
    version = await play_until(service, created.id, actions=15, bot_seed=5)
    second, _ = await every_point(service, await service.head(created.id))
    assert second[: len(first)] == first and second[-1] == version
    cold = CampaignService(service.store)
    assert await every_point(cold, await cold.head(created.id)) == await every_point(
        service, await service.head(created.id)
    )
