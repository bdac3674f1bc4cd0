"""Eila's events. Tags never change once stored; new fields get defaults.

Effect events (``ResourceTaken`` ... ``EffectSkipped``) each finish the effect at the state's
``step`` and move on to the next; ``RoomMade`` is the one exception, a forced discard in the middle
of a Fear effect.
"""

from __future__ import annotations

import msgspec


class ChapterOpened(msgspec.Struct, frozen=True, tag="eila/chapter_opened"):
    """A set-up that first needs the saved habit cards ordered."""

    chapter: int
    attempt: int


class HabitArranged(msgspec.Struct, frozen=True, tag="eila/habit_arranged"):
    habit: str


class ChapterSetUp(msgspec.Struct, frozen=True, tag="eila/chapter_set_up"):
    chapter: int
    attempt: int
    habit_order: tuple[str, ...] = ()
    """Saved habit cards put under the green deck, in this order."""


class CardRevealed(msgspec.Struct, frozen=True, tag="eila/card_revealed"):
    card: str


class OptionChosen(msgspec.Struct, frozen=True, tag="eila/option_chosen"):
    letter: str


class ResourceTaken(msgspec.Struct, frozen=True, tag="eila/resource_taken"):
    resource: str
    amount: int


class FearTaken(msgspec.Struct, frozen=True, tag="eila/fear_taken"):
    amount: int
    """Fear put into storage."""
    hearts: int
    """HP lost for Fear past the maximum."""


class RoomMade(msgspec.Struct, frozen=True, tag="eila/room_made"):
    """One intangible resource discarded to make room for incoming Fear."""

    resource: str


class ResourcePaid(msgspec.Struct, frozen=True, tag="eila/resource_paid"):
    resource: str
    amount: int


class CardFetched(msgspec.Struct, frozen=True, tag="eila/card_fetched"):
    """A blue card into the Future, or a red or habit card onto the upcoming deck."""

    card: str


class ItemAcquired(msgspec.Struct, frozen=True, tag="eila/item_acquired"):
    item: str


class ItemsDiscarded(msgspec.Struct, frozen=True, tag="eila/items_discarded"):
    items: tuple[str, ...]


class HeartGained(msgspec.Struct, frozen=True, tag="eila/heart_gained"):
    amount: int


class HeartBroken(msgspec.Struct, frozen=True, tag="eila/heart_broken"):
    amount: int


class EffectSkipped(msgspec.Struct, frozen=True, tag="eila/effect_skipped"):
    """An effect with nothing to do (an item already held, a card not in its deck)."""

    reason: str


class CardPlaced(msgspec.Struct, frozen=True, tag="eila/card_placed"):
    card: str
    destination: str


class NightBegan(msgspec.Struct, frozen=True, tag="eila/night_began"):
    pass


class Submitted(msgspec.Struct, frozen=True, tag="eila/submitted"):
    resource: str


class TimeMarked(msgspec.Struct, frozen=True, tag="eila/time_marked"):
    token: str
    """``"energy"``, or ``"heart"`` when there was no Energy to place."""


class FutureShuffled(msgspec.Struct, frozen=True, tag="eila/future_shuffled"):
    """The Future shuffled into the upcoming deck; a new day begins."""

    order: tuple[str, ...]
    draws: int
    count: int


class ChapterWon(msgspec.Struct, frozen=True, tag="eila/chapter_won"):
    chapter: int


class ChapterLost(msgspec.Struct, frozen=True, tag="eila/chapter_lost"):
    chapter: int
    reason: str
    """``"hp"`` or ``"time"``."""


class Converted(msgspec.Struct, frozen=True, tag="eila/converted"):
    conversion: str


class Discarded(msgspec.Struct, frozen=True, tag="eila/discarded"):
    resource: str


EilaEvent = (
    ChapterOpened
    | HabitArranged
    | ChapterSetUp
    | CardRevealed
    | OptionChosen
    | ResourceTaken
    | FearTaken
    | RoomMade
    | ResourcePaid
    | CardFetched
    | ItemAcquired
    | ItemsDiscarded
    | HeartGained
    | HeartBroken
    | EffectSkipped
    | CardPlaced
    | NightBegan
    | Submitted
    | TimeMarked
    | FutureShuffled
    | ChapterWon
    | ChapterLost
    | Converted
    | Discarded
)
