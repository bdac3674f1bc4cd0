"""The registry finds games through their entry points and sets aside, with the reason, any that
cannot be served, while the others still serve."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from domain.core.errors import UnknownGame
from domain.core.game import CONTRACT_VERSION
from domain.games import REGISTRY, get_game, registry_of
from domain.gil_ennis.game import GilEnnisGame
from domain.machina import GAME as MACHINA


@dataclass(frozen=True)
class FakeEntry:
    name: str
    value: str
    loaded: Any

    def load(self) -> Any:
        if isinstance(self.loaded, Exception):
            raise self.loaded
        return self.loaded


class OtherContract(GilEnnisGame):
    contract = CONTRACT_VERSION + 1


class Renamed(GilEnnisGame):
    info = msgspec.structs.replace(GilEnnisGame.info, name="gil")


def test_the_shipped_games_register_through_their_entry_points() -> None:
    sources = {name: found.source for name, found in REGISTRY.games.items()}
    assert sources["gil-ennis"] == "domain.gil_ennis:GAME"
    assert sources["eila"] == "domain.eila:GAME"
    assert sources["machina"] == "domain.machina:GAME"
    assert get_game("machina") is MACHINA


def test_a_package_that_fails_to_import_is_named_with_the_reason_and_the_others_serve() -> None:
    registry = registry_of(
        [
            FakeEntry("broken", "broken_game:GAME", ModuleNotFoundError("No module named 'dice'")),
            FakeEntry("machina", "domain.machina:GAME", MACHINA),
        ]
    )
    assert list(registry.games) == ["machina"]
    assert "broken_game:GAME could not be imported" in registry.failed["broken"]
    assert "No module named 'dice'" in registry.failed["broken"]


def test_a_game_written_for_another_contract_version_is_refused() -> None:
    registry = registry_of([FakeEntry("gil-ennis", "newer:GAME", OtherContract())])
    assert registry.games == {}
    reason = registry.failed["gil-ennis"]
    assert f"version {CONTRACT_VERSION + 1} of the game contract" in reason
    assert f"implements version {CONTRACT_VERSION}" in reason


def test_an_object_that_is_no_game_is_refused() -> None:
    registry = registry_of([FakeEntry("nothing", "nothing:GAME", object())])
    assert "It is not a game: it has no info" in registry.failed["nothing"]


def test_a_game_registered_under_another_name_is_refused() -> None:
    registry = registry_of([FakeEntry("gil-ennis", "renamed:GAME", Renamed())])
    assert "registered as 'gil-ennis' but calls itself 'gil'" in registry.failed["gil-ennis"]


def test_a_second_game_of_the_same_name_is_refused_and_the_first_serves() -> None:
    registry = registry_of(
        [
            FakeEntry("machina", "a:GAME", MACHINA),
            FakeEntry("machina", "b:GAME", MACHINA),
        ]
    )
    assert registry.games["machina"].source == "a:GAME"
    assert (
        "b:GAME also calls itself 'machina', which a:GAME already is" in registry.failed["machina"]
    )


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match=r"known games: .*eila, gil-ennis, .*machina"):
        get_game("chess")
