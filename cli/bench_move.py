"""``tabletale bench move``: the rules' and the view's work of an accepted move, as the server
asks for it, without the sockets, the store or the event loop.

Random legal playthroughs of a game are chosen first (a seeded picker, abandoning never chosen);
then each round plays them again move by move the way the server does (``server.campaigns``'
head and the live fan-out): the acting seat's listed action looked up, the action played, each
new state hashed and its event encoded, whether the new state is a decision point, a new head,
the patch between the two views of each seat, and each seat's new legal actions. The figure is
the best round's process time over the moves: the rounds are the same work, and the best is the
one the rest of the machine disturbed least. For a count that does not depend on the machine's
load, run it under ``valgrind --tool=callgrind`` with ``--rounds 1`` and ``--rounds 3``: the
difference over two rounds, divided by the moves, is the instructions of one move.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import engine
from domain.core.events import CampaignCreated, Options
from domain.core.game import Game
from domain.core.rng import Chance, Rng
from domain.games import get_game
from projections.patch import diff
from server.campaigns.codec import codec_for
from server.campaigns.head import Facts, Head

MOVES_PER_GAME = 300
"""Enough for a whole Gil & Ennis journey or Machina expedition; Eila's chapters are cut here."""


@dataclass
class Playthrough:
    start: Any
    """The state after creation and set-up."""
    moves: list[tuple[str, str]]
    """(seat, action id) of each move, in order."""


def playthroughs(
    game: Game, seats: tuple[str, ...], options: Options, games: int
) -> list[Playthrough]:
    chosen: list[Playthrough] = []
    for seed in range(games):
        created = CampaignCreated(game.info.name, game.info.ruleset, seed, "bench", seats, options)
        start = engine.evolve(game, None, created)
        for event in game.setup(start):
            start = engine.evolve(game, start, event)
        picker = Chance(Rng(seed, 0, "bench-move"))
        moves: list[tuple[str, str]] = []
        state = start
        while game.outcome(state) == "running" and len(moves) < MOVES_PER_GAME:
            acting = game.to_act(state)
            seat = acting[picker.below(len(acting))]
            listed = [a for a in game.legal_actions(state, seat) if a.id != "abandon"]
            if not listed:
                break
            action = listed[picker.below(len(listed))]
            moves.append((seat, action.id))
            state = game.play(state, seat, action.action)[-1][1]
        chosen.append(Playthrough(start, moves))
    return chosen


def serve_moves(game: Game, seats: tuple[str, ...], played: Sequence[Playthrough]) -> None:
    """Each move as the server's head and fan-out ask the rules for it."""
    codec = codec_for(game)
    for playthrough in played:
        head = Head(Facts("bench", game, seats, origin=0, attrs={}), 1, playthrough.start, "")
        for seat in seats:
            head.shown(seat)
            head.choices(seat)
        for seat, action_id in playthrough.moves:
            steps = game.play(head.state, seat, head.legal(seat)[action_id].action)
            _, recorded = codec.encode_steps(head.version, steps, seat, "bench", 0)
            engine.waits(game, steps[-1][1])
            after = head.advanced(recorded[-1].version, steps[-1][1], recorded[-1].hash)
            for viewer in seats:
                diff(head.shown(viewer), after.shown(viewer))
                after.choices(viewer)
            head = after


def bench_move(
    *,
    game_name: str,
    seats: Sequence[str],
    options: Options,
    games: int,
    rounds: int,
    as_json: bool,
) -> int:
    game = get_game(game_name)
    layout = tuple(seats) or game.info.seat_layouts[0]
    played = playthroughs(game, layout, options, games)
    moves = sum(len(p.moves) for p in played)
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        serve_moves(game, layout, played)
        best = min(best, time.process_time() - started)
    figures = {
        "game": game_name,
        "seats": list(layout),
        "options": options,
        "games": games,
        "moves": moves,
        "rounds": rounds,
        "us_per_move": round(best / max(moves, 1) * 1e6, 2),
    }
    if as_json:
        print(json.dumps(figures))
    else:
        print(
            f"{game_name} {', '.join(layout)}: {figures['us_per_move']} us of process time per "
            f"move (best of {rounds} rounds over {moves} moves of {games} playthroughs)"
        )
    return 0
