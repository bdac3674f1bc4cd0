from __future__ import annotations

from pathlib import Path

import pytest

from domain.core.errors import IllegalAction, PrerequisiteUnmet
from domain.eila.actions import ChooseOption
from domain.eila.events import CardPlaced, CardRevealed, NightBegan, OptionChosen
from tests.domain.eila.helpers import Table, chapter_zero, make_game, option


def test_reveal_choose_and_place_in_the_future_or_past(tmp_path: Path) -> None:
    game = make_game(
        tmp_path,
        [
            chapter_zero(
                {
                    "001": [option("A", [], "future"), option("B", [], "past")],
                    "002": [option("A", [], "past")],
                }
            )
        ],
    )
    table = Table(game)
    assert table.state.present == "001"
    events = table.do("A: Option A")
    assert events == [OptionChosen("A"), CardPlaced("001", "future"), CardRevealed("002")]
    assert table.state.future == ("001",)
    table.do("A:")
    assert table.state.past == ("002",)
    assert table.state.present == "003"


def test_option_returning_to_its_deck(tmp_path: Path) -> None:
    game = make_game(
        tmp_path,
        [
            chapter_zero(
                {
                    "001": [option("A", [{"blue": "006"}], "past")],
                    "002": [option("A", [{"red": "009"}], "past")],
                    "006": [option("A", [], "return")],
                    "009": [option("A", [], "return")],
                }
            )
        ],
    )
    table = Table(game)
    table.do("A:")
    table.do("A:")
    assert table.state.present == "009"
    table.do("A:")
    assert table.state.red_deck == ("009", "010", "011")


def test_golden_rule_runs_effects_left_to_right(tmp_path: Path) -> None:
    # -1 Food comes after +2 Food; choosing it needs the Food in storage already.
    game = make_game(
        tmp_path,
        [
            chapter_zero(
                {
                    "001": [
                        option(
                            "A",
                            [
                                {"gain": "food", "max": 2},
                                {"lose": "food", "amount": 1},
                                {"gain": "coin", "max": 1},
                            ],
                        ),
                        option("B", []),
                    ],
                }
            )
        ],
    )
    table = Table(game)
    assert table.labels()[0].startswith("B:")
    table.give(food=1)
    table.do("A:")
    assert table.resolving
    assert table.labels()[:3] == [
        "Take 2 Food (of +2)",
        "Take 1 Food (of +2)",
        "Take no Food (of +2)",
    ]
    table.do("Take 2 Food (of +2)")
    # The -1 Food ran on its own, and the queue paused again on the +1 Coin.
    assert table.state.resources.food == 2
    assert table.labels()[0] == "Take 1 Coin (of +1)"
    table.do("Take 1 Coin (of +1)")
    assert (table.state.resources.food, table.state.resources.coin) == (2, 1)
    assert table.state.present == "002"


def test_prerequisite_items_close_an_option(tmp_path: Path) -> None:
    game = make_game(
        tmp_path,
        [
            chapter_zero(
                {
                    "001": [option("A", []), option("B", [], requires={"items": ["I01"]})],
                }
            )
        ],
    )
    table = Table(game)
    assert [la.label for la in table.legal()] == [
        "A: Option A (card to the Past)",
        "Abandon the campaign",
    ]
    with pytest.raises(PrerequisiteUnmet, match="Basket"):
        table.act(ChooseOption("B"))
    with pytest.raises(IllegalAction):
        table.act(ChooseOption("C"))


def test_empty_upcoming_deck_begins_the_night(tmp_path: Path) -> None:
    table = Table(make_game(tmp_path, [chapter_zero()]))
    for _ in range(4):
        table.do("A:")
    events = table.do("A:")
    assert events[-1] == NightBegan()
    assert table.state.phase == "night"
    assert table.state.present == ""


def test_option_label_names_effects_and_destination(tmp_path: Path) -> None:
    game = make_game(
        tmp_path,
        [
            chapter_zero(
                {
                    "001": [
                        option("A", []),
                        option("B", [{"lose": "coin", "amount": 2}, {"item": ["I01"]}], "future"),
                    ],
                }
            )
        ],
    )
    table = Table(game)
    table.give(coin=2)
    assert "B: Option B (-2 Coin, acquire Basket, card to the Future)" in table.labels()
