"""The campaign heads repository: the one owner of every cached campaign state in a process.

Everything that wants a campaign's state (commands, the live fan-out, the catalog, HTTP reads,
replays) asks this repository; nothing else reads a stream into a state. It keeps, per campaign,
one :class:`~server.campaigns.head.Head`, and changes it only under that campaign's lock:

- each stored event is applied exactly once and in order, from a commit made here, from a
  catch-up read, or from the change feed (events another process appended);
- a catch-up that does not follow on from the cached version, or that shows the store's history
  moved back under the cache (a Redis that lost its last writes), is thrown away and the head is
  rebuilt from the store, and listeners are told to resynchronise;
- eviction drops an immutable head from a dict, so it cannot race a reader holding it; heads
  that sockets watch are pinned and never evicted, so the fan-out never misses an event.

States the cache does not hold (``state_at(v)``, every fold, a rebuild) come from
:class:`~server.campaigns.history.History`, the one place rewinds are resolved.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Protocol

from domain.core.engine import (
    evolve,
    waits,
)
from domain.core.errors import DomainError
from domain.core.events import Rewound
from domain.core.game import Step
from server.campaigns.codec import Recorded
from server.campaigns.head import Facts, Head
from server.campaigns.history import History
from server.campaigns.keyed_lock import KeyedLock
from server.campaigns.played import created_of, game_for
from server.campaigns.results import Acted
from server.ops.phases import mark
from server.store.base import AppendResult, CampaignInfo, StoredEvent, StoreError, VersionConflict
from server.store.contract import EventStore

log = logging.getLogger("tabletale.heads")

ORIGIN = "origin"  # the attribute that records Facts.origin
CHECK_BATCH = 64
"""Watched heads checked against the store side by side."""


class NotReady(StoreError):
    code = "not_found"

    def __init__(self, campaign_id: str) -> None:
        super().__init__(f"Campaign {campaign_id} is still being created.")


class HeadListener(Protocol):
    """Told of every change to a cached head, in order, synchronously."""

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        """``recorded`` took the campaign from ``before`` to ``after``. ``origin`` is what the
        committer passed (None for events read from the store or the feed)."""
        ...

    def reset(self, head: Head) -> None:
        """The store's history is not what the cache held; ``head`` is the store's truth now."""
        ...


Decide = Callable[[Head], Awaitable[list[Step]]]


class HeadRepository:
    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], int],
        capacity: int = 1024,
        snapshot_every: int = 500,
    ) -> None:
        self.store = store
        self.history = History(store)
        self._clock = clock
        self._capacity = capacity
        self._snapshot_every = snapshot_every
        self._recent: OrderedDict[str, Head] = OrderedDict()  # evictable, least recent first
        self._pinned: dict[str, Head] = {}
        self._pins: dict[str, int] = {}
        self._locks = KeyedLock()
        self._listeners: list[HeadListener] = []
        self._checking: dict[str, int] = {}  # campaign -> catch-ups that notices asked for

    # -- the cache ------------------------------------------------------------------------

    def listen(self, listener: HeadListener) -> None:
        self._listeners.append(listener)

    def cached(self, campaign_id: str) -> Head | None:
        head = self._pinned.get(campaign_id)
        if head is None:
            head = self._recent.get(campaign_id)
        return head

    def __len__(self) -> int:
        return len(self._recent) + len(self._pinned)

    def pin(self, campaign_id: str) -> None:
        """Keep ``campaign_id``'s head cached until as many ``unpin`` calls."""
        self._pins[campaign_id] = self._pins.get(campaign_id, 0) + 1
        head = self._recent.pop(campaign_id, None)
        if head is not None:
            self._pinned[campaign_id] = head

    def unpin(self, campaign_id: str) -> None:
        left = self._pins.get(campaign_id, 0) - 1
        if left > 0:
            self._pins[campaign_id] = left
            return
        self._pins.pop(campaign_id, None)
        head = self._pinned.pop(campaign_id, None)
        if head is not None:
            self._remember(head)

    def pinned(self) -> list[str]:
        return list(self._pins)

    def _remember(self, head: Head) -> None:
        campaign_id = head.facts.id
        if campaign_id in self._pins:
            self._pinned[campaign_id] = head
            return
        self._recent[campaign_id] = head
        self._recent.move_to_end(campaign_id)
        while len(self._recent) > self._capacity:
            self._recent.popitem(last=False)

    def _install(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        """The one way a head moves forward. Callers hold the campaign's lock."""
        self._remember(after)
        for listener in self._listeners:
            listener.advanced(before, after, recorded, origin)

    def _reset(self, head: Head) -> None:
        self._remember(head)
        for listener in self._listeners:
            listener.reset(head)

    # -- reading --------------------------------------------------------------------------

    async def head(self, campaign_id: str) -> Head:
        """The head, caught up with the store (one read when it is cached)."""
        async with self._locks.hold(campaign_id):
            head = self.cached(campaign_id)
            if head is None:
                return await self._load(campaign_id)
            return await self._catch_up(head)

    async def current(self, campaign_id: str) -> Head:
        """The cached head as it is (loading it when missing): for its facts, or for a decision
        that the store's version check will confirm."""
        head = self.cached(campaign_id)
        if head is not None:
            return head
        async with self._locks.hold(campaign_id):
            return self.cached(campaign_id) or await self._load(campaign_id)

    async def facts(self, campaign_id: str) -> Facts:
        return (await self.current(campaign_id)).facts

    @property
    def snapshot_every(self) -> int:
        """Versions between two snapshots a campaign's appends leave in the store."""
        return self._snapshot_every

    async def stored_facts(self, campaign_id: str) -> tuple[Facts, int]:
        """The facts of a stored campaign and its head version, read from the store alone:
        no head is loaded or cached (for a campaign brought in from elsewhere, whose head
        would take a whole fold to load)."""
        info = await self.store.info(campaign_id)
        if info.head == 0:
            raise NotReady(campaign_id)
        return await self._facts_of(info), info.head

    async def _load(self, campaign_id: str) -> Head:
        info = await self.store.info(campaign_id)
        if info.head == 0:
            raise NotReady(campaign_id)
        head = await self.history.rebuild(await self._facts_of(info), info.head)
        self._remember(head)
        return head

    async def _facts_of(self, info: CampaignInfo) -> Facts:
        campaign_id = info.id
        first = await self.store.read(campaign_id, 0, 1)
        created = created_of(first[0].data)
        # A snapshot may spare the fold its first event: the ruleset is checked here too, in
        # words that name the rulesets this server plays (a game not installed included).
        game = game_for(created)
        return Facts(
            campaign_id,
            game,
            tuple(created.seats),
            origin=int(info.attrs.get(ORIGIN, "1")),
            attrs=dict(info.attrs),
            parent=info.parent,
            fork_version=info.fork_version,
        )

    async def state_at(self, campaign_id: str, version: int) -> Any:
        """The state at any stored ``version`` (1..head), rewinds resolved."""
        head = self.cached(campaign_id)
        if head is not None and head.version == version:
            return head.state
        facts = head.facts if head is not None else await self.facts(campaign_id)
        return (await self.history.rebuild(facts, version)).state

    async def state_in(self, head: Head, version: int) -> Any:
        """The state at ``version`` of ``head``'s campaign, for a caller that holds the
        campaign's lock (it never waits for the lock, as :meth:`state_at` may to load facts)."""
        if version == head.version:
            return head.state
        return (await self.history.rebuild(head.facts, version)).state

    async def events(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[Recorded[Any]]:
        """Stored events ``after < version <= until``, decoded, oldest first."""
        return await self.history.read(await self.facts(campaign_id), after, until, limit)

    async def walk(
        self, campaign_id: str, after: int, until: int, state: Any, *, page: int = 256
    ) -> AsyncIterator[list[tuple[Recorded[Any], Any]]]:
        """Each event ``after < version <= until`` with the state it leaves, a page at a time;
        ``state`` is the state at ``after``. One page is read and folded at a time, so a long
        walk holds one page, and the caller's awaits between pages let other work run."""
        facts = await self.facts(campaign_id)
        while after < until:
            recorded = await self.events(campaign_id, after, until, page)
            if not recorded:
                return
            folded = await self.history.fold(facts, recorded, state, after)
            yield list(zip(recorded, folded, strict=True))
            state, after = folded[-1], recorded[-1].version

    # -- catching up ----------------------------------------------------------------------

    async def _catch_up(self, head: Head) -> Head:
        """``head`` with every newer stored event applied, or the store's truth when its history
        is not the cached one. The caller holds the lock.

        The read starts at the cached version itself, so the one read that catches up also
        checks the cache: the store must still hold that version, with the same state hash.
        A Redis that lost its last writes fails the check (the version is gone, or a new event
        took its place) and the head is rebuilt from the store.
        """
        if head.version == 0:
            stored = await self.store.read(head.facts.id, 0)
            return await self._apply_stored(head, stored, origin=None) if stored else head
        stored = await self.store.read(head.facts.id, head.version - 1)
        if (
            not stored
            or stored[0].version != head.version
            or head.facts.codec.hash_of(stored[0].data) != head.hash
        ):
            return await self._reload(head)
        if len(stored) == 1:
            return head
        return await self._apply_stored(head, stored[1:], origin=None)

    async def _apply_stored(
        self, head: Head, stored: Sequence[StoredEvent], *, origin: object
    ) -> Head:
        if stored[0].version != head.version + 1:
            # Not a continuation of what the cache holds: start again from the store.
            return await self._reload(head)
        recorded = head.facts.codec.decode_stored(stored)
        folded = await self.history.fold(head.facts, recorded, head.state, head.version)
        after = head.advanced(recorded[-1].version, folded[-1], recorded[-1].hash)
        self._install(head, after, recorded, origin)
        return after

    async def _reload(self, stale: Head) -> Head:
        """The store's truth, after finding that the cached history is not the stored one."""
        info = await self.store.info(stale.facts.id)
        log.warning(
            "Campaign %s: the store holds version %d where this process had %d; rebuilding.",
            stale.facts.id,
            info.head,
            stale.version,
        )
        head = await self.history.rebuild(stale.facts, info.head)
        self._reset(head)
        return head

    def changed(self, campaign_id: str, stored: Sequence[StoredEvent]) -> Awaitable[None] | None:
        """Events another process appended (from the change feed). Applied at once when they
        follow on and nobody holds the campaign; else returns the work to await (a catch-up,
        which also checks the cache against the store)."""
        head = self.cached(campaign_id)
        if head is None or not stored:
            return None
        if stored[-1].version < head.version:
            # Events at versions this cache passed already: a late notice of events it read
            # meanwhile, or a store whose history moved back and goes on from there.
            return self._check_later(campaign_id)
        if stored[-1].version == head.version:
            same = head.facts.codec.hash_of(stored[-1].data) == head.hash
            return None if same else self._check_later(campaign_id)
        if (
            stored[0].version == head.version + 1
            and not self._locks.busy(campaign_id)
            and campaign_id not in self._checking
        ):
            # Nobody holds the campaign, no check of it is pending and nothing here awaits:
            # applying now cannot interleave.
            recorded = head.facts.codec.decode_stored(stored)
            if not any(type(r.event) is Rewound for r in recorded):
                state, game = head.state, head.game
                for item in recorded:
                    state = evolve(game, state, item.event)
                after = head.advanced(recorded[-1].version, state, recorded[-1].hash)
                self._install(head, after, recorded, None)
                return None
        return self._check_later(campaign_id)

    def _check_later(self, campaign_id: str) -> Awaitable[None]:
        """A catch-up to run; until it has, later notices of the campaign wait their turn
        behind it instead of being applied to a head it may replace."""
        self._checking[campaign_id] = self._checking.get(campaign_id, 0) + 1
        return self._checked(campaign_id)

    async def _checked(self, campaign_id: str) -> None:
        try:
            await self._locked_catch_up(campaign_id)
        finally:
            left = self._checking.pop(campaign_id, 1) - 1
            if left > 0:
                self._checking[campaign_id] = left

    async def _locked_catch_up(self, campaign_id: str) -> None:
        async with self._locks.hold(campaign_id):
            head = self.cached(campaign_id)
            if head is not None:
                await self._catch_up(head)

    async def catch_up_pinned(self, *, batch: int = CHECK_BATCH) -> None:
        """Bring every watched head up to the store, checking each against it: after the
        change feed was interrupted (notices may be lost)."""
        pinned = self.pinned()
        for start in range(0, len(pinned), batch):
            await self.check(pinned[start : start + batch])

    async def check(self, campaign_ids: Sequence[str]) -> None:
        """Bring the cached heads of ``campaign_ids`` up to the store, checking each against it,
        side by side; one the store cannot answer for is logged and left as it is."""
        results = await asyncio.gather(
            *(self._locked_catch_up(campaign_id) for campaign_id in campaign_ids),
            return_exceptions=True,
        )
        for campaign_id, result in zip(campaign_ids, results, strict=True):
            if isinstance(result, StoreError):
                log.warning("Campaign %s could not catch up: %s", campaign_id, result)
            elif isinstance(result, BaseException):
                raise result

    # -- writing --------------------------------------------------------------------------

    async def create(
        self,
        facts: Facts,
        steps: Sequence[Step],
        register: Callable[[list[bytes]], Awaitable[object]],
        *,
        start: tuple[int, Any, str] = (0, None, ""),
    ) -> Acted:
        """Store a new campaign with its first own events: ``register(payloads)`` creates it in
        the store with them, atomically. ``start`` is the (version, state, hash) they follow
        (a fork's point)."""
        async with self._locks.hold(facts.id):
            head = Head(facts, *start)
            now = self._clock()
            payloads, recorded = facts.codec.encode_steps(head.version, steps, None, None, now)
            await register(payloads)
            after = head.advanced(recorded[-1].version, steps[-1][1], recorded[-1].hash)
            self._install(head, after, recorded, None)
            await self._snapshot_past(head, after)
            return Acted(recorded[0].version, after.version, events=recorded)

    async def commit(
        self,
        campaign_id: str,
        expected_version: int,
        decide: Decide,
        *,
        seat: str | None,
        command_id: str | None,
        origin: object = None,
        action: str | None = None,
    ) -> Acted:
        """Append what ``decide(head)`` returns at ``expected_version``, in the campaign's lock;
        ``action`` is the id of the seat's legal action they record (none for a rewind).

        The head is the cached one, caught up first only when the caller has seen a newer
        version; the store's version check catches a cache that another process overtook.
        """
        async with self._locks.hold(campaign_id):
            head = self.cached(campaign_id) or await self._load(campaign_id)
            if expected_version > head.version:
                head = await self._catch_up(head)
            mark("lock")
            try:
                if expected_version != head.version:
                    raise VersionConflict(campaign_id, expected_version, head.version)
                steps = await decide(head)
            except (DomainError, VersionConflict):
                # A known command id is a duplicate whatever version it names or whatever the
                # rules now say of it. Looked up only here, on the way to a refusal: a command
                # that is decided goes to the append script, which checks the id first anyway.
                prior = await self._prior(campaign_id, command_id)
                if prior is None:
                    raise
                return await self._duplicate(head, prior.first, prior.last)
            return await self._append(head, steps, seat, command_id, origin, action)

    async def _prior(self, campaign_id: str, command_id: str | None) -> AppendResult | None:
        if command_id is None:
            return None
        return await self.store.command_result(campaign_id, command_id)

    async def _append(
        self,
        head: Head,
        steps: Sequence[Step],
        seat: str | None,
        command_id: str | None,
        origin: object,
        action: str | None = None,
    ) -> Acted:
        facts = head.facts
        payloads, recorded = facts.codec.encode_steps(
            head.version, steps, seat, command_id, self._clock(), action
        )
        state = steps[-1][1]
        # The store keeps decision points with the stream (server.campaigns.points).
        point = waits(facts.game, state)
        after = head.advanced(head.version + len(steps), state, recorded[-1].hash)
        if seat is not None:
            # The acting seat's answer, while the rules' answers about the new state are still
            # remembered (domain.core.memo): a busy server lists the states of hundreds of other
            # moves while the store answers this one.
            after.prepare(seat)
        mark("rules")
        try:
            result = await self.store.append(
                facts.id,
                head.version,
                payloads,
                command_id=command_id,
                now_ms=recorded[0].at_ms,
                point=point,
            )
        except VersionConflict as conflict:
            if conflict.actual < head.version:
                await self._reload(head)
            else:
                await self._catch_up(head)
            raise
        if result.duplicate:
            return await self._duplicate(await self._catch_up(head), result.first, result.last)
        mark("store")
        if result.last != after.version:  # the store appends at the expected version, so never
            after = head.advanced(result.last, state, recorded[-1].hash)
        self._install(head, after, recorded, origin)
        mark("delivery")
        await self._snapshot_past(head, after)
        mark("store")
        return Acted(result.first, result.last, events=recorded)

    async def _snapshot_past(self, before: Head, after: Head) -> None:
        """Save a snapshot when ``after`` passed a multiple of the snapshot interval."""
        if before.version // self._snapshot_every != after.version // self._snapshot_every:
            snapshot = after.facts.codec.encode_state(after.state)
            await self.store.save_snapshot(after.facts.id, after.version, snapshot)

    async def _duplicate(self, head: Head, first: int, last: int) -> Acted:
        events = await self.history.read(head.facts, first - 1, last)
        return Acted(first, last, duplicate=True, events=events)
