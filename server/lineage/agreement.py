"""Whose agreement a rewind needs.

A table of one person (a solo campaign, or one whose other seats bots play) rewinds as it always
did. At a table of several people a rewind undoes moves the others have seen, so it is a
proposal the other people's seats accept or decline (:mod:`server.lineage.proposals`), with one
exception: a seat may take back its own last move alone while no other seat has acted since and
no luck has been drawn since (nobody else has seen anything that the take-back hides again).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from domain.core.events import Rewound
from domain.core.game import Game
from domain.core.luck import luck_seen
from projections.log import acted_by
from server.campaigns.codec import Recorded


def people(seats: Sequence[str], bots: Collection[str]) -> tuple[str, ...]:
    """The seats people play: those no bot plays."""
    return tuple(seat for seat in seats if seat not in bots)


def own_last_move(recorded: Sequence[Recorded[Any]], seat: str) -> bool:
    """Whether ``recorded`` (the events a rewind would undo) is one move of ``seat``'s, made by
    its person (not a bot playing it), with no rewind among them."""
    if not recorded:
        return False
    for each in recorded:
        if each.seat != seat or acted_by(each) is not None or type(each.event) is Rewound:
            return False
    return sum(1 for each in recorded if each.settled) == 1


def alone(game: Game, seat: str, undone: Sequence[Recorded[Any]], target: Any, now: Any) -> bool:
    """Whether ``seat`` may make a rewind alone at a table of several people: ``undone`` (the
    events it undoes) is its own last move and going from ``target`` (the state it returns to)
    to ``now`` drew no luck."""
    return own_last_move(undone, seat) and not luck_seen(game, target, now)
