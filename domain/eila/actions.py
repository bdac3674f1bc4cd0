"""What the player can do. Inbound actions forbid unknown fields."""

from __future__ import annotations

import msgspec


class ChooseOption(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="choose"):
    letter: str


class Take(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="take"):
    """How many of a ``+X`` resource effect to acquire."""

    amount: int


class PickItem(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="pick_item"):
    item: str


class DropItems(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="drop_items"):
    items: tuple[str, ...]


class MakeRoom(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="make_room"):
    resource: str


class Submit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="submit"):
    resource: str


class EndSubmissions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="end_night"):
    pass


class Convert(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="convert"):
    conversion: str


class Discard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="discard"):
    resource: str


class ArrangeHabit(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="arrange_habit"):
    habit: str


class Retry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="retry"):
    chapter: int


class BeginChapter(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="begin_chapter"):
    chapter: int


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="roll"):
    """Throw the combat dice."""


class SpendEnergy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="spend_energy"):
    """Spend 1 Energy in a combat for more combat value."""


class Fight(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fight"):
    """Compare the combat value with the enemy's and take the won or lost option."""


class Use(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="use"):
    """Use an item or cast a support card's spell."""

    card: str


class Answer(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="answer"):
    quiz: str
    choice: str


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="step"):
    """Move the token one grid; ``pay`` is how to pass a cliff (``energy``, ``hp`` or ``""``)."""

    direction: str
    pay: str = ""


class StopMoving(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="stop"):
    pass


class Buy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="buy"):
    card: str


class StopBuying(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="stop_buying"):
    pass


class LocationAction(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="location_action"
):
    """An option of the current location card; ``""``: none of them."""

    letter: str


class PayOrHurt(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="pay_or_hp"):
    """Pay the resource (``pay``), or lose HP instead."""

    pay: bool


class Dawn(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="dawn"):
    """Keep the card a pocket watch showed first, or resolve it last (``last``)."""

    last: bool


class Abandon(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="abandon"):
    """Ask to end the whole campaign; a confirmation follows."""


class ConfirmAbandon(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="confirm_abandon"
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
