"""Keeps the catalog (and the statistics derived from it) fresh, with a checkpoint per campaign.

The checkpoint is the version each entry was built at; a pass rebuilds only the entries whose
campaign has moved on since. Dropping the runner's memory and running a pass rebuilds everything.
A campaign of a ruleset this server does not play gets an entry too, from its metadata and its
creation (:func:`projections.catalog.unplayed_entry`): nothing stored is left out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Protocol

from domain.core.errors import UnsupportedRuleset
from domain.core.game import Game
from projections.catalog import (
    CatalogEntry,
    StoredRuleset,
    catalog_entry,
    known_luck,
    unplayed_entry,
)
from projections.stats import GameStats, statistics

log = logging.getLogger("tabletale.projections")


class CampaignMeta(Protocol):
    """What the runner reads of a campaign's metadata (``server.store.base.CampaignInfo``)."""

    @property
    def id(self) -> str: ...

    @property
    def head(self) -> int: ...

    @property
    def created_ms(self) -> int: ...

    @property
    def updated_ms(self) -> int: ...

    @property
    def parent(self) -> str | None: ...

    @property
    def fork_version(self) -> int: ...

    @property
    def attrs(self) -> dict[str, str]: ...


class CampaignSource(Protocol):
    async def campaigns(self, *, offset: int, limit: int) -> list[Any]:
        """Metadata (:class:`CampaignMeta`) of the campaigns the statistics count, newest first
        (a server lists the public ones: the statistics must not reveal the private ones)."""
        ...

    async def head(self, campaign_id: str) -> tuple[Game, int, Any]:
        """``(game, version, state)`` at the campaign's head; raises
        :class:`~domain.core.errors.UnsupportedRuleset` for a ruleset this server does not play."""
        ...

    async def ruleset(self, campaign_id: str) -> StoredRuleset:
        """The ruleset the campaign was recorded under, and whether this server plays it."""
        ...


class CatalogRunner:
    def __init__(self, source: CampaignSource, *, page: int = 200) -> None:
        self._source = source
        self._page = page
        self._entries: dict[str, CatalogEntry] = {}
        self._listed: set[str] = set()
        """The campaigns the statistics count: those the source lists. Entries built on demand
        for others (:meth:`entries`) stay out of them."""

    def checkpoint(self, campaign_id: str) -> int:
        entry = self._entries.get(campaign_id)
        return 0 if entry is None else entry.version

    async def entries(self, infos: Iterable[Any]) -> list[CatalogEntry]:
        """Fresh entries for ``infos`` (in their order), rebuilding those behind their head."""
        result: list[CatalogEntry] = []
        for info in infos:
            entry = await self._fresh(info)
            if entry is not None:
                result.append(entry)
        return result

    async def _fresh(self, info: CampaignMeta) -> CatalogEntry | None:
        entry = self._entries.get(info.id)
        # Any other version is rebuilt, a lower one included: a store that lost its last writes
        # moved the campaign back, and the entry follows it.
        # A mark of known luck may come after the campaign's last event (a fork that shares its
        # luck): it rebuilds the entry as a new event would.
        if (
            entry is not None
            and entry.version == info.head
            and entry.known_luck == known_luck(info.attrs)
        ):
            return entry
        if info.head == 0:  # being created
            return None
        try:
            game, version, state = await self._source.head(info.id)
        except UnsupportedRuleset:
            ruleset = await self._source.ruleset(info.id)
            if entry is None or entry.played:
                log.info("Campaign %s is listed, not played: %s", info.id, ruleset.unplayed)
            entry = unplayed_entry(
                ruleset,
                campaign_id=info.id,
                version=info.head,
                created_ms=info.created_ms,
                updated_ms=info.updated_ms,
                parent=info.parent,
                fork_version=info.fork_version,
                known_luck=known_luck(info.attrs),
            )
            self._entries[info.id] = entry
            return entry
        # A campaign's ruleset never changes: the entry before this one knows it.
        if entry is not None and entry.played and entry.ruleset:
            ruleset_name = entry.ruleset
        else:
            ruleset_name = (await self._source.ruleset(info.id)).ruleset
        entry = catalog_entry(
            game,
            state,
            campaign_id=info.id,
            version=version,
            created_ms=info.created_ms,
            updated_ms=info.updated_ms,
            parent=info.parent,
            fork_version=info.fork_version,
            known_luck=known_luck(info.attrs),
            ruleset=ruleset_name,
        )
        self._entries[info.id] = entry
        return entry

    async def run_once(self) -> int:
        """One pass over every campaign; returns how many entries were rebuilt."""
        rebuilt = 0
        offset = 0
        while True:
            infos = await self._source.campaigns(offset=offset, limit=self._page)
            for info in infos:
                self._listed.add(info.id)
                before = self.checkpoint(info.id)
                entry = await self._fresh(info)
                if entry is not None and entry.version != before:
                    rebuilt += 1
            if len(infos) < self._page:
                return rebuilt
            offset += self._page

    async def run(self, *, interval: float) -> None:
        """Passes forever, ``interval`` seconds apart; a failed pass is logged and retried."""
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a store outage must not end the runner
                log.warning("Catalog pass failed: %s", error)
            await asyncio.sleep(interval)

    def statistics(self) -> list[GameStats]:
        listed = self._listed
        return statistics(entry for key, entry in self._entries.items() if key in listed)
