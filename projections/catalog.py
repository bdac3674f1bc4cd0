"""The catalog: one entry per campaign (game, status, version, lineage, times, chapter)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.game import Game, Outcome


class CatalogEntry(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: Outcome
    version: int
    created_ms: int
    updated_ms: int
    parent: str | None = None
    fork_version: int = 0
    chapter: str | None = None


def catalog_entry(
    game: Game,
    state: Any,
    *,
    campaign_id: str,
    version: int,
    created_ms: int,
    updated_ms: int,
    parent: str | None = None,
    fork_version: int = 0,
) -> CatalogEntry:
    """The entry of a campaign whose head (``version``) has state ``state``."""
    return CatalogEntry(
        id=campaign_id,
        game=game.info.name,
        status=game.outcome(state),
        version=version,
        created_ms=created_ms,
        updated_ms=updated_ms,
        parent=parent,
        fork_version=fork_version,
        chapter=game.progress(state).chapter,
    )
