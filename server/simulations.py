"""Turning the ``simulate`` command's flags into a :class:`~server.simulate.Simulation`.

Games may offer the optional hooks :class:`~domain.core.game.GreedyPlayer` (``--bot greedy``) and
:class:`~domain.core.game.Episodic` (one episode inside a longer campaign, such as one attempt at an
Eila chapter, counts as one simulated game).
"""

from __future__ import annotations

from typing import Any

from domain.core.errors import InvalidOptions
from domain.core.game import Episodic, Game, GreedyPlayer
from domain.games import get_game
from server.simulate import Simulation


def tune(
    sim: Simulation, *, players: int, chapter: int | None, mode: str | None, bot: str
) -> Simulation:
    game = get_game(sim.game)
    layouts = [layout for layout in game.seat_layouts() if len(layout) == players]
    if not layouts:
        raise InvalidOptions(f"{game.title} is not played by {players} players.")
    sim.seats = layouts[0]
    if chapter is not None:
        sim.options["chapter"] = chapter
    if mode is not None:
        sim.options["mode"] = mode
    if bot == "greedy":
        if not isinstance(game, GreedyPlayer):
            raise InvalidOptions(f"{game.title} has no greedy bot; use --bot random.")
        sim.policy = game.greedy_choice
    if isinstance(game, Episodic):
        sim.finished = _episode_outcome
    return sim


def _episode_outcome(game: Game, state: Any) -> str:
    assert isinstance(game, Episodic)
    return game.episode_outcome(state)
