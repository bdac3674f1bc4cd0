from __future__ import annotations

import pytest

from domain.core.errors import IllegalAction, NotYourTurn, UnsupportedRuleset
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.campaigns.tokens import PRIVATE, is_private, new_tokens, token_attrs
from server.errors import classify, status_for
from server.store.base import VersionConflict, listed_by_default
from server.store.memory import MemoryStore
from tests.support.retired import retire


@pytest.fixture
def service() -> CampaignService:
    return CampaignService(MemoryStore(), fresh=Counted("t", 1), clock=lambda: 0, snapshot_every=4)


async def play(service: CampaignService, cid: str, actions: int, tag: str = "c") -> None:
    for n in range(actions):
        version, state = await service.state_at(cid)
        seat = service_game_to_act(state)
        await service.act(cid, seat, "roll", expected_version=version, command_id=f"{tag}{n}")


def service_game_to_act(state: object) -> str:
    from tests.support.dice_race import GAME

    (seat,) = GAME.to_act(state)  # type: ignore[arg-type]
    return seat


async def test_create_records_created_and_setup(service: CampaignService) -> None:
    created = await service.create("dice-race", seed=7, options={"target": 500})
    assert created.version == 2
    events = await service.events(created.id)
    assert [type(e.event).__name__ for e in events] == ["CampaignCreated", "Began"]


async def test_act_appends_and_stale_version_is_rejected(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=7, options={"target": 500})
    acted = await service.act(c.id, "player", "roll", expected_version=2, command_id="a")
    assert (acted.first, acted.last) == (3, 3)
    with pytest.raises(VersionConflict):
        await service.act(c.id, "player", "roll", expected_version=2, command_id="b")
    assert (await service.state_at(c.id))[0] == 3


async def test_resubmitted_command_returns_original_result(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=7, options={"target": 500})
    first = await service.act(c.id, "player", "roll", expected_version=2, command_id="a")
    again = await service.act(c.id, "player", "roll", expected_version=2, command_id="a")
    assert again.duplicate and (again.first, again.last) == (first.first, first.last)
    assert again.events[0].hash == first.events[0].hash
    assert (await service.state_at(c.id))[0] == 3


async def test_a_resent_command_is_a_duplicate_whatever_version_it_names(
    service: CampaignService,
) -> None:
    c = await service.create("dice-race", seed=3, seats=["red", "blue"], options={"target": 500})
    _, state = await service.state_at(c.id)
    mover = service_game_to_act(state)
    first = await service.act(c.id, mover, "roll", expected_version=2, command_id="r")
    # The client saw its own answer's version and resends naming it: the rules would now say
    # "not your turn", the version is the head, and still it is the same command.
    for named in (first.last, first.last + 5, 1):
        again = await service.act(c.id, mover, "roll", expected_version=named, command_id="r")
        assert again.duplicate and (again.first, again.last) == (first.first, first.last)
    # The other seat's command with the same id is the same command too: ids are per campaign.
    other = "blue" if mover == "red" else "red"
    again = await service.act(c.id, other, "hold", expected_version=first.last, command_id="r")
    assert again.duplicate
    assert (await service.state_at(c.id))[0] == first.last
    with pytest.raises(NotYourTurn):
        await service.act(c.id, mover, "roll", expected_version=first.last, command_id="new")


async def test_wrong_seat_and_unknown_action(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=3, seats=["red", "blue"], options={"target": 500})
    _, state = await service.state_at(c.id)
    mover = service_game_to_act(state)
    other = "blue" if mover == "red" else "red"
    with pytest.raises(NotYourTurn):
        await service.act(c.id, other, "roll", expected_version=2)
    with pytest.raises(IllegalAction):
        await service.act(c.id, mover, "jump", expected_version=2)
    assert (await service.state_at(c.id))[0] == 2


async def test_rewind_then_same_actions_equals_original(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=11, options={"target": 500})
    await play(service, c.id, 10)
    original = await service.events(c.id)
    await service.rewind(c.id, 5)
    v, state = await service.state_at(c.id)
    assert v == 13
    _, at5 = await service.state_at(c.id, 5)
    assert state == at5
    for n in range(7):
        version, _ = await service.state_at(c.id)
        await service.act(c.id, "player", "roll", expected_version=version, command_id=f"r{n}")
    replayed = await service.events(c.id, 13)
    assert [e.hash for e in replayed] == [e.hash for e in original[5:12]]
    assert (await service.verify(c.id)).ok


async def test_fork_shares_prefix_and_continues_like_original(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=5, options={"target": 500})
    await play(service, c.id, 8)
    fork = await service.fork(c.id, 6)
    assert fork.version == 6
    await play(service, fork.id, 4)
    parent = await service.events(c.id)
    child = await service.events(fork.id)
    assert [e.hash for e in child] == [e.hash for e in parent]
    assert (await service.verify(fork.id)).ok


async def test_a_private_campaign_and_every_fork_of_it_are_stored_unlisted(
    service: CampaignService,
) -> None:
    public = await service.create("dice-race", seed=5, options={"target": 500})
    private = await service.create(
        "dice-race", seed=6, options={"target": 500}, attrs={PRIVATE: "1"}
    )
    assert (await service.info(public.id)).listed
    assert not (await service.info(private.id)).listed
    # Forks whose callers say nothing of privacy: the service keeps the parent's.
    plain = await service.fork(private.id, 2)
    reseeded = await service.fork(private.id, 2, reseed=99)
    public_fork = await service.fork(public.id, 2)
    for fork in (plain, reseeded):
        info = await service.info(fork.id)
        assert not info.listed and is_private(info.attrs)
    assert (await service.info(public_fork.id)).listed
    assert [info.id for info in await service.catalog()] == [public_fork.id, public.id]
    everything = {info.id for info in await service.catalog(listed_only=False)}
    assert everything == {public.id, private.id, plain.id, reseeded.id, public_fork.id}


def test_the_store_reads_a_private_campaign_from_before_listed_as_unlisted() -> None:
    attrs = token_attrs(new_tokens(["player"]))
    assert listed_by_default(attrs)
    assert not listed_by_default({**attrs, PRIVATE: "1"})


async def test_reseeded_fork_changes_luck_and_seed_hash(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=5, options={"target": 500})
    fork = await service.fork(c.id, 2, reseed=99)
    assert fork.version == 3 and fork.seed_hash != c.seed_hash
    assert (await service.verify(fork.id)).ok


async def test_verify_names_first_divergent_event(service: CampaignService) -> None:
    import msgspec

    from server.campaigns.codec import Envelope

    c = await service.create("dice-race", seed=5, options={"target": 500})
    await play(service, c.id, 5)
    store = service.store
    assert isinstance(store, MemoryStore)
    campaign = store._campaigns[c.id]
    env = msgspec.msgpack.decode(campaign.events[3])
    env[1] = "0" * 32  # tamper with the hash stored at version 4
    campaign.events[3] = msgspec.msgpack.encode(env)
    # The envelope is array-like, [event, hash, seat, command, at_ms, settled]: it was the hash.
    assert msgspec.msgpack.decode(campaign.events[3], type=Envelope[msgspec.Raw]).hash == env[1]
    report = await service.verify(c.id)
    assert not report.ok
    assert report.first_divergence is not None and report.first_divergence.version == 4


async def test_state_at_uses_snapshots_and_matches_full_replay(service: CampaignService) -> None:
    c = await service.create("dice-race", seed=9, options={"target": 500})
    await play(service, c.id, 20)
    await service.rewind(c.id, 9)
    await play(service, c.id, 6, tag="after-rewind")
    fresh = CampaignService(service.store, snapshot_every=4)
    for version in (3, 9, 17, 22, 23, 28):
        _, a = await service.state_at(c.id, version)
        _, b = await fresh.state_at(c.id, version)
        assert a == b
    assert (await fresh.verify(c.id)).ok


async def test_a_reseeded_fork_cannot_be_rewound_to_its_parents_luck(
    service: CampaignService,
) -> None:
    c = await service.create("dice-race", seed=5, options={"target": 500})
    await play(service, c.id, 4)
    fork = await service.fork(c.id, 4, reseed=99)
    await play(service, fork.id, 3, tag="f")
    with pytest.raises(IllegalAction, match=r"reseeded at version 5.*nearest is version 5"):
        await service.rewind(fork.id, 4)
    rewound = await service.rewind(fork.id, 5)
    assert rewound.last == 9
    info = await service.store.info(fork.id)
    assert (info.attrs["origin"], info.attrs["seeded_at"]) == ("5", "5")
    plain = await service.fork(fork.id, 6)
    assert (await service.store.info(plain.id)).attrs["seeded_at"] == "5"
    assert plain.seed_hash == fork.seed_hash


async def test_a_campaign_of_a_retired_ruleset_is_refused_with_a_typed_error() -> None:
    store = MemoryStore()
    service = CampaignService(store, fresh=Counted("o", 1), clock=lambda: 0, snapshot_every=2)
    c = await service.create("dice-race", seed=5, options={"target": 500})
    await play(service, c.id, 4)
    retire(store, c.id, "dice-race/0")
    # A process that never saw it refuses it, though a snapshot would spare the replay version 1.
    cold = CampaignService(store)
    with pytest.raises(UnsupportedRuleset, match="'dice-race/0'") as refused:
        await cold.head(c.id)
    body = classify(refused.value)
    assert body is not None and body.code == "unsupported_ruleset" and status_for(body) == 409
    with pytest.raises(UnsupportedRuleset):
        await cold.verify(c.id)
