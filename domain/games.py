"""The registry of games by their API name."""

from __future__ import annotations

from domain.core.errors import UnknownGame
from domain.core.game import Game
from domain.eila import GAME as EILA
from domain.gil_ennis import GAME as GIL_ENNIS
from domain.machina import GAME as MACHINA

GAMES: dict[str, Game] = {game.info.name: game for game in (GIL_ENNIS, EILA, MACHINA)}


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"There is no game called {name!r}; known games: {known}.") from None
