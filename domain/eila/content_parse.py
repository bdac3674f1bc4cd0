"""Reading a content pack's JSON into :mod:`domain.eila.content_types` Structs, every problem kept.

Each reader returns what it could build and records a :class:`ContentError` per problem, so one
pass reports every broken card, field and reference instead of stopping at the first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec

from domain.core.errors import ContentError
from domain.eila.content_types import (
    DESTINATIONS,
    EFFECT_KINDS,
    RESOURCES,
    Card,
    Chapter,
    Effect,
    GoalSide,
    Option,
)

# The set-up the rulebook lists for chapter 0: which numbers, which colours.
CHAPTER_ZERO = {
    **{f"{n:03d}": "green" for n in range(1, 6)},
    **{f"{n:03d}": "blue" for n in range(6, 9)},
    **{f"{n:03d}": "red" for n in range(9, 12)},
}
HABIT_NUMBER = re.compile(r"H[0-9]+")
ITEM_ID = re.compile(r"I[0-9]{2}")


class Reader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.errors: list[ContentError] = []
        self.numbers: set[str] = set()

    def claim(self, number: str, file: str) -> bool:
        """Record a card number; False (and an error) when the pack already has it."""
        if number in self.numbers:
            self.error(file, number, "number", "This card number is used more than once.")
            return False
        self.numbers.add(number)
        return True

    def error(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.errors.append(ContentError(file, card, field, problem))

    def load(self, file: str) -> Any:
        try:
            return msgspec.json.decode((self.root / file).read_bytes())
        except FileNotFoundError:
            self.error(file, None, None, f"The file is missing from the pack at {self.root}.")
        except msgspec.DecodeError as exc:
            self.error(file, None, None, f"The file is not valid JSON ({exc}).")
        return None

    def field(
        self,
        obj: dict[str, Any],
        key: str,
        kind: type | tuple[type, ...],
        file: str,
        card: str | None,
        where: str | None = None,
    ) -> Any:
        name = f"{where}.{key}" if where else key
        if key not in obj:
            self.error(file, card, name, "This required field is missing.")
            return None
        value = obj[key]
        bad_bool = isinstance(value, bool) and kind is int
        if bad_bool or not isinstance(value, kind):
            wanted = (
                kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            )
            self.error(file, card, name, f"Expected {wanted}, found {value!r}.")
            return None
        return value

    def count(
        self,
        obj: dict[str, Any],
        key: str,
        file: str,
        card: str | None,
        where: str | None = None,
        *,
        minimum: int = 1,
    ) -> int | None:
        value = self.field(obj, key, int, file, card, where)
        if value is not None and value < minimum:
            name = f"{where}.{key}" if where else key
            self.error(
                file, card, name, f"Expected a whole number of at least {minimum}, found {value}."
            )
            return None
        return value  # type: ignore[no-any-return]

    def resources(
        self, raw: Any, file: str, card: str | None, field: str, *, minimum: int = 1
    ) -> tuple[tuple[str, int], ...]:
        if not isinstance(raw, dict):
            self.error(file, card, field, f"Expected an object of resource amounts, found {raw!r}.")
            return ()
        pairs: list[tuple[str, int]] = []
        for name, amount in raw.items():
            if name not in RESOURCES:
                self.error(file, card, f"{field}.{name}", f"{name!r} is not a resource.")
            elif isinstance(amount, bool) or not isinstance(amount, int) or amount < minimum:
                self.error(
                    file, card, f"{field}.{name}", f"Expected an amount of at least {minimum}."
                )
            else:
                pairs.append((name, amount))
        return tuple(sorted(pairs, key=lambda pair: RESOURCES.index(pair[0])))


def _effect(r: Reader, raw: Any, file: str, card: str, where: str) -> Effect | None:
    if not isinstance(raw, dict):
        r.error(file, card, where, f"An effect must be an object, found {raw!r}.")
        return None
    kinds = [key for key in raw if key in EFFECT_KINDS]
    if len(kinds) != 1:
        known = ", ".join(EFFECT_KINDS)
        problem = f"An effect needs exactly one kind out of {known}; found {sorted(raw)}."
        r.error(file, card, where, problem)
        return None
    kind = kinds[0]
    value = raw[kind]
    if kind in ("gain", "lose"):
        if value not in RESOURCES:
            r.error(file, card, f"{where}.{kind}", f"{value!r} is not a resource.")
            return None
        key = "max" if kind == "gain" else "amount"
        amount = r.count(raw, key, file, card, where)
        return None if amount is None else Effect(kind, resource=value, amount=amount)
    if kind in ("blue", "red", "habit"):
        if not isinstance(value, str):
            r.error(file, card, f"{where}.{kind}", f"Expected a card number, found {value!r}.")
            return None
        return Effect(kind, card=value)
    if kind in ("heart", "broken_heart"):
        amount = r.count(raw, kind, file, card, where)
        return None if amount is None else Effect(kind, amount=amount)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        r.error(file, card, f"{where}.{kind}", f"Expected a list of item ids, found {value!r}.")
        return None
    items = tuple(value)
    if kind == "item":
        if len(items) > 2:
            r.error(
                file, card, f"{where}.item", "An acquire symbol offers one item or either of two."
            )
        return Effect(kind, items=items)
    count = r.count(raw, "count", file, card, where)
    if count is None:
        return None
    if count > 2 or count > len(items):
        r.error(
            file, card, f"{where}.count", f"Cannot discard {count} of {len(items)} listed items."
        )
        return None
    return Effect(kind, items=items, count=count)


def _option(r: Reader, raw: Any, file: str, card: str, where: str) -> Option | None:
    if not isinstance(raw, dict):
        r.error(file, card, where, f"An option must be an object, found {raw!r}.")
        return None
    letter = r.field(raw, "letter", str, file, card, where)
    label = r.field(raw, "label", str, file, card, where)
    destination = r.field(raw, "destination", str, file, card, where)
    if destination is not None and destination not in DESTINATIONS:
        r.error(
            file,
            card,
            f"{where}.destination",
            f"Expected one of {DESTINATIONS}, found {destination!r}.",
        )
        destination = None
    requires: tuple[str, ...] = ()
    if "requires" in raw:
        req = raw["requires"]
        if not isinstance(req, dict) or set(req) - {"items"}:
            r.error(file, card, f"{where}.requires", "Expected an object with an 'items' list.")
        else:
            items = req.get("items", [])
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                r.error(file, card, f"{where}.requires.items", "Expected a list of item ids.")
            else:
                requires = tuple(items)
    raw_effects = r.field(raw, "effects", list, file, card, where)
    effects: list[Effect] = []
    broken = raw_effects is None
    for index, raw_effect in enumerate(raw_effects or []):
        effect = _effect(r, raw_effect, file, card, f"{where}.effects[{index}]")
        broken = broken or effect is None
        if effect is not None:
            effects.append(effect)
    if None in (letter, label, destination) or broken:
        return None
    return Option(letter, label, requires, tuple(effects), destination)


def read_card(r: Reader, raw: Any, file: str, index: int, chapter: int | None) -> Card | None:
    if not isinstance(raw, dict):
        r.error(file, None, f"cards[{index}]", f"A card must be an object, found {raw!r}.")
        return None
    number = r.field(raw, "number", str, file, None, f"cards[{index}]")
    name = number if number is not None else f"cards[{index}]"
    colour = r.field(raw, "colour", str, file, name)
    title = r.field(raw, "name", str, file, name)
    text = r.field(raw, "text", str, file, name)
    raw_options = r.field(raw, "options", list, file, name)
    if number is not None:
        if chapter is None and not HABIT_NUMBER.fullmatch(number):
            r.error(file, name, "number", "A habit card is numbered H1, H2, ...")
        if chapter is not None and not (
            len(number) == 3 and number.isdigit() and number[0] == str(chapter)
        ):
            r.error(file, name, "number", f"A chapter {chapter} card is numbered {chapter}01, ...")
    wanted = ("habit",) if chapter is None else ("green", "blue", "red")
    if colour is not None and colour not in wanted:
        r.error(file, name, "colour", f"Expected one of {wanted}, found {colour!r}.")
        colour = None
    options: list[Option] = []
    broken = raw_options is None
    for i, raw_option in enumerate(raw_options or []):
        option = _option(r, raw_option, file, name, f"options[{i}]")
        broken = broken or option is None
        if option is not None:
            options.append(option)
    letters = [o.letter for o in options]
    if not broken and letters != [chr(ord("A") + i) for i in range(len(letters))]:
        r.error(
            file,
            name,
            "options",
            f"Options must be lettered A, B, C, ... in order, found {letters}.",
        )
    if raw_options == []:
        r.error(file, name, "options", "A card needs at least one option.")
    for option in options:
        if option.destination == "return" and colour == "green":
            r.error(
                file,
                name,
                f"option {option.letter}.destination",
                "A green card cannot return to its deck: that deck is the upcoming deck.",
            )
    if options and not any(_always_open(o) for o in options):
        r.error(
            file,
            name,
            "options",
            "At least one option must have no prerequisite, so the card can always be resolved.",
        )
    if None in (number, colour, title, text) or broken:
        return None
    return Card(number, colour, title, text, tuple(options), chapter)


def _always_open(option: Option) -> bool:
    return not option.requires_items and not any(
        e.kind == "lose" and e.resource != "fear" for e in option.effects
    )


def _goal(r: Reader, raw: Any, file: str, side: str) -> GoalSide | None:
    where = f"goal.{side}"
    if not isinstance(raw, dict):
        r.error(file, None, where, "This required goal side is missing or not an object.")
        return None
    hearts = r.count(raw, "hearts", file, None, where)
    if "submit" not in raw:
        r.error(file, None, f"{where}.submit", "This required field is missing.")
        return None
    submit = r.resources(raw["submit"], file, None, f"{where}.submit")
    if not submit:
        r.error(file, None, f"{where}.submit", "A goal must ask for at least one resource.")
    return None if hearts is None or not submit else GoalSide(submit, hearts)


def read_chapter(r: Reader, file: str, cards: dict[str, Card]) -> Chapter | None:
    raw = r.load(file)
    if raw is None:
        return None
    if not isinstance(raw, dict):
        r.error(file, None, None, "A chapter file must hold an object.")
        return None
    number = r.count(raw, "chapter", file, None, minimum=0)
    title = r.field(raw, "title", str, file, None)
    prologue: tuple[tuple[str, int], ...] = ()
    if raw.get("prologue") is not None:
        prologue_raw = raw["prologue"]
        if not isinstance(prologue_raw, dict) or "resources" not in prologue_raw:
            r.error(file, None, "prologue", "Expected null or an object with 'resources'.")
        else:
            prologue = r.resources(prologue_raw["resources"], file, None, "prologue.resources")
    goal = r.field(raw, "goal", dict, file, None) or {}
    normal = _goal(r, goal.get("normal"), file, "normal")
    advanced = _goal(r, goal.get("advanced"), file, "advanced")
    raw_cards = r.field(raw, "cards", list, file, None) or []
    own: list[Card] = []
    found: dict[str, Any] = {}
    for index, raw_card in enumerate(raw_cards):
        card = read_card(r, raw_card, file, index, number)
        raw_number = raw_card.get("number") if isinstance(raw_card, dict) else None
        if isinstance(raw_number, str):
            if not r.claim(raw_number, file):
                continue
            found[raw_number] = raw_card.get("colour")
        if card is not None:
            cards[card.number] = card
            own.append(card)
    own.sort(key=lambda c: c.number)
    if number == 0:
        for wanted, colour in CHAPTER_ZERO.items():
            if wanted not in found:
                r.error(file, wanted, None, "Chapter 0 must contain this card.")
            elif found[wanted] != colour:
                r.error(file, wanted, "colour", f"Chapter 0 card {wanted} must be {colour}.")
        for extra in sorted(set(found) - set(CHAPTER_ZERO)):
            r.error(file, extra, None, "Chapter 0 holds only cards 001 to 011.")
    if "green" not in found.values():
        r.error(
            file, None, "cards", "A chapter needs at least one green card for its upcoming deck."
        )
    if number is None or title is None or normal is None or advanced is None:
        return None
    return Chapter(
        number,
        title,
        prologue,
        normal,
        advanced,
        green=tuple(c.number for c in own if c.colour == "green"),
        blue=tuple(c.number for c in own if c.colour == "blue"),
        red=tuple(c.number for c in own if c.colour == "red"),
    )
