"""Readable boards for the terminal, drawn from a seat's view and the game's public content:
one module per game that has one, and a generic board for any other game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients.screens import eila, generic, gil_ennis

Board = Callable[[Any, Any, "str | None"], list[str]]

BOARDS: dict[str, Board] = {"gil-ennis": gil_ennis.board, "eila": eila.board}


def board(game: str, view: Any, content: Any, seat: str | None) -> list[str]:
    """The lines that show ``view`` of ``game`` (``content``: its public content, or {})."""
    draw = BOARDS.get(game, generic.board)
    return draw(view, content or {}, seat)
