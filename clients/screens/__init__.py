"""Readable boards for the terminal, drawn from a seat's view and the game's public content:
one module per game that has one, and a generic board for any other game; and the numbered
legal actions, under the game's headings where it has some."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from clients.screens import eila, generic, gil_ennis, machina
from clients.screens.common import WIDTH, width_now

Board = Callable[[Any, Any, "str | None"], list[str]]

Headings = Callable[[Any, list[dict[str, Any]]], list[str]]

BOARDS: dict[str, Board] = {
    "gil-ennis": gil_ennis.board,
    "eila": eila.board,
    "machina": machina.board,
}
HEADINGS: dict[str, Headings] = {"gil-ennis": gil_ennis.headings, "machina": machina.headings}


def board(game: str, view: Any, content: Any, seat: str | None, *, width: int = WIDTH) -> list[str]:
    """The lines that show ``view`` of ``game`` (``content``: its public content, or {}),
    wrapped at ``width``."""
    draw = BOARDS.get(game, generic.board)
    token = width_now.set(width)
    try:
        return draw(view, content or {}, seat)
    finally:
        width_now.reset(token)


def choices(
    game: str, view: Any, actions: list[dict[str, Any]], *, width: int = WIDTH
) -> list[tuple[str, list[str]]]:
    """Each legal action as ``(heading, lines)``: numbered from 1 in the server's order, its
    label wrapped on word boundaries at ``width`` under a hanging indent; the heading is the
    game's kind for it, or "" when the game gives none or the list has only one kind."""
    heads = HEADINGS[game](view, actions) if game in HEADINGS else [""] * len(actions)
    if len(set(heads)) < 2:
        heads = [""] * len(actions)
    out = []
    for number, (action, head) in enumerate(zip(actions, heads, strict=True), start=1):
        lead = f"  {number:>2}. "
        lines = textwrap.wrap(
            str(action["label"]),
            max(width - len(lead), 20),
            break_on_hyphens=False,
        ) or [""]
        out.append((head, [lead + lines[0]] + [" " * len(lead) + line for line in lines[1:]]))
    return out


def numbered(
    game: str, view: Any, actions: list[dict[str, Any]], *, width: int = WIDTH
) -> list[str]:
    """The legal actions numbered from 1, in the server's order, with a heading line before each
    run of one kind when the game gives headings and the list has more than one kind."""
    lines: list[str] = []
    last = ""
    for head, block in choices(game, view, actions, width=width):
        if head and head != last:
            lines.append(f"  {head}")
            last = head
        lines += block
    return lines
