"""The content pack in play, for a game whose rules read their content as module data.

Gil & Ennis and Machina load their content once, at import, and their rules read it from there.
A campaign of an older ruleset is played by the same rules over the pack of its time: the
game built for that ruleset (:class:`PlayedWith`) puts its pack in play for the length of each
call, and the rules read the pack in play (``content()``) rather than the module's own. A
context variable carries it, so that threads and tasks playing other campaigns at the same time
each see their own; outside any such call the pack in play is the newest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Generic, TypeVar

from domain.core.game import GameInfo

T = TypeVar("T")


class InPlay(Generic[T]):
    """A game's pack in play: the newest unless a call of an older ruleset's game is running."""

    def __init__(self, name: str, newest: T) -> None:
        self.newest = newest
        self._var: ContextVar[T] = ContextVar(name, default=newest)
        self.get: Callable[[], T] = self._var.get
        """The pack in play now."""

    @contextmanager
    def playing(self, pack: T) -> Iterator[None]:
        token = self._var.set(pack)
        try:
            yield
        finally:
            self._var.reset(token)


class PlayedWith:
    """``game`` (the game of the ruleset in force) played over another content pack: every
    attribute is the game's, and every method runs with ``pack`` in play in ``in_play``.

    The game's methods return finished values (lists, Structs), never lazy iterators, so
    nothing the rules compute escapes the call that put the pack in play."""

    def __init__(
        self, game: Any, info: GameInfo, in_play: InPlay[Any], pack: Any, folder: Path
    ) -> None:
        self._game = game
        self._in_play = in_play
        self._pack = pack
        self.info = info
        self.folder = folder
        """Where the pack's files lie."""

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._game, name)
        if not callable(found) or isinstance(found, type):
            return found
        playing, pack = self._in_play.playing, self._pack

        def played(*args: Any, **kwargs: Any) -> Any:
            with playing(pack):
                return found(*args, **kwargs)

        played.__name__ = name
        setattr(self, name, played)  # once per method and game: later calls skip __getattr__
        return played
