"""The export file of a campaign whose ruleset this server does not play: a *raw* file.

Every event as stored, the state hash its envelope records included, under a header whose
``scope`` is ``raw``: the server that wrote it could not replay it, so nothing in it was verified
by replay, and its outcome is ``unknown``. It is otherwise a complete file, line for line
(:mod:`.format`): a server that plays the ruleset imports it, replaying every event as it does for
any file (:mod:`.reading`); one that does not refuses it in words (``docs/export.md``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from projections.catalog import StoredRuleset
from server.campaigns.raw import read_stored
from server.campaigns.service import CampaignService
from server.export.format import (
    FORMAT,
    FORMAT_VERSION,
    RAW,
    UNKNOWN_OUTCOME,
    CampaignLine,
    EndLine,
    EventLine,
    Header,
    encode_line,
    new_digest,
)
from server.export.writing import PAGE, lineage_of


async def raw_export_lines(
    service: CampaignService, campaign_id: str, ruleset: StoredRuleset, *, taken_ms: int
) -> AsyncIterator[bytes]:
    """The lines of ``campaign_id``'s raw export file as of its stored head now."""
    info = await service.info(campaign_id)
    version = info.head
    digest = new_digest()
    count = 0

    def out(line: Any) -> bytes:
        nonlocal count
        data = encode_line(line)
        digest.update(data)
        count += 1
        return data

    yield out(Header(FORMAT, FORMAT_VERSION, RAW, taken_ms))
    yield out(
        CampaignLine(
            id=campaign_id,
            game=ruleset.game,
            ruleset=ruleset.ruleset,
            seats=ruleset.seats,
            outcome=UNKNOWN_OUTCOME,
            head=version,
            created_ms=info.created_ms,
            updated_ms=info.updated_ms,
            listed=info.listed,
            attrs=dict(info.attrs),
            parent=info.parent,
            fork_version=info.fork_version,
            own_from=info.fork_version + 1,
            lineage=tuple(await lineage_of(service, info, version)),
        )
    )
    after = 0
    while after < version:
        page = await read_stored(service.store, campaign_id, after, version, PAGE)
        if not page or page[0].version != after + 1:
            raise ValueError(f"Campaign {campaign_id} changed while it was exported.")
        for recorded in page:
            yield out(
                EventLine(
                    recorded.version,
                    recorded.event,
                    recorded.hash,
                    recorded.seat,
                    recorded.command,
                    recorded.at_ms,
                    recorded.settled,
                )
            )
        after = page[-1].version
    yield encode_line(EndLine(count, version, digest.hexdigest()))
