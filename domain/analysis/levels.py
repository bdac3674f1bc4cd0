"""How deep an analysis looks: the search bot's level for the move it prefers, and playouts per
move compared. docs/analysis.md has what each costs."""

from __future__ import annotations

import msgspec

from domain.core.errors import InvalidOptions


class AnalysisLevel(msgspec.Struct, frozen=True, gc=False):
    search: int
    """The search bot's level (:data:`domain.bots.search_bot.LEVELS`) that finds the best move."""
    playouts: int
    """Playouts of each move compared at a decision point."""


LEVELS: dict[int, AnalysisLevel] = {
    1: AnalysisLevel(search=1, playouts=8),
    2: AnalysisLevel(search=2, playouts=16),
    3: AnalysisLevel(search=3, playouts=64),
}
DEFAULT_LEVEL = 2


Depth = int | AnalysisLevel | None
"""A level by its number (None: the default), or a depth of one's own (tests, calibration)."""


def analysis_level(level: Depth) -> AnalysisLevel:
    if isinstance(level, AnalysisLevel):
        return level
    found = LEVELS.get(DEFAULT_LEVEL if level is None else level)
    if found is None:
        raise InvalidOptions(f"An analysis runs at level {', '.join(map(str, LEVELS))}.")
    return found
