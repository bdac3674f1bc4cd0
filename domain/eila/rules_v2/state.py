"""The state of an Eila campaign: one player, chapter after chapter, attempt after attempt.

Phases: ``setup`` (before the first set-up event), ``arranging`` (ordering saved habit cards under
the green deck), ``day`` (a card in the Present awaits an option), ``resolving`` (an option's effect
queue paused on a choice: the effect at ``step`` of ``option``), ``night`` (submitting to the goal
card), ``won`` and ``lost`` (the attempt is over until the next one begins).
"""

from __future__ import annotations

import msgspec

from domain.core.rng import Rng


class Resources(msgspec.Struct, frozen=True, array_like=True):
    food: int = 0
    coin: int = 0
    stone: int = 0
    knowledge: int = 0
    energy: int = 0
    fear: int = 0


NO_RESOURCES = Resources()


class EilaState(msgspec.Struct, frozen=True):
    rng: Rng
    mode: str
    phase: str = "setup"
    chapter: int = 0
    attempt: int = 0
    day: int = 1
    hp: int = 0
    max_hp: int = 0
    resources: Resources = NO_RESOURCES
    submitted: Resources = NO_RESOURCES
    night_submitted: int = 0
    time_track: tuple[str, ...] = ()
    """Tokens on the time track, slot 1 first: ``"energy"`` or ``"heart"``."""
    upcoming: tuple[str, ...] = ()
    """The upcoming deck, top card first."""
    known_on_top: int = 0
    """How many top cards of the upcoming deck were put there face known (red and habit symbols)."""
    present: str = ""
    option: str = ""
    step: int = 0
    future: tuple[str, ...] = ()
    past: tuple[str, ...] = ()
    blue_deck: tuple[str, ...] = ()
    red_deck: tuple[str, ...] = ()
    habit_deck: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    saved_items: tuple[str, ...] = ()
    saved_habits: tuple[str, ...] = ()
    progress: tuple[int, ...] = ()
    """Chapters won, in order."""
    arranged: tuple[str, ...] = ()
    """Saved habit cards ordered so far for the bottom of the green deck, first placed first."""
    lost_reason: str = ""
