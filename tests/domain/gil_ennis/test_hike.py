from __future__ import annotations

import pytest

from domain.core.errors import IllegalAction
from domain.gil_ennis import GAME
from domain.gil_ennis.actions import Hike, TakePath
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.events import FinalNightBegan, Hiked
from domain.gil_ennis.rules.common import campsite
from tests.domain.gil_ennis.helpers import COOP, actions, build, card, fresh, play


def test_hike_moves_the_marker_to_the_next_campsite_and_starts_the_pitch() -> None:
    state, events = play(fresh(), "player", Hike())
    assert events == [Hiked(1, CONTENT.map.trail[0].id)]
    assert (state.day, state.phase) == (1, "pitch")
    assert campsite(state) == CONTENT.map.trail[0]


def test_the_fifth_hike_offers_the_choice_of_two_paths() -> None:
    state = build(phase="hike", day=4)
    offered = actions(state)
    assert offered == [TakePath(p.id) for p in CONTENT.map.paths]
    with pytest.raises(IllegalAction):
        play(state, "player", Hike())
    for path in CONTENT.map.paths:
        after, _ = play(state, "player", TakePath(path.id))
        assert (after.day, after.path) == (5, path.id)
        assert campsite(after) == path.campsites[0]


def test_paths_are_not_offered_before_the_fifth_hike() -> None:
    assert actions(build(phase="hike", day=2)) == [Hike()]
    with pytest.raises(IllegalAction):
        play(build(phase="hike", day=2), "player", TakePath(CONTENT.map.paths[0].id))


@pytest.mark.parametrize("path", [p.id for p in CONTENT.map.paths])
def test_the_hike_after_the_last_campsite_reaches_mount_humbaba(path: str) -> None:
    last = len(CONTENT.map.route(path))
    state = build(phase="hike", day=last, path=path, gil=card(6, (), 2), ennis=card(1, (), 3))
    state, events = play(state, "player", Hike())
    assert events[0] == Hiked(last + 1, "summit")
    assert isinstance(events[-1], FinalNightBegan)
    assert state.phase == "final_night"


def test_a_new_round_resets_campsite_action_abilities_and_organizing() -> None:
    state = build(
        phase="hike",
        day=1,
        special_used=True,
        used_round=("ability:gil/steady-hands",),
        used_game=("ability:gil/second-look",),
        gil=card(3, organized=True),
        ennis=card(2, organized=True),
    )
    state, _ = play(state, "player", Hike())
    assert not state.special_used
    assert state.used_round == ()
    assert state.used_game == ("ability:gil/second-look",)
    assert not state.gil.organized and not state.ennis.organized


def test_either_coop_seat_may_lead_the_hike() -> None:
    state = build(COOP, phase="hike", day=0)
    assert GAME.to_act(state) == COOP
    for seat in COOP:
        after, _ = play(state, seat, Hike())
        assert after.day == 1
