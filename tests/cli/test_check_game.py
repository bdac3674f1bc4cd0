"""``tabletale check-game``: the shipped games and the example keep their promises, by name and
by folder. (Broken copies of the example, each failure naming the promise, the seed and the
version, are in ``test_planted_bugs.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from domain.games import GAMES
from tests.examples.lighthouse import FOLDER, GAME


@pytest.fixture(autouse=True)
def _lighthouse_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "lighthouse", GAME)


@pytest.mark.parametrize("name", ["gil-ennis", "eila", "machina", "lighthouse", str(FOLDER)])
def test_the_shipped_games_and_the_example_keep_every_promise(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-game", name, "--playthroughs", "12"]) == 0
    out = capsys.readouterr().out
    assert "12 playthroughs (seeds 1-12" in out
    assert "broken" not in out


def test_a_folder_without_a_game_package_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-game", str(tmp_path)]) == 2
    assert f"There is no game package in {tmp_path}" in capsys.readouterr().err


def test_an_unknown_name_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-game", "lighthouses"]) == 2
    assert "There is no game called 'lighthouses'" in capsys.readouterr().err
