"""The game kit: the promises every game makes to the server, checked over seeded random
playthroughs through the game contract alone (``tabletale check-game``; a game's own tests use
it through the pytest plugin in :mod:`cli.pytest_kit`)."""

from __future__ import annotations

from domain.kit.checks import Budget, check_game
from domain.kit.promises import PROMISES, Broken

__all__ = ["PROMISES", "Broken", "Budget", "check_game"]
