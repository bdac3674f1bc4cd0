"""Samplers keep what a seat sees and redraw the rest from the bot's generator."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.rng import Chance, Rng
from domain.eila.game import GAME as EILA
from domain.eila.sampling import sample as eila_sample
from domain.eila.state import EilaState
from domain.gil_ennis.game import GilEnnisGame
from domain.gil_ennis.sampling import sample as gil_ennis_sample
from domain.machina.game import MachinaGame
from domain.machina.sampling import sample as machina_sample
from tests.domain.bots.worlds import fresh, played

GIL_ENNIS = GilEnnisGame()
MACHINA = MachinaGame()


def _eila(state: EilaState, seat: str | None, chance: Chance) -> EilaState:
    return eila_sample(EILA.pack, state, seat, chance)


CASES: list[tuple[Any, Any, tuple[str, ...], dict[str, Any]]] = [
    (GIL_ENNIS, gil_ennis_sample, ("player",), {}),
    (GIL_ENNIS, gil_ennis_sample, ("gil", "ennis"), {}),
    (MACHINA, machina_sample, ("ada", "bram"), {}),
    (EILA, _eila, ("player",), {"chapter": 1}),
    (EILA, _eila, ("player",), {"chapter": 3}),
]


@pytest.mark.parametrize(("game", "sample", "seats", "options"), CASES)
@pytest.mark.parametrize("moves", [0, 12, 40])
def test_a_sample_looks_the_same_to_the_seat(
    game: Any, sample: Any, seats: tuple[str, ...], options: dict[str, Any], moves: int
) -> None:
    state = played(game, fresh(game, seats, 5, options), moves, seed=moves)
    for n in range(3):
        world = sample(state, seats[0], Chance(Rng(n)))
        for seat in (*seats, None):
            assert game.view(world, seat) == game.view(state, seat)
        assert world.rng != state.rng  # the dice to come are unknown


@pytest.mark.parametrize(("game", "sample", "seats", "options"), CASES)
def test_a_sample_does_not_depend_on_the_hidden_order(
    game: Any, sample: Any, seats: tuple[str, ...], options: dict[str, Any]
) -> None:
    state = played(game, fresh(game, seats, 8, options), 20, seed=3)
    other = _hidden_changed(state)
    assert other != state
    assert sample(other, seats[0], Chance(Rng(4))) == sample(state, seats[0], Chance(Rng(4)))


def test_the_dream_deck_is_shuffled_and_keeps_its_cards() -> None:
    state = fresh(GIL_ENNIS, ("player",), 2)
    orders = {gil_ennis_sample(state, "player", Chance(Rng(n))).deck for n in range(8)}
    assert len(orders) > 1
    assert all(sorted(order) == sorted(state.deck) for order in orders)


def test_the_mines_face_up_tiles_stay_where_they_are() -> None:
    state = fresh(EILA, ("player",), 6, {"chapter": 3})
    assert state.mine is not None
    worlds = [_eila(state, "player", Chance(Rng(n))).mine for n in range(8)]
    assert len({w.tiles for w in worlds if w is not None}) > 1
    for world in worlds:
        assert world is not None
        for slot in state.mine.face_up:
            assert world.tiles[slot] == state.mine.tiles[slot]


def _hidden_changed(state: Any) -> Any:
    """``state`` with its face-down piles turned over and another campaign generator: the same
    table, other secrets."""
    changes: dict[str, Any] = {"rng": Rng(state.rng.seed ^ 0x5EED, state.rng.draws, "other")}
    for name in ("deck", "map_deck", "monster_deck", "horror_deck", "item_deck", "future", "past"):
        if name in state.__struct_fields__:
            changes[name] = tuple(reversed(getattr(state, name)))
    if isinstance(state, EilaState):
        top, bottom = state.known_on_top, len(state.upcoming) - state.known_at_bottom
        middle = tuple(reversed(state.upcoming[top:bottom]))
        changes["upcoming"] = (*state.upcoming[:top], *middle, *state.upcoming[bottom:])
    return msgspec.structs.replace(state, **changes)
