"""Eila and Something Shiny, chapters 0 and 1: a one-player story campaign of event cards.

Every place where the rulebook needed interpreting is listed, with the reason, in
``domain/eila/RULES_NOTES.md``.
"""

from __future__ import annotations

from domain.eila.game import GAME, EilaGame, chapter_outcome

__all__ = ["GAME", "EilaGame", "chapter_outcome"]
