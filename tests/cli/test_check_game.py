"""``tabletale check-game``: the shipped games and the example keep their promises, and broken
copies of the example are caught, each failure naming the promise, the seed and the version."""

from __future__ import annotations

import re

import pytest

from cli.main import main
from domain.core.game import Game
from domain.games import GAMES
from tests.examples.lighthouse import GAME, ClockShuffle, LeakyView, RefusesBeacons


@pytest.fixture(autouse=True)
def _lighthouse_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "lighthouse", GAME)


@pytest.mark.parametrize("name", ["gil-ennis", "eila", "machina", "lighthouse"])
def test_the_shipped_games_and_the_example_keep_every_promise(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-game", name, "--playthroughs", "12"]) == 0
    out = capsys.readouterr().out
    assert "12 playthroughs (seeds 1-12" in out
    assert "broken" not in out


def _broken(copy: Game, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(GAMES, "lighthouse", copy)
    assert main(["check-game", "lighthouse", "--playthroughs", "12"]) == 1
    captured = capsys.readouterr()
    return captured.out + captured.err


def _promises(text: str) -> set[str]:
    found = r"Broken promise '([a-z-]+)' \(lighthouse/1\+content\.1, seed \d+, seats isla, tom"
    return set(re.findall(found, text))


def test_a_view_that_shows_another_seats_hand_is_caught(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _broken(LeakyView(), capsys, monkeypatch)
    assert _promises(text) == {"views-hide"}
    assert re.search(r"version \d+\): no seat's view.*The view channel: the view of seat 'isla' changed", text)
    assert "field your_lamps" in text
    assert "  broken  no seat's view or legal actions, nor the spectator's" in text


def test_a_rule_that_reads_the_clock_is_caught(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _broken(ClockShuffle(), capsys, monkeypatch)
    assert "deterministic" in _promises(text)
    where = "(lighthouse/1+content.1, seed 1, seats isla, tom, version 2)"
    assert f"Broken promise 'deterministic' {where}" in text
    assert "Played again, version 2 is" in text


def test_a_listed_action_that_is_refused_is_caught(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _broken(RefusesBeacons(), capsys, monkeypatch)
    assert _promises(text) == {"legal-actions-apply"}
    assert re.search(r"is offered 'light:beacon-\d' \('Light the Beacon \(5\)'\)", text)
    assert "Beacons are not lit on these nights." in text
