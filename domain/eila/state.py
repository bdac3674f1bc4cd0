"""The state of an Eila campaign: one player, chapter after chapter, attempt after attempt.

Phases: ``setup`` (before the first set-up event), ``arranging`` (ordering saved habit cards under
the green deck), ``day`` (a card in the Present awaits an option, or the next card is revealed),
``dawn`` (a pocket watch shows the day's first card), ``night`` (submitting to the goal card),
``won`` and ``lost`` (the attempt is over until the next one begins) and ``abandoned`` (the
campaign is over).

Effects run from a stack of :class:`Frame`: choosing an option pushes its effects, a fight pushes
the option it won or lost, an ``if`` clause that holds pushes its effects, a quiz answered right
pushes its reward, a dark area pushes its Fear. Whatever the phase, the top frame's effect is the
pending one until the stack is empty.
"""

from __future__ import annotations

import msgspec

from domain.core.rng import Rng
from domain.eila.content_types import Effect


class Resources(msgspec.Struct, frozen=True, array_like=True, gc=False):
    food: int = 0
    coin: int = 0
    stone: int = 0
    knowledge: int = 0
    energy: int = 0
    fear: int = 0


NO_RESOURCES = Resources()


class Frame(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """Effects being executed in order (the golden rule), with the one at ``step`` pending."""

    effects: tuple[Effect, ...]
    step: int = 0
    place: str = ""
    """For an option's frame, where the Present card goes when it is done; ``""`` otherwise."""
    begun: bool = False
    """The effect at ``step`` is partly resolved (no conversion until it is done)."""
    done: int = 0
    """How much of the effect at ``step`` is done: grids moved."""
    shields: int = 0
    """HP losses this frame (a combat's outcome) still prevents."""


class Combat(msgspec.Struct, frozen=True, gc=False):
    """A fight in progress against ``enemy``: the dice once rolled, Energy spent, spells cast."""

    enemy: str
    rolled: bool = False
    red: int = 0
    """The face of Eila's die, as an index into its faces."""
    green: int | None = None
    """The face of the green die, when it was rolled."""
    energy: int = 0
    bonus: int = 0
    """Combat value from spells and items used in this combat."""
    shields: int = 0
    """Shields from spells and items used in this combat."""


class MineState(msgspec.Struct, frozen=True, gc=False):
    tiles: tuple[str, ...]
    """The tile in each slot of the mine, face down or not (hidden from the player)."""
    face_up: tuple[int, ...]
    """The slots whose tile is face up, in order."""
    token: tuple[int, int]
    """The grid of the Eila & Leo token, as (x, y) from the bottom-left grid."""
    covered: tuple[str, ...] = ()
    """Location numbers under a cover token."""


Deck = tuple[str, tuple[str, ...]]
"""A named deck and its cards."""


class EilaState(msgspec.Struct, frozen=True, gc=False):
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
    """How many top cards of the upcoming deck were put there face known (red and habit symbols,
    a location event, the card a pocket watch showed)."""
    known_at_bottom: int = 0
    """How many bottom cards of the upcoming deck are known (the card a pocket watch put last)."""
    present: str = ""
    option: str = ""
    frames: tuple[Frame, ...] = ()
    combat: Combat | None = None
    future: tuple[str, ...] = ()
    past: tuple[str, ...] = ()
    blue_deck: tuple[str, ...] = ()
    red_deck: tuple[str, ...] = ()
    habit_deck: tuple[str, ...] = ()
    location_deck: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    supports: tuple[str, ...] = ()
    dice: tuple[str, ...] = ()
    """Dice held besides Eila's red die (the green die)."""
    saved_items: tuple[str, ...] = ()
    saved_habits: tuple[str, ...] = ()
    saved_supports: tuple[str, ...] = ()
    saved_dice: tuple[str, ...] = ()
    progress: tuple[int, ...] = ()
    """Chapters won, in order."""
    endings: tuple[str, ...] = ()
    """Endings reached, as chapter and letter (``"2A"``, ``"3B"``), in order."""
    record: tuple[tuple[int, str], ...] = ()
    """Every finished attempt: its chapter and ``"won"`` or ``"lost"``."""
    result: str = ""
    """How the current attempt ended: ``""`` while it runs, ``"won"`` or ``"lost"``."""
    arranged: tuple[str, ...] = ()
    """Saved habit cards ordered so far for the bottom of the green deck, first placed first."""
    lost_reason: str = ""
    abandoning: bool = False
    """The player asked to abandon the campaign and has yet to confirm."""
    quiz_decks: tuple[Deck, ...] = ()
    quiz_open: tuple[str, ...] = ()
    """Quiz cards drawn and face up, waiting for an answer."""
    quiz_done: tuple[str, ...] = ()
    """Quiz cards answered and turned over."""
    mine: MineState | None = None
    markets: tuple[Deck, ...] = ()
    """Each market's cards face up in the Chapter Element Area."""
    trail: tuple[str, ...] = ()
    """Location cards revealed, the current one last."""
    trail_deck: tuple[str, ...] = ()
