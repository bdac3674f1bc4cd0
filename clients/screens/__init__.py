"""Readable boards for the terminal, drawn from a seat's view and the game's public content:
one module per game that has one, and a generic board for any other game; and the numbered
legal actions, under the game's headings where it has some."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from clients.screens import eila, generic, gil_ennis, machina

Board = Callable[[Any, Any, "str | None"], list[str]]

Headings = Callable[[Any, list[dict[str, Any]]], list[str]]

BOARDS: dict[str, Board] = {
    "gil-ennis": gil_ennis.board,
    "eila": eila.board,
    "machina": machina.board,
}
HEADINGS: dict[str, Headings] = {"gil-ennis": gil_ennis.headings, "machina": machina.headings}


def board(game: str, view: Any, content: Any, seat: str | None) -> list[str]:
    """The lines that show ``view`` of ``game`` (``content``: its public content, or {})."""
    draw = BOARDS.get(game, generic.board)
    return draw(view, content or {}, seat)


def numbered(game: str, view: Any, actions: list[dict[str, Any]]) -> list[str]:
    """The legal actions numbered from 1, in the server's order, with a heading line before each
    run of one kind when the game gives headings and the list has more than one kind."""
    heads = HEADINGS[game](view, actions) if game in HEADINGS else [""] * len(actions)
    grouped = len(set(heads)) > 1
    lines: list[str] = []
    last = None
    for number, (action, head) in enumerate(zip(actions, heads, strict=True), start=1):
        if grouped and head != last:
            lines.append(f"  {head}")
            last = head
        lines.append(f"  {number:>2}. {action['label']}")
    return lines
