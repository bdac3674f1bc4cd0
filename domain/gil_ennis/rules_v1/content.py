"""The game's cards as data: the map, the two character cards, six dream cards and Mount Humbaba.

The JSON files under ``content/`` are decoded once, at import, into the frozen Structs of
:mod:`domain.gil_ennis.rules_v1.content_types`, which rules code imports from here too. A problem
raises :class:`~domain.core.errors.ContentError` naming the file, the card and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import msgspec

from domain.core.content_decode import ContentDecoder, FieldPath, Invalid
from domain.core.errors import ContentError
from domain.gil_ennis.rules_v1.content_types import (
    FREQUENCIES,
    POWER_KINDS,
    SPECIALS,
    STEPS,
    WORRY_KINDS,
    Ability,
    Campsite,
    CharacterCard,
    CharactersFile,
    Content,
    DreamCard,
    DreamFile,
    DreamsFile,
    Humbaba,
    Insight,
    Power,
    Requirement,
    TrailMap,
    TrailPath,
    Worry,
)

__all__ = [
    "ABILITIES",
    "CHARACTERS",
    "CONTENT",
    "CONTENT_DIR",
    "DREAMS",
    "FREQUENCIES",
    "POWER_KINDS",
    "SPECIALS",
    "STEPS",
    "WORRY_KINDS",
    "Ability",
    "Campsite",
    "CharacterCard",
    "Content",
    "DreamCard",
    "Humbaba",
    "Insight",
    "Power",
    "Requirement",
    "TrailMap",
    "TrailPath",
    "Worry",
    "load_content",
]

T = TypeVar("T")

CONTENT_DIR = Path(__file__).parents[1] / "packs" / "1"
"""The pack of gil-ennis/1: the files of gil-ennis/2+content.1, which only numbered them."""

_MAP = ContentDecoder(TrailMap)
_CHARACTERS = ContentDecoder(CharactersFile)
_DREAMS = ContentDecoder(DreamsFile)
_HUMBABA = ContentDecoder(Humbaba)

# The lists whose entries are cards, named in errors by their id.
_CARD_LISTS = frozenset({"trail", "paths", "campsites", "characters", "dreams"})


def load_content(directory: Path = CONTENT_DIR) -> Content:
    return Content(
        load_map(directory),
        load_characters(directory),
        load_dreams(directory),
        load_humbaba(directory),
    )


def load_map(directory: Path) -> TrailMap:
    file = "map.json"
    trail_map = _decode(directory, file, _MAP)
    seen: set[str] = set()
    for site in (*trail_map.trail, *(s for p in trail_map.paths for s in p.campsites)):
        if site.id in seen:
            raise ContentError(file, site.id, "id", "This campsite id is used twice.")
        seen.add(site.id)
    if trail_map.paths[0].id == trail_map.paths[1].id:
        raise ContentError(file, trail_map.paths[1].id, "id", "This path id is used twice.")
    return trail_map


def load_characters(directory: Path) -> tuple[CharacterCard, ...]:
    file = "characters.json"
    cards = _decode(directory, file, _CHARACTERS).characters
    for card in cards:
        ids = [a.id for a in card.abilities]
        if len(set(ids)) != len(ids):
            raise ContentError(file, card.id, "abilities", "Two abilities share an id.")
        for ability in card.abilities:
            _check_power(file, card.id, ability.power)
    if sorted(c.id for c in cards) != ["ennis", "gil"]:
        problem = "Expected exactly one card for gil and one for ennis."
        raise ContentError(file, None, "characters", problem)
    return tuple(sorted(cards, key=lambda c: c.id != "gil"))


def load_dreams(directory: Path) -> tuple[DreamCard, ...]:
    file = "dreams.json"
    cards: list[DreamCard] = []
    for dream in _decode(directory, file, _DREAMS).dreams:
        if any(c.id == dream.id for c in cards):
            raise ContentError(file, dream.id, "id", "This dream id is used twice.")
        _check_power(file, dream.id, dream.insight.power)
        _check_worry(file, dream.id, dream.worry)
        cards.append(_dream_card(file, dream))
    return tuple(cards)


def load_humbaba(directory: Path) -> Humbaba:
    return _decode(directory, "humbaba.json", _HUMBABA)


def _check_power(file: str, card: str, power: Power) -> None:
    if power.kind == "set" and power.value == 0:
        raise ContentError(file, card, "value", "A set power needs a value from 1 to 6.")
    if power.kind != "set" and power.value != 0:
        raise ContentError(file, card, "value", "Only a set power takes a value.")


def _check_worry(file: str, card: str, worry: Worry) -> None:
    if worry.kind == "lose_pocket":
        if worry.value != 0:
            raise ContentError(file, card, "value", "A lose_pocket worry takes no value.")
        return
    high = 3 if worry.kind == "add_rolled" else 6
    if not 1 <= worry.value <= high:
        raise ContentError(file, card, "value", f"Expected a whole number from 1 to {high}.")


def _dream_card(file: str, dream: DreamFile) -> DreamCard:
    return DreamCard(
        dream.id,
        dream.name,
        _requirements(file, dream.id, "alone", dream.alone),
        _requirements(file, dream.id, "together", dream.together),
        dream.insight,
        dream.worry,
    )


def _requirements(
    file: str, card: str, field: str, dice: tuple[int | tuple[int, ...], ...]
) -> tuple[Requirement, ...]:
    found = []
    for index, die in enumerate(dice):
        low, high = (die, die) if isinstance(die, int) else die
        if low > high:
            problem = "Expected a die value or a [low, high] range of values."
            raise ContentError(file, card, f"{field}[{index}]", problem)
        found.append(Requirement(low, high))
    return tuple(found)


def _decode(directory: Path, file: str, decoder: ContentDecoder[T]) -> T:
    try:
        data = (directory / file).read_bytes()
    except OSError as exc:
        raise ContentError(file, None, None, f"The file cannot be read ({exc.strerror}).") from None
    try:
        return decoder.decode(data)
    except Invalid as exc:
        first = exc.problems[0]
        raise ContentError(
            file, _card(file, exc.value, first.path), _field(first.path), first.message
        ) from None
    except msgspec.DecodeError as exc:
        raise ContentError(file, None, None, f"The file is not valid JSON ({exc}).") from None


def _card(file: str, value: Any, path: FieldPath) -> str | None:
    """The id of the innermost card on ``path`` (None when that card has no usable id)."""
    card = "humbaba" if file == "humbaba.json" else None
    node, previous = value, None
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break  # the path ends at a missing field
        if isinstance(step, int) and previous in _CARD_LISTS:
            card_id = node.get("id") if isinstance(node, dict) else None
            card = card_id if isinstance(card_id, str) and card_id.strip() else None
        previous = step
    return card


def _field(path: FieldPath) -> str | None:
    """The last name on ``path`` with the indices after it: ``alone[0]``, ``step``."""
    names = [i for i, step in enumerate(path) if isinstance(step, str)]
    if not names:
        return None
    last = names[-1]
    return f"{path[last]}" + "".join(f"[{step}]" for step in path[last + 1 :])


CONTENT = load_content()
DREAMS: dict[str, DreamCard] = {d.id: d for d in CONTENT.dreams}
CHARACTERS: dict[str, CharacterCard] = {c.id: c for c in CONTENT.characters}
ABILITIES: dict[str, Ability] = {
    f"{c.id}/{a.id}": a for c in CONTENT.characters for a in c.abilities
}
"""Abilities by ``"<character>/<ability id>"``."""
