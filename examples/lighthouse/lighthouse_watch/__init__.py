"""Lighthouse Watch: two keepers, hidden hands of lamps, and a deck of storms (a game for
tabletale, built step by step in its docs/games.md)."""

from __future__ import annotations

from lighthouse_watch.game import LighthouseGame

GAME = LighthouseGame()

__all__ = ["GAME", "LighthouseGame"]
