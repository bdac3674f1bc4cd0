"""The content pack as the rules see it: cards, goals, items, supports, chapter elements and the
ruleset's numbers.

:mod:`domain.eila.content` builds these Structs from the pack's files, whose shape is in
:mod:`domain.eila.content_files`; an item, a support card, an ability, a condition, a die face and
a conversion are spelt in the files just as here.
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
    "gain",
    "lose",
    "blue",
    "red",
    "habit",
    "item",
    "discard_item",
    "heart",
    "broken_heart",
    "support",
    "die",
    "fight",
    "if",
    "quiz",
    "move",
    "trigger",
    "cover",
    "ending",
    "market",
    "location_action",
    "onward",
    "pay_or_hp",
    "place",
]
EFFECT_KINDS: tuple[EffectKind, ...] = get_args(EffectKind)
Destination = Literal["future", "past", "return"]
DESTINATIONS: tuple[Destination, ...] = get_args(Destination)
Colour = Literal["green", "blue", "red", "habit", "location", "market", "trail"]
"""``location``: a mine location event (triggered by its number); ``market``: a card bought from a
chapter's market into the Future; ``trail``: a location card whose options are location actions."""
Timing = Literal["anytime", "combat", "night"]
"""When an item or support card may be used: whenever a conversion may be made, during a combat
(before or after the roll), or during the night phase."""
Trait = Literal["rope", "magnifier", "pocket_watch", "flower", "gem"]
Side = Literal["open", "wall", "cliff", "passage"]
"""A side of a mine grid: open, a wall, a cliff (1 Energy or 1 HP, free with a rope) or a hidden
passage (only with a magnifier)."""
Direction = Literal["north", "east", "south", "west"]
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)

Count = Annotated[int, msgspec.Meta(ge=1, description="a whole number of at least 1")]
Natural = Annotated[int, msgspec.Meta(ge=0, description="a whole number of at least 0")]
# Fear cannot be converted.
Convertible = Literal["food", "coin", "stone", "knowledge", "energy"]
ItemId = Annotated[str, msgspec.Meta(pattern="^I[0-9]{2}$", description="an item id such as I01")]
SupportId = Annotated[
    str, msgspec.Meta(pattern="^S[0-9]{2}$", description="a support card id such as S01")
]
Amounts = dict[Resource, Count]
"""Resource amounts by name, as in ``{"food": 2, "coin": 1}``."""


class Condition(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, gc=False
):
    """What an option requires, what an ``if`` clause checks and when a weakness applies: every
    part must hold. ``without`` lists resources you must not have (``["fear"]``: no Fear);
    ``endings`` lists endings reached, as chapter and letter (``"2B"``)."""

    items: tuple[ItemId, ...] = ()
    supports: tuple[SupportId, ...] = ()
    shelter: bool = False
    without: tuple[Resource, ...] = ()
    endings: tuple[str, ...] = ()


ALWAYS = Condition()


class Effect(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """One symbol of an option, normalised: ``kind`` is one of :data:`EFFECT_KINDS`.

    ``amount`` is the X of ``+X``/``-X``, of hearts, of a move or of a ``pay_or_hp``; ``card`` the
    card a blue, red, habit, support or onward symbol names; ``items`` the item(s) of an
    acquire/discard symbol and ``count`` how many of ``items`` a discard takes; ``name`` the die,
    ending, quiz deck, market, enemy or destination the symbol names. A fight executes ``won`` or
    ``lost`` (and, with ``repeat``, fights again after a loss); an ``if`` clause executes ``then``
    when ``when`` holds.
    """

    kind: EffectKind
    resource: str = ""
    amount: int = 0
    card: str = ""
    items: tuple[str, ...] = ()
    count: int = 0
    name: str = ""
    won: tuple[Effect, ...] = ()
    lost: tuple[Effect, ...] = ()
    repeat: bool = False
    when: Condition = ALWAYS
    then: tuple[Effect, ...] = ()


class Option(msgspec.Struct, frozen=True, gc=False):
    letter: str
    label: str
    requires: Condition
    effects: tuple[Effect, ...]
    destination: Destination

    @property
    def requires_items(self) -> tuple[str, ...]:
        return self.requires.items


class Card(msgspec.Struct, frozen=True, gc=False):
    number: str
    colour: Colour
    name: str
    text: str
    options: tuple[Option, ...]
    chapter: int | None
    """The chapter whose box holds the card; None for habit cards."""
    shelter: bool = False
    """A location card with the shelter icon."""


class Gives(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What using an ability gives: combat value and shields (in a combat only), HP (never past the
    maximum) and resources (all of them, so only with room for all)."""

    combat: Natural = 0
    shield: Natural = 0
    hp: Natural = 0
    resources: Amounts = {}


class Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A use of an item or a spell of a support card: pay ``cost`` (and discard the item with
    ``discard``) at its ``timing`` to get ``gives``. A spell may be used again while its cost can
    be paid."""

    timing: Timing
    gives: Gives
    cost: Amounts = {}
    discard: bool = False


class Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """An item card. ``combat`` adds to Eila's die in every combat; with ``needs`` it is a
    combination item, which does nothing unless every listed item is held too."""

    id: ItemId
    name: str
    text: str
    traits: tuple[Trait, ...] = ()
    combat: Natural = 0
    needs: tuple[ItemId, ...] = ()
    use: Ability | None = None


class Support(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """A support card: a spell (``spell``) and passive powers: ``combat`` on Eila's die, a
    ``shield`` preventing that much HP loss in each combat, ``double_green`` doubling the green
    die's value (not its shield)."""

    id: SupportId
    name: str
    text: str
    spell: Ability | None = None
    combat: Natural = 0
    shield: Natural = 0
    double_green: bool = False


class Weakness(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    when: Condition
    value: Natural


class Enemy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    id: Annotated[str, msgspec.Meta(pattern="^E[0-9]{2}$", description="an enemy id such as E01")]
    name: str
    text: str
    value: Natural
    weakness: Weakness | None = None


class DieFace(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    value: Natural
    shield: bool = False
    symbol: str = ""
    """A name for a face with a picture (``paw``, ``shield``)."""


class Die(msgspec.Struct, frozen=True, gc=False):
    name: str
    faces: tuple[DieFace, ...]


class QuizCard(msgspec.Struct, frozen=True, gc=False):
    id: str
    deck: str
    question: str
    choices: tuple[tuple[str, str], ...]
    """``(letter, text)`` pairs in letter order."""
    answer: str
    reward: tuple[Effect, ...]
    reward_text: str


class MineGrid(msgspec.Struct, frozen=True, gc=False):
    location: str
    """The location number printed on the grid, or ``""``."""
    dark: bool
    shelter: bool
    sides: tuple[str, str, str, str]
    """North, east, south and west."""


class MineTile(msgspec.Struct, frozen=True, gc=False):
    id: str
    group: str
    name: str
    grids: tuple[MineGrid, MineGrid, MineGrid, MineGrid]
    """Bottom-left, bottom-right, top-left, top-right."""


class MineSlot(msgspec.Struct, frozen=True, gc=False):
    group: str
    col: int
    row: int
    face_up: bool


class Mine(msgspec.Struct, frozen=True):
    slots: tuple[MineSlot, ...]
    tiles: dict[str, MineTile]
    start: tuple[int, int]
    """The grid the Eila & Leo token starts on, as (x, y) from the bottom-left grid."""

    @property
    def columns(self) -> int:
        return 2 * (1 + max(s.col for s in self.slots))

    @property
    def rows(self) -> int:
        return 2 * (1 + max(s.row for s in self.slots))


class Market(msgspec.Struct, frozen=True, gc=False):
    name: str
    label: str
    cards: tuple[str, ...]
    draw: int
    price: tuple[tuple[str, int], ...]


class GoalSide(msgspec.Struct, frozen=True, gc=False):
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
    locations: tuple[str, ...] = ()
    """The location event deck (chapter 3's 340-352)."""
    night: tuple[Effect, ...] = ()
    """Effects at the start of each night phase (chapter 5's "lose 1 Food or 1 HP")."""
    quizzes: dict[str, tuple[str, ...]] = {}
    """Quiz decks by name, each its cards' ids."""
    mine: Mine | None = None
    markets: tuple[Market, ...] = ()
    trail: tuple[str, ...] = ()
    """The location cards, the first revealed at set-up."""


class Conversion(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
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
    default_submission_limit: int | None
    habit_deck_from_chapter: int
    """The first chapter whose set-up puts saved habit cards under the green deck."""
    energy_boost: int = 2
    """Combat value each Energy spent in a combat adds."""
    dice: dict[str, Die] = {}
    """``red`` is Eila's combat die; others (``green``) are acquired by a die symbol."""

    def submission_limit(self, chapter: int) -> int | None:
        """How many resources may go on the goal card in one night; None: no limit."""
        for number, limit in self.submission_limits:
            if number == chapter:
                return limit
        return self.default_submission_limit


class ContentPack(msgspec.Struct, frozen=True):
    ruleset: Ruleset
    chapters: dict[int, Chapter]
    cards: dict[str, Card]
    """Every event, habit and element card by number."""
    items: dict[str, Item]
    habits: tuple[str, ...]
    conversions: dict[str, Conversion]
    supports: dict[str, Support] = {}
    enemies: dict[str, Enemy] = {}
    quizzes: dict[str, QuizCard] = {}
    advanced: dict[str, Card] = {}
    """Advanced Mode's replacement cards, by the number of the card each replaces."""
    rules: int = 4
    """The rules version the pack is played by: not read from its files, but set by the game
    (:mod:`domain.eila.releases`), so that the rules' version switches read it beside the
    content (``if pack.rules >= 4``)."""

    @property
    def chapter_numbers(self) -> tuple[int, ...]:
        return tuple(sorted(self.chapters))

    def card(self, number: str, mode: str) -> Card:
        """Card ``number`` as played in ``mode``: in advanced mode its replacement, if any."""
        if mode == "advanced":
            replacement = self.advanced.get(number)
            if replacement is not None:
                return replacement
        return self.cards[number]
