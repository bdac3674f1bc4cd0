"""Termination: every campaign ends within the longest the game declares.

A game states its longest campaign in moves (:attr:`~domain.core.game.GameInfo.longest`; for a
game played in chapters, the longest attempt at one), as OpenSpiel's games state
``max_game_length``. The kit plays each random playthrough that far, and one still running there
is named: a deck that refills forever, an ending that cannot be reached.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.core.game import Game
from domain.kit.playthrough import Played
from domain.kit.promises import Broken


def ends_broken(game: Game, played: Played, moves: int, *, chosen: bool) -> Iterator[Broken]:
    """A playthrough still running after all the moves it may take, when those reach the
    longest campaign the game declares (or the game declares none and the budget ``chosen`` no
    number of moves). In a game played in chapters the longest is one attempt's, so only the
    moves of the attempt still running count."""
    if played.broken or played.moves < moves or not played.states:
        return
    last = played.states[-1]
    if game.outcome(last) != "running":
        return
    longest = game.info.longest
    running = _attempt_moves(game, played) if game.info.chapters else played.moves
    campaign = "attempt at a chapter" if game.info.chapters else "campaign"
    if longest is None and not chosen:
        detail = (
            f"A random playthrough is still running after {played.moves} moves, and the game "
            f"declares no longest {campaign} (GameInfo.longest) for the kit to play it to."
        )
    elif longest is not None and running >= longest:
        detail = (
            f"A random playthrough is still running after {running} moves, the longest "
            f"{campaign} the game declares (GameInfo.longest): it may never end."
        )
    else:
        return
    yield _broken(played, "ends", played.version, detail)


def _attempt_moves(game: Game, played: Played) -> int:
    """How many of the playthrough's last moves the attempt still running has lasted."""

    def attempt(version: int) -> tuple[str | None, int]:
        progress = game.progress(played.states[version - 1])
        return progress.chapter, sum(a.won + a.lost for a in progress.attempts)

    now = attempt(played.version)
    count = 0
    for version in reversed(played.points[: played.moves]):
        if attempt(version) != now:
            break
        count += 1
    return count


def _broken(played: Played, promise: str, version: int, detail: str) -> Broken:
    return Broken(promise, detail, played.seed, version, played.seats)
