"""Writing a campaign's export file (:mod:`.format`), a page of events at a time.

A *complete* file holds every event as recorded, with the state hash after it: it restores the
campaign anywhere (:mod:`.importing`). A *partial* file is what a seat may take while the
campaign runs: each event as that seat sees it (the game's redaction, and no seed or salt, see
``docs/protocol.md`` "Seed secrecy"), with no state hashes, since a hash of a state that holds the
seed could be searched for a small seed; and none of the seats' token hashes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from domain.core.events import CampaignCreated
from projections.log import seen_event
from server.campaigns.codec import Recorded
from server.campaigns.service import CampaignService
from server.campaigns.tokens import TOKEN_PREFIX
from server.export.format import (
    COMPLETE,
    FORMAT,
    FORMAT_VERSION,
    PARTIAL,
    CampaignLine,
    EndLine,
    EventLine,
    Header,
    Segment,
    encode_line,
    new_digest,
)
from server.store.base import CampaignInfo

PAGE = 1_000
"""Events read and written at a time."""


async def lineage_of(service: CampaignService, info: CampaignInfo, head: int) -> list[Segment]:
    """Which campaign recorded which versions of ``info``'s history up to ``head``, oldest
    first."""
    chain = [info]
    while chain[-1].parent is not None:
        chain.append(await service.info(chain[-1].parent))
    segments: list[Segment] = []
    last = head
    for campaign in chain:
        segments.append(Segment(campaign.id, campaign.fork_version + 1, last))
        last = campaign.fork_version
    return [segment for segment in reversed(segments) if segment.first <= segment.last]


async def export_lines(
    service: CampaignService,
    campaign_id: str,
    *,
    taken_ms: int,
    partial_for: str | None = None,
) -> AsyncIterator[bytes]:
    """The lines of ``campaign_id``'s export file as of its head now: complete, or partial as
    seat ``partial_for`` may see it."""
    head = await service.head(campaign_id)
    info = await service.info(campaign_id)
    game = head.game
    version = head.version
    first = await service.events(campaign_id, 0, 1)
    created = first[0].event if first else None
    if not isinstance(created, CampaignCreated):
        raise ValueError(f"Campaign {campaign_id} does not begin with its creation.")
    attrs = dict(info.attrs)
    if partial_for is not None:
        attrs = {k: v for k, v in attrs.items() if not k.startswith(TOKEN_PREFIX)}
    digest = new_digest()
    count = 0

    def out(line: Any) -> bytes:
        nonlocal count
        data = encode_line(line)
        digest.update(data)
        count += 1
        return data

    yield out(
        Header(
            FORMAT,
            FORMAT_VERSION,
            COMPLETE if partial_for is None else PARTIAL,
            taken_ms,
            partial_for,
        )
    )
    yield out(
        CampaignLine(
            id=campaign_id,
            game=game.info.name,
            ruleset=created.ruleset,
            seats=tuple(head.facts.seats),
            outcome=head.outcome,
            head=version,
            created_ms=info.created_ms,
            updated_ms=info.updated_ms,
            listed=info.listed,
            attrs=attrs,
            parent=info.parent,
            fork_version=info.fork_version,
            own_from=info.fork_version + 1,
            lineage=tuple(await lineage_of(service, info, version)),
        )
    )
    after = 0
    while after < version:
        page = await service.events(campaign_id, after, version, PAGE)
        if not page or page[0].version != after + 1:
            raise ValueError(f"Campaign {campaign_id} changed while it was exported.")
        for recorded in page:
            yield out(_event_line(game, recorded, partial_for))
        after = page[-1].version
    yield encode_line(EndLine(count, version, digest.hexdigest()))


def _event_line(game: Any, recorded: Recorded[Any], partial_for: str | None) -> EventLine[Any]:
    action = recorded.action
    if partial_for is None:
        event, digest = recorded.event, recorded.hash
    else:
        event, digest = seen_event(game, recorded.event, partial_for, ended=False), None
        if recorded.seat != partial_for:
            action = None  # what another seat chose is theirs to see
    return EventLine(
        recorded.version,
        event,
        digest,
        recorded.seat,
        recorded.command,
        recorded.at_ms,
        recorded.settled,
        action,
    )
