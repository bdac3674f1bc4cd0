from __future__ import annotations

from pathlib import Path

import msgspec

from domain.eila import GAME
from domain.eila.events import FutureShuffled
from tests.domain.eila.helpers import Table, chapter_zero, make_game, option


def test_view_hides_deck_order_and_the_seed() -> None:
    table = Table(GAME, seed=12345)
    view = GAME.view(table.state, "player")
    encoded = msgspec.json.encode(view)
    assert b"rng" not in encoded and b"12345" not in encoded
    assert view.upcoming_count == 4
    assert view.upcoming_known_on_top == ()
    assert view.blue_deck_count == 3 and view.red_deck_count == 3
    assert view.present is not None and view.present.number == "001"
    # No upcoming, blue or red card numbers appear anywhere in the view.
    for number in ("002", "006", "009"):
        assert number.encode() not in encoded
    assert GAME.view(table.state, None) == view


def test_a_red_card_just_put_on_top_is_known(tmp_path: Path) -> None:
    table = Table(
        make_game(
            tmp_path,
            [
                chapter_zero(
                    {
                        "001": [option("A", [{"red": "010"}, {"gain": "food", "max": 1}])],
                    }
                )
            ],
        )
    )
    table.do("A:")
    view = table.game.view(table.state, "player")
    assert view.upcoming_known_on_top == ("010",)
    table.do("Take no")
    assert table.game.view(table.state, "player").upcoming_known_on_top == ()


def test_future_and_past_show_counts_only(tmp_path: Path) -> None:
    table = Table(make_game(tmp_path, [chapter_zero({"001": [option("A", [], "future")]})]))
    table.do("A:")
    table.do("A:")
    view = table.game.view(table.state, "player")
    assert (view.future_count, view.past_count) == (1, 1)


def test_redact_hides_the_shuffle_order() -> None:
    event = FutureShuffled(("003", "001"), draws=7, count=2)
    redacted = GAME.redact(event, "player")
    assert isinstance(redacted, FutureShuffled)
    assert (redacted.order, redacted.draws, redacted.count) == ((), 0, 2)


def test_describe_gives_readable_lines() -> None:
    table = Table(GAME)
    lines = [GAME.describe(e, table.state) for e in table.events[-1:]]
    assert lines == ["Chapter 0, day 1: Eila reveals 001, Brackenford at Dawn"]
