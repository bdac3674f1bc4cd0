from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import IllegalAction, NotYourTurn
from domain.gil_ennis.actions import (
    AddDrawn,
    Calm,
    CashInsights,
    Give,
    Organize,
    Reroll,
    TurnIn,
    UsePower,
)
from domain.gil_ennis.content import CONTENT
from domain.gil_ennis.events import DiceDrawn, DiceRerolled, DieDrawn, TurnedIn
from domain.gil_ennis.state import GilEnnisState, pool
from tests.domain.gil_ennis.helpers import COOP, actions, build, card, of_type, play


def _day_at(special: str | None) -> int:
    route = CONTENT.map.route(CONTENT.map.paths[0].id)
    return next(i + 1 for i, site in enumerate(route) if site.special == special)


def _pitch(
    special: str | None, seats: tuple[str, ...] = ("player",), **fields: Any
) -> GilEnnisState:
    fields.setdefault("gil", card(5, (4, 2), 3))
    fields.setdefault("ennis", card(1, (6,), 2))
    fields.setdefault("step", "campsite")
    return build(seats, phase="pitch", day=_day_at(special), path=CONTENT.map.paths[0].id, **fields)


SPECIAL_TYPES = (Reroll, Calm, CashInsights, Give)


def _specials(state: GilEnnisState, seat: str = "player") -> list[object]:
    return [a for a in actions(state, seat) if isinstance(a, SPECIAL_TYPES)]


def test_a_campsite_without_a_special_action_offers_none() -> None:
    assert _specials(_pitch(None)) == []


def test_the_campsite_action_is_one_time() -> None:
    state = _pitch("give")
    state, _ = play(state, "player", Give("gil", "hand", 5))
    assert state.special_used
    assert _specials(state) == []


def test_reroll_rerolls_any_chosen_dice_of_one_character() -> None:
    state = _pitch("reroll")
    rerolls = of_type(state, Reroll)
    # Gil has 4 distinct dice (15 non-empty sets), Ennis 3 (7 sets).
    assert len(rerolls) == 15 + 7
    chosen = Reroll("gil", ("hand:5", "pocket:3"))
    after, events = play(state, "player", chosen)
    rolled = events[-1]
    assert isinstance(rolled, DiceRerolled)
    assert rolled.slots == ("hand", "pocket") and rolled.old == (5, 3)
    assert after.gil.hand == rolled.new[0] and after.gil.pocket == rolled.new[1]
    assert after.gil.backpack == (4, 2)
    assert after.rng.draws == rolled.draws > state.rng.draws


def test_calm_discards_a_die_to_lower_the_worry_level_by_its_value() -> None:
    state = _pitch("calm", worry_level=5)
    before = pool(state)
    after, _ = play(state, "player", Calm("gil", "backpack", 4))
    assert after.worry_level == 1
    assert after.gil.backpack == (2,)
    assert pool(after) == before + 1


def test_calm_never_lowers_the_worry_level_below_one() -> None:
    after, _ = play(_pitch("calm", worry_level=3), "player", Calm("ennis", "backpack", 6))
    assert after.worry_level == 1


def test_calm_below_seven_returns_the_extra_worry_die_to_the_pool() -> None:
    state = _pitch("calm", worry_level=8)
    before = pool(state)
    after, _ = play(state, "player", Calm("gil", "pocket", 3))
    assert after.worry_level == 5
    # The discarded die and the second worry die both return.
    assert pool(after) == before + 2


def test_cash_insights_discards_insights_to_draw_as_many_dice() -> None:
    insights = ("salt-choir", "paper-wolf")
    state = _pitch("cash_insights", gil=card(5, (), 3, insights))
    offered = of_type(state, CashInsights)
    assert CashInsights("gil", insights) in offered
    after, events = play(state, "player", CashInsights("gil", insights))
    drawn = next(e for e in events if isinstance(e, DiceDrawn))
    assert drawn.character == "gil" and len(drawn.faces) == 2
    assert after.gil.insights == ()
    assert after.discard == insights
    # Rolled together; added in the players' order (at once when both show the same value).
    while after.gil.rolled:
        after, _ = play(after, "player", of_type(after, AddDrawn)[0])
    assert sorted((after.gil.hand, *after.gil.backpack)) == sorted((5, *drawn.faces))


def test_cashing_a_single_insight_draws_one_die_straight_in() -> None:
    state = _pitch("cash_insights", gil=card(5, (), 3, ("salt-choir",)))
    after, events = play(state, "player", CashInsights("gil", ("salt-choir",)))
    drawn = [e for e in events if isinstance(e, DieDrawn)]
    assert len(drawn) == 1 and after.gil.hand == drawn[0].value
    assert after.gil.backpack == (5,) and after.gil.rolled == ()


def test_cash_insights_draws_no_more_dice_than_the_pool_holds() -> None:
    insights = ("salt-choir", "paper-wolf", "door-in-the-riverbank")
    state = _pitch(
        "cash_insights",
        gil=card(5, (1, 1, 1), 3, insights),
        ennis=card(6, (6, 6, 6), 6),
        worry_level=7,
    )
    # Ten dice in the inventories and two worry dice (6 and 1) leave two in the pool.
    assert pool(state) == 2
    assert max(len(a.cards) for a in of_type(state, CashInsights)) == 2


def test_give_hands_one_die_to_the_other_character_through_the_hand() -> None:
    after, _ = play(_pitch("give"), "player", Give("gil", "backpack", 4))
    assert after.gil.backpack == (2,)
    assert after.ennis == card(4, (6, 1), 2)


def test_once_per_round_ability_is_used_once_a_round() -> None:
    state = _pitch(None)
    nudge = UsePower("gil", "ability:gil/steady-hands", "hand", 5, 6)
    assert nudge in actions(state)
    after, _ = play(state, "player", nudge)
    assert after.gil.hand == 6
    assert not [a for a in of_type(after, UsePower) if a.power == nudge.power]


def test_once_per_game_ability_is_never_offered_again() -> None:
    state = _pitch(None)
    reroll = UsePower("gil", "ability:gil/second-look", "pocket", 3, 0)
    after, _ = play(state, "player", reroll)
    assert 1 <= after.gil.pocket <= 6
    later = _pitch(None, used_game=after.used_game)
    assert not [a for a in of_type(later, UsePower) if a.power == reroll.power]


def test_nudge_keeps_a_die_between_one_and_six() -> None:
    state = _pitch(None, gil=card(6, (), 1))
    nudges = [a for a in of_type(state, UsePower) if a.power == "ability:gil/steady-hands"]
    assert {(a.slot, a.value, a.new) for a in nudges} == {("hand", 6, 5), ("pocket", 1, 2)}


def test_abilities_only_change_their_owners_dice() -> None:
    for action in of_type(_pitch(None), UsePower):
        assert action.power.startswith(f"ability:{action.character}/") or action.power.startswith(
            "insight:"
        )


def test_an_insight_is_used_in_the_step_it_names() -> None:
    # salt-choir's insight is a PITCH power; paper-wolf's is a SLEEP power.
    state = _pitch(None, gil=card(5, (), 3, ("salt-choir", "paper-wolf")))
    powers = {a.power for a in of_type(state, UsePower)}
    assert "insight:salt-choir" in powers
    assert "insight:paper-wolf" not in powers


def test_solo_turning_in_ends_the_pitch() -> None:
    after, events = play(_pitch(None), "player", TurnIn())
    assert events == [TurnedIn("player", True)]
    assert (after.phase, after.step) == ("sleep", "choose")


def test_coop_pitch_ends_when_both_seats_turned_in() -> None:
    state = _pitch(None, COOP)
    state, _ = play(state, "gil", TurnIn())
    assert state.phase == "pitch"
    # Gil's seat is done; its pitch actions are gone, Ennis's remain.
    assert actions(state, "gil") == []
    assert of_type(state, Organize, "ennis")
    state, _ = play(state, "ennis", TurnIn())
    assert state.phase == "sleep"


def test_acting_for_the_other_characters_die_is_not_your_turn() -> None:
    with pytest.raises(NotYourTurn):
        play(_pitch("give", COOP), "ennis", Give("gil", "hand", 5))


def test_an_unknown_action_is_illegal() -> None:
    with pytest.raises(IllegalAction):
        play(_pitch("give"), "player", Give("gil", "hand", 2))
    with pytest.raises(IllegalAction):
        play(_pitch("give"), "player", "dance")
