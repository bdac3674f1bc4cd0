"""The content pack as the rules see it: cards, goals, items, habits and the ruleset's numbers.

:mod:`domain.eila.rules_v2.content` builds these Structs from the pack's files, whose shape is in
:mod:`domain.eila.rules_v2.content_files`; an item and a conversion are spelt in the files just as
here.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

Resource = Literal["food", "coin", "stone", "knowledge", "energy", "fear"]
RESOURCES: tuple[Resource, ...] = get_args(Resource)
TANGIBLE: tuple[Resource, ...] = ("food", "coin", "stone")
INTANGIBLE: tuple[Resource, ...] = ("knowledge", "energy", "fear")
RESOURCE_LABELS = {
    "food": "Food",
    "coin": "Coin",
    "stone": "Magical Stone",
    "knowledge": "Knowledge",
    "energy": "Energy",
    "fear": "Fear",
}
EffectKind = Literal[
    "gain", "lose", "blue", "red", "habit", "item", "discard_item", "heart", "broken_heart"
]
EFFECT_KINDS: tuple[EffectKind, ...] = get_args(EffectKind)
Destination = Literal["future", "past", "return"]
DESTINATIONS: tuple[Destination, ...] = get_args(Destination)
Colour = Literal["green", "blue", "red", "habit"]

Count = Annotated[int, msgspec.Meta(ge=1, description="a whole number of at least 1")]
# Fear cannot be converted.
Convertible = Literal["food", "coin", "stone", "knowledge", "energy"]
ItemId = Annotated[str, msgspec.Meta(pattern="^I[0-9]{2}$", description="an item id such as I01")]


class Effect(msgspec.Struct, frozen=True):
    """One symbol of an option, normalised: ``kind`` is one of :data:`EFFECT_KINDS`.

    ``amount`` is the X of ``+X``/``-X`` (or of hearts), ``card`` the event card a blue, red or
    habit symbol fetches, ``items`` the item(s) of an acquire/discard symbol and ``count`` how many
    of ``items`` a discard symbol takes.
    """

    kind: EffectKind
    resource: str = ""
    amount: int = 0
    card: str = ""
    items: tuple[str, ...] = ()
    count: int = 0


class Option(msgspec.Struct, frozen=True):
    letter: str
    label: str
    requires_items: tuple[str, ...]
    effects: tuple[Effect, ...]
    destination: Destination


class Card(msgspec.Struct, frozen=True):
    number: str
    colour: Colour
    name: str
    text: str
    options: tuple[Option, ...]
    chapter: int | None
    """The chapter whose box holds the card; None for habit cards."""


class Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: ItemId
    name: str
    text: str


class GoalSide(msgspec.Struct, frozen=True):
    submit: tuple[tuple[str, int], ...]
    """``(resource, amount)`` pairs in :data:`RESOURCES` order."""
    hearts: int


class Chapter(msgspec.Struct, frozen=True):
    number: int
    title: str
    prologue: tuple[tuple[str, int], ...]
    normal: GoalSide
    advanced: GoalSide
    green: tuple[str, ...]
    blue: tuple[str, ...]
    red: tuple[str, ...]


class Conversion(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    give: Convertible
    give_amount: Count
    get: Convertible
    get_amount: Count


class Ruleset(msgspec.Struct, frozen=True):
    tangible_capacity: int
    intangible_capacity: int
    fear_max: int
    time_track: int
    conversions: tuple[Conversion, ...]
    submission_limits: tuple[tuple[int, int], ...]
    default_submission_limit: int
    habit_deck_from_chapter: int
    """The first chapter whose set-up puts saved habit cards under the green deck."""

    def submission_limit(self, chapter: int) -> int:
        for number, limit in self.submission_limits:
            if number == chapter:
                return limit
        return self.default_submission_limit


class ContentPack(msgspec.Struct, frozen=True):
    ruleset: Ruleset
    chapters: dict[int, Chapter]
    cards: dict[str, Card]
    """Every event and habit card by number."""
    items: dict[str, Item]
    habits: tuple[str, ...]
    conversions: dict[str, Conversion]

    @property
    def chapter_numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self.chapters))
