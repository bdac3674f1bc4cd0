"""Moving a campaign forward on a real SQLite store: the moved campaign verifies under today's
ruleset and keeps each move's seat and action; a plan that is not possible, and a second move,
are refused with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.core.events import Reseeded
from domain.games import game_for, get_game
from server.campaigns.forward import plan as planned
from server.campaigns.service import CampaignService
from server.lineage.moving import CannotMove, move_forward, moved_from, plan_of
from server.store.sqlite import SqliteStore
from tests.support.old_recorded import Refusing, older, store_recording

OLDER = older()


async def test_a_moved_campaign_verifies_and_keeps_who_did_what(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "tabletale.sqlite3")
    try:
        recording = OLDER["eila/3+content.2 chapter-1"]
        await store_recording(store, "old", recording)
        service = CampaignService(store)
        plan = await plan_of(service, "old")
        made = await move_forward(service, "old", plan, attrs={})
        report = await service.verify(made.id)
        assert report.ok and report.events == made.version
        head = await service.head(made.id)
        assert head.facts.game.info.ruleset == get_game("eila").info.ruleset
        moves = [r for r in await service.events(made.id) if r.action is not None]
        assert {r.seat for r in moves} == {"player"}
        assert len({r.command for r in moves}) == plan.applied == 25
        assert (await moved_from(service, "old")) is not None
        with pytest.raises(CannotMove, match=made.id):
            await move_forward(service, "old", plan, attrs={})
        assert len(await store.list_campaigns(offset=0, limit=10, listed_only=False)) == 2
    finally:
        await store.close()


async def test_a_plan_that_is_not_possible_writes_nothing(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "tabletale.sqlite3")
    try:
        recording = OLDER["eila/4+content.4 chapter-0"]
        await store_recording(store, "old", recording)
        service = CampaignService(store)
        game = game_for(recording.game, recording.ruleset)
        stream = await service.events("old")
        refused = planned("old", game, stream, today=Refusing(get_game("eila")))
        before = await store.info("old")
        with pytest.raises(CannotMove, match="cannot move forward"):
            await move_forward(service, "old", refused, attrs={})
        assert await store.info("old") == before
        assert len(await store.list_campaigns(offset=0, limit=10, listed_only=False)) == 1
    finally:
        await store.close()


async def test_a_fork_with_new_luck_moves_with_its_luck(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "tabletale.sqlite3")
    try:
        recording = OLDER["eila/4+content.4 chapter-1"]
        await store_recording(store, "old", recording)
        service = CampaignService(store)
        at = recording.actions[10].at
        fork = await service.fork("old", at, reseed=7)
        for _ in range(5):  # played on under its own ruleset, from its new luck
            head = await service.head(fork.id)
            seat = head.facts.game.to_act(head.state)[0]
            action = sorted(head.legal(seat))[0]
            await service.act(fork.id, seat, action, expected_version=head.version)
        plan = await plan_of(service, fork.id)
        assert (plan.kind, plan.moves) == ("identical", 15), plan.why
        made = await move_forward(service, fork.id, plan, attrs={})
        assert (await service.verify(made.id)).ok
        moved = await store.info(made.id)
        reseeded = [r for r in await service.events(made.id) if isinstance(r.event, Reseeded)]
        assert [r.version for r in reseeded] == [int(moved.attrs["seeded_at"])]
        assert moved.attrs["seed_hash"] == (await store.info(fork.id)).attrs["seed_hash"]
    finally:
        await store.close()
