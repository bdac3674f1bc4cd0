"""The shape of each file of a content pack, as Structs that msgspec decodes and checks.

Every Struct refuses fields it does not know, so a misspelt key is an error, not a silent default.
Cards, items, supports, enemies and quiz cards are kept raw in their files and decoded one by one,
so one broken entry hides neither the others nor their problems.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.eila.content_types import (
    Amounts,
    Condition,
    Conversion,
    Count,
    Destination,
    DieFace,
    ItemId,
    Natural,
    Resource,
    Side,
    SupportId,
)

ChapterNumber = Annotated[int, msgspec.Meta(ge=0, description="a whole number of at least 0")]
CardNumber = Annotated[
    str,
    msgspec.Meta(
        pattern="^([0-9]{3}|[A-Z][0-9]{2})$",
        description="a card number such as 101, or a letter and two digits such as C01",
    ),
]
HabitNumber = Annotated[
    str, msgspec.Meta(pattern="^H[0-9]+$", description="a habit card number such as H1")
]
EnemyId = Annotated[str, msgspec.Meta(pattern="^E[0-9]{2}$", description="an enemy id such as E01")]
Name = Annotated[
    str, msgspec.Meta(pattern="^[A-Za-z0-9-]+$", description="a name of letters, digits and -")
]
OneOrTwoItems = Annotated[
    tuple[ItemId, ...],
    msgspec.Meta(min_length=1, max_length=2, description="one item or either of two"),
]
SomeItems = Annotated[
    tuple[ItemId, ...], msgspec.Meta(min_length=1, description="at least one item")
]


class PackFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """``pack.json``: the names of the pack's files, chapters in order."""

    ruleset: str
    items: str
    habits: str
    chapters: tuple[str, ...]
    supports: str | None = None
    enemies: str | None = None
    advanced: str | None = None
    """Advanced Mode's replacement event cards."""


class Storage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    tangible: Count
    intangible: Count
    fear: Count


class NightLimit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    chapter: ChapterNumber
    limit: Count


class NightSubmissions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    default: Count | None = None
    """The limit of chapters not listed; none means no limit."""
    chapters: tuple[NightLimit, ...] = ()


class Combat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    energy_boost: Count
    dice: dict[Name, Annotated[tuple[DieFace, ...], msgspec.Meta(min_length=1)]]
    """Faces of each die by name; ``red`` is Eila's die."""


class RulesetFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    storage: Storage
    time_track: Count
    habits_join_green_deck_from_chapter: ChapterNumber
    night_submissions: NightSubmissions
    conversions: tuple[Conversion, ...]
    combat: Combat | None = None


class ItemsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    items: tuple[msgspec.Raw, ...]
    """Each decodes as a :class:`~domain.eila.content_types.Item`."""


class SupportsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    supports: tuple[msgspec.Raw, ...]
    """Each decodes as a :class:`~domain.eila.content_types.Support`."""


class EnemiesFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    enemies: tuple[msgspec.Raw, ...]
    """Each decodes as a :class:`~domain.eila.content_types.Enemy`."""


class EffectFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """One symbol: exactly one kind (``gain`` ... ``place``), plus its companions: the ``max`` of
    a gain, the ``amount`` of a loss or a ``pay_or_hp``, the ``count`` of a discard, the ``won``
    and ``lost`` branches and ``fight_on`` of a fight, the ``then`` of an ``if``."""

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
    support: SupportId | None = None
    die: Name | None = None
    fight: EnemyId | None = None
    won: tuple[EffectFile, ...] | None = None
    lost: tuple[EffectFile, ...] | None = None
    fight_on: bool | None = None
    if_: Condition | None = msgspec.field(default=None, name="if")
    then: tuple[EffectFile, ...] | None = None
    quiz: Name | None = None
    move: Count | None = None
    trigger: Literal["location"] | None = None
    cover: Literal["location"] | None = None
    ending: Annotated[str, msgspec.Meta(pattern="^[A-Z]$")] | None = None
    market: Name | None = None
    location_action: Literal[True] | None = None
    onward: CardNumber | None = None
    pay_or_hp: Resource | None = None
    place: Destination | None = None


class OptionFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    letter: str
    label: str
    effects: tuple[EffectFile, ...]
    destination: Destination
    requires: Condition = Condition()


class _CardFields(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    name: str
    text: str
    options: Annotated[
        tuple[OptionFile, ...], msgspec.Meta(min_length=1, description="at least one option")
    ]


class CardFile(_CardFields, frozen=True, forbid_unknown_fields=True):
    """An event card of a chapter file (or of the advanced cards file)."""

    number: CardNumber
    colour: Literal["green", "blue", "red", "location", "market", "trail"]
    shelter: bool = False


class HabitFile(_CardFields, frozen=True, forbid_unknown_fields=True):
    """A habit card of the habits file."""

    number: HabitNumber
    colour: Literal["habit"]


class CardsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The habits file and the advanced cards file: only cards."""

    cards: tuple[msgspec.Raw, ...]


class GoalSideFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    submit: Annotated[Amounts, msgspec.Meta(min_length=1, description="at least one resource")]
    hearts: Count


class Goal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    normal: GoalSideFile
    advanced: GoalSideFile


class Prologue(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    resources: Amounts


class QuizFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A quiz card: its question, lettered choices, the answer key and the reward."""

    id: Annotated[str, msgspec.Meta(pattern="^[A-Z]+-[0-9]+$", description="an id such as EQ-1")]
    question: str
    choices: Annotated[
        dict[Annotated[str, msgspec.Meta(pattern="^[a-z]$")], str],
        msgspec.Meta(min_length=2, description="at least two lettered choices"),
    ]
    answer: Annotated[str, msgspec.Meta(pattern="^[a-z]$", description="a choice's letter")]
    reward: tuple[EffectFile, ...]
    reward_text: str


class GridFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    location: CardNumber | None = None
    dark: bool = False
    shelter: bool = False
    north: Side = "open"
    east: Side = "open"
    south: Side = "open"
    west: Side = "open"


class TileFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    id: Name
    group: Name
    name: str
    grids: Annotated[
        tuple[GridFile, ...],
        msgspec.Meta(
            min_length=4,
            max_length=4,
            description="four grids: bottom-left, bottom-right, top-left, top-right",
        ),
    ]


class SlotFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    group: Name
    col: Natural
    row: Natural
    face_up: bool = False


class MineFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    slots: Annotated[tuple[SlotFile, ...], msgspec.Meta(min_length=1)]
    tiles: tuple[TileFile, ...]
    start: tuple[Natural, Natural]


class MarketFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Name
    label: str
    cards: Annotated[tuple[CardNumber, ...], msgspec.Meta(min_length=1)]
    draw: Count
    price: Amounts


class ChapterFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    chapter: ChapterNumber
    title: str
    goal: Goal
    cards: tuple[msgspec.Raw, ...]
    prologue: Prologue | None = None
    night: tuple[EffectFile, ...] = ()
    quizzes: tuple[msgspec.Raw, ...] = ()
    """Each decodes as a :class:`QuizFile`; its deck is the id's prefix (EQ for EQ-1)."""
    mine: MineFile | None = None
    markets: tuple[MarketFile, ...] = ()
    trail: CardNumber | None = None
    """The location card revealed at set-up; the chapter's other trail cards lie face down."""


class LenientCards(msgspec.Struct, frozen=True, gc=False):
    """Only the cards of a chapter file whose other fields do not decode, to check them anyway."""

    cards: tuple[msgspec.Raw, ...] = ()
