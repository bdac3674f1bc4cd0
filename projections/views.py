"""What one seat (or a spectator, ``seat=None``) sees of a state: its view and its legal actions."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.game import Game


class Choice(msgspec.Struct, frozen=True):
    """A legal action as a client sees it: the id to send back and a label to show."""

    id: str
    label: str


def seat_view(game: Game, state: Any, seat: str | None) -> Any:
    """The seat's view as plain data (dicts, lists, strings, numbers)."""
    return msgspec.to_builtins(game.view(state, seat), str_keys=True)


def choices(game: Game, state: Any, seat: str | None) -> list[Choice]:
    """The seat's legal actions now; a spectator has none."""
    if seat is None:
        return []
    return [Choice(legal.id, legal.label) for legal in game.legal_actions(state, seat)]
