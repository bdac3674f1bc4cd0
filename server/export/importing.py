"""Storing a checked export file (:mod:`.reading`) in a store, through the store contract.

A campaign of up to :data:`ATOMIC` events of its own is stored in one atomic step: ``create``
with every event, or ``fork`` of its parent with its own events when the target already holds
that parent with the same prefix (so the lineage holds). A longer one would be one giant write
(on Redis, a script that holds its shard for seconds), so it is *staged*: written in steps of
:data:`ATOMIC` events to a private, unlisted campaign ``<id>.import``, which a rerun completes
after an interruption, and made visible at the end in one atomic step, as a fork of the staged
history at its head (a fork costs the same at any length). Its lineage then names the staged
campaign as its parent; its events, attributes and every version are the file's.

A target that holds the campaign already is compared event by event: the same events (and perhaps
more) leave nothing to do; fewer, all equal, are completed by appending the rest (in steps of
:data:`ATOMIC`: the campaign passes through versions it really had); any other difference is
refused with :class:`~.errors.DifferentCampaign`, naming the first version that differs, and
nothing is written.

Once stored, the campaign (and the staged one it is forked from) is prepared as if it had been
played there: its decision points recorded and a snapshot saved every 500 versions
(:meth:`~server.campaigns.points.DecisionPoints.prepare`), so that a fresh process forks it or
loads its head without folding its whole history first.

The store keeps ``created_ms`` as the file has it; its ``updated_ms`` reads as the time of its
creation, since the contract sets it with the events' append.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.core.game import Game
from projections.catalog import KNOWN_LUCK, known_luck
from server.campaigns.codec import Codec, Envelope, Recorded, codec_for
from server.campaigns.points import prepare_stored
from server.export.errors import DifferentCampaign
from server.export.reading import ExportFile
from server.store.base import PRIVATE_ATTR, StoredEvent, UnknownCampaign
from server.store.contract import EventStore

PAGE = 1_000
"""Stored events read at a time while comparing."""
ATOMIC = 5_000
"""The most events stored in one step."""
STAGED = ".import"
"""The end of the id of the campaign a long import is staged in."""


class Imported(msgspec.Struct, frozen=True):
    """What an import did: ``created``, ``forked`` (of ``parent``), ``completed`` (``appended``
    events added to a shorter copy) or ``present`` (the target held every event already)."""

    campaign: str
    outcome: str
    events: int
    appended: int = 0
    parent: str | None = None
    staged: bool = False
    """Whether it went through a staged campaign (``<id>.import``), now its parent."""


def envelope_of(recorded: Recorded[Any]) -> Envelope[Any]:
    return Envelope(
        recorded.event,
        recorded.hash,
        recorded.seat,
        recorded.command,
        recorded.at_ms,
        recorded.settled,
        recorded.action,
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


async def import_export(
    store: EventStore, exported: ExportFile, *, atomic: int = ATOMIC
) -> Imported:
    """Store ``exported`` in ``store`` and prepare it there (see the module's docstring);
    ``atomic``: the most events stored in one step."""
    imported = await _import(store, exported, atomic)
    staging = [imported.parent] if imported.staged and imported.parent is not None else []
    await prepare_stored(store, [*staging, imported.campaign])
    return imported


async def _import(store: EventStore, exported: ExportFile, atomic: int) -> Imported:
    campaign = exported.campaign
    game = exported.game
    codec = codec_for(game)
    events = exported.events
    try:
        held = await store.info(campaign.id)
    except UnknownCampaign:
        return await _store_new(store, exported, game, codec, atomic)
    if held.game != campaign.game:
        raise DifferentCampaign(campaign.id, None, f"it is a campaign of {held.game}")
    differs = await first_difference(store, codec, campaign.id, events, held.head)
    if differs is not None:
        raise DifferentCampaign(campaign.id, differs, "its events are not the file's")
    if known_luck(campaign.attrs) and not known_luck(held.attrs):
        # marked since the copy the store holds was taken (marks only grow)
        await store.add_attrs(campaign.id, {KNOWN_LUCK: "1"})
    if held.head >= len(events):
        return Imported(campaign.id, "present", held.head)
    await _append_from(store, codec, campaign.id, events, held.head, atomic, campaign.updated_ms)
    return Imported(campaign.id, "completed", len(events), appended=len(events) - held.head)


async def _append_from(
    store: EventStore,
    codec: Codec,
    campaign_id: str,
    events: Sequence[Recorded[Any]],
    at: int,
    step: int,
    now_ms: int,
) -> None:
    """Append ``events`` after version ``at`` to ``campaign_id``, ``step`` at a time."""
    while at < len(events):
        chunk = [codec.encode(envelope_of(recorded)) for recorded in events[at : at + step]]
        await store.append(campaign_id, at, chunk, now_ms=now_ms)
        at += len(chunk)


async def _store_new(
    store: EventStore, exported: ExportFile, game: Game, codec: Codec, atomic: int
) -> Imported:
    campaign = exported.campaign
    events = exported.events
    joins = campaign.parent is not None and await _holds_prefix(store, codec, exported)
    start = campaign.fork_version if joins else 0
    if len(events) - start > atomic:
        return await _staged(store, exported, codec, joins, atomic)
    await _register(store, exported, campaign.id, codec, joins, len(events))
    if joins:
        return Imported(campaign.id, "forked", len(events), parent=campaign.parent)
    return Imported(campaign.id, "created", len(events))


async def _register(
    store: EventStore,
    exported: ExportFile,
    campaign_id: str,
    codec: Codec,
    joins: bool,
    until: int,
    *,
    attrs: dict[str, str] | None = None,
    listed: bool | None = None,
) -> None:
    """Create ``campaign_id`` with the file's events up to version ``until``: as a fork of the
    file's parent (``joins``), with those after its fork version, else with all of them."""
    campaign = exported.campaign
    start = campaign.fork_version if joins else 0
    payloads = [codec.encode(envelope_of(recorded)) for recorded in exported.events[start:until]]
    keep = dict(campaign.attrs) if attrs is None else attrs
    shown = campaign.listed if listed is None else listed
    if joins:
        assert campaign.parent is not None
        await store.fork(
            campaign.parent,
            start,
            campaign_id,
            now_ms=campaign.created_ms,
            attrs=keep,
            events=payloads,
            listed=shown,
        )
        return
    await store.create(
        campaign_id,
        campaign.game,
        now_ms=campaign.created_ms,
        attrs=keep,
        events=payloads,
        listed=shown,
    )


async def _staged(
    store: EventStore, exported: ExportFile, codec: Codec, joins: bool, atomic: int
) -> Imported:
    """Write the history to ``<id>.import`` in steps (completing what an interrupted run left),
    then make the campaign visible in one step, as a fork of it at its head."""
    campaign = exported.campaign
    events = exported.events
    staging = campaign.id + STAGED
    start = campaign.fork_version if joins else 0
    try:
        held = await store.info(staging)
    except UnknownCampaign:
        hidden = {PRIVATE_ATTR: "1"}
        await _register(
            store, exported, staging, codec, joins, start + atomic, attrs=hidden, listed=False
        )
        at = start + atomic
    else:
        differs = await first_difference(store, codec, staging, events, held.head)
        if differs is not None or held.head > len(events):
            raise DifferentCampaign(staging, differs, "its staged events are not the file's")
        at = held.head
    await _append_from(store, codec, staging, events, at, atomic, campaign.created_ms)
    await store.fork(
        staging,
        len(events),
        campaign.id,
        now_ms=campaign.created_ms,
        attrs=dict(campaign.attrs),
        listed=campaign.listed,
    )
    return Imported(campaign.id, "created", len(events), parent=staging, staged=True)


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
