"""The catalog: one entry per campaign (game, ruleset, status, version, lineage, times, chapter
and day, and in games played in chapters the attempts at each chapter won and lost).

Every stored campaign has an entry, those of a ruleset this server does not play too: theirs
(:func:`unplayed_entry`) holds what the store's metadata and the campaign's creation say, with
``played`` false and the words that say why; their status is ``unknown``, since only the rules
they were recorded under could tell it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from domain.core.game import ChapterAttempts, Game, Outcome

KNOWN_LUCK = "known_luck"
"""The campaign attribute (value ``"1"``) of a campaign whose luck anyone may know: one created
with a chosen seed (it replays the same luck on any server), or a fork that keeps the luck of a
finished campaign (whose seed and salt are revealed) or of one whose luck was known already. Its
results are counted apart from the others' (:mod:`projections.stats`)."""


def known_luck(attrs: Mapping[str, str]) -> bool:
    return attrs.get(KNOWN_LUCK) == "1"


Status = Outcome | Literal["unknown"]
"""A campaign's outcome, or ``unknown`` for one whose ruleset this server does not play."""


class StoredRuleset(msgspec.Struct, frozen=True):
    """What a campaign's creation says of its rules, and whether this server plays them."""

    game: str
    ruleset: str
    seats: tuple[str, ...] = ()
    played: bool = True
    unplayed: str | None = None
    """Why this server does not play it, in a sentence (None when it does)."""


class CatalogEntry(msgspec.Struct, frozen=True):
    """A campaign as the catalog lists it. Every stored campaign has one: ``ruleset`` names the
    ruleset it was recorded under and ``played`` whether this server plays it; one it does not
    play has ``status`` ``unknown`` and ``unplayed``, the reason in a sentence."""

    id: str
    game: str
    status: Status
    version: int
    created_ms: int
    updated_ms: int
    parent: str | None = None
    fork_version: int = 0
    chapter: str | None = None
    day: int | None = None
    """The day the campaign has reached, in games that count days."""
    attempts_won: int = 0
    """Chapter attempts won, in games played in chapters."""
    attempts_lost: int = 0
    attempts: tuple[ChapterAttempts, ...] = ()
    """The same per chapter."""
    known_luck: bool = False
    """Whether anyone may know the campaign's luck (see :data:`KNOWN_LUCK`)."""
    ruleset: str = ""
    """The ruleset the campaign was recorded under (its ``campaign/created``)."""
    played: bool = True
    """Whether this server plays that ruleset: reads its states, takes its actions and forks."""
    unplayed: str | None = None
    """When it does not: why, in a sentence that names the rulesets this server plays."""


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
    known_luck: bool = False,
    ruleset: str | None = None,
) -> CatalogEntry:
    """The entry of a campaign whose head (``version``) has state ``state``; ``ruleset``: the
    one it was recorded under (by default the game's own)."""
    progress = game.progress(state)
    return CatalogEntry(
        id=campaign_id,
        game=game.info.name,
        status=game.outcome(state),
        version=version,
        created_ms=created_ms,
        updated_ms=updated_ms,
        parent=parent,
        fork_version=fork_version,
        chapter=progress.chapter,
        day=progress.day,
        attempts_won=sum(a.won for a in progress.attempts),
        attempts_lost=sum(a.lost for a in progress.attempts),
        attempts=progress.attempts,
        known_luck=known_luck,
        ruleset=game.info.ruleset if ruleset is None else ruleset,
    )


def unplayed_entry(
    ruleset: StoredRuleset,
    *,
    campaign_id: str,
    version: int,
    created_ms: int,
    updated_ms: int,
    parent: str | None = None,
    fork_version: int = 0,
    known_luck: bool = False,
) -> CatalogEntry:
    """The entry of a campaign whose ruleset this server does not play."""
    return CatalogEntry(
        id=campaign_id,
        game=ruleset.game,
        status="unknown",
        version=version,
        created_ms=created_ms,
        updated_ms=updated_ms,
        parent=parent,
        fork_version=fork_version,
        known_luck=known_luck,
        ruleset=ruleset.ruleset,
        played=False,
        unplayed=ruleset.unplayed,
    )
