"""The registry of games by their API name."""

from __future__ import annotations

from domain.core.errors import UnknownGame
from domain.core.game import Game


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    try:
        from domain.gil_ennis import GAME as gil_ennis

        games[gil_ennis.name] = gil_ennis
    except Exception:  # noqa: BLE001 - TEMP while packages are built
        pass
    try:
        from domain.eila import GAME as eila

        games[eila.name] = eila
    except Exception:  # noqa: BLE001 - TEMP
        pass
    return games


GAMES: dict[str, Game] = _load()


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGame(f"There is no game called {name!r}; known games: {known}.") from None
