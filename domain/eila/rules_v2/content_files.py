"""The shape of each file of a content pack, as Structs that msgspec decodes and checks.

Every Struct refuses fields it does not know, so a misspelt key is an error, not a silent default.
Cards are kept raw in their files and decoded one by one, so one broken card hides neither the
others nor their problems.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.eila.rules_v2.content_types import Conversion, Count, Destination, ItemId, Resource

ChapterNumber = Annotated[int, msgspec.Meta(ge=0, description="a whole number of at least 0")]
CardNumber = Annotated[
    str, msgspec.Meta(pattern="^[0-9]{3}$", description="a three-digit card number such as 101")
]
HabitNumber = Annotated[
    str, msgspec.Meta(pattern="^H[0-9]+$", description="a habit card number such as H1")
]
OneOrTwoItems = Annotated[
    tuple[ItemId, ...],
    msgspec.Meta(min_length=1, max_length=2, description="one item or either of two"),
]
SomeItems = Annotated[
    tuple[ItemId, ...], msgspec.Meta(min_length=1, description="at least one item")
]
Amounts = dict[Resource, Count]
"""Resource amounts by name, as in ``{"food": 2, "coin": 1}``."""


class PackFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``pack.json``: the names of the pack's files, chapters in order."""

    ruleset: str
    items: str
    habits: str
    chapters: tuple[str, ...]


class Storage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tangible: Count
    intangible: Count
    fear: Count


class NightLimit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    chapter: ChapterNumber
    limit: Count


class NightSubmissions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    default: Count
    chapters: tuple[NightLimit, ...] = ()


class RulesetFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    storage: Storage
    time_track: Count
    habits_join_green_deck_from_chapter: ChapterNumber
    night_submissions: NightSubmissions
    conversions: tuple[Conversion, ...]


class ItemsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    items: tuple[msgspec.Raw, ...]
    """Each decodes as a :class:`~domain.eila.rules_v2.content_types.Item`."""


class EffectFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One symbol: exactly one kind (``gain`` ... ``broken_heart``), plus the ``max`` of a gain,
    the ``amount`` of a loss or the ``count`` of a discard."""

    gain: Resource | None = None
    max: Count | None = None
    lose: Resource | None = None
    amount: Count | None = None
    blue: CardNumber | None = None
    red: CardNumber | None = None
    habit: HabitNumber | None = None
    item: OneOrTwoItems | None = None
    discard_item: SomeItems | None = None
    count: Count | None = None
    heart: Count | None = None
    broken_heart: Count | None = None


class Requires(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    items: tuple[ItemId, ...] = ()


class OptionFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    letter: str
    label: str
    effects: tuple[EffectFile, ...]
    destination: Destination
    requires: Requires = Requires()


class _CardFields(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    text: str
    options: Annotated[
        tuple[OptionFile, ...], msgspec.Meta(min_length=1, description="at least one option")
    ]


class CardFile(_CardFields, frozen=True, forbid_unknown_fields=True):
    """An event card of a chapter file."""

    number: CardNumber
    colour: Literal["green", "blue", "red"]


class HabitFile(_CardFields, frozen=True, forbid_unknown_fields=True):
    """A habit card of the habits file."""

    number: HabitNumber
    colour: Literal["habit"]


class CardsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The habits file: only cards."""

    cards: tuple[msgspec.Raw, ...]


class GoalSideFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    submit: Annotated[Amounts, msgspec.Meta(min_length=1, description="at least one resource")]
    hearts: Count


class Goal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    normal: GoalSideFile
    advanced: GoalSideFile


class Prologue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    resources: Amounts


class ChapterFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    chapter: ChapterNumber
    title: str
    goal: Goal
    cards: tuple[msgspec.Raw, ...]
    prologue: Prologue | None = None


class LenientCards(msgspec.Struct, frozen=True):
    """Only the cards of a chapter file whose other fields do not decode, to check them anyway."""

    cards: tuple[msgspec.Raw, ...] = ()
