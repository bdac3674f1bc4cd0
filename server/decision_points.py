"""The decision points of each campaign: the versions where some seat has a decision to make or
the campaign has ended, the only ones a campaign may be forked at or rewound to.

A version qualifies when its event closes an append (``settled``) and its state waits
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

from collections.abc import Callable, Sequence

from domain.core.engine import waits
from domain.core.errors import UnknownGame, UnsupportedRuleset
from server.fresh import wall_clock_ms
from server.head import Facts, Head
from server.heads import HeadRepository
from server.store.base import EventStore, StoreError
from server.store.point_runs import PointRuns, PointsUnindexed

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
