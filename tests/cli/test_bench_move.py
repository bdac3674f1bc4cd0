"""``tabletale bench move``: the moves it times are legal playthroughs, chosen the same each run,
and it prints its figure."""

from __future__ import annotations

import json

import pytest

from cli.bench_move import bench_move, playthroughs
from domain.games import get_game


def test_the_same_games_are_chosen_each_run_and_a_journey_is_played_to_its_end() -> None:
    game = get_game("gil-ennis")
    first = playthroughs(game, ("player",), {}, 3)
    again = playthroughs(game, ("player",), {}, 3)
    assert [p.moves for p in first] == [p.moves for p in again]
    for played in first:
        state = played.start
        for seat, action_id in played.moves:
            action = next(a for a in game.legal_actions(state, seat) if a.id == action_id)
            state = game.play(state, seat, action.action)[-1][1]
        assert game.outcome(state) != "running"


@pytest.mark.parametrize(
    ("name", "seats", "options"),
    [("gil-ennis", ["gil", "ennis"], {}), ("eila", [], {"chapter": 2}), ("machina", [], {})],
)
def test_the_figure_is_printed_for_every_game(
    name: str, seats: list[str], options: dict[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    status = bench_move(
        game_name=name, seats=seats, options=options, games=2, rounds=2, as_json=True
    )
    figures = json.loads(capsys.readouterr().out)
    assert status == 0
    assert figures["game"] == name and figures["rounds"] == 2
    assert figures["seats"] == (seats or list(get_game(name).info.seat_layouts[0]))
    assert figures["moves"] > 0 and figures["us_per_move"] > 0
