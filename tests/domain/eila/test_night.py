from __future__ import annotations

from pathlib import Path

from domain.core.rng import Chance
from domain.eila.events import FutureShuffled, TimeMarked
from tests.domain.eila.helpers import Table, chapter_zero, make_game, option


def _to_night(tmp_path: Path, **goal: object) -> Table:
    cards = {f"00{n}": [option("A", [], "future")] for n in range(1, 6)}
    table = Table(make_game(tmp_path, [chapter_zero(cards, **goal)]))
    while table.state.phase != "night":
        table.do("A:")
    return table


def test_at_most_two_submissions_a_night(tmp_path: Path) -> None:
    table = _to_night(tmp_path, submit={"food": 3})
    table.give(food=3, energy=1)
    table.do("Submit 1 Food to the goal card")
    table.do("Submit 1 Food to the goal card")
    assert table.state.submitted.food == 2
    assert table.labels()[0] == "End the night's submissions"
    assert not any(label.startswith("Submit") for label in table.labels())


def test_submitting_nothing_is_allowed(tmp_path: Path) -> None:
    table = _to_night(tmp_path)
    table.give(food=2, energy=1)
    table.do("End the night's submissions")
    assert table.state.submitted.food == 0
    assert table.state.day == 2


def test_only_goal_resources_still_needed_can_be_submitted(tmp_path: Path) -> None:
    table = _to_night(tmp_path, submit={"food": 1})
    table.give(food=2, coin=2)
    assert [label for label in table.labels() if label.startswith("Submit")] == [
        "Submit 1 Food to the goal card"
    ]


def test_energy_goes_on_the_time_track(tmp_path: Path) -> None:
    table = _to_night(tmp_path)
    table.give(energy=2)
    hp = table.state.hp
    assert TimeMarked("energy") in table.do("End the night's submissions")
    assert table.state.time_track == ("energy",)
    assert (table.state.resources.energy, table.state.hp) == (1, hp)


def test_without_energy_a_heart_goes_on_the_time_track(tmp_path: Path) -> None:
    table = _to_night(tmp_path)
    hp = table.state.hp
    assert TimeMarked("heart") in table.do("End the night's submissions")
    assert table.state.time_track == ("heart",)
    assert table.state.hp == hp - 1


def test_the_future_is_shuffled_into_the_upcoming_deck(tmp_path: Path) -> None:
    table = _to_night(tmp_path)
    table.give(energy=1)
    before = table.state
    events = table.do("End the night's submissions")
    shuffle = next(e for e in events if isinstance(e, FutureShuffled))
    chance = Chance(before.rng)
    assert shuffle.order == chance.shuffled(before.future)
    assert shuffle.draws == chance.rng.draws
    assert sorted(shuffle.order) == ["001", "002", "003", "004", "005"]
    # The new day has begun: its first card is revealed.
    assert table.state.day == 2 and table.state.future == ()
    assert table.state.present == shuffle.order[0]
    assert table.state.rng.draws == shuffle.draws
