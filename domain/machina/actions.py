"""What a seat can ask for. The acting seat is the explorer, so actions name only what the choice
is about: a direction, an item, a monster, a space, a side."""

from __future__ import annotations

import msgspec


class _Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, gc=False):
    pass


class Move(_Action, frozen=True, tag="move"):
    """One space north, east, south or west (``n``, ``e``, ``s``, ``w``)."""

    to: str


class Attack(_Action, frozen=True, tag="attack"):
    item: str
    monster: int


class UseItem(_Action, frozen=True, tag="use"):
    """``target``: the explorer a healing item restores (empty for a shock)."""

    item: str
    target: str


class Interact(_Action, frozen=True, tag="interact"):
    x: int
    y: int


class Equip(_Action, frozen=True, tag="equip"):
    """Ready ``item``; with every hand full, ``replacing`` is unequipped to make room."""

    item: str
    replacing: str | None = None


class Give(_Action, frozen=True, tag="give"):
    item: str
    to: str


class Explore(_Action, frozen=True, tag="explore"):
    side: str


class Exit(_Action, frozen=True, tag="exit"):
    pass


class EndTurn(_Action, frozen=True, tag="end-turn"):
    pass


class PlaceTile(_Action, frozen=True, tag="place-tile"):
    """Connect the flipped chapter tile against ``side`` of the tile placed ``anchor``-th."""

    anchor: int
    side: str


MachinaAction = (
    Move | Attack | UseItem | Interact | Equip | Give | Explore | Exit | EndTurn | PlaceTile
)
