"""The guide (``docs/games.md``) and the example (``examples/lighthouse``) are the same game: every
file the guide shows is the example's, whole, and every file of the example is shown."""

from __future__ import annotations

import re

import pytest

from cli.main import main
from domain.games import GAMES
from tests.examples.guide import GUIDE, guide_files
from tests.examples.lighthouse import FOLDER, GAME

KINDS = {".py", ".json", ".toml"}


def test_every_file_of_the_guide_is_the_examples_and_every_file_is_shown() -> None:
    shown = guide_files()
    example = {
        str(path.relative_to(FOLDER)): path.read_text()
        for path in sorted(FOLDER.rglob("*"))
        if path.is_file()
        and path.suffix in KINDS
        and not any(part.startswith(".") or part.endswith(".egg-info") for part in path.parts)
        and "build" not in path.relative_to(FOLDER).parts
    }
    assert sorted(shown) == sorted(example)
    for path, text in shown.items():
        assert text == example[path], f"docs/games.md shows another {path} than the example's"


def _shown_after(command: str) -> list[str]:
    """The lines of the output block the guide shows right after ``command``'s block."""
    text = GUIDE.read_text()
    after = text[text.index(f"```sh\n{command}\n```") :]
    start = after.index("```\n", len(command) + 10) + 4
    return after[start : after.index("```", start)].splitlines()


def test_the_guides_check_game_output_is_what_the_kit_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(GAMES, "lighthouse", GAME)
    assert main(["check-game", "lighthouse"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = _shown_after(".venv/bin/tabletale check-game lighthouse")
    assert re.sub(r"in [\d.]+ s$", "", shown[0]) == re.sub(r"in [\d.]+ s$", "", printed[0])
    assert shown[1:] == printed[1:]


def test_the_guides_games_listing_is_what_tabletale_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["games"])
    printed = capsys.readouterr().out.splitlines()
    shown = _shown_after(".venv/bin/tabletale games")
    assert shown[0] == printed[0]
    shipped = [line for line in shown[1:] if "lighthouse" not in line]
    assert shipped == [line for line in printed[1:] if "lighthouse" not in line]
