"""The events of a journey. Tags never change once stored; new fields get defaults.

Every event that carries a chance outcome also carries ``draws``, the generator's draw count
after it, so that evolve never draws.
"""

from __future__ import annotations

import msgspec


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class DiceRolled(_Event, frozen=True, tag="gil-ennis/dice_rolled"):
    """Set-up: five dice for a character, in order HAND, three BACKPACK, POCKET."""

    character: str
    faces: tuple[int, ...]
    draws: int


class DreamsShuffled(_Event, frozen=True, tag="gil-ennis/dreams_shuffled"):
    """The dream deck is shuffled (at set-up, or from the discard pile when it ran out)."""

    order: tuple[str, ...]
    count: int
    draws: int


class Hiked(_Event, frozen=True, tag="gil-ennis/hiked"):
    """The marker moved on; ``campsite`` is ``"summit"`` on reaching Mount Humbaba."""

    day: int
    campsite: str
    path: str = ""


class SpecialActionTaken(_Event, frozen=True, tag="gil-ennis/special_action_taken"):
    campsite: str
    special: str
    character: str


class DiceRerolled(_Event, frozen=True, tag="gil-ennis/dice_rerolled"):
    character: str
    slots: tuple[str, ...]
    old: tuple[int, ...]
    new: tuple[int, ...]
    draws: int


class DieDiscarded(_Event, frozen=True, tag="gil-ennis/die_discarded"):
    """A die goes back to the pool."""

    character: str
    slot: str
    value: int


class WorryLevelChanged(_Event, frozen=True, tag="gil-ennis/worry_level_changed"):
    level: int


class InsightsDiscarded(_Event, frozen=True, tag="gil-ennis/insights_discarded"):
    character: str
    cards: tuple[str, ...]


class DieDrawn(_Event, frozen=True, tag="gil-ennis/die_drawn"):
    """A die from the pool, rolled and added through the HAND slot with push-down."""

    character: str
    value: int
    draws: int


class DieGiven(_Event, frozen=True, tag="gil-ennis/die_given"):
    giver: str
    slot: str
    value: int
    receiver: str


class PowerUsed(_Event, frozen=True, tag="gil-ennis/power_used"):
    """An ability (``"ability:gil/steady-hands"``) or insight (``"insight:<card>"``) changed a
    die of ``character``."""

    character: str
    power: str
    slot: str
    old: int
    new: int
    draws: int


class SuppliesOrganized(_Event, frozen=True, tag="gil-ennis/supplies_organized"):
    character: str
    slot: str
    value: int
    target: str
    target_value: int


class TurnedIn(_Event, frozen=True, tag="gil-ennis/turned_in"):
    """A seat is done with the pitch; the night falls when every seat has turned in."""

    seat: str
    nightfall: bool


class DreamersChosen(_Event, frozen=True, tag="gil-ennis/dreamers_chosen"):
    """The top dream card is drawn for ``dreamers`` (none: the characters did not try)."""

    dreamers: tuple[str, ...]
    card: str


class DiePledged(_Event, frozen=True, tag="gil-ennis/die_pledged"):
    requirement: int
    character: str
    slot: str
    value: int


class DreamFulfilled(_Event, frozen=True, tag="gil-ennis/dream_fulfilled"):
    """The pledged dice are spent to the pool; an insight (alone) or a shared dream (together)."""

    card: str
    dreamers: tuple[str, ...]
    level: int


class DreamFailed(_Event, frozen=True, tag="gil-ennis/dream_failed"):
    """Restless sleep: the card goes under the map as a worry (if a card was drawn)."""

    card: str
    level: int


class Ate(_Event, frozen=True, tag="gil-ennis/ate"):
    """``character`` ate from ``pocket_of``'s POCKET die, which showed ``value`` before."""

    character: str
    pocket_of: str
    value: int


class ForageRolled(_Event, frozen=True, tag="gil-ennis/forage_rolled"):
    value: int
    draws: int


class ForageStowed(_Event, frozen=True, tag="gil-ennis/forage_stowed"):
    character: str
    value: int


class CampBroken(_Event, frozen=True, tag="gil-ennis/camp_broken"):
    """Breakfast is over; the next hike may begin."""


class FinalNightBegan(_Event, frozen=True, tag="gil-ennis/final_night_began"):
    """The worry dice and the dice added by worries, as they stand on Mount Humbaba."""

    challenge: tuple[int, ...]
    draws: int


class DiePlaced(_Event, frozen=True, tag="gil-ennis/die_placed"):
    character: str
    slot: str
    value: int
    space: int


class JourneyEnded(_Event, frozen=True, tag="gil-ennis/journey_ended"):
    result: str
    reason: str


GilEnnisEvent = (
    DiceRolled
    | DreamsShuffled
    | Hiked
    | SpecialActionTaken
    | DiceRerolled
    | DieDiscarded
    | WorryLevelChanged
    | InsightsDiscarded
    | DieDrawn
    | DieGiven
    | PowerUsed
    | SuppliesOrganized
    | TurnedIn
    | DreamersChosen
    | DiePledged
    | DreamFulfilled
    | DreamFailed
    | Ate
    | ForageRolled
    | ForageStowed
    | CampBroken
    | FinalNightBegan
    | DiePlaced
    | JourneyEnded
)
