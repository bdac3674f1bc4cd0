"""Whose move it is and what is asked, in the game's words, for every view.

A turn bar reads it two ways: to a seat in ``to_act``, "Your move: <asked>"; to anyone else,
"Waiting for <name> <waiting>", with the name from :attr:`GameInfo.seat_names
<domain.core.game.GameInfo.seat_names>`. A game builds it from public facts only (the phase, the
pending decision, what lies face up), so every seat and spectator may be shown the same Turn.
"""

from __future__ import annotations

import msgspec


class Turn(msgspec.Struct, frozen=True, gc=False):
    to_act: tuple[str, ...] = ()
    """The seats that have a legal action now (the game's ``to_act``)."""
    asked: str = ""
    """What those seats are asked, addressed to them: "Choose an option of the present card"."""
    waiting: str = ""
    """The same for onlookers, completing "Waiting for <name> …": "to choose an option of the
    present card"."""


ENDED = Turn()
"""The campaign has ended: nobody is to act and nothing is asked."""
