"""Storing a checked export file (:mod:`.reading`) in a store, through the store contract.

A campaign is stored in one atomic step: ``create`` with every event, or ``fork`` of its parent
with its own events when the target already holds that parent with the same prefix (so the
lineage holds). A target that holds the campaign already is compared event by event: the same
events (and perhaps more) leave nothing to do; fewer, all equal, are completed with one atomic
append; any other difference is refused with :class:`~.errors.DifferentCampaign`, naming the
first version that differs, and nothing is written.

The store keeps ``created_ms`` as the file has it; its ``updated_ms`` reads as the time of its
creation, since the contract sets it with the events' append.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core.game import Game
from server.codec import Codec, Envelope, Recorded, codec_for
from server.store.base import EventStore, StoredEvent, UnknownCampaign
from server.transfer.errors import DifferentCampaign
from server.transfer.reading import ExportFile

PAGE = 1_000
"""Stored events read at a time while comparing."""


class Imported(msgspec.Struct, frozen=True):
    """What an import did: ``created``, ``forked`` (of ``parent``), ``completed`` (``appended``
    events added to a shorter copy) or ``present`` (the target held every event already)."""

    campaign: str
    outcome: str
    events: int
    appended: int = 0
    parent: str | None = None


def envelope_of(recorded: Recorded[Any]) -> Envelope[Any]:
    return Envelope(
        recorded.event,
        recorded.hash,
        recorded.seat,
        recorded.command,
        recorded.at_ms,
        recorded.settled,
    )


async def first_difference(
    store: EventStore, codec: Codec, campaign_id: str, events: Sequence[Recorded[Any]], held: int
) -> int | None:
    """The first version up to ``min(held, len(events))`` where the store's ``campaign_id``
    differs from ``events``; None when they agree."""
    upto = min(held, len(events))
    after = 0
    while after < upto:
        page = await store.read(campaign_id, after, upto, PAGE)
        for stored in page:
            if stored.version != after + 1 or not _same(codec, stored, events[after]):
                return after + 1
            after = stored.version
        if not page:
            return after + 1
    return None


def _same(codec: Codec, stored: StoredEvent, recorded: Recorded[Any]) -> bool:
    try:
        return codec.decode(stored.data) == envelope_of(recorded)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return False


async def import_export(store: EventStore, exported: ExportFile) -> Imported:
    """Store ``exported`` in ``store`` (see the module's docstring)."""
    campaign = exported.campaign
    game = exported.game
    codec = codec_for(game)
    events = exported.events
    try:
        held = await store.info(campaign.id)
    except UnknownCampaign:
        return await _store_new(store, exported, game, codec)
    if held.game != campaign.game:
        raise DifferentCampaign(campaign.id, None, f"it is a campaign of {held.game}")
    differs = await first_difference(store, codec, campaign.id, events, held.head)
    if differs is not None:
        raise DifferentCampaign(campaign.id, differs, "its events are not the file's")
    if held.head >= len(events):
        return Imported(campaign.id, "present", held.head)
    rest = [codec.encode(envelope_of(recorded)) for recorded in events[held.head :]]
    await store.append(campaign.id, held.head, rest, now_ms=campaign.updated_ms)
    return Imported(campaign.id, "completed", len(events), appended=len(rest))


async def _store_new(store: EventStore, exported: ExportFile, game: Game, codec: Codec) -> Imported:
    campaign = exported.campaign
    events = exported.events
    if campaign.parent is not None and await _holds_prefix(store, codec, exported):
        own = [codec.encode(envelope_of(recorded)) for recorded in events[campaign.fork_version :]]
        await store.fork(
            campaign.parent,
            campaign.fork_version,
            campaign.id,
            now_ms=campaign.created_ms,
            attrs=dict(campaign.attrs),
            events=own,
            listed=campaign.listed,
        )
        return Imported(campaign.id, "forked", len(events), parent=campaign.parent)
    await store.create(
        campaign.id,
        game.info.name,
        now_ms=campaign.created_ms,
        attrs=dict(campaign.attrs),
        events=[codec.encode(envelope_of(recorded)) for recorded in events],
        listed=campaign.listed,
    )
    return Imported(campaign.id, "created", len(events))


async def _holds_prefix(store: EventStore, codec: Codec, exported: ExportFile) -> bool:
    """Whether ``store`` holds the file's parent with the same history up to the fork."""
    campaign = exported.campaign
    assert campaign.parent is not None
    try:
        parent = await store.info(campaign.parent)
    except UnknownCampaign:
        return False
    if parent.game != campaign.game or parent.head < campaign.fork_version:
        return False
    prefix = exported.events[: campaign.fork_version]
    return await first_difference(store, codec, campaign.parent, prefix, len(prefix)) is None
