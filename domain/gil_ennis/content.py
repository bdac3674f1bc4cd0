"""The game's cards as data: the map, the two character cards, six dream cards and Mount Humbaba.

The JSON files under ``content/`` are validated here into frozen Structs once, at import. Every
problem raises :class:`~domain.core.errors.ContentError` naming the file, the card and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.core.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"

POWER_KINDS = ("nudge", "reroll", "flip", "set")
"""nudge: +1 or -1 to one die; reroll: roll one die again; flip: turn one die to its opposite
face (7 minus its value); set: turn one die to the power's value."""
FREQUENCIES = ("round", "game")
STEPS = ("pitch", "sleep", "break", "final_night")
WORRY_KINDS = ("add_die", "add_rolled", "raise_lowest", "lose_pocket")
SPECIALS = ("reroll", "calm", "cash_insights", "give")
"""The four special campsite actions: one character rerolls any of their dice; a character
discards a die to lower the worry level by its value; a character discards insights to draw as
many dice; one character gives a die to the other."""
ALONE_RANGE = (4, 6)
TOGETHER_RANGE = (1, 4)


class Requirement(msgspec.Struct, frozen=True):
    """One die a dream asks for: any value from ``low`` to ``high``."""

    low: int
    high: int

    def accepts(self, value: int) -> bool:
        return self.low <= value <= self.high

    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


class Power(msgspec.Struct, frozen=True):
    kind: str
    value: int = 0


class Ability(msgspec.Struct, frozen=True):
    id: str
    name: str
    text: str
    frequency: str
    power: Power


class CharacterCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    abilities: tuple[Ability, ...]


class Insight(msgspec.Struct, frozen=True):
    name: str
    text: str
    step: str
    power: Power


class Worry(msgspec.Struct, frozen=True):
    name: str
    text: str
    kind: str
    value: int


class DreamCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    alone: tuple[Requirement, ...]
    together: tuple[Requirement, ...]
    insight: Insight
    worry: Worry


class Campsite(msgspec.Struct, frozen=True):
    id: str
    name: str
    special: str | None


class TrailPath(msgspec.Struct, frozen=True):
    id: str
    name: str
    campsites: tuple[Campsite, ...]


class TrailMap(msgspec.Struct, frozen=True):
    name: str
    home: str
    trail: tuple[Campsite, ...]
    paths: tuple[TrailPath, ...]
    summit: str

    def route(self, path: str) -> tuple[Campsite, ...]:
        """The campsites in hiking order: the shared trail, then ``path``'s (if chosen)."""
        for option in self.paths:
            if option.id == path:
                return self.trail + option.campsites
        return self.trail

    def path(self, path_id: str) -> TrailPath:
        return next(p for p in self.paths if p.id == path_id)


class Humbaba(msgspec.Struct, frozen=True):
    name: str
    text: str
    won: str
    lost: str


class Content(msgspec.Struct, frozen=True):
    map: TrailMap
    characters: tuple[CharacterCard, ...]
    dreams: tuple[DreamCard, ...]
    humbaba: Humbaba


class _Where:
    """The file and card that the next problem belongs to."""

    def __init__(self, file: str, card: str | None = None) -> None:
        self.file = file
        self.card = card

    def fail(self, field: str | None, problem: str) -> ContentError:
        return ContentError(self.file, self.card, field, problem)

    def obj(self, data: Any, field: str | None) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(field, "Expected an object.")
        return data

    def text(self, data: dict[str, Any], field: str) -> str:
        value = data.get(field)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, "Expected a non-empty string.")
        return value

    def int_in(self, data: dict[str, Any], field: str, low: int, high: int) -> int:
        value = data.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"Expected a whole number from {low} to {high}.")
        return value

    def choice(self, data: dict[str, Any], field: str, allowed: tuple[str, ...]) -> str:
        value = data.get(field)
        if value not in allowed:
            raise self.fail(field, f"Expected one of {', '.join(allowed)}, got {value!r}.")
        assert isinstance(value, str)
        return value

    def items(self, data: dict[str, Any], field: str) -> list[Any]:
        value = data.get(field)
        if not isinstance(value, list) or not value:
            raise self.fail(field, "Expected a non-empty list.")
        return value


def _read(directory: Path, name: str) -> Any:
    path = directory / name
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(name, None, None, f"The file cannot be read ({exc.strerror}).") from None
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise ContentError(name, None, None, f"The file is not valid JSON ({exc}).") from None


def _power(where: _Where, data: Any, field: str) -> Power:
    power = where.obj(data, field)
    kind = where.choice(power, "kind", POWER_KINDS)
    if kind == "set":
        return Power(kind, where.int_in(power, "value", 1, 6))
    return Power(kind)


def _campsite(file: str, data: Any, seen: set[str]) -> Campsite:
    where = _Where(file)
    site = where.obj(data, "campsites")
    where.card = where.text(site, "id")
    if where.card in seen:
        raise where.fail("id", "This campsite id is used twice.")
    seen.add(where.card)
    special = site.get("special")
    if special is not None:
        special = where.choice(site, "special", SPECIALS)
    return Campsite(where.card, where.text(site, "name"), special)


def load_map(directory: Path) -> TrailMap:
    file = "map.json"
    where = _Where(file)
    data = where.obj(_read(directory, file), None)
    seen: set[str] = set()
    trail = tuple(_campsite(file, site, seen) for site in where.items(data, "trail"))
    # The 5th hike offers the path choice, so exactly four campsites come before it.
    if len(trail) != 4:
        raise where.fail("trail", "The shared trail must have exactly 4 campsites.")
    raw_paths = where.items(data, "paths")
    if len(raw_paths) != 2:
        raise where.fail("paths", "The map must offer exactly two paths after the 4th campsite.")
    paths: list[TrailPath] = []
    for raw in raw_paths:
        path_where = _Where(file)
        item = path_where.obj(raw, "paths")
        path_where.card = path_where.text(item, "id")
        if any(p.id == path_where.card for p in paths):
            raise path_where.fail("id", "This path id is used twice.")
        sites = tuple(_campsite(file, site, seen) for site in path_where.items(item, "campsites"))
        paths.append(TrailPath(path_where.card, path_where.text(item, "name"), sites))
    return TrailMap(
        where.text(data, "name"),
        where.text(data, "home"),
        trail,
        tuple(paths),
        where.text(data, "summit"),
    )


def load_characters(directory: Path) -> tuple[CharacterCard, ...]:
    file = "characters.json"
    root = _Where(file)
    data = root.obj(_read(directory, file), None)
    cards = []
    for raw in root.items(data, "characters"):
        where = _Where(file)
        item = where.obj(raw, "characters")
        where.card = where.choice(item, "id", ("gil", "ennis"))
        abilities = []
        for index, raw_ability in enumerate(where.items(item, "abilities")):
            field = f"abilities[{index}]"
            ability = where.obj(raw_ability, field)
            ability_id = where.text(ability, "id")
            abilities.append(
                Ability(
                    ability_id,
                    where.text(ability, "name"),
                    where.text(ability, "text"),
                    where.choice(ability, "frequency", FREQUENCIES),
                    _power(where, ability.get("power"), f"{field}.power"),
                )
            )
        ids = [a.id for a in abilities]
        if len(set(ids)) != len(ids):
            raise where.fail("abilities", "Two abilities share an id.")
        cards.append(CharacterCard(where.card, where.text(item, "name"), tuple(abilities)))
    if sorted(c.id for c in cards) != ["ennis", "gil"]:
        raise root.fail("characters", "Expected exactly one card for gil and one for ennis.")
    return tuple(sorted(cards, key=lambda c: c.id != "gil"))


def _cost(
    where: _Where, item: dict[str, Any], field: str, bounds: tuple[int, int]
) -> tuple[Requirement, ...]:
    low, high = bounds
    requirements = []
    for index, raw in enumerate(where.items(item, field)):
        if isinstance(raw, int) and not isinstance(raw, bool):
            requirement = Requirement(raw, raw)
        elif (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
            and raw[0] <= raw[1]
        ):
            requirement = Requirement(raw[0], raw[1])
        else:
            raise where.fail(
                f"{field}[{index}]", "Expected a die value or a [low, high] range of values."
            )
        if requirement.low < low or requirement.high > high:
            raise where.fail(f"{field}[{index}]", f"Values must lie between {low} and {high}.")
        requirements.append(requirement)
    if len(requirements) > 3:
        raise where.fail(field, "A dream asks for at most 3 dice.")
    return tuple(requirements)


def load_dreams(directory: Path) -> tuple[DreamCard, ...]:
    file = "dreams.json"
    root = _Where(file)
    data = root.obj(_read(directory, file), None)
    cards: list[DreamCard] = []
    for raw in root.items(data, "dreams"):
        where = _Where(file)
        item = where.obj(raw, "dreams")
        where.card = where.text(item, "id")
        if any(c.id == where.card for c in cards):
            raise where.fail("id", "This dream id is used twice.")
        insight = where.obj(item.get("insight"), "insight")
        worry = where.obj(item.get("worry"), "worry")
        worry_kind = where.choice(worry, "kind", WORRY_KINDS)
        if worry_kind == "lose_pocket":
            worry_value = 0
        elif worry_kind == "add_rolled":
            worry_value = where.int_in(worry, "value", 1, 3)
        else:
            worry_value = where.int_in(worry, "value", 1, 6)
        cards.append(
            DreamCard(
                where.card,
                where.text(item, "name"),
                _cost(where, item, "alone", ALONE_RANGE),
                _cost(where, item, "together", TOGETHER_RANGE),
                Insight(
                    where.text(insight, "name"),
                    where.text(insight, "text"),
                    where.choice(insight, "step", STEPS),
                    _power(where, insight.get("power"), "insight.power"),
                ),
                Worry(
                    where.text(worry, "name"), where.text(worry, "text"), worry_kind, worry_value
                ),
            )
        )
    if len(cards) != 6:
        raise root.fail("dreams", f"Expected 6 dream cards, found {len(cards)}.")
    return tuple(cards)


def load_humbaba(directory: Path) -> Humbaba:
    file = "humbaba.json"
    where = _Where(file, "humbaba")
    data = where.obj(_read(directory, file), None)
    return Humbaba(
        where.text(data, "name"),
        where.text(data, "text"),
        where.text(data, "won"),
        where.text(data, "lost"),
    )


def load_content(directory: Path = CONTENT_DIR) -> Content:
    return Content(
        load_map(directory),
        load_characters(directory),
        load_dreams(directory),
        load_humbaba(directory),
    )


CONTENT = load_content()
DREAMS: dict[str, DreamCard] = {d.id: d for d in CONTENT.dreams}
CHARACTERS: dict[str, CharacterCard] = {c.id: c for c in CONTENT.characters}
ABILITIES: dict[str, Ability] = {
    f"{c.id}/{a.id}": a for c in CONTENT.characters for a in c.abilities
}
"""Abilities by ``"<character>/<ability id>"``."""
