"""Each command's action id in the stored envelope, and worked out again for older streams."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.games import get_game
from server.campaigns.actions import with_actions
from server.campaigns.codec import Recorded, codec_for
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.support.random_play import Picks, playing

GAME = get_game("gil-ennis")


class OldEnvelope(msgspec.Struct, frozen=True, array_like=True):
    """The envelope as it was stored before it kept the action."""

    event: Any
    hash: str
    seat: str | None = None
    command: str | None = None
    at_ms: int = 0
    settled: bool = True


async def played(
    moves: int, *, rewind_at: int | None = None
) -> tuple[CampaignService, str, dict[int, str]]:
    """A Gil & Ennis campaign of ``moves`` random moves through the command path (one rewind,
    after move ``rewind_at``, to the state before it); the action id chosen for each version."""
    service = CampaignService(MemoryStore(), fresh=Counted("a", 1), clock=lambda: 0)
    created = await service.create("gil-ennis", seed=11, seats=("gil", "ennis"))
    picks = Picks(5)
    chosen: dict[int, str] = {}
    for move in range(moves):
        head = await service.head(created.id)
        if head.outcome != "running":
            break
        seat = picks.pick(GAME.to_act(head.state))
        choice = picks.pick(playing(GAME.legal_actions(head.state, seat)))
        acted = await service.act(
            created.id, seat, choice.id, expected_version=head.version, command_id=f"m{move}"
        )
        chosen.update({version: choice.id for version in range(acted.first, acted.last + 1)})
        if move == rewind_at:
            await service.rewind(created.id, acted.first - 1, seat=seat)
    return service, created.id, chosen


async def test_every_event_of_a_move_records_the_action_the_seat_chose() -> None:
    service, cid, chosen = await played(30, rewind_at=10)
    events = await service.events(cid)
    assert {e.version: e.action for e in events if e.action is not None} == chosen
    unchosen = [type(e.event).__name__ for e in events if e.version not in chosen]
    assert "CampaignCreated" in unchosen and "Rewound" in unchosen
    assert all(e.action is None for e in events if e.version not in chosen)
    assert len({e.action for e in events}) > 3  # the moves differ


async def test_an_envelope_stored_before_the_field_decodes_without_it() -> None:
    service, cid, _ = await played(3)
    codec = codec_for(GAME)
    new = (await service.events(cid))[-1]
    old = msgspec.msgpack.encode(
        OldEnvelope(new.event, new.hash, new.seat, new.command, new.at_ms, new.settled)
    )
    decoded = codec.decode_recorded(new.version, old)
    assert decoded.action is None
    assert msgspec.structs.replace(decoded, action=new.action) == new


@pytest.mark.parametrize("rewind_at", [None, 12])
async def test_an_older_stream_gets_its_actions_worked_out_as_the_analysis_does(
    rewind_at: int | None,
) -> None:
    service, cid, _ = await played(40, rewind_at=rewind_at)
    stored = await service.events(cid)
    old: list[Recorded[Any]] = [msgspec.structs.replace(e, action=None) for e in stored]
    assert any(e.action is not None for e in stored) and old != stored
    assert with_actions(GAME, old) == stored
    assert with_actions(GAME, stored) == stored  # a stream that kept them is left as it is
