"""Fork and rewind points: the versions a campaign may be forked at or rewound to.

Only a version where some seat has a decision to make (or where the campaign ended) is one: a
version in the middle of resolving an action would start a campaign that nobody can move, or that
skips the rest of the action. Among those, a campaign is forked at its own versions (from its
origin up to its head) and rewound to earlier ones, and a finished campaign is not rewound at all:
its seed and salt are revealed, so reopening it would replay luck that everyone knows.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.core.errors import IllegalAction
from server.head import Head


class Points(msgspec.Struct, frozen=True):
    fork: tuple[int, ...]
    rewind: tuple[int, ...]


SEEDED_AT = "seeded_at"
"""The campaign attribute naming the version of the event that set the seed in force."""


def seeded_at(head: Head) -> int:
    return int(head.facts.attrs.get(SEEDED_AT, "1"))


def points_of(head: Head, decision_points: Sequence[int]) -> Points:
    origin = head.facts.origin
    fork = tuple(v for v in decision_points if origin <= v <= head.version)
    if head.outcome != "running":
        return Points(fork, ())
    return Points(fork, tuple(v for v in fork if v < head.version))


def _nearest(points: Sequence[int], to: int) -> str:
    below = [v for v in points if v < to]
    above = [v for v in points if v > to]
    near = [*below[-1:], *above[:1]]
    if len(near) == 1:
        return f"the nearest is version {near[0]}"
    return f"the nearest are versions {near[0]} and {near[1]}"


def _why(head: Head, to: int, *, rewinding: bool) -> str:
    origin = head.facts.origin
    if not 1 <= to <= head.version:
        return f"the campaign has versions 1 to {head.version}"
    if to < origin:
        if head.facts.origin == seeded_at(head):
            return f"its luck was reseeded at version {origin}, and no earlier version has it"
        return f"it is still being set up until version {origin}"
    if rewinding and to == head.version:
        return "it is the current version"
    return "no seat has a decision to make there (it is inside the resolution of an action)"


def check_rewind(head: Head, points: Points, to: int) -> None:
    campaign = head.facts.id
    if head.outcome != "running":
        raise IllegalAction(
            f"Campaign {campaign} has ended ({head.outcome}) and its seed and salt are revealed, "
            "so it cannot be rewound: its luck would be known. Fork it with 'reseed' to play on "
            "from one of its versions."
        )
    if to in points.rewind:
        return
    why = _why(head, to, rewinding=True)
    if not points.rewind:
        raise IllegalAction(
            f"Campaign {campaign} cannot be rewound to version {to}: {why}, and it has no "
            f"earlier version where a seat had a decision to make yet."
        )
    raise IllegalAction(
        f"Campaign {campaign} cannot be rewound to version {to}: {why}; "
        f"{_nearest(points.rewind, to)}."
    )


def check_fork(head: Head, points: Points, at: int) -> None:
    if at in points.fork:
        return
    campaign = head.facts.id
    why = _why(head, at, rewinding=False)
    if not points.fork:
        raise IllegalAction(
            f"Campaign {campaign} cannot be forked at version {at}: {why}, and it has no version "
            "where a seat has a decision to make."
        )
    raise IllegalAction(
        f"Campaign {campaign} cannot be forked at version {at}: {why}; {_nearest(points.fork, at)}."
    )
