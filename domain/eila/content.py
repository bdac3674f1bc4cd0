"""Content packs: the cards, goals, items, habits and ruleset data of Eila, validated at load.

A pack is a folder with a ``pack.json`` manifest naming its files (chapters in order), so loading
never depends on directory listing order. :func:`check_pack` reports every problem it finds, each
naming the file, the card and the field; :func:`load_pack` refuses a pack with any problem. Rules
code imports the pack's types, from :mod:`domain.eila.content_types`, here too.
"""

from __future__ import annotations

from pathlib import Path

from domain.core.errors import ContentError
from domain.eila.content_pack import parse_pack
from domain.eila.content_types import (
    COLOURS,
    DESTINATIONS,
    EFFECT_KINDS,
    INTANGIBLE,
    RESOURCE_LABELS,
    RESOURCES,
    TANGIBLE,
    Card,
    Chapter,
    ContentPack,
    Conversion,
    Effect,
    GoalSide,
    Item,
    Option,
    Ruleset,
)

__all__ = [
    "COLOURS",
    "DEFAULT_PACK",
    "DESTINATIONS",
    "EFFECT_KINDS",
    "INTANGIBLE",
    "RESOURCES",
    "RESOURCE_LABELS",
    "TANGIBLE",
    "Card",
    "Chapter",
    "ContentPack",
    "Conversion",
    "Effect",
    "GoalSide",
    "Item",
    "Option",
    "Ruleset",
    "check_pack",
    "load_pack",
]

DEFAULT_PACK = Path(__file__).parent / "content"


def check_pack(path: Path | str) -> list[ContentError]:
    """Every problem of the pack at ``path``; an empty list means it loads."""
    return parse_pack(Path(path))[1]


def load_pack(path: Path | str = DEFAULT_PACK) -> ContentPack:
    pack, errors = parse_pack(Path(path))
    if errors or pack is None:
        first = errors[0]
        more = f" ({len(errors) - 1} more problems follow it)" if len(errors) > 1 else ""
        raise ContentError(first.file, first.card, first.field, first.problem + more)
    return pack
