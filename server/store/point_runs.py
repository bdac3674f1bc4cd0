"""The index of a campaign's decision points, kept with its stream by every adapter.

The layers above decide which versions are decision points (``server.campaigns.points``);
the store keeps them as *runs*, ranges ``(first, last)`` of consecutive points, because most
versions of a running campaign are points: a campaign of 100,000 events holds a few thousand
runs.

Each adapter keeps, per campaign, its own runs (versions above its fork point) and ``indexed``,
the version up to which they are complete. An append that says whether its last event is a
point (``point=True`` or ``False``) extends them in the same atomic step, when they were complete
up to the old head; an append that does not say (``point=None``) leaves them behind, and
:meth:`record_points` fills the gap later (a campaign stored before the index existed reads as
indexed up to its fork point). A fork's points up to its fork version are its parents'.

Looking up is a floor search by ``first`` in each campaign of the lineage: O(log n).
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import NamedTuple

import msgspec

from server.store.base import CampaignInfo, StoreError

Run = tuple[int, int]
"""Consecutive decision points ``first..last``."""


SPARE = 4
"""Runs asked for beyond those wanted, as many as a lineage of three forks can merge away."""


class PointRuns(msgspec.Struct, frozen=True):
    """Runs around a version, ascending; ``more_before`` and ``more_after`` say whether the
    campaign has points beyond them on either side."""

    runs: tuple[Run, ...]
    more_before: bool
    more_after: bool


class OwnRuns(NamedTuple):
    """One campaign's own runs around a version ``at``: ``down`` holds those whose first
    point is at or below ``at``, nearest first; ``up`` those above, ascending."""

    indexed: int
    down: list[Run]
    up: list[Run]


OwnQuery = Callable[[str, int, int, int], Awaitable[OwnRuns]]
"""``(campaign_id, at, down, up)``: at most ``down`` and ``up`` runs of one campaign's own."""
InfoOf = Callable[[str], Awaitable[CampaignInfo]]


class PointsUnindexed(StoreError):
    """A campaign's runs stop short of the versions a lookup needs: record them first."""

    code = "unavailable"

    def __init__(self, campaign_id: str, indexed: int, needed: int) -> None:
        self.campaign_id = campaign_id
        self.indexed = indexed
        self.needed = needed
        super().__init__(
            f"Campaign {campaign_id} has its decision points recorded up to version {indexed},"
            f" not up to {needed}."
        )


def extended(runs: Sequence[Run], points: Sequence[int]) -> list[Run]:
    """``runs`` followed by ``points`` (ascending, each above the last run), merged into runs."""
    out = list(runs)
    for point in points:
        if out and out[-1][1] == point - 1:
            out[-1] = (out[-1][0], point)
        else:
            out.append((point, point))
    return out


def own_around(runs: Sequence[Run], at: int, down: int, up: int) -> tuple[list[Run], list[Run]]:
    """:class:`OwnRuns`'s ``down`` and ``up`` of a list of runs in memory."""
    split = bisect.bisect_right(runs, at, key=lambda run: run[0])
    return list(reversed(runs[max(0, split - down) : split])), list(runs[split : split + up])


async def runs_near(
    info_of: InfoOf,
    own: OwnQuery,
    campaign_id: str,
    near: int,
    *,
    before: int,
    after: int,
    lowest: int = 1,
    highest: int | None = None,
) -> PointRuns:
    """The runs of ``campaign_id``'s points within ``lowest..highest`` (parents' included): at
    most ``before`` whose first point is at or below ``near`` and ``after`` above it."""
    # The campaign's own runs around ``near`` are asked for alongside its metadata: the usual
    # lookup (a version between its fork point and its head) needs nothing more.
    asked = asyncio.ensure_future(info_of(campaign_id))
    try:
        guessed = await own(campaign_id, near, before + SPARE, after + SPARE)
    except BaseException:
        # An unknown campaign fails here first: its metadata read is not left running on, to
        # reach the store after the caller is done with it (a closed store, for one).
        asked.cancel()
        await asyncio.gather(asked, return_exceptions=True)
        raise
    info = await asked
    top = info.head if highest is None else min(info.head, highest)
    segments: list[tuple[str, int, int]] = []  # (campaign, lowest, highest) of its own versions
    while True:
        start = info.fork_version + 1 if info.parent is not None else 1
        if max(start, lowest) <= top:
            segments.append((info.id, max(start, lowest), top))
        if info.parent is None or info.fork_version < lowest:
            break
        top = min(top, info.fork_version)
        info = await info_of(info.parent)
    # Runs merge across a fork point, so each campaign gives a few more than asked for.
    spare = len(segments) + 1
    found: list[Run] = []
    for segment_id, low, high in segments:
        at = min(max(near, low - 1), high)
        if segment_id == campaign_id and at == near and spare <= SPARE:
            own_runs = guessed
        else:
            own_runs = await own(
                segment_id,
                at,
                before + spare if near >= low else 0,
                after + spare if near < high else 0,
            )
        if own_runs.indexed < high:
            raise PointsUnindexed(segment_id, own_runs.indexed, high)
        for first, last in (*own_runs.down, *own_runs.up):
            if first <= high and last >= low:
                found.append((max(first, low), min(last, high)))
    merged: list[Run] = []
    for first, last in sorted(found):
        if merged and merged[-1][1] >= first - 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    split = bisect.bisect_right(merged, near, key=lambda run: run[0])
    start = max(0, split - before)
    stop = min(len(merged), split + after)
    return PointRuns(tuple(merged[start:stop]), start > 0, stop < len(merged))


def check_points(since: int, through: int, points: Sequence[int]) -> None:
    if since > through or any(not since < p <= through for p in points):
        raise ValueError(f"Decision points must lie in {since + 1}..{through}: {list(points)}.")
    if any(a >= b for a, b in itertools.pairwise(points)):
        raise ValueError(f"Decision points must be given in ascending order: {list(points)}.")


class PointRunsNear:
    """``point_runs`` of the store contract for an adapter that answers ``info`` and its own
    ``_own_runs`` query: the lineage walk (:func:`runs_near`) is the same in every store."""

    async def info(self, campaign_id: str) -> CampaignInfo:
        raise NotImplementedError

    async def _own_runs(self, campaign_id: str, at: int, down: int, up: int) -> OwnRuns:
        raise NotImplementedError

    async def point_runs(
        self,
        campaign_id: str,
        near: int,
        *,
        before: int,
        after: int,
        lowest: int = 1,
        highest: int | None = None,
    ) -> PointRuns:
        """The runs of decision points within ``lowest..highest`` around ``near``, the parents'
        included (see :meth:`server.store.contract.PointIndex.point_runs`)."""
        return await runs_near(
            self.info,
            self._own_runs,
            campaign_id,
            near,
            before=before,
            after=after,
            lowest=lowest,
            highest=highest,
        )
