"""The answer to an action is built in one place, for a new move and for a duplicate alike."""

from __future__ import annotations

from server.campaigns.results import Acted
from server.campaigns.service import CampaignService
from server.live.builders import accepted, retold, update_message
from server.store.memory import MemoryStore
from tests.support import dice_race

dice_race.register()


async def test_a_new_moves_answer_is_its_update_and_a_duplicates_names_its_versions_only() -> None:
    service = CampaignService(MemoryStore())
    cid = (await service.create("dice-race", seats=["red", "blue"])).id
    before = await service.heads.head(cid)
    seat = next(seat for seat in before.facts.seats if before.legal(seat))
    acted = await service.act(
        cid, seat, sorted(before.legal(seat))[0], expected_version=before.version
    )
    after = await service.heads.head(cid)
    change = update_message(before, after, acted.events, seat)

    fresh = accepted("c-1", change)
    assert (fresh.command_id, fresh.duplicate) == ("c-1", False)
    assert (fresh.first, fresh.version, fresh.events) == (
        change.first,
        change.version,
        change.events,
    )
    assert (fresh.patch, fresh.legal_actions, fresh.outcome) == (
        change.patch,
        change.legal_actions,
        change.outcome,
    )
    assert fresh.patch, "a move changes the acting seat's view"

    again = accepted("c-1", retold(after, acted, seat), duplicate=True)
    assert (again.first, again.version, again.duplicate) == (acted.first, acted.last, True)
    assert again.events == change.events  # as the seat sees them, at the same head
    assert (again.patch, again.legal_actions) == ([], [])  # the client syncs if behind

    unknown = retold(None, Acted(acted.first, acted.last, duplicate=True), seat)
    assert unknown.events == [] and (unknown.first, unknown.version) == (acted.first, acted.last)
