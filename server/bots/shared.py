"""Decisions a bot seat shares with people: a bot keeps to its seat.

Where a game offers the same action to several seats at once (Gil & Ennis's hike, breakfast,
dreaming together or not at all: either seat may take it for both), that decision is the
table's, not the bot's. While a person's seat is connected the bot waits on it, and says what it
would choose (:class:`Waiting`). It waits on the whole decision, its own options among it too: a
bot that dreamed alone the moment the night came would have taken the table's choice of who
dreams. A decision that is its seat's only (packing its dice, its abilities at camp, turning in)
it takes as before, and with nobody connected it takes the shared ones too, so that a table left
to the bots still moves on.
"""

from __future__ import annotations

from collections.abc import Collection

import msgspec

from domain.core.game import LegalAction
from server.campaigns.head import Head


class Waiting(msgspec.Struct, frozen=True):
    """A bot seat that waits for the people on a shared decision, and what it would choose."""

    seat: str
    version: int
    label: str
    """The action it would take, in the game's words."""


def shared(
    head: Head, seat: str, bots: Collection[str], connected: Collection[str]
) -> frozenset[str]:
    """The ids of ``seat``'s legal actions that a person's seat may take too, while one of the
    people's seats is connected (else none: the bot may take them all).

    An action is shared when the other seat may take it and taking it from either seat makes the
    same thing happen: an action of the same id that is each seat's own (turning in for the
    night) makes different events."""
    people = [other for other in head.facts.seats if other != seat and other not in bots]
    if not any(other in connected for other in people):
        return frozenset()
    mine = head.legal(seat)
    found: set[str] = set()
    for other in people:
        theirs = head.legal(other)
        for action_id in mine.keys() & theirs.keys():
            if _events(head, seat, mine[action_id]) == _events(head, other, theirs[action_id]):
                found.add(action_id)
    return frozenset(found)


def _events(head: Head, seat: str, legal: LegalAction) -> list[object]:
    return [event for event, _ in head.game.play(head.state, seat, legal.action)]
