"""The kit's promises beyond the view over Dice Race (``tests/support/dice_race.py``): chance that
does not move with the generator, a reducer that changes its state, a state that does not come
back whole from a snapshot, and a race that can go on past the longest it declares."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.rng import Chance, Rng
from domain.kit import Broken, Budget, check_game
from tests.support.dice_race import DiceRace, DiceRaceState, Roll, Rolled

SMALL = Budget(playthroughs=6, moves=60)


def promises(found: list[Broken]) -> set[str]:
    return {broken.promise for broken in found}


class SeedOnly(DiceRace):
    """Rolls from the generator's seed alone, leaving out its salt (as ``random.Random(seed)``
    would): a fork the server reseeds with a new salt rolls the same."""

    def decide(self, state: DiceRaceState, seat: str, action: Any) -> list[Any]:
        events = super().decide(state, seat, action)
        if isinstance(action, Roll):
            chance = Chance(Rng(state.rng.seed, state.rng.draws))
            return [Rolled(seat, chance.die(), chance.draws)]
        return events

    def setup(self, state: DiceRaceState) -> list[Any]:
        return super().setup(msgspec.structs.replace(state, rng=Rng(state.rng.seed)))


def test_chance_that_leaves_out_the_salt_breaks_chance_from_the_generator() -> None:
    found = check_game(SeedOnly(), SMALL)
    assert promises(found) == {"chance-from-the-generator"}
    assert "Reseeded with another salt (the same seed)" in found[0].detail
    assert "6 playthroughs (seeds 1-6)" in found[0].detail


class Chanceless(DiceRace):
    """Says chance plays a part, and rolls a die that always shows 4."""

    def decide(self, state: DiceRaceState, seat: str, action: Any) -> list[Any]:
        events = super().decide(state, seat, action)
        if isinstance(action, Roll):
            return [Rolled(seat, 4, state.rng.draws)]
        return events

    def setup(self, state: DiceRaceState) -> list[Any]:
        return [type(super().setup(state)[0])(0, 0)]


def test_a_game_whose_luck_never_moves_breaks_it_for_both_reseedings() -> None:
    found = check_game(Chanceless(), SMALL)
    assert [b.detail.split(" at the set-up")[0] for b in found] == [
        "Reseeded with another salt (the same seed)",
        "Reseeded with another seed (the same salt)",
    ]


class LogState(DiceRaceState, frozen=True):
    faces: list[int] = msgspec.field(default_factory=list)


class Remembers(DiceRace):
    """Keeps every face rolled in a list, appending to the list of the state it was given."""

    state_type: Any = LogState

    def initial(self, created: Any) -> Any:
        state = super().initial(created)
        return LogState(state.rng, state.seats, state.target, state.totals)

    def evolve(self, state: DiceRaceState, event: Any) -> DiceRaceState:
        after = super().evolve(state, event)
        if isinstance(event, Rolled) and isinstance(state, LogState):
            state.faces.append(event.face)
        return after


def test_a_play_that_changes_the_state_it_was_given_breaks_no_mutation() -> None:
    found = check_game(Remembers(), SMALL)
    mutation = [b for b in found if b.promise == "no-mutation"]
    assert mutation, found
    assert mutation[0].seed == 1
    assert "play changed the state it was given" in mutation[0].detail
    assert mutation[0].detail.endswith("field faces.")


class AnyTotals(msgspec.Struct, frozen=True):
    rng: Rng
    seats: tuple[str, ...]
    target: int
    totals: Any = ()
    turn: int = -1
    winner: str | None = None


class LooseTotals(DiceRace):
    """Keeps its totals in a field typed ``Any``: a tuple that a snapshot gives back as a list."""

    state_type: Any = AnyTotals

    def initial(self, created: Any) -> Any:
        state = super().initial(created)
        return AnyTotals(state.rng, state.seats, state.target, state.totals)


def test_a_tuple_in_a_field_typed_any_breaks_snapshot_and_names_the_field() -> None:
    found = check_game(LooseTotals(), SMALL)
    assert promises(found) == {"snapshot"}
    assert found[0].version == 1
    assert found[0].detail == (
        "Read back from a snapshot, field totals: a tuple came back as a list."
    )


class Longest(DiceRace):
    """Declares that no race takes more than 3 moves."""

    info = msgspec.structs.replace(DiceRace.info, longest=3)


def test_a_race_still_running_after_the_longest_it_declares_breaks_ends() -> None:
    found = check_game(Longest(), Budget(playthroughs=3))
    assert promises(found) == {"ends"}
    assert "still running after 3 moves, the longest campaign the game declares" in (
        found[0].detail
    )


def test_a_budget_of_fewer_moves_than_the_longest_judges_no_ending() -> None:
    assert check_game(DiceRace(), Budget(playthroughs=3, moves=2)) == []


class EndlessChapter(DiceRace):
    """Played in chapters, each attempt at most 6 moves long, it says; but the race to 1,000
    never leaves its first attempt."""

    info = msgspec.structs.replace(DiceRace.info, chapters=True, longest=6)


def test_an_attempt_at_a_chapter_longer_than_the_longest_declared_breaks_ends() -> None:
    found = check_game(EndlessChapter(), Budget(playthroughs=2, options={"target": 1000}))
    assert promises(found) == {"ends"}
    assert found[0].detail.startswith(
        "A random playthrough is still running after 6 moves, the longest attempt at a chapter "
        "the game declares"
    )
