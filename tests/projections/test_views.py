from __future__ import annotations

from typing import Any

from domain.core.engine import evolve, replay
from domain.core.events import CampaignCreated
from domain.gil_ennis import GAME as GIL_ENNIS
from projections.views import Choice, choices, seat_view
from tests.support.dice_race import GAME as DICE


def started(game: Any, seats: tuple[str, ...], seed: int = 5) -> Any:
    created = CampaignCreated(game.info.name, game.info.ruleset, seed, "s", seats, {})
    state = evolve(game, None, created)
    events = [(1, created), *enumerate(game.setup(state), start=2)]
    return replay(game, events)


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_of(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_of(v)}
    return set()


def test_a_view_never_carries_the_generator_or_the_deck_order() -> None:
    state = started(GIL_ENNIS, ("gil", "ennis"))
    assert state.rng.seed == 5
    for seat in (None, "gil", "ennis"):
        view = seat_view(GIL_ENNIS, state, seat)
        assert "rng" not in keys_of(view) and "seed" not in keys_of(view)
        assert "deck" not in view and view["deck_count"] == len(state.deck)


def test_spectators_have_no_choices_and_seats_have_the_games() -> None:
    state = started(DICE, ("red", "blue"))
    (mover,) = DICE.to_act(state)
    assert choices(DICE, state, None) == []
    assert choices(DICE, state, mover) == [Choice("hold", "Hold"), Choice("roll", "Roll the die")]
    other = "blue" if mover == "red" else "red"
    assert choices(DICE, state, other) == []
