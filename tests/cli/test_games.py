from __future__ import annotations

import pytest

from cli.games import list_games
from cli.main import main
from domain.games import Registry


def test_every_installed_game_is_listed_with_its_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "machina      Machina Arcana: To Eternity (machina/" in out
    assert "from domain.gil_ennis:GAME" in out
    assert "eila" in out


def test_a_game_set_aside_is_named_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    registry = Registry(failed={"broken": "broken:GAME could not be imported: ImportError: no."})
    assert list_games(registry) == 1
    captured = capsys.readouterr()
    assert "none" in captured.out
    assert "the game 'broken' cannot be served. broken:GAME could not be imported" in captured.err
