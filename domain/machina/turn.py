"""Whose move it is and what is asked, in the game's words (see :mod:`domain.core.turn`).

Built from the table: the phase and the chapter tile waiting to be connected, never from a deck.
"""

from __future__ import annotations

from domain.core.turn import ENDED, Turn
from domain.machina.content_load import CONTENT, content
from domain.machina.rules import to_act
from domain.machina.state import MachinaState

SEAT_NAMES = {seat: card.name for seat, card in CONTENT.explorers.items()}
CHAPTER_NAMES = {
    card.id: card.title for card in (*CONTENT.scenario.chapters, CONTENT.scenario.endgame)
}


def _words(state: MachinaState) -> tuple[str, str]:
    if state.phase == "placing" and state.pending:
        name = content().chapter_tiles[state.pending].name
        return (
            f"Connect the chapter tile {name} to the play area",
            f"to connect the chapter tile {name}",
        )
    if state.phase == "explorers":
        return (
            f"Round {state.round}, explorer phase: spend your stamina to move, attack, search, "
            "explore or exit, then end your turn",
            "to take their turn",
        )
    return "Choose your next action", "to choose their next action"


def turn(state: MachinaState) -> Turn:
    seats = to_act(state)
    if not seats:
        return ENDED
    asked, waiting = _words(state)
    return Turn(seats, asked, waiting)
