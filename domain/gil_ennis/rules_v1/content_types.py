"""The game's cards as types: the map, the two character cards, six dream cards and Mount Humbaba.

Apart from the dream cards, these Structs are also the format of the files under ``content/``:
msgspec decodes each file straight into them and refuses any field it does not know.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

Text = Annotated[str, msgspec.Meta(pattern=r"\S", description="a non-empty string")]

PowerKind = Literal["nudge", "reroll", "flip", "set"]
"""nudge: +1 or -1 to one die; reroll: roll one die again; flip: turn one die to its opposite
face (7 minus its value); set: turn one die to the power's value."""
Frequency = Literal["round", "game"]
Step = Literal["pitch", "sleep", "break", "final_night"]
WorryKind = Literal["add_die", "add_rolled", "raise_lowest", "lose_pocket"]
Special = Literal["reroll", "calm", "cash_insights", "give"]
"""The four special campsite actions: one character rerolls any of their dice; a character
discards a die to lower the worry level by its value; a character discards insights to draw as
many dice; one character gives a die to the other."""

POWER_KINDS: tuple[PowerKind, ...] = get_args(PowerKind)
FREQUENCIES: tuple[Frequency, ...] = get_args(Frequency)
STEPS: tuple[Step, ...] = get_args(Step)
WORRY_KINDS: tuple[WorryKind, ...] = get_args(WorryKind)
SPECIALS: tuple[Special, ...] = get_args(Special)

# A die a dream asks for: one value, or a [low, high] range. The range is a two-item tuple[X, ...]
# because msgspec 0.23 crashes on a union of a constrained int and a fixed-length tuple.
AloneValue = Annotated[int, msgspec.Meta(ge=4, le=6)]
AloneDie = Annotated[
    AloneValue | Annotated[tuple[AloneValue, ...], msgspec.Meta(min_length=2, max_length=2)],
    msgspec.Meta(description="a die value from 4 to 6 or a [low, high] range of them"),
]
TogetherValue = Annotated[int, msgspec.Meta(ge=1, le=4)]
TogetherDie = Annotated[
    TogetherValue | Annotated[tuple[TogetherValue, ...], msgspec.Meta(min_length=2, max_length=2)],
    msgspec.Meta(description="a die value from 1 to 4 or a [low, high] range of them"),
]
ONE_TO_THREE_DICE = msgspec.Meta(min_length=1, max_length=3, description="a list of 1 to 3 dice")
Face = Annotated[int, msgspec.Meta(ge=0, le=6, description="a die face from 1 to 6")]


class Requirement(msgspec.Struct, frozen=True):
    """One die a dream asks for: any value from ``low`` to ``high``."""

    low: int
    high: int

    def accepts(self, value: int) -> bool:
        return self.low <= value <= self.high

    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


class Power(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: PowerKind
    value: Face = 0
    """The face a ``set`` power turns a die to; 0 for every other kind."""


class Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Text
    name: Text
    text: Text
    frequency: Frequency
    power: Power


class CharacterCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Literal["gil", "ennis"]
    name: Text
    abilities: Annotated[
        tuple[Ability, ...], msgspec.Meta(min_length=1, description="at least one ability")
    ]


class Insight(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Text
    text: Text
    step: Step
    power: Power


class Worry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Text
    text: Text
    kind: WorryKind
    value: Face = 0
    """The die a worry adds, the dice it rolls, or what it raises by; 0 for ``lose_pocket``."""


class DreamCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    alone: tuple[Requirement, ...]
    together: tuple[Requirement, ...]
    insight: Insight
    worry: Worry


class DreamFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A dream card as ``dreams.json`` spells it, each die a value or a [low, high] range."""

    id: Text
    name: Text
    alone: Annotated[tuple[AloneDie, ...], ONE_TO_THREE_DICE]
    together: Annotated[tuple[TogetherDie, ...], ONE_TO_THREE_DICE]
    insight: Insight
    worry: Worry


class Campsite(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Text
    name: Text
    special: Special | None = None


class TrailPath(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Text
    name: Text
    campsites: Annotated[
        tuple[Campsite, ...], msgspec.Meta(min_length=1, description="at least one campsite")
    ]


class TrailMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Text
    home: Text
    # The 5th hike offers the path choice, so exactly four campsites come before it.
    trail: Annotated[
        tuple[Campsite, ...],
        msgspec.Meta(min_length=4, max_length=4, description="exactly 4 campsites"),
    ]
    paths: Annotated[
        tuple[TrailPath, ...],
        msgspec.Meta(min_length=2, max_length=2, description="exactly two paths"),
    ]
    summit: Text

    def route(self, path: str) -> tuple[Campsite, ...]:
        """The campsites in hiking order: the shared trail, then ``path``'s (if chosen)."""
        for option in self.paths:
            if option.id == path:
                return self.trail + option.campsites
        return self.trail

    def path(self, path_id: str) -> TrailPath:
        return next(p for p in self.paths if p.id == path_id)


class Humbaba(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: Text
    text: Text
    won: Text
    lost: Text


class CharactersFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    characters: tuple[CharacterCard, ...]


class DreamsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dreams: Annotated[
        tuple[DreamFile, ...],
        msgspec.Meta(min_length=6, max_length=6, description="exactly 6 dream cards"),
    ]


class Content(msgspec.Struct, frozen=True):
    map: TrailMap
    characters: tuple[CharacterCard, ...]
    dreams: tuple[DreamCard, ...]
    humbaba: Humbaba
