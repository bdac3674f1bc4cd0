"""Machina Arcana: To Eternity: the Eternity chapter rules on a small co-operative dungeon crawl.

The base game is ours and is taught in ``README.md`` next to this file; each reading of the
Eternity rule sheet is listed in ``RULES_NOTES.md``.
"""

from __future__ import annotations

from domain.machina.game import MachinaGame

GAME = MachinaGame()

__all__ = ["GAME", "MachinaGame"]
