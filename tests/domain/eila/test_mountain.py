"""Chapter 5, the mountain, on the shipped content: location cards L01-L10, location actions
and onward actions, shelter locations, fighting on despite injuries, the night's 1 Food or 1 HP,
ending B and the advanced cards."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.eila import GAME, chapter_outcome
from domain.eila.events import (
    ChapterWon,
    CombatBegan,
    CombatResolved,
    HeartBroken,
    ResourcePaid,
    TrailAdvanced,
)
from tests.domain.eila.helpers import Table

LOCATIONS = tuple(f"L{n:02d}" for n in range(1, 11))


def _mountain(mode: str = "normal", **state: Any) -> Table:
    table = Table(GAME, seed=1, chapter=5, mode=mode)
    table.state = replace(table.state, **state)
    return table


def _at(table: Table, number: str) -> None:
    """Put card ``number`` in the Present, to set a scene (not a rule)."""
    upcoming = tuple(c for c in table.state.upcoming if c != number)
    table.state = replace(table.state, present=number, upcoming=upcoming)


def test_set_up_reveals_l01_and_lays_the_other_location_cards_face_down() -> None:
    table = _mountain()
    assert table.state.trail == ("L01",) and table.state.trail_deck == LOCATIONS[1:]
    area = GAME.view(table.state, "player").chapter_element_area
    assert area.location is not None and area.location.number == "L01"
    assert area.trail == ("L01",)


def test_an_event_lets_you_execute_one_location_action_of_the_current_location() -> None:
    table = _mountain()
    table.do("A: Start the climb")
    actions = [label for label in table.labels() if label.startswith(("Location", "Take no"))]
    assert actions == [
        "Location action A: Forage by the stream (+1 Food, card to the Past)",
        "Location action B: Climb onward to the forest (-1 Energy, go on to location L02, "
        "card to the Past)",
        "Take no location action",
    ]
    table.do("Location action A")
    table.do("Take 1")
    assert table.state.resources.food == 4 and table.state.trail == ("L01",)


def test_the_onward_action_reveals_the_next_location_by_its_number() -> None:
    table = _mountain()
    table.do("A: Start the climb")
    events = table.do("Location action B")
    assert TrailAdvanced("L02") in events
    assert table.state.trail == ("L01", "L02") and "L02" not in table.state.trail_deck
    area = GAME.view(table.state, "player").chapter_element_area
    assert area.location is not None and area.location.number == "L02"


def test_a_location_action_with_a_prerequisite_needs_it() -> None:
    table = _mountain()
    table.do("A: Start the climb")
    assert not any("goat path" in label for label in table.labels())
    roped = _mountain(items=("I04",))
    roped.do("A: Start the climb")
    assert TrailAdvanced("L03") in roped.do("Location action C: Take the goat path")


def test_an_option_needing_a_shelter_opens_only_at_a_shelter_location() -> None:
    shelters = [n for n in LOCATIONS if GAME.pack.cards[n].shelter]
    assert shelters == ["L03", "L06", "L09"]
    table = _mountain()
    _at(table, "511")
    assert not any(label.startswith("B: Stay in the shelter") for label in table.labels())
    sheltered = _mountain(trail=("L01", "L02", "L03"), trail_deck=LOCATIONS[3:], hp=3)
    _at(sheltered, "511")
    sheltered.do("B: Stay in the shelter")
    assert sheltered.state.hp == 4


def test_fight_on_despite_injuries_repeats_the_combat_afresh_until_it_is_won() -> None:
    """Neither Energy spent nor spells cast carry over: each repeat starts like the first."""
    table = _mountain(supports=("S01",), hp=5)
    table.give(energy=1, stone=1, fear=1)
    _at(table, "545")  # the Frost Giant: combat value 10
    table.do("A: Fight on despite injuries")
    table.do("Roll")
    table.do("Spend 1 Energy")  # at most 6 + 2: the fight is lost
    events = table.do("Fight with")
    assert CombatResolved(False, events[0].value, 10, 0) == events[0]
    assert HeartBroken(1) in events and table.state.hp == 4
    assert CombatBegan("E20") in events
    combat = table.state.combat
    assert combat is not None and (combat.rolled, combat.energy, combat.bonus) == (False, 0, 0)
    assert table.state.present == "545" and "Roll the combat dice" in table.labels()
    table.do("Cast Fireball")
    table.do("Roll")
    events = table.do("Fight with")
    assert isinstance(events[0], CombatResolved) and events[0].won
    assert table.state.combat is None and table.state.hp == 4


def test_at_the_start_of_each_night_lose_1_food_or_1_hp() -> None:
    table = _mountain(upcoming=())
    table.do("C: Ask the herders")
    table.do("Take 1")
    assert table.state.phase == "night"
    assert table.labels()[:2] == ["Pay 1 Food", "Lose 1 HP instead"]
    assert not any(label.startswith("Submit") for label in table.labels())
    assert table.do("Pay 1 Food")[0] == ResourcePaid("food", 1)
    assert table.state.resources.food == 2 and table.state.hp == table.state.max_hp


def test_food_converted_away_while_the_night_waits_can_no_longer_pay_for_it() -> None:
    table = _mountain(upcoming=())
    table.do("C: Ask the herders")
    table.do("Take 1")
    table.do("Convert 2 Food into 1 Energy")
    table.do("Discard 1 Food")
    assert table.state.resources.food == 0
    assert "Pay 1 Food" not in table.labels() and "Lose 1 HP instead" in table.labels()
    table.do("Lose 1 HP instead")
    assert table.state.resources.food == 0 and table.state.hp == table.state.max_hp - 1


def test_a_night_without_food_costs_1_hp() -> None:
    table = _mountain(upcoming=())
    table.give(coin=2, energy=2)
    events = table.do("C: Ask the herders") + table.do("Take 1")
    assert HeartBroken(1) in events and table.state.hp == table.state.max_hp - 1


def test_the_summit_gives_ending_b_only_after_ending_b_of_the_castle() -> None:
    """Rule 05: an alternative ending, and it affects the journey: chapter 4's opens this one."""
    summit = {"trail": LOCATIONS, "trail_deck": ()}
    table = _mountain(**summit)
    table.do("A: Start the climb")
    assert not any("Give the magpie back" in label for label in table.labels())
    table = _mountain(endings=("4B",), **summit)
    table.do("A: Start the climb")
    table.do("Location action C: Give the magpie back")
    events = table.do("Take 2")
    assert ChapterWon(5, "B") in events and chapter_outcome(table.state) == "won"
    assert GAME.outcome(table.state) == "won"  # the last chapter: the campaign is won


def test_advanced_mode_replaces_ten_cards_and_uses_the_goals_advanced_side() -> None:
    replaced = ("533", "535", "536", "537", "538", "539", "540", "545", "546", "547")
    assert sorted(n for n in GAME.pack.advanced if n.startswith("5")) == list(replaced)
    normal, advanced = _mountain(), _mountain("advanced")
    assert advanced.state.max_hp == GAME.pack.chapters[5].advanced.hearts < normal.state.max_hp
    for number in replaced:
        _at(normal, number)
        _at(advanced, number)
        assert normal.labels() != advanced.labels()
