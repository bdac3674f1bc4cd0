"""Checking a migration: every campaign on both sides, byte for byte, then replayed.

For each campaign of the source: the target holds it, with the same metadata (game, lineage,
head, created and updated times, attributes, listed flag) and the same bytes at every version of
its own, and replaying the target's whole history with the game's rules gives every stored state
hash (what ``tabletale replay --verify`` checks). Each failure is a :class:`Divergence` naming the
campaign and what differs.

The target's catalog must list every one as well. A campaign it holds but does not list is
reported apart (``unlisted``): the Redis store enters a new campaign in its catalog, on a slot of
its own, just after creating it, so a run killed between the two writes leaves it out until a
resumed run finds it complete and puts it back (``EventStore.catalogue``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import msgspec

from domain.core.engine import states
from domain.core.errors import UnsupportedRuleset
from domain.core.hashing import state_hash
from server.campaigns.codec import codec_for
from server.campaigns.played import created_of, game_for
from server.export.migration import WORKERS, catalog_of, first_unequal
from server.store.base import CampaignInfo, UnknownCampaign
from server.store.contract import EventStore

Advance = Callable[[int, int, int], None]
"""Told ``(campaigns done, campaigns in all, events checked)``."""


class Divergence(msgspec.Struct, frozen=True):
    campaign: str
    what: str


class VerificationReport(msgspec.Struct, frozen=True):
    campaigns: int
    events: int
    """Events compared byte for byte (each campaign's own)."""
    replayed: int
    """Events replayed on the target (a fork's parents' prefix included)."""
    divergences: list[Divergence]
    unlisted: list[str]
    """Campaigns the target holds, equal to the source's, that its catalog does not list."""
    unplayed: list[str]
    """Campaigns compared byte for byte but not replayed: recorded under a ruleset (or of a
    game) this server does not play."""
    seconds: float


def metadata_difference(source: CampaignInfo, target: CampaignInfo) -> str | None:
    fields = ("game", "parent", "fork_version", "head", "created_ms", "updated_ms", "listed")
    for name in fields:
        mine, theirs = getattr(source, name), getattr(target, name)
        if mine != theirs:
            return f"its {name} is {theirs!r} on the target and {mine!r} on the source"
    if source.attrs != target.attrs:
        differing = sorted(set(source.attrs.items()) ^ set(target.attrs.items()))
        names = sorted({name for name, _ in differing})
        return f"its attributes {', '.join(names)} differ"
    return None


class Unplayed(Exception):
    """The campaign was recorded under a ruleset this server does not play: it cannot be
    replayed here (its bytes can still be compared)."""


async def replay_divergence(store: EventStore, info: CampaignInfo) -> tuple[int, str | None]:
    """Replay ``info``'s whole history from ``store``: the events replayed and what diverges
    (None: every state hash matches). Raises Unplayed."""
    stored = await store.read(info.id)
    if not stored:
        return 0, None
    try:
        # Before any event is decoded: a ruleset this server does not play may have others.
        game = game_for(created_of(stored[0].data))
    except UnsupportedRuleset as error:
        raise Unplayed(str(error)) from None
    recorded = codec_for(game).decode_stored(stored)
    pairs = [(item.version, item.event) for item in recorded]
    replay = states(game, pairs)
    for item in recorded:
        kind = type(item.event).__name__
        try:
            version, state = next(replay)
        except UnsupportedRuleset as error:
            raise Unplayed(str(error)) from None
        # Stored events that no longer apply are a divergence like any other, whatever the
        # reducer raises on them.
        except Exception as error:
            return len(recorded), f"version {item.version} ({kind}) cannot be replayed: {error}"
        if state_hash(state) != item.hash:
            return len(recorded), f"version {version} ({kind}) does not replay to its state hash"
    return len(recorded), None


class Verification:
    def __init__(
        self,
        source: EventStore,
        target: EventStore,
        *,
        workers: int = WORKERS,
        advance: Advance | None = None,
    ) -> None:
        self.source = source
        self.target = target
        self.workers = workers
        self._advance = advance
        self._events = 0
        self._replayed = 0
        self._done = 0
        self._unplayed: list[str] = []

    async def run(self, infos: Sequence[CampaignInfo]) -> VerificationReport:
        loop = asyncio.get_running_loop()
        started = loop.time()
        divergences: list[Divergence] = []
        queue = list(reversed(infos))

        async def worker() -> None:
            while queue:
                info = queue.pop()
                what = await self.check(info)
                if what is not None:
                    divergences.append(Divergence(info.id, what))
                self._done += 1
                if self._advance is not None:
                    self._advance(self._done, len(infos), self._events)

        await asyncio.gather(*(worker() for _ in range(min(self.workers, len(infos)))))
        listed = {info.id for info in await catalog_of(self.target)}
        diverging = {divergence.campaign for divergence in divergences}
        unlisted = [info.id for info in infos if info.id not in listed | diverging]
        divergences.sort(key=lambda divergence: divergence.campaign)
        return VerificationReport(
            campaigns=len(infos),
            events=self._events,
            replayed=self._replayed,
            divergences=divergences,
            unlisted=sorted(unlisted),
            unplayed=sorted(self._unplayed),
            seconds=loop.time() - started,
        )

    async def check(self, info: CampaignInfo) -> str | None:
        """What differs between the two stores' copies of ``info``, None when nothing does.
        ``info`` is read again from the source: it is the source as it is now that counts."""
        source = await self.source.info(info.id)
        try:
            target = await self.target.info(info.id)
        except UnknownCampaign:
            return "the target does not hold it"
        different = metadata_difference(source, target)
        if different is not None:
            return different
        unequal = await first_unequal(
            self.source, self.target, info.id, source.fork_version, source.head
        )
        if unequal is not None:
            return f"version {unequal} differs between the two stores"
        self._events += source.head - source.fork_version
        try:
            replayed, divergent = await replay_divergence(self.target, target)
        except Unplayed:
            self._unplayed.append(info.id)
            return None
        self._replayed += replayed
        return divergent
