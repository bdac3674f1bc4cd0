"""The game kit over a tiny game (Dice Race, ``tests/support/dice_race.py``): it keeps every
promise, and each copy broken in one way is caught by the promise it breaks, with the seed and the
version where it broke. (Broken copies of a game with hidden hands are in
``tests/cli/test_check_game.py``.)"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.errors import ContentError
from domain.core.game import LegalAction
from domain.kit import Broken, Budget, check_game
from tests.support.dice_race import DiceRace, DiceRaceState, Hold, Rolled

SMALL = Budget(playthroughs=6, moves=60)


def promises(found: list[Broken]) -> set[str]:
    return {broken.promise for broken in found}


def test_a_game_that_keeps_its_promises_passes() -> None:
    assert check_game(DiceRace(), SMALL) == []


class HoldsLate(DiceRace):
    """Lists a hold only while the seat's total is under 5, but accepts one at any time: the
    rule is in the listing and not in decide."""

    def legal_actions(self, state: DiceRaceState, seat: str) -> list[LegalAction]:
        listed = super().legal_actions(state, seat)
        if state.totals[state.seats.index(seat)] < 5:
            return listed
        return [a for a in listed if not isinstance(a.action, Hold)]


def test_an_action_accepted_where_it_is_not_listed_breaks_nothing_else_applies() -> None:
    found = check_game(HoldsLate(), SMALL)
    assert promises(found) == {"nothing-else-applies"}
    assert "is not offered 'hold' ('Hold') and decide accepts it" in str(found[0])


class Stuck(DiceRace):
    """Nobody may act once a seat passes 10, though the race goes on."""

    def to_act(self, state: DiceRaceState) -> tuple[str, ...]:
        return () if max(state.totals) > 10 else super().to_act(state)


def test_a_running_game_where_nobody_may_act_breaks_someone_acts() -> None:
    found = check_game(Stuck(), SMALL)
    assert "someone-acts" in promises(found)


class EagerTurn(DiceRace):
    """Names a seat to act before the set-up has said who starts, with nothing to offer it."""

    def to_act(self, state: DiceRaceState) -> tuple[str, ...]:
        return (state.seats[0],) if state.turn < 0 else super().to_act(state)


def test_a_seat_to_act_without_legal_actions_at_creation_breaks_every_state_shows() -> None:
    found = check_game(EagerTurn(), Budget(playthroughs=2, moves=10))
    assert promises(found) == {"every-state-shows"}
    assert found[0].version == 1
    assert "the seats with legal actions: []" in found[0].detail


class Counting(DiceRace):
    """Its evolve counts how often it was called: a replay gives other totals."""

    def __init__(self) -> None:
        self.calls = 0

    def evolve(self, state: DiceRaceState, event: Any) -> DiceRaceState:
        state = super().evolve(state, event)
        if isinstance(event, Rolled):
            self.calls += 1
            return msgspec.structs.replace(state, target=state.target + self.calls % 2)
        return state


def test_an_evolve_with_a_memory_of_its_own_breaks_replay() -> None:
    found = check_game(Counting(), Budget(playthroughs=1, moves=20))
    replay = [b for b in found if b.promise == "replay"]
    assert replay, found
    assert replay[0].seed == 1 and replay[0].version is not None
    assert "leaves another state" in replay[0].detail


class Hidden(DiceRace):
    """Claims to hide something but gives the kit no sampler to check its views with."""

    info = msgspec.structs.replace(DiceRace.info, hidden_information=True)


def test_a_game_that_hides_information_without_a_sampler_is_told_so() -> None:
    found = check_game(Hidden(), Budget(playthroughs=1, moves=5))
    assert promises(found) == {"views-hide"}
    assert "has no sampler" in found[0].detail


class BadContent(DiceRace):
    def content_errors(self) -> list[ContentError]:
        return [ContentError("dice.json", "d6", "faces", "must be 1 to 6.")]


def test_content_errors_are_broken_promises_of_content() -> None:
    found = check_game(BadContent(), Budget(playthroughs=1, moves=5))
    assert [str(b) for b in found] == [
        "Broken promise 'content' (dice-race/1): content passes its checks. "
        "dice.json, card d6, field faces: must be 1 to 6."
    ]


def test_a_broken_promise_names_the_ruleset_the_seed_the_seats_and_the_version() -> None:
    broken = Broken(
        "forkable", "It could not go on.", 7, 12, seats=("red", "blue"), ruleset="dice-race/1"
    )
    assert str(broken) == (
        "Broken promise 'forkable' (dice-race/1, seed 7, seats red, blue, version 12): every "
        "decision point can be forked. It could not go on."
    )


class CrashesOnHold(DiceRace):
    """Offers a hold and crashes on it, as a rule with a bug would."""

    def decide(self, state: DiceRaceState, seat: str, action: Any) -> list[Any]:
        if isinstance(action, Hold):
            raise KeyError("holds")
        return super().decide(state, seat, action)


def test_a_listed_action_that_crashes_breaks_legal_actions_apply_and_the_kit_goes_on() -> None:
    found = check_game(CrashesOnHold(), Budget(playthroughs=3, moves=20))
    applies = [b for b in found if b.promise == "legal-actions-apply"]
    assert [b.seed for b in applies] == [1, 2, 3]  # the kit goes on to the next playthrough
    assert all("raised KeyError: 'holds'" in b.detail for b in applies)
    # The crash also breaks what else it touches: a fork's first listed action, and a hold
    # offered to the seat whose turn it is not, which the server would answer with an error.
    assert promises(found) == {"legal-actions-apply", "forkable", "nothing-else-applies"}


class Released(DiceRace):
    """Lists an older ruleset that plays, one whose game names another ruleset, and one that
    cannot be built."""

    def releases(self) -> dict[str, Any]:
        older = DiceRace()
        older.info = msgspec.structs.replace(older.info, ruleset="dice-race/0")
        misnamed = DiceRace()

        def broken() -> Any:
            raise KeyError("pack 0")

        return {"dice-race/0": lambda: older, "dice-race/00": lambda: misnamed, "x": broken}


def test_an_older_ruleset_that_does_not_build_its_own_game_breaks_releases() -> None:
    found = [b for b in check_game(Released(), Budget(playthroughs=1, moves=5))]
    assert [b.promise for b in found] == ["releases", "releases"]
    assert "'dice-race/00': it builds dice-race by 'dice-race/1'" in found[0].detail
    assert "'x': 'pack 0'" in found[1].detail


def test_the_shipped_games_keep_their_releases() -> None:
    from domain.games import get_game
    from domain.kit.checks import releases_broken

    for name in ("gil-ennis", "eila", "machina"):
        assert releases_broken(get_game(name)) == []
