"""Hints: what the search bot would do now for a seat, with a short reason in the game's words.

A hint is not a move: nothing here changes a campaign or is stored in its stream. It decides from
what the seat may see, exactly as a bot seat does (the observation's hidden parts are replaced by
samples before the search looks), so a hint never gives away a face-down card or a future die.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.bots.search import Choice
from domain.bots.search_bot import think
from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng


class Hint(msgspec.Struct, frozen=True):
    action: LegalAction
    reason: str


def hint(game: Game, observation: Any, seat: str, *, level: int | None = None, seed: int) -> Hint:
    """The action the search bot at ``level`` would take for ``seat``, and why.

    ``observation`` is a state of the campaign; only what ``seat`` may see of it matters.
    The same ``seed`` and what the seat sees give the same hint.
    """
    chosen = think(game, observation, (seat,), level=level, chance=Chance(Rng(seed, 0, "hint")))
    return Hint(chosen.action, reason(game, chosen))


def reason(game: Game, chosen: Choice) -> str:
    """The choice in words: the action's own label, how its playouts went, and the runner-up."""
    label = chosen.action.label
    if chosen.runner_up is None or chosen.iterations == 0:
        return f"{label}: it is the only thing to do now."
    ending = _ending(game)
    share = f"{chosen.win_rate:.0%}"
    text = (
        f"{label}: in {chosen.iterations} imagined {_plays(game)}, it scored {share} "
        f"towards {ending}"
    )
    return f"{text}, ahead of {_lower_first(chosen.runner_up.label)} ({chosen.runner_up_rate:.0%})."


def _plays(game: Game) -> str:
    return {
        "gil-ennis": "journeys to Mount Humbaba",
        "eila": "days of this chapter",
        "machina": "expeditions",
    }.get(game.info.name, "games")


def _ending(game: Game) -> str:
    return {
        "gil-ennis": "reaching the peak",
        "eila": "meeting the chapter's goal",
        "machina": "escaping eternity",
    }.get(game.info.name, "a win")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
