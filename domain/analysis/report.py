"""What an analysis finds, as plain Structs a caller may serialise and keep as a projection keyed
by the campaign, its ruleset and the level."""

from __future__ import annotations

import msgspec

from domain.analysis.figures import Estimate


class Move(msgspec.Struct, frozen=True, gc=False):
    """A legal action as the game words it."""

    id: str
    label: str


class Point(msgspec.Struct, frozen=True, gc=False):
    """One decision point: the chance of winning after the move played and after the move the
    search preferred, from what ``seat`` knew at ``version``."""

    version: int
    seat: str
    played: Move
    preferred: Move
    after_played: Estimate
    after_preferred: Estimate
    cost: float
    """How much the move played lowered the chance: ``after_preferred.p - after_played.p`` (0
    when they are the same move; below 0 when the playouts favoured the move played)."""
    after_version: int
    """The version the move played led to."""
    uncertain: bool
    """Whether what the move led to could have gone otherwise as far as the seat knew (a die, a
    draw, something face down): only then can luck have moved the chance."""


class TurningPoint(msgspec.Struct, frozen=True, gc=False):
    """A move that cost much, with the move the search preferred, in the game's words."""

    version: int
    seat: str
    played: Move
    preferred: Move
    after_played: Estimate
    after_preferred: Estimate
    cost: float
    words: str
    """"Pack Gil's dice ...: 48% instead of 31%"."""


class Luck(msgspec.Struct, frozen=True, gc=False):
    """A draw or roll that moved the chance: the estimate before the luck was known (after the
    move that met it) and after (at the next decision point, or the end)."""

    version: int
    """The decision point whose move met the luck."""
    after_version: int
    before: Estimate
    after: Estimate
    swing: float
    """``after.p - before.p``: below 0 for bad luck."""
    words: str


class Analysis(msgspec.Struct, frozen=True, gc=False):
    game: str
    ruleset: str
    level: int
    """The analysis level (:data:`domain.analysis.levels.LEVELS`); 0 for a depth of one's own."""
    search_level: int
    playouts: int
    seed: int
    points: tuple[Point, ...]
    turning_points: tuple[TurningPoint, ...]
    luck: tuple[Luck, ...]
    outcome: str
    """How the analysed line ended: ``won``, ``lost`` or ``running`` (in a game played in
    chapters, the attempt at the chapter, which is what its estimates are about)."""
