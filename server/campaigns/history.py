"""A campaign's stored past, read into states: rebuilding any version and folding events.

Nothing here caches or locks; the heads repository
(:class:`~server.campaigns.repository.HeadRepository`) owns the cached heads and calls this for
every state it does not hold. It is also the one place rewinds are resolved:
every fold hands the pure replay loop the earlier states a rewind names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.core.engine import last_rewind, replay, rewind_targets, states
from domain.core.hashing import state_hash
from server.campaigns.codec import Recorded
from server.campaigns.head import Facts, Head
from server.store.base import StoreError
from server.store.contract import EventStore


class History:
    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def rebuild(self, facts: Facts, version: int) -> Head:
        """The head at ``version``, from the newest snapshot at or below it and the events after."""
        snapshot = await self.store.load_snapshot(facts.id, version)
        start, state = (0, None)
        if snapshot is not None:
            start, state = snapshot.version, facts.codec.decode_state(snapshot.data)
        if start == version and state is not None:
            return Head(facts, version, state, state_hash(state))
        stored = await self.store.read(facts.id, start, version)
        if not stored or stored[-1].version != version:
            raise StoreError(f"Campaign {facts.id} has no event at version {version}.")
        recorded = facts.codec.decode_stored(stored)
        state = await self._final(facts, recorded, state, start)
        return Head(facts, version, state, recorded[-1].hash)

    async def read(
        self, facts: Facts, after: int, until: int | None = None, limit: int | None = None
    ) -> list[Recorded[Any]]:
        """Stored events ``after < version <= until`` of a campaign whose facts the caller
        holds, decoded, oldest first. No lock is taken and no head is loaded, so code running
        inside the campaign's lock may call it."""
        return facts.codec.decode_stored(await self.store.read(facts.id, after, until, limit))

    async def fold(
        self, facts: Facts, recorded: Sequence[Recorded[Any]], state: Any, start: int
    ) -> list[Any]:
        """The state after each of ``recorded`` (which follow version ``start``)."""
        pairs = [(r.version, r.event) for r in recorded]
        known = {t: await self._target(facts, t) for t in rewind_targets(pairs, start)}
        return [s for _, s in states(facts.game, pairs, state, known)]

    async def _final(
        self, facts: Facts, recorded: Sequence[Recorded[Any]], state: Any, start: int
    ) -> Any:
        """The state after the last of ``recorded``; only the last rewind among them matters."""
        pairs = [(r.version, r.event) for r in recorded]
        found = last_rewind(pairs)
        if found is not None:
            index, target = found
            state = await self._target(facts, target)
            pairs = pairs[index + 1 :]
        return replay(facts.game, pairs, state)

    async def _target(self, facts: Facts, version: int) -> Any:
        return (await self.rebuild(facts, version)).state
