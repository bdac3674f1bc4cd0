"""The content pack as the rules see it: cards, goals, items, habits and the ruleset's numbers.

:mod:`domain.eila.content` reads these Structs from a pack's files.
"""

from __future__ import annotations

import msgspec

RESOURCES = ("food", "coin", "stone", "knowledge", "energy", "fear")
TANGIBLE = ("food", "coin", "stone")
INTANGIBLE = ("knowledge", "energy", "fear")
RESOURCE_LABELS = {
    "food": "Food",
    "coin": "Coin",
    "stone": "Magical Stone",
    "knowledge": "Knowledge",
    "energy": "Energy",
    "fear": "Fear",
}
EFFECT_KINDS = (
    "gain",
    "lose",
    "blue",
    "red",
    "habit",
    "item",
    "discard_item",
    "heart",
    "broken_heart",
)
DESTINATIONS = ("future", "past", "return")
COLOURS = ("green", "blue", "red", "habit")


class Effect(msgspec.Struct, frozen=True):
    """One symbol of an option, normalised: ``kind`` is one of :data:`EFFECT_KINDS`.

    ``amount`` is the X of ``+X``/``-X`` (or of hearts), ``card`` the event card a blue, red or
    habit symbol fetches, ``items`` the item(s) of an acquire/discard symbol and ``count`` how many
    of ``items`` a discard symbol takes.
    """

    kind: str
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
    destination: str


class Card(msgspec.Struct, frozen=True):
    number: str
    colour: str
    name: str
    text: str
    options: tuple[Option, ...]
    chapter: int | None
    """The chapter whose box holds the card; None for habit cards."""


class Item(msgspec.Struct, frozen=True):
    id: str
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


class Conversion(msgspec.Struct, frozen=True):
    id: str
    give: str
    give_amount: int
    get: str
    get_amount: int


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
