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
    """The choice in words: the action's own label, how its playouts went, and the runner-up.

    The runner-up is named "behind" the choice only when its figure is no higher; when the bot
    kept its own usual move against a higher figure, the reason says why (too close to tell
    apart in so few imagined games, or tried too seldom to go by)."""
    label = chosen.action.label
    if chosen.runner_up is None or chosen.why == "only":
        return f"{label}: it is the only thing to do now."
    plays = _plays(game)
    share, other = _share(chosen.win_rate), _share(chosen.runner_up_rate)
    runner_up = _lower_first(chosen.runner_up.label)
    text = (
        f"{label}: in {chosen.iterations} imagined {plays}, it scored {share} "
        f"towards {_ending(game)}"
    )
    match chosen.why:
        case "best" if share == other:
            return f"{text}, level with {runner_up} ({other})."
        case "best":
            return f"{text}, ahead of {runner_up} ({other})."
        case "close":
            scored = f"also scored {other}" if share == other else f"scored {other}"
            return (
                f"{text}. {_upper_first(runner_up)} {scored}, within the noise of "
                f"{chosen.iterations} imagined {plays}, so the bot keeps its usual move."
            )
        case _:
            tried = "once" if chosen.runner_up_visits == 1 else f"{chosen.runner_up_visits} times"
            return (
                f"{text}. {_upper_first(runner_up)} scored {other} but was tried only "
                f"{tried}, too seldom to leave the usual move for it."
            )


def _share(rate: float) -> str:
    return f"{rate:.0%}"


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


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]
