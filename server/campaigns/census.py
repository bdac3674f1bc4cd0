"""How many stored campaigns are on rulesets this server cannot play, and which rulesets.

A pass pages through the store's catalog, every campaign (private ones too), and reads the
first event of each campaign it has not seen before (:class:`~server.campaigns.played.Rulesets`):
nothing is replayed, and once a process has seen a campaign, passes cost the catalog's pages
alone. Startup logs the first pass; ``/readyz`` answers from the last.
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from server.campaigns.played import Rulesets, played_rulesets
from server.store.base import UnknownCampaign
from server.store.contract import EventStore

log = logging.getLogger("tabletale.census")

PAGE = 500
"""Catalog entries read at a time."""


UNREADABLE = "(a creation this server cannot read)"
"""Counted as the ruleset of a campaign whose first event is not a ``campaign/created``."""


class Count(msgspec.Struct, frozen=True):
    """What the last pass found."""

    campaigns: int
    """Stored campaigns (those being created left out)."""
    unplayed: int
    """Those on a ruleset this server does not play."""
    rulesets: dict[str, int]
    """Those per ruleset, by name, sorted."""

    def words(self) -> str:
        if not self.campaigns:
            return "No campaign is stored yet."
        if not self.unplayed:
            return f"All {self.campaigns:,} stored campaigns are on rulesets this server plays."
        which = ", ".join(f"{name!r} ({count:,})" for name, count in self.rulesets.items())
        return (
            f"{self.unplayed:,} of {self.campaigns:,} stored campaigns are on rulesets this "
            f"server does not play: {which}. They are listed and can be read and exported as "
            f"stored, not played (this server plays {', '.join(map(repr, played_rulesets()))})."
        )


class Census:
    def __init__(self, store: EventStore, rulesets: Rulesets, *, page: int = PAGE) -> None:
        self._store = store
        self._rulesets = rulesets
        self._page = page
        self._played: set[str] = set()
        self._unplayed: dict[str, str] = {}
        """Campaign -> its ruleset, for those not played here."""
        self.last: Count | None = None
        """What the last pass found; None before the first."""

    async def run_once(self) -> Count:
        played, unplayed = self._played, self._unplayed
        present: set[str] = set()
        offset = 0
        while True:
            infos = await self._store.list_campaigns(
                offset=offset, limit=self._page, listed_only=False
            )
            for info in infos:
                if info.head == 0:  # being created
                    continue
                present.add(info.id)
                if info.id in played or info.id in unplayed:
                    continue
                try:
                    found = await self._rulesets.of(info.id)
                except UnknownCampaign:  # deleted under the pass
                    found = None
                except (msgspec.DecodeError, msgspec.ValidationError):
                    unplayed[info.id] = UNREADABLE
                    continue
                if found is None:
                    present.discard(info.id)
                elif found.played:
                    played.add(info.id)
                else:
                    unplayed[info.id] = found.ruleset
            if len(infos) < self._page:
                break
            offset += self._page
        # Campaigns no longer stored (a store replaced under the process) are forgotten.
        played &= present
        for gone in [cid for cid in unplayed if cid not in present]:
            del unplayed[gone]
        per: dict[str, int] = {}
        for name in unplayed.values():
            per[name] = per.get(name, 0) + 1
        self.last = Count(len(present), len(unplayed), dict(sorted(per.items())))
        return self.last

    async def run(self, *, interval: float) -> None:
        """Passes forever, ``interval`` seconds apart; the first is logged, and any that finds
        the count of campaigns not played here changed."""
        said: Count | None = None
        while True:
            try:
                count = await self.run_once()
                if said is None or (count.unplayed, count.rulesets) != (
                    said.unplayed,
                    said.rulesets,
                ):
                    (log.warning if count.unplayed else log.info)("%s", count.words())
                    said = count
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a store outage must not end the census
                log.warning("Counting the stored campaigns' rulesets failed: %s", error)
            await asyncio.sleep(interval)
