"""Copying every campaign from one store to another through the store contract alone.

Campaigns go parents first (a fork is stored as a fork of its parent, so the lineage holds and
the parent's prefix is not copied twice), each in chunks of :data:`CHUNK` events: ``create`` or
``fork`` with the first chunk, at the source's ``created_ms``, with its attributes (seat token
hashes included) and its listed flag, then one ``append`` per chunk at the version the target
holds. The last event always comes with an append, which sets the source's ``updated_ms``.
Then the campaign is prepared on the target as if it had been played there: its decision points
recorded and its snapshots saved (:meth:`~server.campaigns.points.DecisionPoints.prepare`).

A migration that was killed is resumed by running it again: a campaign the target holds is
compared with the source, byte for byte, over the versions it holds; the same and complete is
skipped, the same and shorter is completed from its head, and anything else (another game,
lineage, creation time or attributes, other events) is a :class:`~.errors.DifferentCampaign`
for which nothing is written, and neither for its forks. Appends name the version they expect,
so no event is ever stored twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence

import msgspec

from projections.catalog import KNOWN_LUCK, known_luck
from server.campaigns.points import prepare_stored
from server.export.errors import DifferentCampaign
from server.store.base import CampaignInfo, StoredEvent, UnknownCampaign
from server.store.contract import EventStore

CHUNK = 500
"""Events written per step: a long campaign is never one giant write."""
CATALOG_PAGE = 500
WORKERS = 8
"""Campaigns copied at once."""

Advance = Callable[[int, int, int], None]
"""Told ``(campaigns done, campaigns in all, events written)`` as the work goes on."""


class Copied(msgspec.Struct, frozen=True):
    """What became of one campaign: ``created``, ``completed`` (a part was there), ``present``
    (all of it was there) or ``refused`` (``reason``)."""

    campaign: str
    outcome: str
    written: int = 0
    reason: str = ""


class MigrationReport(msgspec.Struct, frozen=True):
    campaigns: int
    created: int
    completed: int
    present: int
    refused: list[Copied]
    events_written: int
    seconds: float


async def catalog_of(store: EventStore, *, page: int = CATALOG_PAGE) -> list[CampaignInfo]:
    """Every campaign of ``store``, listed or not, each once."""
    found: dict[str, CampaignInfo] = {}
    offset = 0
    while True:
        infos = await store.list_campaigns(offset=offset, limit=page, listed_only=False)
        for info in infos:
            found.setdefault(info.id, info)
        if len(infos) < page:
            return list(found.values())
        offset += page


def parents_first(infos: Iterable[CampaignInfo]) -> list[list[CampaignInfo]]:
    """``infos`` in waves: every campaign comes in a later wave than its parent."""
    by_id = {info.id: info for info in infos}
    depth: dict[str, int] = {}

    def depth_of(campaign_id: str) -> int:
        if campaign_id not in depth:
            parent = by_id[campaign_id].parent
            if parent is None or parent not in by_id:
                depth[campaign_id] = 0
            else:
                depth[campaign_id] = 1 + depth_of(parent)
        return depth[campaign_id]

    waves: dict[int, list[CampaignInfo]] = {}
    for info in sorted(by_id.values(), key=lambda i: (i.created_ms, i.id)):
        waves.setdefault(depth_of(info.id), []).append(info)
    return [waves[level] for level in sorted(waves)]


async def first_unequal(
    one: EventStore, other: EventStore, campaign_id: str, after: int, upto: int
) -> int | None:
    """The first version in ``after < v <= upto`` whose stored bytes differ between the two
    stores (or that one of them lacks); None when every one is equal."""
    while after < upto:
        mine, theirs = await asyncio.gather(
            one.read(campaign_id, after, upto, CHUNK), other.read(campaign_id, after, upto, CHUNK)
        )
        for expected, (a, b) in enumerate(zip(mine, theirs, strict=False), start=after + 1):
            if a.version != expected or b.version != expected or a.data != b.data:
                return expected
        if len(mine) != len(theirs) or not mine:
            return after + min(len(mine), len(theirs)) + 1
        after = mine[-1].version
    return None


def identity_difference(source: CampaignInfo, held: CampaignInfo) -> str | None:
    """What makes ``held`` another campaign than ``source`` whatever its events: None if
    nothing."""
    if (held.game, held.parent, held.fork_version) != (
        source.game,
        source.parent,
        source.fork_version,
    ):
        return f"it is a campaign of {held.game} forked from {held.parent} at {held.fork_version}"
    if held.created_ms != source.created_ms:
        return f"it was created at {held.created_ms} ms, not at {source.created_ms} ms"
    # A mark of known luck may have come to the source after the copy began (marks only grow).
    marked = {**held.attrs, KNOWN_LUCK: "1"} if known_luck(source.attrs) else held.attrs
    if marked != source.attrs or held.listed != source.listed:
        return "its attributes or its listed flag differ"
    return None


class Migration:
    """One run of copying ``source``'s campaigns into ``target``."""

    def __init__(
        self,
        source: EventStore,
        target: EventStore,
        *,
        chunk: int = CHUNK,
        workers: int = WORKERS,
        advance: Advance | None = None,
    ) -> None:
        self.source = source
        self.target = target
        self.chunk = chunk
        self.workers = workers
        self._advance = advance
        self._done = 0
        self._total = 0
        self._written = 0

    async def run(self, infos: Sequence[CampaignInfo]) -> MigrationReport:
        loop = asyncio.get_running_loop()
        started = loop.time()
        self._total = len(infos)
        results: dict[str, Copied] = {}
        for wave in parents_first(infos):
            await self._each(wave, lambda info: self._copy_unless_orphaned(info, results))
        outcomes = list(results.values())

        def count(outcome: str) -> int:
            return sum(1 for copied in outcomes if copied.outcome == outcome)

        return MigrationReport(
            campaigns=len(outcomes),
            created=count("created"),
            completed=count("completed"),
            present=count("present"),
            refused=[copied for copied in outcomes if copied.outcome == "refused"],
            events_written=self._written,
            seconds=loop.time() - started,
        )

    async def _each(
        self, infos: Sequence[CampaignInfo], work: Callable[[CampaignInfo], Awaitable[None]]
    ) -> None:
        queue = list(reversed(infos))

        async def worker() -> None:
            while queue:
                await work(queue.pop())

        await asyncio.gather(*(worker() for _ in range(min(self.workers, len(infos)))))

    async def _copy_unless_orphaned(self, info: CampaignInfo, results: dict[str, Copied]) -> None:
        parent = results.get(info.parent) if info.parent is not None else None
        if parent is not None and parent.outcome == "refused":
            copied = Copied(info.id, "refused", reason=f"its parent {info.parent} was refused")
        else:
            try:
                copied = await self.copy(info)
            except DifferentCampaign as error:
                copied = Copied(info.id, "refused", reason=str(error))
        results[info.id] = copied
        self._done += 1
        if self._advance is not None:
            self._advance(self._done, self._total, self._written)

    async def copy(self, info: CampaignInfo) -> Copied:
        """Copy one campaign whose parent the target holds already (see the module)."""
        try:
            held: CampaignInfo | None = await self.target.info(info.id)
        except UnknownCampaign:
            held = None
        if held is None:
            at = await self._register(info)
            outcome = "created"
        else:
            at = await self._check_held(info, held)
            outcome = "present" if at == info.head else "completed"
            if known_luck(info.attrs) and not known_luck(held.attrs):
                await self.target.add_attrs(info.id, {KNOWN_LUCK: "1"})
            # A run killed between creating it and entering it in the catalog left it out.
            await self.target.catalogue(info.id)
        written = at - (info.fork_version if held is None else held.head)
        while at < info.head:
            page = await self._page(info, at, info.head)
            await self.target.append(
                info.id, at, [stored.data for stored in page], now_ms=info.updated_ms
            )
            at = page[-1].version
            written += len(page)
            self._written += len(page)
        # As cheap on the target as if it had been played there (its parents came first).
        await prepare_stored(self.target, [info.id])
        return Copied(info.id, outcome, written)

    async def _page(self, info: CampaignInfo, after: int, until: int) -> list[StoredEvent]:
        page = await self.source.read(info.id, after, until, self.chunk)
        if not page or page[0].version != after + 1:
            raise DifferentCampaign(info.id, after + 1, "the source changed while it was copied")
        return page

    async def _register(self, info: CampaignInfo) -> int:
        """Create the campaign on the target with its first chunk (all but the last event,
        which an append brings); returns the version it holds."""
        own_last = info.head - 1
        first: list[StoredEvent] = []
        if info.fork_version < own_last:
            first = await self._page(info, info.fork_version, own_last)
        payloads = [stored.data for stored in first]
        if info.parent is None:
            await self.target.create(
                info.id,
                info.game,
                now_ms=info.created_ms,
                attrs=dict(info.attrs),
                events=payloads,
                listed=info.listed,
            )
        else:
            await self.target.fork(
                info.parent,
                info.fork_version,
                info.id,
                now_ms=info.created_ms,
                attrs=dict(info.attrs),
                events=payloads,
                listed=info.listed,
            )
        self._written += len(payloads)
        return info.fork_version + len(payloads)

    async def _check_held(self, info: CampaignInfo, held: CampaignInfo) -> int:
        """The version from which the target's copy of ``info`` is to be completed, after
        checking that what it holds is the source's; raises DifferentCampaign."""
        different = identity_difference(info, held)
        if different is not None:
            raise DifferentCampaign(info.id, None, different)
        if held.head > info.head:
            raise DifferentCampaign(
                info.id, info.head + 1, f"it holds {held.head} events, the source {info.head}"
            )
        unequal = await first_unequal(
            self.source, self.target, info.id, info.fork_version, held.head
        )
        if unequal is not None:
            raise DifferentCampaign(info.id, unequal, "its events are not the source's")
        return held.head
