"""What the player can do. Inbound actions forbid unknown fields."""

from __future__ import annotations

import msgspec


class ChooseOption(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="choose", gc=False):
    letter: str


class Take(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="take", gc=False):
    """How many of a ``+X`` resource effect to acquire."""

    amount: int


class PickItem(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="pick_item", gc=False):
    item: str


class DropItems(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="drop_items", gc=False
):
    items: tuple[str, ...]


class MakeRoom(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="make_room", gc=False):
    resource: str


class Submit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="submit", gc=False):
    resource: str


class EndSubmissions(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="end_night", gc=False
):
    pass


class Convert(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="convert", gc=False):
    conversion: str


class Discard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="discard", gc=False):
    resource: str


class ArrangeHabit(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="arrange_habit", gc=False
):
    habit: str


class Retry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="retry", gc=False):
    chapter: int


class BeginChapter(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="begin_chapter", gc=False
):
    chapter: int


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="roll", gc=False):
    """Throw the combat dice."""


class SpendEnergy(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="spend_energy", gc=False
):
    """Spend 1 Energy in a combat for more combat value."""


class Fight(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fight", gc=False):
    """Compare the combat value with the enemy's and take the won or lost option."""


class Use(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="use", gc=False):
    """Use an item or cast a support card's spell."""

    card: str


class Answer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="answer", gc=False):
    quiz: str
    choice: str


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="step", gc=False):
    """Move the token one grid; ``pay`` is how to pass a cliff (``energy``, ``hp`` or ``""``)."""

    direction: str
    pay: str = ""


class StopMoving(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="stop", gc=False):
    pass


class Buy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="buy", gc=False):
    card: str


class StopBuying(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="stop_buying", gc=False
):
    pass


class LocationAction(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="location_action", gc=False
):
    """An option of the current location card; ``""``: none of them."""

    letter: str


class PayOrHurt(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="pay_or_hp", gc=False):
    """Pay the resource (``pay``), or lose HP instead."""

    pay: bool


class Dawn(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="dawn", gc=False):
    """Keep the card a pocket watch showed first, or resolve it last (``last``)."""

    last: bool


class Abandon(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="abandon", gc=False):
    """Ask to end the whole campaign; a confirmation follows."""


class ConfirmAbandon(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="confirm_abandon", gc=False
):
    yes: bool


EilaAction = (
    ChooseOption
    | Take
    | PickItem
    | DropItems
    | MakeRoom
    | Submit
    | EndSubmissions
    | Convert
    | Discard
    | ArrangeHabit
    | Retry
    | BeginChapter
    | Roll
    | SpendEnergy
    | Fight
    | Use
    | Answer
    | Step
    | StopMoving
    | Buy
    | StopBuying
    | LocationAction
    | PayOrHurt
    | Dawn
    | Abandon
    | ConfirmAbandon
)
