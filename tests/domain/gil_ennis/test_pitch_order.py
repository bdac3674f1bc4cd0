"""PITCH in its order: "PITCH i. Take special campsite actions ii. Use character abilities
iii. Organize supplies", and "Characters can discard INSIGHTS to draw an equal amount of dice"."""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import IllegalAction
from domain.gil_ennis.actions import (
    AddDrawn,
    CashInsights,
    Give,
    Hike,
    Organize,
    TurnIn,
    UsePower,
)
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.events import DrawnDieAdded
from domain.gil_ennis.state import Character, GilEnnisState
from tests.domain.gil_ennis.helpers import COOP, SOLO, actions, build, card, of_type, play

NUDGE = "ability:gil/steady-hands"
LUCKY = "ability:ennis/lucky-pebble"


def _day_at(special: str | None) -> int:
    route = CONTENT.map.route(CONTENT.map.paths[0].id)
    return next(i + 1 for i, site in enumerate(route) if site.special == special)


def _pitch(special: str | None, seats: tuple[str, ...] = SOLO, **fields: Any) -> GilEnnisState:
    fields.setdefault("gil", card(5, (4, 2), 3))
    fields.setdefault("ennis", card(1, (6,), 2))
    return build(
        seats,
        phase="pitch",
        step="campsite",
        day=_day_at(special),
        path=CONTENT.map.paths[0].id,
        **fields,
    )


def test_pitch_begins_at_step_i_after_every_hike() -> None:
    day = _day_at("give") - 1
    state = build(phase="hike", day=day, gil=card(5, (4, 2), 3), ennis=card(1, (6,), 2))
    state, _ = play(state, "player", Hike())
    assert (state.phase, state.step) == ("pitch", "campsite")
    assert of_type(state, Give)


def test_pitch_order_an_ability_ends_the_campsite_step() -> None:
    # The rulebook's order forbids turning Ennis's HAND 1 into a 6 and then giving that 6 away.
    state = _pitch("give")
    pebble = UsePower("ennis", LUCKY, "hand", 1, 6)
    assert pebble in actions(state) and Give("ennis", "hand", 1) in actions(state)
    after, _ = play(state, "player", pebble)
    assert after.step == "abilities"
    assert of_type(after, Give) == []
    with pytest.raises(IllegalAction):
        play(after, "player", Give("ennis", "hand", 6))
    # Step ii goes on: the other character's abilities are still there.
    assert [a for a in of_type(after, UsePower) if a.power == NUDGE]


def test_pitch_order_organizing_ends_the_abilities_step() -> None:
    state = _pitch(None)
    move = Organize("gil", "pocket", 3, "backpack", 0)
    assert move in actions(state)
    after, _ = play(state, "player", move)
    assert after.step == "organize"
    assert of_type(after, UsePower) == []
    # Ennis may still organize; this is step iii.
    assert {a.character for a in of_type(after, Organize)} == {"ennis"}


def test_pitch_order_the_campsite_action_leaves_abilities_and_organizing_open() -> None:
    state = _pitch("give")
    after, _ = play(state, "player", Give("gil", "hand", 5))
    assert after.step == "campsite"
    assert of_type(after, UsePower) and of_type(after, Organize)


def test_pitch_order_is_shared_by_both_seats_in_coop() -> None:
    state = _pitch("give", COOP)
    after, _ = play(state, "gil", UsePower("gil", NUDGE, "hand", 5, 6))
    assert of_type(after, Give, "ennis") == []


def test_labels_say_when_an_action_moves_the_pitch_on() -> None:
    state = _pitch("give")
    labels = {legal.action: legal.label for legal in _legal(state)}
    assert "ends step i" in labels[UsePower("gil", NUDGE, "hand", 5, 6)]
    assert "ends steps i and ii" in labels[Organize("gil", "pocket", 3, "backpack", 0)]
    assert "ends" not in labels[Give("gil", "hand", 5)]
    assert "ends" not in labels[TurnIn()]
    # With no campsite action to give up, an ability closes nothing worth a note.
    quiet = {legal.action: legal.label for legal in _legal(_pitch(None))}
    assert "ends" not in quiet[UsePower("gil", NUDGE, "hand", 5, 6)]
    assert "ends step ii, the abilities" in quiet[Organize("gil", "pocket", 3, "backpack", 0)]


def _legal(state: GilEnnisState) -> list[Any]:
    from domain.gil_ennis import GAME

    return GAME.legal_actions(state, "player")


def test_characters_each_cash_their_own_insights_at_the_campsite() -> None:
    state = _pitch(
        "cash_insights",
        COOP,
        gil=card(5, (4,), 3, ("salt-choir",)),
        ennis=card(1, (6,), 2, ("paper-wolf",)),
    )
    assert of_type(state, CashInsights, "gil") and of_type(state, CashInsights, "ennis")
    state, _ = play(state, "gil", CashInsights("gil", ("salt-choir",)))
    assert state.cashed == ("gil",)
    assert of_type(state, CashInsights, "gil") == []
    # Ennis's own insights may still be cashed at this campsite.
    assert of_type(state, CashInsights, "ennis") == [CashInsights("ennis", ("paper-wolf",))]
    state, _ = play(state, "ennis", CashInsights("ennis", ("paper-wolf",)))
    assert state.cashed == ("gil", "ennis")
    assert of_type(state, CashInsights, "ennis") == []


def test_cashing_insights_is_still_step_i() -> None:
    state = _pitch("cash_insights", gil=card(5, (4,), 3, ("salt-choir",)))
    state, _ = play(state, "player", UsePower("gil", NUDGE, "hand", 5, 6))
    assert of_type(state, CashInsights) == []


def test_dice_drawn_together_go_in_through_the_hand_in_the_players_order() -> None:
    # "Whenever you draw dice you take them from the dice pool, rolling all before adding them."
    waiting = Character(5, (4,), 3, rolled=(6, 2))
    state = _pitch("cash_insights", gil=waiting)
    assert actions(state) == [AddDrawn("gil", 6), AddDrawn("gil", 2)]
    after, events = play(state, "player", AddDrawn("gil", 2))
    # The last die left has no choice to make: it follows at once and ends in the HAND.
    assert events == [DrawnDieAdded("gil", 2), DrawnDieAdded("gil", 6)]
    assert after.gil == card(6, (5, 4, 2), 3)
    other, _ = play(state, "player", AddDrawn("gil", 6))
    assert other.gil == card(2, (6, 5, 4), 3)


def test_waiting_dice_are_the_only_decision_until_placed() -> None:
    state = _pitch("cash_insights", COOP, gil=Character(5, (), 3, rolled=(6, 2, 1)))
    assert {type(a) for a in actions(state, "gil")} == {AddDrawn}
    assert actions(state, "ennis") == []
