"""One screen of the terminal client: a header (the game, the move number, whose seat), the board,
whose move it is, the numbered choices and the prompt, fitted to the terminal. When the board and
every choice do not fit, the choices come a page at a time (``n`` and ``p``) and, if the board
alone is too tall, the board too (``b``); the header, the whose-move line and the prompt stay.

Each line is a :class:`rich.text.Text`, styled for a terminal with colour; its ``plain`` is the
same line without."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from clients.screens import board, choices
from clients.screens.common import humanize

MIN_CHOICES = 5
"""Choice lines kept on screen however tall the board is."""
SEAT_NAMES = {
    "eila": {"player": "Eila"},
    "gil-ennis": {"player": "Gil & Ennis", "gil": "Gil", "ennis": "Ennis"},
}
"""Seat names for a server that does not list them in its games' facts (``seat_names``)."""


def seat_names(game: str, listed: dict[str, str] | None, view: Any) -> dict[str, str]:
    """Seat id -> the name a person knows it by: the server's list, else the known games' own,
    Machina's explorers from the view."""
    names = dict(SEAT_NAMES.get(game, {}))
    if isinstance(view, dict):
        for explorer in view.get("explorers") or []:
            if isinstance(explorer, dict) and "id" in explorer and "name" in explorer:
                names[str(explorer["id"])] = str(explorer["name"])
    names.update(listed or {})
    return names


def named(seats: list[str], names: dict[str, str]) -> str:
    shown = [names.get(seat) or humanize(seat) for seat in seats]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else text + "."


def whose_move(
    view: Any, seat: str | None, names: dict[str, str], legal: list[dict[str, Any]]
) -> tuple[str, bool]:
    """The line that says whose move it is, and whether it is this seat's."""
    turn = view.get("turn") if isinstance(view, dict) else None
    if isinstance(turn, dict):
        to_act = [str(s) for s in turn.get("to_act") or []]
        if seat is not None and seat in to_act and legal:
            asked = str(turn.get("asked") or "choose one of the actions")
            return _sentence(f"Your move, {named([seat], names)}: {asked}"), True
        if to_act:
            waiting = str(turn.get("waiting") or "to move")
            return _sentence(f"Waiting for {named(to_act, names)} {waiting}"), False
    if legal and seat is not None:
        return f"Your move, {named([seat], names)}: choose one of the actions.", True
    if legal:
        return "Your move: choose one of the actions.", True
    acting = view.get("to_act") if isinstance(view, dict) else None
    if isinstance(acting, str) and acting:
        return f"Waiting for {named([acting], names)} to move.", False
    if isinstance(acting, list) and acting:
        return f"Waiting for {named([str(s) for s in acting], names)} to move.", False
    return "Waiting for the other seats...", False


@dataclass(frozen=True, kw_only=True)
class Table:
    """What a screen shows: the seat's replica as it stands, and the game's facts."""

    game: str
    title: str
    version: int
    seat: str | None
    view: Any
    legal: list[dict[str, Any]]
    outcome: str
    content: Any = None
    names: dict[str, str] | None = None
    """Seat id -> name, as the server lists them (``seat_names``), if it does."""
    move: int | None = None
    """The moves made, as players count them (the timeline's lines carry them); None: not
    known, and the header says the version."""
    footer: tuple[str, ...] = ()
    """Lines kept at the foot of every screen: how to come back to this seat."""


@dataclass(frozen=True)
class Screen:
    lines: list[Text]
    choice_pages: int
    board_pages: int


def _wrap(text: str, width: int, style: str = "") -> list[Text]:
    indent = " " * (len(text) - len(text.lstrip(" ")))
    parts = textwrap.wrap(text, width, subsequent_indent=indent + "  ", break_on_hyphens=False) or [
        ""
    ]
    return [Text(part, style=style) for part in parts]


def _choice(line: str) -> Text:
    # A choice stays plain, so that what reads the lines can find ``  12. label`` as typed; a
    # heading over a run of one kind stands out.
    return Text(line, style="" if _numbered(line) else "bold cyan")


def pages(blocks: list[tuple[str, list[str]]], room: int) -> list[list[str]]:
    """The choices cut into pages of at most ``room`` lines (one choice longer than that gets a
    page of its own); a page that starts inside a run of one kind repeats its heading."""
    out: list[list[str]] = [[]]
    shown = ""
    for head, lines in blocks:
        wanted = lines if not head or head == shown else [f"  {head}", *lines]
        if out[-1] and len(out[-1]) + len(wanted) > room:
            out.append([])
            wanted = [f"  {head}", *lines] if head else lines
        out[-1].extend(wanted)
        shown = head
    return out


def screen(
    table: Table, *, width: int, height: int | None, page: int = 0, board_page: int = 0
) -> Screen:
    """The screen for ``table`` in a terminal of ``width`` by ``height`` (None: a line sink, no
    paging), at choice page ``page`` and board page ``board_page`` (both wrap around)."""
    usable = max(width - 2, 30)
    names = seat_names(table.game, table.names, table.view)
    who = f"you play {named([table.seat], names)}" if table.seat else "watching as a spectator"
    move = table.version if table.move is None else table.move
    where = f"move {move}" if move else "setting up"
    head = f"== {table.title or table.game} · {where} · {who}"
    if table.outcome != "running":
        head += f" · {table.outcome}"
    header = _wrap(head + " ==", usable, "bold")
    drawn = board(table.game, table.view, table.content, table.seat, width=usable)
    board_lines = [line for text in drawn for line in _wrap(text, usable)]
    said, mine = whose_move(table.view, table.seat, names, table.legal)
    turn = _wrap(said, usable, "bold green" if mine else "yellow")
    blocks = choices(table.game, table.view, table.legal, width=usable)
    everything = pages(blocks, 10**9)[0] if blocks else []
    # the way back is a command to copy whole: its lines are never wrapped again
    footer = [Text(line, style="dim") for line in table.footer]
    if height is None:
        actions = [Text("Actions:", style="bold")] if blocks else []
        lines = header + board_lines + turn + actions + [_choice(line) for line in everything]
        return Screen(lines + footer, 1, 1)
    free = height - len(header) - len(turn) - 1 - (1 if blocks else 0) - len(footer)
    if len(board_lines) + len(everything) <= free:
        choice_room, board_room = max(len(everything), 1), len(board_lines)
    else:
        choice_room = max(min(len(everything), MIN_CHOICES), free - len(board_lines))
        board_room = max(free - choice_room, 2)
    board_shown, board_count = board_lines, 1
    if board_room < len(board_lines):
        per = board_room - 1
        board_count = -(-len(board_lines) // per)
        at = board_page % board_count * per
        part = board_lines[at : at + per]
        more = f"  b: more of the board (lines {at + 1}-{at + len(part)} of {len(board_lines)})"
        board_shown = [*part, Text(more, style="dim")]
    cut = pages(blocks, choice_room) if blocks else [[]]
    shown = cut[page % len(cut)]
    actions = []
    if blocks:
        label = "Actions:"
        if len(cut) > 1:
            first = sum(1 for p in cut[: page % len(cut)] for line in p if _numbered(line))
            count = sum(1 for line in shown if _numbered(line))
            label += (
                f" {first + 1}-{first + count} of {len(table.legal)} · n: more choices, p: back"
            )
        actions = [Text(label, style="bold")]
    lines = header + board_shown + turn + actions + [_choice(line) for line in shown] + footer
    return Screen(lines, len(cut), board_count)


def _numbered(line: str) -> bool:
    number, dot, _ = line.partition(". ")
    return bool(dot) and number.strip().isdigit()
