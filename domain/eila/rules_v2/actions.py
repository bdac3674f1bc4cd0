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
)
