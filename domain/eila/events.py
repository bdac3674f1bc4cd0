"""Eila's events. Tags never change once stored; new fields get defaults.

Effect events (``ResourceTaken`` ... ``EffectSkipped`` and most of the chapter elements' events)
each finish the pending effect, the one at the top frame's step, and move on to the next. Some
resolve part of an effect only: ``RoomMade`` (a forced discard for incoming Fear), the combat's
``CombatBegan`` ... ``EnergySpent``, ``Moved`` and ``TileFlipped`` in a move, ``CardBought`` at a
market; ``AbilityUsed``, ``Converted``, ``Discarded`` and ``QuizAnswered`` are free actions.
"""

from __future__ import annotations

import msgspec


class ChapterOpened(msgspec.Struct, frozen=True, tag="eila/chapter_opened", gc=False):
    """A set-up that first needs the saved habit cards ordered."""

    chapter: int
    attempt: int


class HabitArranged(msgspec.Struct, frozen=True, tag="eila/habit_arranged", gc=False):
    habit: str


class ChapterSetUp(msgspec.Struct, frozen=True, tag="eila/chapter_set_up", gc=False):
    chapter: int
    attempt: int
    habit_order: tuple[str, ...] = ()
    """Saved habit cards put under the green deck, in this order."""


class CardRevealed(msgspec.Struct, frozen=True, tag="eila/card_revealed", gc=False):
    card: str


class OptionChosen(msgspec.Struct, frozen=True, tag="eila/option_chosen", gc=False):
    letter: str


class ResourceTaken(msgspec.Struct, frozen=True, tag="eila/resource_taken", gc=False):
    resource: str
    amount: int


class FearTaken(msgspec.Struct, frozen=True, tag="eila/fear_taken", gc=False):
    amount: int
    """Fear put into storage."""
    hearts: int
    """HP lost for Fear past the maximum (never more than the HP left)."""
    prevented: int = 0
    """HP losses a combat's shields prevented."""


class RoomMade(msgspec.Struct, frozen=True, tag="eila/room_made", gc=False):
    """One intangible resource discarded to make room for incoming Fear."""

    resource: str


class ResourcePaid(msgspec.Struct, frozen=True, tag="eila/resource_paid", gc=False):
    resource: str
    amount: int


class CardFetched(msgspec.Struct, frozen=True, tag="eila/card_fetched", gc=False):
    """A blue card into the Future, or a red or habit card onto the upcoming deck."""

    card: str


class ItemAcquired(msgspec.Struct, frozen=True, tag="eila/item_acquired", gc=False):
    item: str


class ItemsDiscarded(msgspec.Struct, frozen=True, tag="eila/items_discarded", gc=False):
    items: tuple[str, ...]


class HeartGained(msgspec.Struct, frozen=True, tag="eila/heart_gained", gc=False):
    amount: int


class HeartBroken(msgspec.Struct, frozen=True, tag="eila/heart_broken", gc=False):
    amount: int
    """HP lost (never more than the HP left)."""
    prevented: int = 0
    """HP losses a combat's shields prevented."""


class EffectSkipped(msgspec.Struct, frozen=True, tag="eila/effect_skipped", gc=False):
    """An effect with nothing to do (an item already held, a card not in its deck)."""

    reason: str


class CardPlaced(msgspec.Struct, frozen=True, tag="eila/card_placed", gc=False):
    card: str
    destination: str


class NightBegan(msgspec.Struct, frozen=True, tag="eila/night_began", gc=False):
    pass


class Submitted(msgspec.Struct, frozen=True, tag="eila/submitted", gc=False):
    resource: str


class TimeMarked(msgspec.Struct, frozen=True, tag="eila/time_marked", gc=False):
    token: str
    """``"energy"``, or ``"heart"`` when there was no Energy to place."""


class FutureShuffled(msgspec.Struct, frozen=True, tag="eila/future_shuffled", gc=False):
    """The Future shuffled into the upcoming deck; a new day begins."""

    order: tuple[str, ...]
    draws: int
    count: int


class ChapterWon(msgspec.Struct, frozen=True, tag="eila/chapter_won", gc=False):
    chapter: int
    ending: str = "A"
    """Ending A is the goal card's; an event card can win with another (Additional Rule 05)."""


class ChapterLost(msgspec.Struct, frozen=True, tag="eila/chapter_lost", gc=False):
    chapter: int
    reason: str
    """``"hp"`` or ``"time"``."""


class Converted(msgspec.Struct, frozen=True, tag="eila/converted", gc=False):
    conversion: str


class Discarded(msgspec.Struct, frozen=True, tag="eila/discarded", gc=False):
    resource: str


class FrameDone(msgspec.Struct, frozen=True, tag="eila/frame_done", gc=False):
    """Effects pushed by another effect, a quiz or a dark area are all done."""


class DestinationSet(msgspec.Struct, frozen=True, tag="eila/destination_set", gc=False):
    """The Present card will go here instead of where its option says."""

    destination: str


class SupportAcquired(msgspec.Struct, frozen=True, tag="eila/support_acquired", gc=False):
    support: str


class DieAcquired(msgspec.Struct, frozen=True, tag="eila/die_acquired", gc=False):
    die: str


class ClauseChecked(msgspec.Struct, frozen=True, tag="eila/clause_checked", gc=False):
    """An ``if`` clause (Additional Rule 07): when it holds, its effects run next."""

    holds: bool


class CombatBegan(msgspec.Struct, frozen=True, tag="eila/combat_began", gc=False):
    enemy: str


class CombatRolled(msgspec.Struct, frozen=True, tag="eila/combat_rolled", gc=False):
    """Eila's die, and the green die when she has it: face indices into the ruleset's faces."""

    red: int
    green: int | None
    draws: int


class EnergySpent(msgspec.Struct, frozen=True, tag="eila/energy_spent", gc=False):
    """1 Energy spent to boost the combat value."""


class CombatResolved(msgspec.Struct, frozen=True, tag="eila/combat_resolved", gc=False):
    """The fight's result; its won or lost option runs next, with ``shields`` against HP loss."""

    won: bool
    value: int
    enemy_value: int
    shields: int


class AbilityUsed(msgspec.Struct, frozen=True, tag="eila/ability_used", gc=False):
    """An item used or a support card's spell cast: its cost paid, what it gives taken."""

    card: str


class QuizDrawn(msgspec.Struct, frozen=True, tag="eila/quiz_drawn", gc=False):
    quiz: str
    draws: int


class QuizAnswered(msgspec.Struct, frozen=True, tag="eila/quiz_answered", gc=False):
    """The quiz card is turned over; a right answer's reward runs next. Only whether the choice
    was right is told, never the right one."""

    quiz: str
    choice: str
    correct: bool


class MineLaidOut(msgspec.Struct, frozen=True, tag="eila/mine_laid_out", gc=False):
    """The mine's tiles, one per slot; the face-down ones are hidden from the player."""

    tiles: tuple[str, ...]
    draws: int


class TileFlipped(msgspec.Struct, frozen=True, tag="eila/tile_flipped", gc=False):
    slot: int
    tile: str


class Moved(msgspec.Struct, frozen=True, tag="eila/moved", gc=False):
    """The token moves one grid; ``paid`` is what a cliff cost (``energy``, ``hp`` or ``""``)."""

    direction: str
    paid: str = ""


class MoveEnded(msgspec.Struct, frozen=True, tag="eila/move_ended", gc=False):
    pass


class LocationCovered(msgspec.Struct, frozen=True, tag="eila/location_covered", gc=False):
    location: str


class MarketDrawn(msgspec.Struct, frozen=True, tag="eila/market_drawn", gc=False):
    market: str
    cards: tuple[str, ...]
    draws: int


class CardBought(msgspec.Struct, frozen=True, tag="eila/card_bought", gc=False):
    """A market card paid for and put in the Future."""

    card: str


class BuyingEnded(msgspec.Struct, frozen=True, tag="eila/buying_ended", gc=False):
    pass


class LocationActionChosen(
    msgspec.Struct, frozen=True, tag="eila/location_action_chosen", gc=False
):
    """An option of the current location card; ``""``: none of them."""

    letter: str


class TrailAdvanced(msgspec.Struct, frozen=True, tag="eila/trail_advanced", gc=False):
    """The next location card is revealed on top of the trail."""

    card: str


class DawnPeeked(msgspec.Struct, frozen=True, tag="eila/dawn_peeked", gc=False):
    """A pocket watch shows the first card of the new day."""


class DawnChosen(msgspec.Struct, frozen=True, tag="eila/dawn_chosen", gc=False):
    last: bool
    """The card goes to the bottom of the upcoming deck, to be resolved last."""


class AbandonAsked(msgspec.Struct, frozen=True, tag="eila/abandon_asked", gc=False):
    pass


class AbandonWithdrawn(msgspec.Struct, frozen=True, tag="eila/abandon_withdrawn", gc=False):
    pass


class CampaignAbandoned(msgspec.Struct, frozen=True, tag="eila/campaign_abandoned", gc=False):
    """The campaign ends; an attempt still running counts as lost."""

    chapter: int


ChapterElementEvent = (
    DestinationSet
    | SupportAcquired
    | DieAcquired
    | ClauseChecked
    | CombatBegan
    | CombatRolled
    | EnergySpent
    | CombatResolved
    | AbilityUsed
    | QuizDrawn
    | QuizAnswered
    | MineLaidOut
    | TileFlipped
    | Moved
    | MoveEnded
    | LocationCovered
    | MarketDrawn
    | CardBought
    | BuyingEnded
    | LocationActionChosen
    | TrailAdvanced
    | DawnPeeked
    | DawnChosen
)
"""The events of support cards, combat, quizzes, the mine, markets, the trail and the pocket
watch: :mod:`domain.eila.rules.evolve_more` applies them."""


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
    | FrameDone
    | ChapterElementEvent
    | AbandonAsked
    | AbandonWithdrawn
    | CampaignAbandoned
)
