from __future__ import annotations

from typing import Any

import pytest

from domain.core.errors import IllegalAction, NotYourTurn
from domain.gil_ennis.actions import DreamAlone, DreamTogether, Pledge, SkipDream, UsePower, Wake
from domain.gil_ennis.events import DreamersChosen, DreamFailed, DreamsShuffled
from domain.gil_ennis.rules.common import raised
from domain.gil_ennis.state import pool, worry_dice
from tests.domain.gil_ennis.helpers import COOP, actions, build, card, of_type, play

# lantern-under-water: alone 5 and 4-6; together 1-2, 3-4 and 2.
DECK = ("lantern-under-water", "salt-choir", "paper-wolf")


def _night(seats: tuple[str, ...] = ("player",), **fields: Any) -> Any:
    fields.setdefault("deck", DECK)
    fields.setdefault("worry_level", 3)
    return build(seats, phase="sleep", step="choose", day=2, **fields)


def test_dreaming_alone_needs_the_other_characters_hand_at_the_worry_level() -> None:
    state = _night(gil=card(1, (), 2), ennis=card(3, (), 2))
    assert of_type(state, DreamAlone) == [DreamAlone("gil")]
    assert of_type(state, DreamTogether) == []
    with pytest.raises(IllegalAction):
        play(state, "player", DreamAlone("ennis"))


def test_dreaming_together_needs_both_hands_at_the_worry_level() -> None:
    state = _night(gil=card(4, (), 2), ennis=card(3, (), 2))
    assert of_type(state, DreamTogether) == [DreamTogether()]
    assert of_type(_night(gil=card(4), ennis=card(2)), DreamTogether) == []


def test_above_worry_level_six_nobody_can_dream() -> None:
    state = _night(gil=card(6, (), 2), ennis=card(6, (), 2), worry_level=7)
    assert [a for a in actions(state) if not isinstance(a, UsePower)] == [SkipDream()]


def test_not_dreaming_draws_the_dream_as_a_worry_and_lowers_the_level() -> None:
    state = _night(gil=card(1, (), 2), ennis=card(1, (), 2))
    after, events = play(state, "player", SkipDream())
    assert events == [DreamersChosen((), DECK[0]), DreamFailed(DECK[0], 2)]
    assert after.worries == (DECK[0],)
    assert after.deck == DECK[1:]
    assert (after.phase, after.step, after.dreamed) == ("break", "eat", False)


def test_the_worry_level_never_falls_below_one() -> None:
    after, _ = play(_night(worry_level=1), "player", SkipDream())
    assert after.worry_level == 1


def test_dreaming_alone_and_paying_gains_the_insight_and_raises_worry_by_two() -> None:
    state = _night(gil=card(5, (4, 1), 2), ennis=card(3, (), 2))
    state, _ = play(state, "player", DreamAlone("gil"))
    assert (state.step, state.dream, state.dreamers) == ("pay", DECK[0], ("gil",))
    before = pool(state)
    state, _ = play(state, "player", Pledge(0, "gil", "hand", 5))
    assert state.gil.hand == 5  # pledged, not yet spent
    state, _ = play(state, "player", Pledge(1, "gil", "backpack", 4))
    assert state.gil == card(0, (1,), 2, (DECK[0],))
    assert state.worry_level == 5
    assert pool(state) == before + 2
    assert (state.phase, state.dreamed) == ("break", True)


def test_dreaming_together_and_paying_discards_the_dream_and_raises_worry_by_one() -> None:
    state = _night(gil=card(4, (2, 2), 1), ennis=card(3, (), 2))
    state, _ = play(state, "player", DreamTogether())
    # Together, the cost may be paid from either dreamer's dice.
    state, _ = play(state, "player", Pledge(0, "gil", "backpack", 2))
    state, _ = play(state, "player", Pledge(1, "ennis", "hand", 3))
    assert state.phase == "sleep"  # one die of the three still to pay
    state, _ = play(state, "player", Pledge(2, "gil", "backpack", 2))
    assert state.discard == (DECK[0],)
    assert state.gil.insights == () and state.ennis.insights == ()
    assert state.worry_level == 4
    assert state.dreamed


def test_only_dice_of_the_right_values_and_of_the_dreamers_pay() -> None:
    state = _night(gil=card(5, (4, 1), 2), ennis=card(3, (6,), 2))
    state, _ = play(state, "player", DreamAlone("gil"))
    pledges = {(p.requirement, p.character, p.value) for p in of_type(state, Pledge)}
    assert pledges == {(0, "gil", 5), (1, "gil", 5), (1, "gil", 4)}


def test_a_pledged_die_cannot_pay_twice() -> None:
    state = _night(gil=card(5, (1,), 2), ennis=card(3, (), 2))
    state, _ = play(state, "player", DreamAlone("gil"))
    state, _ = play(state, "player", Pledge(0, "gil", "hand", 5))
    assert of_type(state, Pledge) == []
    assert Wake() in actions(state)


def test_waking_instead_of_paying_spends_nothing_and_is_a_restless_night() -> None:
    state = _night(gil=card(5, (4,), 2), ennis=card(3, (), 2))
    state, _ = play(state, "player", DreamAlone("gil"))
    state, _ = play(state, "player", Pledge(0, "gil", "hand", 5))
    state, _ = play(state, "player", Wake())
    assert state.gil == card(5, (4,), 2)
    assert state.worries == (DECK[0],)
    assert (state.worry_level, state.dreamed) == (2, False)


def test_raising_the_worry_level_above_six_adds_a_die_from_the_pool() -> None:
    state = _night(gil=card(5, (4,), 2), ennis=card(6, (), 2), worry_level=6)
    state, _ = play(state, "player", DreamAlone("gil"))
    state, _ = play(state, "player", Pledge(0, "gil", "hand", 5))
    before = pool(state)
    state, _ = play(state, "player", Pledge(1, "gil", "backpack", 4))
    assert state.worry_level == 8
    assert worry_dice(8) == (6, 2)
    # Two spent dice return, one becomes the second worry die.
    assert pool(state) == before + 2 - 1


def test_worry_level_stops_rising_when_the_pool_has_no_die_for_it() -> None:
    full = (card(6, (6, 6, 6), 6), card(6, (6, 6, 6), 6))
    # Ten inventory dice, a foraged die in hand and three worry dice (6, 6, 6) empty the pool.
    state = build(gil=full[0], ennis=full[1], worry_level=18, forage=1)
    assert pool(state) == 0
    assert raised(state, 1) == 18
    # With two dice in the pool the level can climb two dice further, to 30 at most.
    state = build(gil=full[0], ennis=full[1], worry_level=6, forage=1)
    assert pool(state) == 2
    assert raised(state, 2) == 8
    assert raised(state, 20) == 18
    # Dice a payment frees count as pool dice for the rise.
    assert raised(state, 30, freed=2) == 30


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_pile() -> None:
    state = _night(deck=(), discard=("salt-choir", "paper-wolf"))
    after, events = play(state, "player", SkipDream())
    shuffled = events[0]
    assert isinstance(shuffled, DreamsShuffled)
    assert sorted(shuffled.order) == ["paper-wolf", "salt-choir"]
    assert after.discard == ()
    assert after.deck == shuffled.order[1:]
    assert after.worries == shuffled.order[:1]


def test_with_no_dream_card_left_the_night_is_restless_without_a_worry() -> None:
    after, events = play(_night(deck=(), discard=()), "player", SkipDream())
    assert events == [DreamersChosen((), ""), DreamFailed("", 2)]
    assert after.worries == ()


def test_sleep_insights_work_while_choosing_dreamers_only() -> None:
    # paper-wolf's insight nudges one of its owner's dice during SLEEP.
    state = _night(gil=card(5, (), 2), ennis=card(3, (), 2, ("paper-wolf",)), worry_level=4)
    assert of_type(state, DreamTogether) == []
    powers = [a for a in of_type(state, UsePower) if a.power == "insight:paper-wolf"]
    assert powers and all(a.character == "ennis" for a in powers)
    state, _ = play(state, "player", UsePower("ennis", "insight:paper-wolf", "hand", 3, 4))
    assert state.ennis.hand == 4
    state, _ = play(state, "player", DreamTogether())
    assert state.step == "pay"
    assert of_type(state, UsePower) == []


def test_dreaming_alone_is_chosen_by_the_dreamers_seat() -> None:
    state = _night(COOP, gil=card(4, (), 2), ennis=card(4, (), 2))
    assert of_type(state, DreamAlone, "gil") == [DreamAlone("gil")]
    with pytest.raises(NotYourTurn):
        play(state, "gil", DreamAlone("ennis"))
    # Together and not dreaming are open to both seats.
    for seat in COOP:
        assert DreamTogether() in actions(state, seat)
        assert SkipDream() in actions(state, seat)


def test_only_the_dreamers_seat_pays_and_wakes_when_dreaming_alone() -> None:
    state = _night(COOP, gil=card(5, (4,), 2), ennis=card(4, (), 2))
    state, _ = play(state, "gil", DreamAlone("gil"))
    assert actions(state, "ennis") == []
    with pytest.raises(NotYourTurn):
        play(state, "ennis", Wake())
