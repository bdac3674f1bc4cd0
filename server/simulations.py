"""Turning the ``simulate`` command's flags into a :class:`~server.simulate.Simulation`.

Games may offer two optional hooks beyond the :class:`~domain.core.game.Game` protocol:
``greedy_choice(state, legal)`` (a policy for ``--bot greedy``) and ``episode_outcome(state)`` (the
result of one episode inside a longer campaign, such as one attempt at an Eila chapter).
"""

from __future__ import annotations

from typing import Any

from domain.core.errors import InvalidOptions
from domain.core.game import Game
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
        greedy = getattr(game, "greedy_choice", None)
        if greedy is None:
            raise InvalidOptions(f"{game.title} has no greedy bot; use --bot random.")
        sim.policy = greedy
    episode = getattr(game, "episode_outcome", None)
    if episode is not None:
        sim.finished = _episode(episode)
    return sim


def _episode(episode: Any) -> Any:
    def finished(game: Game, state: Any) -> str:
        result: str = episode(state)
        return result

    return finished
