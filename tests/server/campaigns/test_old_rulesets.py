"""A campaign stored under an older ruleset is served as it was played: its head, any version and
its verification come from the ruleset its creation names, and a move is decided by that ruleset
(the same events as when it was first played)."""

from __future__ import annotations

import msgspec
import pytest

from domain.core.hashing import seed_commitment
from domain.games import game_for, get_game
from server.campaigns.codec import Envelope, codec_for
from server.campaigns.fresh import Counted
from server.campaigns.service import SEED_HASH, CampaignService
from server.store.memory import MemoryStore
from tests.recorded.streams import Recording, decoded, recordings

OLD = {
    r.ruleset: r
    for _, r in recordings()
    if r.ruleset != get_game(r.game).info.ruleset and r.actions
}


def test_every_older_ruleset_is_among_them() -> None:
    # Every ruleset main ever had before those in force (CHANGELOG.md).
    assert set(OLD) == {
        "gil-ennis/1",
        "gil-ennis/2+content.1",
        "eila-1",
        "eila/2+content.1",
        "eila/3+content.2",
        "eila/3+content.3",
        "eila/4+content.3",
        "eila/4+content.4",
        "machina/1",
        "machina/1+content.1",
        "machina/2+content.1",
    }


async def _stored(store: MemoryStore, campaign_id: str, recording: Recording) -> None:
    game = game_for(recording.game, recording.ruleset)
    codec = codec_for(game)
    seats = {taken.at + 1: taken for taken in recording.actions}  # an action's first event
    payloads = []
    for (version, event), line in zip(decoded(game, recording), recording.events, strict=True):
        taken = seats.get(version)
        seat, command = (taken.seat, f"c{version}") if taken else (None, None)
        payloads.append(codec.encode(Envelope(event, line.hash, seat, command)))
    created = recording.events[0].event
    attrs = {SEED_HASH: seed_commitment(created["seed"], created["salt"])}
    await store.create(campaign_id, recording.game, now_ms=0, events=payloads, attrs=attrs)


@pytest.mark.parametrize("ruleset", sorted(OLD))
async def test_a_stored_campaign_of_an_older_ruleset_is_read_verified_and_played_on(
    ruleset: str,
) -> None:
    recording = OLD[ruleset]
    store = MemoryStore()
    await _stored(store, "old", recording)
    service = CampaignService(store, fresh=Counted("f", 1), clock=lambda: 0, snapshot_every=8)
    head = await service.head("old")
    assert head.facts.game.info.ruleset == ruleset
    assert head.version == len(recording.events)
    report = await service.verify("old")
    assert report.ok and report.events == len(recording.events)
    middle = len(recording.events) // 2
    _, state = await service.state_at("old", middle)
    assert msgspec.msgpack.encode(state)  # a state of that ruleset's own shape
    # Played on from its last decision: the ruleset decides the move as it did the first time.
    last = recording.actions[-1]
    fork = await service.fork("old", last.at)
    acted = await service.act(fork.id, last.seat, last.id, expected_version=last.at)
    expected = [line.hash for line in recording.events[last.at :]]
    assert [r.hash for r in acted.events] == expected
    assert (await service.head(fork.id)).facts.game.info.ruleset == ruleset
    assert (await service.verify(fork.id)).ok
