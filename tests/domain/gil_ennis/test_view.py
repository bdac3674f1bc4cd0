from __future__ import annotations

import msgspec

from domain.core.game import action_id
from domain.gil_ennis import GAME
from domain.gil_ennis.actions import Hike, SkipDream, TurnIn
from domain.gil_ennis.events import DreamsShuffled, Hiked
from tests.domain.gil_ennis.helpers import COOP, build, card, fresh, legal, play


def test_the_view_hides_the_seed_and_the_dream_decks_order() -> None:
    state = fresh(seed=987654321)
    for seat in ("player", None):
        shown = GAME.view(state, seat)
        assert not hasattr(shown, "rng") and not hasattr(shown, "deck")
        text = msgspec.json.encode(shown).decode()
        assert "987654321" not in text
        assert not any(card in text for card in state.deck)
        assert shown.deck_count == 6


def test_the_view_shows_the_table() -> None:
    state = build(phase="pitch", day=2, worry_level=8, gil=card(5, (3,), 2))
    shown = GAME.view(state, "player")
    assert shown.gil == state.gil
    assert shown.worry_dice == (6, 2)
    assert shown.campsite == "lantern-rock"


def test_redact_replaces_the_shuffle_order_with_a_count() -> None:
    shuffled = DreamsShuffled(("a", "b"), 2, 17)
    for seat in ("gil", None):
        assert GAME.redact(shuffled, seat) == DreamsShuffled((), 2, 17)
    assert GAME.redact(Hiked(1, "hollow-creek"), "gil") == Hiked(1, "hollow-creek")


def test_describe_gives_a_day_line_for_the_timeline() -> None:
    state, events = play(fresh(), "player", Hike())
    line = GAME.describe(events[0], state)
    assert line == "Day 1: Gil and Ennis hiked to Hollow Creek"
    night = build(phase="sleep", step="choose", day=3, deck=("paper-wolf",))
    after, events = play(night, "player", SkipDream())
    assert GAME.describe(events[-1], after) == (
        "Day 3: A restless night: the worry The Wolf Eats First took hold"
    )


def test_legal_action_ids_are_stable_unique_and_labelled() -> None:
    state = build(COOP, phase="pitch", day=3, gil=card(5, (4, 4, 2), 3), ennis=card(1, (6, 2), 2))
    for seat in COOP:
        listed = legal(state, seat)
        ids = [entry.id for entry in listed]
        assert ids == [action_id(entry.action) for entry in listed]
        assert len(set(ids)) == len(ids)
        assert all(entry.label for entry in listed)
        assert ids == [entry.id for entry in legal(state, seat)]


def test_to_act_names_the_seats_with_legal_actions() -> None:
    state = build(COOP, phase="pitch", day=1, ready=("gil",))
    assert GAME.to_act(state) == ("ennis",)


def test_turning_in_says_who_turned_in() -> None:
    pitch = build(COOP, phase="pitch", step="organize", day=2)
    after, events = play(pitch, "gil", TurnIn())
    assert GAME.describe(events[-1], after) == "Day 2: Gil turned in for the night"
    last, events = play(after, "ennis", TurnIn())
    assert GAME.describe(events[-1], last) == (
        "Day 2: Ennis turned in, and night fell over the camp"
    )
