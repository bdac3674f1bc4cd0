"""Whether the luck between two states has been seen: a die rolled, a shuffle, a card drawn.

A campaign that goes back to an earlier state after a draw (a rewind), or whose coming draws
someone else could have played first (a fork that shares its luck), lets its players know luck
before they choose: the server marks it (``known_luck``). Taking back a move before any draw
leaves the luck unseen, and the campaign unmarked.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.core.game import FaceDown, Game


def face_down(game: Game, state: Any) -> tuple[tuple[object, ...], ...] | None:
    """``state``'s face-down piles; None for a game that hides things without saying which."""
    if isinstance(game, FaceDown):
        return game.face_down(state)
    return None if game.info.hidden_information else ()


def luck_seen(game: Game, earlier: Any, later: Any) -> bool:
    """Whether going from ``earlier`` to ``later`` drew anything: the generator moved, or a card
    or tile left a face-down pile. Cards put into a pile (a discard) turn nothing up."""
    if earlier.rng != later.rng:
        return True
    before, after = face_down(game, earlier), face_down(game, later)
    if before is None or after is None:
        return True  # a game that does not say what it hides: any change may have shown some
    return any(Counter(old) - Counter(new) for old, new in zip(before, after, strict=True))


def hides_piles(game: Game, state: Any) -> bool:
    """Whether ``state`` has cards face down: fresh dice alone do not hide their order."""
    piles = face_down(game, state)
    return piles is None or any(piles)
