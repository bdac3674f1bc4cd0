"""The game kit as a pytest plugin. A game's own tests load it from their ``conftest.py``
(``pytest_plugins = ["cli.pytest_kit"]``) and ask the ``keeps_promises`` fixture to check their
game: the test fails with every broken promise, its seed and its version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cli.game_source import spec_of
from cli.kit_processes import across_processes
from domain.core.game import Game
from domain.kit import Budget, check_game

Check = Callable[..., None]


def assert_keeps_promises(game: Game, **budget: Any) -> None:
    """Fail the test unless ``game`` keeps every promise, in this process and in another;
    ``budget`` as :class:`Budget`'s fields (``playthroughs``, ``moves``, ``seed``,
    ``options``)."""
    chosen = Budget(**budget)
    broken = check_game(game, chosen)
    broken += across_processes(game, spec_of(game, ""), chosen)
    if broken:
        pytest.fail("\n".join(str(found) for found in broken), pytrace=False)


@pytest.fixture
def keeps_promises() -> Check:
    return assert_keeps_promises
