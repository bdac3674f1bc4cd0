"""The Epic of Gil & Ennis: two friends hike to Mount Humbaba, dreaming and worrying on the way.

Each rulebook gap and how it was filled is listed in ``RULES_NOTES.md`` next to this file.
"""

from __future__ import annotations

from domain.gil_ennis.game import GilEnnisGame

GAME = GilEnnisGame()

__all__ = ["GAME", "GilEnnisGame"]
