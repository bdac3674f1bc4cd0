"""``tabletale check-game NAME|FOLDER``: the game kit's checks over seeded random playthroughs,
then the same playthroughs in a second process (:mod:`cli.kit_processes`)."""

from __future__ import annotations

import sys
import time

from cli.game_source import loaded, spec_of
from cli.kit_processes import across_processes
from domain.core.errors import DomainError
from domain.core.events import Options
from domain.core.game import Game
from domain.kit import PROMISES, Budget, check_game
from domain.kit.checks import moves_for

SHOWN = 3
"""Broken promises printed in full, per promise; the other playthroughs are named by seed."""


def run(name: str, *, playthroughs: int, moves: int | None, seed: int, options: Options) -> int:
    """Check the game ``name`` names (installed, or a package's folder); print each broken
    promise; exit status 1 if any."""
    try:
        with loaded(name) as game:
            return _check(game, name, playthroughs, moves, seed, options)
    except DomainError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2


def _check(
    game: Game, name: str, playthroughs: int, moves: int | None, seed: int, options: Options
) -> int:
    budget = Budget(playthroughs=playthroughs, moves=moves, seed=seed, options=options)
    started = time.perf_counter()
    broken = check_game(game, budget)
    broken += across_processes(game, spec_of(game, name), budget)
    elapsed = time.perf_counter() - started
    last = seed + playthroughs - 1
    limit = moves_for(game, budget)
    longest = ""
    if moves is None and game.info.longest:
        longest = ", its longest attempt at a chapter" if game.info.chapters else ", its longest"
    print(
        f"{game.info.title} ({game.info.ruleset}): {playthroughs} playthroughs "
        f"(seeds {seed}-{last}, up to {limit} moves each{longest}) in {elapsed:.1f} s"
    )
    for promise in PROMISES:
        mine = [b for b in broken if b.promise == promise]
        print(f"  {'broken' if mine else 'kept  '}  {PROMISES[promise]}")
    for promise in PROMISES:
        mine = [b for b in broken if b.promise == promise]
        for found in mine[:SHOWN]:
            print(str(found), file=sys.stderr)
        if len(mine) > SHOWN:
            seeds = ", ".join(str(b.seed) for b in mine[SHOWN:])
            print(
                f"  ... and {len(mine) - SHOWN} more of {promise!r} (seeds {seeds})",
                file=sys.stderr,
            )
    return 1 if broken else 0
