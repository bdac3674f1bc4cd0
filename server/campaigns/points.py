"""Fork and rewind points: the versions a campaign may be forked at or rewound to.

Only a version where some seat has a decision to make (or where the campaign ended) is one: a
version in the middle of resolving an action would start a campaign that nobody can move, or that
skips the rest of the action. Among those, a campaign is forked at its own versions (from its
origin up to its head) and rewound to earlier ones, and a finished campaign is not rewound at all:
its seed and salt are revealed, so reopening it would replay luck that everyone knows.

A version is a decision point when its event closes an append (``settled``) and its state waits
(:func:`~domain.core.engine.waits`). The store keeps them with the stream as runs of consecutive
points (:mod:`server.store.point_runs`): the heads repository says, with every append, whether
its last event is one, so asking costs a lookup, never a replay. A stream stored before the
store kept them (or appended without saying) has its runs recorded here once, the first time
they are asked for: the missing versions are read and folded a page at a time.

A campaign brought in from another store (``tabletale import``, ``tabletale migrate``) arrives as
events alone. :meth:`DecisionPoints.prepare` gives it, in one fold of its own history, the points
and the snapshots (one every ``snapshot_every`` versions, and its head's) its play here would
have left, so that its first fork, rewind or load in a fresh process costs what a campaign played
here costs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import msgspec

from domain.core.engine import waits
from domain.core.errors import IllegalAction, UnknownGame, UnsupportedRuleset
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.head import Facts, Head
from server.campaigns.repository import HeadRepository
from server.store.base import StoreError
from server.store.contract import EventStore
from server.store.point_runs import PointRuns, PointsUnindexed, Run

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


PAGE = 2_000
"""Events read and folded at a time while recording a stream's missing points."""
ATTEMPTS = 8
"""Lookups tried while another writer keeps moving the runs' end (each records what it can)."""

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` versions while missing points are recorded."""


class DecisionPoints:
    def __init__(self, heads: HeadRepository) -> None:
        self._heads = heads

    async def runs(
        self,
        head: Head,
        near: int,
        *,
        before: int,
        after: int,
        highest: int | None = None,
        progress: Progress | None = None,
    ) -> PointRuns:
        """The runs of ``head``'s points from its origin up to ``highest`` (its version when
        None), at most ``before`` whose first point is at or below ``near`` and ``after``
        above it."""
        store = self._heads.store
        for _ in range(ATTEMPTS):
            try:
                return await store.point_runs(
                    head.facts.id,
                    near,
                    before=before,
                    after=after,
                    lowest=head.facts.origin,
                    highest=head.version if highest is None else highest,
                )
            except PointsUnindexed as missing:
                await self.record(head, missing, progress)
        raise StoreError(
            f"Campaign {head.facts.id}'s decision points kept moving while they were recorded."
        )

    async def contains(self, head: Head, version: int) -> bool:
        """Whether ``version`` is one of ``head``'s points (from its origin up to its version)."""
        found = await self.runs(head, version, before=1, after=0)
        return any(first <= version <= last for first, last in found.runs)

    async def record(
        self, head: Head, missing: PointsUnindexed, progress: Progress | None = None
    ) -> None:
        """Record the points of ``missing.campaign_id`` (``head``'s campaign or one of its
        parents) from where its runs stop up to ``missing.needed``, read through ``head``'s
        lineage. Stops early when another writer recorded them meanwhile."""
        facts = head.facts
        history = self._heads.history
        done = missing.indexed
        state = None if done == 0 else (await history.rebuild(facts, done)).state
        total = missing.needed - missing.indexed
        while done < missing.needed:
            recorded = await history.read(facts, done, missing.needed, PAGE)
            if not recorded or recorded[0].version != done + 1:
                raise StoreError(f"Campaign {facts.id} changed while its history was read.")
            folded = await history.fold(facts, recorded, state, done)
            points = [
                item.version
                for item, after in zip(recorded, folded, strict=True)
                if item.settled and waits(facts.game, after)
            ]
            through = recorded[-1].version
            if not await self._heads.store.record_points(
                missing.campaign_id, done, through, points
            ):
                return  # another writer is at it: the lookup asks again
            done, state = through, folded[-1]
            if progress is not None:
                progress(done - missing.indexed, total)

    async def prepare(self, campaign_id: str, progress: Progress | None = None) -> None:
        """Save a snapshot at every multiple of the snapshot interval among the campaign's own
        versions and at its head, and record its decision points where they stop short, in one
        fold of its own history (a page at a time). The caller prepares its parents first: the
        fold starts from their state at the fork version. A campaign whose points are all recorded
        is left as it is; one whose preparing was interrupted is folded again (a snapshot saved
        twice does no harm)."""
        heads = self._heads
        facts, head_version = await heads.stored_facts(campaign_id)
        history, store, every = heads.history, heads.store, heads.snapshot_every
        indexed = await self._indexed(facts, head_version)
        if indexed >= head_version:
            return  # prepared already, or played here: its snapshots were saved on the way
        done = facts.fork_version
        state = None if done == 0 else (await history.rebuild(facts, done)).state
        while done < head_version:
            recorded = await history.read(facts, done, head_version, PAGE)
            if not recorded or recorded[0].version != done + 1:
                raise StoreError(f"Campaign {campaign_id} changed while its history was read.")
            folded = await history.fold(facts, recorded, state, done)
            through = recorded[-1].version
            for item, after in zip(recorded, folded, strict=True):
                # and one at the head, where a fresh process starts: a campaign arrives at rest
                if item.version % every == 0 or item.version == head_version:
                    await store.save_snapshot(
                        campaign_id, item.version, facts.codec.encode_state(after)
                    )
            # After the snapshots: points recorded this far mean snapshots saved this far.
            if done <= indexed < through:
                points = [
                    item.version
                    for item, after in zip(recorded, folded, strict=True)
                    if item.version > indexed and item.settled and waits(facts.game, after)
                ]
                if await store.record_points(campaign_id, indexed, through, points):
                    indexed = through
            done, state = through, folded[-1]
            if progress is not None:
                progress(done - facts.fork_version, head_version - facts.fork_version)

    async def _indexed(self, facts: Facts, head_version: int) -> int:
        """How far the campaign's own points are recorded (its head: all of them)."""
        own_from = facts.fork_version + 1
        try:
            await self._heads.store.point_runs(
                facts.id, head_version, before=0, after=0, lowest=own_from, highest=head_version
            )
        except PointsUnindexed as missing:
            return missing.indexed
        return head_version


async def prepare_stored(store: EventStore, campaign_ids: Sequence[str]) -> None:
    """:meth:`DecisionPoints.prepare` each of ``campaign_ids`` (parents before their forks),
    for a tool that holds a store and no server (an import, a migration); a campaign of rules
    this server does not play is left as it is."""
    points = DecisionPoints(HeadRepository(store, clock=wall_clock_ms))
    for campaign_id in campaign_ids:
        try:
            await points.prepare(campaign_id)
        except (UnknownGame, UnsupportedRuleset):
            # Rules this server does not play: it cannot fold them, nor will it serve them.
            continue
