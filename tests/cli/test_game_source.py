"""Where check-game finds a game, and how another process finds the same one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli.game_source import loaded, spec_of
from domain.core.errors import UnknownGame
from domain.games import get_game
from tests.examples.lighthouse import FOLDER, GAME, LighthouseGame


class Copy(LighthouseGame):
    """A game object no module holds: another process makes one of its class."""


def test_another_process_is_told_the_object_a_package_holds() -> None:
    assert spec_of(GAME, "lighthouse") == "object:lighthouse_watch:GAME"
    assert spec_of(get_game("machina"), "machina") == "object:domain.machina:GAME"


def test_a_game_no_module_holds_is_named_by_its_class() -> None:
    assert spec_of(Copy(), "lighthouse") == f"object:{__name__}:Copy()"
    with loaded(f"object:{__name__}:Copy()") as game:
        assert type(game) is Copy


def test_a_folder_is_named_by_its_path_and_loaded_apart_from_the_package_loaded_before() -> None:
    before = sys.modules["lighthouse_watch"]
    assert spec_of(GAME, str(FOLDER)) == f"path:{FOLDER}"
    with loaded(str(FOLDER)) as game:
        assert game is not GAME  # imported again, from the folder
        assert sys.modules["lighthouse_watch"] is not before
        assert game.info == GAME.info
    assert sys.modules["lighthouse_watch"] is before


def test_a_folder_whose_project_names_no_game_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "nothing"\n')
    with pytest.raises(UnknownGame, match="must name one game under"), loaded(str(tmp_path)):
        pass
