"""What one seat (or a spectator, ``seat=None``) sees of a state: its view and its legal actions."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.game import Game


class Choice(msgspec.Struct, frozen=True, gc=False):
    """A legal action as a client sees it: the id to send back and a label to show. (Two
    strings, never part of a cycle: untracked by the collector, whose young collections would
    otherwise walk every cached head's choices.)"""

    id: str
    label: str


class ViewUnavailable(Exception):
    """A version whose view the game failed to render: a fault in its rules code. Every version
    of every campaign has a view for every viewer, so this is a bug to fix; meanwhile the reader
    gets this typed answer (``view_unavailable``), never a dead connection. The game's own error
    is its ``__cause__``."""

    code = "view_unavailable"

    def __init__(self, version: int, seat: str | None) -> None:
        viewer = "a spectator" if seat is None else f"the seat {seat!r}"
        super().__init__(f"The view of version {version} for {viewer} could not be rendered.")
        self.version = version
        self.seat = seat


def seat_view(game: Game, state: Any, seat: str | None) -> Any:
    """The seat's view as plain data (dicts, lists, strings, numbers)."""
    return msgspec.to_builtins(game.view(state, seat), str_keys=True)


def view_at(game: Game, state: Any, seat: str | None, version: int) -> Any:
    """:func:`seat_view` of the state at ``version``, or :class:`ViewUnavailable`."""
    try:
        return seat_view(game, state, seat)
    except Exception as error:  # any fault of the game's view code, told apart by its cause
        raise ViewUnavailable(version, seat) from error


def choices(game: Game, state: Any, seat: str | None) -> list[Choice]:
    """The seat's legal actions now; a spectator has none."""
    if seat is None:
        return []
    return [Choice(legal.id, legal.label) for legal in game.legal_actions(state, seat)]
