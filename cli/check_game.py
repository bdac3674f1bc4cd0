"""``tabletale check-game NAME``: the game kit's checks over seeded random playthroughs."""

from __future__ import annotations

import sys
import time

from domain.core.errors import DomainError
from domain.core.events import Options
from domain.games import get_game
from domain.kit import PROMISES, Budget, check_game

SHOWN = 3
"""Broken promises printed in full, per promise; the other playthroughs are named by seed."""


def run(name: str, *, playthroughs: int, moves: int, seed: int, options: Options) -> int:
    """Check the game called ``name``; print each broken promise; exit status 1 if any."""
    try:
        game = get_game(name)
    except DomainError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    budget = Budget(playthroughs=playthroughs, moves=moves, seed=seed, options=options)
    started = time.perf_counter()
    broken = check_game(game, budget)
    elapsed = time.perf_counter() - started
    last = seed + playthroughs - 1
    print(
        f"{game.info.title} ({game.info.ruleset}): {playthroughs} playthroughs "
        f"(seeds {seed}-{last}, up to {moves} actions each) in {elapsed:.1f} s"
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
