"""Fork and rewind points: the versions a campaign may be forked at or rewound to.

Only a version where some seat has a decision to make (or where the campaign ended) is one: a
version in the middle of resolving an action would start a campaign that nobody can move, or that
skips the rest of the action. Among those, a campaign is forked at its own versions (from its
origin up to its head) and rewound to earlier ones, and a finished campaign is not rewound at all:
its seed and salt are revealed, so reopening it would replay luck that everyone knows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import msgspec

from domain.core.errors import IllegalAction
from server.head import Head
from server.store.point_runs import PointRuns, Run

NEAR = 8
"""Runs of points listed on either side of the version a read is about."""


class Points(msgspec.Struct, frozen=True):
    """A campaign's fork and rewind points around version ``near``, as runs ``[first, last]``
    of consecutive points, oldest first: those from the origin up to the head (``fork``) and
    those before the head while the campaign runs (``rewind``). ``more_before`` and
    ``more_after`` say whether fork points lie beyond the listed runs on either side."""

    near: int
    fork: tuple[Run, ...]
    rewind: tuple[Run, ...]
    more_before: bool
    more_after: bool


SEEDED_AT = "seeded_at"
"""The campaign attribute naming the version of the event that set the seed in force."""


def seeded_at(head: Head) -> int:
    return int(head.facts.attrs.get(SEEDED_AT, "1"))


def rewind_runs(head: Head, fork: Sequence[Run], upto: int | None = None) -> tuple[Run, ...]:
    """The fork runs' versions a campaign at ``head`` may be rewound to: those before it (or
    before ``upto``)."""
    if head.outcome != "running":
        return ()
    top = head.version if upto is None else upto
    return tuple((first, min(last, top - 1)) for first, last in fork if first < top)


def points_of(head: Head, near: int, found: PointRuns, upto: int | None = None) -> Points:
    """The window of points that ``found`` (runs within the origin and ``upto``, the head when
    None) gives."""
    fork = found.runs
    rewind = rewind_runs(head, fork, upto)
    return Points(near, fork, rewind, found.more_before, found.more_after)


def versions(runs: Sequence[Run]) -> Iterator[int]:
    """Every version of ``runs``."""
    for first, last in runs:
        yield from range(first, last + 1)


def _contains(runs: Sequence[Run], version: int) -> bool:
    return any(first <= version <= last for first, last in runs)


def _nearest(runs: Sequence[Run], to: int) -> str:
    below = [min(last, to - 1) for first, last in runs if first < to]
    above = [max(first, to + 1) for first, last in runs if last > to]
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


def check_rewind(head: Head, found: PointRuns, to: int) -> None:
    """Refuse a rewind to ``to`` unless it is a rewind point; ``found`` holds the runs around
    ``to`` (two at or below it, one above)."""
    campaign = head.facts.id
    if head.outcome != "running":
        raise IllegalAction(
            f"Campaign {campaign} has ended ({head.outcome}) and its seed and salt are revealed, "
            "so it cannot be rewound: its luck would be known. Fork it with 'reseed' to play on "
            "from one of its versions."
        )
    rewind = rewind_runs(head, found.runs)
    if _contains(rewind, to):
        return
    why = _why(head, to, rewinding=True)
    if not rewind and not found.more_before:
        raise IllegalAction(
            f"Campaign {campaign} cannot be rewound to version {to}: {why}, and it has no "
            f"earlier version where a seat had a decision to make yet."
        )
    raise IllegalAction(
        f"Campaign {campaign} cannot be rewound to version {to}: {why}; {_nearest(rewind, to)}."
    )


def check_fork(head: Head, found: PointRuns, at: int) -> None:
    """Refuse a fork at ``at`` unless it is a fork point; ``found`` as for :func:`check_rewind`."""
    if _contains(found.runs, at):
        return
    campaign = head.facts.id
    why = _why(head, at, rewinding=False)
    if not found.runs:
        raise IllegalAction(
            f"Campaign {campaign} cannot be forked at version {at}: {why}, and it has no version "
            "where a seat has a decision to make."
        )
    raise IllegalAction(
        f"Campaign {campaign} cannot be forked at version {at}: {why}; {_nearest(found.runs, at)}."
    )
