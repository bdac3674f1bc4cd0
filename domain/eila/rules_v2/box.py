"""What an Eila board may look up by the ids its view shows: the resources and their storage, the
conversion table, the items and the habit cards' names. Story cards stay out: they are met in
play, one at a time, and the Present card comes with its own name and text in the view."""

from __future__ import annotations

import msgspec

from domain.eila.rules_v2.content import (
    INTANGIBLE,
    RESOURCE_LABELS,
    RESOURCES,
    TANGIBLE,
    ContentPack,
    Conversion,
    Item,
)


class Storage(msgspec.Struct, frozen=True):
    """Spaces per kind: Food, Coin and Magical Stone share the tangible spaces; Knowledge,
    Energy and Fear the intangible ones, Fear up to ``fear``."""

    tangible: tuple[str, ...]
    intangible: tuple[str, ...]
    tangible_spaces: int
    intangible_spaces: int
    fear: int


class Box(msgspec.Struct, frozen=True):
    resources: tuple[tuple[str, str], ...]
    """``(id, label)`` in the order of the view's ``resources`` array."""
    storage: Storage
    time_track: int
    conversions: tuple[Conversion, ...]
    items: dict[str, Item]
    habits: dict[str, str]
    """Habit card number to its name."""


def box(pack: ContentPack) -> Box:
    ruleset = pack.ruleset
    return Box(
        resources=tuple((name, RESOURCE_LABELS[name]) for name in RESOURCES),
        storage=Storage(
            tangible=TANGIBLE,
            intangible=INTANGIBLE,
            tangible_spaces=ruleset.tangible_capacity,
            intangible_spaces=ruleset.intangible_capacity,
            fear=ruleset.fear_max,
        ),
        time_track=ruleset.time_track,
        conversions=tuple(pack.conversions.values()),
        items=dict(pack.items),
        habits={number: pack.cards[number].name for number in pack.habits},
    )
