"""What a seat can ask for. The acting seat comes with the action, so actions name characters
only where the choice is about one."""

from __future__ import annotations

import msgspec


class _Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Hike(_Action, frozen=True, tag="hike"):
    pass


class TakePath(_Action, frozen=True, tag="path"):
    path: str


class Reroll(_Action, frozen=True, tag="reroll"):
    """Campsite: reroll ``dice`` (``"hand:5"``, ``"backpack:3"``...) of ``character``."""

    character: str
    dice: tuple[str, ...]


class Calm(_Action, frozen=True, tag="calm"):
    """Campsite: discard a die to lower the worry level by its value."""

    character: str
    slot: str
    value: int


class CashInsights(_Action, frozen=True, tag="cash-insights"):
    character: str
    cards: tuple[str, ...]


class Give(_Action, frozen=True, tag="give"):
    character: str
    slot: str
    value: int


class UsePower(_Action, frozen=True, tag="power"):
    """An ability or insight on one die; ``new`` is the value it becomes (0: rerolled)."""

    character: str
    power: str
    slot: str
    value: int
    new: int


class Organize(_Action, frozen=True, tag="organize"):
    character: str
    slot: str
    value: int
    target: str
    target_value: int


class TurnIn(_Action, frozen=True, tag="turn-in"):
    pass


class DreamAlone(_Action, frozen=True, tag="dream-alone"):
    character: str


class DreamTogether(_Action, frozen=True, tag="dream-together"):
    pass


class SkipDream(_Action, frozen=True, tag="skip-dream"):
    pass


class Pledge(_Action, frozen=True, tag="pledge"):
    requirement: int
    character: str
    slot: str
    value: int


class Wake(_Action, frozen=True, tag="wake"):
    """Stop paying: the dreamers sleep restlessly."""


class Eat(_Action, frozen=True, tag="eat"):
    pass


class Stow(_Action, frozen=True, tag="stow"):
    character: str


class Place(_Action, frozen=True, tag="place"):
    character: str
    slot: str
    value: int


class EndClimb(_Action, frozen=True, tag="end-climb"):
    pass


GilEnnisAction = (
    Hike
    | TakePath
    | Reroll
    | Calm
    | CashInsights
    | Give
    | UsePower
    | Organize
    | TurnIn
    | DreamAlone
    | DreamTogether
    | SkipDream
    | Pledge
    | Wake
    | Eat
    | Stow
    | Place
    | EndClimb
)
