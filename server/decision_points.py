"""The decision points of each campaign: the versions where some seat has a decision to make or
the campaign has ended, the only ones a campaign may be forked at or rewound to.

A version qualifies when its event closes an append (``settled``) and its state waits
(:func:`~domain.core.engine.waits`). The store keeps them with the stream as runs of consecutive
points (:mod:`server.store.point_runs`): the heads repository says, with every append, whether
its last event is one, so asking costs a lookup, never a replay. A stream stored before the
store kept them (or appended without saying) has its runs recorded here once, the first time
they are asked for: the missing versions are read and folded a page at a time.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.core.engine import waits
from server.head import Head
from server.heads import HeadRepository
from server.store.base import StoreError
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
