"""Content packs: the cards, goals, items, habits, supports, enemies, chapter elements and ruleset
data of Eila, validated at load.

A pack is a folder with a ``pack.json`` manifest naming its files (chapters in order), so loading
never depends on directory listing order. Each file decodes through its Struct in
:mod:`domain.eila.content_files` (read by :mod:`domain.eila.content_reader`), then
:mod:`domain.eila.content_checks` and :mod:`domain.eila.content_elements` judge what no type can.
:func:`check_pack` reports every problem it finds, each naming the file, the card and the field,
and also what the content makes unreachable (:mod:`domain.eila.content_reach`); :func:`load_pack`
refuses a pack with any problem of the first kind. Rules code imports the pack's types from here.
"""

from __future__ import annotations

from pathlib import Path

from domain.core.errors import ContentError
from domain.eila.content_reach import unreachable
from domain.eila.content_reader import PackReader
from domain.eila.content_types import (
    DESTINATIONS,
    EFFECT_KINDS,
    INTANGIBLE,
    RESOURCE_LABELS,
    RESOURCES,
    TANGIBLE,
    Ability,
    Card,
    Chapter,
    Condition,
    ContentPack,
    Conversion,
    Effect,
    Enemy,
    GoalSide,
    Item,
    Option,
    QuizCard,
    Ruleset,
    Support,
)

__all__ = [
    "DEFAULT_PACK",
    "DESTINATIONS",
    "EFFECT_KINDS",
    "INTANGIBLE",
    "RESOURCES",
    "RESOURCE_LABELS",
    "TANGIBLE",
    "Ability",
    "Card",
    "Chapter",
    "Condition",
    "ContentPack",
    "Conversion",
    "Effect",
    "Enemy",
    "GoalSide",
    "Item",
    "Option",
    "QuizCard",
    "Ruleset",
    "Support",
    "check_pack",
    "load_pack",
]

DEFAULT_PACK = Path(__file__).parent / "content"


def check_pack(path: Path | str, *, reachability: bool = True) -> list[ContentError]:
    """Every problem of the pack at ``path``; an empty list means it loads and every item,
    habit and support card in it can be had (``reachability=False`` skips that last part)."""
    reader = PackReader(Path(path))
    pack, errors = reader.read()
    if pack is not None and reachability:
        errors += unreachable(pack, reader.roles, reader.files)
    return errors


def load_pack(path: Path | str = DEFAULT_PACK) -> ContentPack:
    pack, errors = PackReader(Path(path)).read()
    if errors or pack is None:
        first = errors[0]
        more = f" ({len(errors) - 1} more problems follow it)" if len(errors) > 1 else ""
        raise ContentError(first.file, first.card, first.field, first.problem + more)
    return pack
